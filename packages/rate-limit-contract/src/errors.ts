/**
 * The stable error codes. Compare errors by `code`, never by class or message.
 *
 * - `invalid_parameters`: a malformed, missing or unreadable key, limit, cost, budget, signal or
 *   option (RL-L2, RL-L3, RL-A2, RL-M3, RL-W6, RL-F2), including input whose getters or Proxy
 *   throw. Nothing changed.
 * - `cost_unpayable`: the cost can never be paid by this definition: refill 0 and not enough quota
 *   left (RL-L4), or a wait too long to represent (RL-A7). Nothing changed.
 * - `rate_limit_timeout`: the wait exceeds the caller's budget (RL-W3, RL-W6, RL-P3); `retryAfterMs`
 *   names the required wait. Nothing was booked.
 * - `aborted`: the caller's AbortSignal fired (RL-W5, RL-W6).
 * - `backend_unavailable`: the store could not be reached or answered too late (RL-F1). Never ok.
 * - `closed`: the limiter was closed.
 * - `not_supported`: the implementation does not offer this operation (see its capabilities),
 *   whatever the arguments (RL-F2).
 * - `internal`: an unexpected failure inside the implementation. Treated like "do not proceed"; its
 *   message never repeats a thrown error's text (which may hold input, RL-K3).
 */
export type RateLimitErrorCode =
  | 'invalid_parameters'
  | 'cost_unpayable'
  | 'rate_limit_timeout'
  | 'aborted'
  | 'backend_unavailable'
  | 'closed'
  | 'not_supported'
  | 'internal';

/**
 * A typed error result. It is a value, not an exception: admission methods resolve to it (RL-F1).
 *
 * @remarks RL-K3: `message` never contains a raw credential; it names the bad value otherwise.
 *
 * @example
 * ```ts
 * if (decision.kind === 'error' && decision.error.code === 'rate_limit_timeout') {
 *   console.log(`needs ${decision.error.retryAfterMs} ms`);
 * }
 * ```
 */
export interface RateLimitError {
  readonly code: RateLimitErrorCode;
  /** A human-readable explanation naming the bad value or the failure (never a credential). */
  readonly message: string;
  /** The required wait in milliseconds, where the code has one (`rate_limit_timeout`). */
  readonly retryAfterMs?: number;
  /**
   * Where the bad value or the bucket is: for `invalid_parameters` the bad value (`"checks[1].cost"`),
   * for `cost_unpayable` the check that can never be paid (`"checks[1]"`).
   */
  readonly path?: string;
}
