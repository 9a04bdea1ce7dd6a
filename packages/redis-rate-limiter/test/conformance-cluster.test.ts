import { afterAll, describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createProviderRateLimiter } from '@core/default-rate-limiter';
import { createRedisRateLimiter } from '../src/index.js';
import { ioredisCluster } from './support/clients.js';
import { startRedisCluster } from './support/redis-servers.js';

// Three masters joined by redis-cli --cluster create; every limiter gets its own key prefix. The
// suite's property tests check buckets of two venues in one call, which Redis Cluster can only do
// atomically within one slot: hashTag 'prefix' (one slot per limiter). Venue hash tags on the
// cluster are covered by redis-cluster.test.ts, where such a call answers invalid_parameters.
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
  name: 'redis-rate-limiter on a 3-master Redis Cluster (ioredis Cluster, hashTag prefix)',
  factory: ({ clock }) => ({
    limiter: createRedisRateLimiter({ redis: client.redis, clock, prefix: `conf${next++}:`, hashTag: 'prefix', timeoutMs: 1_000 }),
    breakStore: () => cluster.pause(),
    repairStore: () => cluster.resume(),
  }),
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
  propertyRuns: 30,
});

// The same suite with the default venue hash tags, minus the three property tests that put two
// venues in one call (a cross-slot call is refused with invalid_parameters on Redis Cluster, as
// redis-cluster.test.ts checks): every other rule also holds with buckets spread by venue.
const crossVenueProperties = /^(RL-A6 \(property\)|RL-A1 \(model check\)|RL-F2 \(property\))/;
await runConformanceSuite({
  describe,
  it,
  name: 'redis-rate-limiter on a 3-master Redis Cluster (ioredis Cluster, hashTag venue)',
  factory: ({ clock }) => ({
    limiter: createRedisRateLimiter({ redis: client.redis, clock, prefix: `confv${next++}:`, timeoutMs: 1_000 }),
    breakStore: () => cluster.pause(),
    repairStore: () => cluster.resume(),
  }),
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
  filter: (title) => !crossVenueProperties.test(title),
});
