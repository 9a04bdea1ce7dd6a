import { bucketForTier } from '../tier.js';
import type { Identity } from '../venue-io.js';
import type { BucketSpec, Source, VenueSpec } from '../venue-spec.js';
import { LiveLimitsError } from './live-limits-error.js';
import type { LiveLimitSource, LiveStatement } from './live-limit-source.js';

/** One number the venue's statement replaced. */
export interface LiveLimitChange {
  readonly bucket: string;
  /** The id of the source that stated it (`exchangeInfo`, `rateLimit/order`...). */
  readonly source: string;
  /** Where in the answer. */
  readonly field: string;
  /** The stored number this identity was paced by (its tier applied): a window's limit, or a token bucket's capacity. */
  readonly stored: number;
  /** The venue's number. */
  readonly live: number;
  /** The venue's statement, as it answered. */
  readonly statement: string;
}

/** One validated answer. */
export interface LiveReading {
  readonly source: LiveLimitSource;
  /** `binance-spot GET /api/v3/exchangeInfo`. */
  readonly label: string;
  /** The URL that was read, without its query (no signature). */
  readonly url: string;
  readonly statement: LiveStatement;
}

function storedNumber(b: BucketSpec, tier: string | undefined): number {
  const t = bucketForTier(b, tier);
  return t.algorithm === 'token-bucket' ? t.capacity : t.limit;
}

/** The bucket with its numbers pinned: every tier the same, so the identity's tier no longer changes them. */
function pinned(b: BucketSpec, values: { limit: number } | { capacity: number; refillPerSec: number }, source: string, statement: string): BucketSpec {
  const provenance = { source, confidence: 'observed', quote: statement } as const;
  if (b.algorithm === 'token-bucket') {
    const v = 'capacity' in values ? values : { capacity: b.capacity, refillPerSec: b.refillPerSec };
    const tiers =
      b.tiers === undefined ? undefined : Object.fromEntries(Object.keys(b.tiers).map((k) => [k, { capacity: v.capacity, refillPerSec: v.refillPerSec }]));
    return { ...b, capacity: v.capacity, refillPerSec: v.refillPerSec, provenance, ...(tiers === undefined ? {} : { tiers }) };
  }
  const limit = 'limit' in values ? values.limit : b.limit;
  const tiers = b.tiers === undefined ? undefined : Object.fromEntries(Object.keys(b.tiers).map((k) => [k, { limit }]));
  return { ...b, limit, provenance, ...(tiers === undefined ? {} : { tiers }) };
}

/**
 * The spec with the venue's statements in place of the stored numbers (in the order given: a
 * later statement for a bucket replaces an earlier one, so the account's own `rateLimit/order`
 * replaces `exchangeInfo`'s exchange-wide ORDERS). A stated tier pins every bucket listing it to
 * the tier's numbers; a stated limit pins its bucket to the venue's number, in both directions.
 * Pinned buckets carry the statement as their provenance (`confidence: 'observed'`) and a source
 * `live:<source id>` with the URL and the date read.
 *
 * @throws LiveLimitsError `spec_mismatch` (the bucket is missing, or is not a window of the
 * venue's length), `conflicting_limits` (one answer states two numbers for one bucket), `unknown_tier`.
 */
export function applyLiveStatements(
  spec: VenueSpec,
  readings: readonly LiveReading[],
  identity: Identity,
  retrieved: string,
): { spec: VenueSpec; changes: LiveLimitChange[]; tier?: string } {
  const tierNow = identity.tier ?? spec.defaultTier;
  const next = new Map<string, BucketSpec>(spec.buckets.map((b) => [b.id, b]));
  const sources: Record<string, Source> = { ...spec.sources };
  const changes: LiveLimitChange[] = [];
  let tier: string | undefined;
  for (const r of readings) {
    const key = `live:${r.source.id}`;
    const stated = r.statement;
    if (stated.tier !== undefined || stated.limits.length > 0)
      sources[key] = { url: r.url, retrieved, note: `read from the venue (${r.label}): the account's current limits` };
    if (stated.tier !== undefined) {
      const t = stated.tier;
      const listing = spec.buckets.filter((b) => b.tiers !== undefined && t.tier in b.tiers);
      if (listing.length === 0)
        throw new LiveLimitsError('unknown_tier', r.label, `the venue states tier "${t.tier}", which no bucket of ${spec.id} lists`, t.field);
      tier = t.tier;
      for (const b of listing) {
        const values = bucketForTier(b, t.tier);
        const live = values.algorithm === 'token-bucket' ? { capacity: values.capacity, refillPerSec: values.refillPerSec } : { limit: values.limit };
        next.set(b.id, pinned(next.get(b.id) ?? b, live, key, t.statement));
        changes.push({
          bucket: b.id,
          source: r.source.id,
          field: t.field,
          stored: storedNumber(b, tierNow),
          live: 'limit' in live ? live.limit : live.capacity,
          statement: t.statement,
        });
      }
    }
    const seen = new Map<string, { limit: number; field: string }>();
    for (const l of stated.limits) {
      const b = spec.buckets.find((x) => x.id === l.bucket);
      if (b === undefined) throw new LiveLimitsError('spec_mismatch', r.label, `${spec.id} has no bucket "${l.bucket}"`, l.field);
      if (b.algorithm === 'token-bucket' || b.windowMs !== l.windowMs) {
        throw new LiveLimitsError(
          'spec_mismatch',
          r.label,
          `bucket "${l.bucket}" of ${spec.id} is ${b.algorithm === 'token-bucket' ? 'a token bucket' : `a window of ${b.windowMs} ms`}, the venue states a window of ${l.windowMs} ms`,
          l.field,
        );
      }
      const prev = seen.get(l.bucket);
      if (prev !== undefined && prev.limit !== l.limit)
        throw new LiveLimitsError('conflicting_limits', r.label, `bucket "${l.bucket}" is stated as ${prev.limit} (${prev.field}) and ${l.limit}`, l.field);
      seen.set(l.bucket, { limit: l.limit, field: l.field });
      next.set(b.id, pinned(next.get(b.id) ?? b, { limit: l.limit }, key, l.statement));
      changes.push({ bucket: b.id, source: r.source.id, field: l.field, stored: storedNumber(b, tierNow), live: l.limit, statement: l.statement });
    }
  }
  const out: VenueSpec = { ...spec, sources, buckets: spec.buckets.map((b) => next.get(b.id) ?? b) };
  return tier === undefined ? { spec: out, changes } : { spec: out, changes, tier };
}
