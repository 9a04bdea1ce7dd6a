import type { RateLimitError, RateLimitErrorCode } from '@core/rate-limit-contract';

/**
 * The outcome of a validation or normalization step: a value, or a typed error. Never thrown.
 *
 * @example
 * ```ts
 * const r = validateCost(cost, 'cost');
 * if (!r.ok) return { kind: 'error', error: r.error };
 * ```
 */
export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: RateLimitError };

/** A successful {@link Result}. */
export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** A failed {@link Result} with `invalid_parameters` naming where the bad value is. */
export function invalid<T = never>(path: string, message: string): Result<T> {
  return { ok: false, error: { code: 'invalid_parameters', message: `${path}: ${message}`, path } };
}

/** Builds a {@link RateLimitError} with an optional required wait. */
export function rateLimitError(code: RateLimitErrorCode, message: string, retryAfterMs?: number): RateLimitError {
  return retryAfterMs === undefined ? { code, message } : { code, message, retryAfterMs };
}
