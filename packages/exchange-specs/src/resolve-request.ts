import type { BucketCheck } from '@core/rate-limit-contract';
import { DEFAULT_VENUE_RESERVE, bucketReserve, requestPriority } from './critical-requests.js';
import { inFlightBound } from './deferred-charges.js';
import { resolveCharges, type ChargesResult, type ResolveOptions } from './resolve-charges.js';
import type { DeferredCharge, Identity, ResolveResult, VenueCharge, VenueRequest } from './venue-io.js';
import type { VenueSpec } from './venue-spec.js';

function keyId(c: { readonly key: BucketCheck['key'] }): string {
  return `${c.key.credential ?? ''}\u0000${c.key.axis ?? 'request'}`;
}

/**
 * Turns a request into the bucket checks it costs: one per bucket (and partition value) it
 * charges, with the bucket's safe limit (`safeLimit` with the bucket's largest cost) and the
 * request's cost there. Repeated keys are merged at their combined cost. On a `spaced` bucket (one
 * request already fills the margined window) every request is admitted at the bucket's largest
 * cost, so at most one goes out per window whatever its size; `charges` keeps what the venue counts.
 *
 * Keys: `venue` = the spec's id; `credential` = `null` for `ip` buckets, the identity's uid (else
 * its credential) for `uid` buckets, its credential for `key` and `subaccount` buckets; `axis` =
 * the bucket id, plus `:<value>` when the bucket is partitioned (`trade/order:BTC-USDT`).
 *
 * @param spec - a validated spec (see `getVenueSpec`).
 * @param request - method, path (no host, no query string), query, body.
 * @param identity - credential (`null` = public), tier, uid.
 * @param options - `margin` (default 0.04), `burstFraction` (default 0.02) and `jitterMs` (default
 * 50) for the safe limits (see `safeLimit`); `deferred` (default false) to admit the charges a venue
 * applies only on an outcome without reserving them (returned in `deferred`), with `inFlightShare`
 * (default 0.05) of such a bucket kept for them.
 * @returns `{ ok: true, endpoint, checks }`, or `{ ok: false, error }` with code `unknown_endpoint`
 * (no endpoint matches and the spec documents no default), `missing_parameter` (a parameter the
 * cost or the partition depends on), `invalid_parameter`, `credential_required`, `unknown_tier` or
 * `invalid_spec`. Nothing is ever silently priced at 1. The result also carries the request's class by
 * nature (`priority`: `'critical'` for cancels, cancel-all, position closes and reduce-only orders, see
 * `CRITICAL_REQUESTS`) and the reserve (`options.reserve` over `DEFAULT_VENUE_RESERVE`) for the limiter's call.
 * Requests of one shape (the same endpoint and the same values where the price reads) share their checks,
 * charges and deferred charges, each priced once: read-only.
 * @example
 * ```ts
 * const r = resolveRequest(getVenueSpec('binance-spot'), { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '500' } }, { credential: null });
 * if (r.ok) await limiter.waitForCapacity(r.checks, { maxWaitMs: 5_000, priority: r.priority, reserve: r.reserve });
 * ```
 */
export function resolveRequest(spec: VenueSpec, request: VenueRequest, identity: Identity, options: ResolveOptions = {}): ResolveResult {
  const r = resolveCharges(spec, request, identity, options);
  if (!r.ok) return r;
  const { checks, charges, deferred, reserve } = mergedOnce(r, options, () => merge(spec, r, options));
  return { ok: true, endpoint: r.endpoint, checks, charges, deferred, priority: requestPriority(spec, r.endpoint, request), reserve };
}

type Merged = Pick<Extract<ResolveResult, { ok: true }>, 'checks' | 'charges' | 'deferred' | 'reserve'>;

/** A request's charges merged per key, for the options outside the charges (classes and reserve). */
interface MergedFor {
  readonly classes: boolean | undefined;
  readonly normal: number | undefined;
  readonly bulk: number | undefined;
  readonly reserveGiven: boolean;
  readonly merged: Merged;
}

const merges = new WeakMap<object, MergedFor[]>();
/** Distinct (classes, reserve) options kept per charges result. */
const MERGES_PER_CHARGES = 4;

/**
 * The merged checks of a charges result, made once per result and (classes, reserve) options: a result kept for
 * a request's shape (see `resolveCharges`) is the same object for the same spec, identity and charge options,
 * which fix everything else the merge reads. Shared, read-only.
 */
function mergedOnce(r: object, options: ResolveOptions, make: () => Merged): Merged {
  let list = merges.get(r);
  if (list === undefined) merges.set(r, (list = []));
  const given = options.reserve !== undefined;
  for (const m of list) {
    if (m.classes === options.classes && m.reserveGiven === given && m.normal === options.reserve?.normal && m.bulk === options.reserve?.bulk) return m.merged;
  }
  const merged = make();
  if (list.length >= MERGES_PER_CHARGES) list.shift();
  list.push({ classes: options.classes, reserveGiven: given, normal: options.reserve?.normal, bulk: options.reserve?.bulk, merged });
  return merged;
}

function merge(spec: VenueSpec, r: Extract<ChargesResult, { ok: true }>, options: ResolveOptions): Merged {
  const merged = new Map<string, BucketCheck>();
  const venue = new Map<string, VenueCharge>();
  const deferred = new Map<string, DeferredCharge>();
  for (const c of r.charges) {
    if (c.deferred && c.charge !== 'always') {
      const did = `${keyId(c)}\u0000${c.charge}`;
      const d = deferred.get(did);
      deferred.set(
        did,
        d === undefined
          ? { key: c.key, bucket: c.bucket.id, cost: c.venueCost, charge: c.charge, limit: c.limit, inFlight: c.inFlight ?? 0 }
          : { ...d, cost: d.cost + c.venueCost },
      );
    }
    // for a limiter with classes: the caller's reserve holds for every bucket of the call; without one, each bucket carries its own (RL-Q6)
    const own =
      options.classes === true && options.reserve === undefined
        ? bucketReserve(spec, c.bucket.id, c.limit !== null && 'perWindow' in c.limit, inFlightBound(spec, c.bucket, r.tier, options))
        : undefined;
    const check: BucketCheck = own === undefined ? { key: c.key, limit: c.limit, cost: c.cost } : { key: c.key, limit: c.limit, cost: c.cost, reserve: own };
    const id = keyId(check);
    const prev = merged.get(id);
    merged.set(id, prev === undefined ? check : { ...prev, cost: prev.cost + check.cost });
    const vid = `${id}\u0000${c.charge}`;
    const v = venue.get(vid);
    venue.set(vid, v === undefined ? { key: c.key, bucket: c.bucket.id, cost: c.venueCost, charge: c.charge } : { ...v, cost: v.cost + c.venueCost });
  }
  const reserve =
    options.reserve === undefined
      ? DEFAULT_VENUE_RESERVE
      : { normal: options.reserve.normal ?? DEFAULT_VENUE_RESERVE.normal, bulk: options.reserve.bulk ?? DEFAULT_VENUE_RESERVE.bulk };
  return { checks: [...merged.values()], charges: [...venue.values()], deferred: [...deferred.values()], reserve };
}
