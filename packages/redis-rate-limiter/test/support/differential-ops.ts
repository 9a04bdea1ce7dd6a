/**
 * The differential test's model (test/differential.test.ts): the keys, limits and costs its operations use, the
 * operations as a type, and fast-check's arbitraries of operation sequences (plain, on window limits, merging
 * into one large window, answered and reported in fixed windows, mixing admission classes).
 */
import fc from 'fast-check';
import type { BucketCheck, BucketKey, Limit } from '@core/rate-limit-contract';

export const KEYS: readonly BucketKey[] = [
  { venue: 'alpha', credential: null, axis: 'ip' },
  { venue: 'alpha', credential: 'sk-differential', axis: 'orders' },
  { venue: 'beta', credential: null },
];

export const LIMITS: readonly Limit[] = [
  { capacity: 10, refillPerSec: 10 },
  { capacity: 5, refillPerSec: 1 },
  { capacity: 3, refillPerSec: 0 },
  { capacity: 1, refillPerSec: 9.09 },
  { requests: 6000, periodMs: 60_000 },
  { capacity: 0.3, refillPerSec: 0.3 },
  { capacity: 1e-9, refillPerSec: 0 },
  { perWindow: 10, windowMs: 1000, jitterMs: 50 },
  { perWindow: 5, windowMs: 1000 },
  { perWindow: 6000, windowMs: 60_000, jitterMs: 50 },
  { perWindow: 3.5, windowMs: 250.5, jitterMs: 0.25 },
];

const COSTS = [0.1, 0.5, 1, 1, 2, 3, 7, 12, 1e-10, 1e308];

/** A call's class: none (the default), or a priority with or without a reserve of its own. */
type Cls = { priority?: 'critical' | 'normal' | 'bulk'; reserve?: { normal?: number; bulk?: number } } | null;

/** A check: key, limit and cost indexes, and for class calls now and then a reserve of its own (RL-Q6, `CHECK_RESERVES`). */
type Check = [number, number, number] | [number, number, number, number];

/** Checks' own reserves (RL-Q6): a bucket spent to its end, or kept freer than the call's. */
const CHECK_RESERVES: readonly { normal?: number; bulk?: number }[] = [
  { bulk: 0 },
  { normal: 0, bulk: 0 },
  { bulk: 0.5 },
  { normal: 0.2, bulk: 0.4 },
  { normal: 0.05 },
];

export type Op =
  | { op: 'probe' | 'peek'; checks: Check[]; cls?: Cls }
  | { op: 'book'; checks: Check[]; budget: number; cls?: Cls }
  | { op: 'wait'; checks: Check[]; budget: number; cls?: Cls }
  | { op: 'abort' }
  | { op: 'record'; key: number; cost: number; limit: number | null; late?: [number, number, number] | null }
  | {
      op: 'sync';
      key: number;
      limit: number;
      borrowed: number;
      sentAgoMs: number | null;
      elapsedMs: number | null;
      countedOwn: number;
      /** The part of countedOwn sent outside the times the store counts itself (RL-V5). */
      outsideOwn?: number;
      answered: number | null;
      end?: [number, number] | null;
    }
  | { op: 'penalize'; key: number; forMs: number; absolute: boolean }
  | { op: 'reset'; key: number }
  | { op: 'late'; later: number; over: number }
  | { op: 'answerLast'; borrowed: number; end: [number, number] | null }
  | { op: 'held'; shift: number }
  | { op: 'rebook'; shift: number; budget: number }
  | { op: 'advance'; ms: number };

const check = fc.tuple(fc.nat(KEYS.length - 1), fc.nat(LIMITS.length - 1), fc.nat(COSTS.length - 1));
/** The window limits among LIMITS: the window-focused sequences use only these. */
const WINDOW_LIMITS = LIMITS.flatMap((l, i) => (l !== null && 'perWindow' in l ? [i] : []));
const windowLimit = fc.constantFrom(...WINDOW_LIMITS);
const windowCheck = fc.tuple(fc.nat(1), windowLimit, fc.constantFrom(2, 3, 4, 5));
const windowChecks = fc.array(windowCheck, { minLength: 1, maxLength: 2 });
/**
 * A record of a late send (RL-V7), as ms before now: where it was admitted, how much later it went out, and
 * over how long after that (0: one time); now and then out of order (ignored: a record at now).
 */
const LATE = fc.option(fc.tuple(fc.constantFrom(0, 10, 20, 30, 60, 250), fc.constantFrom(0, 5, 10, -1), fc.constantFrom(0, 20)), { nil: null });
/**
 * A fixed window's end, as ms after the run's start and its uncertainty: a few windows' ends (records of
 * the same window meet again), a wide one a sync ignores, and none.
 */
