// Calls per second through the adapter against plain ccxt (enableRateLimit: false), on an emulated Binance spot
// with no limits (every bucket a million times larger, for the emulator and the adapter alike): what the
// adapter itself costs per call (routing, pricing, admission, signing again, feedback). Rounds alternate plain
// and paced; the medians are compared. Run after the build: pnpm --filter @core/ccxt-pacing bench
import { loadavg } from 'node:os';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { getVenueSpec } from '@core/exchange-specs';
import { startVenueEmulator } from '@core/venue-emulator';
import { makeExchange, runWorkload } from '../test/support/workload.mjs';

const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 4_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WORKERS = 8;
const SCALE = 1_000_000;
const TARGET = 'overhead at most 10 %';

function unlimited(spec) {
  const scale = (b) => ({
    ...b,
    ...(b.limit === undefined ? {} : { limit: b.limit * SCALE }),
    ...(b.capacity === undefined ? {} : { capacity: b.capacity * SCALE }),
    ...(b.refillPerSec === undefined ? {} : { refillPerSec: b.refillPerSec * SCALE }),
    ...(b.tiers === undefined ? {} : { tiers: Object.fromEntries(Object.entries(b.tiers).map(([k, t]) => [k, scale(t)])) }),
  });
  return { ...spec, buckets: spec.buckets.map(scale) };
}

const spec = unlimited(getVenueSpec('binance-spot'));
const venue = await startVenueEmulator({ spec });
const base = { 'binance-spot': venue.url };
const options = { fetchMarkets: { types: ['spot'] }, fetchMargins: false };
const limiter = createDefaultRateLimiter();
const plain = makeExchange('binance', base, { options });
const paced = makeExchange('binance', base, {
  options,
  pace: { limiter, specs: { 'binance-spot': spec }, pacing: JSON.parse(process.env.BENCH_PACING ?? '{}') },
});
for (const x of [plain, paced]) {
  x.ex.has.fetchCurrencies = false;
  await x.ex.loadMarkets();
}
const calls = (process.env.BENCH_CALLS ?? 'fetchOrderBook,fetchTicker,createOrder,cancelOrder').split(',');
// calls per second, and the process's CPU time per call (ccxt, the adapter and the emulator alike): on a loaded
// machine the rate follows the cores the process gets, the CPU time per call much less
const cpu = { plain: [], paced: [] };
const measure = async ({ ex, setup }, into) => {
  const until = Date.now() + ROUND_MS;
  const started = performance.now();
  const used = process.cpuUsage();
  const c = await runWorkload(ex, setup, { workers: WORKERS, stop: () => Date.now() >= until, calls });
  const errors = Object.values(c.errors).reduce((a, b) => a + b, 0);
  if (errors > 0) throw new Error(`errors in the bench: ${JSON.stringify(c.errors)} ${c.samples.join(' | ')}`);
  const u = process.cpuUsage(used);
  into?.push((u.user + u.system) / 1000 / c.calls);
  return c.calls / ((performance.now() - started) / 1000);
};
// warm both paths up
await measure(plain);
await measure(paced);
const results = { plain: [], paced: [] };
for (let r = 0; r < ROUNDS; r++) {
  results.plain.push(await measure(plain, cpu.plain));
  results.paced.push(await measure(paced, cpu.paced));
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p = median(results.plain);
const a = median(results.paced);
const overhead = 1 - a / p;
console.log(
  `ccxt ${plain.ex.version ?? ''} binance, ${WORKERS} workers, ${calls.join(' / ')}, ${ROUNDS} rounds of ${ROUND_MS / 1000} s each, emulator with no limits`,
);
console.log(`plain ccxt (enableRateLimit: false):   ${p.toFixed(0)} calls/s   (rounds: ${results.plain.map((x) => x.toFixed(0)).join(', ')})`);
console.log(`through paceExchange:                  ${a.toFixed(0)} calls/s   (rounds: ${results.paced.map((x) => x.toFixed(0)).join(', ')})`);
const cp = median(cpu.plain);
const ca = median(cpu.paced);
console.log(`CPU per call (median): plain ${cp.toFixed(2)} ms, paced ${ca.toFixed(2)} ms: the pacing costs ${(ca - cp).toFixed(2)} ms a call`);
const load = loadavg().map((x) => x.toFixed(2));
console.log(`load average ${load.join(' ')}`);
console.log(`ratio ${(a / p).toFixed(3)}: overhead ${(overhead * 100).toFixed(1)} % (target: ${TARGET}) ${overhead <= 0.1 ? 'met' : 'NOT met'}`);
console.log(`venue: ${venue.stats().admitted} admitted, ${venue.stats().violations} refused`);
await limiter.close();
await venue.close();
