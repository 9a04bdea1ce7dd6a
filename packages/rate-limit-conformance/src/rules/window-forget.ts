import fc from 'fast-check';
import type { BucketKey, Limit, RateLimiter, SyncOptions } from '@core/rate-limit-contract';
import { property, test, type ConformanceTest, type TestContext } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectOkNow, fail, show } from '../expect.js';
import { TEN_PER_WINDOW, key, spend, synced } from './fixtures.js';
import type { ManualClock } from '../manual-clock.js';

// A fixed window forgets what reached the venue before it began (RL-V9), on 10 per 1000 ms with 50 ms
// of jitter: without it, a send counts in every interval of 1050 ms of send times that holds it. Times
// below are from the start of each test.

const FORGET = ['injectableClock', 'windowLimits', 'sync'] as const;

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

/** A venue of fixed windows and one window limit kept for it: its windows start at `phase` plus multiples of `windowMs` (from the run's start). */
interface FixedVenue {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly jitterMs: number;
  readonly phase: number;
}

/**
 * One step: time passes, a send is asked for (and, admitted, reaches the venue `arrive` of the jitter
 * allowance after its send), sends of cost 1 are asked for until one is not admitted at once, a window
 * turns (a send just before its start arriving late, one at its start arriving at once and reported), or
 * the latest send that reached the venue is answered with its window's count.
 */
type ForgetStep =
  | { readonly op: 'advance'; readonly share: number }
  | { readonly op: 'send'; readonly cost: number; readonly arrive: number }
  | { readonly op: 'fill'; readonly arrive: number }
  | { readonly op: 'turn'; readonly before: number }
  | { readonly op: 'report'; readonly early: number; readonly late: number; readonly since: number };

/** Jitter allowances from none to half a window, so that sends near a window's start, arriving late, are common. */
const venueArb: fc.Arbitrary<FixedVenue> = fc
  .record({
    perWindow: fc.integer({ min: 2, max: 12 }),
    windowMs: fc.constantFrom(100, 250, 1000),
    jitter: fc.constantFrom(0, 0.1, 0.3, 0.5),
    phase: fc.double({ min: 0, max: 0.999, noNaN: true }),
  })
  .map((v) => ({ perWindow: v.perWindow, windowMs: v.windowMs, jitterMs: Math.round(v.jitter * v.windowMs), phase: Math.floor(v.phase * v.windowMs) }));

const stepArb: fc.Arbitrary<ForgetStep> = fc.oneof(
  fc.record({ op: fc.constant('advance' as const), share: fc.oneof(fc.double({ min: 0.001, max: 0.5, noNaN: true }), fc.constantFrom(0.01, 0.1, 0.25)) }),
  fc.record({
    op: fc.constant('send' as const),
    cost: fc.integer({ min: 1, max: 3 }),
    arrive: fc.oneof(fc.constantFrom(0, 1, 1), fc.double({ min: 0, max: 1, noNaN: true })),
  }),
  fc.record({ op: fc.constant('fill' as const), arrive: fc.constantFrom(0, 1) }),
  fc.record({ op: fc.constant('turn' as const), before: fc.double({ min: 0.05, max: 1, noNaN: true }) }),
  fc.record({
    op: fc.constant('report' as const),
    early: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.12, noNaN: true })),
    late: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 0.12, noNaN: true })),
    since: fc.oneof(fc.constant(0), fc.double({ min: 0, max: 1, noNaN: true })),
  }),
);

/**
 * One run against a venue of fixed windows: sends asked for with a probe, each reaching the venue up to
 * the jitter allowance after its send time; reports of the latest send that reached it, with what the
 * venue counted in its window up to it (its own cost certified), the window's true end within the bounds
 * told, and a time from the window's true start to the report's arrival as `countedSinceMs` (the window
 * had begun by then). No venue window may hold more than `perWindow` of what arrived.
 */
