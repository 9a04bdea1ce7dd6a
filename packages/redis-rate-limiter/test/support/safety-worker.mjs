// One OS process of the distributed safety test: 16 (LOOPS) concurrent loops hammer shared buckets
// through its own client and limiter (single and multi-bucket probes, bookings, waits that are
// sometimes aborted), and report every admitted send time (server time) to the parent over IPC.
// Even-numbered processes use ioredis, odd ones node-redis: the buckets do not depend on the client.
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { createRedisRateLimiter, fromIoRedis, fromNodeRedis } from '../../dist/index.js';

const [port, seconds, loops, id] = process.argv.slice(2).map(Number);
let redis;
let disconnect;
if (id % 2 === 0) {
  const client = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
  await client.connect();
  redis = fromIoRedis(client);
  disconnect = () => client.disconnect();
} else {
  const client = createClient({ socket: { host: '127.0.0.1', port }, disableOfflineQueue: true });
  await client.connect();
  redis = fromNodeRedis(client);
  disconnect = () => client.destroy();
}
const limiter = createRedisRateLimiter({ redis, prefix: 'safety:', timeoutMs: 1000 });

const BUCKETS = {
  ip: { key: { venue: 'safe', credential: null, axis: 'ip' }, limit: { capacity: 20, refillPerSec: 400 } },
  orders: { key: { venue: 'safe', credential: 'key-1', axis: 'orders' }, limit: { capacity: 10, refillPerSec: 250 } },
};
const log = { ip: [], orders: [] };
const counts = { ok: 0, delay: 0, error: 0, aborted: 0, errors: {} };
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function admitted(names, costs, sendAtMs) {
  names.forEach((name, i) => log[name].push([sendAtMs, costs[i]]));
}

function checksOf(names, costs) {
  return names.map((name, i) => ({ key: BUCKETS[name].key, limit: BUCKETS[name].limit, cost: costs[i] }));
}

async function step(rng) {
  const multi = rng < 0.35;
  const names = multi ? ['ip', 'orders'] : ['ip'];
  const costs = multi ? [1, 1] : [rng < 0.6 ? 0.5 : rng < 0.8 ? 1 : 3];
  const kind = Math.random();
  if (kind < 0.45) {
    // probe: admitted now or delay
    const d = await limiter.checkRates(checksOf(names, costs));
    return { d, names, costs };
  }
  if (kind < 0.75) {
    // booking: the limiter names the send time; wait for it before "sending"
    const d = await limiter.checkRates(checksOf(names, costs), { maxWaitMs: 300 });
    if (d.kind === 'booked') await sleep(d.waitMs + 1);
    return { d, names, costs };
  }
  // wait, sometimes given up before the send time (the booking is returned or forfeited)
  const controller = new AbortController();
  if (Math.random() < 0.04) setTimeout(() => controller.abort(), Math.random() * 40);
  const d = await limiter.waitForCapacity(checksOf(names, costs), { maxWaitMs: 500, signal: controller.signal });
  return { d, names, costs };
}

async function loop() {
  while (Date.now() < deadline) {
    const { d, names, costs } = await step(Math.random());
    if (d.kind === 'ok' || d.kind === 'booked') {
      counts.ok++;
      admitted(names, costs, d.sendAtMs);
    } else if (d.kind === 'delay') {
      counts.delay++;
      await sleep(Math.min(d.retryAfterMs, 20));
    } else if (d.error.code === 'aborted') {
      counts.aborted++;
    } else {
      counts.error++;
      counts.errors[d.error.code] = (counts.errors[d.error.code] ?? 0) + 1;
      await sleep(5);
    }
  }
}

// start together: the parent sends 'go' once every process is connected
await new Promise((resolve) => {
  process.once('message', resolve);
  process.send({ ready: id });
});
const deadline = Date.now() + seconds * 1000;
await Promise.all(Array.from({ length: loops }, () => loop()));
await limiter.close();
disconnect();
process.send({ id, log, counts }, () => process.exit(0));
