import type { NormalizedLimit, WindowLimit } from '@core/rate-limit-contract';
import type { BucketSpec } from './venue-spec.js';

/** Options of {@link safeLimit}. */
export interface SafeLimitOptions {
  /** The fraction of the venue's limit left unused, for clock skew and other clients; default {@link DEFAULT_MARGIN}. */
  readonly margin?: number;
  /** The largest single cost charged to the bucket; default 1. */
  readonly maxCost?: number;
  /** The burst as a fraction of the (margined) window limit, at least `maxCost`; default {@link DEFAULT_BURST_FRACTION}. */
  readonly burstFraction?: number;
  /**
   * How late a request sent at its send time may reach the venue, ms (event-loop lag, connection
   * setup, the network): a window of `W` then sees the sends of an interval of `W + jitterMs`.
   * Default {@link DEFAULT_JITTER_MS}.
   */
  readonly jitterMs?: number;
}

/** The default `margin`: 4 % of every limit left unused. */
export const DEFAULT_MARGIN = 0.04;
/** The default `burstFraction`: 2 % of the usable limit (at least the largest cost). */
export const DEFAULT_BURST_FRACTION = 0.02;
/** The default `jitterMs`: a request may reach the venue up to 50 ms after its send time. */
export const DEFAULT_JITTER_MS = 50;

/** How a safe limit was derived (see {@link describeSafeLimit}). */
export interface SafeLimitDerivation extends NormalizedLimit {
  /**
   * `token-bucket`: the venue's bucket scaled by `1 - margin`, its capacity less `refill·J` (sends
   * spread over the jitter `J` may arrive together). `window`: the exact bound
   * `max(capacity, maxCost) + refill·(W + J) <= L·(1 - margin)`. `spaced`: the window is too small for
   * that bound (one request of `maxCost` already exceeds `L·(1 - margin)`), so requests of `maxCost`
   * are spaced `W·(1 + margin) + J` apart: safe when every request is admitted at `maxCost`, which is
   * what `resolveRequest` does on such buckets.
   */
  readonly mode: 'token-bucket' | 'window' | 'spaced';
}

/**
 * Derives the safe limit of a bucket with its derivation (see {@link safeLimit}).
 *
 * @throws RangeError when an option is out of range or `maxCost` exceeds a window's limit (the
 * spec is then inconsistent: no request of that cost could ever be admitted by the venue).
 */
export function describeSafeLimit(bucket: BucketSpec, options: SafeLimitOptions = {}): SafeLimitDerivation {
  const margin = options.margin ?? DEFAULT_MARGIN;
  const maxCost = options.maxCost ?? 1;
  const burst = options.burstFraction ?? DEFAULT_BURST_FRACTION;
  const jitter = options.jitterMs ?? DEFAULT_JITTER_MS;
  if (!(margin >= 0 && margin < 1)) throw new RangeError(`margin must be in [0, 1), got ${margin}`);
  if (!(maxCost >= 0 && Number.isFinite(maxCost))) throw new RangeError(`maxCost must be finite and >= 0, got ${maxCost}`);
  if (!(burst > 0 && burst < 1)) throw new RangeError(`burstFraction must be in (0, 1), got ${burst}`);
  if (!(jitter >= 0 && Number.isFinite(jitter))) throw new RangeError(`jitterMs must be finite and >= 0, got ${jitter}`);
  if (bucket.algorithm === 'token-bucket') {
    // A cost above the capacity is paced by the limiter (RL-A5: it waits for the whole cost).
    // Sends spread over jitterMs may arrive together: the venue's counter then sees refill·jitter more at once.
    const refillPerSec = bucket.refillPerSec * (1 - margin);
    const capacity = bucket.capacity * (1 - margin) - (refillPerSec * jitter) / 1000;
    if (!(capacity > 0))
      throw new RangeError(`bucket "${bucket.id}": a jitter of ${jitter} ms leaves no capacity (${bucket.capacity} refilled at ${bucket.refillPerSec}/s)`);
    return { capacity, refillPerSec, mode: 'token-bucket' };
  }
  const { limit, windowMs } = bucket;
  if (maxCost > limit) {
    throw new RangeError(`bucket "${bucket.id}": a cost of ${maxCost} exceeds the venue's limit ${limit} per ${windowMs} ms`);
  }
  const usable = limit * (1 - margin);
  const capacity = Math.max(burst * usable, maxCost);
  if (capacity < usable) {
    return { capacity, refillPerSec: ((usable - capacity) * 1000) / (windowMs + jitter), mode: 'window' };
  }
  const unit = Math.max(maxCost, Number.MIN_VALUE);
  return { capacity: unit, refillPerSec: (unit * 1000) / (windowMs * (1 + margin) + jitter), mode: 'spaced' };
}

