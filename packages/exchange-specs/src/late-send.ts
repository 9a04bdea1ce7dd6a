import type { BucketCheck, BucketKey, Limit, RateLimiter } from '@core/rate-limit-contract';

/**
 * Where and when a late send went out, in the limiter's clock (RL-V7's record options): the send time
 * the store holds it at (its admission's `sendAtMs`, or where an earlier such record moved it), and the
 * earliest and latest time it went out as the venue counts it.
 */
export interface LateSendTimes {
  readonly heldAtMs: number;
  readonly earliestMs: number;
  readonly latestMs: number;
}

/**
 * A send that may reach the venue later than a window limit's jitter allowance covers: it went out
 * later than its limiter admitted it for (a timer that fired late on a busy event loop), or its answer
 * took longer than the fastest answer seen (a congested connection, a starved process on either
 * side). When that delay is more than half the allowance, its cost on each window limit is recorded
 * again: with `times`, as one record of the send's whole cost on each bucket saying where it went out
 * (RL-V7: the store moves the admitted send there and counts nothing more, widens the entries that
 * hold it when it merged it with others, or counts the cost as sent now when none can); without, counted again from now (RL-R1, RL-V5: twice,
 * never too little), in every window that can still hold the late arrival.
 *
 * @param lateMs - how much later than admitted the send went out, or how much slower than the fastest its answer came.
 * @returns the window limits recorded, one per bucket with the send's whole cost on it.
 */
export function recordLateSend(limiter: RateLimiter, checks: readonly BucketCheck[], lateMs: number, times?: LateSendTimes): readonly LateBucket[] {
  const late = lateBuckets(checks).filter((b) => lateMs > b.jitterMs / 2);
  for (const b of late) {
    if (times === undefined) limiter.record(b.key, b.cost);
    else limiter.record(b.key, b.cost, b.limit, { admittedAtMs: times.heldAtMs, sent: { earliestMs: times.earliestMs, latestMs: times.latestMs } });
  }
  return late;
}

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
