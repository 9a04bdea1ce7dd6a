import type { Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest, type TestContext } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectDone, expectTrue, show } from '../expect.js';
import { TEN_PER_SECOND, key, spend } from './fixtures.js';

/**
 * Examples of rules that hold however many calls go to other buckets in between: a store that evicts idle buckets,
 * forgets ended holds, grows or compacts its tables as traffic goes by must keep every bucket in use as it was.
 */

/** A bucket that never holds anything up: traffic on other buckets. */
const ROOMY: Limit = { capacity: 1e6, refillPerSec: 1e6 };
/** TEN_PER_SECOND's capacity, refilled ten times as fast. */
const FAST: Limit = { capacity: 10, refillPerSec: 100 };

async function traffic(limiter: TestContext['limiter'], calls: number): Promise<void> {
  const k = key({ axis: 'other-traffic' });
  for (let i = 0; i < calls; i++) await spend(limiter, k, ROOMY, 1, `call #${i + 1} on another bucket`);
}

export const OTHER_TRAFFIC: readonly ConformanceTest[] = [
  test('RL-A6', 'a bucket keeps what it borrowed however many calls to other buckets go by', ['injectableClock'], async ({ limiter }) => {
    const k = key({ axis: 'kept-through-traffic' });
    await spend(limiter, k, TEN_PER_SECOND, 10, 'the bucket emptied');
    await traffic(limiter, 600);
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 after 600 calls elsewhere, no time passed');
  }),
  test('RL-R3', 'a hold survives any amount of traffic on other buckets, and then a new definition', ['injectableClock', 'penalize'], async ({ limiter }) => {
    const k = key({ axis: 'held-through-traffic' });
    await spend(limiter, k, TEN_PER_SECOND, 1, 'the bucket defined');
    expectDone(await limiter.penalize(k, { forMs: 5000 }), 'penalize for 5000 ms');
    await traffic(limiter, 600);
    const d = expectDelay(await limiter.checkRate(k, FAST, 1), undefined, 'cost 1 under a new definition, during the hold');
    expectTrue(d.retryAfterMs >= 5000, `cost 1 may go after ${show(d.retryAfterMs)} ms, before the hold ends at 5000 ms`);
  }),
  test('RL-K1', 'buckets in use keep their state while a thousand others come, refill and go', ['injectableClock'], async ({ limiter, clock }) => {
    const keys = Array.from({ length: 1100 }, (_, i) => key({ axis: `crowd-${i}` }));
    for (const k of keys) await spend(limiter, k, TEN_PER_SECOND, 1, `${k.axis}: cost 1`);
    for (const k of keys) expectBorrowed(await limiter.borrowed(k), 1, `${k.axis}: borrowed after cost 1`);
    await clock.advance(1100);
    // all full again, for a second: the last hundred emptied, the rest idle while traffic goes by
    const kept = keys.slice(1000);
    for (const k of kept) await spend(limiter, k, TEN_PER_SECOND, 10, `${k.axis}: emptied`);
    await traffic(limiter, 800);
    for (const k of kept) expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, `${k.axis}: cost 1`);
    for (const k of keys.slice(0, 3)) {
      await spend(limiter, k, TEN_PER_SECOND, 10, `${k.axis}: full, then emptied`);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, `${k.axis}: cost 1 once emptied`);
    }
  }),
];
