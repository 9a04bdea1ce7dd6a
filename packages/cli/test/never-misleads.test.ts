// What the CLI shows must never mislead: each defect found by trying it has a test here.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BucketSnapshot } from '@core/rate-limit-contract';
import type { BucketUsage } from '@core/venue-emulator';
import { DEFAULT_MARGIN } from '@core/exchange-specs';
import { bucketTable, main, renderUsageChart, runDemo } from '../src/index.js';
import { progressText } from '../src/progress-text.js';
import { summaryTable } from '../src/summary-table.js';
import { charsThatFit } from '../src/usage-chart.js';
import { Sink } from './sink.js';

const outDir = mkdtempSync(join(tmpdir(), 'exlimits-misleads-'));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new Sink();
  const err = new Sink();
  const code = await main(argv, { out, err });
  return { code, out: out.text, err: err.text };
}

describe('the command line', () => {
  it('without a command prints the help to stderr and exits 2', async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('no command given');
    expect(r.err).toContain('Usage:');
    expect(r.out).toBe('');
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    const r = await run(['--version']);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`exlimits ${pkg.version}\n`);
  });
});

describe('inspect shows each bucket against its documented limit', () => {
  // OKX's account/balance: 10 requests per 2 s; the limiter's safe bucket is capacity 1 refilled at
  // 4.195/s, and 6.31 borrowed means 5.31 booked beyond the burst: a queue, not 631 % of anything.
  const balance: BucketSnapshot = {
    venue: 'okx',
    credentialHash: 'ab'.repeat(32),
    axis: 'account/balance',
    capacity: 1,
    refillPerSec: 4.1951,
    tokens: -5.31,
    borrowed: 6.31,
  };
  const ordersPartition: BucketSnapshot = {
    venue: 'okx',
    credentialHash: 'cd'.repeat(32),
    axis: 'trade/order:BTC-USDT',
    capacity: 1.152,
    refillPerSec: 27.5356,
    tokens: 0.5,
    borrowed: 0.652,
  };
  const own: BucketSnapshot = {
    venue: 'my-venue',
    credentialHash: null,
    axis: 'request',
    capacity: 5,
    refillPerSec: 1,
    tokens: 5,
    borrowed: 0,
    heldUntilMs: 2_000,
  };

  it('a safe-limit bucket with bookings queued shows the documented limit and a queue, never a share above 100 %', () => {
    const table = bucketTable([balance, ordersPartition, own], 1_000);
    expect(table).not.toMatch(/\d{3,}%/);
    expect(table).not.toContain('6.31 / 1');
    const rows = table.split('\n');
    const row = rows.find((l) => l.includes('account/balance')) ?? '';
    expect(row).toContain('10 / 2 s sliding');
    expect(row).toContain('1 cap, 4.20/s');
    expect(row).toContain(`${(((1 + 4.1951 * 2) / 10) * 100).toFixed(1)}%`);
    expect(row).toContain(`queue ${(5.31 / 4.1951).toFixed(2)} s`);
    // a partitioned axis is the bucket's documented limit too
    expect(rows.find((l) => l.includes('trade/order:BTC-USDT'))).toContain('60 / 2 s sliding');
    // a venue exchange-specs does not know says so, and a held bucket says it is held
    const mine = rows.find((l) => l.includes('my-venue')) ?? '';
    expect(mine).toContain('not in exchange-specs');
    expect(mine).toContain('held 1 s');
  });

  it("a ccxt-derived venue's limit is marked as an estimate, never as documented", () => {
    const phemex: BucketSnapshot = { venue: 'phemex', credentialHash: null, axis: 'ccxt', capacity: 1, refillPerSec: 1, tokens: 1, borrowed: 0 };
    expect(bucketTable([phemex], 0).split('\n')[2]).toContain('(ccxt estimate)');
  });
});

const tokenBucket = (over: Partial<BucketUsage>): BucketUsage => ({
  bucketId: 'rest-counter',
  axis: 'rest-counter',
  credentialHash: '001ee9df1aae',
  algorithm: 'token-bucket',
  limit: 15,
  refillPerSec: 0.33,
  windowMs: 1000,
  admittedCost: 15,
  admittedRequests: 15,
  refusals: 0,
  peakUsed: 14.4,
  utilization: null,
  windows: [],
  ...over,
});

describe('the summary table', () => {
  const stats = { buckets: [] as BucketUsage[] };
  it('a bucket whose window is longer than the run shows n/a, and a tiny share is never 0.0 %', () => {
    const day: BucketUsage = {
      ...tokenBucket({}),
      bucketId: 'orders_1d',
      axis: 'orders_1d',
      algorithm: 'fixed-window-aligned',
      limit: 160_000,
      windowMs: 86_400_000,
      admittedCost: 19,
      peakUsed: 19,
    };
    stats.buckets = [tokenBucket({}), day];
    const table = summaryTable(stats as never, 'documented');
    expect(table).not.toContain('0.0%');
    expect(table.split('\n').find((l) => l.startsWith('orders_1d'))).toMatch(/<0\.1%\s+n\/a/);
    expect(table.split('\n').find((l) => l.startsWith('rest-counter'))).toMatch(/n\/a/);
  });
});

