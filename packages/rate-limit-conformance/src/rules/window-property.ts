import fc from 'fast-check';
import type { BucketCheck, BucketKey, Decision, Limit, NormalizedLimit, RateLimiter, SyncOptions } from '@core/rate-limit-contract';
import { property, type ConformanceTest, type Spawned, type TestContext } from '../conformance-test.js';
import { fail, show } from '../expect.js';
import { bucketId } from '../model-arithmetic.js';
import type { ModelWindow } from '../window-log.js';
import { PROPERTY_KEYS, commandsArb, type Command, type Part } from './property-commands.js';
import { settled, startWait, type Tracked } from './fixtures.js';
import { checkSafety } from './safety-property.js';

/** One run's definitions: bucket 0 is always a window limit, buckets 1 and 2 a window limit or a token bucket. */
export interface WindowSetup {
  readonly limits: readonly [ModelWindow, ModelWindow | NormalizedLimit, ModelWindow | NormalizedLimit];
}

/** A send as the property logs it: admitted (at its send time) or recorded (at the time of the record). */
export interface LoggedSend {
  readonly at: number;
  readonly cost: number;
  /** The step of the command that decided it (a waiter: the step that booked it). */
  readonly step: number;
  readonly recorded: boolean;
  readonly what: string;
}

const isWindowLimit = (limit: ModelWindow | NormalizedLimit): limit is ModelWindow => 'perWindow' in limit;

/** Random window limits: small and large windows, with and without jitter; mostly above most costs. */
const windowArb: fc.Arbitrary<ModelWindow> = fc.record({
  perWindow: fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 8, max: 30 }), fc.integer({ min: 8, max: 30 })),
  windowMs: fc.oneof(fc.constantFrom(100, 250, 1000, 2000), fc.integer({ min: 20, max: 3000 })),
  jitterMs: fc.constantFrom(0, 0, 10, 50, 250),
});

/** Token buckets whose ms per token are exact binary fractions. */
const tokenArb: fc.Arbitrary<NormalizedLimit> = fc.record({ capacity: fc.integer({ min: 1, max: 12 }), refillPerSec: fc.constantFrom(0.5, 1, 2, 4, 8, 16) });

/** Definitions of one run. */
export function windowSetupArb(): fc.Arbitrary<WindowSetup> {
  const either = fc.oneof(windowArb, tokenArb);
  return fc.record({ limits: fc.tuple(windowArb, either, either) });
}

/**
 * A report of a fixed window (RL-V5: a `windowEnd` narrower than a quarter window), as the step that made it:
 * from then on what reached the venue before `B` is forgotten, and, for a send at `endMax` or later, what
 * reached it before `endMin`.
 */
export interface Forgetting {
  readonly step: number;
  readonly B: number;
  readonly endMin: number;
  readonly endMax: number;
}

/**
 * RL-V1 for one window bucket, records counted as sends: in every interval `(T − span, T]` of send
 * times, what was admitted plus what was recorded before the last admission in it was decided is at
 * most `perWindow` (a record made later was sent without asking, so nothing could wait for it), not
 * counting what a report of a fixed window made before that decision lets the limiter forget (a send that
 * reached the venue, `jitterMs` after its send time at the latest, before the window began, or before its
 * end when the decided send is at or after that end). It is enough to look at the intervals ending at a
 * logged send: any other interval holds no more than the one ending at its latest send.
 */
export function checkWindowInvariant(sends: readonly LoggedSend[], w: ModelWindow, bucket: string, forgets: readonly Forgetting[] = []): void {
  const span = w.windowMs + w.jitterMs;
  const sorted = [...sends].sort((x, y) => x.at - y.at);
  for (const end of sorted) {
    const inside = sorted.filter((s) => s.at > end.at - span && s.at <= end.at);
    const admitted = inside.filter((s) => !s.recorded);
    if (admitted.length === 0) continue;
    const lastDecision = Math.max(...admitted.map((s) => s.step));
    // of the sends decided last (calls made together share a step), the latest: a report forgets for it what it
    // forgets for a send at or after a fixed window's end
    const decided = admitted.filter((s) => s.step === lastDecision).reduce((a, b) => (b.at > a.at ? b : a));
    const forgotten = (s: LoggedSend): boolean =>
      forgets.some((f) => f.step < lastDecision && (s.at + w.jitterMs < f.B || (decided.at >= f.endMax && s.at + w.jitterMs < f.endMin)));
    const counted = inside.filter((s) => (!s.recorded || s.step < lastDecision) && !forgotten(s));
    const sum = counted.reduce((total, s) => total + s.cost, 0);
    if (sum > w.perWindow + 1e-6 * (1 + w.perWindow)) {
      const shown = counted.map((s) => `${s.cost}@${s.at} (${s.recorded ? 'recorded, ' : ''}${s.what})`);
      fail(`RL-V1 broken on ${bucket} ${show(w)}: ${sum} sent in (${end.at - span}, ${end.at}], at most ${w.perWindow} allowed: ${shown.join(', ')}`);
    }
  }
}

