// The differential probe (mutation/probe.test.ts): the in-process limiter over the kit's sources, as in the mutation
// run, with a mutant put behind a switch by mutation/probe-switch.mjs.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const root = fileURLToPath(new URL('..', import.meta.url));

export default defineConfig({
  root,
  resolve: { alias: { '@core/rate-limit-kit': `${root}packages/rate-limit-kit/src/index.ts` } },
  test: { include: ['mutation/probe.test.ts'], testTimeout: 600_000 },
});
