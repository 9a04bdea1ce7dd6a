import { describe, expect, it } from 'vitest';
import { ManualClock } from '@core/rate-limit-conformance';
import type { BucketKey, Limit } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '../src/index.js';

// A bucket that refills keeps its state relative to the time it was written (the kit's gcra.ts, "Times
// relative to now"), so what it admits does not depend on how far the clock is from its origin: near
// 1.7e12 ms a float's last bit is worth 2.4e-4 ms, more than a whole bucket of capacity 1e-9 at refill 3
// per second (3.3e-7 ms).

const KEY: BucketKey = { venue: 'v', credential: null, axis: 'tiny' };
const CLOCKS = [0, 1_000_000, 1.767e12 + 0.25];

describe('a tiny bucket admits what the same bucket scaled up admits, at any clock', () => {
  for (const start of CLOCKS) {
    for (const refillPerSec of [1, 3, 7]) {
      it(`capacity 1e-9, refill ${refillPerSec}/s, cost 1e-10, clock ${start}: 10 of 10 at once, then a wait`, async () => {
        const clock = new ManualClock(start);
        const limiter = createDefaultRateLimiter({ clock });
        const limit: Limit = { capacity: 1e-9, refillPerSec };
        const answers = [];
        for (let i = 0; i < 11; i++) answers.push((await limiter.checkRate(KEY, limit, 1e-10)).kind);
        expect(answers.slice(0, 10)).toEqual(Array(10).fill('ok'));
        expect(answers[10]).toBe('delay');
        // the same bucket scaled up by 1e9 (capacity 1, cost 0.1, the same span) answers the same
        const big = { ...KEY, axis: 'big' };
        const scaled: string[] = [];
        for (let i = 0; i < 11; i++) scaled.push((await limiter.checkRate(big, { capacity: 1, refillPerSec: refillPerSec * 1e9 }, 0.1)).kind);
        expect(scaled).toEqual(answers);
        await limiter.close();
      });
    }
  }

  it('a tiny bucket refills after its own span, not after the clock moves a float step', async () => {
    const clock = new ManualClock(1.767e12 + 0.25);
    const limiter = createDefaultRateLimiter({ clock });
    const limit: Limit = { capacity: 1e-9, refillPerSec: 3 };
    for (let i = 0; i < 10; i++) expect((await limiter.checkRate(KEY, limit, 1e-10)).kind).toBe('ok');
    expect((await limiter.borrowed(KEY)) as number).toBeCloseTo(1e-9, 18);
    await clock.advance(1);
    expect(await limiter.borrowed(KEY)).toBe(0);
    for (let i = 0; i < 10; i++) expect((await limiter.checkRate(KEY, limit, 1e-10)).kind).toBe('ok');
    await limiter.close();
  });
});
