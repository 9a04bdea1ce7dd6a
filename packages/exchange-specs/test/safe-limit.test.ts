import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSafeLimit, safeLimit, type BucketSpec } from '../src/index.js';

const provenance = { source: 's', confidence: 'documented' } as const;
const window = (
  limit: number,
  windowMs: number,
  algorithm: 'fixed-window-aligned' | 'fixed-window-anchored' | 'sliding-window' = 'fixed-window-aligned',
): BucketSpec => ({ id: 'b', scope: 'ip', algorithm, limit, windowMs, provenance });

describe('safeLimit', () => {
  it('Binance 6000 per minute with the defaults (4 % margin, 2 % burst, 50 ms jitter): capacity + refill·(W + J) = 5760', () => {
    const l = safeLimit(window(6000, 60_000));
    expect(l.capacity).toBeCloseTo(115.2, 9);
    expect(l.capacity + (l.refillPerSec * 60_050) / 1000).toBeCloseTo(5760, 9);
    // the steady rate: (1 − 0.04)(1 − 0.02)·60 / 60.05 of the limit, over 90 %
    expect((l.refillPerSec * 60) / 6000).toBeCloseTo(0.96 * 0.98 * (60 / 60.05), 9);
    expect(safeLimit(window(6000, 60_000), { margin: 0.1, burstFraction: 0.1, jitterMs: 0 })).toEqual({ capacity: 540, refillPerSec: 81 });
  });

  it('a fixed window of L per W never yields capacity + refill·W above L·(1 − margin), for any margin and largest cost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 100, max: 86_400_000 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('fixed-window-aligned', 'fixed-window-anchored', 'sliding-window'),
        fc.integer({ min: 0, max: 500 }),
        (limit, windowMs, margin, costShare, algorithm, jitterMs) => {
          const maxCost = Math.max(1, Math.floor(limit * costShare));
          const d = describeSafeLimit(window(limit, windowMs, algorithm as 'sliding-window'), { margin, maxCost, jitterMs });
          expect(d.capacity).toBeGreaterThan(0);
          expect(d.refillPerSec).toBeGreaterThan(0);
          if (d.mode === 'window') {
            // a window sees the sends of W + J
            expect(Math.max(d.capacity, maxCost) + (d.refillPerSec * (windowMs + jitterMs)) / 1000).toBeLessThanOrEqual(limit * (1 - margin) * (1 + 1e-12));
          } else {
            expect(d.mode).toBe('spaced');
            // one request of maxCost per W·(1 + margin) + J: never two in one window, even one sent on time and one late
            expect((d.capacity / d.refillPerSec) * 1000).toBeGreaterThanOrEqual((windowMs * (1 + margin) + jitterMs) * (1 - 1e-12));
          }
        },
      ),
    );
  });

  it('the margin, the burst and the jitter are configurable', () => {
    expect(safeLimit(window(1000, 1000), { margin: 0, burstFraction: 0.1, jitterMs: 0 })).toEqual({ capacity: 100, refillPerSec: 900 });
    expect(safeLimit(window(1000, 1000), { margin: 0.5, burstFraction: 0.1, jitterMs: 0 })).toEqual({ capacity: 50, refillPerSec: 450 });
    expect(safeLimit(window(1000, 1000), { margin: 0, burstFraction: 0.1, jitterMs: 125 })).toEqual({ capacity: 100, refillPerSec: 800 });
  });

  it('the burst is at least the largest cost', () => {
    const l = safeLimit(window(6000, 60_000), { maxCost: 2000, jitterMs: 0 });
    expect(l.capacity).toBe(2000);
    expect(l.refillPerSec).toBeCloseTo(3760 / 60, 12);
  });

  it('a 10 per 1 s window with unit costs cannot reach 90 %: capacity >= 1 leaves 8.6 per 1.05 s', () => {
    const l = safeLimit(window(10, 1000));
    expect(l.capacity).toBe(1);
    expect(l.refillPerSec).toBeCloseTo(8.6 / 1.05, 12);
  });

  it('spaces one request per window when one request already exceeds the margined limit', () => {
    const d = describeSafeLimit(window(1, 5000));
    expect(d.mode).toBe('spaced');
    expect(d.capacity).toBe(1);
    expect(d.refillPerSec).toBeCloseTo(1 / (5 * 1.04 + 0.05), 12);
  });

  it('maps a token bucket scaled by 1 − margin, its capacity less what the jitter can bunch', () => {
    const tb: BucketSpec = { id: 'k', scope: 'key', algorithm: 'token-bucket', capacity: 20, refillPerSec: 1, provenance };
    expect(safeLimit(tb, { margin: 0.1, jitterMs: 0 })).toEqual({ capacity: 18, refillPerSec: 0.9 });
    const d = safeLimit(tb);
    expect(d.refillPerSec).toBeCloseTo(0.96, 12);
    expect(d.capacity).toBeCloseTo(19.2 - 0.96 * 0.05, 12);
  });

  it('refuses a cost above the window limit and out-of-range options', () => {
    expect(() => safeLimit(window(10, 1000), { maxCost: 11 })).toThrow(RangeError);
    expect(() => safeLimit(window(10, 1000), { margin: 1 })).toThrow(RangeError);
    expect(() => safeLimit(window(10, 1000), { margin: -0.1 })).toThrow(RangeError);
    expect(() => safeLimit(window(10, 1000), { jitterMs: -1 })).toThrow(RangeError);
  });
});
