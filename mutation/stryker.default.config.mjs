// Mutation testing of the kit (its arithmetic and front door) and the in-process store against the conformance
// suite alone (the default limiter's conformance test file), so the score measures what a third party gets.
// Run from the repository's root after `pnpm build`: `pnpm mutation` (BENCHMARKS.md has the scores).
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner'],
  vitest: { configFile: 'mutation/vitest.default.config.mjs' },
  mutate: [
    'packages/rate-limit-kit/src/**/*.ts',
    '!packages/rate-limit-kit/src/index.ts',
    'packages/default-rate-limiter/src/**/*.ts',
    '!packages/default-rate-limiter/src/index.ts',
  ],
  coverageAnalysis: 'perTest',
  concurrency: 2,
  incremental: true,
  incrementalFile: 'mutation/reports/default.incremental.json',
  reporters: ['clear-text', 'progress', 'json'],
  jsonReporter: { fileName: 'mutation/reports/default.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  timeoutMS: 20_000,
  tempDirName: 'mutation/.stryker-tmp',
  cleanTempDir: 'always',
};
