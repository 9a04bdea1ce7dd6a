import { afterAll, beforeAll, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';
import { ioredisClient, nodeRedisClient, type TestClient } from './support/clients.js';
import { createRedisRateLimiter } from '../src/index.js';

let server: RedisServer;
let client: TestClient;
beforeAll(async () => {
  server = await startRedisServer();
  client = await ioredisClient(server.port);
});
afterAll(async () => {
  await client?.close();
  await server?.stop();
});

it('smoke', async () => {
  const limiter = createRedisRateLimiter({ redis: client.redis, prefix: 'smoke:' });
  const key = { venue: 'v', credential: 'secret{x}:y\n', axis: 'a' };
  const limit = { capacity: 2, refillPerSec: 1 };
  console.log(await limiter.checkRate(key, limit, 1));
  console.log(await limiter.checkRate(key, limit, 1));
  console.log(await limiter.checkRate(key, limit, 1));
  console.log(await limiter.checkRate(key, limit, 1, { maxWaitMs: 2000 }));
  console.log(await limiter.borrowed(key));
  console.log(await limiter.snapshot());
  console.log(server.cli('KEYS', '*'));
  console.log(server.cli('MEMORY', 'USAGE', server.cli('KEYS', '*').trim()));
  const nr = await nodeRedisClient(server.port);
  const l2 = createRedisRateLimiter({ redis: nr.redis, prefix: 'smoke:' });
  console.log(await l2.borrowed(key), await l2.checkRates([{ key, limit, cost: 0.5 }, { key: { ...key, axis: 'b' }, limit: { requests: 10 }, cost: 3 }]));
  console.log(await l2.waitForCapacity([{ key, limit, cost: 1 }], { maxWaitMs: 5000 }));
  console.log(await l2.resetVenue('v'), await l2.snapshot());
  await nr.close();
  expect(1).toBe(1);
});
