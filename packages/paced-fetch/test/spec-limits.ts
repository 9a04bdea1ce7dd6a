import type { BucketSpec, VenueSpec } from '@core/exchange-specs';

/** 2026-01-01T00:00:00Z: every window of the specs (10 s, 1 min, 1 day) starts here. */
export const START = 1_767_225_600_000;

/** The spec with one window bucket's limit, and every tier of it, set to `limit`. */
export function withLimit(spec: VenueSpec, id: string, limit: number): VenueSpec {
  if (!spec.buckets.some((b) => b.id === id)) throw new Error(`${spec.id} has no bucket ${id}`);
  return {
    ...spec,
    buckets: spec.buckets.map((b): BucketSpec => {
      if (b.id !== id || b.algorithm === 'token-bucket') return b;
      return { ...b, limit, ...(b.tiers === undefined ? {} : { tiers: Object.fromEntries(Object.keys(b.tiers).map((k) => [k, { limit }])) }) };
    }),
  };
}

/** A window bucket's documented limit. */
export function limitOf(spec: VenueSpec, id: string): number {
  const b = spec.buckets.find((x) => x.id === id);
  if (b === undefined || b.algorithm === 'token-bucket') throw new Error(`${spec.id}: no window bucket ${id}`);
  return b.limit;
}
