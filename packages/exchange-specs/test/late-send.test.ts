import { describe, expect, it } from 'vitest';
import type { BucketCheck, Limit } from '@core/rate-limit-contract';
import { lateBuckets } from '../src/index.js';

const WINDOW: Limit = { perWindow: 10, windowMs: 1000, jitterMs: 100 };
const ip = { venue: 'v', credential: null, axis: 'ip' };
const orders = { venue: 'v', credential: 'k', axis: 'orders' };

/** A send of weight 1 and 2 on the IP window (two checks of one bucket), 1 on the orders window, and 1 on a token bucket. */
const CHECKS: BucketCheck[] = [
  { key: ip, limit: WINDOW, cost: 1 },
  { key: ip, limit: WINDOW, cost: 2 },
  { key: orders, limit: WINDOW, cost: 1 },
  { key: { venue: 'v', credential: null, axis: 'rate' }, limit: { capacity: 10, refillPerSec: 10 }, cost: 1 },
];

describe('the window limits of a send that went out late', () => {
  it('lists each window limit of a send once, with the send’s whole cost on it', () => {
    expect(lateBuckets(CHECKS).map((b) => [b.key.axis, b.cost, b.jitterMs])).toEqual([
      ['ip', 3, 100],
      ['orders', 1, 100],
    ]);
  });
});
