// OpenTelemetry metrics of the Redis limiter through the kit's front door, into an in-memory meter provider:
// decisions and live buckets while the server answers, then backend_unavailable answers and the record
// buffer while it is paused (SIGSTOP: the connection stays open, nothing answers).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type MetricData } from '@opentelemetry/sdk-metrics';
import { instrumentRateLimiter } from '@core/rate-limit-metrics';
import { createRedisRateLimiter } from '../src/index.js';
import { ioredisClient, type TestClient } from './support/clients.js';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';

let server: RedisServer;
let io: TestClient;
beforeAll(async () => {
  server = await startRedisServer();
  io = await ioredisClient(server.port);
});
afterAll(async () => {
  server?.resume();
  await io?.close();
  await server?.stop();
});

function points(all: readonly MetricData[], name: string): string[] {
  const m = all.find((x) => x.descriptor.name === name);
  return (m?.dataPoints ?? [])
    .map(
      (p) =>
        `${Object.entries(p.attributes)
          .sort(([a], [b]) => (a < b ? -1 : 1))
          .map(([k, v]) => `${k}=${String(v)}`)
          .join(',')} => ${p.value as number}`,
    )
    .sort();
}

describe('metrics of the Redis limiter', () => {
  it('records decisions, live buckets, backend_unavailable answers and the record buffer', { timeout: 60_000 }, async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const provider = new MeterProvider({ readers: [reader] });
    const collect = async (): Promise<MetricData[]> => {
      exporter.reset();
      await reader.forceFlush();
      return exporter.getMetrics().flatMap((b) => b.scopeMetrics.flatMap((s) => s.metrics));
    };
    const limiter = createRedisRateLimiter({ redis: io.redis, prefix: 'metrics-test:', timeoutMs: 200 });
    expect(instrumentRateLimiter(limiter, { meterProvider: provider })).toBe(limiter);
    const key = { venue: 'bybit', credential: 'redis-metrics-key', axis: 'uid' };
    const limit = { capacity: 2, refillPerSec: 0.5 };
    expect((await limiter.checkRate(key, limit, 1)).kind).toBe('ok');
    expect((await limiter.checkRate(key, limit, 1)).kind).toBe('ok');
    expect((await limiter.checkRate(key, limit, 1)).kind).toBe('delay');
    let all = await collect();
    expect(points(all, 'rate_limit.decisions')).toEqual([
      'rate_limit.axis=uid,rate_limit.decision=delay,rate_limit.operation=check_rate,rate_limit.venue=bybit => 1',
      'rate_limit.axis=uid,rate_limit.decision=ok,rate_limit.operation=check_rate,rate_limit.venue=bybit => 2',
    ]);
    expect(points(all, 'rate_limit.buckets')).toEqual([' => 1']);
    expect(points(all, 'rate_limit.bucket.capacity')[0]).toMatch(
      /^rate_limit\.axis=uid,rate_limit\.credential\.hash=[0-9a-f]{12},rate_limit\.venue=bybit => 2$/,
    );
    expect(points(all, 'rate_limit.record.buffer.depth')).toEqual([' => 0']);

    server.pause();
    try {
      expect((await limiter.checkRate(key, limit, 1)).kind).toBe('error');
      limiter.record(key, 1, limit);
      // the record's delivery times out and it waits in the buffer for the server
      await expect.poll(() => limiter.recordStats().buffered, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
      all = await collect();
    } finally {
      server.resume();
    }
    expect(points(all, 'rate_limit.backend.unavailable')).toEqual(['rate_limit.operation=check_rate => 1', 'rate_limit.operation=snapshot => 1']);
    expect(points(all, 'rate_limit.decisions')).toContain(
      'error.type=backend_unavailable,rate_limit.axis=uid,rate_limit.decision=error,rate_limit.operation=check_rate,rate_limit.venue=bybit => 1',
    );
    expect(Number(points(all, 'rate_limit.record.buffer.depth')[0]?.split(' => ')[1])).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(all)).not.toContain('redis-metrics-key');
    await limiter.close();
    await provider.shutdown();
  });
});
