import { DDoSProtection, ExchangeNotAvailable, NotSupported, RateLimitExceeded, RequestTimeout } from 'ccxt';
import type { PacedFetchError } from '@core/paced-fetch';

/** The codes of a request its spec cannot price: it is never sent. */
const UNPRICED = new Set([
  'unknown_venue',
  'unknown_endpoint',
  'missing_parameter',
  'invalid_parameter',
  'credential_required',
  'unknown_tier',
  'invalid_spec',
]);
/** The codes of a limiter that could not answer (fail closed). */
const UNAVAILABLE = new Set(['backend_unavailable', 'closed', 'internal', 'aborted']);

/** What the caller knows about the failed call, for the message and the class. */
export interface FailedCall {
  /** The ccxt id (`binance`). */
  readonly exchange: string;
  /** The spec that priced it (`binance-usdm`), or `undefined` when none does. */
  readonly spec: string | undefined;
  readonly method: string;
  readonly path: string;
  /** A venue's refusal or ban holds the call's buckets (a penalty in force). */
  readonly held: boolean;
}

/** The ccxt error class a pacing failure becomes, by the paced fetch's code (see the README's errors table). */
export function ccxtErrorClass(code: string, held: boolean): typeof NotSupported | typeof RateLimitExceeded | typeof DDoSProtection | typeof RequestTimeout {
  if (UNPRICED.has(code)) return NotSupported;
  if (code === 'rate_limit_timeout') return held ? DDoSProtection : RequestTimeout;
  if (UNAVAILABLE.has(code)) return ExchangeNotAvailable;
  return RateLimitExceeded;
}

/**
 * The ccxt error a paced call rejects with instead of a {@link PacedFetchError}, the original kept as
 * `cause` (and its `code` on the ccxt error): a bot that catches ccxt's classes catches these.
 */
export function toCcxtError(e: PacedFetchError, call: FailedCall): Error {
  const Class = ccxtErrorClass(e.code, call.held);
  const where = `${call.exchange} ${call.method} ${call.path}`;
  let message: string;
  if (UNPRICED.has(e.code)) {
    message =
      call.spec === undefined
        ? `${where}: no documented spec prices ${call.exchange}'s requests, so it was not sent; pass ccxtEstimate: true to pace it by ccxt's own estimate (ccxt:${call.exchange})`
        : `${where}: not sent, the documented spec ${call.spec} cannot price it (${e.code}: ${e.message}); pass ccxtEstimate: true to pace it by ccxt's own estimate (ccxt:${call.exchange})`;
  } else if (e.code === 'rate_limit_timeout') {
    const wait = e.retryAfterMs === undefined ? '' : ` (it needed ${Math.ceil(e.retryAfterMs)} ms)`;
    message = call.held
      ? `${where}: not sent, the venue's ban or refusal holds ${call.spec ?? 'its buckets'} longer than maxWaitMs${wait}`
      : `${where}: not sent, the wait for ${call.spec ?? 'its buckets'} exceeds maxWaitMs${wait}`;
  } else if (e.code === 'aborted') {
    message = `${where}: not sent, the pacing was stopped (options.signal)`;
  } else if (UNAVAILABLE.has(e.code)) {
    message = `${where}: not sent, the rate limiter could not answer (${e.code}: ${e.message})`;
  } else {
    message = `${where}: not sent, refused by the rate limiter (${e.code}: ${e.message})`;
  }
  const error = new Class(message);
  Object.defineProperty(error, 'cause', { value: e, enumerable: false, configurable: true, writable: true });
  Object.defineProperty(error, 'code', { value: e.code, enumerable: true, configurable: true, writable: true });
  if (e.retryAfterMs !== undefined)
    Object.defineProperty(error, 'retryAfterMs', { value: e.retryAfterMs, enumerable: true, configurable: true, writable: true });
  return error;
}
