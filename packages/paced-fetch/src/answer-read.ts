import type { VenueResponse } from '@core/exchange-specs';

const decoder = new TextDecoder();

function parseBody(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * An answer as exchange-specs reads it: status, lower-case headers, and the body decoded and parsed only if a rule
 * reads it (an order book's is most of an answer), once. A class, so that an answer costs one object.
 */
export class AnswerRead implements VenueResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly #bytes: ArrayBuffer;
  #text: string | undefined;
  #body: { readonly value: unknown } | undefined;

  constructor(status: number, headers: Readonly<Record<string, string>>, bytes: ArrayBuffer) {
    this.status = status;
    this.headers = headers;
    this.#bytes = bytes;
  }

  #decoded(): string {
    this.#text ??= decoder.decode(this.#bytes);
    return this.#text;
  }

  get body(): unknown {
    this.#body ??= { value: parseBody(this.#decoded()) };
    return this.#body.value;
  }

  bodyHolds(part: string): boolean {
    return this.#decoded().includes(part);
  }
}
