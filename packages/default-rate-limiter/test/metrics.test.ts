// The OpenTelemetry metrics of the in-process limiter, without a collector: an in-memory meter provider
// (sdk-metrics and its in-memory exporter) records a scripted run on a manual clock, and each
// instrument is checked against what the script did. The same script through a limiter that is not
// built on the kit's front door (wrapped by instrumentRateLimiter) must record exactly the same.
import { describe, expect, it } from 'vitest';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import type { BucketKey, RateLimiter } from '@core/rate-limit-contract';
import { ManualClock } from '@core/rate-limit-conformance';
import { InstrumentedRateLimiter, instrumentRateLimiter } from '@core/rate-limit-metrics';
import { createDefaultRateLimiter, type DefaultRateLimiter } from '../src/index.js';

interface Recorder {
  readonly provider: MeterProvider;
  collect(): Promise<MetricData[]>;
}

function inMemoryMetrics(): Recorder {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    async collect() {
      exporter.reset();
      await reader.forceFlush();
      const batches = exporter.getMetrics();
      return batches.flatMap((b) => b.scopeMetrics.flatMap((s) => s.metrics));
    },
  };
}

function metric(all: readonly MetricData[], name: string): MetricData {
  const m = all.find((x) => x.descriptor.name === name);
  if (m === undefined) throw new Error(`no metric ${name} (have ${all.map((x) => x.descriptor.name).join(', ')})`);
  return m;
}

/** Each data point as "attr=value,... => value" (sorted), histograms as "attrs => count/sum". */
function points(m: MetricData): string[] {
  return m.dataPoints
    .map((p) => {
      const attrs = Object.entries(p.attributes)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',');
      const v = p.value as number | { count: number; sum?: number };
      return `${attrs} => ${typeof v === 'number' ? v : `${v.count}/${Number(v.sum ?? 0).toFixed(3)}`}`;
    })
    .sort();
}

const orders: BucketKey = { venue: 'binance', credential: 'secret-api-key', axis: 'orders' };
const ip: BucketKey = { venue: 'binance', credential: null, axis: 'ip' };
const ordersLimit = { capacity: 2, refillPerSec: 1 };
const ipLimit = { capacity: 10, refillPerSec: 10 };

/** The script: every kind of answer, each once or twice; returns the kinds answered, in order. */
async function script(limiter: RateLimiter, clock: ManualClock, sync: (() => string) | undefined): Promise<string[]> {
  const kinds: string[] = [];
  const note = (d: { kind: string; error?: { code: string } }): void => void kinds.push(d.kind === 'error' ? (d.error?.code ?? 'error') : d.kind);
  note(await limiter.checkRate(orders, ordersLimit, 1)); // ok
  note(await limiter.checkRate(orders, ordersLimit, 1)); // ok
  note(await limiter.checkRate(orders, ordersLimit, 1)); // delay 1000 ms
  note(await limiter.checkRate(orders, ordersLimit, 1, { maxWaitMs: 5_000 })); // booked, 1 s ahead
  note(
    await limiter.checkRates([
      { key: orders, limit: ordersLimit, cost: 1 },
      { key: ip, limit: ipLimit, cost: 1 },
    ]),
  ); // delay
  note(
    await limiter.waitForCapacity(
      [
        { key: orders, limit: ordersLimit, cost: 1 },
        { key: ip, limit: ipLimit, cost: 1 },
      ],
      { maxWaitMs: 100 },
    ),
  ); // timeout
  note(await limiter.waitForCapacity([{ key: ip, limit: ipLimit, cost: 1 }])); // ok now
  const waiting = limiter.waitForCapacity([{ key: orders, limit: ordersLimit, cost: 1 }], { maxWaitMs: 5_000 }); // 2 s ahead
  await clock.advance(2_000);
  note(await waiting); // ok after 2 s
  note(await limiter.peek([{ key: ip, limit: ipLimit, cost: 1 }])); // ok
  note(await limiter.checkRate({ venue: 'okx', credential: null, axis: 'quota' }, { capacity: 1, refillPerSec: 0 }, 5)); // cost_unpayable
  if (sync !== undefined)
    kinds.push(sync()); // the synchronous fast path: ok
  else note(await limiter.checkRate(ip, ipLimit, 1));
  await limiter.checkRate(ip, null, 1); // unlimited: nothing to charge, not reported
  limiter.record(ip, -1); // dropped
  return kinds;
}