/**
 * A call's budget: the generated one times 4 (200 ms to 40 s), since a window limit's waits are about a
 * window long; still within the 60 s a run lets pass at its end.
 */
const budgetOf = (generated: number): number => generated * 4;

function checksOf(setup: WindowSetup, parts: readonly Part[]): BucketCheck[] {
  return parts.map((p) => ({ key: PROPERTY_KEYS[p.bucket]!, limit: setup.limits[p.bucket] as Limit, cost: p.cost }));
}

/** Runs one command sequence against a fresh limiter, logging every admitted and recorded cost. */
async function windowRun(s: Spawned, setup: WindowSetup, commands: readonly Command[], limiters: readonly RateLimiter[]): Promise<void> {
  const { clock } = s;
  const sends = new Map<string, LoggedSend[]>(PROPERTY_KEYS.map((k) => [bucketId(k), []]));
  const forgets = new Map<string, Forgetting[]>(PROPERTY_KEYS.map((k) => [bucketId(k), []]));
  const lastSent = new Map<string, number>();
  const waiters: { waiter: Tracked<Decision>; controller: AbortController; checks: BucketCheck[]; step: number; what: string; resolvedAt?: number }[] = [];
  const log = (checks: readonly BucketCheck[], d: Decision, step: number, what: string): void => {
    if (d.kind !== 'ok' && d.kind !== 'booked') return;
    const perBucket = new Map<string, number>();
    for (const c of checks) perBucket.set(bucketId(c.key), (perBucket.get(bucketId(c.key)) ?? 0) + c.cost);
    for (const [id, cost] of perBucket) {
      if (cost <= 0) continue;
      sends.get(id)!.push({ at: d.sendAtMs, cost, step, recorded: false, what });
      lastSent.set(id, Math.max(lastSent.get(id) ?? Number.NEGATIVE_INFINITY, d.sendAtMs));
    }
  };
  const decided = (checks: BucketCheck[], d: Decision, now: number, step: number, what: string): void => {
    if (d.kind === 'booked' && (d.sendAtMs < now - 1e-6 || Math.abs(d.sendAtMs - now - d.waitMs) > 1e-6)) fail(`${what}: booked ${show(d)} at ${now}`);
    if (d.kind === 'ok' && Math.abs(d.sendAtMs - now) > 1e-6) fail(`${what}: answered ok (send now) with sendAtMs ${d.sendAtMs} at ${now}`);
    if (d.kind === 'error' && d.error.code !== 'cost_unpayable') fail(`${what}: ${show(d)}`);
    log(checks, d, step, what);
  };
  for (const [step, command] of commands.entries()) {
    const now = clock.now();
    const limiter = limiters[step % limiters.length]!;
    const what = `step ${step} ${command.op} at ${now}${limiters.length > 1 ? ` via limiter ${step % limiters.length}` : ''}`;
    switch (command.op) {
      case 'advance':
        await clock.advance(command.ms);
        break;
      case 'probe': {
        const checks = checksOf(setup, command.parts);
        decided(checks, await limiter.checkRates(checks), now, step, what);
        break;
      }
      case 'book': {
        const checks = checksOf(setup, command.parts);
        decided(checks, await limiter.checkRates(checks, { maxWaitMs: budgetOf(command.budget) }), now, step, what);
        break;
      }
      case 'concurrent': {
        const calls = command.calls.map((c, i) => {
          const checks = checksOf(setup, c.parts);
          const via = limiters[(step + i) % limiters.length]!;
          return { checks, decision: c.op === 'book' ? via.checkRates(checks, { maxWaitMs: budgetOf(c.budget) }) : via.checkRates(checks) };
        });
        for (const [i, c] of calls.entries()) decided(c.checks, await c.decision, now, step, `${what} call ${i}`);
        break;
      }
      case 'wait': {
        const checks = checksOf(setup, command.parts);
        const controller = new AbortController();
        const entry: (typeof waiters)[number] = {
          waiter: await startWait(limiter, clock, checks, { maxWaitMs: budgetOf(command.budget), signal: controller.signal }),
          controller,
          checks,
          step,
          what,
        };
        entry.waiter.promise.then(
          () => {
            entry.resolvedAt = clock.now();
          },
          () => {},
        );
        waiters.push(entry);
        break;
      }
      case 'abort': {
        const open = waiters.filter((w) => !w.waiter.done && !w.controller.signal.aborted);
        open[command.pick % Math.max(1, open.length)]?.controller.abort();
        break;
      }
      case 'record': {
        const k = PROPERTY_KEYS[command.bucket]!;
        limiter.record(k, command.cost, setup.limits[command.bucket] as Limit);
        // a round trip through the same limiter: the record has landed before the next decision
        await limiter.borrowed(k);
        sends.get(bucketId(k))!.push({ at: now, cost: command.cost, step, recorded: true, what });
        break;
      }
      case 'sync': {
        // the reports vary with the step: with the latest send as the reporting request or without, with the
        // caller's own count, and, on window limits, with the end of a fixed window (the venue's aligned one, or
        // one the caller misreads: the window before, or the one after)
        const k = PROPERTY_KEYS[command.bucket]!;
        const limit = setup.limits[command.bucket];
        const last = lastSent.get(bucketId(k));
        const sentAtMs = step % 2 === 0 && last !== undefined && last <= now ? last : undefined;
        let options: SyncOptions = {
          ...(sentAtMs === undefined ? {} : { sentAtMs }),
          ...(step % 3 === 0 ? { countedOwnCost: command.minBorrowed / 2 } : {}),
          ...(step % 5 === 0 ? { outsideOwnCost: command.minBorrowed / 4 } : {}),
        };
        if (isWindowLimit(limit) && step % 4 < 2) {
          const W = limit.windowMs;
          const end = (Math.floor(now / W) + [1, 0, 2][(step >> 2) % 3]!) * W;
          const width = [0, W / 8, W / 4][(step >> 3) % 3]!;
          options = { ...options, windowEnd: { earliestMs: end - width, latestMs: end } };
          if (width < W / 4) {
            const c = sentAtMs === undefined ? now : Math.min(sentAtMs + limit.jitterMs, now);
            forgets.get(bucketId(k))!.push({ step, B: Math.min(end - width - W, c), endMin: end - width, endMax: end });
          }
        }
        const r = await limiter.sync(k, limit as Limit, command.minBorrowed, options);
        if (r.kind !== 'ok') fail(`${what}: ${show(r)}`);
        break;
      }
      case 'penalize':
        await limiter.penalize(PROPERTY_KEYS[command.bucket]!, { forMs: command.forMs });
        break;
      case 'borrowed':
        await limiter.borrowed(PROPERTY_KEYS[command.bucket]!);
        break;
      case 'reset':
      case 'garbage':
        fail(`${command.op} is not part of the window property`);
    }
  }
  await clock.advance(60_000);
  for (const w of waiters) {
    const d = await settled(w.waiter, w.what);
    if (d.kind === 'ok') {
      if (w.resolvedAt !== undefined && w.resolvedAt < d.sendAtMs - 1e-6)
        fail(`${w.what}: resolved at ${w.resolvedAt}, before its send time ${d.sendAtMs} (RL-W6)`);
      log(w.checks, d, w.step, w.what);
    } else if (d.kind === 'delay' || (d.kind === 'error' && !['cost_unpayable', 'rate_limit_timeout', 'aborted'].includes(d.error.code))) {
      fail(`${w.what}: waitForCapacity answered ${show(d)}`);
    }
  }
  for (const [i, k] of PROPERTY_KEYS.entries()) {
    const limit = setup.limits[i as 0 | 1 | 2];
    const logged = sends.get(bucketId(k as BucketKey))!;
    if (isWindowLimit(limit)) checkWindowInvariant(logged, limit, `bucket ${i}`, forgets.get(bucketId(k as BucketKey))!);
    else
      checkSafety(
        logged.filter((x) => !x.recorded),
        limit,
        `bucket ${i}`,
      );
  }
}

