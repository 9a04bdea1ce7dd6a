import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock, settle } from '@core/rate-limit-conformance';
import { createPacedFetch } from '../src/index.js';
import { FakeFetch, json } from './fake-fetch.js';
import { testVenue } from './test-venue.js';

/** A request charged on its credential's buckets and shared ones: when it waits for its own, and when it books. */
const URL_BASE = 'https://venue.invalid';
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/** Timings pinned with explicit safe-limit options, on the token-bucket derivation of the venue's windows (as in paced-fetch.test.ts). */
const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0, windowLimits: false } as const;

describe('own buckets before shared ones', () => {
  async function pingDuringTradeWait(
    waitUnbookedForOwnBuckets: boolean,
    tradePriority: 'critical' | undefined = undefined,
  ): Promise<{ sentAtOnce: number; clock: ManualClock; done: Promise<unknown> }> {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const paced = createPacedFetch({
      venue: testVenue,
      identity: { credential: 'k' },
      limiter,
      fetch: fake.fetch,
      clock,
      waitUnbookedForOwnBuckets,
      ...(tradePriority === undefined ? {} : { priority: (r: { readonly path: string }) => (r.path === '/trade' ? tradePriority : undefined) }),
      ...PINNED,
    });
    await paced(`${URL_BASE}/trade`, { method: 'POST' }); // orders: capacity 1, refill 0.8/s: the next waits 1250 ms
    const trade = paced(`${URL_BASE}/trade`, { method: 'POST' });
    await clock.whenTimers(1);
    const ping = paced(`${URL_BASE}/ping`);
    await settle();
    await settle();
    const sentAtOnce = fake.calls.length;
    return { sentAtOnce, clock, done: Promise.all([trade, ping]) };
  }

  it('waits unbooked for its own order bucket, so the shared IP weight stays free for others meanwhile', async () => {
    const { sentAtOnce, clock, done } = await pingDuringTradeWait(true);
    expect(sentAtOnce).toBe(2); // the first trade and the ping; the second trade still waits
    await clock.advance(1_250);
    await done;
  });

  it('a critical trade waits unbooked for its own order bucket too: the room kept for it is there when it books (RL-Q1, RL-W2)', async () => {
    const { sentAtOnce, clock, done } = await pingDuringTradeWait(true, 'critical');
    expect(sentAtOnce).toBe(2); // the first trade and the ping: the critical trade booked nothing seconds ahead
    await clock.advance(1_250);
    await done;
  });

  it('with waitUnbookedForOwnBuckets false, the trade books the IP weight at its send time and the ping queues behind it (RL-W2)', async () => {
    const { sentAtOnce, clock, done } = await pingDuringTradeWait(false);
    expect(sentAtOnce).toBe(1);
    await clock.advance(1_250);
    await done;
  });
});

describe('no starvation by the unbooked wait', () => {
  it('RL-W2 after three unbooked sleeps a request books, even if cheaper requests of its credential took its bucket before each ended', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const base = createDefaultRateLimiter({ clock });
    limiters.push(base);
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: 'k' }, limiter: base, fetch: fake.fetch, clock, ...PINNED });
    const steal = async () =>
      (
        await base.checkRates([{ key: { venue: 'testvenue', credential: 'k', axis: 'orders' }, limit: { capacity: 1, refillPerSec: 0.8 }, cost: 1 }], {
          maxWaitMs: 10,
        })
      ).kind;
    await paced(`${URL_BASE}/trade`, { method: 'POST' });
    const second = paced(`${URL_BASE}/trade`, { method: 'POST' });
    for (let i = 0; i < 3; i++) {
      await clock.whenTimers(1);
      // someone else on the same key takes the orders bucket right before the unbooked sleep ends
      await clock.advance(1_249);
      expect(await steal()).toMatch(/^(ok|booked)$/); // charged: now, or booked a moment later
      await clock.advance(1);
      await settle();
    }
    // no fourth unbooked sleep: the request has booked the next slot, which nobody can take now
    await clock.advance(1_249);
    expect(await steal()).toBe('delay');
    expect(fake.calls).toHaveLength(1);
    await clock.advance(1);
    await second;
    expect(fake.calls).toHaveLength(2);
  });

  it('joins the shared queue just in time: books when its own wait is no longer than the shared queue', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const base = createDefaultRateLimiter({ clock });
    limiters.push(base);
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: 'k' }, limiter: base, fetch: fake.fetch, clock, ...PINNED });
    const weight = { key: { venue: 'testvenue', credential: null, axis: 'weight' }, limit: { capacity: 10, refillPerSec: 8 } } as const;
    const steal = async () =>
      (
        await base.checkRates([{ key: { venue: 'testvenue', credential: 'k', axis: 'orders' }, limit: { capacity: 1, refillPerSec: 0.8 }, cost: 1 }], {
          maxWaitMs: 10,
        })
      ).kind;
    await paced(`${URL_BASE}/trade`, { method: 'POST' });
    // public requests queue the shared weight bucket: the next unit of weight is 2250 ms away
    expect((await base.checkRates([{ ...weight, cost: 26 }], { maxWaitMs: 5_000 })).kind).toBe('booked');
    const second = paced(`${URL_BASE}/trade`, { method: 'POST' });
    await settle();
    // its own wait (1250 ms) is shorter than the shared queue: it booked at once, so the orders
    // slot is its own (an unbooked sleep would have let this steal through)
    await clock.advance(1_249);
    expect(await steal()).toBe('delay');
    await clock.advance(1_000);
    expect(fake.calls).toHaveLength(1);
    await clock.advance(1);
    await second;
    expect(fake.calls).toHaveLength(2);
  });
});
