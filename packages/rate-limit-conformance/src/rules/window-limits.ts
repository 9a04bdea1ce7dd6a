import type { BucketCheck, Decision, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import {
  expectBorrowed,
  expectClose,
  expectDelay,
  expectEqual,
  expectError,
  expectOk,
  expectOkNow,
  expectSnapshot,
  expectTrue,
  fail,
  show,
} from '../expect.js';
import {
  TEN_PER_SECOND,
  TEN_PER_WINDOW,
  answeredAtOnce,
  expectBookedWithin,
  expectDelayWithin,
  expectPending,
  key,
  settled,
  slackOf,
  spend,
  startWait,
} from './fixtures.js';

/** The needs of every window test: exact waits on the manual clock, and window limits offered. */
const WINDOWS = ['injectableClock', 'windowLimits'] as const;

/** 3 in any 1000 ms of send times, no jitter: a rolling window frees each send's room 1000 ms after it. */
const THREE_PER_SECOND_WINDOW: Limit = { perWindow: 3, windowMs: 1000, jitterMs: 0 };

/** What the tests below expect of a window's waits: the exact wait, plus up to the slack of the limiter's resolution (RL-V6). */

export const WINDOW_LIMITS: readonly ConformanceTest[] = [
  test(
    'RL-V1',
    'after a burst of perWindow the next send waits at least windowMs + jitterMs, and at most 2·windowMs/K more; then perWindow at once again',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      // bursts at several offsets, so that a limiter counting in slots meets one late in its slot
      for (const [i, offset] of [7, 15.5, 3.9].entries()) {
        const k = key({ axis: `orders-${i}` });
        await clock.advance(offset);
        for (let n = 0; n < 10; n++) await spend(limiter, k, TEN_PER_WINDOW, 1, `send #${n + 1} of 10`);
        const wait = expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, slack, `the 11th, burst ${i + 1}`);
        expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after ten');
        expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 0), 'cost 0 on the full window (RL-A2)', clock.now());
        await clock.advance(wait - 1);
        expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1, `the 11th, 1 ms before the wait it was told`);
        await clock.advance(1);
        expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 'cost 10 once the ten left the window', clock.now());
        expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, slack, 'the next one');
      }
    },
  ),
  test(
    'RL-V1',
    "a rolling window frees each send's room one window after it, never by a steady refill",
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, THREE_PER_SECOND_WINDOW);
      const k = key({ axis: 'rolling' });
      await spend(limiter, k, THREE_PER_SECOND_WINDOW, 1, 'the send at 0 ms');
      await clock.advance(300);
      await spend(limiter, k, THREE_PER_SECOND_WINDOW, 1, 'the send at 300 ms');
      await clock.advance(300);
      await spend(limiter, k, THREE_PER_SECOND_WINDOW, 1, 'the send at 600 ms');
      await clock.advance(100);
      expectDelayWithin(await limiter.checkRate(k, THREE_PER_SECOND_WINDOW, 1), 300, slack, 'cost 1 at 700 ms: the send at 0 ms leaves at 1000 ms');
      expectDelayWithin(await limiter.checkRate(k, THREE_PER_SECOND_WINDOW, 2), 600, slack, 'cost 2 at 700 ms: room for 2 once the send at 300 ms leaves');
      expectDelayWithin(await limiter.checkRate(k, THREE_PER_SECOND_WINDOW, 3), 900, slack, 'cost 3 at 700 ms: room once all three leave');
    },
  ),
  test(
    'RL-V1',
    'the jitter widens the window over send times: sends one window apart wait out the jitter too',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'jitter' });
      const twoPerSecond: Limit = { perWindow: 2, windowMs: 1000, jitterMs: 200 };
      await spend(limiter, k, twoPerSecond, 2, 'two at 0 ms');
      await clock.advance(1000);
      // sent at 1000 ms, a request may arrive at 1000 ms, when the two sent at 0 ms may have arrived at 200 ms
      const wait = expectDelayWithin(
        await limiter.checkRate(k, twoPerSecond, 1),
        200,
        slackOf(capabilities, twoPerSecond),
        'cost 1 one window later, with 200 ms of jitter',
      );
      await clock.advance(wait);
      await spend(limiter, k, twoPerSecond, 2, 'two one window plus the jitter later');
    },
  ),
  test('RL-V1', 'fractional costs are counted exactly in a window', [...WINDOWS, 'fractionalCosts'], async ({ limiter, capabilities }) => {
    const k = key({ venue: 'binance', credential: null, axis: 'sapi_window' });
    const limit: Limit = { perWindow: 1, windowMs: 500 };
    for (let i = 0; i < 4; i++) expectOkNow(await limiter.checkRate(k, limit, 0.25), `0.25 #${i + 1}`);
    expectBorrowed(await limiter.borrowed(k), 1, 'borrowed after 4 × 0.25');
    expectDelayWithin(await limiter.checkRate(k, limit, 0.25), 500, slackOf(capabilities, limit), 'a fifth 0.25');
    expectDelayWithin(await limiter.checkRate(k, limit, 0.1), 500, slackOf(capabilities, limit), 'a 0.1');
  }),
  test('RL-V1', 'fifty concurrent probes on a window admit exactly perWindow', [...WINDOWS], async ({ limiter }) => {
    const k = key({ axis: 'burst' });
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.checkRate(k, TEN_PER_WINDOW, 1)));
    const admitted = decisions.filter((d) => d.kind === 'ok').length;
    expectTrue(admitted === 10, `${admitted} of 50 concurrent probes were admitted on a window of 10`);
    expectTrue(
      decisions.every((d) => d.kind === 'ok' || d.kind === 'delay'),
      `unexpected answers: ${show(decisions.filter((d) => d.kind === 'error'))}`,
    );
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after the burst');
  }),
  test(
    'RL-V1',
    'a window is one for every limiter sharing the store',
    [...WINDOWS, 'bookings', 'distributed', 'peer'],
    async ({ limiter, clock, peer, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const other = await peer();
      const k = key({ axis: 'shared' });
      await spend(limiter, k, TEN_PER_WINDOW, 6, 'six through one limiter');
      await spend(other, k, TEN_PER_WINDOW, 4, 'four through the other');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, slack, 'cost 1 through the first');
      expectBookedWithin(await other.checkRate(k, TEN_PER_WINDOW, 10, { maxWaitMs: 2000 }), clock.now(), 1050, slack, 'a booking of 10 through the other');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 2100, 2 * slack, 'cost 1 through the first, behind that booking');
    },
  ),
  test(
    'RL-V2',
    'a probe answers the wait to the earliest time the cost is admitted, and changes nothing',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'earliest' });
      await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
      await clock.advance(200);
      await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 200 ms');
      await clock.advance(200);
      await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 400 ms');
      await clock.advance(100);
      // at 1050 ms the 4 leave (6 left, no room for 5); at 1250 ms the first 3 leave (3 left)
      const wait = expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 5), 750, slack, 'cost 5 at 500 ms');
      for (let i = 0; i < 2; i++) expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 5), wait, `cost 5 at 500 ms again (#${i + 2})`);
      expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_WINDOW, cost: 5 }]), wait, 'peek cost 5 at 500 ms');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 550, slack, 'cost 1 at 500 ms: room once the 4 leave at 1050 ms');
      expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after the refused probes');
      await clock.advance(wait - 1);
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 5), 1, 'cost 5, 1 ms before the wait it was told');
      await clock.advance(1);
      await spend(limiter, k, TEN_PER_WINDOW, 5, 'cost 5 at the wait it was told');
    },
  ),
  test(
    'RL-V2',
    'a booking reserves the earliest time the limiter admits the cost: ten at once, the 11th booked one window plus the jitter later',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'booked' });
      await spend(limiter, k, TEN_PER_WINDOW, 10, 'ten at once');
      const t0 = clock.now();
      const first = await limiter.checkRate(k, TEN_PER_WINDOW, 1, { maxWaitMs: 2000 });
      const wait = expectBookedWithin(first, t0, 1050, slack, 'the 11th, with a budget');
      expectBookedWithin(
        await limiter.checkRates([{ key: k, limit: TEN_PER_WINDOW, cost: 9 }], { maxWaitMs: 2000 }),
        t0,
        wait,
        0,
        'nine more for the same time',
      );
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 2100, 2 * slack, 'cost 1 behind the ten booked');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { maxWaitMs: 1000 }), 2100, 2 * slack, 'cost 1 with a budget too short: nothing booked');
      await clock.advance(wait);
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, slack, 'cost 1 at the booked send time');
    },
  ),
  test(
    'RL-V2',
    'bookings ahead close the times whose windows they fill; a later call fits before them where room is left',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'ahead' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 6, 'cost 6 at 0 ms');
      expectBookedWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 8, { maxWaitMs: 5000 }), t0, 1050, slack, 'a booking of 8 (room once the 6 leave)');
      await clock.advance(500);
      // a send at 500 ms shares its windows with the booking or with the 6, never with both: room for 2 beside them
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 'cost 1 at 500 ms, beside the booking', clock.now());
      expectDelayWithin(
        await limiter.checkRate(k, TEN_PER_WINDOW, 3),
        1600,
        2 * slack,
        'cost 3 at 500 ms never takes what the booking holds: it waits until the booking leaves',
      );
      expectBorrowed(await limiter.borrowed(k), 9, 'borrowed: the windows of the booking hold it and the send at 500 ms');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 'a second cost 1 at 500 ms: those windows then hold 10', clock.now());
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), undefined, 'a third');
    },
  ),
  test('RL-V2', 'waitForCapacity on a window resolves ok at its send time, not before', [...WINDOWS, 'bookings'], async ({ limiter, clock, capabilities }) => {
    const slack = slackOf(capabilities, TEN_PER_WINDOW);
    const k = key({ axis: 'waiter' });
    await spend(limiter, k, TEN_PER_WINDOW, 10);
    const t0 = clock.now();
    const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_WINDOW, cost: 2 }], { maxWaitMs: 2000 });
    await clock.advance(1049);
    expectPending(waiter, 'the waiter 1 ms before the window and the jitter have passed');
    while (!waiter.done && clock.now() - t0 < 1050 + slack + 2) await clock.advance(1);
    const d = expectOk(await settled(waiter, 'the waiter at its send time'), 'the waiter');
    expectTrue(
      d.sendAtMs >= t0 + 1050 - 1e-6 && d.sendAtMs <= t0 + 1050 + slack + 1e-6,
      `the waiter's sendAtMs ${d.sendAtMs - t0} ms after the ten, expected 1050 to ${1050 + slack}`,
    );
    expectTrue(
      clock.now() >= d.sendAtMs - 1e-6 && clock.now() < d.sendAtMs + 1,
      `the waiter resolved at ${clock.now() - t0} ms, its send time ${d.sendAtMs - t0} ms`,
    );
  }),
  test(
    'RL-V2',
    'a wait beyond the budget books nothing on a window: delay, or rate_limit_timeout naming the wait',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'budget' });
      await spend(limiter, k, TEN_PER_WINDOW, 10);
      const timers = clock.pendingTimers;
      const wait = expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { maxWaitMs: 1000 }), 1050, slack, 'checkRate with a 1000 ms budget');
      const e = expectError(
        await answeredAtOnce(limiter, clock, [{ key: k, limit: TEN_PER_WINDOW, cost: 1 }], { maxWaitMs: 1000 }, 'waitForCapacity'),
        'rate_limit_timeout',
        'waitForCapacity with a 1000 ms budget',
      );
      expectEqual(e.error.retryAfterMs, wait, 'retryAfterMs of the timeout');
      expectEqual(clock.pendingTimers, timers, 'pending timers after the timeout');
      // had anything been booked, cost 10 would wait for it to leave too
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 10), wait, 'cost 10 after the refusals');
    },
  ),
  test(
    'RL-V2',
    'an aborted window waiter returns its booking when nothing was written after it, and forfeits it otherwise',
    [...WINDOWS, 'bookings', 'abortSignal'],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const kept = key({ axis: 'returned' });
      await spend(limiter, kept, TEN_PER_WINDOW, 10);
      const before = expectDelayWithin(await limiter.checkRate(kept, TEN_PER_WINDOW, 6), 1050, slack, 'cost 6 on the full window');
      const first = new AbortController();
      const returned = await startWait(limiter, clock, [{ key: kept, limit: TEN_PER_WINDOW, cost: 5 }], { maxWaitMs: 2000, signal: first.signal });
      expectDelayWithin(await limiter.checkRate(kept, TEN_PER_WINDOW, 6), 2100, 2 * slack, 'cost 6 behind the waiter');
      first.abort();
      expectError(await settled(returned, 'the aborted waiter'), 'aborted', 'the aborted waiter');
      expectDelay(await limiter.checkRate(kept, TEN_PER_WINDOW, 6), before, 'cost 6 once the booking is returned');
      const lost = key({ axis: 'forfeited' });
      await spend(limiter, lost, TEN_PER_WINDOW, 10);
      const second = new AbortController();
      const forfeited = await startWait(limiter, clock, [{ key: lost, limit: TEN_PER_WINDOW, cost: 5 }], { maxWaitMs: 2000, signal: second.signal });
      expectBookedWithin(await limiter.checkRate(lost, TEN_PER_WINDOW, 1, { maxWaitMs: 5000 }), clock.now(), 1050, slack, 'a booking of 1 beside the waiter');
      second.abort();
      expectError(await settled(forfeited, 'the aborted waiter with a booking after it'), 'aborted', 'the aborted waiter with a booking after it');
      expectDelayWithin(await limiter.checkRate(lost, TEN_PER_WINDOW, 5), 2100, 2 * slack, 'cost 5 once the booking is forfeited (6 still held)');
    },
  ),
  test(
    'RL-V3',
    'a cost above perWindow is cost_unpayable, naming the window, the path, the venue and the axis; never a delay',
    [...WINDOWS],
    async ({ limiter, clock }) => {
      const k = key({ credential: null, axis: 'orders-window' });
      const other = key({ credential: null, axis: 'ip' });
      const single: [string, Decision][] = [
        ['checkRate', await limiter.checkRate(k, TEN_PER_WINDOW, 11)],
        ['checkRate with a budget', await limiter.checkRate(k, TEN_PER_WINDOW, 11, { maxWaitMs: 60_000 })],
      ];
      const timersBefore = clock.timersCreated;
      single.push([
        'waitForCapacity',
        await answeredAtOnce(limiter, clock, [{ key: k, limit: TEN_PER_WINDOW, cost: 11 }], { maxWaitMs: 60_000 }, 'waitForCapacity'),
      ]);
      expectTrue(clock.timersCreated === timersBefore, 'waitForCapacity started a timer for a cost that can never be paid');
      for (const [what, answer] of single) {
        const e = expectError(answer, 'cost_unpayable', `${what}: cost 11 on a window of 10`);
        expectTrue(/window/i.test(e.error.message), `${what}: the message does not say it is a window: ${show(e.error.message)}`);
        expectTrue(
          e.error.message.includes('alpha') && e.error.message.includes('orders-window'),
          `${what}: the message does not name the venue and axis: ${show(e.error.message)}`,
        );
      }
      const pair: BucketCheck[] = [
        { key: other, limit: TEN_PER_SECOND, cost: 1 },
        { key: k, limit: TEN_PER_WINDOW, cost: 11 },
      ];
      for (const [what, answer] of [
        ['checkRates', await limiter.checkRates(pair)],
        ['checkRates with a budget', await limiter.checkRates(pair, { maxWaitMs: 1000 })],
        ['peek', await limiter.peek(pair)],
        ['waitForCapacity', await answeredAtOnce(limiter, clock, pair, { maxWaitMs: 1000 }, 'waitForCapacity')],
      ] as const) {
        expectEqual(
          expectError(answer, 'cost_unpayable', `${what}: cost 11 on a window of 10, second in the call`).error.path,
          'checks[1]',
          `${what}: error.path`,
        );
      }
      expectBorrowed(await limiter.borrowed(other), 0, 'the other bucket of the refused calls');
      expectBorrowed(await limiter.borrowed(k), 0, 'the window after the refusals');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 'cost 10, exactly perWindow, on the empty window', clock.now());
    },
  ),
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
];
