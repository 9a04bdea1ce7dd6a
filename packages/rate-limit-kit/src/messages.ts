import type { ErrorResult, RateLimitError } from '@core/rate-limit-contract';
import { roundUpWait } from './gcra.js';
import type { ResolvedKey } from './key-resolver.js';

/**
 * A number for a message: integers as they are, others with at most 12 significant digits (so float
 * noise such as `9999.99951171875` reads `9999.99951172` and `0.30000000000000004` reads `0.3`), and a
 * value within `zeroWithin` of 0 as `0` (a quota's `1.3e-23` left is nothing left).
 */
export function formatNumber(value: number, zeroWithin = 0): string {
  if (Math.abs(value) <= zeroWithin) return '0';
  if (Number.isInteger(value) || !Number.isFinite(value)) return String(value);
  return String(Number(value.toPrecision(12)));
}

/** The error of an admission answered to a closed limiter. */
export const CLOSED_ERROR: RateLimitError = Object.freeze({ code: 'closed', message: 'the rate limiter was closed' });
/** {@link CLOSED_ERROR} as a result. */
export const CLOSED: ErrorResult = Object.freeze({ kind: 'error', error: CLOSED_ERROR });

/** A typed error as a result. */
export function errorResult(error: RateLimitError): ErrorResult {
  return { kind: 'error', error };
}

/** `invalid_parameters` naming where the bad value is. */
export function invalidParameters(path: string, message: string): RateLimitError {
  return { code: 'invalid_parameters', message: `${path}: ${message}`, path };
}

/**
 * An unexpected failure inside an implementation. The message names the thrown value's type only: a
 * thrown error's text may hold input (even a credential, RL-K3), so it is never passed through.
 */
export function internalError(thrown: unknown): RateLimitError {
  const name = thrown instanceof Error ? thrown.name : typeof thrown;
  return { code: 'internal', message: `unexpected failure inside the rate limiter (${name})` };
}

/** `not_supported` for an operation whose capability is false (RL-F2), whatever its arguments. */
export function notSupported(operation: string, capability: string): ErrorResult {
  return errorResult({ code: 'not_supported', message: `${operation} is not supported by this rate limiter (capabilities.${capability} is false)` });
}

/**
 * `cost_unpayable` for bucket `key` at `path` (RL-L4, RL-A7, RL-V3): a fixed quota without enough left,
 * a cost above a window limit, or a wait beyond what the limiter can represent. The message says which,
 * truthfully: a window limit (`windowMs` given, `capacity` its `perWindow`) has no refill, so its wait is
 * told at `perWindow` per `windowMs`.
 */
export function unpayableError(
  path: string,
  key: ResolvedKey,
  cost: number,
  capacity: number,
  refillPerSec: number,
  reason: 'quota' | 'horizon' | 'window',
  left: number,
  windowMs?: number,
): RateLimitError {
  const where = `${key.venue}/${key.axis}`;
  const message =
    reason === 'quota'
      ? `cost ${formatNumber(cost)} can never be paid on ${where}: it is a fixed quota of ${formatNumber(capacity)} (refill 0) with ${formatNumber(left, 1e-9 * capacity)} left`
      : reason === 'window'
        ? `cost ${formatNumber(cost)} can never be paid on ${where}: a window of ${formatNumber(windowMs ?? 0)} ms holds at most ${formatNumber(capacity)}`
        : `cost ${formatNumber(cost)} can never be paid on ${where}: ${windowMs === undefined ? `at a refill of ${formatNumber(refillPerSec)}/s` : `at ${formatNumber(capacity)} per ${formatNumber(windowMs)} ms`} its wait would exceed what the limiter can represent (1e15 ms, about 31,700 years)`;
  return { code: 'cost_unpayable', message: `${path}: ${message}`, path };
}

/** `rate_limit_timeout` naming the required wait (RL-W3, RL-W6); nothing was booked. */
export function timeoutError(waitMs: number, budgetMs: number): RateLimitError {
  const wait = roundUpWait(waitMs);
  return {
    code: 'rate_limit_timeout',
    message: `the wait of ${wait} ms exceeds the budget of ${formatNumber(budgetMs)} ms; nothing was booked`,
    retryAfterMs: wait,
  };
}

/** `aborted`, saying what became of the booking (RL-W5). */
export function abortedError(booking: 'none' | 'returned' | 'forfeited'): RateLimitError {
  const message =
    booking === 'none'
      ? 'the wait was aborted before anything was booked'
      : booking === 'returned'
        ? 'the wait was aborted; its booking was returned'
        : 'the wait was aborted; its booking was forfeited (cost was charged to its buckets after it)';
  return { code: 'aborted', message };
}
