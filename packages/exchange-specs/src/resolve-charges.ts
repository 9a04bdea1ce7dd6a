import type { BucketKey, NormalizedLimit, Reserve, WindowLimit } from '@core/rate-limit-contract';
import { evaluateCost, maxCost } from './evaluate-cost.js';
import { matchEndpoints, type EndpointMatch } from './match-endpoint.js';
import { listItems, requestParams, type RequestParams } from './request-params.js';
import { deferralOptions, DEFERRED_GATE_FRACTION, inFlightBound } from './deferred-charges.js';
import { describeSafeLimit, venueLimit, type SafeLimitDerivation, type SafeLimitOptions, type VenueLimitOptions } from './safe-limit.js';
import { bucketForTier, specTiers } from './tier.js';
import { chargesOnce, limitOnce } from './resolve-memo.js';
import { priceByShape } from './shape-memo.js';
import type { Identity, ResolveError, ResolveErrorCode, VenueRequest } from './venue-io.js';
import type { BucketSpec, CostRule, EndpointSpec, PricedElsewhere, VenueSpec } from './venue-spec.js';

/** Options of `resolveRequest` and `interpretResponse`: how the safe limits are derived (see `safeLimit`). */
export interface ResolveOptions {
  /** The fraction of every venue limit left unused; default 0.04 (`DEFAULT_MARGIN`). */
  readonly margin?: number;
  /** The burst as a fraction of the usable window limit (at least the largest cost); default 0.02. */
  readonly burstFraction?: number;
  /** How late a request may reach the venue after its send time, ms; default 50. */
  readonly jitterMs?: number;
  /**
   * Window limits for the venue's window buckets (see `venueLimit`); default `true`. Give the limiter's
   * `capabilities.windowLimits` (paced-fetch does).
   */
  readonly windowLimits?: boolean;
  /** The fraction of a window limit left unused; default 0. */
  readonly windowMargin?: number;
  /**
   * Admit the charges a venue applies only on an outcome (Binance's order weight, charged only when the
   * order fails) without reserving them: they are returned as `deferred`, to be recorded when the answer
   * says they applied, with a bound on what may be in flight (see `inFlightShare`). Default `false`: every
   * charge is reserved at admission, which is safe for a caller that records nothing after the answer.
   */
  readonly deferred?: boolean;
  /**
   * With `deferred`: the share of a bucket's venue limit that deferred charges admitted without reserving
   * may total while in flight; the limit enforced on such a bucket is lowered by the same share, so that
   * even when every request in flight fails the venue's count stays inside its limit. Default
   * `DEFAULT_IN_FLIGHT_SHARE` (0.02).
   */
  readonly inFlightShare?: number;
  /**
   * The share of every bucket lower classes leave free for higher ones (RL-Q4), carried by the result
   * for the limiter's calls; default `DEFAULT_VENUE_RESERVE` (`{ normal: 0, bulk: 0.2 }`), and with
   * `classes` each bucket's own instead. A share left out takes the default's.
   */
  readonly reserve?: Reserve;
  /**
   * For a limiter with `capabilities.priorities`: each check carries its bucket's own reserve
   * (`bucketReserve`, RL-Q6) when `reserve` is not given, so bulk keeps room only on the buckets critical
   * requests by nature share (a fifth of a token bucket, 5 % of a window) and spends the others to their
   * end. Default `false`: checks carry no reserve (a limiter without classes refuses one).
   */
  readonly classes?: boolean;
}

/** The limit a limiter enforces for a bucket (a token bucket or a window limit). */
export type EnforcedLimit = NormalizedLimit | Required<WindowLimit>;

/** The `safeLimit` options of resolve options, without the unset ones. */
export function safeLimitOptions(options: ResolveOptions, maxCost?: number): SafeLimitOptions {
  return {
    ...(options.margin === undefined ? {} : { margin: options.margin }),
    ...(options.burstFraction === undefined ? {} : { burstFraction: options.burstFraction }),
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    ...(maxCost === undefined ? {} : { maxCost }),
  };
}

