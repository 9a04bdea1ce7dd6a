// The servers of these tests are the package's test helper (`@core/redis-rate-limiter/testing`).
export * from '../../src/testing/redis-servers.js';
