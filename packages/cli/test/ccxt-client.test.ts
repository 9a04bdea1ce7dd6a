import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MARGIN } from '@core/exchange-specs';
import { parseCommandLine, runDemo, type DemoReport } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.js';
import { Sink } from './sink.js';

// `exlimits demo --client ccxt`: ccxt's unified methods through @core/ccxt-pacing, briefly (CI time): Binance
// (its four API families, signed calls checked for -1021) in process, OKX from 2 processes sharing Redis.
const SECONDS = 2;
const outDir = mkdtempSync(join(tmpdir(), 'exlimits-ccxt-demo-'));

function expectClean(report: DemoReport, out: Sink): void {
  expect(report.failure).toBeUndefined();
  expect(report.counts.sent).toBeGreaterThan(0);
  expect(report.counts.refused).toBe(0);
  for (const f of report.families ?? []) {
    expect(f.stats.violations + f.stats.refusedWhileBanned, f.spec).toBe(0);
    expect(f.stats.rejected, `${f.spec} -1021`).toBe(0);
    expect(f.stats.badRequests, f.spec).toBe(0);
  }
  expect(out.text).toContain('ccxt calls completed');
}

describe('exlimits demo --client ccxt', () => {
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
  }, 20_000);
  afterAll(async () => {
    await redis?.stop();
  });

  it('parses --client, and --venue all means the ccxt setups', () => {
    const c = parseCommandLine(['demo', '--client', 'ccxt', '--venue', 'all']);
    expect(c).toMatchObject({ client: 'ccxt', venues: ['binance', 'binanceusdm', 'okx', 'bybit', 'kucoin', 'kraken'] });
    expect(() => parseCommandLine(['demo', '--client', 'ccxxt'])).toThrow('--client must be fetch (paced-fetch, the default) or ccxt, got "ccxxt"');
    expect(() => parseCommandLine(['demo', '--client', 'ccxt', '--ws'])).toThrow('--ws drives the venue with paced-websocket');
  });

  it('binance in process: the unified methods on every family, none refused, no -1021', { timeout: 60_000 }, async () => {
    const out = new Sink();
    const report = await runDemo({ venue: 'binance-spot', client: 'ccxt', seconds: SECONDS, credentials: 2, outDir, margin: DEFAULT_MARGIN, out });
    console.log(
      `ccxt binance in process: ${out.text.match(/ccxt calls completed \d+/)?.[0]}, families ${report.families?.map((f) => `${f.spec} ${f.stats.admitted}`).join(', ')}`,
    );
    expect(report.families?.map((f) => f.spec)).toEqual(['binance-spot', 'binance-sapi', 'binance-usdm', 'binance-coinm']);
    expectClean(report, out);
  });

  it('okx from 2 processes sharing Redis: none refused', { timeout: 60_000 }, async () => {
    const out = new Sink();
    const report = await runDemo({
      venue: 'okx',
      client: 'ccxt',
      seconds: SECONDS,
      credentials: 2,
      outDir,
      margin: DEFAULT_MARGIN,
      out,
      redisUrl: redis!.url,
      processes: 2,
    });
    console.log(`ccxt okx on Redis: ${out.text.match(/ccxt calls completed \d+/)?.[0]}, admitted ${report.stats.admitted}`);
    expect(report.mode).toContain('2 processes sharing Redis');
    expectClean(report, out);
  });

  it('names the venues it runs for one it does not', async () => {
    await expect(runDemo({ venue: 'gate', client: 'ccxt', seconds: 1, credentials: 1, outDir, margin: DEFAULT_MARGIN, out: new Sink() })).rejects.toThrow(
      'no ccxt setup for "gate"',
    );
  });
});
