import type { BucketKey, RateLimiter, RecordOptions } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectDone, expectOkNow, expectTrue, show } from '../expect.js';
import { TEN_PER_WINDOW, key, landed, spend } from './fixtures.js';

// Sends that went out later than admitted (RL-V7), on 10 per 1000 ms with 50 ms of jitter: a send counts
// in every interval of 1050 ms of send times that holds it. Times below are from the start of each test.

const LATE = ['injectableClock', 'windowLimits'] as const;

/** The send admitted at `admittedAtMs` went out at some time from `earliestMs` to `latestMs`. */
function late(admittedAtMs: number, earliestMs: number, latestMs = earliestMs): RecordOptions {
  return { admittedAtMs, sent: { earliestMs, latestMs } };
}

/** Whether `cost` would be admitted now (a peek: nothing changes). */
async function fitsNow(limiter: RateLimiter, k: BucketKey, cost: number, what: string): Promise<void> {
  expectOkNow(await limiter.peek([{ key: k, limit: TEN_PER_WINDOW, cost }]), what);
}

/** A send of 4 at 0 ms that went out at 300 ms: counted once from then, until 1350 ms. */
async function movedOnce(
  admitting: RateLimiter,
  recording: RateLimiter,
  k: BucketKey,
  clock: { now(): number; advance(ms: number): Promise<void> },
): Promise<void> {
  const t0 = clock.now();
  await spend(admitting, k, TEN_PER_WINDOW, 4, 'cost 4 admitted at 0 ms');
  await clock.advance(300);
  recording.record(k, 4, TEN_PER_WINDOW, late(t0, t0 + 300));
  await landed();
  expectBorrowed(await recording.borrowed(k), 4, 'the send moved to 300 ms counts once, not again beside its admission');
  await fitsNow(recording, k, 6, 'cost 6 at 300 ms beside the moved 4');
  await clock.advance(800);
  // the admission alone would have left every interval ending at 1050 ms or later; the send went out at 300 ms
  expectDelay(await recording.checkRate(k, TEN_PER_WINDOW, 7), 250, 'cost 7 at 1100 ms: room at 1350 ms, one span after it went out');
}

