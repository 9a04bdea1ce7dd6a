import type { RateLimitErrorCode } from '@core/rate-limit-contract';
import type { ResolveErrorCode } from '@core/exchange-specs';

/**
 * Why a paced request was not sent (or, for `aborted`, not completed):
 * - `unknown_venue`: no spec has that id.
 * - a {@link ResolveErrorCode} (`unknown_endpoint`, `missing_parameter`, `invalid_parameter`,
 *   `credential_required`, `unknown_tier`, `invalid_spec`): the request cannot be priced, so it is
 *   never sent.
 * - a {@link RateLimitErrorCode} from the limiter (`rate_limit_timeout` when the wait exceeds the
 *   budget, `backend_unavailable`, `aborted`, `closed`, ...): nothing was sent.
 */
export type PacedFetchErrorCode = 'unknown_venue' | ResolveErrorCode | RateLimitErrorCode;

const BRAND = Symbol.for('@core/paced-fetch/error');

/**
 * The error a paced fetch rejects with when it does not send. Compare by `code` (or with
 * {@link isPacedFetchError}), never with `instanceof`: two loaded copies of the package still agree.
 */
export class PacedFetchError extends Error {
  readonly code: PacedFetchErrorCode;
  /** The wait the limiter required, for `rate_limit_timeout`. */
  readonly retryAfterMs?: number;
  readonly [BRAND] = true;

  constructor(code: PacedFetchErrorCode, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'PacedFetchError';
    this.code = code;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** Is `e` a {@link PacedFetchError} (from any loaded copy of this package)? */
export function isPacedFetchError(e: unknown): e is PacedFetchError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
