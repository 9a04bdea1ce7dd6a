import { Redis } from 'ioredis';
import { createRedisRateLimiter, fromIoRedis, type RedisRateLimiter } from '@core/redis-rate-limiter';

/** A connected Redis client and a limiter on it. */
export interface RedisConnection {
  readonly client: Redis;
  readonly limiter: RedisRateLimiter;
  /** Closes the limiter and disconnects (never waits on a dead server). */
  close(): Promise<void>;
}

/** The key prefix of the demo's buckets (kept apart from real buckets under the default `rl:`). */
export const DEMO_PREFIX = 'exlimits-demo:';

const CONNECT_TIMEOUT_MS = 3_000;

/**
 * Connects to Redis and builds a Redis rate limiter on it. The client queues nothing while Redis is
 * away (`enableOfflineQueue: false`, `maxRetriesPerRequest: 0`), so a Redis that goes away makes the
 * limiter answer `backend_unavailable` at once instead of hanging.
 *
 * @throws Error that names the URL and what to check when Redis cannot be reached in 3 s.
 */
export async function connectRedis(url: string, prefix: string): Promise<RedisConnection> {
  const client = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (times) => (times > 20 ? null : Math.min(times * 100, 1000)),
  });
  let lastError: Error | undefined;
  client.on('error', (e: Error) => {
    lastError = e;
  });
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer')), CONNECT_TIMEOUT_MS).unref()),
    ]);
    await client.ping();
  } catch (e) {
    client.disconnect();
    const why = lastError?.message ?? (e as Error).message;
    throw new Error(`cannot reach Redis at ${url} (${why}); check the URL and that redis-server is running (for example: redis-server --port 6390 --save "" --appendonly no)`);
  }
  // 1 s rather than the default 250 ms: the demo shares two cores with its workers and its venue.
  const limiter = createRedisRateLimiter({ redis: fromIoRedis(client), prefix, timeoutMs: 1_000 });
  return {
    client,
    limiter,
    async close(): Promise<void> {
      await limiter.close().catch(() => undefined);
      client.disconnect();
    },
  };
}
