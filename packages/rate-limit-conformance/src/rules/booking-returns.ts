import type { BucketCheck, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest, type TestContext } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectDone, expectError } from '../expect.js';
import { TEN_PER_SECOND, expectPending, key, landed, settled, spend, startWait } from './fixtures.js';

/**
 * Examples of RL-W5: what an aborted waiter's return puts back (the bucket as the booking found it: its state as
 * of then, its definition, a debt waiting for the bucket's first definition), and when it is forfeited (the bucket
 * was written after the booking, also through a reset and a new use). A one-request bucket of the same call
 * (`EVERY_SECOND`), spent once, makes a booking.
 */

const RETURNS = ['injectableClock', 'bookings', 'abortSignal'] as const;
const EVERY_SECOND: Limit = { requests: 1, periodMs: 1000 };
const EVERY_5_SECONDS: Limit = { requests: 1, periodMs: 5000 };
/** Ten requests refilled at one a second: ten seconds from empty to full. */
const SLOW_TEN: Limit = { capacity: 10, refillPerSec: 1 };
const HALF_SPEED: Limit = { capacity: 10, refillPerSec: 5 };
/** A bucket that never holds anything up: traffic on other buckets. */
const ROOMY: Limit = { capacity: 1e6, refillPerSec: 1e6 };

/** Books `checks` through a waiter, aborts it before its send time and expects `aborted`. */
async function bookAndAbort({ limiter, clock }: TestContext, checks: readonly BucketCheck[], between: () => Promise<void>, what: string): Promise<void> {
  const controller = new AbortController();
  const waiter = await startWait(limiter, clock, checks, { maxWaitMs: 10_000, signal: controller.signal });
  expectPending(waiter, `${what}: the waiter before its send time`);
  await between();
  controller.abort();
  expectError(await settled(waiter, `${what}: the aborted waiter`), 'aborted', `${what}: the aborted waiter`);
}

/**
 * 1,100 buckets used once, 1,100 ms for them to refill and go idle, then 800 calls to one more bucket: a store that
 * evicts idle buckets and grows and compacts its tables does so meanwhile.
 */
async function crowd({ limiter, clock }: TestContext, name: string): Promise<void> {
  for (let i = 0; i < 1100; i++) await spend(limiter, key({ axis: `${name}-${i}` }), TEN_PER_SECOND, 1, `bucket #${i + 1} of 1100`);
  await clock.advance(1100);
  for (let i = 0; i < 800; i++) await spend(limiter, key({ axis: `${name}-traffic` }), ROOMY, 1, `call #${i + 1} on another bucket`);
}

