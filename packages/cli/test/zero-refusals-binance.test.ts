import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARGIN } from '@core/exchange-specs';
import { runDemo } from '../src/index.js';
import { Sink } from './sink.js';

const SECONDS = 3;
const outDir = mkdtempSync(join(tmpdir(), 'exlimits-demo-binance-'));

// Binance's COIN-M futures, options and /sapi specs, in process (the 4-process Redis variant of the
// zero-refusal test stays limited to the five demo venues).
describe('zero refusals from the emulated venue at full speed, in process: Binance COIN-M, options, /sapi', () => {
  for (const venue of ['binance-coinm', 'binance-options', 'binance-sapi']) {
    it(`${venue}: every request sent is admitted by the venue`, { timeout: 60_000 }, async () => {
      const report = await runDemo({ venue, seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, out: new Sink() });
      expect(report.failure).toBeUndefined();
      expect(report.counts.sent).toBeGreaterThan(0);
      expect(report.stats.admitted).toBeGreaterThan(0);
      expect(report.stats.violations).toBe(0);
      expect(report.stats.refusedWhileBanned).toBe(0);
      expect(report.stats.bans).toBe(0);
      expect(report.counts.refused).toBe(0);
      // every lane of the mix reached the venue
      const axes = new Set(report.stats.buckets.filter((b) => b.admittedCost > 0).map((b) => b.axis.split(':')[0]));
      expect(axes.size, [...axes].join(', ')).toBeGreaterThan(1);
      expect(readFileSync(report.chartPath, 'utf8').startsWith('<svg')).toBe(true);
    });
  }
});

// Binance spot charges an order's weight only when the order fails: the emulated venue fails a share of
// the orders with Binance's own error and charges their weight; the paced client admits orders without
// reserving it, records it on each failure and keeps what may still be charged within its in-flight bound.
describe('Binance spot orders that fail: the venue charges their weight, the client records it', () => {
  it("binance-spot with 30 % of orders failing: zero refusals, the failed orders' weight counted by the venue", { timeout: 60_000 }, async () => {
    const sink = new Sink();
    const report = await runDemo({ venue: 'binance-spot', seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, failOrders: 0.3, out: sink });
    expect(report.failure).toBeUndefined();
    expect(report.stats.violations).toBe(0);
    expect(report.stats.refusedWhileBanned).toBe(0);
    expect(report.counts.refused).toBe(0);
    expect(report.stats.failed).toBeGreaterThan(0);
    // what Binance counts: 5 per depth request and 1 per failed order or cancel, 0 per successful one
    const weight = report.stats.buckets.find((b) => b.bucketId === 'request_weight');
    const orders = report.stats.buckets.filter((b) => b.bucketId === 'orders_10s').reduce((a, b) => a + b.admittedRequests, 0);
    // the cancels (critical by nature) count in no order bucket; the wait summary counts them after each
    // process's start-up (beside the hedges: a row of their own) and in it (every kind listed)
    const cancelsIn = (rows: typeof report.waits): number => rows.find((w) => w.request === 'DELETE /api/v3/order')?.requests ?? 0;
    const cancels = cancelsIn(report.waits) + cancelsIn(report.startUpWaits);
    expect(cancels).toBeGreaterThan(0);
    const depthRequests = report.stats.buckets.find((b) => b.bucketId === 'raw_requests')!.admittedRequests - orders - cancels;
    expect(weight?.admittedCost).toBe(depthRequests * 5 + report.stats.failed);
    expect(sink.text).toContain(`orders the venue failed (--fail-orders 0.3): ${report.stats.failed}`);
  });
});
