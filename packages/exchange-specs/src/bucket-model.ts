import type { BucketSpec } from './venue-spec.js';

/** The answer of {@link BucketModel.consume}. */
export interface ModelResult {
  readonly admitted: boolean;
  /** The amount used after this call (the counter, for a token bucket). */
  readonly used: number;
  /** What is left of the limit after this call. */
  readonly remaining: number;
  /** When the window ends (window algorithms), or when the counter is back to 0 (token bucket). */
  readonly resetAtMs: number;
}

/** A reference model of a venue's own counting for one bucket (one key, one partition value). */
export interface BucketModel {
  /**
   * Charges `cost` at `nowMs` when it fits (a refused request changes nothing).
   * `nowMs` must not go backwards.
   */
  consume(nowMs: number, cost: number): ModelResult;
}

const EPS = 1e-9;

function fixedAligned(limit: number, windowMs: number): BucketModel {
  let windowIndex = Number.NEGATIVE_INFINITY;
  let used = 0;
  return {
    consume(nowMs, cost) {
      const idx = Math.floor(nowMs / windowMs);
      if (idx !== windowIndex) {
        windowIndex = idx;
        used = 0;
      }
      const admitted = used + cost <= limit + EPS;
      if (admitted) used += cost;
      return { admitted, used, remaining: Math.max(0, limit - used), resetAtMs: (idx + 1) * windowMs };
    },
  };
}

function fixedAnchored(limit: number, windowMs: number): BucketModel {
  let start = Number.NEGATIVE_INFINITY;
  let used = 0;
  return {
    consume(nowMs, cost) {
      if (nowMs >= start + windowMs) {
        start = nowMs;
        used = 0;
      }
      const admitted = used + cost <= limit + EPS;
      if (admitted) used += cost;
      return { admitted, used, remaining: Math.max(0, limit - used), resetAtMs: start + windowMs };
    },
  };
}

function sliding(limit: number, windowMs: number): BucketModel {
  const log: { at: number; cost: number }[] = [];
  let used = 0;
  return {
    consume(nowMs, cost) {
      while (log.length > 0 && (log[0]?.at ?? 0) <= nowMs - windowMs) used -= log.shift()?.cost ?? 0;
      const admitted = used + cost <= limit + EPS;
      if (admitted) {
        used += cost;
        log.push({ at: nowMs, cost });
      }
      const oldest = log[0];
      return { admitted, used, remaining: Math.max(0, limit - used), resetAtMs: oldest === undefined ? nowMs : oldest.at + windowMs };
    },
  };
}

function decaying(capacity: number, refillPerSec: number): BucketModel {
  let counter = 0;
  let last = Number.NEGATIVE_INFINITY;
  return {
    consume(nowMs, cost) {
      if (last !== Number.NEGATIVE_INFINITY) counter = Math.max(0, counter - ((nowMs - last) * refillPerSec) / 1000);
      last = nowMs;
      const admitted = counter + cost <= capacity + EPS;
      if (admitted) counter += cost;
      return { admitted, used: counter, remaining: Math.max(0, capacity - counter), resetAtMs: nowMs + (counter * 1000) / refillPerSec };
    },
  };
}

/**
 * A small reference model of the venue's algorithm for one bucket: a fixed window aligned to the
 * clock (epoch multiples of the window), a fixed window anchored at the first request, a sliding
 * window (a log of the last window's requests), or a decaying counter (a token bucket: the counter
 * decays at the refill rate; a request is admitted when counter + cost <= capacity).
 *
 * @param bucket - the bucket (apply a tier first with `bucketForTier`).
 * @param limitValue - overrides the window limit (or the token bucket's capacity).
 * @example
 * ```ts
 * const m = createBucketModel(binanceSpot.buckets[0]!);
 * m.consume(Date.now(), 20); // { admitted: true, used: 20, remaining: 5980, resetAtMs: ... }
 * ```
 */
export function createBucketModel(bucket: BucketSpec, limitValue?: number): BucketModel {
  switch (bucket.algorithm) {
    case 'fixed-window-aligned':
      return fixedAligned(limitValue ?? bucket.limit, bucket.windowMs);
    case 'fixed-window-anchored':
      return fixedAnchored(limitValue ?? bucket.limit, bucket.windowMs);
    case 'sliding-window':
      return sliding(limitValue ?? bucket.limit, bucket.windowMs);
    case 'token-bucket':
      return decaying(limitValue ?? bucket.capacity, bucket.refillPerSec);
  }
}
