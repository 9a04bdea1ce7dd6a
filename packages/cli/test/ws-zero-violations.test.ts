import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARGIN, listWebSocketVenues } from '@core/exchange-specs';
import { parseCommandLine, runDemo, type DemoReport } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.js';
import { Sink } from './sink.js';

const SECONDS = 3;
const outDir = mkdtempSync(join(tmpdir(), 'exlimits-ws-demo-'));

function expectClean(report: DemoReport): void {
  expect(report.failure).toBeUndefined();
  expect(report.stats.violations).toBe(0);
  expect(report.stats.refusedWhileBanned).toBe(0);
  expect(report.stats.bans).toBe(0);
  const ws = report.stats.webSocket;
  expect(ws).toBeDefined();
  expect(ws?.violations).toBe(0);
  expect(ws?.refusedConnections).toBe(0);
  expect(ws?.connectionsOpened).toBeGreaterThan(0);
  expect(report.wsCounts?.connects).toBeGreaterThan(0);
  // The chart shows the WebSocket limits beside the REST ones (Gate documents no WebSocket rate, only a cap).
  if ((ws?.buckets.length ?? 0) > 0) expect(readFileSync(report.chartPath, 'utf8')).toContain('ws:');
}

function print(label: string, r: DemoReport): void {
  const ws = r.stats.webSocket;
  console.log(
    `${label} ${r.venue}: REST admitted ${r.stats.admitted}; WebSocket attempts ${ws?.connectionAttempts}, messages ${ws?.admittedMessages}, drops ${r.wsCounts?.drops}, refused by the client ${r.wsCounts?.refusedByClient}, violations ${ws?.violations}`,
  );
}

describe('exlimits demo --ws', () => {
  it('refuses --ws for a venue without WebSocket limits, naming those that have them', async () => {
    await expect(runDemo({ venue: 'mexc', seconds: 1, credentials: 1, outDir, margin: DEFAULT_MARGIN, out: new Sink(), ws: true })).rejects.toThrow(
      /--ws: mexc-spot has no documented WebSocket limits; venues with WebSocket limits: binance-spot/,
    );
  });

  it('parses --ws', () => {
    expect(parseCommandLine(['demo', '--ws'])).toMatchObject({ command: 'demo', ws: true });
    expect(parseCommandLine(['demo'])).not.toHaveProperty('ws');
  });
});

describe('REST and WebSocket traffic of one identity at full speed, reconnect storms included: zero violations, in process', () => {
  for (const venue of listWebSocketVenues()) {
    it(`${venue}: the emulated venue refuses nothing, REST or WebSocket`, { timeout: 60_000 }, async () => {
      const report = await runDemo({ venue, seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, out: new Sink(), ws: true });
      print('in process', report);
      expectClean(report);
    });
  }
});

describe('REST and WebSocket sharing budgets across 4 processes on Redis', () => {
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
  }, 20_000);
  afterAll(async () => {
    await redis?.stop();
  });
  for (const venue of ['binance-spot', 'okx', 'bybit', 'hyperliquid']) {
    it(`${venue}: 4 processes, REST and WebSocket, zero violations`, { timeout: 90_000 }, async () => {
      const report = await runDemo({
        venue,
        seconds: SECONDS,
        credentials: 3,
        outDir,
        margin: DEFAULT_MARGIN,
        out: new Sink(),
        ws: true,
        redisUrl: redis!.url,
        processes: 4,
      });
      print('4 processes on Redis', report);
      expectClean(report);
    });
  }
});
