// The workloads of bench/instructions.sh (perf-probe's window workloads and a token bucket), against the server
// on PORT: `node instructions-workload.mjs [prep,...:]workload`. Workloads before the colon prepare the ledgers
// (probeFull needs fill's, steady and steadyBook a run of their own flow); then callgrind's counters are zeroed and the server's stats reset, so only the
// measured workload counts. Prints the measured FCALL calls.
import { execFileSync } from 'node:child_process';
import { Redis } from 'ioredis';
import { createRedisRateLimiter, fromIoRedis } from '../dist/index.js';
import { BARE_GCRA } from './bare-gcra.mjs';
const port = Number(process.env.PORT);
const c1 = new Redis({ port, enableOfflineQueue: true, maxRetriesPerRequest: 1 });
// a manual clock that moves 20 us per call, as one Redis core at ~50 k calls/s would see it: deterministic ledgers
let t = 29_000_000_000.123;
const clock = {
  now: () => (t += 0.02),
  setTimer: (fn, ms) => {
    const h = setTimeout(fn, 0);
    return { cancel: () => clearTimeout(h) };
  },
};
const lim = createRedisRateLimiter({ redis: fromIoRedis(c1), prefix: 'perf:', timeoutMs: 60000, ...(process.env.REAL_CLOCK ? {} : { clock }) });
// perf-probe's bare one-key GCRA script (EVALSHA), the token bucket's yardstick
c1.defineCommand('gcra', { numberOfKeys: 1, lua: BARE_GCRA });
const key = (i) => ({ venue: 'v', credential: `c${i % 1000}`, axis: 'a' });
const TB = { capacity: 1e9, refillPerSec: 1e9 };
// Binance spot's checks of POST /api/v3/order as @core/exchange-specs resolves them (four window limits)
const orderChecks = [
  ['request_weight', { perWindow: 6000, windowMs: 60_000, jitterMs: 100 }, null],
  ['orders_10s', { perWindow: 50, windowMs: 10_000, jitterMs: 100 }, 'k1'],
  ['orders_1d', { perWindow: 160_000, windowMs: 86_400_000, jitterMs: 100 }, 'k1'],
  ['raw_requests', { perWindow: 300_000, windowMs: 300_000, jitterMs: 100 }, null],
].map(([axis, limit, credential]) => ({ key: { venue: 'binance-spot', credential, axis }, limit, cost: 1 }));
// the Redis bench's three buckets: one per venue, one per credential, one per credential and axis
const three = (i) => [
  { key: { venue: 'v3', credential: null, axis: 'ip' }, limit: TB, cost: 1 },
  { key: { venue: 'v3', credential: `c${i % 100}`, axis: 'uid' }, limit: TB, cost: 1 },
  { key: { venue: 'v3', credential: `c${i % 100}`, axis: `o${i % 10}` }, limit: TB, cost: 1 },
];
const W = {
  tb: [20000, 64, (i) => lim.checkRate(key(i), TB, 1)],
  three: [20000, 64, (i) => lim.checkRates(three(i))],
  bare: [20000, 64, (i) => c1.gcra(`g:${i % 1000}`, 1e9, 1e9, 1).then(() => ({ kind: 'ok' }))],
  admitAll: [10000, 64, (i) => lim.checkRate(key(i), { perWindow: 1e9, windowMs: 60_000 }, 1)],
  fill: [6000, 16, () => lim.checkRate({ venue: 'w', credential: null, axis: 'ip' }, { perWindow: 6000, windowMs: 60_000 }, 1)],
  probeFull: [5000, 16, () => lim.checkRate({ venue: 'w', credential: null, axis: 'ip' }, { perWindow: 6000, windowMs: 60_000 }, 1)],
  book: [3000, 16, () => lim.checkRate({ venue: 'w2', credential: null, axis: 'ip' }, { perWindow: 100, windowMs: 1000 }, 1, { maxWaitMs: 3000 })],
  binanceOrder: [3000, 16, () => lim.checkRates(orderChecks)],
  // a window run at 95 % of its limit (Bybit's 600 per 5 s per IP), the clock moved as such a flow would move it:
  // after a run of the same flow first (instructions.sh makes it, uncounted) every slot holds cost, as in a long-running
  // deployment
  steady: [
    4000,
    16,
    () => {
      t += 5000 / 600 / 0.95;
      return lim.checkRate({ venue: 's', credential: null, axis: 'ip' }, { perWindow: 600, windowMs: 5000 }, 1);
    },
  ],
  // the same window asked for 10 % more than it allows, each call booking up to 1 s ahead: a ledger spread over
  // its window with bookings ahead of now (after a run of the same flow, as above)
  steadyBook: [
    4000,
    16,
    () => {
      t += 5000 / 600 / 1.1;
      return lim.checkRate({ venue: 'sb', credential: null, axis: 'ip' }, { perWindow: 600, windowMs: 5000 }, 1, { maxWaitMs: 1000 });
    },
  ],
};
const [prep, measured] = process.argv[2].includes(':') ? process.argv[2].split(':') : ['', process.argv[2]];
async function run(name) {
  const [n0, inflight, step] = W[name];
  const n = Math.ceil(n0 / Number(process.env.SHRINK ?? 1));
  let i = 0;
  await Promise.all(
    Array.from({ length: inflight }, async () => {
      while (i < n) {
        const d = await step(i++);
        if (d.kind === 'error') {
          console.error(d);
          process.exit(1);
        }
      }
    }),
  );
}
for (const name of prep.split(',').filter(Boolean)) await run(name);
execFileSync('callgrind_control', ['-z'], { stdio: 'ignore' });
await c1.config('RESETSTAT');
await run(measured);
const stats = await c1.info('commandstats');
console.log(measured, /cmdstat_(?:fcall|evalsha):calls=(\d+)/.exec(stats)?.[1] ?? 0);
c1.disconnect();
process.exit(0);
