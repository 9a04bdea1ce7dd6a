import type { BucketCheck, Decision, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectEqual, expectError, expectOk, expectOkNow, expectTrue, show } from '../expect.js';
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
  WINDOWS,
} from './fixtures.js';
import { WINDOW_CASES } from './window-cases.js';

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
  test(
    'RL-V1',
    'a send less than a window before a booking ahead waits for it to leave, even where a window earlier holds little',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const tenNoJitter: Limit = { perWindow: 10, windowMs: 1000, jitterMs: 0 };
      const slack = slackOf(capabilities, tenNoJitter);
      const k = key({ axis: 'between' });
      const t0 = clock.now();
      await spend(limiter, k, tenNoJitter, 10, 'cost 10 at 0 ms');
      const b = t0 + expectBookedWithin(await limiter.checkRate(k, tenNoJitter, 2, { maxWaitMs: 5000 }), t0, 1000, slack, 'a booking of 2');
      const c = t0 + expectBookedWithin(await limiter.checkRate(k, tenNoJitter, 9, { maxWaitMs: 5000 }), t0, b + 1000 - t0, slack, 'a booking of 9');
      // 5 ms less than a window before the 9: the windows before it hold the 2 alone, the windows after it hold the 9
      await clock.advance(c - 995 - t0);
      expectDelayWithin(
        await limiter.checkRate(k, tenNoJitter, 2),
        c + 1000 - clock.now(),
        slack,
        'cost 2, 995 ms before the booking of 9: it waits until that booking is a window behind',
      );
    },
  ),
  test(
    'RL-V1',
    'a send 999 ms after a burst waits for the burst to leave while a booking lies ahead, at every offset in a slot',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const tenNoJitter: Limit = { perWindow: 10, windowMs: 1000, jitterMs: 0 };
      const slack = slackOf(capabilities, tenNoJitter);
      // four bursts 4.8 ms apart in phase, so that a limiter counting in slots meets the burst late in its slot
      for (let i = 0; i < 4; i++) {
        const k = key({ axis: `burst-booked-${i}` });
        await clock.advance(4.8);
        const a = clock.now();
        await spend(limiter, k, tenNoJitter, 10, `burst ${i + 1}: cost 10`);
        expectBookedWithin(await limiter.checkRate(k, tenNoJitter, 1, { maxWaitMs: 5000 }), a, 1000, slack, `burst ${i + 1}: a booking of 1`);
        await clock.advance(999);
        expectDelayWithin(await limiter.checkRate(k, tenNoJitter, 1), 1, slack, `burst ${i + 1}: cost 1, 999 ms after the burst`);
      }
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
  ...WINDOW_CASES,
];
