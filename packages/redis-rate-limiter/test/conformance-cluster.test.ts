import { afterAll, describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createProviderRateLimiter } from '@core/default-rate-limiter';
import { createRedisRateLimiter } from '../src/index.js';
import { ioredisCluster } from './support/clients.js';
import { startRedisCluster } from './support/redis-servers.js';

// Three masters joined by redis-cli --cluster create; every limiter gets its own key prefix.
const cluster = await startRedisCluster();
const client = await ioredisCluster(cluster.startupNodes);
afterAll(async () => {
  cluster.resume();
  await client.close();
  await cluster.stop();
});

let next = 0;
await runConformanceSuite({
  describe,
  it,
  name: 'redis-rate-limiter on a 3-master Redis Cluster (ioredis Cluster)',
  factory: ({ clock }) => ({
    limiter: createRedisRateLimiter({ redis: client.redis, clock, prefix: `conf${next++}:`, timeoutMs: 250 }),
    breakStore: () => cluster.pause(),
    repairStore: () => cluster.resume(),
  }),
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
  propertyRuns: 30,
});