/** A peek at the last admitted or booked send where it is held (RL-V8), now and then at another time (not held there). */
const HELD = { weight: 3, arbitrary: fc.record({ op: fc.constant('held' as const), shift: fc.constantFrom(0, 0, 0, 0.0005, -5, 1) }) };
/** The last admitted or booked send booked again (RL-V8): its entry where it was held given up as the call books. */
const REBOOK = {
  weight: 2,
  arbitrary: fc.record({ op: fc.constant('rebook' as const), shift: fc.constantFrom(0, 0, 0, 7), budget: fc.constantFrom(50, 1000, 100_000) }),
};
const ENDS = fc.option(fc.tuple(fc.constantFrom(200, 1000, 1100, 2000, 60_000), fc.constantFrom(0, 40, 100, 30_000)), { nil: null });
export const windowOpArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constantFrom('probe' as const, 'peek' as const), checks: windowChecks }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('book' as const), checks: windowChecks, budget: fc.constantFrom(50, 1000, 100_000) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('record' as const),
      key: fc.nat(1),
      cost: fc.constantFrom(1, 2, 3, 4, 25),
      limit: fc.option(windowLimit, { nil: null }),
      late: LATE,
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('sync' as const),
      key: fc.nat(1),
      limit: windowLimit,
      borrowed: fc.constantFrom(0, 1, 2.5, 4, 9, 40),
      sentAgoMs: fc.option(fc.constantFrom(-30, 0, 10, 30, 60, 400, 2000), { nil: null }),
      elapsedMs: fc.option(fc.constantFrom(-50, 0, 120, 700, 5000), { nil: null }),
      countedOwn: fc.constantFrom(0, 0.5, 3),
      outsideOwn: fc.constantFrom(0, 0.25, 2),
      answered: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
      end: ENDS,
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('penalize' as const), key: fc.nat(1), forMs: fc.constantFrom(0, 100, 500, 5000), absolute: fc.boolean() }),
  },
  // the last admitted send went out late (RL-V7), and a peek at the last booking where it is held (RL-V8)
  { weight: 2, arbitrary: fc.record({ op: fc.constant('late' as const), later: fc.constantFrom(0, 3, 50, 300), over: fc.constantFrom(0, 20, 500) }) },
  HELD,
  REBOOK,
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(0, 1, 10, 33.3, 100, 250, 999.9, 3000) }) },
);
/** Long runs of sends into one large window (6000 per minute), so that its list fills and merges (RL-V6). */
const BIG_WINDOW = LIMITS.findIndex((l) => l !== null && 'perWindow' in l && l.perWindow === 6000);
const bigChecks = fc.array(fc.tuple(fc.nat(1), fc.constant(BIG_WINDOW), fc.constantFrom(2, 3, 4)), { minLength: 1, maxLength: 2 });
const gateChecks = fc.array(fc.tuple(fc.nat(1), fc.constant(BIG_WINDOW), fc.constantFrom(2, 4, 8)), { minLength: 1, maxLength: 2 });
export const mergeOpArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('probe' as const), checks: bigChecks }) },
  // critical sends among the others, some of them gates (1e-10): they merge among themselves, and with the
  // others at the span times their share of the cost, or for nothing as gates (RL-V6)
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('probe' as const),
      checks: gateChecks,
      cls: fc.constantFrom<Cls>({ priority: 'critical' }, { priority: 'bulk' }, { priority: 'bulk', reserve: { bulk: 0.1 } }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('book' as const), checks: bigChecks, budget: fc.constantFrom(50, 100_000) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('record' as const),
      key: fc.nat(1),
      cost: fc.constantFrom(1, 4),
      limit: fc.option(fc.constant(BIG_WINDOW), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('sync' as const),
      key: fc.nat(1),
      limit: fc.constant(BIG_WINDOW),
      borrowed: fc.constantFrom(0, 40, 300, 900),
      sentAgoMs: fc.option(fc.constantFrom(0, 30, 400, 2000), { nil: null }),
      elapsedMs: fc.option(fc.constantFrom(0, 700, 5000, 30_000), { nil: null }),
      countedOwn: fc.constantFrom(0, 3),
      outsideOwn: fc.constantFrom(0, 0.25, 2),
      answered: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
      end: ENDS,
    }),
  },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 10, 33.3, 100, 250) }) },
);
const DENSE_WINDOWS = LIMITS.flatMap((l, i) => (l !== null && 'perWindow' in l && (l.perWindow === 10 || l.perWindow === 3.5) ? [i] : []));
const denseChecks = fc.array(fc.tuple(fc.nat(1), fc.constantFrom(...DENSE_WINDOWS), fc.constantFrom(0, 0, 0, 1, 2, 4)), { minLength: 1, maxLength: 2 });
/**
 * Small window limits asked for more than they allow, in small steps of time: bookings ahead of now spread over
 * the window's slots, so a send's time is searched among many runs of slots (window.lua's fits_at, its running
 * totals and their exact sums near the line), now and then with others' use reported.
 */
