import type { BucketKey, RateLimiter, SyncOptions } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectDone, expectOkNow } from '../expect.js';
import { TEN_PER_WINDOW, key, spend } from './fixtures.js';
import type { ManualClock } from '../manual-clock.js';

// A fixed window forgets what reached the venue before it began (RL-V9), on 10 per 1000 ms with 50 ms
// of jitter: without it, a send counts in every interval of 1050 ms of send times that holds it. Times
// below are from the start of each test.

const FORGET = ['injectableClock', 'windowLimits', 'sync'] as const;

/** A sync that must be applied. */
async function synced(limiter: RateLimiter, k: BucketKey, used: number, options: SyncOptions, what: string): Promise<void> {
  expectDone(await limiter.sync(k, TEN_PER_WINDOW, used, options), what);
}

/**
 * Cost 6 at 0 ms and 3 at 440 ms; the reporting request, cost 1, at 600 ms, answered at 610 ms: the
 * venue counted 1 in a fixed window that ends as `windowEnd` says (the report's `countedSinceMs` puts
 * its start at or before 520 ms).
 */
async function turned(limiter: RateLimiter, k: BucketKey, clock: ManualClock, report: (t0: number) => SyncOptions): Promise<void> {
  const t0 = clock.now();
  await spend(limiter, k, TEN_PER_WINDOW, 6, 'cost 6 at 0 ms');
  await clock.advance(440);
  await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 440 ms');
  await clock.advance(160);
  await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request, cost 1 at 600 ms');
  await clock.advance(10);
  await synced(limiter, k, 1, report(t0), 'sync 1 answering the request sent at 600 ms');
}

export const WINDOW_FORGET: readonly ConformanceTest[] = [
  test('RL-V9', "a sync that tells a fixed window's end forgets the sends that reached the venue before that window began, and keeps those that may have reached it after", [...FORGET], async ({ limiter, clock }) => {
    const k = key({ axis: 'forgets-before-start' });
    const t0 = clock.now();
    // the window ends between 1480 and 1520 ms, so it began at 480 ms at the earliest
    await turned(limiter, k, clock, () => ({ sentAtMs: t0 + 600, countedSinceMs: t0 + 520, countedOwnCost: 1, windowEnd: { earliestMs: t0 + 1480, latestMs: t0 + 1520 } }));
    // the 6 sent at 0 ms reached the venue by 50 ms; the 3 sent at 440 ms may have reached it at 490 ms
    expectBorrowed(await limiter.borrowed(k), 4, 'the 3 sent at 440 ms and the reporting request; the 6 sent at 0 ms forgotten');
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 7), 880, 'cost 7: the 3 sent at 440 ms may be in the new window; room once they leave, at 1490 ms');
    expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 6), 'cost 6 at 610 ms: 4 in the new window and 6 make 10', clock.now());
  }),
  test('RL-V9', "a sync forgets nothing when its windowEnd is a quarter window or wider, or when it gives no sentAtMs", [...FORGET], async ({ limiter, clock }) => {
    const wide = key({ axis: 'window-end-too-wide' });
    const anon = key({ axis: 'no-send-time' });
    const t0 = clock.now();
    const both = async (k: BucketKey, report: SyncOptions): Promise<void> => {
      await turned(limiter, k, clock, () => report);
      expectBorrowed(await limiter.borrowed(k), 10, 'everything sent still counts');
      expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 6), 440, 'cost 6: room once the 6 sent at 0 ms leave, at 1050 ms');
    };
    // an end known only to within 320 ms does not tell the window from the next
    await both(wide, { sentAtMs: t0 + 600, countedSinceMs: t0 + 520, countedOwnCost: 1, windowEnd: { earliestMs: t0 + 1200, latestMs: t0 + 1520 } });
    await clock.advance(5_000);
    const t1 = clock.now();
    // without the reporting request's send time, the report may be older than it looks; the request and the venue's 1 taken as others'
    await turned(limiter, anon, clock, () => ({ countedSinceMs: t1 + 520, windowEnd: { earliestMs: t1 + 1480, latestMs: t1 + 1520 } }));
    expectBorrowed(await limiter.borrowed(anon), 11, 'everything sent still counts, and the 1 reported');
    expectDelay(await limiter.checkRate(anon, TEN_PER_WINDOW, 5), 440, 'cost 5: room once the 6 sent at 0 ms leave, at 1050 ms');
  }),
  test('RL-V9', "a sync that tells a fixed window's end forgets what an earlier report counted before that window began, though it was counted after this report's request was sent", [...FORGET], async ({ limiter, clock }) => {
    const k = key({ axis: 'forgets-reports' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
    await clock.advance(30);
    await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 30 ms');
    await clock.advance(20);
    // A's answer: 9 counted, A and 8 by others, counted by 50 ms
    await synced(limiter, k, 9, { sentAtMs: t0, countedOwnCost: 1 }, 'sync 9 answering A at 50 ms');
    expectBorrowed(await limiter.borrowed(k), 10, 'A, B and the 8 others spent');
    await clock.advance(20);
    // B's answer: 1 counted in a window that ends between 1060 and 1100 ms, so began at 60 ms at the
    // earliest, after the venue counted A's report (by 50 ms); B may have reached it at 80 ms
    await synced(limiter, k, 1, { sentAtMs: t0 + 30, countedOwnCost: 1, windowEnd: { earliestMs: t0 + 1060, latestMs: t0 + 1100 } }, 'sync 1 answering B at 70 ms');
    expectBorrowed(await limiter.borrowed(k), 1, "B alone: A and the others' 8 were counted in the window before");
    expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 9), 'cost 9 at 70 ms: B and 9 make 10 in the new window', clock.now());
  }),
];
