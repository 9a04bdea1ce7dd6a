import type { Exchange } from 'ccxt';
import type { RateLimiter } from '@core/rate-limit-contract';
import type { VenueSpec } from '@core/exchange-specs';
import { createPacedFetch, isPacedFetchError, PacedFetchError, type AttemptEvent, type PacedFetch, type PacedFetchOptions } from '@core/paced-fetch';
import { toCcxtError } from './errors.js';
import { estimateSpec, routeCall, siteOf } from './routes.js';
import { SignedCalls, type SignedCall } from './signed-calls.js';
import { deadline, readAnswer, toCcxtAnswer, type ReadAnswer, type Transport, type TransportParams } from './transport.js';

/** The paced fetch's options this package passes through to every paced fetch it creates. */
export type PacingOptions = Omit<PacedFetchOptions, 'venue' | 'identity' | 'limiter' | 'fetch' | 'maxWaitMs' | 'onAttempt'>;

/** Options of {@link paceExchange}. */
export interface PaceExchangeOptions {
  /** Any implementation of `@core/rate-limit-contract`: in-process, or Redis to share the buckets across processes. */
  readonly limiter: RateLimiter;
  /**
   * Whose buckets the calls spend: the API key (default the exchange's `apiKey` at each call, `null` when
   * it has none), the account's `uid` (keys of one account share its uid buckets) and `tier`.
   */
  readonly identity?: { readonly credential?: string | null; readonly uid?: string; readonly tier?: string };
  /** Each call's wait budget, ms (the paced fetch's `maxWaitMs`); default 10 000. */
  readonly maxWaitMs?: number;
  /**
   * How many processes send on the same buckets through a shared store (the paced fetch's
   * `deferredCharges.processes`): on Redis, pass the number of processes.
   */
  readonly processes?: number;
  /** Pace what no documented spec prices by ccxt's own cost estimate (the `ccxt:<id>` spec) instead of refusing it; default `false`. */
  readonly ccxtEstimate?: boolean;
  /** Sign each request again when its send time comes, with a fresh timestamp or nonce; default `true`. */
  readonly signAtSend?: boolean;
  /** Specs to use instead of the stored ones, by spec id (`{ 'binance-spot': mySpec }`). */
  readonly specs?: Readonly<Record<string, VenueSpec>>;
  /** More options for every paced fetch (`margin`, `priority`, `windowLimits`, `liveLimits`...). */
  readonly pacing?: PacingOptions;
  /**
   * Stops the pacing: calls still waiting for their send time reject unsent (`ExchangeNotAvailable`, code
   * `aborted`), and later calls at once. A call already sent completes. For a shutdown, or the end of a run.
   */
  readonly signal?: AbortSignal;
  /** Called after every attempt sent, with the spec id in `event.venue`. */
  readonly onAttempt?: (event: AttemptEvent) => void;
}

/** The parts of a ccxt exchange instance the adapter hooks (ccxt 4's `Exchange`). */
interface Hooked {
  id: string;
  apiKey?: string;
  enableRateLimit: boolean;
  timeout: number;
  milliseconds(): number;
  fetchIsNative?: boolean;
  undiciModule?: unknown;
  fetchImplementation?: Transport;
  fetchImplementationLoading?: unknown;
  undiciRequest?: Transport;
  loadFetchImplementation(): Promise<unknown>;
  sign(path: string, api?: unknown, method?: string, params?: unknown, headers?: unknown, body?: unknown): SignedRequest;
}

