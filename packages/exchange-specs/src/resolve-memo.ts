import type { Identity, VenueRequest } from './venue-io.js';
import type { BucketSpec, VenueSpec } from './venue-spec.js';

/** The resolve options a request's charges and a bucket's limit depend on (`ResolveOptions`' own fields, not reserve nor classes). */
export interface ChargeOptions {
  readonly margin?: number;
  readonly burstFraction?: number;
  readonly jitterMs?: number;
  readonly windowLimits?: boolean;
  readonly windowMargin?: number;
  readonly deferred?: boolean;
  readonly inFlightShare?: number;
}

/** Charge options with the unset ones as `undefined` (a copy kept to compare with). */
export type ChargeOptionValues = { readonly [K in keyof ChargeOptions]?: ChargeOptions[K] | undefined };

/** Whether two sets of charge options price alike. */
export function sameOptions(a: ChargeOptionValues, b: ChargeOptionValues): boolean {
  return (
    a === b ||
    (a.margin === b.margin &&
      a.burstFraction === b.burstFraction &&
      a.jitterMs === b.jitterMs &&
      a.windowLimits === b.windowLimits &&
      a.windowMargin === b.windowMargin &&
      a.deferred === b.deferred &&
      a.inFlightShare === b.inFlightShare)
  );
}

interface Resolved<T> {
  readonly spec: VenueSpec;
  readonly identity: Identity;
  readonly options: ChargeOptions;
  readonly result: T;
}

/** How many recent requests keep their charges: more than a client has between pricing a request and reading its answer, usually. */
const RECENT_REQUESTS = 64;
const recent: (Resolved<unknown> & { readonly request: VenueRequest })[] = [];
let next = 0;

/**
 * The charges of a request object, resolved once for the same spec, identity object and options: a client
 * prices a request before sending it (`resolveRequest`) and reads its answer with the same request
 * (`interpretResponse`), which resolves its charges again. The last {@link RECENT_REQUESTS} requests are
 * kept (a request the ring has forgotten is resolved again). A request is read-only once made.
 */
export function chargesOnce<T>(spec: VenueSpec, request: VenueRequest, identity: Identity, options: ChargeOptions, resolve: () => T): T {
  // the latest first: a request's answer comes soon after its price
  for (let i = 1; i <= recent.length; i++) {
    const last = recent[(next - i + RECENT_REQUESTS) % RECENT_REQUESTS];
    if (last === undefined) continue;
    if (last.request === request && last.spec === spec && last.identity === identity && sameOptions(last.options, options)) return last.result as T;
  }
  const result = resolve();
  recent[next] = { request, spec, identity, options, result };
  next = (next + 1) % RECENT_REQUESTS;
  return result;
}

const limits = new WeakMap<VenueSpec, WeakMap<BucketSpec, Map<string, unknown>>>();
/** Distinct (tier, options) limits kept per bucket: a caller uses one or two; a caller that varies its options per request is not slowed down by a growing map. */
const LIMITS_PER_BUCKET = 16;

/** A bucket's enforced limit for a tier and options, derived once (its derivation reads the whole spec for the bucket's largest cost). */
export function limitOnce<T>(spec: VenueSpec, bucket: BucketSpec, tier: string | undefined, o: ChargeOptions, derive: () => T): T {
  let bySpec = limits.get(spec);
  if (bySpec === undefined) limits.set(spec, (bySpec = new WeakMap()));
  let byBucket = bySpec.get(bucket);
  if (byBucket === undefined) bySpec.set(bucket, (byBucket = new Map()));
  const key = `${tier ?? ''}\u0000${o.margin}\u0000${o.burstFraction}\u0000${o.jitterMs}\u0000${o.windowLimits}\u0000${o.windowMargin}\u0000${o.deferred}\u0000${o.inFlightShare}`;
  if (byBucket.has(key)) return byBucket.get(key) as T;
  const limit = derive();
  if (byBucket.size >= LIMITS_PER_BUCKET) byBucket.clear();
  byBucket.set(key, limit);
  return limit;
}
