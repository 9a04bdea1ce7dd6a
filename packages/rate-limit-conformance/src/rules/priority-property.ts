// The RL-Q3 property: RL-A6's bound for all classes together, over random mixes of classes, reserves, probes,
// bookings, waits, aborts, records and penalties, on one limiter or two sharing a store.
import fc from 'fast-check';
import type { Decision, NormalizedLimit, Priority, RateLimiter, Reserve } from '@core/rate-limit-contract';
import type { Spawned, TestContext } from '../conformance-test.js';
import { expectTrue, fail } from '../expect.js';
import { key, settled, startWait, type Tracked } from './fixtures.js';
import { checkSafety } from './safety-property.js';

const LIMITS: readonly NormalizedLimit[] = [
  { capacity: 10, refillPerSec: 10 },
  { capacity: 5, refillPerSec: 2 },
  { capacity: 3, refillPerSec: 7.5 },
];
const KEYS = [key({ axis: 'q-a' }), key({ axis: 'q-b' })] as const;

type ClassCall = { priority?: Priority; reserve?: Reserve };
type QCommand =
  | { op: 'probe' | 'book' | 'wait'; buckets: (0 | 1)[]; cost: number; call: ClassCall; budget: number }
  | { op: 'advance'; ms: number }
  | { op: 'record'; bucket: 0 | 1; cost: number }
  | { op: 'penalize'; bucket: 0 | 1; forMs: number }
  | { op: 'abort'; pick: number };

const callArb: fc.Arbitrary<ClassCall> = fc.oneof(
  fc.constant({}),
  fc.record({ priority: fc.constantFrom<Priority>('critical', 'normal', 'bulk') }),
  fc.record({
    priority: fc.constantFrom<Priority>('normal', 'bulk'),
    reserve: fc.constantFrom<Reserve>({ normal: 0.1 }, { normal: 0.1, bulk: 0.4 }, { bulk: 0.5 }),
  }),
);
const qCommandArb: fc.Arbitrary<QCommand> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      op: fc.constantFrom('probe' as const, 'book' as const, 'book' as const, 'wait' as const),
      buckets: fc.constantFrom<(0 | 1)[]>([0], [0], [1], [0, 1]),
      cost: fc.constantFrom(0.5, 1, 1, 2, 3, 6, 12),
      call: callArb,
      budget: fc.constantFrom(100, 1000, 5000),
    }),
  },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 20, 100, 333, 1000) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('record' as const), bucket: fc.constantFrom<0 | 1>(0, 1), cost: fc.constantFrom(0.5, 2) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('penalize' as const), bucket: fc.constantFrom<0 | 1>(0, 1), forMs: fc.constantFrom(50, 500) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('abort' as const), pick: fc.nat(5) }) },
);

interface Sent {
  readonly at: number;
  readonly cost: number;
  readonly what: string;
}

async function classSafetyRun(
  s: Spawned,
  limits: readonly [NormalizedLimit, NormalizedLimit],
  commands: readonly QCommand[],
  limiters: readonly RateLimiter[],
): Promise<void> {
  const { clock } = s;
  const sends: [Sent[], Sent[]] = [[], []];
  const waiters: { waiter: Tracked<Decision>; controller: AbortController; buckets: (0 | 1)[]; cost: number; what: string }[] = [];
  const log = (buckets: readonly (0 | 1)[], cost: number, d: Decision, what: string): void => {
    if (d.kind !== 'ok' && d.kind !== 'booked') return;
    for (const b of buckets) sends[b].push({ at: d.sendAtMs, cost, what });
  };
  for (const [step, c] of commands.entries()) {
    const limiter = limiters[step % limiters.length]!;
    const now = clock.now();
    const what = `step ${step} ${JSON.stringify(c)} at ${now}`;
    switch (c.op) {
      case 'advance':
        await clock.advance(c.ms);
        break;
      case 'probe':
      case 'book': {
        const checks = c.buckets.map((b) => ({ key: KEYS[b], limit: limits[b], cost: c.cost }));
        const d = await limiter.checkRates(checks, c.op === 'book' ? { ...c.call, maxWaitMs: c.budget } : c.call);
        if (d.kind === 'ok' && Math.abs(d.sendAtMs - now) > 1e-6) fail(`${what}: ok with sendAtMs ${d.sendAtMs}`);
        log(c.buckets, c.cost, d, what);
        break;
      }
      case 'wait': {
        const checks = c.buckets.map((b) => ({ key: KEYS[b], limit: limits[b], cost: c.cost }));
        const controller = new AbortController();
        waiters.push({
          waiter: await startWait(limiter, clock, checks, { ...c.call, maxWaitMs: c.budget, signal: controller.signal }),
          controller,
          buckets: c.buckets,
          cost: c.cost,
          what,
        });
        break;
      }
      case 'record':
        limiter.record(KEYS[c.bucket], c.cost, limits[c.bucket]);
        break;
      case 'penalize':
        await limiter.penalize(KEYS[c.bucket], { forMs: c.forMs });
        break;
      case 'abort': {
        const open = waiters.filter((w) => !w.waiter.done && !w.controller.signal.aborted);
        open[c.pick % Math.max(1, open.length)]?.controller.abort();
        break;
      }
    }
  }
  await clock.advance(60_000);
  for (const w of waiters) {
    const d = await settled(w.waiter, w.what);
    if (d.kind === 'ok') log(w.buckets, w.cost, d, w.what);
  }
  for (const b of [0, 1] as const) checkSafety(sends[b], limits[b], `bucket ${b}`);
  expectTrue(true, 'checked');
}

export function runClassSafety(t: TestContext, withPeer: boolean): Promise<void> {
  const params: fc.Parameters<[[NormalizedLimit, NormalizedLimit], QCommand[]]> = {
    numRuns: t.options.propertyRuns ?? 60,
    endOnFailure: t.options.shrink === false,
  };
  return fc.assert(
    fc.asyncProperty(
      fc.tuple(fc.constantFrom(...LIMITS), fc.constantFrom(...LIMITS)),
      fc.array(qCommandArb, { minLength: 1, maxLength: 40 }),
      async (limits, commands) => {
        const s = await t.spawn();
        try {
          await classSafetyRun(s, limits, commands, withPeer ? [s.limiter, await s.peer()] : [s.limiter]);
        } finally {
          await s.close();
        }
      },
    ),
    t.options.propertySeed === undefined ? params : { ...params, seed: t.options.propertySeed },
  );
}
