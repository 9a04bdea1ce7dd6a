// Mutation testing of the TypeScript half of the Redis store's protocol (what it sends to the Lua and how it reads
// the answers) against the Redis limiter's conformance run alone. Needs redis-server on PATH; slow (each mutant
// reruns the Redis conformance tests that cover it). Run from the repository's root: `pnpm mutation --redis`.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'mutation/vitest.redis.config.mjs' },
  mutate: [
    'packages/redis-rate-limiter/src/protocol.ts',
    'packages/redis-rate-limiter/src/redis-store.ts',
    'packages/redis-rate-limiter/src/script-runner.ts',
    'packages/redis-rate-limiter/src/bucket-key-name.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  incremental: true,
  incrementalFile: 'mutation/reports/redis.incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'mutation/reports/redis.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  timeoutMS: 60_000,
  tempDirName: 'mutation/.stryker-tmp',
  cleanTempDir: 'always',
};
