import type { BucketCheck, BucketKey, Limit, Priority, RateLimiter } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectDone, expectOkNow } from '../expect.js';
import { TEN_PER_SECOND, TEN_PER_WINDOW, expectDelayWithin, key, landed, slackOf, spend } from './fixtures.js';

/**
 * Examples of RL-Q1 and RL-Q3 at the edge: how much a class finds at once beside bookings ahead, after charges at
 * once before them, bookings between them, records, syncs and penalties (MODEL.md, "Classes": the class state's
 * bounds on the level at every instant ahead). Each edge is a pair of peeks: `room` goes at once, `room + 0.01`
 * waits.
 */

const CLASSES = ['injectableClock', 'bookings', 'priorities'] as const;
const ONE_PER_SECOND: Limit = { capacity: 1, refillPerSec: 1 };
const TWO_PER_SECOND: Limit = { capacity: 1, refillPerSec: 2 };
const EVERY_HALF_S: Limit = { requests: 1, periodMs: 500 };
const EVERY_SECOND: Limit = { requests: 1, periodMs: 1000 };
const EVERY_1100_MS: Limit = { requests: 1, periodMs: 1100 };
const EVERY_1500_MS: Limit = { requests: 1, periodMs: 1500 };
const EVERY_2_S: Limit = { requests: 1, periodMs: 2000 };
const EVERY_3_S: Limit = { requests: 1, periodMs: 3000 };
/** What a peek asks beyond the room: the smallest cost that must wait. */
const OVER = 0.01;

/** `room` goes at once for `priority` on `k` (TEN_PER_SECOND), `room + 0.01` waits `waitMs` (exact, rounded up). */
async function expectRoom(limiter: RateLimiter, k: BucketKey, priority: Priority, room: number, waitMs: number, what: string): Promise<void> {
  expectOkNow(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: room }], { priority }), `${what}: ${priority} ${room} at once`);
  expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: room + OVER }], { priority }), waitMs, `${what}: ${priority} ${room + OVER}`);
}

/** Bulk spends its line (8 of 10) at once, then books `n` calls of 1, 100 ms apart (the level stays at 8 until the last). */
async function bulkAhead(limiter: RateLimiter, k: BucketKey, now: number, n: number): Promise<void> {
  expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'bulk spends its line (8 of 10) at once');
  for (let i = 1; i <= n; i++)
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 60_000 }), now, 100 * i, `bulk booking ${i}`);
}

