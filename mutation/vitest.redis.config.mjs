// What Stryker runs against each mutant of the Redis store's TypeScript protocol: the Redis limiter's
// conformance run on one redis-server the test file starts on a free loopback port, with `@core/rate-limit-kit`
// read from its sources, so the kit's front door can be mutated against the Redis limiter too (its asynchronous
// store reaches branches the in-process one never does): `--mutate packages/rate-limit-kit/src/<file>`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  resolve: { alias: { '@core/rate-limit-kit': `${root}packages/rate-limit-kit/src/index.ts` } },
  test: { include: ['packages/redis-rate-limiter/test/conformance-standalone.test.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
});
