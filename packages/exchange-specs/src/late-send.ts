import type { BucketCheck, BucketKey, Limit } from '@core/rate-limit-contract';

/** One window limit of a send: its key, limit, jitter allowance and the send's whole cost on it. */
export interface LateBucket {
  readonly key: BucketKey;
  readonly limit: Limit;
  readonly jitterMs: number;
  readonly cost: number;
}

/** The window limits among a send's checks, each once with the send's whole cost on it (the store keeps one entry per bucket and send). */
export function lateBuckets(checks: readonly BucketCheck[]): LateBucket[] {
  const out = new Map<string, { key: BucketKey; limit: Limit; jitterMs: number; cost: number }>();
  for (const c of checks) {
    const l = c.limit;
    if (l === null || !('perWindow' in l) || !(c.cost > 0)) continue;
    const id = bucketKeyId(c.key);
    const seen = out.get(id);
    if (seen === undefined) out.set(id, { key: c.key, limit: l, jitterMs: l.jitterMs ?? 0, cost: c.cost });
    else seen.cost += c.cost;
  }
  return [...out.values()];
}

/** One string per bucket (venue, credential, axis; no axis is `request`, RL-K2), for maps keyed by bucket in this process. */
export function bucketKeyId(k: BucketKey): string {
  return `${k.venue}\u0000${k.credential ?? ''}\u0000${k.axis ?? 'request'}`;
}
