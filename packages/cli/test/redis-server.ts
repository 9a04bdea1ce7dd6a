// The Redis servers of these tests: redis-rate-limiter's test helper (`@core/redis-rate-limiter/testing`).
export { freePort, startRedisServer as startTestRedis, type RedisServer as TestRedis } from '@core/redis-rate-limiter/testing';
