import { afterEach, describe, expect, it } from 'vitest';
import { metrics } from '@opentelemetry/api';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import type { BucketSnapshot, Decision, ErrorResult, RateLimiter, WaitDecision } from '@core/rate-limit-contract';
import { instrumentRateLimiter, meterOf, pacedFetchMetrics, type PacedAttempt } from '../src/index.js';

function recorder(): { provider: MeterProvider; collect(): Promise<MetricData[]> } {
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({ readers: [reader] });
  return {
    provider,
    async collect() {
      exporter.reset();
      await reader.forceFlush();
      return exporter.getMetrics().flatMap((b) => b.scopeMetrics.flatMap((s) => s.metrics));
    },
  };
}

function points(all: readonly MetricData[], name: string): string[] {
  const m = all.find((x) => x.descriptor.name === name);
  if (m === undefined) return [];
  return m.dataPoints
    .map((p) => {
      const attrs = Object.entries(p.attributes)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${String(v)}`)
        .join(',');
      const v = p.value as number | { count: number; sum?: number };
      return `${attrs} => ${typeof v === 'number' ? v : `${v.count}/${v.sum ?? 0}`}`;
    })
    .sort();
}

const UNAVAILABLE: ErrorResult = { kind: 'error', error: { code: 'backend_unavailable', message: 'the store did not answer in time' } };

/** A third party's limiter (not on the kit's front door) answering what the test says. */
function fakeLimiter(
  answer: () => Decision,
  snapshot: () => readonly BucketSnapshot[] | ErrorResult = () => [],
): RateLimiter & { recordStats(): { buffered: number; dropped: number } } {
  return {
    specificationVersion: 'v1',
    capabilities: {
      distributed: true,
      injectableClock: false,
      bookings: true,
      abortSignal: true,
      fractionalCosts: true,
      snapshot: true,
      sync: true,
      penalize: true,
      crossVenueChecks: true,
      windowLimits: false,
    },
    checkRate: async () => answer(),
    checkRates: async () => answer(),
    peek: async () => answer() as never,
    waitForCapacity: async () => answer() as WaitDecision,
    record: () => undefined,
    sync: async () => ({ kind: 'ok' }),
    penalize: async () => ({ kind: 'ok' }),
    borrowed: async () => 0,
    reset: async () => ({ kind: 'ok' }),
    resetVenue: async () => ({ kind: 'ok' }),
    resetAll: async () => ({ kind: 'ok' }),
    snapshot: async () => snapshot(),
    close: async () => undefined,
    recordStats: () => ({ buffered: 7, dropped: 3 }),
  };
}

afterEach(() => metrics.disable());

describe('instrumentRateLimiter', () => {
  it('does nothing without a meter provider: the limiter comes back untouched', () => {
    const l = fakeLimiter(() => ({ kind: 'ok', sendAtMs: 0 }));
    expect(meterOf({})).toBeUndefined();
    expect(instrumentRateLimiter(l)).toBe(l);
  });

  it('uses the global meter provider once one is registered', async () => {
    const r = recorder();
    metrics.setGlobalMeterProvider(r.provider);
    const l = instrumentRateLimiter(fakeLimiter(() => ({ kind: 'ok', sendAtMs: 0 })));
    await l.checkRate({ venue: 'okx', credential: null }, { requests: 1 }, 1);
    expect(points(await r.collect(), 'rate_limit.decisions')).toEqual([
      'rate_limit.axis=request,rate_limit.decision=ok,rate_limit.operation=check_rate,rate_limit.venue=okx => 1',
    ]);
  });

  it('counts backend_unavailable answers, the record buffer and its drops, and failed snapshots', async () => {
    const r = recorder();
    let down = true;
    const l = instrumentRateLimiter(
      fakeLimiter(
        () => (down ? UNAVAILABLE : { kind: 'ok', sendAtMs: 0 }),
        () => (down ? UNAVAILABLE : []),
      ),
      { meterProvider: r.provider },
    );
    const check = { key: { venue: 'bybit', credential: 'k', axis: 'uid' }, limit: { requests: 10 }, cost: 1 };
    await l.checkRates([check]);
    await l.waitForCapacity([check]);
    down = false;
    await l.checkRates([check]);
    down = true;
    const all = await r.collect();
    expect(points(all, 'rate_limit.backend.unavailable')).toEqual([
      'rate_limit.operation=check_rates => 1',
      'rate_limit.operation=snapshot => 1',
      'rate_limit.operation=wait_for_capacity => 1',
    ]);
    expect(points(all, 'rate_limit.decisions')).toContain(
      'error.type=backend_unavailable,rate_limit.axis=uid,rate_limit.decision=error,rate_limit.operation=check_rates,rate_limit.venue=bybit => 1',
    );
    expect(points(all, 'rate_limit.record.buffer.depth')).toEqual([' => 7']);
    expect(points(all, 'rate_limit.record.dropped')).toEqual([' => 3']);
    expect(JSON.stringify(all)).not.toContain('"k"');
  });

  it('bounds cardinality: axes beyond maxSeries share one series per venue', async () => {
    const r = recorder();
    const l = instrumentRateLimiter(
      fakeLimiter(() => ({ kind: 'delay', retryAfterMs: 5 })),
      { meterProvider: r.provider, maxSeries: 3 },
    );
    for (let i = 0; i < 10; i++) await l.checkRate({ venue: 'okx', credential: null, axis: `trade/order:PAIR-${i}` }, { requests: 1 }, 1);
    await l.checkRate({ venue: 'kraken', credential: null }, { requests: 1 }, 1);
    const got = points(await r.collect(), 'rate_limit.decisions');
    expect(got).toEqual([
      'rate_limit.axis=_other,rate_limit.decision=delay,rate_limit.operation=check_rate,rate_limit.venue=_other => 1',
      'rate_limit.axis=_other,rate_limit.decision=delay,rate_limit.operation=check_rate,rate_limit.venue=okx => 7',
      'rate_limit.axis=trade/order:PAIR-0,rate_limit.decision=delay,rate_limit.operation=check_rate,rate_limit.venue=okx => 1',
      'rate_limit.axis=trade/order:PAIR-1,rate_limit.decision=delay,rate_limit.operation=check_rate,rate_limit.venue=okx => 1',
      'rate_limit.axis=trade/order:PAIR-2,rate_limit.decision=delay,rate_limit.operation=check_rate,rate_limit.venue=okx => 1',
    ]);
  });

  it('shows at most maxBucketSeries live buckets, the fullest first, credentials as 12 hex digits of their hash', async () => {
    const r = recorder();
    const bucket = (axis: string, borrowed: number, hash: string | null): BucketSnapshot => ({
      venue: 'okx',
      credentialHash: hash,
      axis,
      capacity: 10,
      refillPerSec: 1,
      tokens: 10 - borrowed,
      borrowed,
    });
    const live = [bucket('a', 1, null), bucket('b', 9, 'ab'.repeat(32)), bucket('c', 5, null)];
    instrumentRateLimiter(
      fakeLimiter(
        () => ({ kind: 'ok', sendAtMs: 0 }),
        () => live,
      ),
      { meterProvider: r.provider, maxBucketSeries: 2 },
    );
    const all = await r.collect();
    expect(points(all, 'rate_limit.bucket.borrowed')).toEqual([
      `rate_limit.axis=b,rate_limit.credential.hash=${'ab'.repeat(6)},rate_limit.venue=okx => 9`,
      'rate_limit.axis=c,rate_limit.venue=okx => 5',
    ]);
    expect(points(all, 'rate_limit.buckets')).toEqual([' => 3']);
  });

  it("a window limit's documented limit, counted cost and utilization; pacing buckets left out; the host's limit and tier", async () => {
    const window: BucketSnapshot = {
      venue: 'okx',
      credentialHash: null,
      axis: 'market/books',
      capacity: 40,
      refillPerSec: 20,
      tokens: 0,
      borrowed: 40,
      windowMs: 2000,
      jitterMs: 100,
      counted: 38,
    };
    const pace: BucketSnapshot = { venue: 'okx', credentialHash: null, axis: 'market/books/pace', capacity: 2, refillPerSec: 20, tokens: -1, borrowed: 3 };
    const token: BucketSnapshot = { venue: 'kraken', credentialHash: null, axis: 'rest-counter', capacity: 14, refillPerSec: 0.3, tokens: 4, borrowed: 10 };
    const r = recorder();
    instrumentRateLimiter(
      fakeLimiter(
        () => ({ kind: 'ok', sendAtMs: 0 }),
        () => [window, pace, token],
      ),
      { meterProvider: r.provider },
    );
    const all = await r.collect();
    // by default a window limit's own perWindow is its venue's limit; a token bucket's safe capacity is none
    expect(points(all, 'rate_limit.bucket.limit')).toEqual(['rate_limit.axis=market/books,rate_limit.venue=okx => 40']);
    expect(points(all, 'rate_limit.bucket.counted')).toEqual(['rate_limit.axis=market/books,rate_limit.venue=okx => 38']);
    expect(points(all, 'rate_limit.bucket.utilization')).toEqual(['rate_limit.axis=market/books,rate_limit.venue=okx => 0.95']);
    expect(points(all, 'rate_limit.bucket.borrowed').join('\n')).not.toContain('/pace');
    expect(points(all, 'rate_limit.buckets')).toEqual([' => 2']);

    const h = recorder();
    instrumentRateLimiter(
      fakeLimiter(
        () => ({ kind: 'ok', sendAtMs: 0 }),
        () => [window, token],
      ),
      { meterProvider: h.provider, documentedLimit: (b) => (b.venue === 'kraken' ? { limit: 15, tier: 'starter' } : { limit: 40 }) },
    );
    const host = await h.collect();
    expect(points(host, 'rate_limit.bucket.limit')).toEqual([
      'rate_limit.axis=market/books,rate_limit.venue=okx => 40',
      'rate_limit.axis=rest-counter,rate_limit.tier=starter,rate_limit.venue=kraken => 15',
    ]);
    // utilization only where the window's counted cost is known
    expect(points(host, 'rate_limit.bucket.utilization')).toEqual(['rate_limit.axis=market/books,rate_limit.venue=okx => 0.95']);
  });

  it('a wrapped limiter stops reading its buckets when closed', async () => {
    const r = recorder();
    let snapshots = 0;
    const l = instrumentRateLimiter(
      fakeLimiter(
        () => ({ kind: 'ok', sendAtMs: 0 }),
        () => {
          snapshots++;
          return [];
        },
      ),
      { meterProvider: r.provider },
    );
    expect(points(await r.collect(), 'rate_limit.buckets')).toEqual([' => 0']);
    expect(snapshots).toBe(1);
    await l.close();
    await r.collect();
    expect(snapshots).toBe(1);
  });

  it("passes a sync's and a record's options on to the limiter it wraps (RL-V5, RL-V7)", async () => {
    const r = recorder();
    const seen: unknown[][] = [];
    const inner = fakeLimiter(() => ({ kind: 'ok', sendAtMs: 0 }));
    const l = instrumentRateLimiter(
      {
        ...inner,
        record: (...args: unknown[]) => void seen.push(['record', ...args]),
        sync: async (...args: unknown[]) => {
          seen.push(['sync', ...args]);
          return { kind: 'ok' };
        },
      },
      { meterProvider: r.provider },
    );
    const key = { venue: 'binance', credential: null, axis: 'ip' };
    const limit = { perWindow: 10, windowMs: 1000, jitterMs: 100 };
    await l.sync(key, limit, 4, { sentAtMs: 5, countedOwnCost: 1, windowEnd: { earliestMs: 900, latestMs: 1000 } });
    l.record(key, 1, limit);
    l.record(key, 2);
    expect(seen).toEqual([
      ['sync', key, limit, 4, { sentAtMs: 5, countedOwnCost: 1, windowEnd: { earliestMs: 900, latestMs: 1000 } }],
      ['record', key, 1, limit],
      ['record', key, 2],
    ]);
  });
});

describe('pacedFetchMetrics', () => {
  const attempt = (verdict: string, syncs: number, applied: number, penalties = 0, penaltiesApplied = 0): PacedAttempt => ({
    venue: 'binance-spot',
    waitedMs: 250,
    feedback: { verdict, syncs: Array.from({ length: syncs }, () => ({})), penalties: Array.from({ length: penalties }, () => ({})) },
    feedbackApplied: { syncs: applied, penalties: penaltiesApplied },
  });

  it('counts requests by the venue verdict, the feedback applied or failed, and the waits', async () => {
    const r = recorder();
    const onAttempt = pacedFetchMetrics({ meterProvider: r.provider });
    onAttempt(attempt('ok', 2, 2));
    onAttempt(attempt('ok', 2, 1));
    onAttempt(attempt('rate_limited', 0, 0, 1, 1));
    onAttempt(attempt('banned', 0, 0, 1, 0));
    const all = await r.collect();
    expect(points(all, 'rate_limit.client.requests')).toEqual([
      'rate_limit.venue=binance-spot,rate_limit.venue.verdict=banned => 1',
      'rate_limit.venue=binance-spot,rate_limit.venue.verdict=ok => 2',
      'rate_limit.venue=binance-spot,rate_limit.venue.verdict=refused => 1',
    ]);
    expect(points(all, 'rate_limit.client.feedback')).toEqual([
      'rate_limit.feedback.kind=penalty,rate_limit.feedback.outcome=applied,rate_limit.venue=binance-spot => 1',
      'rate_limit.feedback.kind=penalty,rate_limit.feedback.outcome=failed,rate_limit.venue=binance-spot => 1',
      'rate_limit.feedback.kind=sync,rate_limit.feedback.outcome=applied,rate_limit.venue=binance-spot => 3',
      'rate_limit.feedback.kind=sync,rate_limit.feedback.outcome=failed,rate_limit.venue=binance-spot => 1',
    ]);
    expect(points(all, 'rate_limit.client.wait.duration')).toEqual(['rate_limit.venue=binance-spot => 4/1']);
  });

  it('is a no-op without a meter provider', () => {
    expect(() => pacedFetchMetrics()(attempt('ok', 0, 0))).not.toThrow();
  });
});
