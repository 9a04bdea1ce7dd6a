/**
 * Pins the Lua scripts to the one TypeScript arithmetic core: random operation sequences (probes,
 * bookings, peeks, multi-bucket calls, waits and their cancellation, records, syncs, penalties,
 * redefinitions, resets, admission classes mixed with their reserves) run on an injected clock against the kit's front door over the in-process
 * store (which calls the core on its hot path) and over the Redis store (which runs the scripts), and
 * every decision and every stored state is compared step by step, exactly (no tolerance).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { BucketCheck, BucketKey, Decision, Limit, WaitDecision } from '@core/rate-limit-contract';
import { ManualClock } from '@core/rate-limit-conformance';
import { KeyResolver, LEDGER_HEADER, NO_HOLD, StoreRateLimiter } from '@core/rate-limit-kit';
import { MemoryStore } from '@core/default-rate-limiter';
import { RedisStore, parseStored } from '../src/index.js';
import { ioredisClient, type TestClient } from './support/clients.js';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';

const RUNS = Number(process.env['DIFFERENTIAL_RUNS'] ?? 2000);

/** Replays a failure: DIFFERENTIAL_SEED and DIFFERENTIAL_PATH from fast-check's report. */
function replay(): { seed?: number; path?: string } {
  const seed = process.env['DIFFERENTIAL_SEED'];
  const path = process.env['DIFFERENTIAL_PATH'];
  return { ...(seed === undefined ? {} : { seed: Number(seed) }), ...(path === undefined ? {} : { path }) };
}

let server: RedisServer;
let client: TestClient;

beforeAll(async () => {
  server = await startRedisServer();
  client = await ioredisClient(server.port);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

const KEYS: readonly BucketKey[] = [
  { venue: 'alpha', credential: null, axis: 'ip' },
  { venue: 'alpha', credential: 'sk-differential', axis: 'orders' },
  { venue: 'beta', credential: null },
];

const LIMITS: readonly Limit[] = [
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

type Op =
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
const windowOpArb: fc.Arbitrary<Op> = fc.oneof(
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
const mergeOpArb: fc.Arbitrary<Op> = fc.oneof(
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
      answered: fc.option(fc.constantFrom(1, 2, 3), { nil: null }),
      end: ENDS,
    }),
  },
  { weight: 5, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 10, 33.3, 100, 250) }) },
);
/**
 * Sends into one window limit answered and reported soon after, the reports naming a few fixed windows'
 * ends: a send marked answered is taken as counted by a later report of the same window with more usage
 * whose request left before the mark (RL-V5's answer records).
 */
