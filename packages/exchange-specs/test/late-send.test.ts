import { afterEach, describe, expect, it } from 'vitest';
import type { BucketCheck, Limit, RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import { lateBuckets, recordLateSend } from '../src/index.js';

const WINDOW: Limit = { perWindow: 10, windowMs: 1000, jitterMs: 100 };
const ip = { venue: 'v', credential: null, axis: 'ip' };
const orders = { venue: 'v', credential: 'k', axis: 'orders' };
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/** A send of weight 1 and 2 on the IP window (two checks of one bucket), 1 on the orders window, and 1 on a token bucket. */
const CHECKS: BucketCheck[] = [
  { key: ip, limit: WINDOW, cost: 1 },
  { key: ip, limit: WINDOW, cost: 2 },
  { key: orders, limit: WINDOW, cost: 1 },
  { key: { venue: 'v', credential: null, axis: 'rate' }, limit: { capacity: 10, refillPerSec: 10 }, cost: 1 },
];

async function admitted(): Promise<{ limiter: RateLimiter; clock: ManualClock; t0: number }> {
  const clock = new ManualClock(1_000_000);
  const limiter = createDefaultRateLimiter({ clock });
  limiters.push(limiter);
  const t0 = clock.now();
  expect((await limiter.checkRates(CHECKS)).kind).toBe('ok');
  return { limiter, clock, t0 };
}

describe('sends that went out late (RL-V7)', () => {
  it('lists each window limit of a send once, with the send’s whole cost on it', () => {
    expect(lateBuckets(CHECKS).map((b) => [b.key.axis, b.cost, b.jitterMs])).toEqual([
      ['ip', 3, 100],
      ['orders', 1, 100],
    ]);
  });

  it('an answer slower than the fastest: the send counts until its send plus that delay, on the window limits it is late for', async () => {
    const { limiter, clock, t0 } = await admitted();
    await clock.advance(300);
    expect(recordLateSend(limiter, CHECKS, 30, { heldAtMs: t0, earliestMs: t0, latestMs: t0 + 30 })).toEqual([]);
    expect(recordLateSend(limiter, CHECKS, 60, { heldAtMs: t0, earliestMs: t0, latestMs: t0 + 60 }).map((b) => b.key.axis)).toEqual(['ip', 'orders']);
    expect(await limiter.borrowed(ip)).toBe(3);
    await clock.advance(1160 - 300 - 1);
    expect(await limiter.borrowed(ip)).toBe(3);
    await clock.advance(1);
    expect(await limiter.borrowed(ip)).toBe(0);
  });

  it('without the send’s times the cost counts again from now', async () => {
    const { limiter } = await admitted();
    recordLateSend(limiter, CHECKS, 60);
    expect(await limiter.borrowed(ip)).toBe(6);
  });
});
