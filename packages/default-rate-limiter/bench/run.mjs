// The benchmark of @core/default-rate-limiter, side by side with its peers, in one run.
// Run: pnpm --filter @core/default-rate-limiter bench   (node --expose-gc bench/run.mjs; build first)
// Targets are printed, never asserted: async single >= 2x rlf; sync >= limiter TokenBucket;
// three-bucket >= 1x rlf single; >= 1 M admissions per second on a full window limit; <= 200 heap bytes
// per idle bucket; evicted buckets release memory; OpenTelemetry metrics instrumented with no meter
// provider registered cost nothing measurable (~1x).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
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
 * A measurement loop compiled afresh for each subject, so each gets its own call-site feedback (a
 * shared loop turns megamorphic and penalizes whoever is measured later). Returns ops/s of one round.
 */
function loopFor(step, async, batch) {
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
  return () => loop(step, batch, ROUND_MS);
}

const fmt = (x) => (x >= 1e6 ? `${(x / 1e6).toFixed(2)} M/s` : `${(x / 1e3).toFixed(1)} k/s`);

console.log(`node ${process.version}, ${KEYS} keys, one warm-up and the best of ${ROUNDS} rounds of ${ROUND_MS} ms per subject\n`);
console.log('throughput (admissions per second; every call admitted)');

const ours = createDefaultRateLimiter();
const rlf = new RateLimiterMemory({ points: 1e12, duration: 1 });
const bucket = new TokenBucket({ bucketSize: 1e12, tokensPerInterval: 1e12, interval: 'second' });
// Bottleneck is a job scheduler, not a bucket store: the comparable workload is one job per key
// through a Bottleneck.Group (one limiter per key, its reservoir as the bucket), awaited serially.
// Every job goes through Bottleneck's timer-driven queue, which bounds it far below the others.
const noop = () => undefined;
const group = new Bottleneck.Group({ reservoir: 1e12, maxConcurrent: null, minTime: 0 });
const one = new Bottleneck({ reservoir: 1e12, maxConcurrent: null, minTime: 0 });

const subjects = [
  ['asyncSingle', 'default-rate-limiter checkRate (async, awaited serially)', loopFor((i) => ours.checkRate(keys[i % KEYS], LIMIT, 1), true, 10_000)],
  ['asyncThree', 'default-rate-limiter checkRates, 3 buckets atomic (async)', loopFor((i) => ours.checkRates(threeChecks[i % KEYS]), true, 10_000)],
  ['syncSingle', 'default-rate-limiter tryAcquireSync (sync, 1000 keys)', loopFor((i) => ours.tryAcquireSync(keys[i % KEYS], LIMIT, 1), false, 10_000)],
  ['syncOneKey', 'default-rate-limiter tryAcquireSync (sync, one key)', loopFor(() => ours.tryAcquireSync(keys[0], LIMIT, 1), false, 10_000)],
  ['rlfSingle', 'rate-limiter-flexible RateLimiterMemory.consume (1000 keys)', loopFor((i) => rlf.consume(rlfKeys[i % KEYS], 1), true, 10_000)],
  ['tokenBucket', 'limiter TokenBucket.tryRemoveTokens (sync, one bucket)', loopFor(() => bucket.tryRemoveTokens(1), false, 10_000)],
  ['bottleneck', 'bottleneck Group.key(k).schedule(noop) (1000 keys)', loopFor((i) => group.key(rlfKeys[i % KEYS]).schedule(noop), true, 20)],
  ['bottleneckOne', 'bottleneck schedule(noop) (one limiter)', loopFor(() => one.schedule(noop), true, 20)],
];
// Each subject in turn, from a collected heap: one warm-up round, then the best of ROUNDS rounds.
// (Interleaving subjects round by round was tried: it made rate-limiter-flexible about 2x slower,
// so each subject now runs in its own steady state.)
const best = {};
for (const [id, , run] of subjects) {
  gc();
  await run();
  for (let r = 0; r < ROUNDS; r++) best[id] = Math.max(best[id] ?? 0, await run());
}
for (const [id, name] of subjects) console.log(`${name.padEnd(58)} ${fmt(best[id]).padStart(11)}`);
await ours.close();
const { asyncSingle, asyncThree, syncSingle, syncOneKey, rlfSingle, tokenBucket, bottleneck } = best;

