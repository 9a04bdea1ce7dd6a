// What Stryker runs against each mutant of the kit and the in-process store: the default limiter's conformance
// test file alone, with `@core/rate-limit-kit` read from its sources (the mutated ones), not from its dist.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  resolve: { alias: { '@core/rate-limit-kit': `${root}packages/rate-limit-kit/src/index.ts` } },
  test: { include: ['packages/default-rate-limiter/test/conformance.test.ts'] },
});
