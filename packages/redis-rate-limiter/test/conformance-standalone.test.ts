import { afterAll, describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createProviderRateLimiter } from '@core/rate-limit-kit';
import { ioredisClient, nodeRedisClient } from './support/clients.js';
import { redisSubject } from './support/conformance-subject.js';
import { startRedisServer } from './support/redis-servers.js';

// One server for the file; the limiter under test talks through ioredis, its peer (another
// "process" on the same store) through node-redis. RL-F1's store fault: SIGSTOP, then SIGCONT.
const server = await startRedisServer();
const client = await ioredisClient(server.port);
const peerClient = await nodeRedisClient(server.port);
afterAll(async () => {
  server.resume();
  await client.close();
  await peerClient.close();
  await server.stop();
});

await runConformanceSuite({
  describe,
  it,
  name: 'redis-rate-limiter on one redis-server (ioredis; peer on node-redis)',
  factory: (context) => redisSubject(context, { client, peerClient, nodes: [server], pause: () => server.pause(), resume: () => server.resume() }),
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
  propertyRuns: 30,
});
