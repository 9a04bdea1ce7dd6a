import type { BucketKey, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectDone, expectError, expectTrue, show } from '../expect.js';
import { TEN_PER_SECOND, key, landed, spend } from './fixtures.js';

/** Binance's IP weight bucket, as the penalty cases of the rulebook spell it. */
const binanceIp: BucketKey = { venue: 'binance', credential: null, axis: 'ip' };
/** capacity 10, refill 1/s. */
const SLOW: Limit = { capacity: 10, refillPerSec: 1 };
/** The same capacity refilled ten times faster: a new definition of the bucket (RL-L5). */
const FAST: Limit = { capacity: 10, refillPerSec: 10 };

export const HOLDS: readonly ConformanceTest[] = [
  test('RL-R3', 'a hold survives a new definition of the bucket', ['injectableClock', 'penalize', 'bookings'], async ({ limiter, clock }) => {
    await spend(limiter, binanceIp, SLOW, 1);
    const t0 = clock.now();
    expectDone(await limiter.penalize(binanceIp, { forMs: 5000 }), 'penalize for 5000 ms');
    // Under the new definition the bucket is empty when the hold ends, then refills a token in 100 ms.
    expectDelay(await limiter.checkRate(binanceIp, FAST, 1), 5100, 'a probe under a new definition during the hold');
    expectBooked(await limiter.checkRate(binanceIp, FAST, 1, { maxWaitMs: 10_000 }), t0, 5100, 'a booking under a new definition during the hold');
    await clock.advance(5100);
    expectDelay(await limiter.checkRate(binanceIp, FAST, 1), 100, 'a probe at the booked send time');
  }),
  test('RL-R3', 'a hold on a bucket not yet defined survives a new definition after the first one', ['injectableClock', 'penalize'], async ({ limiter }) => {
    const k = key({ axis: 'held-before-defined' });
    expectDone(await limiter.penalize(k, { forMs: 5000 }), 'penalize for 5000 ms a bucket not yet defined');
    limiter.record(k, 1, SLOW);
    await landed();
    // converted alone, what SLOW borrowed would free a token under FAST long before the hold ends
    const d = await limiter.checkRate(k, FAST, 1);
    expectTrue(
      d.kind === 'delay' && d.retryAfterMs >= 5000,
      `a probe under a new definition during the hold: expected a delay of at least 5000 ms (the hold's end), got ${show(d)}`,
    );
  }),
  test('RL-R3', 'a hold survives a sync that brings a new definition', ['injectableClock', 'penalize', 'sync'], async ({ limiter }) => {
    await spend(limiter, binanceIp, SLOW, 1);
    expectDone(await limiter.penalize(binanceIp, { forMs: 5000 }), 'penalize for 5000 ms');
    expectDone(await limiter.sync(binanceIp, FAST, 0), 'sync 0 under a new definition during the hold');
    expectDelay(await limiter.checkRate(binanceIp, FAST, 1), 5100, 'a probe after the sync');
  }),
  test('RL-R3', 'a fixed quota that redefines a held bucket is used up', ['injectableClock', 'penalize'], async ({ limiter }) => {
    await spend(limiter, binanceIp, SLOW, 1);
    expectDone(await limiter.penalize(binanceIp, { forMs: 5000 }), 'penalize for 5000 ms');
    const quota: Limit = { capacity: 100, refillPerSec: 0 };
    // 15 borrowed would leave 85 of the quota: the hold says empty, and a quota never refills.
    expectError(await limiter.checkRate(binanceIp, quota, 1), 'cost_unpayable', 'cost 1 on a fixed quota of 100 defined during the hold');
    const borrowed = await limiter.borrowed(binanceIp);
    expectTrue(typeof borrowed === 'number' && borrowed >= 15, `borrowed after the refused quota: ${show(borrowed)}`);
  }),
  test(
    'RL-R3',
    "a hold on a bucket never defined is kept past its end and starts the bucket empty as of the hold's end",
    ['injectableClock', 'penalize'],
    async ({ limiter, clock }) => {
      expectDone(await limiter.penalize(binanceIp, { forMs: 100 }), 'penalize a bucket never checked for 100 ms');
      await clock.advance(2000);
      // A store may expire what it keeps on its own (real-time) clock: let the hold's length pass in
      // real time too. The hold must be kept until the first definition (a day at least).
      await new Promise<void>((resolve) => setTimeout(resolve, 300));
      // empty at 100 ms, 1900 ms of refill at 0.1 per ms since: 190 of 6000, so 58 100 ms more
      expectDelay(await limiter.checkRate(binanceIp, { requests: 6000, periodMs: 60_000 }, 6000), 58_100, 'the first check, for the whole capacity, 2 s later');
    },
  ),
  test('RL-R3', 'debt recorded on a held bucket never defined is charged after the hold', ['injectableClock', 'penalize'], async ({ limiter }) => {
    const k = key({ credential: null, axis: 'held-debt' });
    expectDone(await limiter.penalize(k, { forMs: 1000 }), 'penalize a bucket never checked for 1000 ms');
    limiter.record(k, 5);
    await landed();
    // empty at 1000 ms, then 5 in debt: a token at 1000 + 500 + 100 ms
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 1600, 'the first check after the hold and the debt');
  }),
  test(
    'RL-R3',
    'debt recorded on a held bucket never defined is charged in full when the first definition comes long after the hold',
    ['injectableClock', 'penalize'],
    async ({ limiter, clock }) => {
      const k = key({ credential: null, axis: 'late-definition' });
      expectDone(await limiter.penalize(k, { forMs: 100 }), 'penalize a bucket never checked for 100 ms');
      limiter.record(k, 5);
      await landed();
      // the hold ended (and the bucket refilled from empty) seconds ago: the debt is still owed as of the definition
      await clock.advance(5000);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 6), 100, 'cost 6 at the first definition, 5 in debt');
      await spend(limiter, k, TEN_PER_SECOND, 5, 'the 5 the debt leaves');
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 after the debt and the 5 spent');
    },
  ),
  test('RL-R3', 'a penalty never lowers what a fixed quota in debt has borrowed', ['injectableClock', 'penalize'], async ({ limiter, clock }) => {
    const k = key({ axis: 'quota-debt' });
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    limiter.record(k, 15, quota);
    await landed();
    expectBorrowed(await limiter.borrowed(k), 15, 'borrowed after a record of 15 on a quota of 10');
    expectDone(await limiter.penalize(k, { forMs: 1000 }), 'penalize');
    expectBorrowed(await limiter.borrowed(k), 15, 'borrowed under the hold: empty means at least the capacity, never less debt');
    await clock.advance(2000);
    expectBorrowed(await limiter.borrowed(k), 15, 'borrowed after the hold: a quota never refills');
  }),
  test(
    'RL-R3',
    'a hold on a bucket never defined leaves a fixed quota that defines it used up',
    ['injectableClock', 'penalize'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'held-quota' });
      expectDone(await limiter.penalize(k, { forMs: 500 }), 'penalize a bucket never defined');
      await clock.advance(1000);
      expectError(await limiter.checkRate(k, { capacity: 10, refillPerSec: 0 }, 1), 'cost_unpayable', 'cost 1 on the quota that defines it after the hold');
      limiter.record(k, 1, { capacity: 10, refillPerSec: 0 });
      await landed();
      expectBorrowed(await limiter.borrowed(k), 11, "a record that defines the quota: empty as of the hold's end, and 1 more");
    },
  ),
];
