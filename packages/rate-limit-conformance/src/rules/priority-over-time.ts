import type { Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectDelay, expectError, expectOkNow, expectTrue, show } from '../expect.js';
import { TEN_PER_SECOND, key, landed, settled, spend, startWait } from './fixtures.js';

/**
 * Examples of RL-Q1 to RL-Q3 over time: what a bucket keeps of its bookings by class once the clock has moved, a
 * booking has passed, a penalty came or a booking was returned. Each one-request bucket of the same call
 * (`EVERY_SECOND`, `EVERY_2_SECONDS`, ...), spent once, sets a booking's time.
 */

const CLASSES = ['injectableClock', 'bookings', 'priorities'] as const;
const EVERY_100_MS: Limit = { requests: 1, periodMs: 100 };
const EVERY_400_MS: Limit = { requests: 1, periodMs: 400 };
const EVERY_SECOND: Limit = { requests: 1, periodMs: 1000 };
const EVERY_2_SECONDS: Limit = { requests: 1, periodMs: 2000 };
const BULK_WAITS = { priority: 'bulk', maxWaitMs: 10_000 } as const;

export const PRIORITY_OVER_TIME: readonly ConformanceTest[] = [
  test(
    'RL-Q1',
    'a call that names no class goes at once past bulk bookings, on the room bulk keeps free, alone or with other checks',
    CLASSES,
    async ({ limiter, clock }) => {
      const t0 = clock.now();
      for (const [i, k] of [key({ axis: 'unnamed-one' }), key({ axis: 'unnamed-many' })].entries()) {
        expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 8, { priority: 'bulk' }), `bucket ${i}: bulk spends its line (8) at once`);
        expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 2, BULK_WAITS), t0, 200, `bucket ${i}: bulk 2 more, booked at 200 ms`);
      }
      // the level is 8 now and at 200 ms: the 2 that bulk keeps free are a normal call's at once
      expectOkNow(await limiter.checkRate(key({ axis: 'unnamed-one' }), TEN_PER_SECOND, 2), 'checkRate of 2 naming no class');
      expectOkNow(await limiter.checkRates([{ key: key({ axis: 'unnamed-many' }), limit: TEN_PER_SECOND, cost: 2 }]), 'checkRates of 2 naming no class');
    },
  ),
  test(
    'RL-Q3',
    'a booking that has passed leaves no room behind it: after a charge or a record, a critical call waits for the level',
    CLASSES,
    async ({ limiter, clock }) => {
      const charged = key({ axis: 'passed-charged' });
      const recorded = key({ axis: 'passed-recorded' });
      const other = key({ axis: 'passed-other' });
      const t0 = clock.now();
      await spend(limiter, other, EVERY_SECOND, 1, 'the other bucket: its one request (the next at 1000 ms)');
      const checks = [charged, recorded].map((k) => ({ key: k, limit: TEN_PER_SECOND, cost: 1 }));
      expectBooked(
        await limiter.checkRates([...checks, { key: other, limit: EVERY_SECOND, cost: 1 }], { maxWaitMs: 10_000 }),
        t0,
        1000,
        '1 on each, at 1000 ms',
      );
      await clock.advance(1001);
      // the booking has passed: the level is 0.99 on both; 8 more make it 8.99, so critical 8 waits for 7 to refill
      await spend(limiter, charged, TEN_PER_SECOND, 8, 'normal 8 at once');
      limiter.record(recorded, 8);
      await landed();
      for (const [what, k] of [
        ['charged', charged],
        ['recorded', recorded],
      ] as const) {
        const d = expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 8 }], { priority: 'critical' }), undefined, `critical 8, ${what}`);
        expectTrue(d.retryAfterMs >= 690, `critical 8, ${what}, may go after ${show(d.retryAfterMs)} ms, while the level is 8.99 of 10`);
      }
    },
  ),
  test(
    'RL-Q2',
    'a penalty keeps the bookings ahead: after its hold a normal call never goes at once while a normal booking lies ahead',
    [...CLASSES, 'penalize'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'held-normal' });
      const other = key({ axis: 'held-normal-other' });
      const t0 = clock.now();
      await spend(limiter, other, EVERY_2_SECONDS, 1, 'the other bucket: its one request (the next at 2000 ms)');
      const withOther = [
        { key: k, limit: TEN_PER_SECOND, cost: 1 },
        { key: other, limit: EVERY_2_SECONDS, cost: 1 },
      ];
      expectBooked(await limiter.checkRates(withOther, { maxWaitMs: 10_000 }), t0, 2000, 'normal 1 at 2000 ms');
      await limiter.penalize(k, { forMs: 100 });
      await clock.advance(1600);
      expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 5, BULK_WAITS), clock.now(), 200, 'bulk 5 at 1800 ms');
      // the normal booking at 2000 ms still lies ahead
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 2), undefined, 'normal 2 while a normal booking lies ahead');
    },
  ),
  test(
    'RL-Q1',
    'a returned booking leaves the bookings before it as they were: critical still finds the room bulk keeps free, at once',
    [...CLASSES, 'abortSignal'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'returned-bulk' });
      const t0 = clock.now();
      expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'bulk spends its line (8) at once');
      expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 2, BULK_WAITS), t0, 200, 'bulk 2 more, booked at 200 ms');
      const controller = new AbortController();
      const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { ...BULK_WAITS, signal: controller.signal });
      controller.abort();
      expectError(await settled(waiter, 'the aborted bulk waiter'), 'aborted', 'the aborted bulk waiter');
      // the level is 8 now and at 200 ms, as before the returned booking
      expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 2, { priority: 'critical' }), 'critical 2 at once');
    },
  ),
  test(
    'RL-Q1',
    'a normal booking that has passed no longer holds normal calls back while a bulk booking still lies ahead',
    CLASSES,
    async ({ limiter, clock }) => {
      const k = key({ axis: 'passed-normal' });
      const first = key({ axis: 'passed-normal-100' });
      const second = key({ axis: 'passed-normal-400' });
      const t0 = clock.now();
      await spend(limiter, first, EVERY_100_MS, 1, 'the first other bucket: the next at 100 ms');
      await spend(limiter, second, EVERY_400_MS, 1, 'the second other bucket: the next at 400 ms');
      const normal = [
        { key: k, limit: TEN_PER_SECOND, cost: 5 },
        { key: first, limit: EVERY_100_MS, cost: 1 },
      ];
      expectBooked(await limiter.checkRates(normal, { maxWaitMs: 10_000 }), t0, 100, 'normal 5 at 100 ms');
      const bulk = [
        { key: k, limit: TEN_PER_SECOND, cost: 3 },
        { key: second, limit: EVERY_400_MS, cost: 1 },
      ];
      expectBooked(await limiter.checkRates(bulk, BULK_WAITS), t0, 400, 'bulk 3 at 400 ms');
      await clock.advance(200);
      // the levels ahead: 4 now, 5 at 400 ms after bulk's 3; the normal booking has passed, so normal 4 fits (8, then 9)
      expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 4), 'normal 4 at once');
    },
  ),
  test('RL-Q1', 'bulk bookings that have passed leave critical the room above a new bulk booking, at once', CLASSES, async ({ limiter, clock }) => {
    const k = key({ axis: 'passed-bulk' });
    const other = key({ axis: 'passed-bulk-other' });
    const t0 = clock.now();
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'bulk spends its line (8) at once');
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 2, BULK_WAITS), t0, 200, 'bulk 2 more, booked at 200 ms');
    await spend(limiter, other, EVERY_SECOND, 1, 'the other bucket: its one request (the next at 1000 ms)');
    await clock.advance(700);
    const withOther = [
      { key: k, limit: TEN_PER_SECOND, cost: 1 },
      { key: other, limit: EVERY_SECOND, cost: 1 },
    ];
    expectBooked(await limiter.checkRates(withOther, BULK_WAITS), clock.now(), 300, 'bulk 1 at 1000 ms');
    // the levels ahead: 3 now, 1 at 1000 ms: critical 7 fits at every instant
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 7, { priority: 'critical' }), 'critical 7 at once');
  }),
];