const expectedKinds = ['ok', 'ok', 'delay', 'booked', 'delay', 'rate_limit_timeout', 'ok', 'ok', 'ok', 'cost_unpayable', 'ok'];

const expectedDecisions = [
  'error.type=cost_unpayable,rate_limit.axis=quota,rate_limit.decision=error,rate_limit.operation=check_rate,rate_limit.venue=okx => 1',
  'error.type=rate_limit_timeout,rate_limit.axis=ip,rate_limit.decision=error,rate_limit.operation=wait_for_capacity,rate_limit.venue=binance => 1',
  'error.type=rate_limit_timeout,rate_limit.axis=orders,rate_limit.decision=error,rate_limit.operation=wait_for_capacity,rate_limit.venue=binance => 1',
  'rate_limit.axis=ip,rate_limit.decision=delay,rate_limit.operation=check_rates,rate_limit.venue=binance => 1',
  'rate_limit.axis=ip,rate_limit.decision=ok,rate_limit.operation=check_rate,rate_limit.venue=binance => 1',
  'rate_limit.axis=ip,rate_limit.decision=ok,rate_limit.operation=peek,rate_limit.venue=binance => 1',
  'rate_limit.axis=ip,rate_limit.decision=ok,rate_limit.operation=wait_for_capacity,rate_limit.venue=binance => 1',
  'rate_limit.axis=orders,rate_limit.decision=booked,rate_limit.operation=check_rate,rate_limit.venue=binance => 1',
  'rate_limit.axis=orders,rate_limit.decision=delay,rate_limit.operation=check_rate,rate_limit.venue=binance => 1',
  'rate_limit.axis=orders,rate_limit.decision=delay,rate_limit.operation=check_rates,rate_limit.venue=binance => 1',
  'rate_limit.axis=orders,rate_limit.decision=ok,rate_limit.operation=check_rate,rate_limit.venue=binance => 2',
  'rate_limit.axis=orders,rate_limit.decision=ok,rate_limit.operation=wait_for_capacity,rate_limit.venue=binance => 1',
];

/** A limiter that is not built on the kit's front door: a plain object delegating to one that is. */
function plainLimiter(inner: DefaultRateLimiter): RateLimiter {
  return {
    specificationVersion: inner.specificationVersion,
    capabilities: inner.capabilities,
    checkRate: (...a) => inner.checkRate(...a),
    checkRates: (...a) => inner.checkRates(...a),
    waitForCapacity: (...a) => inner.waitForCapacity(...a),
    peek: (...a) => inner.peek(...a),
    record: (...a) => inner.record(...a),
    sync: (...a) => inner.sync(...a),
    penalize: (...a) => inner.penalize(...a),
    borrowed: (...a) => inner.borrowed(...a),
    reset: (...a) => inner.reset(...a),
    resetVenue: (...a) => inner.resetVenue(...a),
    resetAll: (...a) => inner.resetAll(...a),
    snapshot: () => inner.snapshot(),
    close: () => inner.close(),
  };
}