export const WINDOW_LATE: readonly ConformanceTest[] = [
  test(
    'RL-V7',
    'a send that went out later than admitted moves there: counted once, until one span after it went out',
    [...LATE],
    async ({ limiter, clock }) => {
      await movedOnce(limiter, limiter, key({ axis: 'late-moved' }), clock);
    },
  ),
  test('RL-V7', 'a send that may have gone out at any time in a range counts until one span after the latest', [...LATE], async ({ limiter, clock }) => {
    const k = key({ axis: 'late-range' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 admitted at 0 ms');
    await clock.advance(100);
    limiter.record(k, 4, TEN_PER_WINDOW, late(t0, t0, t0 + 100));
    await landed();
    expectBorrowed(await limiter.borrowed(k), 4, 'one send, anywhere from 0 to 100 ms');
    await clock.advance(1000);
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 7), 50, 'cost 7 at 1100 ms: room at 1150 ms, one span after 100 ms');
  }),
  test('RL-V7', 'a send a sync marked answered keeps counting until one span after its mark when it moves', [...LATE, 'sync'], async ({ limiter, clock }) => {
    const k = key({ axis: 'late-answered' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 admitted at 0 ms');
    await clock.advance(200);
    expectDone(
      await limiter.sync(k, TEN_PER_WINDOW, 4, { sentAtMs: t0, countedOwnCost: 4, answeredCost: 4 }),
      'sync 4 answering it at 200 ms, marking it answered',
    );
    limiter.record(k, 4, TEN_PER_WINDOW, late(t0, t0, t0 + 50));
    await landed();
    expectBorrowed(await limiter.borrowed(k), 4, 'one send, not counted again');
    await fitsNow(limiter, k, 6, 'cost 6 at 200 ms beside it');
    await clock.advance(1000);
    expectDelay(await limiter.checkRate(k, TEN_PER_WINDOW, 7), 50, 'cost 7 at 1200 ms: room at 1250 ms, one span after the mark at 200 ms');
  }),
  test(
    'RL-V7',
    'an answered send that went out when admitted and arrived by its mark stays one send: a later report of its fixed window that says more takes it as counted',
    [...LATE, 'sync'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'late-answered-record' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request A at 0 ms');
      await clock.advance(20);
      await spend(limiter, k, TEN_PER_WINDOW, 1, 'request B at 20 ms');
      await clock.advance(10);
      const end = { earliestMs: t0 + 900, latestMs: t0 + 1000 };
      expectDone(
        await limiter.sync(k, TEN_PER_WINDOW, 3, { sentAtMs: t0 + 20, countedOwnCost: 1, answeredCost: 1, windowEnd: end }),
        "sync 3 answering B at 30 ms: B marked answered, with its window's end",
      );
      // B's answer was slow: it may have reached the venue as late as 30 ms, when its answer came
      limiter.record(k, 1, TEN_PER_WINDOW, late(t0 + 20, t0 + 20, t0 + 30));
      await landed();
      await clock.advance(10);
      expectDone(await limiter.sync(k, TEN_PER_WINDOW, 5, { sentAtMs: t0, countedOwnCost: 1, windowEnd: end }), 'sync 5 answering A at 40 ms, the same window');
      expectBorrowed(await limiter.borrowed(k), 5, 'B was counted before A (5 > 3): our 2 and 3 for others (B taken as others would make 6)');
    },
  ),
  test(
    'RL-V7',
    'without an entry that can hold the send (another send time) the record counts as sent now; with another cost at that time, that entry counts until one span after the latest time',
    [...LATE],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'late-unmatched' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 admitted at 0 ms');
      await clock.advance(100);
      limiter.record(k, 1, TEN_PER_WINDOW, late(t0 + 7, t0 + 100));
      await landed();
      expectBorrowed(await limiter.borrowed(k), 5, 'the admitted 4 and the record at 100 ms: nothing was sent at 7 ms');
      // (the store cannot tell a send of 3 merged with another at 0 ms from one send of 4: the send is in it)
      limiter.record(k, 3, TEN_PER_WINDOW, late(t0, t0 + 100));
      await landed();
      expectBorrowed(await limiter.borrowed(k), 5, 'the entry at 0 ms holds the send of 3: not counted again');
      await clock.advance(1000);
      expectBorrowed(await limiter.borrowed(k), 5, 'at 1100 ms the entry at 0 ms still counts (until 1150 ms), and the record');
      await clock.advance(50);
      expectBorrowed(await limiter.borrowed(k), 0, 'at 1150 ms both left');
    },
  ),
  test(
    'RL-V7',
    'a send merged with others past 128 entries: the entries that hold it count until one span after it went out, and it is not counted again',
    [...LATE],
    async ({ limiter, clock }) => {
      const limit = { perWindow: 1000, windowMs: 10_000, jitterMs: 50 };
      const moved = key({ axis: 'late-merged' });
      const twin = key({ axis: 'late-merged-twin' });
      const t0 = clock.now();
      // 100 sends 10 ms apart, then 40 sends 1 ms apart, on both buckets: 140, more than a list keeps, so
      // the oldest neighbours merge (the send at 0 ms with the one at 10 ms)
      for (let i = 0; i < 140; i++) {
        for (const k of [moved, twin]) await spend(limiter, k, limit, 1, `send #${i + 1}`);
        await clock.advance(i < 100 ? 10 : 1);
      }
      limiter.record(moved, 1, limit, late(t0, t0 + 300));
      await landed();
      const same = (await limiter.borrowed(moved)) === (await limiter.borrowed(twin));
      expectTrue(same, 'the send at 0 ms that went out at 300 ms is not counted again');
      // the send at 0 ms left every interval ending at 10 050 ms; it went out at 300 ms, so it counts until 10 350 ms
      await clock.advance(t0 + 10_300 - clock.now());
      const a = await limiter.borrowed(moved);
      const b = await limiter.borrowed(twin);
      expectTrue(
        typeof a === 'number' && typeof b === 'number' && a >= b + 1,
        `at 10 300 ms the moved send still counts: ${show(a)} against ${show(b)} without it`,
      );
    },
  ),
  test(
    'RL-V7',
    'options that are not finite numbers in order, or cannot be read, are ignored: the record counts as sent now',
    [...LATE],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'late-invalid' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 admitted at 0 ms');
      await clock.advance(100);
      const unreadable = {
        admittedAtMs: t0,
        get sent(): never {
          throw new Error('unreadable');
        },
      };
      const invalid: unknown[] = [
        late(t0, t0 - 10),
        late(t0, t0 + 100, t0 + 50),
        late(t0, Number.NaN),
        { admittedAtMs: t0 },
        { admittedAtMs: 'x', sent: { earliestMs: t0, latestMs: t0 } },
        unreadable,
      ];
      for (const options of invalid) limiter.record(k, 4, TEN_PER_WINDOW, options as RecordOptions);
      await landed();
      expectBorrowed(await limiter.borrowed(k), 28, 'the admitted 4 and six records of 4 at 100 ms');
    },
  ),
  test('RL-V7', 'a send one limiter admitted moves through another sharing the store', [...LATE, 'distributed', 'peer'], async ({ limiter, clock, peer }) => {
    await movedOnce(await peer(), limiter, key({ axis: 'late-shared' }), clock);
  }),
];
