// The Prometheus endpoint of `exlimits demo --metrics-port` and `exlimits inspect --metrics-port`:
// scraped while the command runs, through the official OpenTelemetry Prometheus exporter.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRateLimiter } from '@core/redis-rate-limiter';
import { main } from '../src/index.js';
import { freePort, startTestRedis, type TestRedis } from './redis-server.js';
import { Sink } from './sink.js';

const outDir = mkdtempSync(join(tmpdir(), 'exlimits-metrics-'));

/** Scrapes until `ready(body)` holds (or 20 s pass), while the command runs. */
async function scrapeUntil(url: string, ready: (body: string) => boolean): Promise<string> {
  let last = '';
  for (let i = 0; i < 100; i++) {
    try {
      const res = await fetch(url);
      last = await res.text();
      if (res.status === 200 && ready(last)) return last;
    } catch {
      // not serving yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the scrape never had the expected series; last body:\n${last}`);
}

/** The value of one series (exact name and labels in any order), or undefined. */
function value(body: string, name: string, labels: Record<string, string>): number | undefined {
  for (const line of body.split('\n')) {
    const m = /^([a-z_]+)(?:\{(.*)\})? (\S+)/.exec(line);
    if (m === null || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v)) return Number(m[3]);
  }
  return undefined;
}

describe('exlimits demo --metrics-port', () => {
  it("serves the limiter's and the paced client's series while the run lasts", { timeout: 60_000 }, async () => {
    const port = await freePort();
    const out = new Sink();
    const err = new Sink();
    const running = main(['demo', '--venue', 'okx', '--seconds', '4', '--credentials', '1', '--out', outDir, '--metrics-port', String(port)], { out, err });
    const url = `http://127.0.0.1:${port}/metrics`;
    const body = await scrapeUntil(url, (b) => b.includes('rate_limit_client_requests_total{') && b.includes('rate_limit_bucket_borrowed{'));
    // admissions by venue, axis, operation and decision (the paced client books with waitForCapacity)
    expect(
      value(body, 'rate_limit_decisions_total', {
        rate_limit_venue: 'okx',
        rate_limit_axis: 'market/books',
        rate_limit_operation: 'wait_for_capacity',
        rate_limit_decision: 'ok',
      }),
    ).toBeGreaterThan(0);
    expect(body).toContain('# TYPE rate_limit_decisions_total counter');
    // the waits, as a histogram in seconds
    expect(body).toContain('# TYPE rate_limit_wait_duration histogram');
    expect(value(body, 'rate_limit_wait_duration_count', { rate_limit_venue: 'okx', rate_limit_decision: 'ok' })).toBeGreaterThan(0);
    // live buckets: borrowed and capacity, the credential only as 12 hex digits of its hash
    expect(value(body, 'rate_limit_bucket_capacity', { rate_limit_venue: 'okx', rate_limit_axis: 'market/books' })).toBeGreaterThan(0);
    expect(body).toMatch(/rate_limit_bucket_borrowed\{[^}]*rate_limit_credential_hash="[0-9a-f]{12}"/);
    expect(body).not.toContain('demo-okx-key');
    expect(value(body, 'rate_limit_buckets', {})).toBeGreaterThan(0);
    expect(value(body, 'rate_limit_record_dropped_total', {})).toBe(0);
    // the documented limit (the default tier: 1000 per 2 s for sub-account orders) and the utilization in
    // use now, never above the limit's share; the paced client's pacing buckets are no series of their own
    expect(value(body, 'rate_limit_bucket_limit', { rate_limit_venue: 'okx', rate_limit_axis: 'market/books' })).toBe(40);
    expect(value(body, 'rate_limit_bucket_limit', { rate_limit_venue: 'okx', rate_limit_axis: 'subaccount-orders' })).toBe(1000);
    const utilization = value(body, 'rate_limit_bucket_utilization', { rate_limit_venue: 'okx', rate_limit_axis: 'market/books' });
    expect(utilization).toBeGreaterThanOrEqual(0);
    expect(utilization).toBeLessThanOrEqual(1);
    expect(body).not.toContain('/pace"');
    // the paced client: requests by the venue's verdict, feedback applied
    expect(value(body, 'rate_limit_client_requests_total', { rate_limit_venue: 'okx', rate_limit_venue_verdict: 'ok' })).toBeGreaterThan(0);
    expect(value(body, 'rate_limit_client_requests_total', { rate_limit_venue: 'okx', rate_limit_venue_verdict: 'refused' })).toBeUndefined();
    expect(await running).toBe(0);
    expect(out.text).toContain(`metrics (Prometheus): ${url}`);
    // the endpoint ends with the run
    await expect(fetch(url)).rejects.toThrow();
  });
});

describe('exlimits inspect --metrics-port', () => {
  let redis: TestRedis;
  beforeAll(async () => {
    redis = await startTestRedis();
  });
  afterAll(async () => {
    await redis?.stop();
  });

  it('serves the live buckets of the Redis store', { timeout: 60_000 }, async () => {
    const limiter = await createRateLimiter({ url: redis.url, prefix: 'scrape:' });
    // a bucket that stays live for minutes: 3 booked on a bucket of 1 refilled every 100 s
    const key = { venue: 'okx', credential: 'scrape-test-key', axis: 'account/balance' };
    for (let i = 0; i < 3; i++) expect((await limiter.checkRate(key, { capacity: 1, refillPerSec: 0.01 }, 1, { maxWaitMs: 600_000 })).kind).not.toBe('error');
    const port = await freePort();
    const stop = new AbortController();
    const out = new Sink();
    const running = main(['inspect', '--redis', redis.url, '--prefix', 'scrape:', '--interval', '200', '--metrics-port', String(port)], {
      out,
      err: new Sink(),
      signal: stop.signal,
    });
    const body = await scrapeUntil(`http://127.0.0.1:${port}/metrics`, (b) => b.includes('rate_limit_bucket_borrowed{'));
    expect(value(body, 'rate_limit_buckets', {})).toBe(1);
    expect(value(body, 'rate_limit_bucket_capacity', { rate_limit_venue: 'okx', rate_limit_axis: 'account/balance' })).toBe(1);
    expect(value(body, 'rate_limit_bucket_borrowed', { rate_limit_venue: 'okx', rate_limit_axis: 'account/balance' })).toBeCloseTo(3, 1);
    expect(value(body, 'rate_limit_record_buffer_depth', {})).toBe(0);
    expect(body).not.toContain('scrape-test-key');
    stop.abort();
    expect(await running).toBe(0);
    expect(out.text).toContain('10 / 2 s sliding');
    // --json: one line of data per refresh
    const json = new Sink();
    expect(await main(['inspect', '--redis', redis.url, '--prefix', 'scrape:', '--once', '--json'], { out: json, err: new Sink() })).toBe(0);
    const data = JSON.parse(json.text) as {
      prefix: string;
      buckets: { venue: string; axis: string; credentialHash: string; documentedLimit: string; mostPerWindow: number; now: string; borrowed: number }[];
    };
    expect(data.prefix).toBe('scrape:');
    expect(data.buckets).toHaveLength(1);
    expect(data.buckets[0]).toMatchObject({ venue: 'okx', axis: 'account/balance', documentedLimit: '10 / 2 s sliding' });
    expect(data.buckets[0]?.now).toMatch(/^queue /);
    expect(data.buckets[0]?.mostPerWindow).toBeCloseTo((1 + 0.01 * 2) / 10, 9);
    expect(json.text).not.toContain('scrape-test-key');
    await limiter.close();
  });
});
