// The benchmark of @core/default-rate-limiter, side by side with its peers, in one run.
// Run: pnpm --filter @core/default-rate-limiter bench   (node --expose-gc bench/run.mjs; build first)
// Targets are printed, never asserted: async single >= 2x rlf; sync >= limiter TokenBucket;
// three-bucket >= 1x rlf single; <= 200 heap bytes per idle bucket; evicted buckets release memory.
import Bottleneck from 'bottleneck';
import { TokenBucket } from 'limiter';
import { RateLimiterMemory } from 'rate-limiter-flexible';
import { createDefaultRateLimiter } from '../dist/index.js';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc bench/run.mjs (pnpm bench does)');
  process.exit(1);
}
const gc = globalThis.gc;

const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 700);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const KEYS = 1000;
// Every call is admitted: the point is the cost of deciding, not of refusing.
const LIMIT = { capacity: 1e12, refillPerSec: 1e12 };

const keys = Array.from({ length: KEYS }, (_, i) => ({ venue: 'binance', credential: `api-key-${i % 100}`, axis: `orders-${i % 10}` }));
const ipKey = { venue: 'binance', credential: null, axis: 'ip' };
const threeChecks = keys.map((k, i) => [
  { key: ipKey, limit: LIMIT, cost: 1 },
  { key: { venue: 'binance', credential: k.credential, axis: 'uid' }, limit: LIMIT, cost: 1 },
  { key: k, limit: LIMIT, cost: 1 + (i % 3) },
]);
const rlfKeys = keys.map((k) => `${k.credential}:${k.axis}`);

const AsyncFunction = (async () => {}).constructor;
/**
 * ops/s of `step(i)` run in batches for ROUND_MS; the best of ROUNDS rounds. The loop is compiled
 * afresh for every measurement so each subject gets its own call-site feedback (a shared loop turns
 * megamorphic and penalizes whoever is measured later).
 */
async function measure(step, { async = false, batch = 10_000 } = {}) {
  const loop = new AsyncFunction(
    'step',
    'batch',
    'roundMs',
    `let ops = 0; const start = performance.now(); let now = start;
     while (now - start < roundMs) {
       for (let i = 0; i < batch; i++) ${async ? 'await ' : ''}step(ops + i);
       ops += batch; now = performance.now();
     }
     return (ops / (now - start)) * 1000;`,
  );
  let best = 0;
  for (let r = 0; r < ROUNDS; r++) best = Math.max(best, await loop(step, batch, ROUND_MS));
  return best;
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M/s` : `${(x / 1e3).toFixed(1)} k/s`);
const rows = [];
function row(name, opsPerSec, note = '') {
  rows.push([name, opsPerSec]);
  console.log(`${name.padEnd(58)} ${fmt(opsPerSec).padStart(11)}  ${note}`);
}

console.log(`node ${process.version}, ${KEYS} keys, best of ${ROUNDS} rounds of ${ROUND_MS} ms each\n`);
console.log('throughput (admissions per second; every call admitted)');

const ours = createDefaultRateLimiter();
const asyncSingle = await measure((i) => ours.checkRate(keys[i % KEYS], LIMIT, 1), { async: true });
row('default-rate-limiter checkRate (async, awaited serially)', asyncSingle);
const asyncThree = await measure((i) => ours.checkRates(threeChecks[i % KEYS]), { async: true });
row('default-rate-limiter checkRates, 3 buckets atomic (async)', asyncThree);
const syncSingle = await measure((i) => ours.tryAcquireSync(keys[i % KEYS], LIMIT, 1));
row('default-rate-limiter tryAcquireSync (sync, 1000 keys)', syncSingle);
const syncOneKey = await measure(() => ours.tryAcquireSync(keys[0], LIMIT, 1));
row('default-rate-limiter tryAcquireSync (sync, one key)', syncOneKey);
await ours.close();

const rlf = new RateLimiterMemory({ points: 1e12, duration: 1 });
const rlfSingle = await measure((i) => rlf.consume(rlfKeys[i % KEYS], 1), { async: true });
row('rate-limiter-flexible RateLimiterMemory.consume (1000 keys)', rlfSingle);

const bucket = new TokenBucket({ bucketSize: 1e12, tokensPerInterval: 1e12, interval: 'second' });
const tokenBucket = await measure(() => bucket.tryRemoveTokens(1));
row('limiter TokenBucket.tryRemoveTokens (sync, one bucket)', tokenBucket);

// Bottleneck is a job scheduler, not a bucket store: the comparable workload is one job per key
// through a Bottleneck.Group (one limiter per key, its reservoir as the bucket), awaited serially.
// Every job goes through Bottleneck's timer-driven queue, which bounds it far below the others.
const noop = () => undefined;
const group = new Bottleneck.Group({ reservoir: 1e12, maxConcurrent: null, minTime: 0 });
const bottleneck = await measure((i) => group.key(rlfKeys[i % KEYS]).schedule(noop), { async: true, batch: 20 });
row('bottleneck Group.key(k).schedule(noop) (1000 keys)', bottleneck);
const one = new Bottleneck({ reservoir: 1e12, maxConcurrent: null, minTime: 0 });
const bottleneckOne = await measure(() => one.schedule(noop), { async: true, batch: 20 });
row('bottleneck schedule(noop) (one limiter)', bottleneckOne);

console.log('\nratios (targets in brackets)');
const ratio = (a, b) => (a / b).toFixed(2);
console.log(`async single / rlf single        ${ratio(asyncSingle, rlfSingle)}x  [>= 2x]`);
console.log(`sync (1000 keys) / TokenBucket   ${ratio(syncSingle, tokenBucket)}x  [>= 1x]`);
console.log(`sync (one key) / TokenBucket     ${ratio(syncOneKey, tokenBucket)}x`);
console.log(`three-bucket / rlf single        ${ratio(asyncThree, rlfSingle)}x  [>= 1x]`);
console.log(`async single / bottleneck        ${ratio(asyncSingle, bottleneck)}x`);

// ---------------------------------------------------------------- memory
console.log('\nmemory (heap after global.gc)');
const BUCKETS = 1_000_000;
let t = 0;
const clock = { now: () => t, setTimer: () => ({ cancel() {} }) };
const heap = () => {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
};
const base = heap();
const mem = createDefaultRateLimiter({ clock, idleGraceMs: 0 });
for (let i = 0; i < BUCKETS; i++) {
  // a fresh key object each time, dropped at once: what stays is the limiter's own memory
  mem.tryAcquireSync({ venue: 'binance', credential: `api-key-${i % 1000}`, axis: `o${i}` }, { requests: 10, periodMs: 1000 }, 1);
}
t = 10_000; // every bucket is idle now (full again), but the sweep has not run
const full = heap();
const stored = mem.stats().buckets;
const perBucket = (full - base) / stored;
console.log(`idle buckets stored                ${stored}`);
console.log(`heap bytes per idle bucket         ${perBucket.toFixed(0)}  [<= 200]`);
const evicted = mem.sweep();
const after = heap();
console.log(`evicted by sweep()                 ${evicted}`);
console.log(`heap after eviction                ${((after - base) / 1024).toFixed(0)} KiB above the baseline (was ${((full - base) / 1024 / 1024).toFixed(1)} MiB)`);
await mem.close();
