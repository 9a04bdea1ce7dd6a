/**
 * A token bucket of `capacity` tokens refilled continuously at `refillPerSec`.
 *
 * @remarks RL-L1, RL-L3, RL-L4. `capacity` must be finite and > 0; `refillPerSec` finite and
 * >= 0. A refill of 0 is a fixed quota that never refills.
 */
export interface CapacityLimit {
  readonly capacity: number;
  readonly refillPerSec: number;
}

/**
 * `requests` per `periodMs`: capacity `requests`, refilled at `requests / (periodMs / 1000)` per
 * second.
 *
 * @remarks RL-L1. `periodMs` must be finite and > 0 (it is refused, never defaulted, RL-L3).
 */
export interface PeriodLimit {
  readonly requests: number;
  readonly periodMs: number;
}

/**
 * `requests` per second: the same as `{ requests, periodMs: 1000 }`.
 *
 * @remarks RL-L1.
 */
export interface RequestsPerSecondLimit {
  readonly requests: number;
}

/**
 * A window limit: at most `perWindow` of cost in any window of `windowMs` as the venue counts it, each
 * request counted when it arrives, anywhere up to `jitterMs` after its send time. It keeps a venue's own
 * invariant exactly, for rolling windows and for fixed windows (aligned to the clock or anchored at a
 * first request) alike, instead of the token-bucket approximation that must keep
 * `capacity + refill·window ≤ limit` and so admits less.
 *
 * @remarks RL-V1 (the invariant), RL-V2 (probes, bookings and waits as for token buckets), RL-V3 (a cost
 * above `perWindow` is `cost_unpayable`), RL-V4 (atomic with token buckets in one call), RL-V5 (records,
 * syncs, penalties), RL-V6 (memory per bucket bounded). `perWindow` and `windowMs` finite and > 0,
 * `jitterMs` finite and >= 0 (default 0).
 *
 * @example
 * ```ts
 * const bybitOrders: Limit = { perWindow: 10, windowMs: 1000, jitterMs: 50 }; // 10 per rolling second
 * ```
 */
export interface WindowLimit {
  readonly perWindow: number;
  readonly windowMs: number;
  /** How much later than its send time a request may reach the venue, in ms; default 0. */
  readonly jitterMs?: number;
}

/**
 * How a bucket is defined. Only an explicit `null` means unlimited: admitted at once and nothing is
 * recorded (RL-L2). A missing limit (property absent or `undefined`) is `invalid_parameters`: a
 * forgotten limit never silently means "unlimited".
 *
 * @remarks RL-L1 (the three shapes are equivalent), RL-L2, RL-L3 (an invalid limit is refused with
 * `invalid_parameters` and nothing changes), RL-L5 (a new definition of a live bucket keeps the
 * amount already borrowed).
 *
 * @example
 * ```ts
 * const weight: Limit = { requests: 6000, periodMs: 60_000 };
 * const okx: Limit = { capacity: 1, refillPerSec: 9.09 };
 * ```
 */
export type Limit = CapacityLimit | PeriodLimit | RequestsPerSecondLimit | WindowLimit | null;

/** A token-bucket limit in its canonical form, as implementations store and report it. */
export interface NormalizedLimit {
  readonly capacity: number;
  readonly refillPerSec: number;
}
