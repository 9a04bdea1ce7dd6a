import type { SyncOptions } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectDone, expectEqual, expectError, expectOkNow, show } from '../expect.js';
import { TEN_PER_WINDOW, expectBookedWithin, expectDelayWithin, key, slackOf, spend, synced } from './fixtures.js';

// The syncs of window limits (RL-V5), on 10 per 1000 ms with 50 ms of jitter: a send counts in every interval of
// 1050 ms of send times that holds it. Times below are from the start of each test; every send the limiter is
// to take as counted lies well inside the venue's window and well before the reporting request, so that a
// limiter counting in slots of up to a sixteenth of the window tells them as surely as an exact log.

const SYNC = ['injectableClock', 'windowLimits', 'sync'] as const;

/** A fixed window ending between `t0 + endMs − 10` and `t0 + endMs`. */
function endAt(t0: number, endMs: number): NonNullable<SyncOptions['windowEnd']> {
  return { earliestMs: t0 + endMs - 10, latestMs: t0 + endMs };
}

export const WINDOW_SYNC: readonly ConformanceTest[] = [
  test(
    'RL-V5',
    "a sync with the reporting request's send time holds the bucket back only by what others spent; without it, by everything reported",
    [...SYNC],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const by = key({ axis: 'reported-with-send-time' });
      const anon = key({ axis: 'reported-without' });
      const t0 = clock.now();
      for (const k of [by, anon]) await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
      await clock.advance(100);
      for (const k of [by, anon]) await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request, sent at 100 ms');
      await clock.advance(10);
      // the venue reports 7: the 4 sent at 0 ms reached it by 50 ms, before the reporting request left; 3 were others'
      await synced(limiter, by, 7, { sentAtMs: t0 + 100 }, 'sync 7 with the reporting request sent at 100 ms');
      await synced(limiter, anon, 7, undefined, 'sync 7 without a send time');
      expectBorrowed(await limiter.borrowed(by), 8, 'with the send time: our 5 and the 3 others spent');
      expectBorrowed(await limiter.borrowed(anon), 12, 'without it: our 5 and all 7 reported');
      expectDelayWithin(await limiter.checkRate(by, TEN_PER_WINDOW, 3), 940, slack, 'cost 3 with the send time: room once the 4 leave, at 1050 ms');
      // others' use counts as sent at 60 ms (counted by 110 ms, less the jitter): it leaves at 1110 ms
      expectDelayWithin(await limiter.checkRate(anon, TEN_PER_WINDOW, 3), 1000, slack, 'cost 3 without it: room once the report leaves too');
      expectOkNow(await limiter.checkRate(by, TEN_PER_WINDOW, 2), 'cost 2 with the send time', clock.now());
    },
  ),
  test(
    'RL-V5',
    'a send made within jitterMs before the reporting request is never taken as counted: it may reach the venue after the request',
    [...SYNC],
    async ({ limiter, clock }) => {
      const flight = key({ axis: 'sent-40-ms-before' });
      const arrived = key({ axis: 'sent-100-ms-before' });
      const t0 = clock.now();
      for (const k of [flight, arrived]) await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 0 ms');
      await clock.advance(40);
      await spend(limiter, flight, TEN_PER_WINDOW, 1, 'a reporting request at 40 ms');
      await clock.advance(60);
      await spend(limiter, arrived, TEN_PER_WINDOW, 1, 'a reporting request at 100 ms');
      await clock.advance(10);
      await synced(limiter, flight, 5, { sentAtMs: t0 + 40 }, 'sync 5 answering the request sent at 40 ms');
      await synced(limiter, arrived, 5, { sentAtMs: t0 + 100 }, 'sync 5 answering the request sent at 100 ms');
      // the 3 sent at 0 ms may arrive as late as 50 ms: after the request sent at 40 ms, not after the one sent at 100 ms
      expectBorrowed(await limiter.borrowed(flight), 9, 'request at 40 ms: our 4 and all 5 reported, the 3 sent at 0 ms not taken as counted');
      expectBorrowed(await limiter.borrowed(arrived), 6, 'request at 100 ms: our 4 and the 2 others spent beside the 3 sent at 0 ms');
      expectOkNow(await limiter.checkRate(arrived, TEN_PER_WINDOW, 4), 'cost 4 after the report on the request at 100 ms', clock.now());
    },
  ),
  test(
    'RL-V5',
    'the limiter’s count of its own sends and countedOwnCost are two lower bounds: the larger is taken, never their sum',
    [...SYNC],
    async ({ limiter, clock }) => {
      const callerKnowsMore = key({ axis: 'caller-knows-more' });
      const limiterKnowsMore = key({ axis: 'limiter-knows-more' });
      const t0 = clock.now();
      for (const k of [callerKnowsMore, limiterKnowsMore]) await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
      await clock.advance(100);
      for (const k of [callerKnowsMore, limiterKnowsMore]) await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 100 ms');
      await clock.advance(10);
      // the limiter knows the 4 sent at 0 ms were counted; the caller knows those 4 and the reporting request: 5
      await synced(limiter, callerKnowsMore, 6, { sentAtMs: t0 + 100, countedOwnCost: 5 }, 'sync 6, the caller certifying 5');
      expectBorrowed(await limiter.borrowed(callerKnowsMore), 6, 'our 5 and 6 − max(4, 5) = 1 others spent (the sum, 9, would leave none)');
      await synced(limiter, limiterKnowsMore, 7, { sentAtMs: t0 + 100, countedOwnCost: 1 }, 'sync 7, the caller certifying the reporting request only');
      expectBorrowed(await limiter.borrowed(limiterKnowsMore), 8, 'our 5 and 7 − max(4, 1) = 3 others spent (the sum, 5, would leave 2)');
    },
  ),
  test(
    'RL-V5',
    'outsideOwnCost, the caller’s own sent since jitterMs before the reporting request, adds to the limiter’s own count',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'outside-own' });
      const alone = key({ axis: 'outside-own-without-send-time' });
      const t0 = clock.now();
      for (const b of [k, alone]) await spend(limiter, b, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms, another process’s');
      await clock.advance(80);
      for (const b of [k, alone]) await spend(limiter, b, TEN_PER_WINDOW, 2, 'cost 2 at 80 ms, answered before the reporting request went out');
      await clock.advance(20);
      for (const b of [k, alone]) await spend(limiter, b, TEN_PER_WINDOW, 1, 'the reporting request at 100 ms');
      await clock.advance(10);
      // the limiter knows the 4 sent at 0 ms were counted; the caller knows its 2 at 80 ms and the reporting request
      await synced(limiter, k, 9, { sentAtMs: t0 + 100, countedOwnCost: 3, outsideOwnCost: 3 }, 'sync 9, the caller certifying 3, all sent since 50 ms');
      expectBorrowed(await limiter.borrowed(k), 9, 'our 7 and 9 − max(4 + 3, 3) = 2 others spent (without outsideOwnCost, 5)');
      await synced(limiter, alone, 9, { countedOwnCost: 3, outsideOwnCost: 3 }, 'sync 9 without a send time');
      expectBorrowed(await limiter.borrowed(alone), 16, 'our 7 and all 9 reported: nothing is ours without a send time');
    },
  ),
  test('RL-V5', 'others’ reported use holds back bookings and the sends behind them too', [...SYNC, 'bookings'], async ({ limiter, clock, capabilities }) => {
    const slack = slackOf(capabilities, TEN_PER_WINDOW);
    const k = key({ axis: 'others-and-bookings' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
    // without a send time all 7 are others', counted as sent at -50 ms: they leave every window at 1000 ms
    await synced(limiter, k, 7, undefined, 'sync 7 without a send time');
    expectBorrowed(await limiter.borrowed(k), 11, 'our 4 and the 7 reported');
    expectBookedWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { maxWaitMs: 5000 }), t0, 1000, slack, 'a booking of 1: when the report leaves');
    expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 5), 1000, slack, 'cost 5 beside the booking: 4 + 1 + 5 once the report leaves');
    expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 6), 1050, slack, 'cost 6: once the 4 sent at 0 ms leave too');
    await clock.advance(500);
    expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 5), 500, slack, 'cost 5 at 500 ms');
    expectBorrowed(await limiter.borrowed(k), 11, 'at 500 ms: the same 11 in the windows ahead');
  }),
  test(
    'RL-V5',
    'a cost waits for just as much of others’ use and of the sends after it to leave as it needs',
    [...SYNC],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const reported = key({ axis: 'reported-then-sends' });
      const plain = key({ axis: 'sends-alone' });
      // without a send time the 5 reported are others', counted as sent at -50 ms: they leave at 1000 ms
      await synced(limiter, reported, 5, undefined, 'sync 5 without a send time at 0 ms');
      for (const k of [reported, plain]) await spend(limiter, k, TEN_PER_WINDOW, 2, 'cost 2 at 0 ms');
      await clock.advance(200);
      for (const k of [reported, plain]) await spend(limiter, k, TEN_PER_WINDOW, 2, 'cost 2 at 200 ms');
      const peek = (k: typeof plain, cost: number) => limiter.peek([{ key: k, limit: TEN_PER_WINDOW, cost }]);
      expectOkNow(await peek(reported, 1), 'reported: cost 1 fills the window', clock.now());
      expectDelayWithin(await peek(reported, 2), 800, slack, 'reported: cost 2, once the report leaves');
      expectDelayWithin(await peek(reported, 8), 850, slack, 'reported: cost 8, once the 2 sent at 0 ms leave too');
      expectDelayWithin(await peek(reported, 9), 1050, slack, 'reported: cost 9, once the 2 sent at 200 ms leave too');
      expectOkNow(await peek(plain, 6), 'alone: cost 6 fills the window', clock.now());
      expectDelayWithin(await peek(plain, 7), 850, slack, 'alone: cost 7, once the 2 sent at 0 ms leave');
      expectDelayWithin(await peek(plain, 9), 1050, slack, 'alone: cost 9, once the 2 sent at 200 ms leave too');
    },
  ),
  test(
    'RL-V5',
    'with a window end, only sends after the window surely began (its latest end less windowMs) count as ours',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'before-the-window' });
      const t0 = clock.now();
      await clock.advance(450);
      await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 450 ms');
      await clock.advance(150);
      await spend(limiter, k, TEN_PER_WINDOW, 2, 'cost 2 at 600 ms');
      await clock.advance(790);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 1390 ms');
      await clock.advance(10);
      // the window ends by 1500 ms, so it began by 500 ms: the 2 sent at 600 ms surely count in the venue's 7; the 3
      // sent at 450 ms may have reached it before it began (by 500 ms), so they are not taken as counted (a rolling
      // window counted from 400 ms would take them)
      await synced(limiter, k, 7, { sentAtMs: t0 + 1390, windowEnd: endAt(t0, 1500) }, 'sync 7 of the window ending by 1500 ms');
      expectBorrowed(await limiter.borrowed(k), 11, 'our 3, 2 and 1, and the 5 others spent');
    },
  ),
  test(
    'RL-V5',
    'others’ use reported in a fixed window stops counting at its end, while the next window’s report is open',
    [...SYNC],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'next-window-open' });
      const t0 = clock.now();
      await clock.advance(940);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 940 ms');
      await clock.advance(50);
      await synced(limiter, k, 8, { sentAtMs: t0 + 940, windowEnd: endAt(t0, 1000) }, 'sync 8 answering A, of the window ending by 1000 ms');
      expectBorrowed(await limiter.borrowed(k), 9, 'our A and the 8 others spent in that window');
      await clock.advance(5);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 995 ms');
      await clock.advance(3);
      // B was sent before A's report could be counted: both stand; B's window (ending by 2000 ms) holds only B
      await synced(limiter, k, 1, { sentAtMs: t0 + 995, countedOwnCost: 1, windowEnd: endAt(t0, 2000) }, 'sync 1 answering B, of the next window');
      await clock.advance(52);
      // at 1050 ms the first window ended: its others' use is gone, and A and B may both count in the next one
      const peek = (cost: number) => limiter.peek([{ key: k, limit: TEN_PER_WINDOW, cost }]);
      expectOkNow(await peek(8), 'cost 8 at 1050 ms', clock.now());
      expectDelayWithin(await peek(9), 940, slackOf(capabilities, TEN_PER_WINDOW), 'cost 9 at 1050 ms: once A leaves');
    },
  ),
  test('RL-V5', 'a report after a fixed window ended never keeps that window’s others’ use as the larger', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'ended-window-report' });
    const t0 = clock.now();
    await clock.advance(940);
    await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 940 ms');
    await clock.advance(50);
    await synced(limiter, k, 8, { sentAtMs: t0 + 940, windowEnd: endAt(t0, 1000) }, 'sync 8 answering A, of the window ending by 1000 ms');
    await clock.advance(5);
    await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 995 ms');
    await clock.advance(3);
    // B was sent before A's report could be counted: both reports stand, A's until its window's end
    await synced(limiter, k, 1, { sentAtMs: t0 + 995, countedOwnCost: 1, windowEnd: endAt(t0, 2000) }, 'sync 1 answering B at 998 ms');
    await clock.advance(12);
    // at 1010 ms A's window ended: of the reports only B's newer one (2 of others') still counts, not the larger 8
    await synced(limiter, k, 3, { sentAtMs: t0 + 995, countedOwnCost: 1, windowEnd: endAt(t0, 2000) }, 'sync 3 answering B at 1010 ms');
    expectBorrowed(await limiter.borrowed(k), 4, 'our A and B, and the 2 others spent in the next window');
  }),
  test('RL-V5', 'a send time equal to now counts the sends the venue surely had as ours', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'sent-now' });
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
    await clock.advance(200);
    // the reporting request leaves now, at 200 ms: the 4 sent at 0 ms reached the venue by 50 ms; 3 of 7 are others'
    await synced(limiter, k, 7, { sentAtMs: clock.now() }, 'sync 7 answering a request sent now');
    expectBorrowed(await limiter.borrowed(k), 7, 'our 4 and the 3 others spent');
  }),
  test('RL-V5', 'a window end known to the millisecond (earliest = latest) tells a fixed window', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'exact-end' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 9, 'cost 9 at 0 ms');
    await clock.advance(1010);
    // a venue window from 1000 to 2000 ms: the 9 reached it by 50 ms, before it began, and are forgotten
    await synced(limiter, k, 1, { windowEnd: { earliestMs: t0 + 2000, latestMs: t0 + 2000 } }, 'sync 1 of the window ending at 2000 ms');
    expectBorrowed(await limiter.borrowed(k), 1, 'the 9 forgotten; the 1 reported');
  }),
  test('RL-V5', 'without a send time at or before now, nothing is taken as counted: countedOwnCost is ignored', [...SYNC], async ({ limiter, clock }) => {
    const future = key({ axis: 'sent-in-the-future' });
    const none = key({ axis: 'sent-unknown' });
    for (const k of [future, none]) await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 0 ms');
    await clock.advance(200);
    await synced(limiter, future, 5, { sentAtMs: clock.now() + 1000, countedOwnCost: 2 }, 'sync 5 with a send time 1000 ms ahead');
    await synced(limiter, none, 5, { countedOwnCost: 3 }, 'sync 5 certifying 3 without a send time');
    expectBorrowed(await limiter.borrowed(future), 8, 'our 3 and all 5 reported');
    expectBorrowed(await limiter.borrowed(none), 8, 'the same without a send time');
  }),
  test(
    'RL-V5',
    'a newer report replaces one the venue counted before its request was sent, so borrowed may go down; otherwise the larger counts, never the sum',
    [...SYNC],
    async ({ limiter, clock }) => {
      const o = key({ axis: 'overlapping' });
      const t0 = clock.now();
      await spend(limiter, o, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(20);
      await spend(limiter, o, TEN_PER_WINDOW, 1, 'request C at 20 ms');
      await clock.advance(40);
      await synced(limiter, o, 6, { sentAtMs: t0 }, 'sync 6 answering A at 60 ms: counted by 50 ms');
      await clock.advance(10);
      // the venue may have counted A's report after C left: C's report does not cover it
      await synced(limiter, o, 3, { sentAtMs: t0 + 20 }, 'sync 3 answering C at 70 ms');
      expectBorrowed(await limiter.borrowed(o), 8, 'our 2 and the larger report, 6 (their sum, 9, would make 11)');
      const k = key({ axis: 'replaced' });
      const t1 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(10);
      await synced(limiter, k, 6, { sentAtMs: t1 }, 'sync 6 answering A at 10 ms: counted by 10 ms');
      expectBorrowed(await limiter.borrowed(k), 7, 'after the report on A');
      await clock.advance(90);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 100 ms');
      await clock.advance(10);
      // B left 90 ms after the venue counted A's report: B's count covers everything A's did that can still count
      await synced(limiter, k, 2, { sentAtMs: t1 + 100 }, 'sync 2 answering B: A and one send of others');
      expectBorrowed(await limiter.borrowed(k), 3, 'our A and B, and the 1 others spent: the report on A replaced');
    },
  ),
  test(
    'RL-V5',
    'a window reported fixed forgets, at the report, what reached the venue before it began, and nothing that may have reached it after',
    [...SYNC],
    async ({ limiter, clock }) => {
      const fixed = key({ axis: 'fixed' });
      const rolling = key({ axis: 'rolling' });
      const t0 = clock.now();
      for (const k of [fixed, rolling]) await spend(limiter, k, TEN_PER_WINDOW, 9, 'cost 9 at 0 ms');
      await clock.advance(960);
      for (const k of [fixed, rolling]) await spend(limiter, k, TEN_PER_WINDOW, 1, 'cost 1 at 960 ms');
      await clock.advance(50);
      // a venue window from 990 to 2000 ms (its end known to within 10 ms): the 9 reached the venue by 50 ms, before
      // it began; the send at 960 ms may have reached it at 1010 ms, inside it, and is kept; the venue counts 1
      await synced(limiter, fixed, 1, { windowEnd: endAt(t0, 2000) }, 'sync 1 of the window ending at 2000 ms');
      await synced(limiter, rolling, 1, undefined, 'sync 1 without a window end');
      expectBorrowed(await limiter.borrowed(fixed), 2, 'fixed: the 9 forgotten; our send at 960 ms and the 1 reported');
      expectOkNow(await limiter.checkRate(fixed, TEN_PER_WINDOW, 8), 'cost 8 in the new window at once', clock.now());
      expectDelay(await limiter.checkRate(fixed, TEN_PER_WINDOW, 1), undefined, 'the window full: the send at 960 ms still counts');
      expectDelay(await limiter.checkRate(rolling, TEN_PER_WINDOW, 8), undefined, 'rolling: the 9 still count');
    },
  ),
  test(
    'RL-V5',
    "sends booked for a reported fixed window's end count in the next window: only what reached the venue before the end is forgotten",
    [...SYNC, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'fixed-end-bookings' });
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 10, 'cost 10 at 0 ms');
      await synced(limiter, k, 10, { countedOwnCost: 10, windowEnd: endAt(t0, 400) }, 'sync 10 of the window ending by 400 ms, all ours');
      // the 10 reached the venue by 50 ms and are forgotten at the window's end; sends at 400 ms may reach it later
      expectBookedWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 9, { maxWaitMs: 5000 }), t0, 400, slack, 'cost 9 booked for the end');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 3), 1450, slack, 'cost 3 waits until the 9 left every window of 1050 ms');
    },
  ),
  test(
    'RL-V5',
    "from a reported fixed window's end on, what reached the venue before that end is forgotten, and others' use reported in it",
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'fixed-end' });
      const t0 = clock.now();
      await clock.advance(100);
      await spend(limiter, k, TEN_PER_WINDOW, 6, 'cost 6 at 100 ms');
      await clock.advance(300);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 400 ms');
      await clock.advance(10);
      // the window ends between 990 and 1000 ms; the venue counted our 7 (the caller knows) and 3 of others'
      await synced(limiter, k, 10, { sentAtMs: t0 + 400, countedOwnCost: 7, windowEnd: endAt(t0, 1000) }, 'sync 10 of the window ending at 1000 ms');
      expectBorrowed(await limiter.borrowed(k), 10, 'our 7 and the 3 others spent');
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 590, 'cost 10: the whole next window, from the latest end at 1000 ms');
      await clock.advance(590);
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 'cost 10 at 1000 ms: the new window', clock.now());
    },
  ),
  test('RL-V5', 'a report of a fixed window that ended before the latest reported one began is ignored', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'stale' });
    const t0 = clock.now();
    await clock.advance(1100);
    // the venue's window from 1000 to 2000 ms
    await synced(limiter, k, 2, { windowEnd: endAt(t0, 2000) }, 'sync 2 of the window ending at 2000 ms');
    expectBorrowed(await limiter.borrowed(k), 2, 'the 2 others spent in the window ending at 2000 ms');
    // a late answer about the window before, which ended by 990 ms
    await synced(limiter, k, 9, { windowEnd: endAt(t0, 990) }, 'sync 9 of a window that ended by 990 ms');
    expectBorrowed(await limiter.borrowed(k), 2, 'the stale report changes nothing');
    expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 8), 'cost 8 beside the 2', clock.now());
  }),
  test('RL-V5', 'a window end of a quarter window or more tells nothing: the report counts as on a rolling window', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'loose-end' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 9, 'cost 9 at 0 ms');
    await clock.advance(1010);
    await synced(limiter, k, 1, { windowEnd: { earliestMs: t0 + 1750, latestMs: t0 + 2000 } }, 'sync 1 with an end known to within 250 ms');
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 8), undefined, 'cost 8: the 9 still count');
  }),
  test(
    'RL-V5',
    'a penalty is never forgotten: a fixed window reported after it keeps the window closed until one span after its end',
    [...SYNC, 'penalize'],
    async ({ limiter, clock, capabilities }) => {
      const k = key({ axis: 'penalty-kept' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1);
      expectDone(await limiter.penalize(k, { forMs: 500 }), 'penalize for 500 ms');
      await clock.advance(600);
      await synced(limiter, k, 0, { windowEnd: endAt(t0, 1000) }, 'sync 0 of the window ending at 1000 ms');
      await clock.advance(500);
      expectDelayWithin(
        await limiter.checkRate(k, TEN_PER_WINDOW, 1),
        450,
        slackOf(capabilities, TEN_PER_WINDOW),
        'cost 1 at 1100 ms: the penalty counts the window full at 500 ms',
      );
    },
  ),
  test('RL-V5', 'malformed sync options are invalid_parameters naming the option, and change nothing', [...SYNC], async ({ limiter }) => {
    const k = key({ axis: 'bad-options' });
    await spend(limiter, k, TEN_PER_WINDOW, 2);
    const bad: [string, unknown][] = [
      ['options.sentAtMs', { sentAtMs: Number.NaN }],
      ['options.sentAtMs', { sentAtMs: '5' }],
      ['options.countedOwnCost', { sentAtMs: 0, countedOwnCost: -1 }],
      ['options.countedOwnCost', { countedOwnCost: Number.POSITIVE_INFINITY }],
      ['options.outsideOwnCost', { sentAtMs: 0, outsideOwnCost: -1 }],
      ['options.outsideOwnCost', { outsideOwnCost: Number.POSITIVE_INFINITY }],
      ['options.outsideOwnCost', { outsideOwnCost: '1' }],
      ['options.windowEnd', { windowEnd: 5 }],
      ['options.windowEnd.earliestMs', { windowEnd: { earliestMs: Number.NaN, latestMs: 5 } }],
      ['options.windowEnd.latestMs', { windowEnd: { earliestMs: 10, latestMs: 5 } }],
    ];
    for (const [path, options] of bad) {
      const e = expectError(await limiter.sync(k, TEN_PER_WINDOW, 9, options as SyncOptions), 'invalid_parameters', `sync with ${show(options)}`);
      expectEqual(e.error.path, path, `sync with ${show(options)}: error.path`);
    }
    expectBorrowed(await limiter.borrowed(k), 2, 'borrowed after the refused syncs');
    // costs of exactly 0 are in range
    const zero = { sentAtMs: 0, countedOwnCost: 0, outsideOwnCost: 0 };
    expectEqual((await limiter.sync(k, TEN_PER_WINDOW, 2, zero)).kind, 'ok', `sync with ${show(zero)}`);
  }),
];
