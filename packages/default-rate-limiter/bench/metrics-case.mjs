// One configuration of the metrics benchmark, measured in a fresh process so every configuration starts
// from the same state (limiters measured one after another in one process share inline caches: the
// later ones pay for the earlier ones' key shapes). Run by bench/run.mjs:
//   node --expose-gc bench/metrics-case.mjs plain|quiet|recording <roundMs> <rounds>
// plain: createDefaultRateLimiter(); quiet: instrumentRateLimiter(...) with no meter provider registered;
// recording: instrumentRateLimiter(..., { meterProvider }) with an SDK meter provider that records.
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { instrumentRateLimiter } from '@core/rate-limit-metrics';
import { createDefaultRateLimiter } from '../dist/index.js';

const [mode = 'plain', roundArg = '700', roundsArg = '3'] = process.argv.slice(2);
const ROUND_MS = Number(roundArg);
const ROUNDS = Number(roundsArg);
const KEYS = 1000;
const LIMIT = { capacity: 1e12, refillPerSec: 1e12 };
const keys = Array.from({ length: KEYS }, (_, i) => ({ venue: 'binance', credential: `api-key-${i % 100}`, axis: `orders-${i % 10}` }));

let provider;
let limiter = createDefaultRateLimiter();
if (mode === 'quiet') limiter = instrumentRateLimiter(limiter);
if (mode === 'recording') {
  const reader = new PeriodicExportingMetricReader({
    exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE),
    exportIntervalMillis: 3_600_000,
  });
  provider = new MeterProvider({ readers: [reader] });
  limiter = instrumentRateLimiter(limiter, { meterProvider: provider, bucketGauges: false });
}

async function asyncRound() {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ROUND_MS) {
    for (let i = 0; i < 10_000; i++) await limiter.checkRate(keys[(ops + i) % KEYS], LIMIT, 1);
    ops += 10_000;
    now = performance.now();
  }
  return (ops / (now - start)) * 1000;
}

function syncRound() {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ROUND_MS) {
    for (let i = 0; i < 10_000; i++) limiter.tryAcquireSync(keys[(ops + i) % KEYS], LIMIT, 1);
    ops += 10_000;
    now = performance.now();
  }
  return (ops / (now - start)) * 1000;
}

const result = { async: 0, sync: 0 };
globalThis.gc?.();
await asyncRound();
for (let r = 0; r < ROUNDS; r++) result.async = Math.max(result.async, await asyncRound());
globalThis.gc?.();
syncRound();
for (let r = 0; r < ROUNDS; r++) result.sync = Math.max(result.sync, syncRound());
await limiter.close();
await provider?.shutdown();
console.log(JSON.stringify(result));
