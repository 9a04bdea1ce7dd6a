/**
 * What an implementation offers, fixed at construction and read by the conformance suite, which
 * registers every test it cannot run as skipped (never silently dropped).
 *
 * @remarks The manifest is readonly and never changes after construction.
 *
 * @example
 * ```ts
 * if (!limiter.capabilities.bookings) console.warn('this limiter cannot book for later');
 * ```
 */
export interface Capabilities {
  /** Buckets are shared by every process that uses the same store. */
  readonly distributed: boolean;
  /** The implementation runs on an injected {@link Clock} (required for time-driven tests). */
  readonly injectableClock: boolean;
  /** Calls with `maxWaitMs` book future capacity (RL-W1..RL-W5). */
  readonly bookings: boolean;
  /** `waitForCapacity` honours an AbortSignal and returns bookings (RL-W5). */
  readonly abortSignal: boolean;
  /** Costs and limits may be fractional and are honoured exactly. */
  readonly fractionalCosts: boolean;
  /** `snapshot()` lists live buckets (RL-I3). */
  readonly snapshot: boolean;
  /** `sync` raises borrowed amounts to what a venue reports (RL-R2). */
  readonly sync: boolean;
  /** `penalize` holds buckets closed (RL-R3). */
  readonly penalize: boolean;
  /**
   * One `checkRates` or `waitForCapacity` call may span venues, atomically like any multi-bucket call
   * (RL-M1). `false` where the store cannot apply one step to buckets of several venues (Redis Cluster
   * with per-venue hash tags): such a call answers `invalid_parameters`, and calls within one venue
   * are unaffected.
   */
  readonly crossVenueChecks: boolean;
  /**
   * Window limits (`{ perWindow, windowMs, jitterMs? }`, RL-V1..RL-V6) are offered. Where `false`, a
   * check with a window limit answers `not_supported`.
   */
  readonly windowLimits: boolean;
  /**
   * Admission classes (`priority`, `reserve` on checks and waits, RL-Q1..RL-Q5) are offered. Where not
   * `true` (absent, for implementations written before classes existed), a call that names a priority or
   * a reserve answers `not_supported`, never admitted as if it had none.
   */
  readonly priorities?: boolean;
  /**
   * The resolution of window limits (RL-V6): `K`, the slots per window a slot ledger counts send times
   * in (`windowMs / K` ms each); absent for an exact log of send times. It states what the limiter
   * guarantees, and the conformance suite holds it to that: a send holds its room for less than
   * `2 · windowMs / K` beyond the `windowMs + jitterMs` after it, and in steady saturation on a rolling
   * window at least `K / (ceil(K · (1 + jitterMs / windowMs)) + 1)` of `perWindow` is admitted per
   * `windowMs` (an exact log: `windowMs / (windowMs + jitterMs)`). A finite integer of 1 or more; the
   * in-process and Redis limiters keep 64.
   */
  readonly windowSlots?: number;
}
