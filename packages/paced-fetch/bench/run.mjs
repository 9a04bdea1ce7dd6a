// What paced-fetch costs a request by itself: 8 loops of Binance spot requests (depth, ticker, an order and its
// cancel) through createPacedFetch with an in-process limiter, against a fetch that answers at once as Binance
// does (its used weight, its order counts, a Date), every bucket a million times larger so nothing waits. Prints
// the CPU time per request of the fetch alone and through the paced fetch, in rounds (the own sends of the last
// minute, which every usage report reads, grow over the first rounds). Run after the build:
// pnpm --filter @core/paced-fetch bench
import { loadavg } from 'node:os';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { getVenueSpec } from '@core/exchange-specs';
import { createPacedFetch } from '../dist/index.js';

const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 5_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 4);
const WORKERS = 8;
const SCALE = 1_000_000;

function scaled(b) {
  return {
    ...b,
    ...(b.limit === undefined ? {} : { limit: b.limit * SCALE }),
    ...(b.capacity === undefined ? {} : { capacity: b.capacity * SCALE }),
    ...(b.refillPerSec === undefined ? {} : { refillPerSec: b.refillPerSec * SCALE }),
    ...(b.tiers === undefined ? {} : { tiers: Object.fromEntries(Object.entries(b.tiers).map(([k, t]) => [k, scaled(t)])) }),
  };
}
const stored = getVenueSpec('binance-spot');
const spec = { ...stored, buckets: stored.buckets.map(scaled) };

let weight = 0;
let orders = 0;
const body = JSON.stringify({ symbol: 'BTCUSDT', orderId: 1, status: 'NEW' });
const venue = async (_url, init) => {
  weight += 1;
  const headers = { date: new Date().toUTCString(), 'x-mbx-used-weight-1m': String(weight), 'content-type': 'application/json' };
  if (init?.method === 'POST') {
    orders += 1;
    headers['x-mbx-order-count-10s'] = String(orders);
    headers['x-mbx-order-count-1d'] = String(orders);
  }
  await null;
  return new Response(body, { status: 200, headers });
};
const requests = [
  ['https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=100', undefined],
  ['https://api.binance.com/api/v3/ticker/24hr?symbol=BTCUSDT', undefined],
  ['https://api.binance.com/api/v3/order', { method: 'POST', body: 'symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1&timestamp=1&signature=x' }],
  ['https://api.binance.com/api/v3/order?symbol=BTCUSDT&orderId=1&timestamp=1&signature=x', { method: 'DELETE' }],
];

/** Requests per second and CPU time per request of `fetch` for `ms`. */
async function round(fetch, ms) {
  let n = 0;
  const until = Date.now() + ms;
  const started = performance.now();
  const used = process.cpuUsage();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, w) => {
      for (let i = w; Date.now() < until; i++) {
        const [url, init] = requests[i % requests.length];
        await (await fetch(url, init)).arrayBuffer();
        n++;
      }
    }),
  );
  const u = process.cpuUsage(used);
  return { perSec: n / ((performance.now() - started) / 1000), cpuUs: (u.user + u.system) / n };
}

const limiter = createDefaultRateLimiter();
const paced = createPacedFetch({ venue: spec, identity: { credential: 'bench-key' }, limiter, fetch: venue });
await round(venue, 500);
const alone = await round(venue, ROUND_MS / 2);
console.log(`binance-spot, ${WORKERS} loops, depth / ticker / order / cancel, ${ROUNDS} rounds of ${ROUND_MS / 1000} s`);
console.log(`the fetch alone:     ${alone.cpuUs.toFixed(1)} us CPU per request`);
const rounds = [];
for (let r = 0; r < ROUNDS; r++) {
  const x = await round(paced, ROUND_MS);
  rounds.push(x);
  console.log(`paced, round ${r + 1}:     ${x.cpuUs.toFixed(1)} us CPU per request (${x.perSec.toFixed(0)} requests/s)`);
}
const last = rounds[rounds.length - 1];
console.log(`paced-fetch's own cost, last round: ${(last.cpuUs - alone.cpuUs).toFixed(1)} us CPU per request`);
console.log(
  `load average ${loadavg()
    .map((x) => x.toFixed(2))
    .join(' ')}`,
);
await limiter.close();