console.log('\nratios (targets in brackets)');
const ratio = (a, b) => (a / b).toFixed(2);
console.log(`async single / rlf single        ${ratio(asyncSingle, rlfSingle)}x  [>= 2x]`);
console.log(`sync (1000 keys) / TokenBucket   ${ratio(syncSingle, tokenBucket)}x  [>= 1x]`);
console.log(`sync (one key) / TokenBucket     ${ratio(syncOneKey, tokenBucket)}x`);
console.log(`three-bucket / rlf single        ${ratio(asyncThree, rlfSingle)}x  [>= 1x]`);
console.log(`async single / bottleneck        ${ratio(asyncSingle, bottleneck)}x`);

// ---------------------------------------------------------------- metrics
// Each configuration in a fresh process (see bench/metrics-case.mjs), so all three start alike.
console.log('\nOpenTelemetry metrics (checkRate async and tryAcquireSync, 1000 keys; each configuration in its own process)');
const caseScript = fileURLToPath(new URL('./metrics-case.mjs', import.meta.url));
const cases = {};
// Two passes, alternating, each configuration's best kept: a noisy moment then hits every configuration.
for (let pass = 0; pass < 2; pass++) {
  for (const mode of ['plain', 'quiet', 'recording']) {
    const r = JSON.parse(execFileSync(process.execPath, ['--expose-gc', caseScript, mode, String(ROUND_MS), String(ROUNDS)], { encoding: 'utf8' }));
    cases[mode] = { async: Math.max(cases[mode]?.async ?? 0, r.async), sync: Math.max(cases[mode]?.sync ?? 0, r.sync) };
  }
}
const caseNames = {
  plain: 'not instrumented',
  quiet: 'instrumentRateLimiter, no meter provider registered',
  recording: 'instrumentRateLimiter, recording (SDK meter provider)',
};
for (const [mode, name] of Object.entries(caseNames))
  console.log(`${name.padEnd(58)} ${fmt(cases[mode].async).padStart(11)} ${fmt(cases[mode].sync).padStart(11)}`);
console.log(
  `no provider / not instrumented   async ${ratio(cases.quiet.async, cases.plain.async)}x, sync ${ratio(cases.quiet.sync, cases.plain.sync)}x  [~1x: nothing measurable]`,
);
console.log(
  `recording / not instrumented     async ${ratio(cases.recording.async, cases.plain.async)}x, sync ${ratio(cases.recording.sync, cases.plain.sync)}x  (the cost of recording, for reference)`,
);

// ---------------------------------------------------------------- window limits
// A window limit kept full (KuCoin's 2000 per 30 s, one send every 3 ms of a manual clock, so most calls
// answer a delay): the bucket's slot ledger holds a slot for every 3 ms send of the last window, the most a
// window admission reads (WINDOW_SLOTS slots per window, and the runs that reach past it).
{
  const { WINDOW_SLOTS } = await import('@core/rate-limit-kit');
  let wt = 1_000_000;
  const wclock = { now: () => wt, setTimer: () => ({ cancel() {} }) };
  const wl = createDefaultRateLimiter({ clock: wclock });
  const wkey = { venue: 'kucoin', credential: 'api-key', axis: 'spot' };
  const wlimit = { perWindow: 2000, windowMs: 30_000, jitterMs: 100 };
  for (let i = 0; i < 20_000; i++) {
    wt += 3;
    wl.tryAcquireSync(wkey, wlimit, 1);
  }
  let wbest = 0;
  for (let r = 0; r <= ROUNDS; r++) {
    const ops = await loopFor(
      () => {
        wt += 3;
        wl.tryAcquireSync(wkey, wlimit, 1);
      },
      false,
      1000,
    )();
    if (r > 0) wbest = Math.max(wbest, ops);
  }
  console.log(`\nwindow limit kept full (2000 per 30 s, ${WINDOW_SLOTS} slots per window), sync   ${fmt(wbest).padStart(11)}  [>= 1 M/s]`);
  await wl.close();
  // A window limit that admits everything, over 1000 keys (each list full of merged entries), async.
  const al = createDefaultRateLimiter();
  const all = { perWindow: 1e12, windowMs: 60_000 };
  let abest = 0;
  for (let r = 0; r <= ROUNDS; r++) {
    const ops = await loopFor((i) => al.checkRate(keys[i % KEYS], all, 1), true, 10_000)();
    if (r > 0) abest = Math.max(abest, ops);
  }
  console.log(`window limit admitting everything (1000 keys), checkRate async         ${fmt(abest).padStart(11)}`);
  await al.close();
}

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
console.log(
  `heap after eviction                ${((after - base) / 1024).toFixed(0)} KiB above the baseline (was ${((full - base) / 1024 / 1024).toFixed(1)} MiB)`,
);
await mem.close();
