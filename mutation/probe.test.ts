// The differential probe: answers random sequences of calls with the in-process limiter twice, once as it is and
// once with the mutant that mutation/probe-switch.mjs put behind `globalThis.__mutant`, and fails on the first
// sequence where the answers differ, shrunk to the fewest calls that still show it (printed as the failure). It
// passes when the mutant answered as the original on every sequence: evidence for an equivalent mutant, not a proof.
// Not part of any test run: `PROBE_KIND=classes|window [PROBE_RUNS=2000] [PROBE_STEPS=60] npx vitest run --config
// mutation/vitest.probe.config.mjs` (see mutation/EQUIVALENT.md).
import { readdirSync, readFileSync } from 'node:fs';
import type { BucketKey, Limit } from '@core/rate-limit-contract';
import { expect, it } from 'vitest';
import { createDefaultRateLimiter } from '../packages/default-rate-limiter/src/default-rate-limiter.js';
import { ManualClock } from '../packages/rate-limit-conformance/src/manual-clock.js';

const { PROBE_KIND, PROBE_RUNS, PROBE_STEPS } = process.env;
const KIND = PROBE_KIND === 'window' ? 'window' : 'classes';
const RUNS = Number(PROBE_RUNS ?? 2000);
const STEPS = Number(PROBE_STEPS ?? 60);
const SWITCH = globalThis as { __mutant?: boolean };
const TOKEN_BUCKETS: readonly Limit[] = [
  { capacity: 10, refillPerSec: 10 },
  { capacity: 5, refillPerSec: 2 },
];
const WINDOWS: readonly Limit[] = [
  { perWindow: 10, windowMs: 1000, jitterMs: 50 },
  { perWindow: 4, windowMs: 400, jitterMs: 0 },
];
const KEYS: readonly BucketKey[] = [
  { venue: 'v', credential: 'c', axis: 'a' },
  { venue: 'v', credential: 'c', axis: 'b' },
];

interface Op {
  readonly kind: 'advance' | 'checkRate' | 'checkRates' | 'record' | 'penalize' | 'sync' | 'peek' | 'borrowed';
  readonly i: 0 | 1;
  readonly n: number;
  readonly options: Record<string, unknown>;
}

