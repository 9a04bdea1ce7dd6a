import { StoreRateLimiter } from '@core/rate-limit-kit';
import type { RecordStats } from './record-buffer.js';
import type { RedisRateLimiterOptions } from './redis-rate-limiter-options.js';
import { RedisStore, type RedisStoreSettings } from './redis-store.js';

/** RL-R3: a hold on a bucket never defined is kept at least this long after it ends. */
const DAY_MS = 86_400_000;

function settingsOf(options: RedisRateLimiterOptions): RedisStoreSettings {
  if (typeof options !== 'object' || options === null) throw new TypeError('createRedisRateLimiter: options must be an object');
  const { redis } = options;
  if (typeof redis !== 'object' || redis === null || typeof redis.evalsha !== 'function' || typeof redis.eval !== 'function') {
    throw new TypeError('createRedisRateLimiter: options.redis must be a RedisLike (use fromIoRedis, fromNodeRedis or fromNodeRedisCluster)');
  }
  const prefix = options.prefix ?? 'rl:';
  if (typeof prefix !== 'string' || prefix === '' || /[{}~]/.test(prefix)) {
    throw new TypeError(
      'createRedisRateLimiter: options.prefix must be a non-empty string without "{", "}" or "~" (braces would move the hash tag, "~" marks records; an empty prefix would let resetAll reach keys that are not the limiter\'s)',
    );
  }
  const hashTag = options.hashTag ?? 'venue';
  if (hashTag !== 'venue' && hashTag !== 'venue+credential' && hashTag !== 'prefix') {
    throw new TypeError('createRedisRateLimiter: options.hashTag must be "venue", "venue+credential" or "prefix"');
  }
  const positive = (name: string, value: number | undefined, fallback: number, allowZero = false): number => {
    const v = value ?? fallback;
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) {
      throw new TypeError(`createRedisRateLimiter: options.${name} must be a finite number ${allowZero ? '>=' : '>'} 0`);
    }
    return v;
  };
  const clock = options.clock;
  if (clock !== undefined && (typeof clock.now !== 'function' || typeof clock.setTimer !== 'function')) {
    throw new TypeError('createRedisRateLimiter: options.clock must be a Clock { now(), setTimer() }');
  }
  if (options.onClose !== undefined && typeof options.onClose !== 'function') throw new TypeError('createRedisRateLimiter: options.onClose must be a function');
  if (options.credentialSecret !== undefined && (typeof options.credentialSecret !== 'string' || options.credentialSecret === '')) {
    throw new TypeError('createRedisRateLimiter: options.credentialSecret must be a non-empty string when given');
  }
  const pendingHoldTtlMs = positive('pendingHoldTtlMs', options.pendingHoldTtlMs, DAY_MS);
  if (pendingHoldTtlMs < DAY_MS) throw new TypeError('createRedisRateLimiter: options.pendingHoldTtlMs must be at least 86 400 000 (24 hours)');
  return {
    redis,
    prefix,
    hashTag,
    timeoutMs: positive('timeoutMs', options.timeoutMs, 250),
    clock,
    ttlSlackMs: positive('ttlSlackMs', options.ttlSlackMs, clock === undefined ? 1_000 : 3_600_000, true),
    pendingDebtTtlMs: positive('pendingTtlMs', options.pendingTtlMs, 3_600_000),
    pendingHoldTtlMs,
    recordMarkerTtlMs: positive('recordDedupeMs', options.recordDedupeMs, 600_000),
    recordBufferSize: Math.floor(positive('recordBufferSize', options.recordBufferSize, 10_000, true)),
    recordRetryMs: positive('recordRetryMs', options.recordRetryMs, 250),
    onClose: options.onClose,
  };
}

/**
 * The distributed rate limiter: every rule of the contract, with the buckets in Redis (standalone or
 * Cluster, or Valkey) so every process sharing the store shares the buckets. The kit's front door over
 * a {@link RedisStore}: each admission, booking and multi-bucket check is one script call; the clock is
 * the Redis server's TIME.
 *
 * @example
 * ```ts
 * const limiter = createRedisRateLimiter({ redis: fromIoRedis(new Redis({ enableOfflineQueue: false })) });
 * const d = await limiter.checkRate({ venue: 'binance', credential: null, axis: 'ip' }, { requests: 6000, periodMs: 60_000 }, 20);
 * ```
 */
export class RedisRateLimiter extends StoreRateLimiter {
  constructor(options: RedisRateLimiterOptions) {
    super(new RedisStore(settingsOf(options)), {
      ...(options.credentialSecret === undefined ? {} : { credentialSecret: options.credentialSecret }),
      ...(options.reserve === undefined ? {} : { reserve: options.reserve }),
      unrefTimers: true,
    });
  }

  /** What `record()` has buffered, flushed and dropped so far (RL-R1). */
  recordStats(): RecordStats {
    return (this.store as RedisStore).recordStats();
  }
}

/**
 * Builds a {@link RedisRateLimiter}.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const limiter = createRedisRateLimiter({ redis: fromIoRedis(new Redis({ port: 6380, enableOfflineQueue: false })) });
 * ```
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  return new RedisRateLimiter(options);
}