/** One bucket a request is charged on, before merging repeated keys. */
export interface Charge {
  readonly bucket: BucketSpec;
  readonly rule: CostRule;
  readonly key: BucketKey;
  readonly limit: EnforcedLimit;
  /** What the limiter is asked to admit (see {@link Charge.venueCost}). */
  readonly cost: number;
  /**
   * What the venue counts. It differs from `cost` only on `spaced` buckets (one request already
   * fills the margined window), where every request is admitted at the bucket's largest cost so
   * that at most one goes out per window, whatever its size.
   */
  readonly venueCost: number;
  /** When the venue counts it (the rule's `charge`, default `always`). */
  readonly charge: 'always' | 'success' | 'failure';
  /**
   * Admitted without reserving `venueCost` (`cost` is then the gate, `DEFERRED_GATE_FRACTION` of
   * it): with the `deferred` option, a charge the venue applies only on an outcome, on a bucket that is
   * not spaced, no larger than the bucket's in-flight bound.
   */
  readonly deferred: boolean;
  /** With `deferred`: the most deferred cost that may be in flight on the key (`inFlightBound`). */
  readonly inFlight?: number;
  /**
   * The parameters the rule was priced with (a group's items for `items` partitions); for a price kept for
   * its shape (the same values where the price read), those of the request first priced so.
   */
  readonly params: RequestParams;
}

/** The charges of a request, or why it cannot be resolved. */
export type ChargesResult =
  | { readonly ok: true; readonly endpoint: EndpointSpec | null; readonly charges: readonly Charge[]; readonly tier: string | undefined }
  | { readonly ok: false; readonly error: ResolveError };

const maxCostCache = new WeakMap<VenueSpec, Map<string, number>>();

/**
 * The largest single cost any rule of the spec charges to a bucket (at least the smallest
 * positive cost seen, 1 when nothing is known): it sizes the safe capacity.
 */
export function bucketMaxCost(spec: VenueSpec, bucketId: string): number {
  let cache = maxCostCache.get(spec);
  if (cache === undefined) {
    cache = new Map();
    const rules = [
      ...spec.endpoints.flatMap((e) => [...e.costs, ...(e.publicCosts ?? [])]),
      ...(spec.global ?? []),
      ...(spec.fallback?.costs ?? []),
      ...(spec.fallback?.publicCosts ?? []),
    ];
    for (const r of rules) cache.set(r.bucket, Math.max(cache.get(r.bucket) ?? 0, maxCost(r.cost)));
    maxCostCache.set(spec, cache);
  }
  const m = cache.get(bucketId);
  return m === undefined || m <= 0 ? 1 : m;
}

/** How the safe limit of a bucket of a spec is derived for a tier (see `describeSafeLimit`). */
export function bucketDerivation(spec: VenueSpec, bucket: BucketSpec, tier: string | undefined, options: ResolveOptions = {}): SafeLimitDerivation {
  const b = bucketForTier(bucket, tier);
  return describeSafeLimit(b, safeLimitOptions(deferralOptions(spec, bucket, options), bucketMaxCost(spec, bucket.id)));
}

/** The limit a limiter enforces for a bucket of a spec for a tier (see `venueLimit`). */
export function bucketLimit(spec: VenueSpec, bucket: BucketSpec, tier: string | undefined, options: ResolveOptions = {}): EnforcedLimit {
  return limitOnce(spec, bucket, tier, options, () =>
    venueLimit(bucketForTier(bucket, tier), venueLimitOptions(deferralOptions(spec, bucket, options), bucketMaxCost(spec, bucket.id))),
  );
}

/** Whether a bucket is enforced as a window limit under these options. */
export function usesWindowLimit(bucket: BucketSpec, options: ResolveOptions): boolean {
  return bucket.algorithm !== 'token-bucket' && options.windowLimits !== false;
}

