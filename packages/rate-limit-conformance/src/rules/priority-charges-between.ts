import type { Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectDelay, expectOkNow, expectTrue, show } from '../expect.js';
import { TEN_PER_SECOND, key, spend } from './fixtures.js';

/**
 * Examples of RL-Q1 and RL-Q3 where a booking lands before the latest booking ahead (a lower class booked at its
 * own earlier time, or a call that books behind its class's booking while a lower class's lies further ahead): the
 * level at every instant ahead still decides what a higher class finds at once, neither more nor less. Another
 * bucket of the same call (`EVERY_SECOND`, `EVERY_2500_MS`, spent once) sets a booking's time.
 */

const CLASSES = ['injectableClock', 'bookings', 'priorities'] as const;
const EVERY_SECOND: Limit = { requests: 1, periodMs: 1000 };
const EVERY_2500_MS: Limit = { requests: 1, periodMs: 2500 };

export const PRIORITY_CHARGES_BETWEEN: readonly ConformanceTest[] = [
  test(
    'RL-Q3',
    'a bulk booking before the latest booking leaves a full instant ahead full: critical waits for room there',
    CLASSES,
    async ({ limiter, clock }) => {
      const a = key({ axis: 'between-full' });
      const b = key({ axis: 'between-full-b' });
      const t0 = clock.now();
      expectOkNow(await limiter.checkRate(a, TEN_PER_SECOND, 9, { priority: 'critical' }), 'critical 9 of 10 at once');
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 2, { priority: 'normal', maxWaitMs: 10_000 }), t0, 100, 'normal 2: full (10) at 100 ms');
      await spend(limiter, b, EVERY_SECOND, 1, 'the other bucket: its one request (the next at 1000 ms)');
      expectBooked(
        await limiter.checkRates(
          [
            { key: a, limit: TEN_PER_SECOND, cost: 1 },
            { key: b, limit: EVERY_SECOND, cost: 1 },
          ],
          { priority: 'normal', maxWaitMs: 10_000 },
        ),
        t0,
        1000,
        'normal 1 with the other bucket: booked at 1000 ms',
      );
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 10_000 }), t0, 500, 'bulk 1 at 500 ms, before it');
      // the level is 10 at 100 ms: a critical 1 sent before 200 ms would make it 11 there
      const d = expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'critical' }), undefined, 'critical 1');
      expectTrue(d.retryAfterMs >= 200, `critical 1 may go after ${show(d.retryAfterMs)} ms, while the bucket is full at 100 ms`);
    },
  ),
  test(
    'RL-Q1',
    'bulk bookings before the latest booking leave critical the room above the highest level ahead, at once',
    CLASSES,
    async ({ limiter, clock }) => {
      const a = key({ axis: 'between-room' });
      const t0 = clock.now();
      await spend(limiter, a, TEN_PER_SECOND, 7, 'normal 7 of 10 at once');
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 3, { priority: 'bulk', maxWaitMs: 10_000 }), t0, 200, 'bulk 3: 8 at 200 ms');
      expectBooked(
        await limiter.checkRate(a, TEN_PER_SECOND, 3, { priority: 'bulk', reserve: { bulk: 0.5 }, maxWaitMs: 10_000 }),
        t0,
        800,
        'bulk 3 under a line of 5: 7 at 800 ms',
      );
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 10_000 }), t0, 600, 'bulk 1 at 600 ms, before it');
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 10_000 }), t0, 700, 'bulk 1 at 700 ms, before it');
      // the levels ahead: 7 now, 8 at 200 ms, 5 at 600 and 700 ms, 7 at 800 ms
      expectOkNow(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 0.5 }], { priority: 'critical' }), 'critical 0.5 under a peak of 8');
    },
  ),
  test(
    'RL-Q1',
    'a normal booking behind a critical one and before a bulk one leaves critical room right behind the critical booking',
    CLASSES,
    async ({ limiter, clock }) => {
      const a = key({ axis: 'between-behind' });
      const b1 = key({ axis: 'between-behind-1' });
      const b2 = key({ axis: 'between-behind-2' });
      const t0 = clock.now();
      await spend(limiter, a, TEN_PER_SECOND, 4, 'normal 4 of 10 at once');
      await spend(limiter, b1, EVERY_SECOND, 1, 'the first other bucket: the next at 1000 ms');
      await spend(limiter, b2, EVERY_2500_MS, 1, 'the second other bucket: the next at 2500 ms');
      const withOther = (other: typeof b1, limit: Limit, cost: number) => [
        { key: a, limit: TEN_PER_SECOND, cost },
        { key: other, limit, cost: 1 },
      ];
      expectBooked(await limiter.checkRates(withOther(b1, EVERY_SECOND, 2), { priority: 'critical', maxWaitMs: 10_000 }), t0, 1000, 'critical 2 at 1000 ms');
      expectBooked(await limiter.checkRates(withOther(b2, EVERY_2500_MS, 1), { priority: 'bulk', maxWaitMs: 10_000 }), t0, 2500, 'bulk 1 at 2500 ms');
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 5, { priority: 'normal', maxWaitMs: 10_000 }), t0, 1000, 'normal 5 behind the critical booking');
      // the level is 7 at 1000 ms, then falls to 0 before the bulk booking: critical 2 fits right behind its class
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 2, { priority: 'critical', maxWaitMs: 10_000 }), t0, 1000, 'critical 2 behind its class');
    },
  ),
];
