import { createRateLimiter, type RedisRateLimiter } from '@core/redis-rate-limiter';

/** A Redis rate limiter on a client it owns. */
export interface RedisConnection {
  readonly limiter: RedisRateLimiter;
  /** Closes the limiter and its client (never waits on a dead server). */
  close(): Promise<void>;
}

/** The key prefix of the demo's buckets (kept apart from real buckets under the default `rl:`). */
export const DEMO_PREFIX = 'exlimits-demo:';

const CONNECT_TIMEOUT_MS = 3_000;

/**
 * Connects to Redis and builds a Redis rate limiter on it, with `createRateLimiter({ url })` of
 * `@core/redis-rate-limiter`: the limiter owns an ioredis client that queues nothing while Redis is
 * away, so a Redis that goes away makes the limiter answer `backend_unavailable` at once instead of
 * hanging, and closing the limiter disconnects it.
 *
 * @throws Error that names the URL and what to check when Redis cannot be reached in 3 s.
 */
export async function connectRedis(url: string, prefix: string): Promise<RedisConnection> {
  let limiter: RedisRateLimiter;
  try {
    // 1 s rather than the default 250 ms: the demo shares two cores with its workers and its venue.
    limiter = await createRateLimiter({ url, prefix, timeoutMs: 1_000, connectTimeoutMs: CONNECT_TIMEOUT_MS });
  } catch (e) {
    const cause = (e as { cause?: unknown }).cause;
    const why = cause instanceof Error ? cause.message : (e as Error).message;
    throw new Error(
      `cannot reach Redis at ${url} (${why}); check the URL and that redis-server is running (for example: redis-server --port 6390 --save "" --appendonly no)`,
    );
  }
  return {
    limiter,
    close: () => limiter.close().catch(() => undefined),
  };
}