interface SignedRequest {
  readonly url: string;
  readonly method: string;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** One transport call on its way through a paced fetch. */
interface Call {
  readonly url: string;
  readonly params: TransportParams;
  readonly transport: Transport;
  readonly signed: SignedCall | undefined;
  /** When ccxt handed the call to its transport (this process's clock, ms), and ccxt's own timeout signal for it. */
  readonly handedAt: number;
  readonly ccxtSignal: AbortSignal | undefined;
  /** The transport's answer to the last attempt sent, read: what ccxt gets back. */
  answer?: ReadAnswer;
}

const PACED = Symbol.for('@core/ccxt-pacing/paced');
const CALL = Symbol('@core/ccxt-pacing/call');
/** How long a look at the limiter's holds may take before a timeout is reported without it, ms. */
const HOLD_LOOK_MS = 250;
/** How old (ccxt's clock, ms) the latest signature may be and still be sent as it is. */
const FRESH_MS = 10;
/**
 * A call sent at most this long after ccxt handed it over (ms) keeps ccxt's own timeout, which ccxt started then:
 * the timeout still counts from the send, give or take this, and the call needs no timer of its own.
 */
const HANDED_MS = 1;

/** The origin and path of a URL, without its query (where a signature and timestamp go). */
function endpointOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}

/** A shallow copy of a call's parameters (an object, or a list: OKX's batch orders). */
function copy<P>(params: P): P {
  if (Array.isArray(params)) return [...params] as P;
  return typeof params === 'object' && params !== null ? { ...params } : params;
}

/**
 * Whether a signed request is a public one, with no timestamp or nonce to refresh: ccxt names its API public
 * (`public`, `fapiPublic`, `['spot', 'public']`...) and the request carries no API key (header, URL or body).
 */
function isPublic(api: unknown, request: SignedRequest, apiKey: string | undefined): boolean {
  // (a name as is: its JSON text only adds quotes)
  const name = typeof api === 'string' ? api : JSON.stringify(api ?? '');
  if (!name.toLowerCase().includes('public')) return false;
  if (typeof apiKey !== 'string' || apiKey === '') return true;
  if (request.url.includes(apiKey) || (typeof request.body === 'string' && request.body.includes(apiKey))) return false;
  return !Object.values(request.headers ?? {}).some((v) => typeof v === 'string' && v.includes(apiKey));
}

/** Has {@link paceExchange} wrapped this exchange? */
export function isPaced(exchange: object): boolean {
  return (exchange as Record<symbol, unknown>)[PACED] === true;
}

/**
 * Paces every HTTP call of a ccxt exchange instance with `limiter` and the venues' documented limits,
 * and returns the same instance. Each call (implicit and unified methods alike) goes through a
 * `@core/paced-fetch` of the spec of its API family (`routeCall`): priced, waited for, then signed
 * again with a fresh timestamp and sent, its answer fed back to the limiter. ccxt's own throttle is
 * switched off. A call no documented spec prices is refused unsent (`NotSupported`), unless
 * `ccxtEstimate`. Pacing failures reject with ccxt's error classes, the `PacedFetchError` as `cause`.
 *
 * @throws TypeError when the exchange is already paced.
 * @example
 * ```ts
 * const binance = paceExchange(new ccxt.binance({ apiKey, secret }), { limiter: createDefaultRateLimiter() });
 * await binance.fetchOrderBook('BTC/USDT');
 * ```
 */
