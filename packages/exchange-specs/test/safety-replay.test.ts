import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import type { NormalizedLimit } from '@core/rate-limit-contract';
import { ManualClock } from '@core/rate-limit-conformance';
import { describe, expect, it } from 'vitest';
import {
  bucketForTier,
  bucketLimit,
  createBucketModel,
  describeSafeLimit,
  bucketMaxCost,
  DEFAULT_JITTER_MS,
  handAuthoredSpecs,
  type BucketSpec,
  type CostExpr,
  type VenueSpec,
} from '../src/index.js';
import { rng } from './helpers.js';

/** Every cost a bucket can be charged before the response (the workload draws from these). */
function possibleCosts(expr: CostExpr | number, out: Set<number>): void {
  if (typeof expr === 'number') {
    out.add(expr);
    return;
  }
  switch (expr.kind) {
    case 'constant':
      out.add(expr.value);
      return;
    case 'presence':
      possibleCosts(expr.present, out);
      possibleCosts(expr.absent, out);
      return;
    case 'table':
      for (const r of expr.rows) out.add(r.cost);
      if (expr.above !== undefined) out.add(expr.above);
      if (expr.absent !== undefined) possibleCosts(expr.absent, out);
      return;
    case 'lookup':
      for (const v of Object.values(expr.values)) out.add(v);
      if (expr.otherwise !== undefined) out.add(expr.otherwise);
      return;
    case 'count':
      for (let n = 1; n <= (expr.maxItems ?? 1); n++) out.add(expr.base + expr.per * Math.floor(n / (expr.every ?? 1)));
      return;
    case 'response':
      return;
  }
}

function costsOf(spec: VenueSpec, bucket: BucketSpec): number[] {
  const out = new Set<number>();
  const rules = [
    ...spec.endpoints.flatMap((e) => [...e.costs, ...(e.publicCosts ?? [])]),
    ...(spec.global ?? []),
    ...(spec.fallback?.costs ?? []),
    ...(spec.fallback?.publicCosts ?? []),
  ];
  for (const r of rules) if (r.bucket === bucket.id) possibleCosts(r.cost, out);
  const positive = [...out].filter((c) => c > 0).sort((a, b) => a - b);
  return positive.length > 0 ? positive : [1];
}

interface ReplayResult {
  readonly admitted: number;
  readonly violations: number;
  readonly utilization: number;
  readonly requests: number;
}

/**
 * Saturates one bucket: the workload asks again as soon as it may (a probe, then waiting out the
 * answered delay), sometimes idling up to a third of a window, for `horizon` of the venue's windows. Every admitted
 * request reaches the venue's own model up to `jitterMs` after its send time (uniformly at random,
 * so arrivals may reorder); a refusal there is a violation.
 */
