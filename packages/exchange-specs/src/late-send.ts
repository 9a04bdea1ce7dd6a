import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';

/**
 * A send that goes out later than the time its limiter admitted it for (a timer that fired late on a
 * busy event loop) may reach the venue later than a window limit's jitter allowance covers. When the
 * delay is more than half the allowance, its cost on each window limit is recorded again at the actual
 * send time: counted twice, never too little (a record counts from now on, RL-R1, RL-V5).
 *
 * @param lateMs - how much later than admitted the send goes out.
 */
export function recordLateSend(limiter: RateLimiter, checks: readonly BucketCheck[], lateMs: number): void {
  for (const c of checks) {
    const l = c.limit;
    if (l === null || !('perWindow' in l) || !(c.cost > 0)) continue;
    if (lateMs > (l.jitterMs ?? 0) / 2) limiter.record(c.key, c.cost);
  }
}
