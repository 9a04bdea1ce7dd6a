import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { MemoryStore } from '@core/default-rate-limiter';
import { StoreRateLimiter } from '@core/rate-limit-kit';
import { ManualClock } from '@core/rate-limit-conformance';
import { createPacedFetch } from '../src/index.js';
import { bybitOrderVenue, ordersInSteadyState } from './bybit-orders.js';

/**
 * Several processes on one store, as on Redis: one limiter object each (so one log of its own sends each) over one
 * store. A usage header then says what every process sent; the store counts every process's sends that surely
 * reached the venue, and each fetch adds its own sent since (RL-V5's `outsideOwnCost`).
 */
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/** The store's settings as the default limiter's (default-rate-limiter.ts). */
function sharedStore(clock: ManualClock): MemoryStore {
  return new MemoryStore({ clock, sweepEvery: 256, sweepBatch: 512, maxPending: 10_000, idleGraceMs: 1000 });
}

describe('usage headers from several processes sharing one store', () => {
  it("Bybit's 10 per rolling second from 3 processes: never 11 in a second, and within a tenth of one process's", async () => {
    // Bybit's order/create: 10 per rolling second per account, 100 ms of jitter allowance; the venue counts each
    // request when it arrives (here at once) and answers 5 ms later with what remains.
    const clock = new ManualClock(1_700_000_000_000);
    const store = sharedStore(clock);
    const venue = bybitOrderVenue(clock);
    const processes = [0, 1, 2].map(() => {
      const limiter = new StoreRateLimiter(store, { credentialSecret: 'one deployment' });
      limiters.push(limiter);
      return createPacedFetch({ venue: 'bybit', identity: { credential: 'key-1' }, limiter, fetch: venue.fetch, clock, maxWaitMs: 60_000 });
    });
    const steady = await ordersInSteadyState(clock, processes, 2, venue.arrivals);
    expect(venue.most()).toBeLessThanOrEqual(10);
    // One process gets 143 over 16 s (window-limits.test.ts: the slot ledger's 10 per 1117 ms). Here the other
    // processes' sends within jitterMs before a reporting request may have reached the venue before it or after,
    // so a report counts them twice: 129. Taking the larger of the store's count and the fetch's own instead of
    // adding the fetch's recent sends (outsideOwnCost) also left out the reporting request and its own: 115.
    expect(steady).toBeGreaterThanOrEqual(127);
    expect(steady).toBeLessThanOrEqual(146);
  });
});