function venueLimitOptions(options: ResolveOptions, maxCost: number): VenueLimitOptions {
  return {
    ...safeLimitOptions(options, maxCost),
    ...(options.windowLimits === undefined ? {} : { windowLimits: options.windowLimits }),
    ...(options.windowMargin === undefined ? {} : { windowMargin: options.windowMargin }),
  };
}

/** The credential a bucket's key carries for an identity, or `undefined` when one is required but missing. */
export function scopeCredential(bucket: BucketSpec, identity: Identity): string | null | undefined {
  switch (bucket.scope) {
    case 'ip':
      return null;
    case 'uid':
      return identity.uid ?? identity.credential ?? undefined;
    case 'key':
    case 'subaccount':
      return identity.credential ?? undefined;
  }
}

/** The entry naming the spec that prices a path this spec leaves to another (see `VenueSpec.pricedElsewhere`). */
function elsewhere(spec: VenueSpec, path: string): PricedElsewhere | undefined {
  return spec.pricedElsewhere?.find((e) => path.startsWith(e.prefix));
}

function fail(code: ResolveErrorCode, message: string): ChargesResult {
  return { ok: false, error: { code, message } };
}

function overrideParams(base: RequestParams, name: string, value: unknown): RequestParams {
  return { get: (n) => (n === name ? value : base.get(n)) };
}

function partitionText(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}

const patterns = new Map<string, RegExp>();

/** A partition value: the text, or the first capture of the partition's `pattern` when it matches. */
function partitionValue(v: unknown, pattern: string | undefined): string | undefined {
  const text = partitionText(v);
  if (text === undefined || pattern === undefined) return text;
  let re = patterns.get(pattern);
  if (re === undefined) {
    re = new RegExp(pattern);
    patterns.set(pattern, re);
  }
  const captured = re.exec(text)?.[1];
  return captured === undefined || captured === '' ? text : captured;
}

/** Whether a rule's `when` holds for the request's parameters. */
function whenHolds(when: NonNullable<CostRule['when']>, params: RequestParams): boolean {
  const raw = params.get(when.param);
  if (when.items !== undefined) {
    const n = listItems(raw)?.length;
    if (n === undefined) return false;
    if (when.items.min !== undefined && n < when.items.min) return false;
    if (when.items.max !== undefined && n > when.items.max) return false;
  }
  if (when.in === undefined && when.notIn === undefined) return true;
  // A JSON boolean (OKX's isElpTakerAccess) compares as its text.
  const v = typeof raw === 'boolean' ? String(raw) : partitionText(raw);
  if (v === undefined) return false;
  if (when.in !== undefined && !when.in.includes(v)) return false;
  return when.notIn === undefined || !when.notIn.includes(v);
}

/**
 * Turns a request into the charges it costs on a spec's buckets, one per rule and partition value
 * before merging (the core of `resolveRequest`; a venue emulator or a reference model charges
 * `venueCost` on `bucket`, a limiter admits `cost` under `limit`). When the request names no host
 * and the spec serves its path from several hosts (`EndpointSpec.host`), the costliest is charged.
 */
export function resolveCharges(spec: VenueSpec, request: VenueRequest, identity: Identity, options: ResolveOptions = {}): ChargesResult {
  return chargesOnce(spec, request, identity, options, () => resolveChargesNow(spec, request, identity, options));
}

