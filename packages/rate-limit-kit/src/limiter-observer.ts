import type { Decision, WaitDecision } from '@core/rate-limit-contract';
import type { ResolvedKey } from './key-resolver.js';

/** The admission methods an observer hears about (`tryAcquireSync`-style fast paths count as `checkRate`). */
export type ObservedOperation = 'checkRate' | 'checkRates' | 'peek' | 'waitForCapacity';

/**
 * What the front door (`StoreRateLimiter`) tells an observer: a small, optional hook for metrics. It is
 * called only while one is attached (`setObserver`), so a limiter without one pays a single
 * `undefined` check per admission. An observer never changes an answer: whatever it throws is ignored.
 *
 * What it hears: every answer of an admission call that resolved its buckets and reached the store
 * (`ok`, `booked`, `delay` or a typed error), with the call's distinct buckets (merged, credentials
 * hashed, RL-K3). Calls refused before a bucket was resolved (malformed input, a closed limiter, an
 * operation the store does not offer) and calls with nothing to charge (unlimited, cost 0) are not
 * reported: they say nothing about the buckets.
 *
 * @example
 * ```ts
 * limiter.setObserver({
 *   admission(operation, n, keys, answer) {
 *     for (let i = 0; i < n; i++) console.log(operation, keys[i]?.venue, keys[i]?.axis, answer.kind);
 *   },
 * });
 * ```
 */
export interface LimiterObserver {
  /**
   * One admission call answered.
   *
   * @param operation - which method answered.
   * @param n - how many distinct buckets the call charged (or would have): the first `n` of `keys`.
   * @param keys - the call's buckets, resolved. The array is the front door's scratch space: read it
   * before returning.
   * @param answer - the answer the caller gets.
   * @param waitedMs - `waitForCapacity` only: from the call to its answer, in the limiter's timers'
   * clock (the time a caller waited, its send time when `ok`).
   */
  admission(operation: ObservedOperation, n: number, keys: readonly ResolvedKey[], answer: Decision | WaitDecision, waitedMs: number | undefined): void;
}
