import type { BucketSnapshot } from '@core/rate-limit-contract';
import { bucketForTier, getVenueSpec, venueEvidence, type BucketSpec, type VenueSpec } from '@core/exchange-specs';

/** A live limiter bucket set against the venue's documented limit it keeps under. */
export interface DocumentedBucket {
  /** The venue's bucket (a tier applied), or `null` when the venue or the axis is not in exchange-specs. */
  readonly documented: BucketSpec | null;
  /** The tier whose limit it is (`undefined`: the spec's default). */
  readonly tier?: string;
  /** `true` when the spec is ccxt-derived: its limit is ccxt's pacing, an estimate, not the venue's documentation. */
  readonly estimated?: true;
  /**
   * The most the limiter's bucket lets through per documented window, as a share of the documented
   * limit: `(capacity + refill·W) / L` for a window of `L` per `W`, `refill / documented refill` for a
   * token bucket. Below 1 by design (the margin); `null` without a documented limit.
   */
  readonly paceShare: number | null;
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

function shareOf(limiter: BucketSnapshot, documented: BucketSpec): number {
  if (documented.algorithm === 'token-bucket') return documented.refillPerSec > 0 ? limiter.refillPerSec / documented.refillPerSec : Infinity;
  return documented.limit > 0 ? (limiter.capacity + (limiter.refillPerSec * documented.windowMs) / 1000) / documented.limit : Infinity;
}

/**
 * Finds the documented limit a live bucket of a limiter keeps under (its venue is an exchange-specs
 * venue id, its axis a bucket id, partitioned or not) and how close the limiter's pace comes to it.
 * A bucket with tiers is set against the tier its pace fits best (the largest share at most 1).
 */
export function documentedBucket(b: BucketSnapshot): DocumentedBucket {
  const spec = specOf(b.venue);
  const bucket = spec === undefined ? undefined : bucketOf(spec, b.axis);
  if (bucket === undefined) return { documented: null, paceShare: null };
  let chosen: { bucket: BucketSpec; tier: string | undefined; share: number } | undefined;
  for (const tier of [undefined, ...Object.keys(bucket.tiers ?? {})]) {
    const t = bucketForTier(bucket, tier);
    const share = shareOf(b, t);
    const better =
      chosen === undefined || (share <= 1 + 1e-9 ? chosen.share > 1 + 1e-9 || share > chosen.share : chosen.share > 1 + 1e-9 && share < chosen.share);
    if (better) chosen = { bucket: t, tier, share };
  }
  if (chosen === undefined || spec === undefined) return { documented: null, paceShare: null };
  return {
    documented: chosen.bucket,
    paceShare: chosen.share,
    ...(chosen.tier === undefined ? {} : { tier: chosen.tier }),
    ...(venueEvidence(spec) === 'documented' ? {} : { estimated: true as const }),
  };
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n < 10 ? n.toFixed(2) : n.toFixed(1);
}

/** A documented limit in words: `10 / 2 s sliding`, `6000 / 1 min aligned`, `15 cap, 0.33/s`. */
export function describeDocumented(b: BucketSpec): string {
  if (b.algorithm === 'token-bucket') return `${num(b.capacity)} cap, ${num(b.refillPerSec)}/s`;
  const w = b.windowMs % 60_000 === 0 ? `${b.windowMs / 60_000} min` : `${num(b.windowMs / 1000)} s`;
  const kind = b.algorithm === 'fixed-window-aligned' ? 'aligned' : b.algorithm === 'fixed-window-anchored' ? 'anchored' : 'sliding';
  return `${num(b.limit)} / ${w} ${kind}`;
}

/**
 * What a live bucket holds now, in words that cannot be mistaken for usage of the documented limit:
 * `free 0.6 of 1` while tokens are left, `queue 1.27 s` while bookings wait beyond the burst (borrowed
 * above capacity is booked ahead, not spent), `used 3 of 5` for a fixed quota, `held 12 s` during a
 * penalty.
 */
export function describeNow(b: BucketSnapshot, nowMs: number): string {
  if (b.heldUntilMs !== undefined && b.heldUntilMs > nowMs) return `held ${num((b.heldUntilMs - nowMs) / 1000)} s`;
  if (b.refillPerSec === 0) return `used ${num(b.borrowed)} of ${num(b.capacity)}`;
  if (b.borrowed <= b.capacity) return `free ${num(Math.max(0, b.tokens))} of ${num(b.capacity)}`;
  return `queue ${num((b.borrowed - b.capacity) / b.refillPerSec)} s`;
}
