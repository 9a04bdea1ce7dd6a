import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import type { BucketCheck, Limit } from '@core/rate-limit-contract';
import { ManualClock } from '@core/rate-limit-conformance';
import { describe, expect, it } from 'vitest';
import { bucketForTier, createBucketModel, getVenueSpec, interpretResponse, resolveRequest, type ResolveOptions, type VenueRequest } from '../src/index.js';
import { rng } from './helpers.js';

/**
 * Binance spot charges an order's weight only when the order fails. Resolved with `deferred`, orders
 * are admitted on the weight at a gate cost only, held in an in-flight ledger (at most the bucket's
 * `inFlight` of deferred weight in flight), and recorded when the answer is a failure. The replay runs
 * depth requests (weight 5, always charged) and orders side by side through the default limiter on a
 * manual clock; each request reaches the venue's own model of its clock-aligned minute up to the jitter
 * allowance after its send time and is answered after a random latency of up to `maxLatencyMs` (so
 * that many orders are in flight at once). The venue counts a depth request at its arrival, and an
 * order's weight at its arrival when it fails.
 */
interface DeferredReplay {
  /** Record the weight of a failed order at its answer (default true). */
  readonly record?: boolean;
  /** Hold deferred weight in flight within the bound (default true); false: no ledger at all. */
  readonly bound?: boolean;
  /** Lower the weight limit by the in-flight share (default true); false: the whole venue limit with the ledger still bounded. */
  readonly lowered?: boolean;
  /** The share of orders that fail (default 1: every order fails, the worst case). */
  readonly failShare?: number;
  /** Enforce the minute as a window limit (default) or with the token-bucket derivation. */
  readonly windows?: boolean;
  readonly orderWorkers?: number;
  /** The in-flight share (default the documented default, 2 %: 120 of 6000). */
  readonly share?: number;
  readonly maxLatencyMs?: number;
}

interface ReplayOutcome {
  readonly violations: number;
  /** What the venue counted over the run, as a share of its limit over the same time. */
  readonly utilization: number;
  /** The most deferred weight in flight at once. */
  readonly peakInFlight: number;
  readonly failedOrders: number;
}

const spec = getVenueSpec('binance-spot');
const identity = { credential: 'replay-key' };
const depthRequest: VenueRequest = { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '100' } };
const orderRequest: VenueRequest = {
  method: 'POST',
  path: '/api/v3/order',
  query: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' },
};
const weightBucket = bucketForTier(spec.buckets.find((b) => b.id === 'request_weight')!, spec.defaultTier);

function weightCheck(request: VenueRequest, options: ResolveOptions): { check: BucketCheck; deferredCost: number; inFlight: number; limit: Limit } {
  const r = resolveRequest(spec, request, identity, options);
  if (!r.ok) throw new Error(r.error.message);
  const check = r.checks.find((c) => c.key.axis === 'request_weight')!;
  const d = r.deferred.find((x) => x.bucket === 'request_weight');
  return { check, deferredCost: d?.cost ?? 0, inFlight: d?.inFlight ?? 0, limit: check.limit };
}

interface Event {
  readonly at: number;
  readonly seq: number;
  readonly run: () => Promise<void> | void;
}

