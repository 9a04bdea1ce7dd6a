/**
 * Why a venue's published limits were not used:
 * - `unsupported_venue`: the spec has no live-limit source (or a requested source id is unknown).
 * - `credential_required`: a private source was asked for without a credential or an `authenticate` hook.
 * - `missing_parameter`: the source needs something the identity does not give (Bybit's `uids`: the account's uid).
 * - `request_failed`: the request was not sent or got no answer (the paced client refused it, the network failed, an abort).
 * - `http_error`: the venue answered with an HTTP status other than 200.
 * - `venue_error`: the venue's envelope reports an error (Bybit `retCode` not 0, OKX `code` not `"0"`, KuCoin `code` not `"200000"`).
 * - `malformed`: the answer is not what the documentation describes (shape, type, unit, a number not a finite positive integer, an unknown field).
 * - `unmapped_limit`: the venue states a limit no bucket of the spec models (a new limit type or window).
 * - `conflicting_limits`: one answer states two different numbers for one bucket.
 * - `spec_mismatch`: the bucket a statement maps to is missing from the spec, or its window differs from the venue's.
 * - `unknown_tier`: the venue states a tier no bucket of the spec lists.
 */
export type LiveLimitsErrorCode =
  | 'unsupported_venue'
  | 'credential_required'
  | 'missing_parameter'
  | 'request_failed'
  | 'http_error'
  | 'venue_error'
  | 'malformed'
  | 'unmapped_limit'
  | 'conflicting_limits'
  | 'spec_mismatch'
  | 'unknown_tier';

const BRAND = Symbol.for('@core/exchange-specs/live-limits-error');

/**
 * A venue's published limits refused: nothing of the answer is used, the stored spec stays. Compare
 * by `code` (or use {@link isLiveLimitsError}), never with `instanceof`.
 */
export class LiveLimitsError extends Error {
  readonly code: LiveLimitsErrorCode;
  /** The source, e.g. `binance-spot GET /api/v3/exchangeInfo`. */
  readonly source: string;
  /** The field of the answer at fault, e.g. `rateLimits[2].intervalNum` (`(body)` for the whole body). */
  readonly field?: string;
  readonly [BRAND] = true;

  constructor(code: LiveLimitsErrorCode, source: string, message: string, field?: string) {
    super(`${source}: ${field === undefined ? '' : `${field}: `}${message}`);
    this.name = 'LiveLimitsError';
    this.code = code;
    this.source = source;
    if (field !== undefined) this.field = field;
  }
}

/** Is `e` a {@link LiveLimitsError} (from any loaded copy of this package)? */
export function isLiveLimitsError(e: unknown): e is LiveLimitsError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
