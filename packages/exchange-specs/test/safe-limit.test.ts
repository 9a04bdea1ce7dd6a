import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeSafeLimit, safeLimit, type BucketSpec } from '../src/index.js';

const provenance = { source: 's', confidence: 'documented' } as const;
const window = (limit: number, windowMs: number, algorithm: 'fixed-window-aligned' | 'fixed-window-anchored' | 'sliding-window' = 'fixed-window-aligned'): BucketSpec => ({ id: 'b', scope: 'ip', algorithm, limit, windowMs, provenance });

describe('safeLimit', () => {
  it('Binance 6000 per minute with the default margin: capacity + refill·W = 5400', () => {
    expect(safeLimit(window(6000, 60_000))).toEqual({ capacity: 540, refillPerSec: 81 });
  });

  it('a fixed window of L per W never yields capacity + refill·W above L·(1 − margin), for any margin and largest cost', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 100, max: 86_400_000 }),
        fc.double({ min: 0, max: 0.5, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('fixed-window-aligned', 'fixed-window-anchored', 'sliding-window'),
        (limit, windowMs, margin, costShare, algorithm) => {
          const maxCost = Math.max(1, Math.floor(limit * costShare));
          const d = describeSafeLimit(window(limit, windowMs, algorithm as 'sliding-window'), { margin, maxCost });
          expect(d.capacity).toBeGreaterThan(0);
          expect(d.refillPerSec).toBeGreaterThan(0);
          if (d.mode === 'window') {
            expect(Math.max(d.capacity, maxCost) + (d.refillPerSec * windowMs) / 1000).toBeLessThanOrEqual(limit * (1 - margin) * (1 + 1e-12));
          } else {
            expect(d.mode).toBe('spaced');
            // one request of maxCost per W·(1 + margin): never two in one window
            expect((d.capacity / d.refillPerSec) * 1000).toBeGreaterThanOrEqual(windowMs * (1 + margin) * (1 - 1e-12));
          }
        },
      ),
    );
  });

  it('the margin is configurable', () => {
    expect(safeLimit(window(1000, 1000), { margin: 0 })).toEqual({ capacity: 100, refillPerSec: 900 });
    expect(safeLimit(window(1000, 1000), { margin: 0.5 })).toEqual({ capacity: 50, refillPerSec: 450 });
  });

  it('the burst is at least the largest cost', () => {
    const l = safeLimit(window(6000, 60_000), { maxCost: 2000 });
    expect(l.capacity).toBe(2000);
    expect(l.refillPerSec).toBeCloseTo(3400 / 60, 12);
  });

  it('spaces one request per window when one request already exceeds the margined limit', () => {
    const d = describeSafeLimit(window(1, 5000));
    expect(d.mode).toBe('spaced');
    expect(d.capacity).toBe(1);
    expect(d.refillPerSec).toBeCloseTo(1 / 5.5, 12);
  });

  it('maps a token bucket directly, scaled by 1 − margin', () => {
    const tb: BucketSpec = { id: 'k', scope: 'key', algorithm: 'token-bucket', capacity: 20, refillPerSec: 1, provenance };
    expect(safeLimit(tb)).toEqual({ capacity: 18, refillPerSec: 0.9 });
  });

  it('refuses a cost above the window limit and out-of-range options', () => {
    expect(() => safeLimit(window(10, 1000), { maxCost: 11 })).toThrow(RangeError);
    expect(() => safeLimit(window(10, 1000), { margin: 1 })).toThrow(RangeError);
    expect(() => safeLimit(window(10, 1000), { margin: -0.1 })).toThrow(RangeError);
  });
});
