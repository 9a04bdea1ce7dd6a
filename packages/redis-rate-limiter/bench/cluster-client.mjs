// One client process of the cluster bench (cluster.mjs forks it): a limiter on node-redis or ioredis over the bench's
// standalone server or its cluster, `lanes` concurrent loops of one workload over the bench's venues. It warms
// up, says `ready`, runs for `seconds` once told `go`, and sends back what it did and the CPU it used.
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { createRedisRateLimiter, fromIoRedis, fromNodeRedis, fromNodeRedisCluster } from '../dist/index.js';

const WARM_UP_CALLS = 2_000;
const CREDENTIALS = 1_000;
/** Every call admitted (limits far above the load): the cells measure the cost of an admission. */
const TOKEN_BUCKET = { capacity: 1e9, refillPerSec: 1e9 };
const WINDOW = { perWindow: 1e9, windowMs: 60_000 };

/** A client as the README configures it (no offline queue, no retries per request), wrapped. */
async function connect({ target, ports, library }) {
  const nodes = ports.map((port) => ({ host: '127.0.0.1', port }));
  if (library === 'node-redis') {
    const client =
      target === 'standalone'
        ? createClient({ socket: nodes[0], disableOfflineQueue: true })
        : createCluster({ rootNodes: nodes.map((socket) => ({ socket })), defaults: { disableOfflineQueue: true } });
    client.on('error', () => {});
    await client.connect();
    return { redis: target === 'standalone' ? fromNodeRedis(client) : fromNodeRedisCluster(client), close: () => client.destroy() };
  }
  const client =
    target === 'standalone'
      ? new Redis({ ...nodes[0], enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true })
      : new Cluster(nodes, { enableOfflineQueue: false, scaleReads: 'master', redisOptions: { maxRetriesPerRequest: 0 }, lazyConnect: true });
  client.on('error', () => {});
  await client.connect();
  return { redis: fromIoRedis(client), close: () => client.disconnect() };
}

process.once('message', async (setup) => {
  const { redis, close } = await connect(setup);
  const limiter = createRedisRateLimiter({ redis, prefix: `bench-${setup.prefix}:` });
  const limit = setup.workload === 'window' ? WINDOW : TOKEN_BUCKET;
  const axis = setup.workload === 'window' ? 'weight' : 'orders';
  const venues = setup.venues;
  const credentials = Array.from({ length: CREDENTIALS }, (_, i) => `api-key-${setup.index}-${i}`);
  const keys = credentials.map((credential, i) => ({ venue: venues[i % venues.length], credential, axis }));
  const failures = new Map();
  const op = (i) =>
    limiter.checkRate(keys[i % CREDENTIALS], limit, 1).then((d) => {
      if (d.kind === 'ok') return;
      const why = d.kind === 'error' ? d.error.code : d.kind;
      failures.set(why, (failures.get(why) ?? 0) + 1);
    });
  for (let i = 0; i < WARM_UP_CALLS; i++) await op(i);
  failures.clear();
  process.send({ ready: true });
  await new Promise((resolve) => process.once('message', resolve));
  const cpu = process.cpuUsage();
  const started = performance.now();
  const deadline = started + setup.seconds * 1000;
  let ops = 0;
  await Promise.all(
    Array.from({ length: setup.lanes }, async (_, lane) => {
      for (let i = lane; performance.now() < deadline; i += setup.lanes) {
        await op(i);
        ops++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  process.send({ ops, seconds, cpuSeconds: (used.user + used.system) / 1e6, failures: Object.fromEntries(failures) });
  await limiter.close();
  close();
  process.disconnect();
});
