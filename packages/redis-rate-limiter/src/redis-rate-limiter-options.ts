import type { Clock, Reserve } from '@core/rate-limit-contract';
import type { HashTagMode } from './bucket-key-name.js';
import type { RedisLike } from './redis-like.js';

/**
 * Options of {@link createRedisRateLimiter}.
 *
 * @example
 * ```ts
 * const limiter = createRedisRateLimiter({ redis: fromIoRedis(client), prefix: 'bot:', timeoutMs: 200 });
 * ```
 */
export interface RedisRateLimiterOptions {
  /** The Redis client, wrapped by `fromIoRedis`, `fromNodeRedis` or `fromNodeRedisCluster`. */
  readonly redis: RedisLike;
  /** Prefix of every key the limiter writes; default `"rl:"`. Must not contain `{` or `}`. */
  readonly prefix?: string;
  /**
   * What the Redis Cluster hash tag is made of: `"venue"` (default: every bucket of a venue in one slot,
   * so any multi-bucket check within a venue works) or `"venue+credential"` (spreads a venue over the
   * cluster; a multi-bucket check must then stay within one credential), or `"prefix"` (every bucket in
   * one slot: any multi-bucket check works, even across venues, but one master holds everything).
   * On a single server every mode works the same.
   */
  readonly hashTag?: HashTagMode;
  /** HMAC key for credential hashes (RL-K3); every process sharing the buckets must use the same. */
  readonly credentialSecret?: string;
  /** How long an admission waits for Redis before answering `backend_unavailable`; default 250 ms. */
  readonly timeoutMs?: number;
  /**
   * A clock for tests (a manual clock). Without it the clock is the Redis server's `TIME`, so the
   * processes' clocks never matter. With it, its `now()` is sent with every script call.
   */
  readonly clock?: Clock;
  /** Added to each key's TTL beyond the time its bucket is full again; default 1 000 ms (1 h with an injected clock). */
  readonly ttlSlackMs?: number;
  /** How long debt recorded on a bucket that was never defined is kept; default 3 600 000 ms. */
  readonly pendingTtlMs?: number;
  /**
   * How long a hold on a bucket that was never defined is kept after it ends (RL-R3), so the bucket's
   * first definition starts it empty as of the hold's end; default and minimum 86 400 000 ms (24 h).
   */
  readonly pendingHoldTtlMs?: number;
  /**
   * How long a record's id is remembered so that a second delivery of it (a retry after a timeout, when
   * the server was only slow) changes nothing (RL-R1: exactly once); default 600 000 ms. Costs about
   * 80 bytes of Redis memory per record for that long.
   */
  readonly recordDedupeMs?: number;
  /** How many records may wait for an unreachable Redis; default 10 000 (then the oldest is dropped). */
  readonly recordBufferSize?: number;
  /** How often buffered records are retried while Redis is away; default 250 ms. */
  readonly recordRetryMs?: number;
  /**
   * Called once by `close()` after the waiters are settled, for example to disconnect a client the
   * limiter owns (`createRateLimiter({ url })` uses it). The limiter never closes a client otherwise.
   */
  readonly onClose?: () => void | Promise<void>;
  /**
   * The share of each bucket a lower class leaves free for higher ones when a call names no reserve
   * (RL-Q4); default `{ normal: 0, bulk: 0.2 }`, as in process. Every process sharing the buckets should
   * use the same one (each call is checked against its own caller's lines; all keep RL-A6).
   */
  readonly reserve?: Reserve;
}
