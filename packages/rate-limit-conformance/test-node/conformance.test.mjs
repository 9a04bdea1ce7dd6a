// The conformance suite under node:test, importing the built package (run `pnpm build` first):
//   node --test test-node/
import { describe, it } from 'node:test';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createFakeProvider, createFakeSubject } from './fake-limiter.mjs';

await runConformanceSuite({
  describe,
  it,
  name: 'correct fake (node:test)',
  factory: ({ clock }) => createFakeSubject(clock),
  provider: ({ limiter, clock, limits }) => createFakeProvider(limiter, clock, limits),
  propertyRuns: 40,
});
