import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { startCcxtVenue } from './support/emulated-venue.js';
import { startTestRedis, type TestRedis } from './support/redis-server.js';
import { makeExchange, runWorkload, type WorkloadCounts } from './support/workload.mjs';

// ccxt itself, its unified methods at full speed through the adapter, against the emulated venues: in process
// on the in-process limiter, and from 4 processes sharing one Redis limiter. The venues refuse nothing, and
// Binance's timestamp check (-1021) never fires.
const VENUES = ['binance', 'binanceusdm', 'okx', 'bybit', 'kucoin', 'kraken'] as const;
const RUN_MS = 2_000;

function expectClean(counts: WorkloadCounts, totals: ReturnType<Awaited<ReturnType<typeof startCcxtVenue>>['totals']>): void {
  expect(counts.samples).toEqual([]);
  expect(counts.errors).toEqual({});
  expect(counts.calls).toBeGreaterThan(0);
  expect(totals.violations).toBe(0);
  expect(totals.rejected).toBe(0);
  expect(totals.badRequests).toBe(0);
  expect(totals.bans).toBe(0);
}

describe('ccxt unified methods through the adapter, in process', () => {
  for (const name of VENUES) {
    it(`${name}: loadMarkets, then 4 workers of fetchOrderBook, fetchTicker, fetchBalance, createOrder, cancelOrder, fetchOpenOrders`, {
      timeout: 60_000,
    }, async () => {
      const venue = await startCcxtVenue(name);
      const limiter = createDefaultRateLimiter();
      try {
        const { ex, setup } = makeExchange(name, venue.baseBySpec, { pace: { limiter } });
        await ex.loadMarkets(false, setup.loadMarketsParams);
        expect(Object.keys(ex.markets ?? {})).toContain(setup.symbol);
        const until = Date.now() + RUN_MS;
        const counts = await runWorkload(ex, setup, { workers: 4, stop: () => Date.now() >= until });
        const totals = venue.totals();
        console.log(`${name} in process: ${counts.calls} calls, venue admitted ${totals.admitted}, refused ${totals.violations}, -1021 ${totals.rejected}`);
        expectClean(counts, totals);
      } finally {
        await limiter.close();
        await venue.close();
      }
    });
  }
});

describe('ccxt unified methods through the adapter, 4 processes sharing Redis', () => {
  let redis: TestRedis | undefined;
  beforeAll(async () => {
    redis = await startTestRedis();
  }, 30_000);
  afterAll(async () => {
    await redis?.stop();
  });
  const child = fileURLToPath(new URL('./support/child.mjs', import.meta.url));

  for (const name of VENUES) {
    it(`${name}: 4 processes × 1 worker on one key and one Redis limiter`, { timeout: 90_000 }, async () => {
      const venue = await startCcxtVenue(name);
      try {
        const job = { venue: name, baseBySpec: venue.baseBySpec, redisUrl: redis?.url, prefix: `ccxt-pacing-test:${name}:`, processes: 4, workers: 1 };
        const children = Array.from({ length: 4 }, () => fork(child, [JSON.stringify(job)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
        const ready = children.map((c) => new Promise<void>((resolve) => c.on('message', (m: { type: string }) => m.type === 'ready' && resolve())));
        const done = children.map(
          (c, i) =>
            new Promise<WorkloadCounts>((resolve, reject) => {
              c.on('message', (m: { type: string; counts?: WorkloadCounts }) => {
                if (m.type === 'done' && m.counts !== undefined) resolve(m.counts);
              });
              c.on('exit', (code) => reject(new Error(`worker process ${i + 1} exited with ${String(code)} before reporting`)));
            }),
        );
        await Promise.all(ready);
        const until = Date.now() + RUN_MS;
        for (const c of children) c.send({ until });
        const all = await Promise.all(done);
        const counts: WorkloadCounts = { calls: 0, errors: {}, samples: [] };
        for (const c of all) {
          counts.calls += c.calls;
          counts.samples.push(...c.samples);
          for (const [k, v] of Object.entries(c.errors)) counts.errors[k] = (counts.errors[k] ?? 0) + v;
        }
        const totals = venue.totals();
        console.log(
          `${name} 4 processes on Redis: ${counts.calls} calls, venue admitted ${totals.admitted}, refused ${totals.violations}, -1021 ${totals.rejected}`,
        );
        expectClean(counts, totals);
      } finally {
        await venue.close();
      }
    });
  }
});
