import type { BucketKey, RateLimiter, SyncOptions } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectDone, expectEqual, expectError, expectOkNow, expectTrue, show } from '../expect.js';
import { TEN_PER_WINDOW, key, spend, synced } from './fixtures.js';
import type { ManualClock } from '../manual-clock.js';

// The syncs of window limits (RL-V5), on 10 per 1000 ms with 50 ms of jitter: a send counts in every
// interval of 1050 ms of send times that holds it. Times below are from the start of each test.

const SYNC = ['injectableClock', 'windowLimits', 'sync'] as const;

/**
 * Request A through `first` at 0 ms, answered at 10 ms (its sync marks it, `answeredCost`); request B
 * through `second` at 30 ms, within jitterMs after A, reported at 40 ms with both counted: A is ours.
 */
async function answeredThenReported(first: RateLimiter, second: RateLimiter, k: BucketKey, clock: ManualClock): Promise<void> {
  const t0 = clock.now();
  await spend(first, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
  await clock.advance(10);
  await synced(first, k, 1, { sentAtMs: t0, countedOwnCost: 1, answeredCost: 1 }, 'sync 1 answering A at 10 ms: A marked answered');
  await clock.advance(20);
  await spend(second, k, TEN_PER_WINDOW, 1, 'request B at 30 ms');
  await clock.advance(10);
  await synced(second, k, 2, { sentAtMs: t0 + 30, countedOwnCost: 1 }, 'sync 2 answering B at 40 ms');
  expectBorrowed(await second.borrowed(k), 2, 'our 2 and nothing for others: A left within jitterMs before B, but was answered before B left');
}

/** A fixed window's end as the reports below know it: between 900 and 1000 ms after `t0` (within a quarter window). */
function endOf(t0: number, shift = 0, width = 100): NonNullable<SyncOptions['windowEnd']> {
  return { earliestMs: t0 + 1000 + shift - width, latestMs: t0 + 1000 + shift };
}

/**
 * Request A through `reporter` at 0 ms; request B through `sender` at 20 ms, answered at 30 ms with the
 * venue's count of the fixed window at 3 (its sync marks it answered and gives the window's end); A
 * answered at 40 ms with `usedByA` of `endByA`'s window. Answers the bucket's borrowed after A's sync.
 * With a count above 3 in the same window the venue counted B before A (a fixed window's count never
 * falls): our 2 and `usedByA − 2` for others; otherwise B may be on its way: `usedByA − 1` for others.
 */
async function answeredInWindow(
  sender: RateLimiter,
  reporter: RateLimiter,
  k: BucketKey,
  clock: ManualClock,
  usedByA: number,
  endByA: (t0: number) => SyncOptions['windowEnd'],
  endByB = endOf,
  sinceByA?: number,
): Promise<number> {
  const t0 = clock.now();
  await spend(reporter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
  await clock.advance(20);
  await spend(sender, k, TEN_PER_WINDOW, 1, 'request B at 20 ms');
  await clock.advance(10);
  await synced(
    sender,
    k,
    3,
    { sentAtMs: t0 + 20, countedOwnCost: 1, answeredCost: 1, windowEnd: endByB(t0) },
    "sync 3 answering B at 30 ms: B marked answered, with its window's end",
  );
  await clock.advance(10);
  const end = endByA(t0);
  const since = sinceByA === undefined ? {} : { countedSinceMs: t0 + sinceByA };
  await synced(
    reporter,
    k,
    usedByA,
    { sentAtMs: t0, countedOwnCost: 1, ...since, ...(end === undefined ? {} : { windowEnd: end }) },
    `sync ${usedByA} answering A at 40 ms`,
  );
  const b = await reporter.borrowed(k);
  if (typeof b !== 'number') throw new Error(`borrowed after A's sync: ${show(b)}`);
  return b;
}

export const WINDOW_SYNC: readonly ConformanceTest[] = [
  test(
    'RL-V5',
    "a sync with the reporting request's send time holds the bucket back only by what others spent; without it, by everything reported",
    [...SYNC],
    async ({ limiter, clock }) => {
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
      expectDelay(await limiter.checkRate(by, TEN_PER_WINDOW, 3), 940, 'cost 3 with the send time: room once the 4 leave, at 1050 ms');
      expectDelay(await limiter.checkRate(anon, TEN_PER_WINDOW, 3), 1040, 'cost 3 without it: room once the reporting request leaves, at 1150 ms');
      expectOkNow(await limiter.checkRate(by, TEN_PER_WINDOW, 2), 'cost 2 with the send time', clock.now());
    },
  ),
  test(
    'RL-V5',
    'a send made within jitterMs before the reporting request is never taken as counted: it may reach the venue after the request',
    [...SYNC],
    async ({ limiter, clock }) => {
      const flight = key({ axis: 'sent-40-ms-before' });
      const arrived = key({ axis: 'sent-50-ms-before' });
      const t0 = clock.now();
      for (const k of [flight, arrived]) await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 0 ms');
      await clock.advance(40);
      await spend(limiter, flight, TEN_PER_WINDOW, 1, 'a reporting request at 40 ms');
      await clock.advance(10);
      await spend(limiter, arrived, TEN_PER_WINDOW, 1, 'a reporting request at 50 ms');
      await clock.advance(10);
      await synced(limiter, flight, 5, { sentAtMs: t0 + 40 }, 'sync 5 answering the request sent at 40 ms');
      await synced(limiter, arrived, 5, { sentAtMs: t0 + 50 }, 'sync 5 answering the request sent at 50 ms');
      // the 3 sent at 0 ms may arrive as late as 50 ms: after the request sent at 40 ms, not after the one sent at 50 ms
      expectBorrowed(await limiter.borrowed(flight), 9, 'request at 40 ms: our 4 and all 5 reported, the 3 sent at 0 ms not taken as counted');
      expectBorrowed(await limiter.borrowed(arrived), 6, 'request at 50 ms: our 4 and the 2 others spent beside the 3 sent at 0 ms');
      expectDelay(await limiter.checkRate(flight, TEN_PER_WINDOW, 2), 990, 'cost 2 after the report at 40 ms: room once the 3 leave, at 1050 ms');
      expectOkNow(await limiter.checkRate(arrived, TEN_PER_WINDOW, 4), 'cost 4 after the report at 50 ms', clock.now());
    },
  ),
  test(
    'RL-V5',
    'a record is never taken as counted by its time: what was recorded may have gone out before the window began',
    [...SYNC],
    async ({ limiter, clock }) => {
      const recorded = key({ axis: 'recorded-at-0' });
      const admitted = key({ axis: 'admitted-at-0' });
      const t0 = clock.now();
      limiter.record(recorded, 3, TEN_PER_WINDOW);
      await spend(limiter, admitted, TEN_PER_WINDOW, 3, 'cost 3 admitted at 0 ms');
      expectBorrowed(await limiter.borrowed(recorded), 3, 'the record of 3 at 0 ms');
      await clock.advance(100);
      for (const k of [recorded, admitted]) await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 100 ms');
      await clock.advance(10);
      for (const k of [recorded, admitted])
        await synced(limiter, k, 4, { sentAtMs: t0 + 100, countedOwnCost: 1 }, 'sync 4: the 3 at 0 ms and the reporting request');
      expectBorrowed(await limiter.borrowed(admitted), 4, 'the admitted 3 taken as counted: nothing others spent');
      expectBorrowed(await limiter.borrowed(recorded), 7, 'the recorded 3 not taken: 3 more as others spent');
    },
  ),
  test(
    'RL-V5',
    'a sentAtMs after now is no send time the limiter can have admitted: the sync counts as one without it',
    [...SYNC],
    async ({ limiter, clock }) => {
      const future = key({ axis: 'sent-in-the-future' });
      const none = key({ axis: 'sent-unknown' });
      for (const k of [future, none]) await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 0 ms');
      await clock.advance(200);
      await synced(limiter, future, 5, { sentAtMs: clock.now() + 1000, countedOwnCost: 2 }, 'sync 5 with a send time 1000 ms ahead');
      await synced(limiter, none, 5, undefined, 'sync 5 without a send time');
      expectBorrowed(await limiter.borrowed(future), 8, 'our 3 and all 5 reported');
      expectBorrowed(await limiter.borrowed(none), 8, 'the same without a send time');
    },
  ),
  test('RL-V5', 'countedOwnCost counts besides the sends taken by their send times, and only with a send time', [...SYNC], async ({ limiter, clock }) => {
    const certified = key({ axis: 'certified' });
    const plain = key({ axis: 'not-certified' });
    const timeless = key({ axis: 'certified-without-send-time' });
    const t0 = clock.now();
    const all = [certified, plain, timeless];
    for (const k of all) await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 0 ms');
    await clock.advance(100);
    for (const k of all) await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 100 ms');
    await clock.advance(10);
    // the venue reports 8, its count including the reporting request (cost 1), which the caller certifies
    await synced(limiter, certified, 8, { sentAtMs: t0 + 100, countedOwnCost: 1 }, 'sync 8, the reporting request certified');
    await synced(limiter, plain, 8, { sentAtMs: t0 + 100 }, 'sync 8, nothing certified');
    await synced(limiter, timeless, 8, { countedOwnCost: 1 }, 'sync 8 certifying 1 without a send time');
    expectBorrowed(await limiter.borrowed(certified), 8, 'certified: our 4 and 8 − 3 − 1 = 4 others spent');
    expectBorrowed(await limiter.borrowed(plain), 9, 'not certified: our 4 and 8 − 3 = 5 others spent');
    expectBorrowed(await limiter.borrowed(timeless), 12, 'without a send time countedOwnCost is ignored: our 4 and all 8 reported');
    expectDelay(await limiter.checkRate(certified, TEN_PER_WINDOW, 5), 940, 'cost 5, certified: room once the 3 sent at 0 ms leave, at 1050 ms');
    expectDelay(
      await limiter.checkRate(plain, TEN_PER_WINDOW, 5),
      1000,
      'cost 5, not certified: room once the report leaves too, one window after it was counted (by 110 ms), at 1110 ms',
    );
  }),
  test(
    'RL-V5',
    'a later countedSinceMs takes fewer sends as counted; a send at countedSinceMs itself is not taken, and one earlier than the rolling default changes nothing',
    [...SYNC],
    async ({ limiter, clock }) => {
      const rolling = key({ axis: 'rolling' });
      const fixed = key({ axis: 'fixed-from-100' });
      const atStart = key({ axis: 'fixed-from-0' });
      const early = key({ axis: 'fixed-from-minus-5000' });
      const all = [rolling, fixed, atStart, early];
      const t0 = clock.now();
      for (const k of all) await spend(limiter, k, TEN_PER_WINDOW, 2, 'cost 2 at 0 ms');
      await clock.advance(300);
      for (const k of all) await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 300 ms');
      await clock.advance(300);
      for (const k of all) await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 600 ms');
      await clock.advance(10);
      const sentAtMs = t0 + 600;
      await synced(limiter, rolling, 9, { sentAtMs }, 'sync 9, a rolling window (it began at the latest at −390 ms)');
      await synced(limiter, fixed, 9, { sentAtMs, countedSinceMs: t0 + 100 }, 'sync 9, a window begun at the latest at 100 ms');
      await synced(limiter, atStart, 9, { sentAtMs, countedSinceMs: t0 }, 'sync 9, a window begun at the latest at 0 ms');
      await synced(limiter, early, 9, { sentAtMs, countedSinceMs: t0 - 5000 }, 'sync 9, countedSinceMs before the rolling default');
      expectBorrowed(await limiter.borrowed(rolling), 10, 'rolling: our 6 and 9 − 5 = 4 others spent');
      expectBorrowed(await limiter.borrowed(fixed), 12, 'from 100 ms: our 6 and 9 − 3 = 6 others spent (the 2 sent at 0 ms not taken)');
      expectBorrowed(await limiter.borrowed(atStart), 12, 'from 0 ms: the 2 sent at 0 ms may precede the window, not taken');
      expectBorrowed(await limiter.borrowed(early), 10, 'from −5000 ms: as the rolling default');
      expectDelay(await limiter.checkRate(rolling, TEN_PER_WINDOW, 1), 440, 'cost 1, rolling: room once the 2 sent at 0 ms leave, at 1050 ms');
      expectDelay(await limiter.checkRate(fixed, TEN_PER_WINDOW, 1), 740, 'cost 1, from 100 ms: room once the 3 sent at 300 ms leave, at 1350 ms');
    },
  ),
  test(
    'RL-V5',
    'the venue counted the reporting request before its answer came back: a sync made sooner than jitterMs after the send takes as counted the sends made after now − windowMs, a later one only those made after sentAtMs + jitterMs − windowMs',
    [...SYNC],
    async ({ limiter, clock }) => {
      const fast = key({ axis: 'answered-after-5-ms' });
      const slow = key({ axis: 'answered-after-60-ms' });
      const t0 = clock.now();
      for (const k of [fast, slow]) await spend(limiter, k, TEN_PER_WINDOW, 2, 'cost 2 at 0 ms');
      await clock.advance(970);
      for (const k of [fast, slow]) await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 970 ms');
      await clock.advance(5);
      // counted by 975 ms, so the venue's rolling window began by −25 ms and holds the 2 sent at 0 ms
      await synced(limiter, fast, 3, { sentAtMs: t0 + 970, countedOwnCost: 1 }, 'sync 3 at 975 ms: the 2 sent at 0 ms and the reporting request');
      expectBorrowed(await limiter.borrowed(fast), 3, 'answered at 975 ms: our 3, nothing others spent');
      await clock.advance(55);
      // counted by 1020 ms at the latest: the window may have begun at 20 ms, after the 2 sent at 0 ms
      await synced(limiter, slow, 3, { sentAtMs: t0 + 970, countedOwnCost: 1 }, 'the same sync 3 at 1030 ms');
      expectBorrowed(await limiter.borrowed(fast), 3, 'answered at 975 ms, at 1030 ms: our 3');
      expectBorrowed(await limiter.borrowed(slow), 5, 'answered at 1030 ms: our 3 and the 2 sent at 0 ms again, as what others may have spent');
      expectOkNow(await limiter.checkRate(fast, TEN_PER_WINDOW, 7), 'cost 7 after the answer at 975 ms', clock.now());
      expectDelay(await limiter.checkRate(slow, TEN_PER_WINDOW, 7), 20, 'cost 7 after the answer at 1030 ms: room once the 2 sent at 0 ms leave, at 1050 ms');
    },
  ),
  test(
    'RL-V5',
    'a report answered to a request sent jitterMs or more after an earlier report replaces it, so borrowed may go down',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'replaced' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(10);
      await synced(limiter, k, 6, { sentAtMs: t0 }, "sync 6 answering A: nothing of ours had certainly arrived, 6 others'");
      expectBorrowed(await limiter.borrowed(k), 7, 'after the report on A');
      await clock.advance(90);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 100 ms');
      await clock.advance(10);
      // B left 100 ms after A: every future window that could hold what A's report counted starts after B's window began
      await synced(limiter, k, 4, { sentAtMs: t0 + 100 }, 'sync 4 answering B: A (sent at 0 ms) taken as counted, 3 others');
      expectBorrowed(await limiter.borrowed(k), 5, "after the report on B: our 2 and B's 3 others, A's report of 6 replaced");
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 6), 940, 'cost 6: room once A leaves, at 1050 ms');
      await clock.advance(90);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request C at 200 ms');
      await clock.advance(10);
      await synced(limiter, k, 2, { sentAtMs: t0 + 200 }, 'sync 2 answering C: exactly A and B');
      expectBorrowed(await limiter.borrowed(k), 3, "after the report on C: our 3 alone, B's report replaced by one of nothing");
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 7), 'cost 7 beside our 3', clock.now());
    },
  ),
  test(
    'RL-V5',
    "a report answered before the next request was sent is replaced by that request's report, even within jitterMs of it: fast answers never join into one report at the largest",
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'answered-before-the-next' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(5);
      await synced(limiter, k, 5, { sentAtMs: t0, countedOwnCost: 1 }, 'sync 5 answering A, at 5 ms: A and 4 others');
      expectBorrowed(await limiter.borrowed(k), 5, 'after the report on A: our 1 and 4 others');
      await clock.advance(5);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 10 ms, after A was answered');
      await clock.advance(5);
      // the venue counted A by 5 ms, before B was sent: B's count covers A's, and says 1 other
      await synced(limiter, k, 3, { sentAtMs: t0 + 10, countedOwnCost: 2 }, 'sync 3 answering B, at 15 ms: A, B and 1 other');
      expectBorrowed(await limiter.borrowed(k), 3, "after the report on B: A's report replaced, our 2 and 1 other");
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 7), 'cost 7 beside our 2 and the 1 other', clock.now());
    },
  ),
  test(
    'RL-V5',
    'two reports answered to requests sent within jitterMs of each other: a window counts the larger of those still counting in it, each until one window after the venue counted it, never their sum',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'merged' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(30);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 30 ms');
      await clock.advance(10);
      await synced(limiter, k, 5, { sentAtMs: t0 }, 'sync 5 answering A, at 40 ms');
      expectBorrowed(await limiter.borrowed(k), 7, 'after the report on A: our 2 and 5 others');
      await clock.advance(30);
      // A was counted by 40 ms, after B was sent: B's count may not hold it
      await synced(limiter, k, 4, { sentAtMs: t0 + 30 }, 'sync 4 answering B, sent 30 ms after A, at 70 ms');
      expectBorrowed(await limiter.borrowed(k), 7, 'after the report on B: the larger report, 5, neither summed (9) nor replaced (4)');
      expectDelay(
        await limiter.checkRate(k, TEN_PER_WINDOW, 5),
        980,
        "cost 5: room once A and A's report (counted by 40 ms) leave, at 1050 ms, B's 4 still counted",
      );
      expectDelay(
        await limiter.checkRate(k, TEN_PER_WINDOW, 6),
        1000,
        "cost 6: room once B's report leaves, one window after B was counted (by 70 ms), at 1070 ms",
      );
    },
  ),
  test(
    'RL-V5',
    'a report leaves as soon as a report answering a request sent after the venue counted it comes, however many reports in between overlapped it',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'overlapping-chain' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(30);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 30 ms');
      await clock.advance(10);
      await synced(limiter, k, 5, { sentAtMs: t0 }, 'sync 5 answering A, at 40 ms: 5 others');
      await clock.advance(20);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request C at 60 ms, after A was answered, before B was');
      await clock.advance(10);
      await synced(limiter, k, 4, { sentAtMs: t0 + 30 }, 'sync 4 answering B, at 70 ms: 4 others, A may have been counted after it');
      expectBorrowed(await limiter.borrowed(k), 8, 'after the report on B: our 3 and the larger report, 5');
      await clock.advance(20);
      // C left after the venue counted A (by 40 ms): A's report leaves, though B's, which C overlaps, stays
      await synced(limiter, k, 3, { sentAtMs: t0 + 60 }, 'sync 3 answering C, at 90 ms: A taken as counted, 2 others');
      expectBorrowed(await limiter.borrowed(k), 7, "after the report on C: our 3 and B's report, 4, the larger still counting; A's 5 gone");
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 4), 960, 'cost 4: room once A leaves, at 1050 ms');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 3), 'cost 3 beside our 3 and the 4', clock.now());
    },
  ),
  test(
    'RL-V5',
    'a sync without a send time never lowers: it replaces nothing, and an earlier report counts as long as it did',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'without-send-time' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(10);
      await synced(limiter, k, 6, { sentAtMs: t0 }, 'sync 6 answering A');
      expectBorrowed(await limiter.borrowed(k), 7, 'after the report on A');
      await clock.advance(190);
      await synced(limiter, k, 1, undefined, 'sync 1 without a send time, at 200 ms');
      expectBorrowed(await limiter.borrowed(k), 7, 'after sync 1 without a send time (never lowered)');
      await synced(limiter, k, 0, undefined, 'sync 0 without a send time');
      expectBorrowed(await limiter.borrowed(k), 7, 'after sync 0 without a send time');
      expectDelay(
        await limiter.checkRate(k, TEN_PER_WINDOW, 5),
        810,
        "cost 5: room once A's report (counted by 10 ms) leaves, at 1010 ms, the report of 1 counted until 1250 ms",
      );
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 1050, 'cost 10: room once the report of 1 without a send time leaves, one span after 200 ms');
      await synced(limiter, k, 1, { sentAtMs: t0 + 190 }, 'sync 1 answering a request sent at 190 ms, within jitterMs of the report at 200 ms');
      expectBorrowed(await limiter.borrowed(k), 2, "after it: A's report (counted by 10 ms) replaced, the report at 200 ms not");
      await clock.advance(60);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 260 ms');
      await clock.advance(10);
      await synced(limiter, k, 1, { sentAtMs: t0 + 260 }, 'sync 1 answering B: exactly A');
      expectBorrowed(await limiter.borrowed(k), 2, 'after the report on B: our 2 alone');
    },
  ),
  test(
    'RL-V5',
    'a send marked answered still leaves the window one span after its send time, however late its answer came',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'answered-late' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 10, 'cost 10 at 0 ms: the window full');
      await clock.advance(200);
      await synced(limiter, k, 10, { sentAtMs: t0, countedOwnCost: 10, answeredCost: 10 }, 'sync 10 answering it 200 ms later, marking it answered');
      expectBorrowed(await limiter.borrowed(k), 10, 'our 10 and nothing for others');
      // the venue counted it by 50 ms; it leaves every interval ending at 1050 ms or later, not 1250 ms
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 850, 'cost 1: room at 1050 ms, one span after the send');
    },
  ),
  test(
    'RL-V6',
    'merging past 128 entries keeps the sends of the last 2 · jitterMs apart: a sync then takes as counted exactly the sends it would without merging',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'merged-then-synced' });
      const limit = { perWindow: 1000, windowMs: 10_000, jitterMs: 50 };
      const t0 = clock.now();
      // 100 sends 10 ms apart, then 40 sends 1 ms apart: 140, more than the list keeps
      for (let i = 0; i < 100; i++) {
        await spend(limiter, k, limit, 1, `send #${i + 1}`);
        await clock.advance(10);
      }
      for (let i = 0; i < 40; i++) {
        await spend(limiter, k, limit, 1, `send #${101 + i}, 1 ms apart`);
        await clock.advance(1);
      }
      await clock.advance(t0 + 1070 - clock.now());
      await spend(limiter, k, limit, 1, 'the reporting request at 1070 ms');
      await clock.advance(5);
      // the venue counted all 141; taken as counted: the sends up to 1020 ms (121) and the reporting request;
      // the 19 sent from 1021 ms may still have been on their way, so they come back as others' spending
      expectDone(await limiter.sync(k, limit, 141, { sentAtMs: t0 + 1070, countedOwnCost: 1 }), 'sync 141 answering the reporting request');
      expectBorrowed(await limiter.borrowed(k), 160, 'our 141 and the 19 still on their way taken as others');
    },
  ),
  test(
    'RL-V6',
    "merging past 128 entries keeps a fixed window's start apart where a report put it, though the venue anchored its windows off the multiples of windowMs: a later report on the next window then takes as counted exactly its own sends",
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'merged-across-an-anchored-start' });
      const limit = { perWindow: 1000, windowMs: 1000, jitterMs: 10 };
      const t0 = clock.now();
      // the venue's windows begin at t0 − 582.5 ms + k · 1000 ms (anchored at a credential's first request)
      await spend(limiter, k, limit, 1, 'the first reporting request at 0 ms');
      await clock.advance(5);
      expectDone(
        await limiter.sync(k, limit, 1, { sentAtMs: t0, countedSinceMs: t0 - 582.5, countedOwnCost: 1 }),
        'sync 1 answering it: the window began at -582.5 ms',
      );
      // 41 sends 10 ms apart, 40 sends 1 ms apart across the next window's start (417.5 ms), 54 sends 10 ms apart
      const sends = [
        ...Array.from({ length: 41 }, (_, i) => 10 + 10 * i),
        ...Array.from({ length: 40 }, (_, i) => 417 + i),
        ...Array.from({ length: 54 }, (_, i) => 460 + 10 * i),
      ];
      for (const at of sends) {
        await clock.advance(t0 + at - clock.now());
        await spend(limiter, k, limit, 1, `a send at ${at} ms`);
      }
      await clock.advance(t0 + 1000 - clock.now());
      await spend(limiter, k, limit, 1, 'the reporting request at 1000 ms');
      await clock.advance(5);
      // the venue counted the 93 sends from 418 ms to 990 ms and the reporting request, all of them ours
      expectDone(
        await limiter.sync(k, limit, 94, { sentAtMs: t0 + 1000, countedSinceMs: t0 + 417.5, countedOwnCost: 1 }),
        'sync 94 answering the reporting request: the window began at 417.5 ms',
      );
      expectBorrowed(
        await limiter.borrowed(k),
        137,
        'our 137 sends and nothing for others (a merged entry across 417.5 ms would come back as others spending)',
      );
    },
  ),
  test('RL-V5', 'reports answered to one request are kept as one at the larger cost', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'synced' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
    await clock.advance(100);
    await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 100 ms');
    await clock.advance(10);
    const sentAtMs = t0 + 100;
    await synced(limiter, k, 4, { sentAtMs }, 'sync 4: exactly the sends the venue had certainly counted');
    expectBorrowed(await limiter.borrowed(k), 5, 'after a report of only our own sends');
    await synced(limiter, k, 7, { sentAtMs }, 'sync 7');
    expectBorrowed(await limiter.borrowed(k), 8, 'after sync 7: 3 others spent');
    await synced(limiter, k, 5, { sentAtMs }, 'sync 5');
    expectBorrowed(await limiter.borrowed(k), 8, 'after sync 5: 1 others spent, the larger 3 kept');
    await synced(limiter, k, 9, { sentAtMs }, 'sync 9');
    expectBorrowed(await limiter.borrowed(k), 10, 'after sync 9: 5 others spent, the larger, not 3 + 5');
  }),
  test('RL-V5', 'a sync never replaces a penalty nor merges with it', [...SYNC, 'penalize'], async ({ limiter, clock }) => {
    const k = key({ axis: 'penalized-then-synced' });
    const t0 = clock.now();
    await synced(limiter, k, 0, undefined, 'sync 0: the bucket defined as a window limit');
    expectDone(await limiter.penalize(k, { forMs: 100 }), 'penalize for 100 ms: the window full over [0, 100] ms');
    await clock.advance(210);
    await synced(limiter, k, 0, { sentAtMs: t0 + 200 }, 'sync 0 answering a request sent at 200 ms');
    expectBorrowed(await limiter.borrowed(k), 10, 'the penalty after the sync');
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 940, 'cost 1: one span after the hold ends, at 1150 ms');
    await clock.advance(10);
    await synced(limiter, k, 3, { sentAtMs: t0 + 210 }, 'sync 3 answering a request sent at 210 ms');
    expectBorrowed(await limiter.borrowed(k), 13, 'the penalty and 3 others spent beside it');
  }),
  test(
    'RL-V5',
    'a send a sync said was answered (answeredCost) is taken as counted by a later report whose request left after the answer, however recently it was sent; one answered after that request left is not',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'answered' });
      const t0 = clock.now();
      await answeredThenReported(limiter, limiter, k, clock);
      await clock.advance(60);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request C at 100 ms');
      await clock.advance(5);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request D at 105 ms');
      await clock.advance(5);
      await synced(limiter, k, 3, { sentAtMs: t0 + 100, countedOwnCost: 1, answeredCost: 1 }, 'sync 3 answering C at 110 ms: C marked answered');
      expectBorrowed(await limiter.borrowed(k), 4, 'our 4 after the report on C');
      await clock.advance(10);
      await synced(limiter, k, 4, { sentAtMs: t0 + 105, countedOwnCost: 1 }, 'sync 4 answering D at 120 ms');
      expectBorrowed(
        await limiter.borrowed(k),
        5,
        'our 4 and C taken as others: answered at 110 ms, after D left at 105 ms, it may have reached the venue after D',
      );
      // an answeredCost other than the send's own cost marks nothing
      const k2 = key({ axis: 'answered-other-cost' });
      const t1 = clock.now();
      await spend(limiter, k2, TEN_PER_WINDOW, 2, 'request E of cost 2');
      await clock.advance(10);
      await synced(limiter, k2, 2, { sentAtMs: t1, countedOwnCost: 2, answeredCost: 1 }, 'sync 2 answering E with answeredCost 1: no send of cost 1 there');
      await clock.advance(20);
      await spend(limiter, k2, TEN_PER_WINDOW, 1, 'request F 30 ms after E');
      await clock.advance(10);
      await synced(limiter, k2, 3, { sentAtMs: t1 + 30, countedOwnCost: 1 }, 'sync 3 answering F');
      expectBorrowed(await limiter.borrowed(k2), 5, 'our 3 and E taken as others: never marked answered');
    },
  ),
  test(
    'RL-V5',
    "a send marked answered with its fixed window's end is taken as counted by a later report of the same window that says more, though its answer came after that report's request left",
    [...SYNC],
    async ({ limiter, clock }) => {
      const same = await answeredInWindow(limiter, limiter, key({ axis: 'window-end-same' }), clock, 5, (t0) => endOf(t0, 50));
      expectEqual(same, 5, 'same window, 5 > 3: B was counted before A; our 2 and 3 for others (B taken as others too would make 6)');
      const k = key({ axis: 'window-end-room' });
      await answeredInWindow(limiter, limiter, k, clock, 5, (t0) => endOf(t0));
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 5), 'cost 5 then fits: 5 + 5 is the limit', clock.now());
      const equal = await answeredInWindow(limiter, limiter, key({ axis: 'window-end-equal' }), clock, 3, (t0) => endOf(t0));
      expectEqual(equal, 4, "A's count 3 is no more than B's: B may have been counted after A; our 2 and 2 for others");
      const next = await answeredInWindow(limiter, limiter, key({ axis: 'window-end-next' }), clock, 5, (t0) => endOf(t0, 1000));
      expectEqual(next, 6, 'A reports the next window (its end 1000 ms later): B is not taken; our 2 and 4 for others');
      const none = await answeredInWindow(limiter, limiter, key({ axis: 'window-end-none' }), clock, 5, () => undefined);
      expectEqual(none, 6, "A's sync gives no window end: B is not taken");
      const wide = await answeredInWindow(limiter, limiter, key({ axis: 'window-end-wide' }), clock, 5, (t0) => endOf(t0, 0, 250));
      expectEqual(wide, 6, "A's window end known only to 250 ms, a quarter window: B is not taken");
      const wideB = await answeredInWindow(
        limiter,
        limiter,
        key({ axis: 'window-end-wide-b' }),
        clock,
        5,
        (t0) => endOf(t0),
        (t0) => endOf(t0, 0, 250),
      );
      expectEqual(wideB, 6, "B's window end known only to 250 ms: nothing kept with its mark, B is not taken");
      const early = await answeredInWindow(limiter, limiter, key({ axis: 'window-end-before-start' }), clock, 5, (t0) => endOf(t0), endOf, 20);
      expectEqual(
        early,
        5,
        "A's window began at the latest at 20 ms, when B was sent: B is taken by its record all the same (a fixed window's start is known only so closely)",
      );
    },
  ),
  test(
    'RL-V5',
    "a send one limiter marked answered with its fixed window's end is taken as counted by a later report of that window through another sharing the store",
    [...SYNC, 'distributed', 'peer'],
    async ({ limiter, clock, peer }) => {
      const other = await peer();
      expectEqual(
        await answeredInWindow(limiter, other, key({ axis: 'window-end-shared' }), clock, 5, (t0) => endOf(t0, 50)),
        5,
        'our 2 and 3 for others, through the other limiter',
      );
      expectEqual(
        await answeredInWindow(other, limiter, key({ axis: 'window-end-shared-back' }), clock, 5, (t0) => endOf(t0, -50)),
        5,
        'our 2 and 3 for others, the other way round',
      );
    },
  ),
  test(
    'RL-V5',
    'a send one limiter said was answered is taken as counted by a report through another sharing the store',
    [...SYNC, 'distributed', 'peer'],
    async ({ limiter, clock, peer }) => {
      await answeredThenReported(limiter, await peer(), key({ axis: 'answered-shared' }), clock);
    },
  ),
  test(
    'RL-V5',
    'sync options: sentAtMs and countedSinceMs finite numbers, countedOwnCost and answeredCost finite numbers >= 0, windowEnd two finite numbers in order; anything else is invalid_parameters naming it and changes nothing',
    [...SYNC],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'sync-options' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
      await clock.advance(100);
      const sentAtMs = t0 + 90;
      const bad: readonly [string, number, unknown, string][] = [
        ['minBorrowed -1', -1, { sentAtMs }, 'minBorrowed'],
        ['sentAtMs NaN', 7, { sentAtMs: Number.NaN }, 'options.sentAtMs'],
        ['sentAtMs as a string', 7, { sentAtMs: String(sentAtMs) }, 'options.sentAtMs'],
        ['countedSinceMs NaN', 7, { sentAtMs, countedSinceMs: Number.NaN }, 'options.countedSinceMs'],
        ['countedSinceMs -Infinity', 7, { sentAtMs, countedSinceMs: Number.NEGATIVE_INFINITY }, 'options.countedSinceMs'],
        ['countedOwnCost -1', 7, { sentAtMs, countedOwnCost: -1 }, 'options.countedOwnCost'],
        ['countedOwnCost NaN', 7, { sentAtMs, countedOwnCost: Number.NaN }, 'options.countedOwnCost'],
        ['countedOwnCost Infinity', 7, { sentAtMs, countedOwnCost: Number.POSITIVE_INFINITY }, 'options.countedOwnCost'],
        ['countedOwnCost as a string', 7, { sentAtMs, countedOwnCost: '1' }, 'options.countedOwnCost'],
        ['countedOwnCost null', 7, { sentAtMs, countedOwnCost: null }, 'options.countedOwnCost'],
        ['countedOwnCost -1 without a send time', 7, { countedOwnCost: -1 }, 'options.countedOwnCost'],
        ['answeredCost -1', 7, { sentAtMs, answeredCost: -1 }, 'options.answeredCost'],
        ['answeredCost NaN', 7, { sentAtMs, answeredCost: Number.NaN }, 'options.answeredCost'],
        ['answeredCost as a string', 7, { sentAtMs, answeredCost: '1' }, 'options.answeredCost'],
        ['windowEnd a number', 7, { sentAtMs, windowEnd: 1000 }, 'options.windowEnd'],
        ['windowEnd null', 7, { sentAtMs, windowEnd: null }, 'options.windowEnd'],
        ['windowEnd.earliestMs NaN', 7, { sentAtMs, windowEnd: { earliestMs: Number.NaN, latestMs: t0 + 1000 } }, 'options.windowEnd.earliestMs'],
        ['windowEnd.latestMs missing', 7, { sentAtMs, windowEnd: { earliestMs: t0 + 1000 } }, 'options.windowEnd.latestMs'],
        ['windowEnd.latestMs before earliestMs', 7, { sentAtMs, windowEnd: { earliestMs: t0 + 1000, latestMs: t0 + 900 } }, 'options.windowEnd.latestMs'],
      ];
      for (const [what, used, options, path] of bad) {
        const e = expectError(await limiter.sync(k, TEN_PER_WINDOW, used, options as SyncOptions), 'invalid_parameters', `sync with ${what}`);
        if (e.error.path !== undefined) expectEqual(e.error.path, path, `sync with ${what}: error.path`);
        else
          expectTrue(
            e.error.message.includes(path.replace('options.', '')),
            `sync with ${what}: the error names neither by its path nor in its message ${path}: ${show(e)}`,
          );
      }
      expectBorrowed(await limiter.borrowed(k), 4, 'after the refused syncs');
      await synced(limiter, k, 7, { sentAtMs, countedSinceMs: t0 - 1, countedOwnCost: 0 }, 'sync 7 with countedOwnCost 0');
      expectBorrowed(await limiter.borrowed(k), 7, 'after sync 7: our 4 and 3 others spent');
    },
  ),
];
