import type { Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import {
  expectBorrowed,
  expectClose,
  expectDelay,
  expectDone,
  expectEqual,
  expectError,
  expectOkNow,
  expectSnapshot,
  expectTrue,
  fail,
  show,
} from '../expect.js';
import {
  TEN_PER_SECOND,
  TEN_PER_WINDOW,
  WINDOWS,
  answeredAtOnce,
  expectBookedWithin,
  expectDelayWithin,
  expectZeroCostAdmitted,
  key,
  landed,
  slackOf,
  spend,
} from './fixtures.js';

/** The needs of every window test: exact waits on the manual clock, and window limits offered. */

/** Window limits under the rules of other sections (RL-L3, RL-L5, RL-I1, RL-I3), and their utilization (RL-V6). */
export const WINDOW_CASES: readonly ConformanceTest[] = [
  test('RL-L3', 'an invalid window limit is refused with invalid_parameters and nothing changes', [...WINDOWS], async ({ limiter, clock }) => {
    const k = key({ axis: 'bad-window' });
    await spend(limiter, k, TEN_PER_WINDOW, 4);
    const bad: unknown[] = [
      { perWindow: 0, windowMs: 1000 },
      { perWindow: -1, windowMs: 1000 },
      { perWindow: Number.NaN, windowMs: 1000 },
      { perWindow: Number.POSITIVE_INFINITY, windowMs: 1000 },
      { perWindow: '10', windowMs: 1000 },
      { perWindow: 10, windowMs: 0 },
      { perWindow: 10, windowMs: -1000 },
      { perWindow: 10, windowMs: Number.NaN },
      { perWindow: 10, windowMs: 1000, jitterMs: -1 },
      { perWindow: 10, windowMs: 1000, jitterMs: Number.POSITIVE_INFINITY },
      { perWindow: 10 },
      { windowMs: 1000 },
      { perWindow: 10, windowMs: 1000, capacity: 10 },
      { perWindow: 10, windowMs: 1000, requests: 10 },
    ];
    for (const limit of bad) {
      expectError(await limiter.checkRate(k, limit as Limit, 1), 'invalid_parameters', `checkRate with limit ${show(limit)}`);
      expectError(
        await limiter.checkRates([
          { key: key({ axis: 'other' }), limit: TEN_PER_WINDOW, cost: 1 },
          { key: k, limit: limit as Limit, cost: 1 },
        ]),
        'invalid_parameters',
        `checkRates with limit ${show(limit)}`,
      );
      expectError(
        await answeredAtOnce(limiter, clock, [{ key: k, limit: limit as Limit, cost: 1 }], { maxWaitMs: 1000 }, 'waitForCapacity'),
        'invalid_parameters',
        `waitForCapacity with limit ${show(limit)}`,
      );
    }
    expectBorrowed(await limiter.borrowed(k), 4, 'borrowed after the refused limits');
    expectBorrowed(await limiter.borrowed(key({ axis: 'other' })), 0, 'the other bucket of a refused checkRates');
    await spend(limiter, k, { perWindow: 10, windowMs: 1000, jitterMs: 50 }, 6, 'the rest of the window, under its own definition');
  }),
  test(
    'RL-L5',
    'a change between a token bucket and a window limit keeps what was borrowed, both ways',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const toWindow = key({ axis: 'to-window' });
      await spend(limiter, toWindow, TEN_PER_SECOND, 7, 'cost 7 on a token bucket');
      // the 7 borrowed count as sent now in the window
      expectDelayWithin(await limiter.checkRate(toWindow, TEN_PER_WINDOW, 4), 1050, slackOf(capabilities, TEN_PER_WINDOW), 'cost 4 under a window limit');
      expectBorrowed(await limiter.borrowed(toWindow), 7, 'borrowed after the refused probe (no definition rewritten, RL-A3)');
      await spend(limiter, toWindow, TEN_PER_WINDOW, 3, 'cost 3 under the window limit');
      expectBorrowed(await limiter.borrowed(toWindow), 10, 'borrowed under the window limit');
      const toToken = key({ axis: 'to-token' });
      await spend(limiter, toToken, TEN_PER_WINDOW, 6, 'cost 6 on a window limit');
      await clock.advance(200);
      // the window still holds 6: borrowed 6 under the token bucket, a token every 100 ms
      expectDelay(await limiter.checkRate(toToken, TEN_PER_SECOND, 5), 100, 'cost 5 under a token bucket, 200 ms later');
      await spend(limiter, toToken, TEN_PER_SECOND, 4, 'cost 4 under the token bucket');
      expectBorrowed(await limiter.borrowed(toToken), 10, 'borrowed under the token bucket');
      const otherWindow = key({ axis: 'window-to-window' });
      await spend(limiter, otherWindow, TEN_PER_WINDOW, 6, 'cost 6 on a window of 1000 ms');
      const longer: Limit = { perWindow: 8, windowMs: 2000 };
      expectDelayWithin(
        await limiter.checkRate(otherWindow, longer, 3),
        2000,
        slackOf(capabilities, longer),
        'cost 3 under 8 per 2000 ms: the 6 count for 2000 ms',
      );
      await spend(limiter, otherWindow, longer, 2, 'cost 2 under 8 per 2000 ms');
      expectBorrowed(await limiter.borrowed(otherWindow), 8, 'borrowed under 8 per 2000 ms');
    },
  ),
  test(
    'RL-I1',
    'borrowed of a window limit is the most any window from now on holds, bookings included',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'held' });
      expectBorrowed(await limiter.borrowed(k), 0, 'an unknown window bucket');
      await spend(limiter, k, TEN_PER_WINDOW, 4);
      await clock.advance(1000);
      expectBorrowed(await limiter.borrowed(k), 4, 'borrowed 1000 ms later: a window holds its sends for a whole span');
      await clock.advance(Math.ceil(50 + slack));
      expectBorrowed(await limiter.borrowed(k), 0, 'borrowed once the span passed');
      const ahead = key({ axis: 'booked-ahead' });
      await spend(limiter, ahead, TEN_PER_WINDOW, 2);
      expectBookedWithin(await limiter.checkRate(ahead, TEN_PER_WINDOW, 10, { maxWaitMs: 2000 }), clock.now(), 1050, slack, 'a booking of 10');
      expectBorrowed(await limiter.borrowed(ahead), 10, 'borrowed: 2 in the window now, 10 in the window of the booking');
    },
  ),
  test(
    'RL-V6',
    'in steady saturation on a rolling window the limiter admits at least its stated utilization, and never more than perWindow in a window',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const limits: { perWindow: number; windowMs: number; jitterMs: number }[] = [
        { perWindow: 10, windowMs: 1000, jitterMs: 50 },
        { perWindow: 8, windowMs: 1000, jitterMs: 250 },
        { perWindow: 30, windowMs: 2000, jitterMs: 10 },
      ];
      for (const [i, limit] of limits.entries()) {
        const k = key({ axis: `saturated-${i}` });
        const { windowMs: W, jitterMs: J, perWindow } = limit;
        const K = capabilities.windowSlots;
        const u = K === undefined ? W / (W + J) : K / (Math.ceil(K * (1 + J / W)) + 1);
        const t0 = clock.now();
        const duration = 20 * W;
        const sent: number[] = [];
        while (clock.now() - t0 < duration) {
          if (sent.length > 2 * perWindow * (duration / W)) fail(`${show(limit)}: ${sent.length} admitted in ${clock.now() - t0} ms (RL-V1)`);
          const d = await limiter.checkRate(k, limit, 1);
          if (d.kind === 'ok') sent.push(clock.now());
          else if (d.kind === 'delay') await clock.advance(d.retryAfterMs);
          else fail(`a send on ${show(limit)}: ${show(d)}`);
        }
        const admitted = sent.filter((t) => t < t0 + duration).length;
        const least = Math.floor(u * perWindow * (duration / W)) - perWindow;
        expectTrue(
          admitted >= least,
          `${show(limit)}: ${admitted} admitted in ${duration} ms of saturation, at least ${least} expected (utilization ${u.toFixed(4)})`,
        );
        for (const t of sent) {
          const inside = sent.filter((x) => x > t - W - J && x <= t).length;
          expectTrue(inside <= perWindow, `${show(limit)}: ${inside} sends in the ${W + J} ms ending at ${t - t0} ms (RL-V1)`);
        }
      }
    },
  ),
  test(
    'RL-V6',
    'with bookings too, a saturated window limit keeps its utilization: waiters spaced by the window, each booking admitted at its time',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'saturated-bookings' });
      const limit = TEN_PER_WINDOW;
      const K = capabilities.windowSlots;
      const u = K === undefined ? 1000 / 1050 : K / (Math.ceil(K * 1.05) + 1);
      const t0 = clock.now();
      let last = t0;
      let booked = 0;
      // book cost 1 after cost 1 until the bookings reach 20 windows ahead
      while (last - t0 < 20_000) {
        if (booked > 400) fail(`${booked} booked before ${last - t0} ms: more than 10 per window (RL-V1)`);
        const d = await limiter.checkRate(k, limit, 1, { maxWaitMs: 60_000 });
        if (d.kind !== 'ok' && d.kind !== 'booked') fail(`booking #${booked + 1}: ${show(d)}`);
        last = d.sendAtMs;
        booked++;
      }
      const least = Math.floor(u * 10 * ((last - t0) / 1000)) - 10;
      expectTrue(booked >= least, `${booked} booked in ${last - t0} ms, at least ${least} expected (utilization ${u.toFixed(4)})`);
    },
  ),
  test(
    'RL-I3',
    'a snapshot shows a window limit with its windowMs, capacity perWindow, its long-run rate and what it holds',
    [...WINDOWS, 'snapshot'],
    async ({ limiter }) => {
      await spend(limiter, key({ axis: 'window' }), TEN_PER_WINDOW, 4);
      await spend(limiter, key({ axis: 'token' }), TEN_PER_SECOND, 3);
      const snapshot = expectSnapshot(await limiter.snapshot(), 'snapshot');
      const window = snapshot.find((b) => b.venue === 'alpha' && b.axis === 'window');
      const token = snapshot.find((b) => b.venue === 'alpha' && b.axis === 'token');
      expectTrue(window !== undefined && token !== undefined, `expected both buckets in ${show(snapshot)}`);
      expectEqual(window.windowMs, 1000, 'windowMs of the window limit');
      expectEqual(window.capacity, 10, 'capacity of the window limit (perWindow)');
      expectClose(window.refillPerSec, 10, 'refillPerSec of the window limit (10 per 1000 ms)');
      expectClose(window.borrowed, 4, 'borrowed of the window limit');
      expectClose(window.tokens, 6, 'tokens of the window limit');
      expectEqual(token.windowMs, undefined, 'windowMs of a token bucket');
    },
  ),
  test(
    'RL-I3',
    'a snapshot counts a window limit’s sends in the window ending now, bookings ahead left out, and drops it once nothing counts',
    [...WINDOWS, 'bookings', 'snapshot'],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'counted' });
      const limit: Limit = { perWindow: 10, windowMs: 1000 };
      const slack = slackOf(capabilities, limit);
      const counted = async (expected: number, what: string): Promise<void> => {
        const snapshot = expectSnapshot(await limiter.snapshot(), what);
        const row = snapshot.find((b) => b.venue === 'alpha' && b.axis === 'counted');
        if (row === undefined) fail(`${what}: the window limit is missing from ${show(snapshot)}`);
        // counted is optional: a limiter that shows it shows the cost of the window ending now
        if (row.counted !== undefined) expectClose(row.counted, expected, `${what}: counted`);
      };
      await spend(limiter, k, limit, 3, '3 at 0 ms');
      await clock.advance(500);
      await spend(limiter, k, limit, 7, '7 at 500 ms');
      // full: the next send goes when the 3 sent at 0 ms leave, at 1000 ms
      expectBookedWithin(await limiter.checkRate(k, limit, 1, { maxWaitMs: 2000 }), clock.now(), 500, slack, 'a booking of 1');
      await counted(10, 'at 500 ms, the booking ahead');
      await clock.advance(600);
      await counted(8, 'at 1100 ms: the 7 and the booking sent by then');
      await clock.advance(500);
      await counted(1, 'at 1600 ms: the booking alone');
      await clock.advance(2000);
      const snapshot = expectSnapshot(await limiter.snapshot(), 'at 3600 ms');
      expectTrue(!snapshot.some((b) => b.venue === 'alpha' && b.axis === 'counted'), `a window limit nothing counts in any more is listed: ${show(snapshot)}`);
    },
  ),
  test(
    'RL-L5',
    'a window limit that redefines a bucket after its hold ended takes over what it borrowed, and no hold',
    [...WINDOWS, 'penalize'],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'after-hold' });
      await spend(limiter, k, TEN_PER_SECOND, 1);
      expectDone(await limiter.penalize(k, { forMs: 1000 }), 'penalize for 1000 ms');
      await clock.advance(1100);
      // empty at 1000 ms, 1 token back by 1100 ms: 9 borrowed carry over, counted as sent now
      expectBorrowed(await limiter.borrowed(k), 9, 'borrowed 100 ms after the hold');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 'cost 1 under a window limit: the hold is over', clock.now());
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, slackOf(capabilities, TEN_PER_WINDOW), 'the next cost 1: the window full');
    },
  ),
  test(
    'RL-I3',
    'counted leaves out what was sent more than windowMs ago, though jitterMs keeps it in borrowed',
    [...WINDOWS, 'snapshot'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'counted-jitter' });
      await spend(limiter, k, TEN_PER_WINDOW, 3, '3 at 0 ms');
      await clock.advance(500);
      await spend(limiter, k, TEN_PER_WINDOW, 2, '2 at 500 ms');
      await clock.advance(520);
      // at 1020 ms the window (20, 1020] holds the 2; the 3 sent at 0 ms may still reach the venue late
      const row = expectSnapshot(await limiter.snapshot(), 'snapshot at 1020 ms').find((b) => b.venue === 'alpha' && b.axis === 'counted-jitter');
      if (row === undefined) fail('the window limit is missing from the snapshot at 1020 ms');
      expectClose(row.borrowed, 5, 'borrowed at 1020 ms');
      if (row.counted !== undefined) expectClose(row.counted, 2, 'counted at 1020 ms');
    },
  ),
  test(
    'RL-I3',
    'a snapshot drops a window limit that held only others’ reported use once that use left',
    [...WINDOWS, 'sync', 'snapshot'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'reported-only' });
      expectDone(await limiter.sync(k, TEN_PER_WINDOW, 3), 'sync 3 on a window limit never used');
      const listed = async (): Promise<boolean> =>
        expectSnapshot(await limiter.snapshot(), 'snapshot').some((b) => b.venue === 'alpha' && b.axis === 'reported-only');
      expectTrue(await listed(), 'the window limit holding the 3 reported is missing from the snapshot');
      await clock.advance(3000);
      expectTrue(!(await listed()), 'a window limit nothing counts in any more is listed');
    },
  ),
  test(
    'RL-R1',
    'a record without a limit on a bucket never defined counts as sent when a window limit defines it',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'window-debt' });
      const limit: Limit = { perWindow: 10, windowMs: 1000 };
      limiter.record(k, 4);
      await landed();
      await clock.advance(300);
      await spend(limiter, k, limit, 6, 'the 6 the recorded 4 leave of the window');
      expectDelayWithin(await limiter.checkRate(k, limit, 1), 1000, slackOf(capabilities, limit), 'cost 1 with the window full');
      expectBorrowed(await limiter.borrowed(k), 10, 'borrowed: the record of 4 and the 6 spent');
    },
  ),
  test(
    'RL-A7',
    'a window limit’s tolerance is a billionth of perWindow: a cost above it by less is paid, by more is cost_unpayable',
    [...WINDOWS, 'fractionalCosts'],
    async ({ limiter }) => {
      const limit: Limit = { perWindow: 1e6, windowMs: 1000 };
      // the tolerance is 1e-3: half of it over perWindow still fits an empty window, five times it never does
      expectOkNow(await limiter.checkRate(key({ axis: 'within' }), limit, 1e6 + 5e-4), 'cost perWindow + 5e-4 on an empty window');
      expectError(await limiter.checkRate(key({ axis: 'beyond' }), limit, 1e6 + 5e-3), 'cost_unpayable', 'cost perWindow + 5e-3');
    },
  ),
  test('RL-A2', 'cost 0 is admitted at once on a window in debt or under a penalty', [...WINDOWS, 'penalize'], async ({ limiter, clock }) => {
    const recorded = key({ axis: 'window-in-debt' });
    limiter.record(recorded, 15, TEN_PER_WINDOW);
    await landed();
    await expectZeroCostAdmitted(limiter, clock, recorded, TEN_PER_WINDOW, 15, 'a window of 10 with 15 recorded');
    const held = key({ axis: 'window-held' });
    await spend(limiter, held, TEN_PER_WINDOW, 1);
    expectDone(await limiter.penalize(held, { forMs: 2000 }), 'penalize the window for 2000 ms');
    await expectZeroCostAdmitted(limiter, clock, held, TEN_PER_WINDOW, 10, 'a held window');
  }),
  test(
    'RL-A7',
    'a window that reopens up to 1e15 ms ahead answers a delay, never cost_unpayable',
    [...WINDOWS, 'penalize'],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'window-horizon' });
      // slots of 10 ms for a limiter that keeps 128 a window: the hold's end and the window after it fill the horizon
      const limit: Limit = { perWindow: 1, windowMs: 1280 };
      const reopens = 1e15 - 10;
      expectDone(await limiter.penalize(k, { untilMs: clock.now() + reopens - 1280 }), 'penalize until one window before the horizon');
      const slack = Math.min(slackOf(capabilities, limit), 1e15 - reopens);
      expectDelayWithin(await limiter.checkRate(k, limit, 1), reopens, slack, 'checkRate of cost 1');
      expectDelayWithin(await limiter.peek([{ key: k, limit, cost: 1 }]), reopens, slack, 'peek of cost 1');
    },
  ),
];
