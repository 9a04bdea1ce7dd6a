import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';

/**
 * A send that may reach the venue later than a window limit's jitter allowance covers: it went out
 * later than its limiter admitted it for (a timer that fired late on a busy event loop), or its answer
 * took longer than the fastest answer seen (a congested connection, a starved process on either
 * side). When that delay is more than half the allowance, its cost on each window limit is recorded
 * again now (at the send, or at the answer): counted twice, never too little (a record counts from
 * now on, RL-R1, RL-V5), in every window that can still hold the late arrival.
 *
 * @param lateMs - how much later than admitted the send went out, or how much slower than the fastest its answer came.
 */
export function recordLateSend(limiter: RateLimiter, checks: readonly BucketCheck[], lateMs: number): void {
  for (const c of checks) {
    const l = c.limit;
    if (l === null || !('perWindow' in l) || !(c.cost > 0)) continue;
    if (lateMs > (l.jitterMs ?? 0) / 2) limiter.record(c.key, c.cost);
  }
}
