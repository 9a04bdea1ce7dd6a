import fc from 'fast-check';
import type { BucketCheck, Decision, NormalizedLimit, RateLimiter } from '@core/rate-limit-contract';
import { property, type ConformanceTest, type Spawned, type TestContext } from '../conformance-test.js';
import { fail, show } from '../expect.js';
import { bucketId } from '../model-arithmetic.js';
import { PROPERTY_KEYS, checksOf, commandsArb, setupArb, type Command, type PropertySetup } from './property-commands.js';
import { settled, startWait, type Tracked } from './fixtures.js';

interface Send {
  readonly at: number;
  readonly cost: number;
  readonly what: string;
}

/**
 * RL-A6 for one bucket: in every interval [a, b] between two sends, the cost sent is at most
 * max(capacity, largest single cost in [a, b]) + refill·(b − a), with a tiny float allowance.
 */
export function checkSafety(sends: readonly Send[], limit: NormalizedLimit, bucket: string): void {
  const sorted = [...sends].sort((x, y) => x.at - y.at);
  for (let i = 0; i < sorted.length; i++) {
    let sum = 0;
    let largest = 0;
    for (let j = i; j < sorted.length; j++) {
      const s = sorted[j]!;
      sum += s.cost;
      largest = Math.max(largest, s.cost);
      const a = sorted[i]!.at;
      const bound = Math.max(limit.capacity, largest) + (limit.refillPerSec * (s.at - a)) / 1000;
      if (sum > bound + 1e-6 * (1 + bound)) {
        const window = sorted.slice(i, j + 1).map((x) => `${x.cost}@${x.at} (${x.what})`);
        fail(`RL-A6 broken on ${bucket} ${show(limit)}: ${sum} sent in [${a}, ${s.at}], at most ${bound} allowed: ${window.join(', ')}`);
      }
    }
  }
}