describe('OpenTelemetry metrics of the in-process limiter (in-memory meter provider)', () => {
  it('records each instrument of a scripted run through the front door hook', async () => {
    const m = inMemoryMetrics();
    const clock = new ManualClock();
    const limiter = createDefaultRateLimiter({ clock });
    expect(instrumentRateLimiter(limiter, { meterProvider: m.provider })).toBe(limiter); // instrumented in place
    const kinds = await script(limiter, clock, () => limiter.tryAcquireSync(ip, ipLimit, 1).kind);
    expect(kinds).toEqual(expectedKinds);
    const all = await m.collect();

    expect(points(metric(all, 'rate_limit.decisions'))).toEqual(expectedDecisions);
    expect(metric(all, 'rate_limit.decisions').descriptor.unit).toBe('{decision}');
    // the booking's lead: 1 s
    expect(points(metric(all, 'rate_limit.booking.lead'))).toEqual(['rate_limit.operation=check_rate,rate_limit.venue=binance => 1/1.000']);
    // waits: the timeout answered at once, the free wait at once, the booked wait after 2 s
    expect(points(metric(all, 'rate_limit.wait.duration'))).toEqual([
      'error.type=rate_limit_timeout,rate_limit.decision=error,rate_limit.venue=binance => 1/0.000',
      'rate_limit.decision=ok,rate_limit.venue=binance => 2/2.000',
    ]);
    expect(metric(all, 'rate_limit.wait.duration').descriptor.unit).toBe('s');
    // no store failed
    expect(all.find((x) => x.descriptor.name === 'rate_limit.backend.unavailable')?.dataPoints ?? []).toEqual([]);
    // the live buckets: the key's credential appears only as 12 hex digits of its hash
    const borrowed = points(metric(all, 'rate_limit.bucket.borrowed'));
    const capacity = points(metric(all, 'rate_limit.bucket.capacity'));
    expect(borrowed).toHaveLength(2);
    expect(borrowed[0]).toBe('rate_limit.axis=ip,rate_limit.venue=binance => 1');
    expect(borrowed[1]).toMatch(/^rate_limit\.axis=orders,rate_limit\.credential\.hash=[0-9a-f]{12},rate_limit\.venue=binance => 2$/);
    expect(capacity[0]).toBe('rate_limit.axis=ip,rate_limit.venue=binance => 10');
    expect(capacity[1]).toMatch(/=[0-9a-f]{12},rate_limit\.venue=binance => 2$/);
    expect(JSON.stringify(all)).not.toContain('secret-api-key');
    expect(points(metric(all, 'rate_limit.buckets'))).toEqual([' => 2']);
    // the record dropped for its negative cost
    expect(points(metric(all, 'rate_limit.record.dropped'))).toEqual([' => 1']);
    await limiter.close();
  });

  it('records exactly the same for a limiter not built on the front door (wrapped)', async () => {
    const m = inMemoryMetrics();
    const clock = new ManualClock();
    const inner = createDefaultRateLimiter({ clock });
    const wrapped = instrumentRateLimiter(plainLimiter(inner), { meterProvider: m.provider, clock });
    expect(wrapped).toBeInstanceOf(InstrumentedRateLimiter);
    expect(await script(wrapped, clock, undefined)).toEqual(expectedKinds);
    const all = await m.collect();
    expect(points(metric(all, 'rate_limit.decisions'))).toEqual(expectedDecisions);
    expect(points(metric(all, 'rate_limit.booking.lead'))).toEqual(['rate_limit.operation=check_rate,rate_limit.venue=binance => 1/1.000']);
    expect(points(metric(all, 'rate_limit.wait.duration'))).toEqual([
      'error.type=rate_limit_timeout,rate_limit.decision=error,rate_limit.venue=binance => 1/0.000',
      'rate_limit.decision=ok,rate_limit.venue=binance => 2/2.000',
    ]);
    expect(points(metric(all, 'rate_limit.bucket.borrowed'))).toHaveLength(2);
    await wrapped.close();
  });

  it('instruments nothing without a meter provider, and the limiter is returned untouched', async () => {
    const limiter = createDefaultRateLimiter();
    expect(instrumentRateLimiter(limiter)).toBe(limiter);
    const plain = plainLimiter(limiter);
    expect(instrumentRateLimiter(plain)).toBe(plain);
    await limiter.close();
  });

  it('an observer that throws never changes an answer', async () => {
    const limiter = createDefaultRateLimiter();
    limiter.setObserver({
      admission() {
        throw new Error('broken observer');
      },
    });
    expect(limiter.tryAcquireSync(ip, ipLimit, 1).kind).toBe('ok');
    expect((await limiter.checkRate(ip, ipLimit, 1)).kind).toBe('ok');
    expect((await limiter.waitForCapacity([{ key: ip, limit: ipLimit, cost: 1 }])).kind).toBe('ok');
    expect(limiter.stats().buckets).toBe(1);
    await limiter.close();
  });
});