/** A small seeded generator (mulberry32), so that a sequence can be replayed. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), s | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sequence(run: number): { limits: Limit[]; ops: Op[] } {
  const r = random(run * 7919 + 13);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  const shapes = KIND === 'window' ? WINDOWS : TOKEN_BUCKETS;
  const limits = [pick(shapes), pick(shapes)];
  const ops: Op[] = [];
  for (let step = 0; step < STEPS; step++) {
    const roll = r();
    const i = r() < 0.7 ? 0 : 1;
    const n = pick([0.5, 1, 1, 2, 3, 5]);
    const priority = pick(['critical', 'normal', 'bulk', undefined]);
    const maxWaitMs = pick([undefined, 300, 2000, 10_000]);
    const options: Record<string, unknown> = {};
    if (priority !== undefined) options.priority = priority;
    if (maxWaitMs !== undefined) options.maxWaitMs = maxWaitMs;
    if (r() < 0.15) options.reserve = { normal: 0.3, bulk: 0.5 };
    if (roll < 0.2) ops.push({ kind: 'advance', i, n: pick([0, 10, 50, 100, 137, 250, 500, 1000]), options: {} });
    else if (roll < 0.65) ops.push({ kind: 'checkRate', i, n, options });
    else if (roll < 0.72) ops.push({ kind: 'checkRates', i, n, options });
    else if (roll < 0.78) ops.push({ kind: 'record', i, n, options: {} });
    else if (roll < 0.8) ops.push({ kind: 'penalize', i, n: pick([50, 200, 700]), options: {} });
    else if (roll < 0.87 && KIND === 'window') {
      const report: Record<string, unknown> = {};
      const back = pick([0, 20, 60, 300, 900]);
      if (r() < 0.7) report.sentBack = back;
      if (r() < 0.4) report.countedOwnCost = pick([0, 1, 3, 5]);
      if (r() < 0.4) {
        report.endIn = pick([10, 100, 400, 800]);
        report.width = pick([0, 5, 50]);
      }
      ops.push({ kind: 'sync', i, n: pick([1, 3, 6, 9, 12]), options: report });
    } else if (roll < 0.93) ops.push({ kind: 'peek', i, n, options: priority === undefined ? {} : { priority } });
    else ops.push({ kind: 'borrowed', i, n: 0, options: {} });
  }
  return { limits, ops };
}

/** The answers of one sequence, one line per call, with the mutant switched on or off. */
async function answers(limits: readonly Limit[], ops: readonly Op[], mutant: boolean): Promise<string[]> {
  SWITCH.__mutant = mutant;
  const clock = new ManualClock();
  const limiter = createDefaultRateLimiter({ clock });
  const lines: string[] = [];
  try {
    for (const op of ops) {
      const k = KEYS[op.i] as BucketKey;
      const limit = limits[op.i] as Limit;
      const given = Object.keys(op.options).length > 0 ? op.options : undefined;
      const at = clock.now() - 1_000_000;
      let answer: unknown;
      let call = `${op.kind}(${op.i}, ${op.n}, ${JSON.stringify(op.options)})`;
      if (op.kind === 'advance') answer = await clock.advance(op.n);
      else if (op.kind === 'checkRate') answer = await limiter.checkRate(k, limit, op.n, given);
      else if (op.kind === 'checkRates') {
        const j = 1 - op.i;
        call = `checkRates([${op.i}: ${op.n}, ${j}: 1], ${JSON.stringify(op.options)})`;
        answer = await limiter.checkRates(
          [
            { key: k, limit, cost: op.n },
            { key: KEYS[j] as BucketKey, limit: limits[j] as Limit, cost: 1 },
          ],
          given,
        );
      } else if (op.kind === 'record') answer = limiter.record(k, op.n, limit);
      else if (op.kind === 'penalize') answer = await limiter.penalize(k, { forMs: op.n });
      else if (op.kind === 'sync') {
        const now = clock.now();
        const o = op.options as { sentBack?: number; countedOwnCost?: number; endIn?: number; width?: number };
        const report = {
          ...(o.sentBack === undefined ? {} : { sentAtMs: now - o.sentBack }),
          ...(o.countedOwnCost === undefined ? {} : { countedOwnCost: o.countedOwnCost }),
          ...(o.endIn === undefined ? {} : { windowEnd: { earliestMs: now + o.endIn - (o.width ?? 0), latestMs: now + o.endIn } }),
        };
        call = `sync(${op.i}, ${op.n}, ${JSON.stringify(report)})`;
        answer = await limiter.sync(k, limit, op.n, report);
      } else if (op.kind === 'peek') answer = await limiter.peek([{ key: k, limit, cost: op.n }], given);
      else answer = await limiter.borrowed(k);
      lines.push(`at ${at} ms: ${call} => ${JSON.stringify(answer)}`);
    }
    lines.push(`snapshot => ${JSON.stringify(await limiter.snapshot())}`);
  } finally {
    await limiter.close();
  }
  return lines;
}

async function differsAt(limits: readonly Limit[], ops: readonly Op[]): Promise<number> {
  const a = await answers(limits, ops, false);
  const b = await answers(limits, ops, true);
  return a.findIndex((line, i) => line !== b[i]);
}

it(`a mutant behind the switch answers as the original on ${RUNS} ${KIND} sequences of ${STEPS} calls`, async () => {
  const dirs = ['rate-limit-kit', 'default-rate-limiter'].map((p) => new URL(`../packages/${p}/src/`, import.meta.url));
  const switched = dirs.some((dir) => readdirSync(dir).some((f) => readFileSync(new URL(f, dir), 'utf8').includes('__mutant')));
  expect(switched, 'no mutant behind the switch: run mutation/probe-switch.mjs first').toBe(true);
  for (let run = 0; run < RUNS; run++) {
    const { limits, ops } = sequence(run);
    if ((await differsAt(limits, ops)) < 0) continue;
    let shortest = ops;
    for (let i = 0; i < shortest.length; i++) {
      const fewer = [...shortest.slice(0, i), ...shortest.slice(i + 1)];
      if ((await differsAt(limits, fewer)) >= 0) {
        shortest = fewer;
        i = -1;
      }
    }
    const original = await answers(limits, shortest, false);
    const mutant = await answers(limits, shortest, true);
    const at = original.findIndex((line, i) => line !== mutant[i]);
    expect.fail(`sequence ${run} on ${JSON.stringify(limits)}, shrunk:\n${original.slice(0, at + 1).join('\n')}\nthe mutant: ${mutant[at]}`);
  }
});
