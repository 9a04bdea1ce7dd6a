import { Redis } from 'ioredis';
import { createRedisRateLimiter, fromIoRedis } from '/work/main/packages/redis-rate-limiter/dist/index.js';
const port = Number(process.argv[2]);
const c = new Redis({ host: '127.0.0.1', port, enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
await c.connect();
const limiter = createRedisRateLimiter({ redis: fromIoRedis(c), prefix: 'p:' });
const big = { capacity: 1e9, refillPerSec: 1e9 };
const creds = Array.from({ length: 1000 }, (_, i) => `api-key-${i}-${'x'.repeat(40)}`);
const mode = process.argv[3];
let ops = 0;
const end = performance.now() + 3000;
await Promise.all(Array.from({ length: 64 }, async (_, lane) => {
  let i = lane;
  while (performance.now() < end) {
    if (mode === 'raw') await c.evalsha('x', 0).catch(() => {});
    else await limiter.checkRate({ venue: 'binance', credential: creds[i % 1000], axis: 'orders' }, big, 1);
    ops++; i += 64;
  }
}));
console.log(mode, ops / 3);
c.disconnect();
