// What Stryker runs against each mutant of the Redis store's TypeScript protocol: the Redis limiter's
// conformance run on one redis-server the test file starts on a free loopback port.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  test: { include: ['packages/redis-rate-limiter/test/conformance-standalone.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
