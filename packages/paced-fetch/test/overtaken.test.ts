import { describe, expect, it } from 'vitest';
import type { BucketCheck, BucketKey, RateLimiter } from '@core/rate-limit-contract';
import { waitUntilClear } from '../src/overtaken.js';

/** Three window limits and a token bucket, as a booked order's checks carry them. */
const windowKey = (axis: string): BucketKey => ({ venue: 'v', credential: null, axis });
const CHECKS: readonly BucketCheck[] = [
  { key: windowKey('weight'), limit: { perWindow: 100, windowMs: 60_000 }, cost: 1 },
  { key: windowKey('orders_10s'), limit: { perWindow: 50, windowMs: 10_000 }, cost: 1 },
  { key: windowKey('orders_1d'), limit: { perWindow: 1000, windowMs: 86_400_000 }, cost: 1 },
  { key: windowKey('pace'), limit: { capacity: 5, refillPerSec: 1 }, cost: 1 },
];

/** A limiter whose `borrowed` answers only when the test says so, remembering the keys it was asked about. */
function heldLimiter(): { limiter: RateLimiter; asked: string[]; answer: (borrowed: number) => void } {
  const asked: string[] = [];
  const pending: ((b: number) => void)[] = [];
  const limiter = {
    borrowed: (key: BucketKey) => {
      asked.push(key.axis ?? 'request');
      return new Promise<number>((resolve) => pending.push(resolve));
    },
  } as unknown as RateLimiter;
  return { limiter, asked, answer: (b) => pending.splice(0).forEach((resolve) => resolve(b)) };
}

async function ticks(n: number): Promise<void> {
  for (let i = 0; i < n; i++) await Promise.resolve();
}

describe('a booked send whose time has come (waitUntilClear)', () => {
  it('asks about all its window limits at once, not one round trip after another', async () => {
    const { limiter, asked, answer } = heldLimiter();
    let rebooked = 0;
    const done = waitUntilClear(limiter, CHECKS, 1_000, async () => {
      rebooked++;
      return 2_000;
    });
    await ticks(5);
    // every window limit is asked before any answer came; the token bucket is not a window
    expect(asked).toEqual(['weight', 'orders_10s', 'orders_1d']);
    answer(10);
    expect(await done).toBe(1_000);
    expect(rebooked).toBe(0);
  });

  it('books again the window limits that hold more than their limit, and only those', async () => {
    const windows: string[][] = [];
    const borrowedOf: Record<string, number> = { weight: 101, orders_10s: 50, orders_1d: 1 };
    const limiter = { borrowed: async (key: BucketKey) => borrowedOf[key.axis ?? 'request'] } as unknown as RateLimiter;
    const at = await waitUntilClear(limiter, CHECKS, 1_000, async (over) => {
      windows.push(over.map((c) => c.key.axis ?? 'request'));
      borrowedOf.weight = 100;
      return 1_500;
    });
    expect(windows).toEqual([['weight']]);
    expect(at).toBe(1_500);
  });
});