/** Runs one command sequence against a fresh limiter, logging every admitted cost at its send time. */
async function safetyRun(s: Spawned, setup: PropertySetup, commands: readonly Command[], limiters: readonly RateLimiter[]): Promise<void> {
  const { clock } = s;
  const sends = new Map<string, Send[]>(PROPERTY_KEYS.map((k) => [bucketId(k), []]));
  const waiters: { waiter: Tracked<Decision>; controller: AbortController; checks: BucketCheck[]; what: string; resolvedAt?: number }[] = [];
  const log = (checks: readonly BucketCheck[], d: Decision, what: string): void => {
    // An admission now and a booking both send (a booking at its send time, RL-W1).
    if (d.kind !== 'ok' && d.kind !== 'booked') return;
    // One call sends once per bucket, at its combined cost (RL-M2).
    const perBucket = new Map<string, number>();
    for (const c of checks) perBucket.set(bucketId(c.key), (perBucket.get(bucketId(c.key)) ?? 0) + c.cost);
    for (const [id, cost] of perBucket) if (cost > 0) sends.get(id)!.push({ at: d.sendAtMs, cost, what });
  };
  const admitted = (checks: BucketCheck[], d: Decision, now: number, what: string): void => {
    if (d.kind === 'booked' && d.sendAtMs < now + d.waitMs - 1e-6) fail(`${what}: sendAtMs ${d.sendAtMs} is before now + waitMs (${now} + ${d.waitMs})`);
    if (d.kind === 'booked' && d.sendAtMs < now - 1e-6) fail(`${what}: sendAtMs ${d.sendAtMs} is in the past (now ${now})`);
    // RL-W1: ok means "send now"; a caller that tests only the kind sends at once.
    if (d.kind === 'ok' && Math.abs(d.sendAtMs - now) > 1e-6) fail(`${what}: answered ok (send now) with sendAtMs ${d.sendAtMs} at ${now}`);
    log(checks, d, what);
  };
  for (const [step, command] of commands.entries()) {
    const now = clock.now();
    // With a peer, the calls alternate between two limiters sharing one store (two processes).
    const limiter = limiters[step % limiters.length]!;
    const what = `step ${step} ${command.op} at ${now}${limiters.length > 1 ? ` via limiter ${step % limiters.length}` : ''}`;
    switch (command.op) {
      case 'advance':
        await clock.advance(command.ms);
        break;
      case 'probe': {
        const checks = checksOf(setup, command.parts);
        admitted(checks, await limiter.checkRates(checks), now, what);
        break;
      }
      case 'book': {
        const checks = checksOf(setup, command.parts);
        admitted(checks, await limiter.checkRates(checks, { maxWaitMs: command.budget }), now, what);
        break;
      }
      case 'concurrent': {
        const calls = command.calls.map((c, i) => {
          const checks = checksOf(setup, c.parts);
          const via = limiters[(step + i) % limiters.length]!;
          return { checks, decision: c.op === 'book' ? via.checkRates(checks, { maxWaitMs: c.budget }) : via.checkRates(checks) };
        });
        for (const [i, c] of calls.entries()) admitted(c.checks, await c.decision, now, `${what} call ${i}`);
        break;
      }
      case 'wait': {
        const checks = checksOf(setup, command.parts);
        const controller = new AbortController();
        const entry: (typeof waiters)[number] = {
          waiter: await startWait(limiter, clock, checks, { maxWaitMs: command.budget, signal: controller.signal }),
          controller,
          checks,
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
      case 'record':
        limiter.record(PROPERTY_KEYS[command.bucket]!, command.cost, setup.limits[command.bucket]);
        break;
      case 'sync':
        await limiter.sync(PROPERTY_KEYS[command.bucket]!, setup.limits[command.bucket], command.minBorrowed);
        break;
      case 'penalize':
        await limiter.penalize(PROPERTY_KEYS[command.bucket]!, { forMs: command.forMs });
        break;
      case 'borrowed':
        await limiter.borrowed(PROPERTY_KEYS[command.bucket]!);
        break;
      case 'reset':
      case 'garbage':
        fail(`${command.op} is not part of the safety property`);
    }
  }
  // Let every booked waiter reach its send time (RL-W6: the default budget is at most 10 s).
  await clock.advance(60_000);
  for (const w of waiters) {
    const d = await settled(w.waiter, w.what);
    if (d.kind === 'ok') {
      if (w.resolvedAt !== undefined && w.resolvedAt < d.sendAtMs - 1e-6) {
        fail(`${w.what}: resolved at ${w.resolvedAt}, before its send time ${d.sendAtMs} (RL-W6)`);
      }
      log(w.checks, d, w.what);
    } else if (d.kind === 'delay') {
      fail(`${w.what}: waitForCapacity answered delay ${show(d)}`);
    }
  }
  for (const [i, k] of PROPERTY_KEYS.entries()) checkSafety(sends.get(bucketId(k))!, setup.limits[i as 0 | 1 | 2], `bucket ${i}`);
}

function runSafety(t: TestContext, withPeer: boolean): Promise<void> {
  const commands = commandsArb({ capabilities: t.capabilities, redefine: false, concurrent: true, garbage: false });
  const params: fc.Parameters<[PropertySetup, Command[]]> = { numRuns: t.options.propertyRuns ?? 60, endOnFailure: t.options.shrink === false };
  return fc.assert(
    fc.asyncProperty(setupArb(), commands, async (setup, cmds) => {
      const s = await t.spawn();
      try {
        await safetyRun(s, setup, cmds, withPeer ? [s.limiter, await s.peer()] : [s.limiter]);
      } finally {
        await s.close();
      }
    }),
    t.options.propertySeed === undefined ? params : { ...params, seed: t.options.propertySeed },
  );
}

export const SAFETY: readonly ConformanceTest[] = [
  property(
    'RL-A6',
    '(property) no interval admits more than max(capacity, largest cost) + refill·(b − a) over random interleavings of probes, bookings, waits, aborts, records, syncs and penalties',
    ['injectableClock'],
    (t) => runSafety(t, false),
  ),
  property('RL-A6', '(property) the same bound holds with calls spread over two limiters sharing one store', ['injectableClock', 'distributed', 'peer'], (t) =>
    runSafety(t, true),
  ),
];
