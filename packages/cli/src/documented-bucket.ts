import type { BucketSnapshot } from '@core/rate-limit-contract';
import type { DocumentedLimit } from '@core/rate-limit-metrics';
import { DEFAULT_WINDOW_JITTER_MS, bucketForTier, getVenueSpec, venueEvidence, type BucketSpec, type VenueSpec } from '@core/exchange-specs';

/** A live limiter bucket set against the venue's documented limit it keeps under. */
export interface DocumentedBucket {
  /** The venue's bucket (the tier in force applied), or `null` when the venue or the axis is not in exchange-specs. */
  readonly documented: BucketSpec | null;
  /** The tier whose limit it is (`undefined`: the spec's default). */
  readonly tier?: string;
  /** `true` when the spec is ccxt-derived: its limit is ccxt's pacing, an estimate, not the venue's documentation. */
  readonly estimated?: true;
  /**
   * The most the limiter lets the venue count per documented window over time, as a share of the
   * documented limit. A window limit of `P` per `W` with a jitter allowance `J`: `P / L · W / (W + J)`
   * (each window's sends may arrive up to `J` late, so a window can be refilled only every `W + J`),
   * 95.2 % of a 2-s window, 99.8 % of a minute. A token bucket standing in for a window:
   * `(capacity + refill · W) / L`; for a venue token bucket, refill over the documented refill. `null`
   * without a documented limit.
   */
  readonly mostPerWindow: number | null;
  /**
   * A window limit's `counted` (the cost it counts in the window ending now) over the documented limit:
   * the demo's utilization read live, plus what the limiter counts again (a send whose answer came back
   * late may have reached the venue late, so it holds back for it twice). `null` for a token bucket or
   * without a documented limit.
   */
  readonly countedShare: number | null;
}

function specOf(venue: string): VenueSpec | undefined {
  try {
    return getVenueSpec(venue);
  } catch {
    return undefined;
  }
}

/** The spec's bucket a limiter axis belongs to: the axis itself, or `<bucket id>:<partition value>`. */
function bucketOf(spec: VenueSpec, axis: string): BucketSpec | undefined {
  let best: BucketSpec | undefined;
  for (const b of spec.buckets) {
    if (axis === b.id) return b;
    if (axis.startsWith(`${b.id}:`) && (best === undefined || b.id.length > best.id.length)) best = b;
  }
  return best;
}

/** How much of a documented limit the limiter's own limit is: the share that picks the tier in force. */
function limitShare(limiter: BucketSnapshot, documented: BucketSpec): number {
  if (documented.algorithm === 'token-bucket') return documented.refillPerSec > 0 ? limiter.refillPerSec / documented.refillPerSec : Infinity;
  if (!(documented.limit > 0)) return Infinity;
  if (limiter.windowMs === documented.windowMs) return limiter.capacity / documented.limit;
  if (limiter.windowMs !== undefined) return (limiter.refillPerSec * documented.windowMs) / 1000 / documented.limit;
  return (limiter.capacity + (limiter.refillPerSec * documented.windowMs) / 1000) / documented.limit;
}

/** {@link DocumentedBucket.mostPerWindow}: the limit's share, less what the jitter allowance keeps a window limit from. */
function mostPerWindow(limiter: BucketSnapshot, documented: BucketSpec, share: number): number {
  if (limiter.windowMs === undefined || documented.algorithm === 'token-bucket') return share;
  const jitter = limiter.jitterMs ?? DEFAULT_WINDOW_JITTER_MS;
  return (share * limiter.windowMs) / (limiter.windowMs + jitter);
}

/**
 * Finds the documented limit a live bucket of a limiter keeps under (its venue is an exchange-specs
 * venue id, its axis a bucket id, partitioned or not) and how much of it the limiter lets through. A
 * bucket with tiers is set against the tier in force: the one whose limit the limiter's own limit fits
 * (the largest share at most 1; the spec's default tier when several fit alike).
 */
export function documentedBucket(b: BucketSnapshot): DocumentedBucket {
  const spec = specOf(b.venue);
  const bucket = spec === undefined ? undefined : bucketOf(spec, b.axis);
  if (bucket === undefined || spec === undefined) return { documented: null, mostPerWindow: null, countedShare: null };
  let chosen: { bucket: BucketSpec; tier: string | undefined; share: number } | undefined;
  for (const tier of [undefined, ...Object.keys(bucket.tiers ?? {})]) {
    const t = bucketForTier(bucket, tier);
    const share = limitShare(b, t);
    const fits = share <= 1 + 1e-9;
    const better = chosen === undefined || (fits ? chosen.share > 1 + 1e-9 || share > chosen.share + 1e-9 : chosen.share > 1 + 1e-9 && share < chosen.share);
    if (better) chosen = { bucket: t, tier, share };
  }
  if (chosen === undefined) return { documented: null, mostPerWindow: null, countedShare: null };
  const d = chosen.bucket;
  return {
    documented: d,
    mostPerWindow: mostPerWindow(b, d, chosen.share),
    countedShare: b.counted === undefined || d.algorithm === 'token-bucket' || !(d.limit > 0) ? null : b.counted / d.limit,
    ...(chosen.tier === undefined ? {} : { tier: chosen.tier }),
    ...(venueEvidence(spec) === 'documented' ? {} : { estimated: true as const }),
  };
}

/** The documented limit of a live bucket for the metrics' limit and utilization gauges (`instrumentRateLimiter`'s `documentedLimit`). */
export function documentedLimitOf(b: BucketSnapshot): DocumentedLimit | undefined {
  const d = documentedBucket(b);
  if (d.documented === null) return undefined;
  const limit = d.documented.algorithm === 'token-bucket' ? d.documented.capacity : d.documented.limit;
  return d.tier === undefined ? { limit } : { limit, tier: d.tier };
}