export const BOOKING_RETURNS: readonly ConformanceTest[] = [
  test(
    'RL-W5',
    'a returned booking that defined its buckets puts back the debt recorded before it and forgets the bucket it created',
    RETURNS,
    async (context) => {
      const { limiter, clock } = context;
      const owing = key({ axis: 'return-owing' });
      const fresh = key({ axis: 'return-fresh' });
      limiter.record(owing, 4);
      await landed();
      const checks = [
        { key: owing, limit: TEN_PER_SECOND, cost: 10 },
        { key: fresh, limit: TEN_PER_SECOND, cost: 1 },
      ];
      await bookAndAbort(context, checks, async () => {}, 'cost 10 on a bucket owing 4, with a new bucket');
      await clock.advance(400);
      // the debt waits, undiminished, for the next definition (RL-R1); the new bucket is as never used
      expectDelay(await limiter.checkRate(owing, TEN_PER_SECOND, 10), 400, 'cost 10 on the bucket owing 4, 400 ms after the return');
      await spend(limiter, fresh, TEN_PER_SECOND, 10, 'the bucket the returned booking created, full');
    },
  ),
  test('RL-W5', 'a returned booking that created a bucket, with nothing recorded before it, returns the call’s other buckets too', RETURNS, async (context) => {
    const { limiter } = context;
    const fresh = key({ axis: 'return-created' });
    const k = key({ axis: 'return-beside-created' });
    await spend(limiter, k, TEN_PER_SECOND, 10, 'the second bucket emptied');
    const checks = [
      { key: fresh, limit: TEN_PER_SECOND, cost: 5 },
      { key: k, limit: TEN_PER_SECOND, cost: 5 },
    ];
    await bookAndAbort(context, checks, async () => {}, 'cost 5 on a new bucket and on the emptied one');
    expectBorrowed(await limiter.borrowed(fresh), 0, 'the new bucket once the booking is returned');
    expectBorrowed(await limiter.borrowed(k), 10, 'the emptied bucket once the booking is returned');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 5), 500, 'cost 5 on the emptied bucket: its booking gave back');
  }),
  test('RL-W5', 'a returned booking puts back the state it replaced as of when it was written, under the definition it had', RETURNS, async (context) => {
    const { limiter, clock } = context;
    const k = key({ axis: 'return-as-it-was' });
    await spend(limiter, k, TEN_PER_SECOND, 10, 'the bucket emptied');
    await clock.advance(500);
    // 5 borrowed; the booking defines the bucket anew (5 borrowed of 10 at 5/s: cost 8 at 600 ms)
    await bookAndAbort(context, [{ key: k, limit: HALF_SPEED, cost: 8 }], async () => {}, 'cost 8 under a new definition');
    expectBorrowed(await limiter.borrowed(k), 5, 'borrowed once the booking is returned');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 6), 100, 'cost 6 under the first definition');
  }),
  test('RL-W5', 'an aborted waiter gets its booking returned however many calls to other buckets came between', RETURNS, async (context) => {
    const { limiter } = context;
    const k = key({ axis: 'return-after-traffic' });
    const traffic = key({ axis: 'return-traffic' });
    await spend(limiter, k, TEN_PER_SECOND, 10, 'the bucket emptied');
    const between = async () => {
      for (let i = 0; i < 600; i++) await spend(limiter, traffic, ROOMY, 1, `call #${i + 1} on another bucket`);
    };
    await bookAndAbort(context, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], between, 'cost 5, then 600 calls elsewhere');
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed once the booking is returned');
  }),
  test('RL-W5', 'an aborted waiter gets its booking returned after a thousand other buckets came and went', RETURNS, async (context) => {
    const { limiter } = context;
    const k = key({ axis: 'return-after-crowd' });
    await spend(limiter, k, SLOW_TEN, 10, 'the bucket emptied');
    await bookAndAbort(context, [{ key: k, limit: SLOW_TEN, cost: 5 }], () => crowd(context, 'return-crowd'), 'cost 5, then a crowd of buckets');
    // 1.1 of the 10 came back in the 1100 ms: the booking of 5 is returned, nothing was written to the bucket after it
    expectBorrowed(await limiter.borrowed(k), 8.9, 'borrowed once the booking is returned');
  }),
  test(
    'RL-W5',
    'a booking is forfeited when a penalty came after it, whatever other buckets were charged in between',
    [...RETURNS, 'penalize'],
    async (context) => {
      const { limiter, clock } = context;
      const k = key({ axis: 'forfeit-penalty' });
      const other = key({ axis: 'forfeit-penalty-other' });
      await spend(limiter, k, TEN_PER_SECOND, 10, 'the bucket emptied');
      await spend(limiter, other, TEN_PER_SECOND, 1, 'another bucket');
      const between = async () => {
        await spend(limiter, other, TEN_PER_SECOND, 1, 'the other bucket again');
        expectDone(await limiter.penalize(k, { forMs: 2000 }), 'penalize the booked bucket for 2000 ms');
      };
      await bookAndAbort(context, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], between, 'cost 5, then a penalty');
      await clock.advance(2000);
      // RL-R3: the bucket is empty when its penalty ends; a return would have put back the state before the booking
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 as the penalty ends');
    },
  ),
  test('RL-W5', 'a booking is forfeited when its bucket was reset and used again since, in whatever order buckets came back', RETURNS, async (context) => {
    const { limiter } = context;
    const other = key({ axis: 'forfeit-other' });
    const k = key({ axis: 'forfeit-reset' });
    const newcomer = key({ axis: 'forfeit-newcomer' });
    await spend(limiter, other, EVERY_SECOND, 1, 'the other bucket: its one request (the next at 1000 ms)');
    const checks = [
      { key: k, limit: TEN_PER_SECOND, cost: 1 },
      { key: other, limit: EVERY_SECOND, cost: 1 },
    ];
    const between = async () => {
      expectDone(await limiter.reset(k), 'reset the booked bucket');
      await spend(limiter, newcomer, TEN_PER_SECOND, 1, 'a bucket never used before');
      await spend(limiter, k, TEN_PER_SECOND, 10, 'the reset bucket emptied');
    };
    await bookAndAbort(context, checks, between, 'cost 1 with the other bucket, then a reset');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 on the reset bucket: the 10 charged after the reset stay');
  }),
  test('RL-W5', 'a booking is forfeited when everything was reset and its buckets used again since', RETURNS, async (context) => {
    const { limiter } = context;
    const other = key({ axis: 'forfeit-all-other' });
    const k = key({ axis: 'forfeit-all' });
    await spend(limiter, other, EVERY_SECOND, 1, 'the other bucket: its one request (the next at 1000 ms)');
    const checks = [
      { key: k, limit: TEN_PER_SECOND, cost: 1 },
      { key: other, limit: EVERY_SECOND, cost: 1 },
    ];
    const between = async () => {
      expectDone(await limiter.resetAll(), 'resetAll()');
      await spend(limiter, other, EVERY_SECOND, 1, 'the other bucket again');
      await spend(limiter, k, TEN_PER_SECOND, 10, 'the booked bucket emptied after resetAll');
    };
    await bookAndAbort(context, checks, between, 'cost 1 with the other bucket, then resetAll');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 on the booked bucket: the 10 charged after resetAll stay');
  }),
  test(
    'RL-W5',
    'a booking is forfeited when everything was reset and its buckets used again, also once a thousand others came and went',
    RETURNS,
    async (context) => {
      const { limiter } = context;
      const other = key({ axis: 'forfeit-crowd-other' });
      const k = key({ axis: 'forfeit-crowd' });
      await spend(limiter, other, EVERY_5_SECONDS, 1, 'the other bucket: its one request (the next at 5000 ms)');
      const checks = [
        { key: k, limit: SLOW_TEN, cost: 1 },
        { key: other, limit: EVERY_5_SECONDS, cost: 1 },
      ];
      const between = async () => {
        expectDone(await limiter.resetAll(), 'resetAll()');
        await spend(limiter, other, EVERY_5_SECONDS, 1, 'the other bucket again');
        await spend(limiter, k, SLOW_TEN, 10, 'the booked bucket emptied after resetAll');
        await crowd(context, 'forfeit-crowd');
      };
      await bookAndAbort(context, checks, between, 'cost 1 with the other bucket, then resetAll and a crowd');
      // 1.1 of the 10 charged after resetAll have come back
      expectDelay(await limiter.checkRate(k, SLOW_TEN, 2), 900, 'cost 2 on the booked bucket: the 10 charged after resetAll stay');
    },
  ),
];
