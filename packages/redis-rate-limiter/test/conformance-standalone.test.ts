import { afterAll, describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createProviderRateLimiter } from '@core/default-rate-limiter';
import { createRedisRateLimiter } from '../src/index.js';
import { ioredisClient } from './support/clients.js';
import { startRedisServer } from './support/redis-servers.js';

// One server and one client for the file; every limiter gets its own key prefix (isolation).
const server = await startRedisServer();
const client = await ioredisClient(server.port);
afterAll(async () => {
  server.resume();
  await client.close();
  await server.stop();
});

let next = 0;
await runConformanceSuite({
  describe,
  it,
  name: 'redis-rate-limiter on one redis-server (ioredis)',
  factory: ({ clock }) => ({
    limiter: createRedisRateLimiter({ redis: client.redis, clock, prefix: `conf${next++}:`, timeoutMs: 1_000 }),
    // RL-F1: a paused server keeps its sockets but answers nothing, so every call times out
    breakStore: () => server.pause(),
    repairStore: () => server.resume(),
  }),
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
  propertyRuns: 30,
});
