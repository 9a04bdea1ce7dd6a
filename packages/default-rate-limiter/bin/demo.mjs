// The main job, for now: pace a burst of requests from two credentials over two bucket axes through
// the in-process limiter, print what was admitted when, and check the admitted cost against RL-A6.
// Run: pnpm demo   (or, after a build: node packages/default-rate-limiter/bin/demo.mjs)
import { createDefaultRateLimiter, hashCredential } from '../dist/index.js';

const limiter = createDefaultRateLimiter();

// A venue shaped like Binance: an IP-weight bucket shared by every credential on this machine, and
// an order-count bucket per credential. Small numbers so the demo takes under three seconds; the
// heavy requests make the shared IP bucket the bottleneck at times, the order buckets at others.
const IP_LIMIT = { capacity: 12, refillPerSec: 15 }; // weight 12, refilled 15 per second
const ORDER_LIMIT = { requests: 5, periodMs: 1000 }; // 5 orders per second per credential
const ipKey = { venue: 'demo-exchange', credential: null, axis: 'ip' };
const credentials = ['demo-api-key-ALPHA-000111', 'demo-api-key-BRAVO-000222'];
const REQUESTS_PER_CREDENTIAL = 16;

const buckets = new Map(); // name -> { capacity, refillPerSec, sends: [{ at, cost }] }
const bucket = (name, capacity, refillPerSec) => {
  if (!buckets.has(name)) buckets.set(name, { capacity, refillPerSec, sends: [] });
  return buckets.get(name);
};

const t0 = performance.timeOrigin + performance.now();
const lines = [];
const requests = [];
for (let i = 0; i < REQUESTS_PER_CREDENTIAL; i++) {
  for (const [c, credential] of credentials.entries()) {
    const label = c === 0 ? 'A' : 'B';
    const ipWeight = i % 5 === 4 ? 4 : 1; // every fifth request is a heavier one (weight 4)
    const orderKey = { venue: 'demo-exchange', credential, axis: 'orders' };
    const checks = [
      { key: ipKey, limit: IP_LIMIT, cost: ipWeight },
      { key: orderKey, limit: ORDER_LIMIT, cost: 1 },
    ];
    requests.push(
      limiter.waitForCapacity(checks, { maxWaitMs: 10_000 }).then((d) => {
        const actual = performance.timeOrigin + performance.now() - t0;
        if (d.kind !== 'ok') {
          lines.push([actual, `credential ${label} request ${String(i + 1).padStart(2)}: ${d.kind === 'error' ? d.error.code : d.kind}`]);
          return;
        }
        const planned = d.sendAtMs - t0;
        bucket('ip (shared)', IP_LIMIT.capacity, IP_LIMIT.refillPerSec).sends.push({ at: planned, cost: ipWeight });
        bucket(`orders ${label}`, ORDER_LIMIT.requests, ORDER_LIMIT.requests / (ORDER_LIMIT.periodMs / 1000)).sends.push({ at: planned, cost: 1 });
        lines.push([
          actual,
          `+${planned.toFixed(0).padStart(5)} ms  credential ${label} request ${String(i + 1).padStart(2)}  ip weight ${ipWeight}  order 1` +
            `  (resolved ${(actual - planned).toFixed(1)} ms after its send time)`,
        ]);
      }),
    );
  }
}
await Promise.all(requests);
lines.sort((a, b) => a[0] - b[0]);
console.log(`admitted (send time relative to the burst; ${credentials.length} credentials x ${REQUESTS_PER_CREDENTIAL} requests, all at once)`);
for (const [, line] of lines) console.log(line);

// RL-A6: in any interval [a, b] the cost admitted (sends at their send times) is at most
// max(capacity, largest single cost in [a, b]) + refill * (b - a).
console.log('\nsummary per bucket');
let safe = true;
for (const [name, b] of buckets) {
  const sends = b.sends.sort((x, y) => x.at - y.at);
  const total = sends.reduce((s, x) => s + x.cost, 0);
  const span = sends.length > 0 ? (sends[sends.length - 1].at - sends[0].at) / 1000 : 0;
  let worst = { excess: -Infinity, cost: 0, bound: 0, a: 0, b: 0 };
  for (let i = 0; i < sends.length; i++) {
    let cost = 0;
    let largest = 0;
    for (let j = i; j < sends.length; j++) {
      cost += sends[j].cost;
      largest = Math.max(largest, sends[j].cost);
      const bound = Math.max(b.capacity, largest) + (b.refillPerSec * (sends[j].at - sends[i].at)) / 1000;
      if (cost - bound > worst.excess) worst = { excess: cost - bound, cost, bound, a: sends[i].at, b: sends[j].at };
    }
  }
  const ok = worst.excess <= 1e-6;
  safe &&= ok;
  console.log(
    `${name.padEnd(12)} admitted cost ${String(total).padStart(3)} over ${span.toFixed(2)} s` +
      ` (limit: capacity ${b.capacity}, refill ${b.refillPerSec}/s, so at most ${(b.capacity + b.refillPerSec * span).toFixed(0)} in that span);` +
      ` tightest window [${worst.a.toFixed(0)}, ${worst.b.toFixed(0)}] ms: ${worst.cost} of at most ${worst.bound.toFixed(2)} ${ok ? 'OK' : 'OVER THE LIMIT'}`,
  );
}
console.log('\nlive buckets now (credentials shown only as their hash):');
for (const s of await limiter.snapshot()) {
  console.log(`  ${s.venue}/${s.axis} credential ${s.credentialHash ?? 'public'}: borrowed ${s.borrowed.toFixed(2)} of ${s.capacity}`);
}
console.log(`  (hash of credential A: ${hashCredential(credentials[0])})`);
await limiter.close();
console.log(safe ? '\nRL-A6 holds for every bucket.' : '\nRL-A6 VIOLATED.');
process.exitCode = safe ? 0 : 1;
