/** What ccxt's own `undiciRequest` answers (undici.request's response, read through ccxt). */
export interface UndiciAnswer {
  readonly status: number;
  readonly statusText?: string;
  readonly headers: Readonly<Record<string, string | readonly string[] | undefined>>;
  arrayBuffer(): Promise<ArrayBuffer | Uint8Array>;
}

/** A request as ccxt hands it to its transport: method, headers, body, and transport options. */
export type TransportParams = Record<string, unknown> & { method?: string; headers?: Record<string, string>; body?: unknown };

/** One of ccxt's transports: its `fetchImplementation`, or its `undiciRequest`. */
export type Transport = (url: string, params: TransportParams) => Promise<unknown>;

const NULL_BODY = new Set([101, 103, 204, 205, 304]);

function isResponse(x: unknown): x is Response {
  return typeof Response !== 'undefined' && x instanceof Response;
}

function isUndiciAnswer(x: unknown): x is UndiciAnswer {
  return typeof x === 'object' && x !== null && typeof (x as UndiciAnswer).status === 'number' && typeof (x as UndiciAnswer).arrayBuffer === 'function';
}

/**
 * A WHATWG `Response` of what a ccxt transport answered, for the paced fetch (which reads status,
 * headers and body, and hands ccxt a copy): a `Response` as is, undici.request's answer rebuilt.
 *
 * @throws TypeError when the transport answered something else.
 */
export async function toResponse(answer: unknown): Promise<Response> {
  if (isResponse(answer)) return answer;
  if (!isUndiciAnswer(answer)) throw new TypeError('ccxt-pacing: the transport answered neither a Response nor an undici response');
  const headers = new Headers();
  for (const [name, value] of Object.entries(answer.headers)) {
    if (value === undefined) continue;
    if (typeof value === 'string') headers.append(name, value);
    else for (const v of value) headers.append(name, v);
  }
  // the body is already inflated by ccxt (undiciBody): its encoding header no longer applies
  headers.delete('content-encoding');
  headers.delete('content-length');
  const body = NULL_BODY.has(answer.status) ? null : await answer.arrayBuffer();
  return new Response(body, { status: answer.status, statusText: answer.statusText ?? '', headers });
}

/** A signal that aborts when `signal` does or after `ms`, whichever comes first. */
export function withTimeout(signal: AbortSignal | null | undefined, ms: number): AbortSignal {
  const timeout = AbortSignal.timeout(ms);
  if (signal === undefined || signal === null) return timeout;
  if (typeof AbortSignal.any === 'function') return AbortSignal.any([signal, timeout]);
  const controller = new AbortController();
  const abort = (s: AbortSignal): void => controller.abort(s.reason);
  if (signal.aborted) abort(signal);
  signal.addEventListener('abort', () => abort(signal), { once: true });
  timeout.addEventListener('abort', () => abort(timeout), { once: true });
  return controller.signal;
}