function resolveChargesNow(spec: VenueSpec, request: VenueRequest, identity: Identity, options: ResolveOptions): ChargesResult {
  const matches = matchEndpoints(spec, request.method, request.path, request.host);
  const only = matches.length === 1 ? matches[0] : undefined;
  if (only !== undefined) {
    // one endpoint: priced once per shape (the parameters the price reads)
    return priceByShape(spec, only.endpoint, requestParams(request, only.pathParams), identity, options, (params) => {
      const result = chargesOf(spec, request, identity, options, only, params);
      return { result, keep: result.ok };
    });
  }
  if (matches.length === 0) return chargesOf(spec, request, identity, options, undefined, requestParams(request, {}));
  // Several hosts of the spec serve this path and the request names none of them: it is charged
  // as the costliest (every one must resolve).
  let best: ChargesResult | undefined;
  let bestCost = -Infinity;
  for (const m of matches) {
    const r = chargesOf(spec, request, identity, options, m, requestParams(request, m.pathParams));
    if (!r.ok) return r;
    const total = r.charges.reduce((sum, c) => sum + c.venueCost, 0);
    if (total > bestCost) {
      best = r;
      bestCost = total;
    }
  }
  return best ?? chargesOf(spec, request, identity, options, undefined, requestParams(request, {}));
}

