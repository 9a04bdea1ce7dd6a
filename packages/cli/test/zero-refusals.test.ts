import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARGIN } from '@core/exchange-specs';
import { DEMO_VENUES, runDemo, type DemoReport } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.js';
import { Sink } from './sink.js';

const SECONDS = 3;
const outDir = mkdtempSync(join(tmpdir(), 'exlimits-demo-'));

function printUtilization(label: string, report: DemoReport): void {
  const rows = report.stats.buckets.map(
    (b) =>
      `  ${b.axis.padEnd(26)} ${(b.credentialHash ?? 'IP').padEnd(13)} peak ${((b.peakUsed / b.limit) * 100).toFixed(1).padStart(5)}%  utilization ${b.utilization === null ? '  n/a' : `${(b.utilization * 100).toFixed(1)}%`}`,
  );
  console.log(
    `${label} ${report.venue}: sent ${report.counts.sent}, admitted ${report.stats.admitted}, refused ${report.stats.violations + report.stats.refusedWhileBanned}\n${rows.join('\n')}`,
  );
}

function expectClean(report: DemoReport): void {
  expect(report.failure).toBeUndefined();
  expect(report.counts.sent).toBeGreaterThan(0);
  expect(report.stats.admitted).toBeGreaterThan(0);
  expect(report.stats.violations).toBe(0);
  expect(report.stats.refusedWhileBanned).toBe(0);
  expect(report.stats.bans).toBe(0);
  expect(report.counts.refused).toBe(0);
  const svg = readFileSync(report.chartPath, 'utf8');
  expect(svg.startsWith('<svg')).toBe(true);
}

describe('zero refusals from the emulated venue at full speed, in process', () => {
  for (const venue of DEMO_VENUES) {
    it(`${venue}: every request sent is admitted by the venue`, { timeout: 60_000 }, async () => {
      const report = await runDemo({ venue, seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, out: new Sink() });
      printUtilization('in process', report);
      expectClean(report);
    });
  }
});

/** Documented venues beyond the demo's five, each with its own request mix (in process only). */
const MORE_DOCUMENTED_VENUES = ['mexc-spot', 'mexc-futures', 'bitmart-spot', 'bitmart-futures'] as const;

describe('zero refusals from the emulated venue at full speed, in process: more documented venues', () => {
  for (const venue of MORE_DOCUMENTED_VENUES) {
    it(`${venue}: every request sent is admitted by the venue`, { timeout: 60_000 }, async () => {
      const report = await runDemo({ venue, seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, out: new Sink() });
      printUtilization('in process', report);
      expectClean(report);
    });
  }
});

describe('a ccxt-derived venue (one token bucket sized for its heaviest request)', () => {
  it('phemex: every request sent is admitted by the venue', { timeout: 60_000 }, async () => {
    const report = await runDemo({ venue: 'phemex', seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, out: new Sink() });
    printUtilization('in process (ccxt-derived)', report);
    expectClean(report);
  });
});

describe('zero refusals from the venues added by hand after the first five, in process', () => {
  for (const venue of ['dydx-v4', 'coinbase-intx', 'ascendex']) {
    it(`${venue}: every request sent is admitted by the venue`, { timeout: 60_000 }, async () => {
      const report = await runDemo({ venue, seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, out: new Sink() });
      printUtilization('in process', report);
      expectClean(report);
    });
  }
});

describe('zero refusals with 4 processes sharing Redis', () => {
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
  }, 20_000);
  afterAll(async () => {
    await redis?.stop();
  });
  for (const venue of DEMO_VENUES) {
    it(`${venue}: every request sent by 4 processes is admitted by the venue`, { timeout: 90_000 }, async () => {
      const report = await runDemo({
        venue,
        seconds: SECONDS,
        credentials: 3,
        outDir,
        margin: DEFAULT_MARGIN,
        out: new Sink(),
        redisUrl: redis!.url,
        processes: 4,
      });
      printUtilization('4 processes on Redis', report);
      expectClean(report);
    });
  }
});
