import type { BucketSpec, VenueSpec } from './venue-spec.js';

/**
 * The bucket with a tier's values applied (the tier's `limit`, or `capacity` and `refillPerSec`).
 * A tier the bucket does not list leaves it unchanged; `undefined` means the spec's default tier.
 */
export function bucketForTier(bucket: BucketSpec, tier: string | undefined): BucketSpec {
  if (tier === undefined || bucket.tiers === undefined) return bucket;
  if (bucket.algorithm === 'token-bucket') {
    const t = bucket.tiers[tier];
    return t === undefined ? bucket : { ...bucket, capacity: t.capacity, refillPerSec: t.refillPerSec };
  }
  const t = bucket.tiers[tier];
  return t === undefined ? bucket : { ...bucket, limit: t.limit };
}

/** Every tier name any bucket of the spec lists. */
export function specTiers(spec: VenueSpec): ReadonlySet<string> {
  const names = new Set<string>();
  for (const b of spec.buckets) for (const name of Object.keys(b.tiers ?? {})) names.add(name);
  return names;
}