function chargesOf(
  spec: VenueSpec,
  request: VenueRequest,
  identity: Identity,
  options: ResolveOptions,
  match: EndpointMatch | undefined,
  params: RequestParams,
): ChargesResult {
  const where = `${request.method.toUpperCase()} ${request.path}`;
  let rules: readonly CostRule[];
  let endpointId: string;
  if (match !== undefined) {
    if (match.endpoint.auth === 'private' && identity.credential === null) {
      return fail('credential_required', `${spec.id}: ${where} is a private endpoint; the identity has no credential`);
    }
    const own = identity.credential === null ? (match.endpoint.publicCosts ?? match.endpoint.costs) : match.endpoint.costs;
    rules = [...own, ...(spec.global ?? [])];
    endpointId = match.endpoint.id;
  } else if (elsewhere(spec, request.path) !== undefined) {
    const other = elsewhere(spec, request.path);
    return {
      ok: false,
      error: {
        code: 'unknown_endpoint',
        message: `${spec.id}: ${where} is not priced by this spec: paths under ${other?.prefix ?? ''} are priced by the spec "${other?.spec ?? ''}" (getVenueSpec('${other?.spec ?? ''}'), or venue '${other?.spec ?? ''}' for a paced fetch)`,
        ...(other === undefined ? {} : { pricedBy: other.spec }),
      },
    };
  } else if (spec.fallback !== undefined) {
    const fallback = identity.credential === null ? (spec.fallback.publicCosts ?? spec.fallback.costs) : spec.fallback.costs;
    rules = [...fallback, ...(spec.global ?? [])];
    endpointId = where;
  } else {
    return fail('unknown_endpoint', `${spec.id}: no endpoint matches ${where} and the venue documents no default bucket`);
  }
  const tier = identity.tier ?? spec.defaultTier;
  if (identity.tier !== undefined) {
    const tiers = specTiers(spec);
    if (tiers.size > 0 && !tiers.has(identity.tier)) {
      return fail('unknown_tier', `${spec.id}: unknown tier "${identity.tier}" (known: ${[...tiers].join(', ')})`);
    }
  }
  const charges: Charge[] = [];
  let conditional: string | undefined;
  let applied = 0;
  for (const rule of rules) {
    if (rule.when !== undefined) {
      conditional = rule.when.param;
      if (!whenHolds(rule.when, params)) continue;
    }
    if (!(spec.global ?? []).includes(rule)) applied++;
    const bucket = spec.buckets.find((b) => b.id === rule.bucket);
    if (bucket === undefined) return fail('invalid_spec', `${spec.id}: cost rule names unknown bucket "${rule.bucket}"`);
    const credential = scopeCredential(bucket, identity);
    if (credential === undefined) {
      return fail('credential_required', `${spec.id}: ${where} charges bucket "${bucket.id}" (scope ${bucket.scope}); the identity has no credential`);
    }
    // a window limit counts every request at its own cost; a spaced token bucket admits each at its largest
    let spacedAt: number | undefined;
    let limit: EnforcedLimit;
    let inFlight = 0;
    try {
      limit = bucketLimit(spec, bucket, tier, options);
      if (!usesWindowLimit(bucket, options)) {
        const derivation: SafeLimitDerivation = bucketDerivation(spec, bucket, tier, options);
        if (derivation.mode === 'spaced') spacedAt = derivation.capacity;
      }
      if ((rule.charge ?? 'always') !== 'always' && spacedAt === undefined) inFlight = inFlightBound(spec, bucket, tier, options);
    } catch (e) {
      return fail('invalid_spec', `${spec.id}: ${(e as Error).message}`);
    }
    const groups: { axis: string; params: RequestParams }[] = [];
    const p = bucket.partition;
    if (p === undefined) {
      groups.push({ axis: bucket.id, params });
    } else if (p.kind === 'endpoint') {
      groups.push({ axis: `${bucket.id}:${endpointId}`, params });
    } else if (p.kind === 'param' && !Array.isArray(params.get(''))) {
      const v = partitionValue(params.get(p.param), p.pattern);
      if (v === undefined) {
        return fail('missing_parameter', `${spec.id}: ${where}: bucket "${bucket.id}" is partitioned by parameter "${p.param}", which is missing`);
      }
      groups.push({ axis: `${bucket.id}:${v}`, params });
    } else {
      // Items of a list grouped by a field; a `param` partition on a request whose body is a list
      // (a batch) groups the body's items by that parameter.
      const list = p.kind === 'items' ? p.list : '';
      const field = p.kind === 'items' ? p.field : p.param;
      const items = listItems(params.get(list));
      if (items === undefined) {
        return fail(
          'missing_parameter',
          `${spec.id}: ${where}: bucket "${bucket.id}" is partitioned by "${field}" of the items of "${list}", which is missing`,
        );
      }
      const byValue = new Map<string, unknown[]>();
      for (const item of items) {
        const v = partitionValue(typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined, p.pattern);
        if (v === undefined) {
          return fail('missing_parameter', `${spec.id}: ${where}: an item of "${list}" has no "${field}" (bucket "${bucket.id}" is partitioned by it)`);
        }
        byValue.set(v, [...(byValue.get(v) ?? []), item]);
      }
      for (const [v, group] of byValue) groups.push({ axis: `${bucket.id}:${v}`, params: overrideParams(params, list, group) });
    }
    const venueBucket = bucketForTier(bucket, tier);
    const ceiling = venueBucket.algorithm === 'token-bucket' ? (spec.origin === 'hand-authored' ? venueBucket.capacity : Infinity) : venueBucket.limit;
    for (const g of groups) {
      const c = evaluateCost(rule.cost, g.params);
      if (!c.ok) return fail(c.code, `${spec.id}: ${where}: ${c.message}`);
      if (c.cost > ceiling) {
        return fail(
          'invalid_parameter',
          `${spec.id}: ${where}: costs ${c.cost} on bucket "${bucket.id}", more than the venue ever admits at once (${ceiling}); split the request`,
        );
      }
      const key = { venue: spec.id, credential, axis: g.axis };
      const charge = rule.charge ?? 'always';
      if (c.cost > 0 && c.cost <= inFlight) {
        // admitted at the gate cost only; recorded after the answer when the venue applied it
        charges.push({
          bucket,
          rule,
          key,
          limit,
          cost: c.cost * DEFERRED_GATE_FRACTION,
          venueCost: c.cost,
          charge,
          deferred: true,
          inFlight,
          params: g.params,
        });
        continue;
      }
      const cost = spacedAt !== undefined && c.cost > 0 ? Math.max(c.cost, spacedAt) : c.cost;
      charges.push({ bucket, rule, key, limit, cost, venueCost: c.cost, charge, deferred: false, params: g.params });
    }
  }
  if (conditional !== undefined && applied === 0) {
    return fail('missing_parameter', `${spec.id}: ${where}: no cost rule applies; the cost depends on parameter "${conditional}"`);
  }
  return { ok: true, endpoint: match?.endpoint ?? null, charges, tier };
}
