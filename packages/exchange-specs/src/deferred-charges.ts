import type { ResolveOptions } from './resolve-charges.js';
import { DEFAULT_MARGIN } from './safe-limit.js';
import { bucketForTier } from './tier.js';
import type { BucketSpec, VenueSpec } from './venue-spec.js';

/**
 * The default `inFlightShare`: 2 % of a bucket's venue limit may be in flight as deferred charges (Binance's
 * weight: 120 orders or cancels at once, from an IP whose accounts may each place 50 orders in 10 s).
 */
export const DEFAULT_IN_FLIGHT_SHARE = 0.02;

/**
 * The cost at which a deferred charge is admitted, as a fraction of the charge: a cost of 0 is admitted
 * whatever the bucket holds (RL-A2), while the bound needs every request on the bucket to wait while it is
 * full (records of failures included), so it is checked at a cost too small to matter.
 */
export const DEFERRED_GATE_FRACTION = 1e-6;

const deferringCache = new WeakMap<VenueSpec, Set<string>>();

/** Whether a rule of the spec charges the bucket only on an outcome (`charge` other than `always`). */
export function bucketDefers(spec: VenueSpec, bucketId: string): boolean {
  let set = deferringCache.get(spec);
  if (set === undefined) {
    set = new Set();
    const rules = [
      ...spec.endpoints.flatMap((e) => [...e.costs, ...(e.publicCosts ?? [])]),
      ...(spec.global ?? []),
      ...(spec.fallback?.costs ?? []),
      ...(spec.fallback?.publicCosts ?? []),
    ];
    for (const r of rules) if ((r.charge ?? 'always') !== 'always') set.add(r.bucket);
    deferringCache.set(spec, set);
  }
  return set.has(bucketId);
}

function inFlightShare(options: ResolveOptions): number {
  const share = options.inFlightShare ?? DEFAULT_IN_FLIGHT_SHARE;
  if (!(share >= 0 && share < 1)) throw new RangeError(`inFlightShare must be in [0, 1), got ${String(share)}`);
  return share;
}

/**
 * The options a bucket's limit is derived with: with `deferred`, a bucket some rule charges only on an
 * outcome keeps `inFlightShare` of its venue limit for the deferred charges in flight (added to the
 * window margin, or to the margin of the token-bucket derivation).
 */
export function deferralOptions(spec: VenueSpec, bucket: BucketSpec, options: ResolveOptions): ResolveOptions {
  if (options.deferred !== true || !bucketDefers(spec, bucket.id)) return options;
  const share = inFlightShare(options);
  if (share === 0) return options;
  if (bucket.algorithm !== 'token-bucket' && options.windowLimits !== false) return { ...options, windowMargin: (options.windowMargin ?? 0) + share };
  return { ...options, margin: (options.margin ?? DEFAULT_MARGIN) + share };
}

/**
 * The margin a bucket's token-bucket derivation keeps (its `margin`, plus `inFlightShare` on a bucket whose
 * deferred charges may be in flight): what a usage header's bound must keep free too.
 */
export function bucketMargin(spec: VenueSpec, bucket: BucketSpec, options: ResolveOptions = {}): number {
  return deferralOptions(spec, bucket, { ...options, windowLimits: false }).margin ?? DEFAULT_MARGIN;
}

/**
 * The most deferred cost that may be in flight on a bucket (`inFlightShare` of its venue limit, a token
 * bucket's capacity), for a tier; 0 without the `deferred` option or when no rule defers on it.
 */
export function inFlightBound(spec: VenueSpec, bucket: BucketSpec, tier: string | undefined, options: ResolveOptions = {}): number {
  if (options.deferred !== true || !bucketDefers(spec, bucket.id)) return 0;
  const b = bucketForTier(bucket, tier);
  return inFlightShare(options) * (b.algorithm === 'token-bucket' ? b.capacity : b.limit);
}
