import { describe, expect, it } from 'vitest';
import { ManualClock } from '@core/rate-limit-conformance';
import { createDefaultRateLimiter } from '../src/default-rate-limiter.js';

const limit = { requests: 10, periodMs: 1000 };

describe('idle bucket eviction (memory stays bounded)', () => {
  it('buckets idle past the grace period are evicted by the sweep and behave as fresh', async () => {
    const clock = new ManualClock();
    const limiter = createDefaultRateLimiter({ clock, idleGraceMs: 0 });
    for (let i = 0; i < 5000; i++) limiter.tryAcquireSync({ venue: 'v', credential: null, axis: `a${i}` }, limit, 10);
    expect(limiter.stats().buckets).toBe(5000);
    await clock.advance(999);
    expect(limiter.sweep()).toBe(0);
    await clock.advance(1);
    expect(limiter.sweep()).toBe(5000);
    expect(limiter.stats()).toMatchObject({ buckets: 0, evicted: 5000 });
    const d = limiter.tryAcquireSync({ venue: 'v', credential: null, axis: 'a1' }, limit, 10);
    expect(d.kind).toBe('ok');
  });

  it('a bucket in debt, under a penalty or holding a booking is never evicted', async () => {
    const clock = new ManualClock();
    const limiter = createDefaultRateLimiter({ clock, idleGraceMs: 0 });
    const k = (axis: string) => ({ venue: 'v', credential: null, axis });
    limiter.record(k('debt'), 30, limit);
    await limiter.checkRate(k('hold'), limit, 1);
    await limiter.penalize(k('hold'), { forMs: 10_000 });
    await limiter.checkRate(k('booked'), limit, 10);
    await limiter.checkRate(k('booked'), limit, 10, { maxWaitMs: 5000 });
    await clock.advance(1500);
    expect(limiter.sweep()).toBe(0);
    expect(limiter.stats().buckets).toBe(3);
  });

  it('under a stream of distinct keys the amortized sweep keeps the table bounded without any sweep() call', async () => {
    const clock = new ManualClock();
    const limiter = createDefaultRateLimiter({ clock, idleGraceMs: 0, idleSweepEvery: 64, idleSweepBatch: 256 });
    let max = 0;
    for (let i = 0; i < 200_000; i++) {
      limiter.tryAcquireSync({ venue: 'v', credential: null, axis: `k${i}` }, limit, 1); // idle 100 ms later
      if (i % 100 === 99) clock.set(clock.now() + 10); // 1000 keys per simulated second
      max = Math.max(max, limiter.stats().buckets);
    }
    // live buckets at any time: about 100 ms of traffic (100 keys); the sweep lags by at most one pass
    expect(max).toBeLessThan(2_000);
    expect(limiter.stats().evicted).toBeGreaterThan(198_000);
  });

  it('quota buckets that were used are kept; unused quota buckets are idle', async () => {
    const clock = new ManualClock();
    const limiter = createDefaultRateLimiter({ clock, idleGraceMs: 0 });
    await limiter.checkRate({ venue: 'v', credential: null, axis: 'q' }, { capacity: 5, refillPerSec: 0 }, 1);
    await clock.advance(1e9);
    expect(limiter.sweep()).toBe(0);
    expect(await limiter.borrowed({ venue: 'v', credential: null, axis: 'q' })).toBe(1);
  });
});
