/**
 * The class of an admission (RL-Q1..RL-Q5): `critical` for what must go out now (cancels, risk-reducing
 * orders, the hedge after a fill), `normal` (the default), `bulk` for traffic that may wait (market data,
 * history downloads, balance refreshes). A higher class never waits behind a lower class's bookings; within
 * a class every existing rule holds (first come, first served). A limiter whose `capabilities.priorities`
 * is not `true` answers `not_supported` to a call that names a priority or a reserve.
 *
 * @example
 * ```ts
 * await limiter.waitForCapacity([{ key, limit, cost: 1 }], { priority: 'critical', maxWaitMs: 1_000 });
 * ```
 */
export type Priority = 'critical' | 'normal' | 'bulk';

/**
 * The share of each bucket a lower class leaves free for the classes above it (RL-Q4): `normal` spends a
 * bucket only up to `capacity · (1 − normal)`, `bulk` up to `capacity · (1 − bulk)`; `critical` may
 * spend all of it. Each share is a finite number in `[0, 1)`, and `normal ≤ bulk` (a lower class never
 * reaches further than a higher one); otherwise the call is refused with `invalid_parameters`. A share
 * left out takes the limiter's default (for the in-process and Redis limiters `normal: 0`, which keeps
 * every earlier rule's numbers for callers that name no class, and `bulk: 0.2`).
 *
 * @remarks The reserve costs a lower class only what it keeps free: alone on a bucket, a class with share
 * `r` gets a burst of `(1 − r) · capacity` and the full refill rate (RL-Q4). On a window limit critical
 * sends spend the share, not the lower classes' line, and bulk keeps half its share free however much of
 * it critical sends spent (RL-Q4).
 *
 * @example
 * ```ts
 * const reserve: Reserve = { normal: 0.1, bulk: 0.2 }; // normal keeps 10 % free for critical, bulk 20 %
 * ```
 */
export interface Reserve {
  readonly normal?: number;
  readonly bulk?: number;
}