async function replay(
  spec: VenueSpec,
  bucket: BucketSpec,
  seed: number,
  horizonWindows: number,
  override?: NormalizedLimit,
  jitterMs = DEFAULT_JITTER_MS,
): Promise<ReplayResult> {
  const random = rng(seed);
  const venueBucket = bucketForTier(bucket, spec.defaultTier);
  const limit = override ?? bucketLimit(spec, bucket, spec.defaultTier, undefined);
  const mode = describeSafeLimit(venueBucket, { maxCost: bucketMaxCost(spec, bucket.id) }).mode;
  const costs = costsOf(spec, bucket);
  const period = venueBucket.algorithm === 'token-bucket' ? (venueBucket.capacity / venueBucket.refillPerSec) * 1000 : venueBucket.windowMs;
  const start = 1_700_000_000_000 + Math.floor(random() * period);
  const clock = new ManualClock(start);
  const limiter = createDefaultRateLimiter({ clock });
  const model = createBucketModel(venueBucket);
  const key = { venue: spec.id, credential: 'replay', axis: bucket.id };
  const end = start + horizonWindows * period;
  let admitted = 0;
  let violations = 0;
  let requests = 0;
  const arrivals: { at: number; cost: number }[] = [];
  let nextIdleAt = start + random() * period;
  try {
    while (clock.now() < end) {
      const cost = costs[Math.floor(random() * costs.length)] ?? 1;
      // As resolveRequest does: a spaced bucket admits every request at its largest cost.
      const admitCost = mode === 'spaced' && 'capacity' in limit ? Math.max(cost, limit.capacity) : cost;
      const d = await limiter.checkRates([{ key, limit, cost: admitCost }]);
      if (d.kind === 'ok') {
        requests++;
        admitted += cost;
        arrivals.push({ at: clock.now() + random() * jitterMs, cost });
      } else if (d.kind === 'delay') {
        // Ask again exactly when allowed; about once per window idle a while (phases shift against the windows).
        let idle = 0;
        if (clock.now() >= nextIdleAt) {
          idle = Math.floor(random() * (period / 3));
          nextIdleAt = clock.now() + period * (0.5 + random());
        }
        clock.set(clock.now() + d.retryAfterMs + idle);
      } else if (d.kind === 'error') {
        throw new Error(`${spec.id}/${bucket.id}: ${d.error.code}: ${d.error.message}`);
      } else {
        throw new Error(`${spec.id}/${bucket.id}: a probe answered ${d.kind}`);
      }
    }
  } finally {
    await limiter.close();
  }
  arrivals.sort((a, b) => a.at - b.at);
  for (const a of arrivals) if (!model.consume(a.at, a.cost).admitted) violations++;
  const elapsed = clock.now() - start;
  const allowed =
    venueBucket.algorithm === 'token-bucket'
      ? venueBucket.capacity + (venueBucket.refillPerSec * elapsed) / 1000
      : (venueBucket.limit * elapsed) / venueBucket.windowMs;
  return { admitted, violations, requests, utilization: admitted / allowed };
}

const cases = handAuthoredSpecs.flatMap((spec) => spec.buckets.map((bucket) => [`${spec.id}/${bucket.id}`, spec, bucket] as const));

describe('safety replay: the default limiter with the derived parameters never exceeds the venue models', () => {
  const report: string[] = [];

  it.each(cases)('%s', async (name, spec, bucket) => {
    let worst = Infinity;
    for (const seed of [1, 2]) {
      const r = await replay(spec, bucket, seed * 7919 + name.length, 2.5);
      expect(r.violations, `${name} seed ${seed}: ${r.violations} of ${r.requests} admitted requests refused by the venue model`).toBe(0);
      worst = Math.min(worst, r.utilization);
    }
    report.push(`${name.padEnd(42)} ${(worst * 100).toFixed(1).padStart(5)}%`);
  });

  it('catches an unsafe derivation: capacity L refilled at L/W lets about 2L into one Binance minute', async () => {
    const spec = handAuthoredSpecs.find((s) => s.id === 'binance-spot')!;
    const bucket = spec.buckets.find((b) => b.id === 'request_weight')!;
    const r = await replay(spec, bucket, 3, 2.5, { capacity: 6000, refillPerSec: 100 });
    expect(r.violations).toBeGreaterThan(0);
  });

  it('catches a burst too large for a sliding window (Bybit 10 per rolling second: 3 + 9 per second)', async () => {
    const spec = handAuthoredSpecs.find((s) => s.id === 'bybit')!;
    const bucket = spec.buckets.find((b) => b.id === 'order/create')!;
    const r = await replay(spec, bucket, 4, 5, { capacity: 3, refillPerSec: 9 });
    expect(r.violations).toBeGreaterThan(0);
  });

  it('catches parameters derived without the jitter allowance when requests arrive up to 300 ms late (Bybit 10 per rolling second)', async () => {
    const spec = handAuthoredSpecs.find((s) => s.id === 'bybit')!;
    const bucket = spec.buckets.find((b) => b.id === 'order/create')!;
    const noJitter = describeSafeLimit(bucket, { margin: 0, jitterMs: 0 });
    let violations = 0;
    for (const seed of [5, 6, 7]) violations += (await replay(spec, bucket, seed, 20, noJitter, 300)).violations;
    expect(violations).toBeGreaterThan(0);
  });

  it('reports the utilization reached (not asserted)', () => {
    console.log(`utilization of the venue's limit over 2.5 windows, arrivals up to ${DEFAULT_JITTER_MS} ms late (worst of 2 seeds):\n${report.join('\n')}`);
    expect(report.length).toBe(cases.length);
  });
});
