import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { startCcxtVenue } from './support/emulated-venue.js';
import { startRedisServer, type RedisServer } from '@core/redis-rate-limiter/testing';
import { makeExchange, ROUND, runWorkload, type WorkloadCounts } from './support/workload.mjs';

// ccxt itself, its unified methods at full speed through the adapter, against the emulated venues: in process
// on the in-process limiter, and from 4 processes sharing one Redis limiter. The venues refuse nothing, and
// Binance's timestamp check (-1021) never fires.
const VENUES = ['binance', 'binanceusdm', 'okx', 'bybit', 'kucoin', 'kraken'] as const;
/** How long the workers run per venue, after the markets are loaded: long enough to queue on the venues' tightest limits (Kraken's one public call a second, OKX's and Bybit's per-second order counts). */
const RUN_MS = 1_500;

function expectClean(counts: WorkloadCounts, totals: ReturnType<Awaited<ReturnType<typeof startCcxtVenue>>['totals']>): void {
  expect(counts.samples).toEqual([]);
  expect(counts.errors).toEqual({});
  // every unified method completed at least once (each is some worker's first call, and a call under way at the deadline completes)
  expect(Object.keys(counts.byMethod).sort()).toEqual([...ROUND].sort());
  expect(totals.violations).toBe(0);
  expect(totals.rejected).toBe(0);
  expect(totals.badRequests).toBe(0);
  expect(totals.bans).toBe(0);
}

describe('ccxt unified methods through the adapter, in process', () => {
  for (const name of VENUES) {
    it(`${name}: loadMarkets, then 6 workers of fetchOrderBook, fetchTicker, fetchBalance, createOrder, cancelOrder, fetchOpenOrders`, {
      timeout: 60_000,
    }, async () => {
      const venue = await startCcxtVenue(name);
      const limiter = createDefaultRateLimiter();
      try {
        const { ex, setup } = makeExchange(name, venue.baseBySpec, { pace: { limiter } });
        await ex.loadMarkets(false, setup.loadMarketsParams);
        expect(Object.keys(ex.markets ?? {})).toContain(setup.symbol);
        const until = Date.now() + RUN_MS;
        const counts = await runWorkload(ex, setup, { workers: ROUND.length, stop: () => Date.now() >= until });
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

/** One of the test's worker processes: ccxt loaded once, a message at a time. */
interface Worker {
  ask<T>(m: object, answer: string): Promise<T>;
  stop(): Promise<void>;
}

function startWorker(script: string, redisUrl: string): Promise<Worker> {
  const c = fork(script, [JSON.stringify({ redisUrl })], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => c.once('exit', () => resolve()));
  const worker: Worker = {
    ask: <T>(m: object, answer: string) =>
      new Promise<T>((resolve, reject) => {
        const on = (r: { type: string; message?: string }): void => {
          if (r.type !== answer && r.type !== 'failed') return;
          c.off('message', on);
          c.off('exit', gone);
          if (r.type === 'failed') reject(new Error(`worker process: ${r.message}`));
          else resolve(r as T);
        };
        const gone = (code: number | null): void => reject(new Error(`worker process exited with ${String(code)} before answering ${answer}`));
        c.on('message', on);
        c.once('exit', gone);
        c.send(m);
      }),
    async stop() {
      if (c.connected) c.send({ type: 'exit' });
      setTimeout(() => c.kill('SIGKILL'), 5_000).unref();
      await exited;
    },
  };
  return new Promise((resolve, reject) => {
    c.once('message', () => resolve(worker));
    c.once('exit', (code) => reject(new Error(`worker process exited with ${String(code)} at start`)));
  });
}

describe('ccxt unified methods through the adapter, 4 processes sharing Redis', () => {
  const PROCESSES = 4;
  const WORKERS_PER_PROCESS = 2;
  let redis: RedisServer | undefined;
  let workers: Worker[] = [];
  const child = fileURLToPath(new URL('./support/child.mjs', import.meta.url));
  beforeAll(async () => {
    redis = await startRedisServer();
    const url = redis.url;
    workers = await Promise.all(Array.from({ length: PROCESSES }, () => startWorker(child, url)));
  }, 60_000);
  afterAll(async () => {
    await Promise.all(workers.map((w) => w.stop()));
    await redis?.stop();
  });

  for (const name of VENUES) {
    it(`${name}: ${PROCESSES} processes × ${WORKERS_PER_PROCESS} workers on one key and one Redis limiter`, { timeout: 60_000 }, async () => {
      const venue = await startCcxtVenue(name);
      try {
        const job = { venue: name, baseBySpec: venue.baseBySpec, prefix: `ccxt-pacing-test:${name}:`, processes: PROCESSES };
        // one process loads the markets (paced on the shared limiter), the others take them: Kraken's public
        // calls go one a second, and every process loading its own cost seconds each
        const [first, ...others] = workers;
        if (first === undefined) throw new Error('no worker process');
        const loaded = await first.ask<{ markets: unknown; currencies: unknown }>({ type: 'load', ...job }, 'markets');
        await Promise.all([
          first.ask({ type: 'prepare', ...job }, 'ready'),
          ...others.map((w) => w.ask({ type: 'prepare', ...job, markets: loaded.markets, currencies: loaded.currencies }, 'ready')),
        ]);
        const until = Date.now() + RUN_MS;
        // 2 workers a process, each process starting 2 calls further into the round: every method is a first call
        const all = await Promise.all(
          workers.map((w, p) =>
            w.ask<{ counts: WorkloadCounts }>({ type: 'start', until, workers: WORKERS_PER_PROCESS, first: p * WORKERS_PER_PROCESS }, 'done'),
          ),
        );
        const counts: WorkloadCounts = { calls: 0, byMethod: {}, errors: {}, samples: [] };
        for (const { counts: c } of all) {
          counts.calls += c.calls;
          for (const [k, v] of Object.entries(c.byMethod)) counts.byMethod[k] = (counts.byMethod[k] ?? 0) + v;
          counts.samples.push(...c.samples);
          for (const [k, v] of Object.entries(c.errors)) counts.errors[k] = (counts.errors[k] ?? 0) + v;
        }
        const totals = venue.totals();
        console.log(
          `${name} ${PROCESSES} processes on Redis: ${counts.calls} calls, venue admitted ${totals.admitted}, refused ${totals.violations}, -1021 ${totals.rejected}`,
        );
        expectClean(counts, totals);
      } finally {
        await venue.close();
      }
    });
  }
});
