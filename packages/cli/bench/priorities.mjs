// The classes benchmark: the demo's binance-spot mix (depth requests as bulk saturating the IP weight,
// orders, a stream of cancels and hedge orders as critical) against the emulated venue, once with
// classes and once without (every request normal), in process. Prints each class's waits, the
// utilization of the IP weight window and of the order counts, and the refusals, side by side.
// Targets (printed, never asserted): critical p99 wait within 50 ms of what its own buckets make it
// wait, utilization within 2 points of the run without classes, no refusal. Needs `pnpm build` first.
//   BENCH_SECONDS (default 70: at least one complete 1-minute weight window), BENCH_VENUE (binance-spot)
import { Writable } from 'node:stream';
import { runDemo } from '../dist/index.js';

const seconds = Number(process.env.BENCH_SECONDS ?? 70);
const venue = process.env.BENCH_VENUE ?? 'binance-spot';
const quiet = new Writable({ write: (_c, _e, cb) => cb() });

async function run(classes) {
  const r = await runDemo({ venue, seconds, credentials: 3, outDir: 'demo-out', margin: 0.04, out: quiet, classes });
  const byBucket = new Map();
  for (const b of r.stats.buckets) {
    const u = byBucket.get(b.bucketId) ?? [];
    if (b.utilization !== null) u.push(b.utilization);
    byBucket.set(b.bucketId, u);
  }
  const utilization = Object.fromEntries([...byBucket].map(([id, u]) => [id, u.length === 0 ? null : u.reduce((a, b) => a + b, 0) / u.length]));
  return { refused: r.stats.violations + r.stats.refusedWhileBanned, waits: r.waits, utilization, admitted: r.stats.admitted, failure: r.failure };
}

const pct = (x) => (x === null || x === undefined ? 'n/a' : `${(x * 100).toFixed(1)}%`);
const ms = (x) => (x === undefined ? 'n/a' : x < 10 ? x.toFixed(1) : String(Math.round(x)));

console.log(`classes benchmark: ${venue}, ${seconds} s per run, in process`);
const withClasses = await run(true);
const without = await run(false);
for (const [name, r] of [
  ['with classes', withClasses],
  ['without classes', without],
]) {
  console.log(`\n${name}: ${r.admitted} requests admitted by the venue, ${r.refused} refused${r.failure ? `, failure: ${r.failure}` : ''}`);
  for (const w of r.waits)
    console.log(
      `  ${w.priority.padEnd(9)} ${w.request.padEnd(22)} ${String(w.requests).padStart(6)} requests   wait p50 ${ms(w.p50Ms).padStart(6)} ms   p99 ${ms(w.p99Ms).padStart(6)} ms   max ${ms(w.maxMs).padStart(6)} ms`,
    );
  for (const [id, u] of Object.entries(r.utilization)) console.log(`  utilization ${id.padEnd(16)} ${pct(u)}`);
}
console.log('\ntargets (printed, never asserted):');
for (const w of withClasses.waits.filter((x) => x.priority === 'critical')) {
  console.log(`  critical ${w.request}: p99 wait ${ms(w.p99Ms)} ms with classes${w.request === 'all' ? '' : ''}`);
}
console.log(
  "  (a cancel needs only the IP weight; a hedge order also its account's order count, whose pacing bucket keeps less than one order free from normal orders)",
);
for (const id of Object.keys(without.utilization)) {
  const a = withClasses.utilization[id];
  const b = without.utilization[id];
  if (a === null || b === null || a === undefined || b === undefined) continue;
  console.log(`  utilization ${id}: ${pct(a)} with classes, ${pct(b)} without (${((a - b) * 100).toFixed(1)} points)`);
}
console.log(`  refusals: ${withClasses.refused} with classes, ${without.refused} without`);
