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
import { answerOpArb, classOpArb, clsOf, denseOpArb, KEYS, LIMITS, mergeOpArb, type Op, opArb, toChecks, windowOpArb } from './support/differential-ops.js';
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

/** A stored state in a form both stores share: `undefined` for a full, unheld bucket (absent or not). */
type Stored =
  | { readonly pending: true; readonly debt: number; readonly hold: number }
  | {
      readonly pending: false;
      readonly text: string;
      /** A token bucket's `x` relative to `at` (the time it was written; 0: a quota's amount, a window's expiry). */
      readonly x: number;
      readonly at: number;
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
  const full = quota ? state.x <= 0 : state.x + (state.at - now) <= 0;
  if (full && hold === NO_HOLD) return undefined;
  return {
    pending: false,
    text: state.text,
    x: state.x,
    at: state.at,
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
    await sequences(opArb, RUNS, 'diff', undefined, [
      // a window limit asked again after its own move answers later, not the same time (a hold, a record, then a
      // huge report converted onto a window): the library once skipped that second question
      [
        1_000_000,
        [
          { op: 'penalize', key: 0, forMs: 0, absolute: false },
          { op: 'record', key: 0, cost: 0.5, limit: 0 },
          { op: 'sync', key: 0, limit: 7, borrowed: 1e308, sentAgoMs: null, elapsedMs: null, countedOwn: 0, answered: null },
          { op: 'probe', checks: [[0, 7, 0]] },
        ],
      ],
    ]);
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

  it('long sequences of bookings into small window limits asked for more than they allow: sends searched among many runs', async () => {
    expect(await sequences(denseOpArb, 12, 'dense', { minLength: 300, maxLength: 400 })).toBeGreaterThan(5);
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
        // the reporting request itself, sent after sentAtMs − jitterMs
        outsideOwnCost: last.cost,
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
      const counted = op.countedOwn === 0 ? report : { ...report, countedOwnCost: op.countedOwn };
      const outside = op.outsideOwn ?? 0;
      const withAnswer = outside === 0 ? counted : { ...counted, outsideOwnCost: outside };
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
