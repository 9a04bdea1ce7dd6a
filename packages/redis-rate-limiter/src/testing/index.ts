/**
 * Redis servers for tests (`@core/redis-rate-limiter/testing`): `redis-server` processes started on free
 * loopback ports (never 6379) without persistence, and a three-master cluster. Not imported by the limiter.
 */
export { assertRedisInstalled, freePort, startRedisCluster, startRedisServer, type RedisClusterServers, type RedisServer } from './redis-servers.js';
