import type { BucketSnapshot, ErrorResult } from '@core/rate-limit-contract';
import { Cluster, Redis } from 'ioredis';
import { createClient, createCluster } from 'redis';
import { fromIoRedis, fromNodeRedis, fromNodeRedisCluster, type RedisLike } from '../../src/index.js';

/** A RedisLike plus a way to close the client behind it. */
export interface TestClient {
  readonly redis: RedisLike;
  close(): Promise<void>;
}

/** ioredis on one server, configured as the README asks: no offline queue, no retries per request. */
export async function ioredisClient(port: number): Promise<TestClient> {
  const client = new Redis({
    host: '127.0.0.1',
    port,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => 50,
  });
  client.on('error', () => {}); // connection errors surface as backend_unavailable answers
  await client.connect();
  return { redis: fromIoRedis(client), close: async () => void client.disconnect() };
}

/** ioredis Cluster over the test cluster. */
export async function ioredisCluster(nodes: readonly { host: string; port: number }[]): Promise<TestClient> {
  const cluster = new Cluster([...nodes], {
    enableOfflineQueue: false,
    scaleReads: 'master',
    redisOptions: { maxRetriesPerRequest: 0 },
    clusterRetryStrategy: () => 50,
    lazyConnect: true,
  });
  cluster.on('error', () => {});
  await cluster.connect();
  return { redis: fromIoRedis(cluster), close: async () => void cluster.disconnect() };
}

/** node-redis v5 client, offline queue disabled. */
export async function nodeRedisClient(port: number): Promise<TestClient> {
  const client = createClient({
    socket: { host: '127.0.0.1', port, reconnectStrategy: () => 50 },
    disableOfflineQueue: true,
  });
  client.on('error', () => {});
  await client.connect();
  return { redis: fromNodeRedis(client), close: async () => void client.destroy() };
}

/** node-redis v5 cluster, offline queue disabled on every node. */
export async function nodeRedisCluster(nodes: readonly { host: string; port: number }[]): Promise<TestClient> {
  const cluster = createCluster({
    rootNodes: nodes.map((n) => ({ socket: { host: n.host, port: n.port } })),
    defaults: { disableOfflineQueue: true, socket: { reconnectStrategy: () => 50 } },
  });
  cluster.on('error', () => {});
  await cluster.connect();
  return { redis: fromNodeRedisCluster(cluster), close: async () => void cluster.destroy() };
}

/** A snapshot that must be a list of buckets (a typed error fails the test). */
export function bucketsOf(snapshot: readonly BucketSnapshot[] | ErrorResult): readonly BucketSnapshot[] {
  if (!Array.isArray(snapshot)) throw new Error(`expected a snapshot, got ${JSON.stringify(snapshot)}`);
  return snapshot as readonly BucketSnapshot[];
}