describe('the progress line', () => {
  it('never shows more admitted than sent', () => {
    // the workers have had no answer yet, but the venue already admitted 3: sent counts what the venue received
    const line = progressText('okx', 0.2, 4, { requests: 3, admitted: 3, violations: 0, refusedWhileBanned: 0, bans: 0 });
    expect(line).toBe('okx  0.2/4 s  sent 3  admitted 3  refused by the venue 0  bans 0');
  });

  it('holds through a real run: every line shows admitted <= sent', { timeout: 60_000 }, async () => {
    const out = new Sink();
    (out as Sink & { isTTY: boolean }).isTTY = true;
    await runDemo({ venue: 'okx', seconds: 2, credentials: 2, outDir, margin: DEFAULT_MARGIN, out });
    const lines = [...out.text.matchAll(/sent (\d+)\s+admitted (\d+)/g)];
    expect(lines.length).toBeGreaterThan(3);
    for (const m of lines) expect(Number(m[2])).toBeLessThanOrEqual(Number(m[1]));
  });
});

describe('the usage chart', () => {
  const window = (startMs: number, endMs: number, cost: number) => ({ startMs, endMs, cost, peakUsed: cost });
  const sliding = (over: Partial<BucketUsage>): BucketUsage => ({
    bucketId: 'market/books',
    axis: 'market/books',
    credentialHash: null,
    algorithm: 'sliding-window',
    limit: 40,
    windowMs: 2000,
    admittedCost: 100,
    admittedRequests: 100,
    refusals: 0,
    peakUsed: 38,
    utilization: 0.9,
    windows: [window(0, 2000, 36), window(2000, 4000, 38), window(4000, 6000, 26)],
    ...over,
  });

  /** Every text element with the largest number of characters its font size fits in the chart's width. */
  function texts(svg: string): { text: string; fits: number }[] {
    return [...svg.matchAll(/<text([^>]*)>([^<]*)<\/text>/g)].map((m) => {
      const size = Number(/font-size="(\d+)"/.exec(m[1] ?? '')?.[1] ?? 11);
      const x = Number(/ x="([\d.]+)"/.exec(m[1] ?? '')?.[1] ?? 0);
      const anchor = /text-anchor="(\w+)"/.exec(m[1] ?? '')?.[1] ?? 'start';
      const room = anchor === 'start' ? 760 - x - 4 : anchor === 'end' ? x - 4 : 760;
      const text = (m[2] ?? '')
        .replace(/&amp;/g, '&')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"');
      return { text, fits: charsThatFit(room, size) };
    });
  }

  it('has a time axis in seconds', () => {
    const svg = renderUsageChart('okx: usage', [sliding({})], 'documented limit', 5_000);
    const labels = texts(svg).map((t) => t.text);
    expect(labels).toContain('0 s');
    expect(labels).toContain('6 s');
    expect(labels.some((l) => l.startsWith('time since the first window'))).toBe(true);
  });

  it('marks the last window when the run ended inside it', () => {
    const cut = renderUsageChart('okx: usage', [sliding({})], 'documented limit', 5_000);
    expect(cut).toContain('>partial</text>');
    expect(cut).toContain('fill-opacity="0.35"');
    const whole = renderUsageChart('okx: usage', [sliding({})], 'documented limit', 6_000);
    expect(whole).not.toContain('>partial</text>');
  });

  it('fits long venue and bucket names in its width', () => {
    const venue = 'ccxt:an-exchange-with-a-very-long-identifier-that-keeps-going-and-going-well-past-the-edge-of-the-chart';
    const title = `${venue}: usage per window against the limit estimated from ccxts (20.0 s, 4 processes sharing Redis, 0 violations)`;
    const svg = renderUsageChart(
      title,
      [sliding({ axis: `${'very-long-axis-name/'.repeat(8)}:BTC-USDT`, credentialHash: 'ab'.repeat(6) })],
      'limit estimated from ccxt',
      5_000,
    );
    for (const t of texts(svg)) expect(t.text.length, t.text).toBeLessThanOrEqual(t.fits);
    expect(svg).toContain('an-exchange-with-a-very-long');
  });
});

describe('--json', () => {
  it('prints the summary as data on stdout, and the progress and tables elsewhere', { timeout: 60_000 }, async () => {
    const r = await run(['demo', '--venue', 'okx', '--seconds', '2', '--credentials', '1', '--out', outDir, '--json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.out) as {
      runs: {
        venue: string;
        limits: string;
        venueCounts: { received: number; admitted: number; refused: number };
        buckets: { bucket: string; utilization: number | null }[];
        chart: string;
      }[];
    };
    expect(data.runs).toHaveLength(1);
    const okx = data.runs[0];
    expect(okx?.venue).toBe('okx');
    expect(okx?.limits).toBe('documented');
    expect(okx?.venueCounts.refused).toBe(0);
    expect(okx?.venueCounts.admitted).toBeGreaterThan(0);
    expect(okx?.venueCounts.admitted).toBeLessThanOrEqual(okx?.venueCounts.received ?? 0);
    expect(okx?.buckets.map((b) => b.bucket)).toContain('market/books');
    expect(okx?.chart.endsWith('.svg')).toBe(true);
    expect(r.err).toContain('okx: 2');
  });
});
