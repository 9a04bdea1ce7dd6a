import { afterAll, describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createProviderRateLimiter } from '@core/rate-limit-kit';
import { ioredisCluster, nodeRedisCluster } from './support/clients.js';
import { redisSubject } from './support/conformance-subject.js';
import { startRedisCluster } from './support/redis-servers.js';

// Three masters joined by redis-cli --cluster create. The limiter under test talks through the
// ioredis Cluster client, its peer through the node-redis cluster client; the store fault pauses
// every node. Redis Cluster can apply one step to buckets of two venues only within one slot: the
// first run uses hashTag 'prefix' (one slot per limiter; capabilities.crossVenueChecks, so the
// property tests mix venues in one call). The second run uses the default venue tags, where such a
// call answers invalid_parameters (redis-cluster.test.ts checks it): crossVenueChecks is false and
// the suite's property tests keep each call's buckets within one venue. Every test runs in both.
const cluster = await startRedisCluster();
const client = await ioredisCluster(cluster.startupNodes);
const peerClient = await nodeRedisCluster(cluster.startupNodes);
afterAll(async () => {
  cluster.resume();
  await client.close();
  await peerClient.close();
  await cluster.stop();
});

const hooks = { client, peerClient, nodes: cluster.nodes, pause: () => cluster.pause(), resume: () => cluster.resume() };

await runConformanceSuite({
  describe,
  it,
  name: 'redis-rate-limiter on a 3-master Redis Cluster (hashTag prefix)',
  factory: (context) => redisSubject(context, { ...hooks, hashTag: 'prefix' }),
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
  propertyRuns: 30,
});

await runConformanceSuite({
  describe,
  it,
  name: 'redis-rate-limiter on a 3-master Redis Cluster (hashTag venue)',
  factory: (context) => redisSubject(context, hooks),
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
});