function runWindowProperty(t: TestContext, withPeer: boolean): Promise<void> {
  const commands = commandsArb({ capabilities: t.capabilities, redefine: false, concurrent: true, garbage: false });
  const params: fc.Parameters<[WindowSetup, Command[]]> = { numRuns: t.options.propertyRuns ?? 60, endOnFailure: t.options.shrink === false };
  return fc.assert(
    fc.asyncProperty(windowSetupArb(), commands, async (setup, cmds) => {
      const s = await t.spawn();
      try {
        await windowRun(s, setup, cmds, withPeer ? [s.limiter, await s.peer()] : [s.limiter]);
      } finally {
        await s.close();
      }
    }),
    t.options.propertySeed === undefined ? params : { ...params, seed: t.options.propertySeed },
  );
}

export const WINDOW_PROPERTY: readonly ConformanceTest[] = [
  property(
    'RL-V1',
    '(property) no interval of windowMs + jitterMs holds more than perWindow, records counted and what a fixed window’s report forgets not, over random window limits and interleavings of probes, bookings, waits, aborts, calls mixing windows and token buckets, records, syncs (with and without a send time, the caller’s count or a window end) and penalties',
    ['injectableClock', 'windowLimits'],
    (t) => runWindowProperty(t, false),
  ),
  property(
    'RL-V1',
    '(property) the same holds with calls spread over two limiters sharing one store',
    ['injectableClock', 'windowLimits', 'distributed', 'peer'],
    (t) => runWindowProperty(t, true),
  ),
];