export const denseOpArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('book' as const), checks: denseChecks, budget: fc.constantFrom(400, 100_000) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constantFrom('probe' as const, 'peek' as const), checks: denseChecks }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('sync' as const),
      key: fc.nat(1),
      limit: fc.constantFrom(...DENSE_WINDOWS),
      borrowed: fc.constantFrom(0, 2, 3.5, 9),
      sentAgoMs: fc.option(fc.constantFrom(0, 30, 400), { nil: null }),
      elapsedMs: fc.option(fc.constantFrom(0, 700, 5000), { nil: null }),
      countedOwn: fc.constantFrom(0, 1),
      outsideOwn: fc.constantFrom(0, 0.5),
      answered: fc.constant(null),
      end: ENDS,
    }),
  },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 3, 7.8, 20, 120) }) },
);

/**
 * Sends into one window limit answered and reported soon after, the reports naming a few fixed windows'
 * ends: a send marked answered is taken as counted by a later report of the same window with more usage
 * whose request left before the mark (RL-V5's answer records).
 */
const ANSWER_LIMIT = LIMITS.findIndex((l) => l !== null && 'perWindow' in l && l.perWindow === 10);
export const answerOpArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant('probe' as const),
      checks: fc.array(fc.tuple(fc.nat(1), fc.constant(ANSWER_LIMIT), fc.constantFrom(2, 4)), { minLength: 1, maxLength: 2 }),
    }),
  },
  {
    weight: 5,
    arbitrary: fc.record({
      op: fc.constant('sync' as const),
      key: fc.nat(1),
      limit: fc.constant(ANSWER_LIMIT),
      borrowed: fc.constantFrom(1, 2, 4, 6, 9),
      sentAgoMs: fc.option(fc.constantFrom(0, 10, 20, 30, 60), { nil: null }),
      elapsedMs: fc.option(fc.constantFrom(0, 300), { nil: null }),
      countedOwn: fc.constantFrom(0, 1),
      outsideOwn: fc.constantFrom(0, 0.25, 2),
      answered: fc.option(fc.constantFrom(1, 2), { nil: null }),
      end: fc.option(fc.tuple(fc.constantFrom(900, 1000, 2000, 3000), fc.constantFrom(0, 40, 200, 300)), { nil: null }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('answerLast' as const),
      borrowed: fc.constantFrom(1, 4, 9),
      end: fc.option(fc.tuple(fc.constantFrom(1000, 2000), fc.constantFrom(0, 40)), { nil: null }),
    }),
  },
  // the last admitted send went out late (RL-V7): a send marked answered keeps counting until its mark
  { weight: 2, arbitrary: fc.record({ op: fc.constant('late' as const), later: fc.constantFrom(0, 0, 3, 50), over: fc.constantFrom(0, 20, 500) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('record' as const),
      key: fc.nat(1),
      cost: fc.constantFrom(1, 2, 2, 4),
      limit: fc.constant(null),
      late: fc.option(fc.tuple(fc.constantFrom(0, 10, 20, 30, 60), fc.constantFrom(0, 5), fc.constantFrom(0, 20)), { nil: null, freq: 4 }),
    }),
  },
  HELD,
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(0, 1, 10, 33.3, 250, 1200) }) },
);
const checks = fc.array(check, { minLength: 1, maxLength: 3 });
export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ op: fc.constantFrom('probe' as const, 'peek' as const), checks }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('book' as const), checks, budget: fc.constantFrom(1, 50, 250.5, 1000, 10_000, 1e300) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('wait' as const), checks, budget: fc.constantFrom(100, 1000, 10_000) }) },
  { weight: 1, arbitrary: fc.constant({ op: 'abort' as const }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('record' as const),
      key: fc.nat(KEYS.length - 1),
      cost: fc.constantFrom(0.5, 1, 4, 25, 1e308),
      limit: fc.option(fc.nat(LIMITS.length - 1), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('sync' as const),
      key: fc.nat(KEYS.length - 1),
      limit: fc.nat(LIMITS.length - 1),
      borrowed: fc.constantFrom(0, 1, 2.5, 9, 40, 1e308),
      sentAgoMs: fc.option(fc.constantFrom(-30, 0, 10, 60, 400, 2000), { nil: null }),
      elapsedMs: fc.option(fc.constantFrom(-50, 0, 120, 700, 5000), { nil: null }),
      countedOwn: fc.constantFrom(0, 0.5, 3),
      outsideOwn: fc.constantFrom(0, 0.25, 2),
      answered: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('penalize' as const),
      key: fc.nat(KEYS.length - 1),
      forMs: fc.constantFrom(0, 100, 500, 5000, 1e17),
      absolute: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reset' as const), key: fc.nat(KEYS.length - 1) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(0, 1, 33.3, 100, 250, 999.9, 3000, 120_000) }) },
);

/** Classes mixed on a few token buckets and a window limit: bulk bookings far ahead, critical and normal calls beside them. */
const clsArb: fc.Arbitrary<Cls> = fc.oneof(
  fc.constant(null),
  fc.record({ priority: fc.constantFrom('critical' as const, 'normal' as const, 'bulk' as const) }),
  fc.record({
    priority: fc.constantFrom('normal' as const, 'bulk' as const),
    reserve: fc.constantFrom({ normal: 0.1 }, { normal: 0.1, bulk: 0.3 }, { bulk: 0.5 }, { normal: 0.25, bulk: 0.25 }),
  }),
);
const CLASS_LIMITS = [0, 1, 2, 4, 5, 7];
/** Mostly one definition per key (a redefinition drops the class state; key 2 a window limit), now and then another. */
const plainClassCheck: fc.Arbitrary<[number, number, number]> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.tuple(fc.nat(2), fc.constantFrom(0, 1, 2, 3, 4, 5, 6)).map(([k, c]): [number, number, number] => [k, k === 0 ? 0 : k === 1 ? 1 : 7, c]),
  },
  { weight: 1, arbitrary: fc.tuple(fc.nat(1), fc.constantFrom(...CLASS_LIMITS), fc.constantFrom(0, 1, 2, 3, 4, 5, 6)) },
);
const classCheck: fc.Arbitrary<Check> = fc.oneof(
  { weight: 3, arbitrary: plainClassCheck },
  { weight: 1, arbitrary: fc.tuple(plainClassCheck, fc.nat(CHECK_RESERVES.length - 1)).map(([c, r]): Check => [c[0], c[1], c[2], r]) },
);
const classChecks = fc.array(classCheck, { minLength: 1, maxLength: 2 });
export const classOpArb: fc.Arbitrary<Op> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constantFrom('probe' as const, 'peek' as const), checks: classChecks, cls: clsArb }) },
  {
    weight: 6,
    arbitrary: fc.record({ op: fc.constant('book' as const), checks: classChecks, budget: fc.constantFrom(50, 1000, 10_000, 100_000), cls: clsArb }),
  },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('wait' as const), checks: classChecks, budget: fc.constantFrom(100, 1000, 10_000), cls: clsArb }) },
  { weight: 1, arbitrary: fc.constant({ op: 'abort' as const }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('record' as const), key: fc.nat(1), cost: fc.constantFrom(0.5, 1, 4), limit: fc.constant(null) }) },
  {
    weight: 1,
    arbitrary: fc.record({
      op: fc.constant('sync' as const),
      key: fc.nat(1),
      limit: fc.constantFrom(0, 1),
      borrowed: fc.constantFrom(0, 1, 2.5, 9, 40),
      sentAgoMs: fc.constant(null),
      elapsedMs: fc.constant(null),
      countedOwn: fc.constant(0),
      answered: fc.constant(null),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({ op: fc.constant('penalize' as const), key: fc.nat(1), forMs: fc.constantFrom(0, 100, 500, 5000), absolute: fc.boolean() }),
  },
  { weight: 1, arbitrary: HELD.arbitrary },
  { weight: 1, arbitrary: REBOOK.arbitrary },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 33.3, 100, 250, 999.9, 3000) }) },
);

export function clsOf(cls: Cls | undefined): { priority?: 'critical' | 'normal' | 'bulk'; reserve?: { normal?: number; bulk?: number } } {
  return cls === null || cls === undefined ? {} : cls;
}

export function toChecks(list: readonly Check[]): BucketCheck[] {
  return list.map(([k, l, c, r]) => ({
    key: KEYS[k] as BucketKey,
    limit: LIMITS[l] as Limit,
    cost: COSTS[c] as number,
    ...(r === undefined ? {} : { reserve: CHECK_RESERVES[r] as { normal?: number; bulk?: number } }),
  }));
}