async function replay(seed: number, o: DeferredReplay = {}): Promise<ReplayOutcome> {
  const random = rng(seed);
  const windows = o.windows !== false;
  const options: ResolveOptions = { deferred: true, windowLimits: windows, ...(o.share === undefined ? {} : { inFlightShare: o.share }) };
  const depth = weightCheck(depthRequest, options);
  const order = weightCheck(orderRequest, options);
  if (order.deferredCost !== 1 || order.inFlight !== 6000 * (o.share ?? 0.02)) throw new Error(`the order's weight is not deferred: ${JSON.stringify(order)}`);
  // the broken variant keeps the venue's whole limit for the admitted weight
  const whole = weightCheck(depthRequest, { windowLimits: windows });
  const limit = o.lowered === false ? whole.limit : depth.limit;
  const depthCheck = { ...depth.check, limit };
  const orderCheck = { ...order.check, limit };
  const bound = o.bound === false ? Infinity : order.inFlight;
  const failShare = o.failShare ?? 1;
  const maxLatency = o.maxLatencyMs ?? 3000;
  const J = limit !== null && 'jitterMs' in limit ? (limit.jitterMs ?? 0) : 50;
  const start = Date.UTC(2026, 10, 30, 12, 0, 0) + Math.floor(random() * 60_000);
  const end = start + 150_000;
  const clock = new ManualClock(start);
  const limiter = createDefaultRateLimiter({ clock });
  const model = createBucketModel(weightBucket);
  const arrivals: { at: number; cost: number }[] = [];
  const queue: Event[] = [];
  let seq = 0;
  const at = (time: number, run: Event['run']): void => {
    const e = { at: time, seq: seq++, run };
    let lo = 0;
    let hi = queue.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      const m = queue[mid]!;
      if (m.at < e.at || (m.at === e.at && m.seq < e.seq)) lo = mid + 1;
      else hi = mid;
    }
    queue.splice(lo, 0, e);
  };
  let inFlight = 0;
  let peakInFlight = 0;
  let failedOrders = 0;
  const waiting: (() => void)[] = [];
  const release = (cost: number): void => {
    inFlight -= cost;
    for (const w of waiting.splice(0)) at(clock.now(), w);
  };

  const depthWorker = async (): Promise<void> => {
    if (clock.now() >= end) return;
    const d = await limiter.checkRates([depthCheck]);
    if (d.kind === 'ok') {
      const arrival = clock.now() + random() * J;
      arrivals.push({ at: arrival, cost: 5 });
      at(arrival + random() * 200, depthWorker);
    } else if (d.kind === 'delay') at(clock.now() + d.retryAfterMs, depthWorker);
    else throw new Error(d.kind === 'error' ? d.error.message : d.kind);
  };

  const orderWorker = async (): Promise<void> => {
    if (clock.now() >= end) return;
    // the ledger entry is taken before the admission and held until the answer
    if (inFlight + order.deferredCost > bound) {
      waiting.push(() => orderWorker());
      return;
    }
    inFlight += order.deferredCost;
    peakInFlight = Math.max(peakInFlight, inFlight);
    const d = await limiter.checkRates([orderCheck]);
    if (d.kind === 'delay') {
      release(order.deferredCost);
      at(clock.now() + d.retryAfterMs, orderWorker);
      return;
    }
    if (d.kind !== 'ok') throw new Error(d.kind === 'error' ? d.error.message : d.kind);
    const arrival = clock.now() + random() * J;
    const failed = random() < failShare;
    arrivals.push({ at: arrival, cost: failed ? order.deferredCost : 0 });
    at(arrival + 1 + random() * maxLatency, () => {
      const fb = interpretResponse(
        spec,
        orderRequest,
        failed
          ? { status: 400, headers: {}, body: { code: -2010, msg: 'Account has insufficient balance for requested action.' } }
          : { status: 200, headers: {}, body: {} },
        identity,
        options,
      );
      if (failed) failedOrders++;
      if (o.record !== false) for (const c of fb.deferred ?? []) if (c.key.axis === 'request_weight') limiter.record(c.key, c.cost, limit);
      release(order.deferredCost);
      return orderWorker();
    });
  };

  try {
    for (let i = 0; i < 4; i++) at(start, depthWorker);
    for (let i = 0; i < (o.orderWorkers ?? 400); i++) at(start + random() * 1000, orderWorker);
    while (queue.length > 0) {
      const e = queue.shift()!;
      if (e.at > clock.now()) clock.set(e.at);
      await e.run();
    }
  } finally {
    await limiter.close();
  }
  arrivals.sort((a, b) => a.at - b.at);
  let violations = 0;
  let counted = 0;
  for (const a of arrivals) {
    if (a.cost === 0) continue;
    if (model.consume(a.at, a.cost).admitted) counted += a.cost;
    else violations++;
  }
  return {
    violations,
    utilization: counted / ((weightBucket.algorithm === 'token-bucket' ? 0 : weightBucket.limit) * ((end - start) / 60_000)),
    peakInFlight,
    failedOrders,
  };
}

describe('deferred replay: Binance order weight admitted unreserved, recorded on failure, bounded in flight', () => {
  const report: string[] = [];

  it.each([
    ['window limits', true],
    ['token buckets', false],
  ] as const)('%s: every order failing, answers up to 3 s late: the venue never refuses', async (name, windows) => {
    for (const seed of [1, 2, 3]) {
      const r = await replay(seed, { windows });
      expect(r.peakInFlight, `seed ${seed}`).toBeLessThanOrEqual(120);
      expect(r.peakInFlight, `seed ${seed}: the ledger was never full`).toBe(120);
      expect(r.failedOrders).toBeGreaterThan(0);
      expect(r.violations, `seed ${seed}`).toBe(0);
    }
    const typical = await replay(4, { windows, failShare: 0.05 });
    expect(typical.violations).toBe(0);
    report.push(`${name}: 5 % of orders failing, weight as Binance counts it ${(typical.utilization * 100).toFixed(1)} % of 6000 / min`);
  });

  it('catches no bound: with every in-flight order unbounded, the venue counts more than its limit', async () => {
    let violations = 0;
    for (const seed of [1, 2]) violations += (await replay(seed, { bound: false })).violations;
    expect(violations).toBeGreaterThan(0);
  });

  it('catches failures that are not recorded: the venue counts them, the limiter does not', async () => {
    let violations = 0;
    for (const seed of [1, 2]) violations += (await replay(seed, { record: false })).violations;
    expect(violations).toBeGreaterThan(0);
  });

  it('catches a bound without the lowered limit: the admitted weight fills the minute, the in-flight failures land on top', async () => {
    let violations = 0;
    // 300 weight in flight (a 5 % share) on top of the whole minute
    for (const seed of [1, 2]) violations += (await replay(seed, { lowered: false, share: 0.05 })).violations;
    expect(violations).toBeGreaterThan(0);
  });

  it('reports the utilization reached (not asserted)', () => {
    console.log(report.join('\n'));
    expect(report.length).toBe(2);
  });
});