export function paceExchange<T extends Exchange>(exchange: T, options: PaceExchangeOptions): T {
  const ex = exchange as unknown as Hooked;
  if (isPaced(exchange)) throw new TypeError(`ccxt-pacing: ${ex.id} is already paced`);
  Object.defineProperty(exchange, PACED, { value: true });
  ex.enableRateLimit = false;
  const signAtSend = options.signAtSend ?? true;
  const signed = new SignedCalls();
  const sign = ex.sign.bind(ex);
  const fetches = new Map<string, PacedFetch>();
  const holds = new Map<string, number>();

  // Each signature is numbered: a request sent at once, holding the latest signature, is not signed again.
  let signatures = 0;
  ex.sign = (path, api = 'public', method = 'GET', params = {}, headers = undefined, body = undefined) => {
    const before = copy(params);
    const request = sign(path, api, method, params, headers, body);
    // (a public request is never signed again, and its signature does not count: no nonce goes out with it)
    const resign = !isPublic(api, request, ex.apiKey);
    const seq = resign ? ++signatures : signatures;
    signed.add(request.method, request.url, { path, api, method, params: before, headers, body, seq, atMs: ex.milliseconds(), resign });
    return request;
  };

  /**
   * Sends one call at its send time, through ccxt's transport: signed again (a fresh timestamp, nonce and
   * signature) unless it is public (nothing to refresh), or holds the latest signature made and was signed at most {@link FRESH_MS} ago by
   * ccxt's clock (no request has been signed since, so no later nonce went out before it, and signing it
   * again would change nothing but a timestamp by those milliseconds). ccxt's timeout counts from here.
   */
  const send = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const call = init === undefined ? undefined : (init as Record<symbol, Call | undefined>)[CALL];
    if (call === undefined) throw new TypeError('ccxt-pacing: a paced fetch sent a request no ccxt call made');
    let { url, params } = call;
    const s = call.signed;
    if (signAtSend && s?.resign && (s.seq !== signatures || ex.milliseconds() - s.atMs > FRESH_MS)) {
      const again = sign(s.path, s.api, s.method, copy(s.params), s.headers, s.body);
      signatures++;
      // the same endpoint (it was priced and admitted as such); anything else is sent as first signed
      if (endpointOf(again.url) === endpointOf(call.url)) {
        url = again.url;
        params = { ...params, headers: { ...params.headers, ...again.headers }, ...(again.body === undefined ? {} : { body: again.body }) };
      }
    }
    void input;
    // (not the paced fetch's signal: options.signal stops the waits, and a call once sent completes)
    if (call.ccxtSignal !== undefined && performance.now() - call.handedAt <= HANDED_MS) {
      // (the parameters ccxt handed over carry that signal: as they are, unless signed again)
      const sent = params === call.params ? params : { ...params, signal: call.ccxtSignal };
      call.answer = await readAnswer(await call.transport(url, sent), url);
    } else {
      const timer = deadline(undefined, ex.timeout);
      try {
        call.answer = await readAnswer(await call.transport(url, { ...params, signal: timer.signal }), url);
      } finally {
        timer.done();
      }
    }
    // (the paced fetch reads status, headers and body of it as of a Response)
    return call.answer as unknown as Response;
  };

  const identityOf = (): { credential: string | null; uid?: string; tier?: string } => {
    const id = options.identity;
    const key = typeof ex.apiKey === 'string' && ex.apiKey !== '' ? ex.apiKey : null;
    return {
      credential: id?.credential === undefined ? key : id.credential,
      ...(id?.uid === undefined ? {} : { uid: id.uid }),
      ...(id?.tier === undefined ? {} : { tier: id.tier }),
    };
  };

  // the fetch of the last call's spec and API key: the next call's, mostly
  let last: { readonly specId: string; readonly apiKey: unknown; readonly f: PacedFetch } | undefined;
  const pacedFetch = (specId: string): PacedFetch => {
    if (last !== undefined && last.specId === specId && last.apiKey === ex.apiKey) return last.f;
    const apiKey = ex.apiKey;
    const f = pacedFetchOf(specId);
    last = { specId, apiKey, f };
    return f;
  };

  const pacedFetchOf = (specId: string): PacedFetch => {
    const identity = identityOf();
    const cacheKey = `${specId}\u0000${identity.credential ?? ''}`;
    let f = fetches.get(cacheKey);
    if (f === undefined) {
      const pacing = options.pacing ?? {};
      const deferred = pacing.deferredCharges ?? (options.processes === undefined ? undefined : { processes: options.processes });
      f = createPacedFetch({
        ...pacing,
        venue: options.specs?.[specId] ?? specId,
        identity,
        limiter: options.limiter,
        fetch: send,
        ...(options.maxWaitMs === undefined ? {} : { maxWaitMs: options.maxWaitMs }),
        ...(deferred === undefined ? {} : { deferredCharges: deferred }),
        onAttempt: (event) => {
          const f = event.feedback;
          if (f.penalties.length > 0 || f.verdict === 'banned' || f.verdict === 'rate_limited') {
            holds.set(specId, Math.max(holds.get(specId) ?? 0, Date.now() + (f.retryAfterMs ?? 0)));
          }
          options.onAttempt?.(event);
        },
      });
      fetches.set(cacheKey, f);
    }
    return f;
  };

  /** Does a venue's refusal or ban hold a bucket of this spec now (seen here, or in the limiter's store)? */
  const held = async (specId: string): Promise<boolean> => {
    if ((holds.get(specId) ?? 0) > Date.now()) return true;
    const look = options.limiter.snapshot().then(
      (s) => Array.isArray(s) && s.some((b) => b.venue === specId && b.heldUntilMs !== undefined),
      () => false,
    );
    const late = new Promise<boolean>((resolve) => setTimeout(() => resolve(false), HOLD_LOOK_MS).unref());
    return Promise.race([look, late]);
  };

  const dispatch = async (url: string, params: TransportParams, transport: Transport): Promise<unknown> => {
    const method = String(params.method ?? 'GET').toUpperCase();
    const s = signed.take(method, url);
    const parsed = siteOf(url);
    const documented = routeCall(ex.id, { url: parsed, api: s?.api });
    const estimate = options.ccxtEstimate === true ? estimateSpec(ex.id) : undefined;
    const ccxtSignal = params.signal instanceof AbortSignal ? params.signal : undefined;
    const call: Call = { url, params, transport, signed: s, handedAt: performance.now(), ccxtSignal };
    // ccxt's timeout counts from the send (below), not from the start of the wait: maxWaitMs bounds the wait
    const stop = options.signal;
    const init = { method, headers: params.headers, body: params.body, ...(stop === undefined ? {} : { signal: stop }), [CALL]: call } as RequestInit;
    const fail = async (e: unknown, spec: string | undefined): Promise<never> => {
      if (!isPacedFetchError(e)) {
        // the paced fetch rejects a wait that options.signal stopped with the signal's reason
        if (stop?.aborted === true && call.answer === undefined && e === (stop.reason ?? e)) {
          return fail(new PacedFetchError('aborted', 'the pacing was stopped (its signal aborted) before the call was sent'), spec);
        }
        throw e;
      }
      const isHeld = e.code === 'rate_limit_timeout' && spec !== undefined && (await held(spec));
      throw toCcxtError(e, { exchange: ex.id, spec, method, path: parsed.pathname, held: isHeld });
    };
    const spec = documented ?? estimate;
    if (spec === undefined) return fail(new PacedFetchError('unknown_venue', `no documented spec prices ${ex.id}`), undefined);
    // ccxt gets the transport's answer as its transport gave it, not the paced fetch's copy of it
    const answered = (copy: Response): unknown => (call.answer === undefined ? copy : toCcxtAnswer(call.answer));
    try {
      return answered(await pacedFetch(spec)(url, init));
    } catch (e) {
      if (estimate !== undefined && spec !== estimate && isPacedFetchError(e) && e.code === 'unknown_endpoint') {
        try {
          return answered(await pacedFetch(estimate)(url, init));
        } catch (again) {
          return fail(again, estimate);
        }
      }
      return fail(e, spec);
    }
  };

  const load = ex.loadFetchImplementation.bind(ex);
  let installed = false;
  ex.loadFetchImplementation = async () => {
    await load();
    if (installed) return;
    installed = true;
    const undiciRequest = ex.undiciRequest;
    if (ex.fetchIsNative === true && ex.undiciModule !== undefined && typeof undiciRequest === 'function') {
      const request: Transport = (u, p) => undiciRequest.call(ex, u, p);
      ex.undiciRequest = (u, p) => dispatch(u, p, request);
    }
    const impl = ex.fetchImplementation;
    if (impl !== undefined) ex.fetchImplementation = (u, p) => dispatch(u, p, impl);
  };
  // an exchange that already sent loads its transport again, through the hook above
  ex.fetchImplementationLoading = undefined;
  return exchange;
}
