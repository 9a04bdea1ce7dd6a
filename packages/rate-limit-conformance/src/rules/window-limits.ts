import type { BucketCheck, Decision, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import {
  expectBooked,
  expectBorrowed,
  expectClose,
  expectDelay,
  expectEqual,
  expectError,
  expectOk,
  expectOkNow,
  expectSnapshot,
  expectTrue,
  show,
} from '../expect.js';
import { TEN_PER_SECOND, TEN_PER_WINDOW, answeredAtOnce, expectPending, key, settled, spend, startWait } from './fixtures.js';

/** The needs of every window test: exact waits on the manual clock, and window limits offered. */
const WINDOWS = ['injectableClock', 'windowLimits'] as const;

/** 3 in any 1000 ms of send times, no jitter: a rolling window frees each send's room 1000 ms after it. */
const THREE_PER_SECOND_WINDOW: Limit = { perWindow: 3, windowMs: 1000, jitterMs: 0 };

export const WINDOW_LIMITS: readonly ConformanceTest[] = [
  test(
    'RL-V1',
    'ten at once, the 11th waits one window plus the jitter (10 per 1000 ms, jitter 50: 1050 ms), then ten at once again',
    [...WINDOWS],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'orders' });
      for (let i = 0; i < 10; i++) await spend(limiter, k, TEN_PER_WINDOW, 1, `send #${i + 1} of 10`);
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, 'the 11th');
      expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after ten');
      await clock.advance(1049);
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1, 'the 11th, 1049 ms later');
      expectBorrowed(await limiter.borrowed(k), 10, 'borrowed 1049 ms later (a window does not refill)');
      await clock.advance(1);
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 'cost 10 once the ten left the window', clock.now());
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, 'the next one');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 0), 'cost 0 on the full window (RL-A2)', clock.now());
    },
  ),
  test('RL-V1', "a rolling window frees each send's room one window after it, never by a steady refill", [...WINDOWS], async ({ limiter, clock }) => {
    const k = key({ axis: 'rolling' });
    await spend(limiter, k, THREE_PER_SECOND_WINDOW, 1, 'the send at 0 ms');
    await clock.advance(300);
    await spend(limiter, k, THREE_PER_SECOND_WINDOW, 1, 'the send at 300 ms');
    await clock.advance(300);
    await spend(limiter, k, THREE_PER_SECOND_WINDOW, 1, 'the send at 600 ms');
    await clock.advance(100);
    expectDelay(await limiter.checkRate(k, THREE_PER_SECOND_WINDOW, 1), 300, 'cost 1 at 700 ms: the send at 0 ms leaves at 1000 ms');
    await clock.advance(300);
    await spend(limiter, k, THREE_PER_SECOND_WINDOW, 1, 'cost 1 at 1000 ms');
    expectDelay(await limiter.checkRate(k, THREE_PER_SECOND_WINDOW, 1), 300, 'cost 1 at 1000 ms: the send at 300 ms leaves at 1300 ms');
    expectDelay(await limiter.checkRate(k, THREE_PER_SECOND_WINDOW, 2), 600, 'cost 2 at 1000 ms: room for 2 once the send at 600 ms leaves, at 1600 ms');
  }),
  test('RL-V1', 'the jitter widens the window over send times: sends one window apart wait out the jitter too', [...WINDOWS], async ({ limiter, clock }) => {
    const k = key({ axis: 'jitter' });
    const twoPerSecond: Limit = { perWindow: 2, windowMs: 1000, jitterMs: 200 };
    await spend(limiter, k, twoPerSecond, 2, 'two at 0 ms');
    await clock.advance(1000);
    // sent at 1000 ms, a request may arrive at 1000 ms, when the two sent at 0 ms may have arrived at 200 ms
    expectDelay(await limiter.checkRate(k, twoPerSecond, 1), 200, 'cost 1 one window later, with 200 ms of jitter');
    await clock.advance(200);
    await spend(limiter, k, twoPerSecond, 2, 'two one window plus the jitter later');
  }),
  test('RL-V1', 'fractional costs are counted exactly in a window', [...WINDOWS, 'fractionalCosts'], async ({ limiter }) => {
    const k = key({ venue: 'binance', credential: null, axis: 'sapi_window' });
    const limit: Limit = { perWindow: 1, windowMs: 500 };
    for (let i = 0; i < 4; i++) expectOkNow(await limiter.checkRate(k, limit, 0.25), `0.25 #${i + 1}`);
    expectBorrowed(await limiter.borrowed(k), 1, 'borrowed after 4 × 0.25');
    expectDelay(await limiter.checkRate(k, limit, 0.25), 500, 'a fifth 0.25');
    expectDelay(await limiter.checkRate(k, limit, 0.1), 500, 'a 0.1');
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
  test('RL-V1', 'a window is one for every limiter sharing the store', [...WINDOWS, 'bookings', 'distributed', 'peer'], async ({ limiter, clock, peer }) => {
    const other = await peer();
    const k = key({ axis: 'shared' });
    await spend(limiter, k, TEN_PER_WINDOW, 6, 'six through one limiter');
    await spend(other, k, TEN_PER_WINDOW, 4, 'four through the other');
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, 'cost 1 through the first');
    expectBooked(await other.checkRate(k, TEN_PER_WINDOW, 10, { maxWaitMs: 2000 }), clock.now(), 1050, 'a booking of 10 through the other');
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 2100, 'cost 1 through the first, behind that booking');
  }),
  test('RL-V2', 'a probe answers the exact wait to the earliest time the cost fits, and changes nothing', [...WINDOWS], async ({ limiter, clock }) => {
    const k = key({ axis: 'earliest' });
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
    await clock.advance(200);
    await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 200 ms');
    await clock.advance(200);
    await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 400 ms');
    await clock.advance(100);
    // at 1050 ms the 4 leave (6 left, no room for 5); at 1250 ms the first 3 leave (3 left)
    for (let i = 0; i < 3; i++) expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 5), 750, `cost 5 at 500 ms (#${i + 1})`);
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_WINDOW, cost: 5 }]), 750, 'peek cost 5 at 500 ms');
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 550, 'cost 1 at 500 ms: room once the 4 leave at 1050 ms');
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after the refused probes');
    await clock.advance(750);
    await spend(limiter, k, TEN_PER_WINDOW, 5, 'cost 5 at 1250 ms');
  }),
  test(
    'RL-V2',
    'a booking reserves the earliest fitting time: ten at once, the 11th booked at +1050 ms',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'booked' });
      await spend(limiter, k, TEN_PER_WINDOW, 10, 'ten at once');
      const t0 = clock.now();
      expectBooked(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { maxWaitMs: 2000 }), t0, 1050, 'the 11th, with a budget');
      expectBooked(await limiter.checkRates([{ key: k, limit: TEN_PER_WINDOW, cost: 9 }], { maxWaitMs: 2000 }), t0, 1050, 'nine more for the same time');
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 2100, 'cost 1 behind the ten booked at 1050 ms');
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { maxWaitMs: 1000 }), 2100, 'cost 1 with a budget too short: nothing booked');
      await clock.advance(1050);
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, 'cost 1 at the booked send time');
    },
  ),
  test(
    'RL-V2',
    'bookings ahead close the times whose windows they fill; a later call fits before them where room is left',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'ahead' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 6, 'cost 6 at 0 ms');
      expectBooked(await limiter.checkRate(k, TEN_PER_WINDOW, 8, { maxWaitMs: 5000 }), t0, 1050, 'a booking of 8 (room once the 6 leave)');
      await clock.advance(500);
      // a send at 500 ms shares the window ending at 1050 ms with the booking: room for 2 beside it
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 'cost 1 at 500 ms, beside the booking', clock.now());
      expectDelay(
        await limiter.checkRate(k, TEN_PER_WINDOW, 3),
        1600,
        'cost 3 at 500 ms never takes what the booking holds: it waits until the booking leaves, at 2100 ms',
      );
      expectBorrowed(await limiter.borrowed(k), 9, 'borrowed: the window ending at 1050 ms holds the booking and the send at 500 ms');
      expectBooked(await limiter.checkRate(k, TEN_PER_WINDOW, 3, { maxWaitMs: 5000 }), t0 + 500, 1600, 'a booking of 3 at 500 ms');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 'a second cost 1 at 500 ms: the window ending at 1050 ms then holds 10', clock.now());
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, 'a third: room once the two sent at 500 ms leave, at 1550 ms, beside both bookings');
    },
  ),
  test('RL-V2', 'waitForCapacity on a window resolves ok at its send time, not before', [...WINDOWS, 'bookings'], async ({ limiter, clock }) => {
    const k = key({ axis: 'waiter' });
    await spend(limiter, k, TEN_PER_WINDOW, 10);
    const t0 = clock.now();
    const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_WINDOW, cost: 2 }], { maxWaitMs: 2000 });
    await clock.advance(1049);
    expectPending(waiter, 'the waiter 1 ms before its send time');
    await clock.advance(1);
    const d = expectOk(await settled(waiter, 'the waiter at its send time'), 'the waiter');
    expectEqual(d.sendAtMs, t0 + 1050, 'sendAtMs');
  }),
  test(
    'RL-V2',
    'a wait beyond the budget books nothing on a window: delay, or rate_limit_timeout naming the wait',
    [...WINDOWS],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'budget' });
      await spend(limiter, k, TEN_PER_WINDOW, 10);
      const timers = clock.pendingTimers;
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { maxWaitMs: 1000 }), 1050, 'checkRate with a 1000 ms budget');
      const e = expectError(
        await answeredAtOnce(limiter, clock, [{ key: k, limit: TEN_PER_WINDOW, cost: 1 }], { maxWaitMs: 1000 }, 'waitForCapacity'),
        'rate_limit_timeout',
        'waitForCapacity with a 1000 ms budget',
      );
      expectEqual(e.error.retryAfterMs, 1050, 'retryAfterMs of the timeout');
      expectEqual(clock.pendingTimers, timers, 'pending timers after the timeout');
      // had anything been booked at 1050 ms, cost 10 would wait until 2100 ms
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 1050, 'cost 10 after the refusals');
    },
  ),
  test(
    'RL-V2',
    'an aborted window waiter returns its booking when nothing was written after it, and forfeits it otherwise',
    [...WINDOWS, 'bookings', 'abortSignal'],
    async ({ limiter, clock }) => {
      const kept = key({ axis: 'returned' });
      await spend(limiter, kept, TEN_PER_WINDOW, 10);
      const first = new AbortController();
      const returned = await startWait(limiter, clock, [{ key: kept, limit: TEN_PER_WINDOW, cost: 5 }], { maxWaitMs: 2000, signal: first.signal });
      expectDelay(await limiter.checkRate(kept, TEN_PER_WINDOW, 6), 2100, 'cost 6 behind the waiter');
      first.abort();
      expectError(await settled(returned, 'the aborted waiter'), 'aborted', 'the aborted waiter');
      expectDelay(await limiter.checkRate(kept, TEN_PER_WINDOW, 6), 1050, 'cost 6 once the booking is returned');
      const lost = key({ axis: 'forfeited' });
      await spend(limiter, lost, TEN_PER_WINDOW, 10);
      const second = new AbortController();
      const forfeited = await startWait(limiter, clock, [{ key: lost, limit: TEN_PER_WINDOW, cost: 5 }], { maxWaitMs: 2000, signal: second.signal });
      expectBooked(await limiter.checkRate(lost, TEN_PER_WINDOW, 1, { maxWaitMs: 5000 }), clock.now(), 1050, 'a booking of 1 beside the waiter');
      second.abort();
      expectError(await settled(forfeited, 'the aborted waiter with a booking after it'), 'aborted', 'the aborted waiter with a booking after it');
      expectDelay(await limiter.checkRate(lost, TEN_PER_WINDOW, 5), 2100, 'cost 5 once the booking is forfeited (6 still held at 1050 ms)');
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
  test('RL-L5', 'a change between a token bucket and a window limit keeps what was borrowed, both ways', [...WINDOWS], async ({ limiter, clock }) => {
    const toWindow = key({ axis: 'to-window' });
    await spend(limiter, toWindow, TEN_PER_SECOND, 7, 'cost 7 on a token bucket');
    // the 7 borrowed count as sent now in the window
    expectDelay(await limiter.checkRate(toWindow, TEN_PER_WINDOW, 4), 1050, 'cost 4 under a window limit');
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
    expectDelay(await limiter.checkRate(otherWindow, longer, 3), 2000, 'cost 3 under 8 per 2000 ms: the 6 count until 2000 ms');
    await spend(limiter, otherWindow, longer, 2, 'cost 2 under 8 per 2000 ms');
    expectBorrowed(await limiter.borrowed(otherWindow), 8, 'borrowed under 8 per 2000 ms');
  }),
  test(
    'RL-I1',
    'borrowed of a window limit is the most any window from now on holds, bookings included',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'held' });
      expectBorrowed(await limiter.borrowed(k), 0, 'an unknown window bucket');
      await spend(limiter, k, TEN_PER_WINDOW, 4);
      await clock.advance(1000);
      expectBorrowed(await limiter.borrowed(k), 4, 'borrowed 1000 ms later: a window holds its sends for a whole span');
      await clock.advance(50);
      expectBorrowed(await limiter.borrowed(k), 0, 'borrowed once the span passed');
      const ahead = key({ axis: 'booked-ahead' });
      await spend(limiter, ahead, TEN_PER_WINDOW, 2);
      expectBooked(await limiter.checkRate(ahead, TEN_PER_WINDOW, 10, { maxWaitMs: 2000 }), clock.now(), 1050, 'a booking of 10');
      expectBorrowed(await limiter.borrowed(ahead), 10, 'borrowed: 2 in the window now, 10 in the window of the booking');
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