const ANSWER_LIMIT = LIMITS.findIndex((l) => l !== null && 'perWindow' in l && l.perWindow === 10);
const answerOpArb: fc.Arbitrary<Op> = fc.oneof(
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
const opArb: fc.Arbitrary<Op> = fc.oneof(
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
const classOpArb: fc.Arbitrary<Op> = fc.oneof(
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

function clsOf(cls: Cls | undefined): { priority?: 'critical' | 'normal' | 'bulk'; reserve?: { normal?: number; bulk?: number } } {
  return cls === null || cls === undefined ? {} : cls;
}

function toChecks(list: readonly Check[]): BucketCheck[] {
  return list.map(([k, l, c, r]) => ({
    key: KEYS[k] as BucketKey,
    limit: LIMITS[l] as Limit,
    cost: COSTS[c] as number,
    ...(r === undefined ? {} : { reserve: CHECK_RESERVES[r] as { normal?: number; bulk?: number } }),
  }));
}

/** A stored state in a form both stores share: `undefined` for a full, unheld bucket (absent or not). */
type Stored =
  | { readonly pending: true; readonly debt: number; readonly hold: number }
  | {
      readonly pending: false;
      readonly text: string;
      readonly x: number;
      readonly hold: number;
      readonly entries?: readonly number[];
      readonly answers?: readonly number[];
      readonly classes?: readonly number[];
    }
  | undefined;

function normal(state: Stored, now: number): Stored {
  if (state === undefined) return undefined;
  if (state.pending) return { pending: true, debt: state.debt, hold: state.hold };
  const hold = state.hold > now ? state.hold : NO_HOLD;
  const quota = !state.text.includes('/') && Number(state.text.split(',')[1]) === 0;
  const full = quota ? state.x <= 0 : state.x <= now;
  if (full && hold === NO_HOLD) return undefined;
  return {
    pending: false,
    text: state.text,
    x: state.x,
    hold,
    ...(state.entries === undefined ? {} : { entries: [...state.entries] }),
    ...(state.answers === undefined || state.answers.length === 0 ? {} : { answers: [...state.answers] }),
    ...(state.classes === undefined ? {} : { classes: [...state.classes] }),
  };
}

interface Side {
  readonly limiter: StoreRateLimiter;
  readonly waits: { decision: WaitDecision | undefined; controller: AbortController }[];
  /** The last send admitted or booked: its send time and its checks (RL-V8's peek at it). */
  held?: { readonly at: number; readonly checks: readonly BucketCheck[] };
  /** The last send a probe admitted: its send time, and its first check's key and cost (a late record's target). */
  last?: { readonly at: number; readonly key: BucketKey; readonly cost: number; readonly limit: Limit };
}

describe('differential: the Redis scripts against the TypeScript core', () => {
  it(`${RUNS} random operation sequences: the same decisions and the same stored states, step by step`, async () => {
    await sequences(opArb, RUNS, 'diff');
  }, 900_000);

  it(`${Math.ceil(RUNS / 2)} sequences on window limits (bookings, records, reports replacing and joining each other, penalties)`, async () => {
    await sequences(windowOpArb, Math.ceil(RUNS / 2), 'win');
  }, 900_000);

  it(`${Math.ceil(RUNS / 2)} sequences of sends answered and reported in fixed windows (answer records, RL-V5)`, async () => {
    await sequences(answerOpArb, Math.ceil(RUNS / 2), 'ans', { minLength: 1, maxLength: 30 });
  });
  it('long sequences into one large window: a ledger of many slots, kept and forgotten the same way', async () => {
    expect(await sequences(mergeOpArb, 6, 'merge', { minLength: 700, maxLength: 800 })).toBeGreaterThan(16);
  }, 900_000);

  it(`${Math.ceil(RUNS / 2)} sequences mixing admission classes (critical beside bulk bookings, reserves per call, records, syncs, penalties, cancellations)`, async () => {
    await sequences(classOpArb, Math.ceil(RUNS / 2), 'cls');
  }, 900_000);
});

/** Runs the sequences; answers the most window entries any stored state held. */
/** The current run's start (the manual clock's first reading): sync ends are given from it. */
let runStart = 0;

async function sequences(
  arb: fc.Arbitrary<Op>,
  runs: number,
  tag: string,
  length = { minLength: 1, maxLength: 24 },
  examples: [number, Op[]][] = [],
): Promise<number> {
  let run = 0;
  let most = 0;
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(1_000_000, 1.767e12 + 0.25), fc.array(arb, length), async (start, ops) => {
      run++;
      runStart = start;
      const clock = new ManualClock(start);
      const memory = new MemoryStore({ clock, sweepEvery: 7, sweepBatch: 4, maxPending: 100, idleGraceMs: 0 });
      const redis = new RedisStore({
        redis: client.redis,
        prefix: `${tag}${run}:`,
        hashTag: 'venue',
        timeoutMs: 5_000,
        clock,
        ttlSlackMs: 3_600_000,
        pendingDebtTtlMs: 3_600_000,
        pendingHoldTtlMs: 86_400_000,
        recordMarkerTtlMs: 600_000,
        recordBufferSize: 100,
        recordRetryMs: 50,
        onClose: undefined,
      });
      const sides: Side[] = [
        { limiter: new StoreRateLimiter(memory), waits: [] },
        { limiter: new StoreRateLimiter(redis), waits: [] },
      ];
      const resolver = new KeyResolver();
      const resolved = KEYS.map((k) => resolver.resolve(k)!);
      const names = resolved.map((k) => redis.keyName(k));
      try {
        for (const [step, op] of ops.entries()) {
          const what = `run ${run} step ${step} ${JSON.stringify(op)}`;
          const answers: unknown[] = [];
          for (const side of sides) answers.push(await apply(side, op, clock));
          // records are fire-and-forget on Redis: wait until they are in before comparing
          if (op.op === 'record' || op.op === 'late') await expect.poll(() => redis.recordStats().buffered).toBe(0);
          if (op.op === 'advance') {
            await clock.advance(op.ms);
            answers.push(...sides.map((s) => s.waits.map((w) => w.decision)));
          }
          expect(answers[1], what).toEqual(answers[0]);
          const now = clock.now();
          for (const [i, k] of resolved.entries()) {
            const mine = normal(memory.inspect(k.id), now);
            most = Math.max(most, (mine !== undefined && !mine.pending ? Math.max(0, (mine.entries?.length ?? 0) - LEDGER_HEADER) : 0) / 2);
            const raw = await redis.inspectRaw(names[i] as string);
            if ('kind' in raw) throw new Error(`${what}: ${raw.error.message}`);
            const theirs = normal(raw.raw === '' ? undefined : parseStored(raw.raw), now);
            expect(theirs, `${what}: bucket ${i}`).toEqual(mine);
          }
        }
      } finally {
        for (const side of sides) await side.limiter.close();
      }
    }),
    { numRuns: runs, examples, ...replay() },
  );
  return most;
}

async function apply(side: Side, op: Op, clock: ManualClock): Promise<unknown> {
  const l = side.limiter;
  switch (op.op) {
    case 'probe': {
      const checks = toChecks(op.checks);
      const d = await l.checkRates(checks, clsOf(op.cls));
      const first = checks[0];
      if (d.kind === 'ok' && first !== undefined) side.last = { at: d.sendAtMs, key: first.key, cost: first.cost, limit: first.limit };
      if (d.kind === 'ok') side.held = { at: d.sendAtMs, checks };
      return d;
    }
    case 'held': {
      const held = side.held;
      if (held === undefined) return 'none';
      // a peek at the checks of the last send admitted or booked
      return l.peek(held.checks);
    }
    case 'answerLast': {
      // the last admitted send's answer came back with a report (RL-V5), counting that send
      const last = side.last;
      if (last === undefined) return 'none';
      const end = op.end;
      return l.sync(last.key, last.limit, op.borrowed, {
        sentAtMs: last.at,
        countedOwnCost: last.cost,
        ...(end === null ? {} : { windowEnd: { earliestMs: runStart + end[0], latestMs: runStart + end[0] + end[1] } }),
      });
    }
    case 'late': {
      // the last admitted send went out late: it is counted again from now
      const last = side.last;
      if (last === undefined) return 'none';
      l.record(last.key, last.cost, last.limit);
      return 'recorded';
    }
    case 'peek':
      return l.peek(toChecks(op.checks), clsOf(op.cls));
    case 'book': {
      const checks = toChecks(op.checks);
      const d = await l.checkRates(checks, { maxWaitMs: op.budget, ...clsOf(op.cls) });
      if (d.kind === 'ok' || d.kind === 'booked') side.held = { at: d.sendAtMs, checks };
      return d;
    }
    case 'rebook': {
      const held = side.held;
      if (held === undefined) return 'none';
      const controller = new AbortController();
      const entry: Side['waits'][number] = { decision: undefined, controller };
      side.waits.push(entry);
      const timers = clock.pendingTimers;
      // the last send's checks booked again (a send that could not go out as booked)
      void l.waitForCapacity(held.checks, { maxWaitMs: op.budget, signal: controller.signal }).then((d) => (entry.decision = d));
      await until(() => entry.decision !== undefined || clock.pendingTimers > timers);
      return entry.decision satisfies Decision | undefined;
    }
    case 'wait': {
      const controller = new AbortController();
      const entry: Side['waits'][number] = { decision: undefined, controller };
      side.waits.push(entry);
      const timers = clock.pendingTimers;
      void l.waitForCapacity(toChecks(op.checks), { maxWaitMs: op.budget, signal: controller.signal, ...clsOf(op.cls) }).then((d) => (entry.decision = d));
      // settled at once (ok now, timeout, unpayable), or waiting on its one timer (RL-W7)
      await until(() => entry.decision !== undefined || clock.pendingTimers > timers);
      return entry.decision satisfies Decision | undefined;
    }
    case 'abort': {
      const pending = side.waits.find((w) => w.decision === undefined);
      if (pending === undefined) return 'none';
      pending.controller.abort();
      await until(() => pending.decision !== undefined);
      return pending.decision;
    }
    case 'record':
      l.record(KEYS[op.key] as BucketKey, op.cost, op.limit === null ? undefined : (LIMITS[op.limit] as Limit));
      return 'recorded';
    case 'sync': {
      if (op.sentAgoMs === null) return l.sync(KEYS[op.key] as BucketKey, LIMITS[op.limit] as Limit, op.borrowed);
      const sentAtMs = clock.now() - op.sentAgoMs;
      const report = { sentAtMs };
      const withAnswer = op.countedOwn === 0 ? report : { ...report, countedOwnCost: op.countedOwn };
      const end = op.end ?? null;
      return l.sync(
        KEYS[op.key] as BucketKey,
        LIMITS[op.limit] as Limit,
        op.borrowed,
        end === null ? withAnswer : { ...withAnswer, windowEnd: { earliestMs: runStart + end[0], latestMs: runStart + end[0] + end[1] } },
      );
    }
    case 'penalize':
      return l.penalize(KEYS[op.key] as BucketKey, op.absolute ? { untilMs: clock.now() + op.forMs } : { forMs: op.forMs });
    case 'reset':
      return l.reset(KEYS[op.key] as BucketKey);
    case 'advance':
      return op.ms;
  }
}

/** Waits (real time, in small steps) until `done()` holds; fails after 10 s. */
async function until(done: () => boolean): Promise<void> {
  for (let i = 0; !done(); i++) {
    if (i > 2000) throw new Error('the store did not answer within 10 s');
    await new Promise((r) => setTimeout(r, 5));
  }
}
