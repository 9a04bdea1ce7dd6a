import type { VenueResponse } from '@core/exchange-specs';

const decoder = new TextDecoder();
/** Whether text is of ASCII characters only: found in the bytes as in the text they decode to (see {@link AnswerRead.bodyHolds}). */
function isAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) > 0x7f) return false;
  return true;
}
/** Node's Buffer, where there is one: its search runs over the bytes without decoding them. */
const NodeBuffer = (globalThis as { Buffer?: typeof Buffer }).Buffer;

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
  #view: Buffer | undefined;
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

  /**
   * Whether the body's text holds `part`. Text of ASCII characters is looked for in the bytes, undecoded: in UTF-8
   * decoding an ASCII byte is always its own character and every other byte makes none (a byte order mark dropped,
   * a bad sequence a replacement character), so the text holds it exactly when the bytes do.
   */
  bodyHolds(part: string): boolean {
    if (this.#text !== undefined || NodeBuffer === undefined || !isAscii(part)) return this.#decoded().includes(part);
    const b = this.#bytes as ArrayBuffer | Uint8Array;
    this.#view ??= ArrayBuffer.isView(b) ? NodeBuffer.from(b.buffer, b.byteOffset, b.byteLength) : NodeBuffer.from(b);
    return this.#view.includes(part, 0, 'latin1');
  }
}