/**
 * The token-bucket parameters that keep a limiter inside a bucket's documented limit.
 *
 * For a fixed window (aligned or anchored) or a sliding window of `L` per `W`, every window is an
 * interval shorter than `W`; a request reaches the venue up to `J = jitterMs` after its send time, so
 * a window sees the sends of an interval of `W + J`, in which a limiter keeping RL-A6 admits at most
 * `max(capacity, maxCost) + refill·(W + J)`; the result keeps that `<= L·(1 - margin)` with a burst
 * of `max(burstFraction·L·(1 - margin), maxCost)`. The steady rate is then
 * `(1 - margin)(1 - burstFraction)·W / (W + J)` of the limit. A venue token bucket maps directly
 * (capacity and refill times `1 - margin`, the capacity less `refill·J`). Tiny windows where one
 * request of `maxCost` exceeds `L·(1 - margin)` are spaced instead (see {@link SafeLimitDerivation.mode}).
 *
 * @param bucket - the bucket (apply a tier first with `bucketForTier`).
 * @param options - `margin` (default 0.04), `maxCost` (default 1), `burstFraction` (default 0.02),
 * `jitterMs` (default 50).
 * @returns `{ capacity, refillPerSec }` for the limiter.
 * @example
 * ```ts
 * safeLimit({ id: 'ip', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 6000, windowMs: 60_000, provenance })
 * // { capacity: 115.2, refillPerSec: 94.00...}: 115.2 + 94.0·60.05 = 5760 = 6000·0.96
 * ```
 */
export function safeLimit(bucket: BucketSpec, options: SafeLimitOptions = {}): NormalizedLimit {
  const d = describeSafeLimit(bucket, options);
  return { capacity: d.capacity, refillPerSec: d.refillPerSec };
}

/** Options of {@link venueLimit}: those of {@link safeLimit}, and whether window limits are used. */
export interface VenueLimitOptions extends SafeLimitOptions {
  /**
   * Use a window limit (`{ perWindow, windowMs, jitterMs }`, the contract's RL-V1) for a venue's window
   * buckets: it keeps the venue's own invariant exactly and admits more than any token bucket can.
   * Default `true`; `false` for a limiter without `capabilities.windowLimits` (the token-bucket
   * derivation of {@link safeLimit} is then used).
   */
  readonly windowLimits?: boolean;
  /**
   * The fraction of a window limit left unused; default 0 (the window limit needs no margin: it counts
   * the way the venue counts, with the jitter allowance for when requests arrive).
   */
  readonly windowMargin?: number;
}

/** The default `windowMargin`: none. */
export const DEFAULT_WINDOW_MARGIN = 0;

/**
 * The default jitter allowance of a window limit, ms: how late a request may reach the venue after its
 * send time. A window limit spends the venue's whole number, so nothing else absorbs a late arrival
 * (a token bucket keeps its margin): 100 ms covers a new connection's set-up and a busy event loop
 * (measured with the demo on a loaded 2-core machine, paced windows: arrivals up to about 100 ms after
 * their send times). It caps a window limit at `windowMs / (windowMs + 100)` of the venue's number
 * over time: 90.9 % of a 1-s window, 95.2 % of 2 s, 99.8 % of a minute.
 */
export const DEFAULT_WINDOW_JITTER_MS = 100;

/**
 * The limit a limiter enforces for a bucket: for a window bucket (fixed, aligned or anchored, or
 * sliding), a window limit of the venue's number per its window with the jitter allowance (less
 * `windowMargin`); for a venue token bucket, or when `windowLimits` is false, the token-bucket
 * parameters of {@link safeLimit}.
 *
 * @example
 * ```ts
 * venueLimit({ id: 'orders', scope: 'uid', algorithm: 'sliding-window', limit: 10, windowMs: 1000, provenance });
 * // { perWindow: 10, windowMs: 1000, jitterMs: 100 }
 * ```
 */
export function venueLimit(bucket: BucketSpec, options: VenueLimitOptions = {}): NormalizedLimit | Required<WindowLimit> {
  if (bucket.algorithm === 'token-bucket' || options.windowLimits === false) return safeLimit(bucket, options);
  const margin = options.windowMargin ?? DEFAULT_WINDOW_MARGIN;
  const jitter = options.jitterMs ?? DEFAULT_WINDOW_JITTER_MS;
  if (!(margin >= 0 && margin < 1)) throw new RangeError(`windowMargin must be in [0, 1), got ${margin}`);
  if (!(jitter >= 0 && Number.isFinite(jitter))) throw new RangeError(`jitterMs must be finite and >= 0, got ${jitter}`);
  const maxCost = options.maxCost ?? 1;
  const perWindow = bucket.limit * (1 - margin);
  if (maxCost > perWindow) throw new RangeError(`bucket "${bucket.id}": a cost of ${maxCost} exceeds the window limit ${perWindow} per ${bucket.windowMs} ms`);
  return { perWindow, windowMs: bucket.windowMs, jitterMs: jitter };
}