export const PRIORITY_BOUNDS: readonly ConformanceTest[] = [
  test(
    'RL-Q1',
    'critical calls at once take bulk’s reserve beside bulk bookings up to the capacity, then wait for the level after the last booking',
    CLASSES,
    async ({ limiter, clock }) => {
      const k = key({ axis: 'reserve-edge' });
      await bulkAhead(limiter, k, clock.now(), 10);
      // the level is 8 at every instant up to the last booking (1000 ms); 20 borrowed counts them all
      await expectRoom(limiter, k, 'critical', 2, 1001, 'beside ten bulk bookings');
      expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'critical' }), 'critical 1 at once');
      await expectRoom(limiter, k, 'critical', 1, 1001, 'after critical 1');
      expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'critical' }), 'critical 1 at once again');
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, OVER, { priority: 'critical' }), 1001, 'critical 0.01 with 10 at every instant ahead');
      expectBorrowed(await limiter.borrowed(k), 20, 'borrowed: 8 + 10 booked + 2 critical');
    },
  ),
  test(
    'RL-Q1',
    'before a booking far ahead every class finds its room at once, and charges and bookings before it use that room',
    CLASSES,
    async ({ limiter, clock }) => {
      const a = key({ axis: 'a' });
      const b = key({ axis: 'b' });
      const t0 = clock.now();
      await spend(limiter, b, ONE_PER_SECOND, 1, 'b: its one token (the next at 1000 ms)');
      expectOkNow(await limiter.checkRate(a, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'a: bulk spends its line (8 of 10) at once');
      expectBooked(
        await limiter.checkRates(
          [
            { key: a, limit: TEN_PER_SECOND, cost: 1 },
            { key: b, limit: ONE_PER_SECOND, cost: 1 },
          ],
          { priority: 'bulk', maxWaitMs: 5000 },
        ),
        t0,
        1000,
        'bulk a 1 + b 1: booked when b can pay',
      );
      // a holds 8 now, falling to 0 by 800 ms, and 1 from 1000 ms: 2 free at once for critical and normal alike
      await expectRoom(limiter, a, 'critical', 2, 301, 'a before its booking');
      await expectRoom(limiter, a, 'normal', 2, 301, 'a before its booking');
      expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: OVER }], { priority: 'bulk' }), 301, 'a: bulk 0.01, at its line');
      expectOkNow(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'critical' }), 'a: critical 1 at once');
      await expectRoom(limiter, a, 'critical', 1, 301, 'a after critical 1');
      // a bulk booking at its GCRA time, before the booking at 1000 ms
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 5000 }), t0, 500, 'a: bulk booking of 1');
      await expectRoom(limiter, a, 'critical', 1, 401, 'a after the bulk booking between');
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 6, { priority: 'bulk', maxWaitMs: 5000 }), t0, 1100, 'a: bulk booking of 6, after the others');
      await expectRoom(limiter, a, 'critical', 1, 1001, 'a after the bulk booking of 6');
      // past the first booking's time the bound of the time before it is passed on: 8 at every instant ahead
      await clock.advance(1000);
      await expectRoom(limiter, a, 'critical', 2, 101, 'a at 1000 ms');
      await clock.advance(100);
      await expectRoom(limiter, a, 'critical', 2, 1, 'a at 1100 ms, no booking ahead');
      expectBorrowed(await limiter.borrowed(a), 8, 'a at 1100 ms');
    },
  ),
  test(
    'RL-Q1',
    'records, syncs and penalties use the reserve bookings leave to higher classes',
    [...CLASSES, 'sync', 'penalize'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'reserve-feedback' });
      await bulkAhead(limiter, k, clock.now(), 10);
      limiter.record(k, 0.5);
      await landed();
      await expectRoom(limiter, k, 'critical', 1.5, 1001, 'after a record of 0.5');
      expectDone(await limiter.sync(k, TEN_PER_SECOND, 19), 'sync 19 borrowed (18.5 known)');
      await expectRoom(limiter, k, 'critical', 1, 1001, 'after the sync');
      expectDone(await limiter.sync(k, TEN_PER_SECOND, 5), 'sync 5 borrowed (never lowers)');
      await expectRoom(limiter, k, 'critical', 1, 1001, 'after a lower sync');
      // a penalty leaves the bucket empty as of its end: nothing at once while the bookings lie ahead
      expectDone(await limiter.penalize(k, { forMs: 10 }), 'penalize for 10 ms');
      expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: OVER }], { priority: 'critical' }), 901, 'critical 0.01 after the penalty');
    },
  ),
  test(
    'RL-Q2',
    'the first booking of a class holds back later calls of that class and of lower ones, never higher ones',
    CLASSES,
    async ({ limiter, clock }) => {
      const t0 = clock.now();
      // after the booking: [critical, normal, bulk] peeks of 0.5 (at once, or the wait in ms)
      const expected: Record<Priority, readonly [number, number, number]> = { critical: [150, 150, 350], normal: [0, 150, 350], bulk: [0, 0, 350] };
      for (const priority of ['critical', 'normal', 'bulk'] as const) {
        const a = key({ axis: `a-${priority}` });
        const b = key({ axis: `b-${priority}` });
        await spend(limiter, b, ONE_PER_SECOND, 1, 'b: its one token (the next at 1000 ms)');
        await spend(limiter, a, TEN_PER_SECOND, 9.5, 'a: 9.5 of 10 at once, no booking');
        expectBooked(
          await limiter.checkRates(
            [
              { key: a, limit: TEN_PER_SECOND, cost: 1 },
              { key: b, limit: ONE_PER_SECOND, cost: 1 },
            ],
            { priority, maxWaitMs: 5000 },
          ),
          t0,
          1000,
          `${priority} a 1 + b 1: booked when b can pay`,
        );
        // a holds 9.5 now: 0.5 fits under every line but bulk's at every instant ahead; behind a booking of its class or
        // a higher one a call waits for its GCRA time (150 ms), never for the booking (1000 ms)
        for (const [i, q] of (['critical', 'normal', 'bulk'] as const).entries()) {
          const wait = expected[priority][i] as number;
          const d = await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 0.5 }], { priority: q });
          if (wait === 0) expectOkNow(d, `after a ${priority} booking: ${q} 0.5`);
          else expectDelay(d, wait, `after a ${priority} booking: ${q} 0.5`);
        }
        expectDelay(
          await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 0.51 }], { priority: 'critical' }),
          151,
          `after a ${priority} booking: critical 0.51`,
        );
      }
    },
  ),
  test(
    'RL-Q2',
    'a call that fits goes right after the booking of its class ahead, though lower bookings reach further',
    CLASSES,
    async ({ limiter, clock }) => {
      const a = key({ axis: 'a' });
      const b = key({ axis: 'b' });
      const t0 = clock.now();
      await spend(limiter, b, TWO_PER_SECOND, 1, 'b: its one token (the next at 500 ms)');
      await bulkAhead(limiter, a, t0, 10);
      expectBooked(
        await limiter.checkRates(
          [
            { key: a, limit: TEN_PER_SECOND, cost: 1 },
            { key: b, limit: TWO_PER_SECOND, cost: 1 },
          ],
          { priority: 'critical', maxWaitMs: 5000 },
        ),
        t0,
        500,
        'critical a 1 + b 1: booked when b can pay',
      );
      expectDelay(
        await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'critical' }),
        500,
        'critical 1 on a: right after the critical booking',
      );
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'critical', maxWaitMs: 5000 }), t0, 500, 'critical 1 on a, booked');
    },
  ),
  test('RL-Q4', 'a cost above its class’s line raises the line to the cost, never to the capacity', CLASSES, async ({ limiter }) => {
    const k = key({ axis: 'raised-line' });
    await spend(limiter, k, TEN_PER_SECOND, 1, '1 of 10 at once');
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 9 }], { priority: 'bulk' }), 100, 'bulk 9 (line 8, raised to 9) with 1 borrowed');
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 8.5 }], { priority: 'bulk' }), 100, 'bulk 8.5 (line raised to 8.5) with 1 borrowed');
    expectOkNow(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 9 }], { priority: 'critical' }), 'critical 9 with 1 borrowed');
    // above the capacity the line stops at the capacity: cost 15 from a full bucket waits (15 − 10) / 10 s (RL-A5)
    expectDelay(
      await limiter.peek([{ key: key({ axis: 'above-capacity' }), limit: TEN_PER_SECOND, cost: 15 }], { priority: 'bulk' }),
      500,
      'bulk 15 on a full bucket',
    );
  }),
  test(
    'RL-Q4',
    'on a window limit too, a cost above its class’s line raises the line to the cost only',
    [...CLASSES, 'windowLimits'],
    async ({ limiter, capabilities }) => {
      const k = key({ axis: 'raised-window-line' });
      await spend(limiter, k, TEN_PER_WINDOW, 1, '1 of 10 in the window');
      expectDelayWithin(
        await limiter.peek([{ key: k, limit: TEN_PER_WINDOW, cost: 9 }], { priority: 'bulk' }),
        1050,
        slackOf(capabilities, TEN_PER_WINDOW),
        'bulk 9 (line 8, raised to 9) with 1 in the window',
      );
      expectOkNow(await limiter.peek([{ key: k, limit: TEN_PER_WINDOW, cost: 9 }], { priority: 'critical' }), 'critical 9 with 1 in the window');
    },
  ),
  test('RL-A7', 'every class keeps the tolerance: a cost short of its line by less than it goes now', CLASSES, async ({ limiter, clock }) => {
    const k = key({ axis: 'class-tolerance' });
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'bulk spends its line (8 of 10)');
    // tau is 1000 ms, its tolerance 1e-6 ms: 5e-6 short of 8 refilled waits, 5e-7 short goes
    await clock.advance(800 - 5e-6);
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 8 }], { priority: 'bulk' }), 1, 'bulk 8, 5e-6 ms short');
    await clock.advance(5e-6 - 5e-7);
    expectOkNow(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 8 }], { priority: 'bulk' }), 'bulk 8, 5e-7 ms short', clock.now());
  }),
  test('RL-Q3', 'a booking far behind the others never lowers the bound on the level before it', CLASSES, async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    const t0 = clock.now();
    await spend(limiter, b, EVERY_3_S, 1, 'b: its one token (the next at 3000 ms)');
    await bulkAhead(limiter, a, t0, 10);
    expectBooked(await limiter.checkRates(pair(a, b, EVERY_3_S), { priority: 'bulk', maxWaitMs: 5000 }), t0, 3000, 'bulk a 1 + b 1: booked at 3000 ms');
    await expectRoom(limiter, a, 'critical', 2, 2301, 'a at 0 ms');
    // past the first booking (100 ms) a still holds 8 at every instant up to 1000 ms, whatever lies at 3000 ms
    await clock.advance(150);
    await expectRoom(limiter, a, 'critical', 2, 2151, 'a at 150 ms');
  }),
  test('RL-Q3', 'a booking far ahead made after the first booking’s time passed keeps the bound of the time before it', CLASSES, async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    const t0 = clock.now();
    await spend(limiter, b, EVERY_3_S, 1, 'b: its one token (the next at 3000 ms)');
    await bulkAhead(limiter, a, t0, 10);
    await clock.advance(150);
    await expectRoom(limiter, a, 'critical', 2, 851, 'a at 150 ms');
    expectBooked(
      await limiter.checkRates(pair(a, b, EVERY_3_S), { priority: 'bulk', maxWaitMs: 5000 }),
      clock.now(),
      2850,
      'bulk a 1 + b 1: booked at 3000 ms',
    );
    // at 1050 ms the bound on the level since 1000 ms (8) still holds back critical calls: no more than 2 at once
    await clock.advance(900);
    await expectRoom(limiter, a, 'critical', 2, 1251, 'a at 1050 ms');
  }),
  test('RL-Q1', 'a record before a booking far ahead takes its cost from the room before the booking', [...CLASSES], async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    const t0 = clock.now();
    await spend(limiter, b, ONE_PER_SECOND, 1, 'b: its one token (the next at 1000 ms)');
    expectOkNow(await limiter.checkRate(a, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'a: bulk spends its line (8 of 10) at once');
    expectBooked(await limiter.checkRates(pair(a, b, ONE_PER_SECOND), { priority: 'bulk', maxWaitMs: 5000 }), t0, 1000, 'bulk a 1 + b 1');
    limiter.record(a, 0.5);
    await landed();
    await expectRoom(limiter, a, 'critical', 1.5, 301, 'a after a record of 0.5');
  }),
  test('RL-R3', 'a penalty keeps every class from going at once for as long as bookings lie ahead', [...CLASSES, 'penalize'], async ({ limiter, clock }) => {
    const k = key({ axis: 'held-with-bookings' });
    await bulkAhead(limiter, k, clock.now(), 10);
    expectDone(await limiter.penalize(k, { forMs: 500 }), 'penalize for 500 ms');
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: OVER }], { priority: 'critical' }), 801, 'critical 0.01 under the hold');
    // past the first booking's time (100 ms), still under the hold
    await clock.advance(150);
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: OVER }], { priority: 'critical' }), 651, 'critical 0.01 at 150 ms');
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 2 }], { priority: 'critical' }), 850, 'critical 2 at 150 ms');
  }),
  test('RL-Q1', 'a booking between the first booking ahead and the last adds nothing to the room before the first', CLASSES, async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    const c = key({ axis: 'c' });
    const d = key({ axis: 'd' });
    const t0 = clock.now();
    await spend(limiter, b, EVERY_SECOND, 1, 'b: its one token (the next at 1000 ms)');
    await spend(limiter, c, EVERY_2_S, 1, 'c: its one token (the next at 2000 ms)');
    await spend(limiter, d, EVERY_1500_MS, 1, 'd: its one token (the next at 1500 ms)');
    expectOkNow(await limiter.checkRate(a, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'a: bulk spends its line (8 of 10) at once');
    expectBooked(await limiter.checkRates(pair(a, b, EVERY_SECOND), { priority: 'bulk', maxWaitMs: 5000 }), t0, 1000, 'bulk a 1 + b 1');
    const withC = [
      { key: a, limit: TEN_PER_SECOND, cost: 5 },
      { key: c, limit: EVERY_2_S, cost: 1 },
    ];
    expectBooked(await limiter.checkRates(withC, { priority: 'bulk', maxWaitMs: 5000 }), t0, 2000, 'bulk a 5 + c 1');
    await expectRoom(limiter, a, 'critical', 2, 1701, 'a with bookings at 1000 and 2000 ms');
    // a normal booking at 1500 ms raises the levels from 1500 ms on, none before
    expectBooked(await limiter.checkRates(pair(a, d, EVERY_1500_MS), { maxWaitMs: 5000 }), t0, 1500, 'normal a 1 + d 1');
    await expectRoom(limiter, a, 'critical', 2, 1801, 'a after the booking at 1500 ms');
    await clock.advance(1200);
    await expectRoom(limiter, a, 'critical', 4, 801, 'a at 1200 ms');
  }),
  test('RL-Q3', 'a booking after the others that fills the bucket higher raises the bound on every level ahead', CLASSES, async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    const t0 = clock.now();
    await spend(limiter, b, EVERY_1100_MS, 1, 'b: its one token (the next at 1100 ms)');
    await bulkAhead(limiter, a, t0, 10);
    // a holds 8 up to 1000 ms, 7 at 1100 ms; a normal booking of 2.5 then takes it to 9.5
    const normal = [
      { key: a, limit: TEN_PER_SECOND, cost: 2.5 },
      { key: b, limit: EVERY_1100_MS, cost: 1 },
    ];
    expectBooked(await limiter.checkRates(normal, { maxWaitMs: 5000 }), t0, 1100, 'normal a 2.5 + b 1: booked at 1100 ms');
    await expectRoom(limiter, a, 'critical', 0.5, 1101, 'a with 9.5 ahead at 1100 ms');
    limiter.record(a, 0.3);
    await landed();
    await expectRoom(limiter, a, 'critical', 0.2, 1101, 'a after a record of 0.3');
  }),
  test('RL-Q2', 'a booking of a higher class between lower bookings holds back its class from its send time', CLASSES, async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    const t0 = clock.now();
    await spend(limiter, b, EVERY_HALF_S, 1, 'b: its one token (the next at 500 ms)');
    await bulkAhead(limiter, a, t0, 10);
    expectBooked(
      await limiter.checkRates(pair(a, b, EVERY_HALF_S), { priority: 'critical', maxWaitMs: 5000 }),
      t0,
      500,
      'critical a 1 + b 1: booked at 500 ms',
    );
    for (const priority of ['critical', 'normal'] as const) {
      expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority }), 500, `${priority} 1: right after the critical booking`);
      expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 + OVER }], { priority }), 1001, `${priority} 1.01: no room at 500 ms either`);
    }
    await clock.advance(150);
    expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'critical' }), 350, 'critical 1 at 150 ms');
    expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 + OVER }], { priority: 'critical' }), 851, 'critical 1.01 at 150 ms');
  }),
  test('RL-Q2', 'bookings of a class made behind lower bookings hold back later calls of that class in booking order', CLASSES, async ({ limiter, clock }) => {
    // after the booking of `priority` at 1000 ms: [critical, normal, bulk] peeks of 1 (at once, or the wait in ms)
    const expected = { critical: [300, 300, 500], normal: [0, 300, 500] } as const;
    for (const priority of ['critical', 'normal'] as const) {
      const a = key({ axis: `a-${priority}` });
      const b = key({ axis: `b-${priority}` });
      const t0 = clock.now();
      await spend(limiter, b, EVERY_SECOND, 1, 'b: its one token (the next at 1000 ms)');
      await bulkAhead(limiter, a, t0, 3);
      expectBooked(await limiter.checkRates(pair(a, b, EVERY_SECOND), { priority, maxWaitMs: 5000 }), t0, 1000, `${priority} a 1 + b 1: booked at 1000 ms`);
      for (const [i, q] of (['critical', 'normal', 'bulk'] as const).entries()) {
        const wait = expected[priority][i] as number;
        const d = await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority: q });
        if (wait === 0) expectOkNow(d, `after a ${priority} booking: ${q} 1`);
        else expectDelay(d, wait, `after a ${priority} booking: ${q} 1`);
      }
      // a booking at its GCRA time, before the one at 1000 ms: the next call of the class still goes after both
      expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority, maxWaitMs: 5000 }), t0, 300, `${priority} 1 booked at 300 ms`);
      expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority }), 400, `${priority} 1 after it`);
      await clock.advance(5000);
    }
  }),
  test('RL-A7', 'behind a booking of its class, a cost short of its GCRA time by less than the tolerance goes now', CLASSES, async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    const t0 = clock.now();
    await spend(limiter, b, EVERY_SECOND, 1, 'b: its one token (the next at 1000 ms)');
    await spend(limiter, a, TEN_PER_SECOND, 9, 'a: 9 of 10 at once');
    expectBooked(await limiter.checkRates(pair(a, b, EVERY_SECOND), { priority: 'critical', maxWaitMs: 5000 }), t0, 1000, 'critical a 1 + b 1');
    expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'critical' }), 200, 'critical 1 on a');
    await clock.advance(200 - 5e-6);
    expectDelay(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'critical' }), 1, 'critical 1, 5e-6 ms short');
    await clock.advance(5e-6 - 5e-7);
    expectOkNow(await limiter.peek([{ key: a, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'critical' }), 'critical 1, 5e-7 ms short', clock.now());
  }),
];

/** A call of 1 on `a` (TEN_PER_SECOND) and on `b` (`slow`, the bottleneck that sets the send time). */
function pair(a: BucketKey, b: BucketKey, slow: Limit): BucketCheck[] {
  return [
    { key: a, limit: TEN_PER_SECOND, cost: 1 },
    { key: b, limit: slow, cost: 1 },
  ];
}