async function forgetRun(t: TestContext, venue: FixedVenue, steps: readonly ForgetStep[]): Promise<void> {
  const s = await t.spawn();
  try {
    const { limiter, clock } = s;
    const k = key({ axis: 'fixed-venue' });
    const limit: Limit = { perWindow: venue.perWindow, windowMs: venue.windowMs, jitterMs: venue.jitterMs };
    const W = venue.windowMs;
    const origin = clock.now() + venue.phase;
    const windowOf = (at: number): number => Math.floor((at - origin) / W);
    const sends: { sentAt: number; arrival: number; cost: number }[] = [];
    for (const [i, step] of steps.entries()) {
      const now = clock.now();
      const what = `step ${i} ${step.op} at ${now - origin} ms from a window's start`;
      if (step.op === 'advance') {
        await clock.advance(Math.max(1, Math.round(step.share * W)));
      } else if (step.op === 'send') {
        const cost = Math.min(step.cost, venue.perWindow);
        const d = await limiter.checkRate(k, limit, cost);
        if (d.kind === 'ok') sends.push({ sentAt: d.sendAtMs, arrival: d.sendAtMs + step.arrive * venue.jitterMs, cost });
        else if (d.kind !== 'delay') fail(`${what}: ${show(d)}`);
      } else if (step.op === 'turn') {
        // a send of cost 1 `before` of the jitter allowance before the next window's start, reaching the
        // venue as late as it may; at that start another, reaching it at once, and its report at once
        const next = origin + (windowOf(now) + 1) * W;
        const at = next - Math.max(1, Math.round(step.before * venue.jitterMs));
        if (at > now) await clock.advance(at - now);
        const d = await limiter.checkRate(k, limit, 1);
        if (d.kind === 'ok') sends.push({ sentAt: d.sendAtMs, arrival: d.sendAtMs + venue.jitterMs, cost: 1 });
        await clock.advance(Math.max(0, next - clock.now()));
        const e = await limiter.checkRate(k, limit, 1);
        if (e.kind !== 'ok') continue;
        sends.push({ sentAt: e.sendAtMs, arrival: e.sendAtMs, cost: 1 });
        const used = sends.filter((x) => windowOf(x.arrival) === windowOf(e.sendAtMs) && x.arrival <= e.sendAtMs).reduce((sum, x) => sum + x.cost, 0);
        const r = await limiter.sync(k, limit, used, {
          sentAtMs: e.sendAtMs,
          countedOwnCost: 1,
          countedSinceMs: e.sendAtMs,
          windowEnd: { earliestMs: next + W, latestMs: next + W },
        });
        if (r.kind !== 'ok') fail(`${what}: ${show(r)}`);
      } else if (step.op === 'fill') {
        // cost 1 at a time, as long as the limiter admits it now
        for (let n = 0; n < venue.perWindow; n++) {
          const d = await limiter.checkRate(k, limit, 1);
          if (d.kind !== 'ok') break;
          sends.push({ sentAt: d.sendAtMs, arrival: d.sendAtMs + step.arrive * venue.jitterMs, cost: 1 });
        }
      } else {
        let j = -1;
        for (let x = 0; x < sends.length; x++) if (sends[x]!.arrival <= now && (j < 0 || sends[x]!.sentAt >= sends[j]!.sentAt)) j = x;
        const r = sends[j];
        if (r === undefined) continue;
        const w = windowOf(r.arrival);
        const used = sends.filter((x) => windowOf(x.arrival) === w && x.arrival <= r.arrival).reduce((sum, x) => sum + x.cost, 0);
        const end = origin + (w + 1) * W;
        const options: SyncOptions = {
          sentAtMs: r.sentAt,
          countedOwnCost: r.cost,
          windowEnd: { earliestMs: end - step.early * W, latestMs: end + step.late * W },
          countedSinceMs: end - W + step.since * (r.arrival - (end - W)),
        };
        const d = await limiter.sync(k, limit, used, options);
        if (d.kind !== 'ok') fail(`${what}: ${show(d)}`);
      }
    }
    const counted = new Map<number, number>();
    for (const x of sends) counted.set(windowOf(x.arrival), (counted.get(windowOf(x.arrival)) ?? 0) + x.cost);
    for (const [w, sum] of counted) {
      if (sum > venue.perWindow + 1e-9 * venue.perWindow) {
        const inside = sends
          .filter((x) => windowOf(x.arrival) === w)
          .map((x) => `${x.cost} sent at ${x.sentAt - origin - w * W}, arrived at ${x.arrival - origin - w * W}`);
        fail(`RL-V9 broken ${show(venue)}: the venue's window ${w} (from ${w * W} ms) counted ${sum}: ${inside.join('; ')} (ms from its start)`);
      }
    }
  } finally {
    await s.close();
  }
}

