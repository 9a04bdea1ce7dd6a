// The conformance suite under node:test, importing the built package and the correct fake compiled
// from test/fakes (run `pnpm test`, or `pnpm build && tsc -p tsconfig.fakes.json`, first):
//   node --test test-node/
import { describe, it } from 'node:test';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createFakeProvider } from '../.test-build/test/fakes/fake-provider.js';
import { createFakeSubject } from '../.test-build/test/fakes/fake-subject.js';

await runConformanceSuite({
  describe,
  it,
  name: 'correct fake (node:test)',
  factory: ({ clock }) => createFakeSubject(clock),
  provider: ({ limiter, clock, limits }) => createFakeProvider(limiter, clock, limits),
  propertyRuns: 40,
});
