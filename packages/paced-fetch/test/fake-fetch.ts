/** A recorded call of {@link FakeFetch}. */
export interface FakeCall {
  readonly url: string;
  readonly method: string;
  readonly body: string | undefined;
}

/**
 * A fetch that answers from a script, one response per call (the last one repeats), and records
 * what it was asked: the client's tests check what went out without a network.
 */
export class FakeFetch {
  readonly calls: FakeCall[] = [];
  #script: (() => Response)[];

  constructor(...script: (() => Response)[]) {
    this.#script = script;
  }

  readonly fetch = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    const method = init?.method ?? (input instanceof Request ? input.method : 'GET');
    this.calls.push({ url, method, body: typeof init?.body === 'string' ? init.body : undefined });
    const next = this.#script.length > 1 ? this.#script.shift() : this.#script[0];
    if (next === undefined) throw new Error('FakeFetch: no response scripted');
    return next();
  };
}

/** A JSON response. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): () => Response {
  return () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
}