export const WINDOW_FORGET: readonly ConformanceTest[] = [
  test(
    'RL-V9',
    "a sync that tells a fixed window's end forgets the sends that reached the venue before that window began, and keeps those that may have reached it after",
    [...FORGET],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'forgets-before-start' });
      const t0 = clock.now();
      // the window ends between 1480 and 1520 ms, so it began at 480 ms at the earliest
      await turned(limiter, k, clock, () => ({
        sentAtMs: t0 + 600,
        countedSinceMs: t0 + 520,
        countedOwnCost: 1,
        windowEnd: { earliestMs: t0 + 1480, latestMs: t0 + 1520 },
      }));
      // the 6 sent at 0 ms reached the venue by 50 ms; the 3 sent at 440 ms may have reached it at 490 ms
      expectBorrowed(await limiter.borrowed(k), 4, 'the 3 sent at 440 ms and the reporting request; the 6 sent at 0 ms forgotten');
      expectDelay(
        await limiter.checkRate(k, TEN_PER_WINDOW, 7),
        880,
        'cost 7: the 3 sent at 440 ms may be in the new window; room once they leave, at 1490 ms',
      );
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 6), 'cost 6 at 610 ms: 4 in the new window and 6 make 10', clock.now());
    },
  ),
  test(
    'RL-V9',
    'a sync forgets nothing when its windowEnd is a quarter window or wider, or when it gives no sentAtMs',
    [...FORGET],
    async ({ limiter, clock }) => {
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
    },
  ),
  test(
    'RL-V9',
    "a sync that tells a fixed window's end forgets what an earlier report counted before that window began, though it was counted after this report's request was sent",
    [...FORGET],
    async ({ limiter, clock }) => {
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
      await synced(
        limiter,
        k,
        1,
        { sentAtMs: t0 + 30, countedOwnCost: 1, windowEnd: { earliestMs: t0 + 1060, latestMs: t0 + 1100 } },
        'sync 1 answering B at 70 ms',
      );
      expectBorrowed(await limiter.borrowed(k), 1, "B alone: A and the others' 8 were counted in the window before");
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 9), 'cost 9 at 70 ms: B and 9 make 10 in the new window', clock.now());
    },
  ),
  property(
    'RL-V9',
    '(property) a venue of fixed windows never counts more than perWindow in one of them, over random limits, phases, sends arriving anywhere within jitterMs, and reports of its windows with their true counts and ends known to within a quarter window',
    ['injectableClock', 'windowLimits', 'sync'],
    (t) => {
      const params: fc.Parameters<[FixedVenue, ForgetStep[]]> = { numRuns: t.options.propertyRuns ?? 60, endOnFailure: t.options.shrink === false };
      return fc.assert(
        fc.asyncProperty(venueArb, fc.array(stepArb, { minLength: 10, maxLength: 80 }), (venue, steps) => forgetRun(t, venue, steps)),
        t.options.propertySeed === undefined ? params : { ...params, seed: t.options.propertySeed },
      );
    },
  ),
];
