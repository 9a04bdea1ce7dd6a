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

interface HeadersLike {
  forEach(fn: (value: string, name: string) => void): void;
}

function isAnswer(x: unknown): x is UndiciAnswer | Response {
  return typeof x === 'object' && x !== null && typeof (x as UndiciAnswer).status === 'number' && typeof (x as UndiciAnswer).arrayBuffer === 'function';
}

/**
 * The headers of an undici answer as the paced fetch reads them: one own enumerable property per header
 * (lower-case name, repeated values joined), so that it serves as a `HeadersInit` record, and `forEach`,
 * `get` and `has` on the prototype like a `Headers`. Cheaper than a `Headers`, which validates every value.
 */
class HeaderRecord {
  [name: string]: unknown;

  forEach(fn: (value: string, name: string) => void): void {
    for (const name of Object.keys(this)) fn(this[name] as string, name);
  }

  get(name: string): string | null {
    const v = Object.hasOwn(this, name.toLowerCase()) ? this[name.toLowerCase()] : undefined;
    return typeof v === 'string' ? v : null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }
}

/** Header names a {@link HeaderRecord} cannot hold as own properties without hiding its methods. */
const RESERVED = new Set(['forEach', 'get', 'has', 'constructor', '__proto__']);

/**
 * An undici answer read once, its bytes in hand: what the paced fetch reads (status, headers, body, as a
 * `Response` would give them) and what ccxt gets back ({@link CcxtAnswer}), so that no WHATWG `Response`,
 * `Headers` or web stream is built on the way.
 */
export interface ReadAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly url: string;
  readonly ok: boolean;
  readonly headers: HeaderRecord;
  /** The headers as undici gave them, for ccxt. */
  readonly rawHeaders: UndiciAnswer['headers'];
  readonly bytes: ArrayBuffer | Uint8Array;
  /** Always false: the bytes are in hand and read again at will, so the paced fetch hands this answer back instead of a copy. */
  readonly bodyUsed: false;
  arrayBuffer(): Promise<ArrayBuffer | Uint8Array>;
  text(): Promise<string>;
}

const decoder = new TextDecoder();

/** Copies one header into a record, unless it no longer applies or would hide the record's methods. */
function put(headers: HeaderRecord, name: string, value: string | readonly string[] | undefined): void {
  const n = name.toLowerCase();
  if (value === undefined || RESERVED.has(n) || n === 'content-encoding' || n === 'content-length') return;
  headers[n] = typeof value === 'string' ? value : value.join(', ');
}

/**
 * Reads what a ccxt transport answered (undici.request's answer through ccxt's undiciRequest, or a
 * `Response` of a fetchImplementation), body included, for the paced fetch (which reads status, headers
 * and body) and for ccxt ({@link toCcxtAnswer}). The body is already inflated (by ccxt's undiciBody, or by
 * fetch), so its `content-encoding` and `content-length` no longer apply.
 *
 * @throws TypeError when the transport answered something else.
 */
export async function readAnswer(answer: unknown, url: string): Promise<ReadAnswer> {
  if (!isAnswer(answer)) throw new TypeError('ccxt-pacing: the transport answered neither a Response nor an undici response');
  const headers = new HeaderRecord();
  const raw = answer.headers as UndiciAnswer['headers'] | HeadersLike;
  if (typeof raw.forEach === 'function') (raw as HeadersLike).forEach((value, name) => put(headers, name, value));
  else for (const name of Object.keys(raw)) put(headers, name, (raw as UndiciAnswer['headers'])[name]);
  const bytes = await answer.arrayBuffer();
  const status = answer.status;
  return {
    status,
    statusText: answer.statusText ?? '',
    url,
    ok: status >= 200 && status < 300,
    headers,
    rawHeaders: typeof raw.forEach === 'function' ? (headers as unknown as UndiciAnswer['headers']) : (raw as UndiciAnswer['headers']),
    bytes,
    bodyUsed: false,
    arrayBuffer: async () => bytes,
    text: async () => decoder.decode(bytes),
  };
}

/** What ccxt's `handleRestResponse` reads of an answer: the shape its own `undiciRequest` returns. */
export interface CcxtAnswer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: UndiciAnswer['headers'];
  text(): Promise<string>;
  arrayBuffer(): Promise<ArrayBuffer | Uint8Array>;
}

/** The answer ccxt gets for a read undici answer: the venue's status, headers and bytes as its undiciRequest would give them. */
export function toCcxtAnswer(a: ReadAnswer): CcxtAnswer {
  return { status: a.status, statusText: a.statusText, headers: a.rawHeaders, text: a.text, arrayBuffer: a.arrayBuffer };
}

/** A signal that aborts when `signal` does or `ms` after the call (a `TimeoutError`, as ccxt expects); `done()` stops the timer. */
export function deadline(signal: AbortSignal | null | undefined, ms: number): { readonly signal: AbortSignal; done(): void } {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`the request took longer than ${ms} ms`, 'TimeoutError')), ms);
  if (signal === undefined || signal === null) return { signal: controller.signal, done: () => clearTimeout(timer) };
  const follow = (): void => controller.abort(signal.reason);
  if (signal.aborted) follow();
  else signal.addEventListener('abort', follow, { once: true });
  return {
    signal: controller.signal,
    done: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', follow);
    },
  };
}
