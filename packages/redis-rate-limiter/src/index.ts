export { RedisRateLimiter, createRedisRateLimiter } from './redis-rate-limiter.js';
export { REDIS_RATE_LIMITER_LIBRARY, REDIS_RATE_LIMITER_SCRIPTS } from './scripts.js';
export type { Library, Operation, OperationName } from './scripts.js';
export { RedisStore } from './redis-store.js';
export type { RedisStoreSettings } from './redis-store.js';
export type { RedisRateLimiterOptions } from './redis-rate-limiter-options.js';
export type { RecordStats } from './record-buffer.js';
export type { RedisLike, RedisNodeLike } from './redis-like.js';
export { fromIoRedis } from './ioredis-adapter.js';
export type { IoRedisClientShape, IoRedisClusterShape } from './ioredis-adapter.js';
export { fromNodeRedis, fromNodeRedisCluster } from './node-redis-adapter.js';
export type { NodeRedisClientShape, NodeRedisClusterShape } from './node-redis-adapter.js';
export { bucketKeyName, escapeName, hashTagOf, recordMarkerName } from './bucket-key-name.js';
export type { HashTagMode } from './bucket-key-name.js';
export type { Script } from './script-runner.js';
export { SCRIPT_EPOCH_MS, parseStored } from './protocol.js';
export type { StoredState } from './protocol.js';

/** The contract version this module speaks (hosts check it before loading the module). */
export const specificationVersion = 'v1' as const;

export { createRateLimiter } from './create-rate-limiter.js';
export type { RedisConnectionOptions, RedisModuleOptions } from './create-rate-limiter.js';
