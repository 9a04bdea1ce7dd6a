import { describe, it } from 'vitest';
import { runConformanceSuite } from '../src/index.js';
import { createFakeProvider } from './fakes/fake-provider.js';
import { createFakeSubject } from './fakes/fake-subject.js';

await runConformanceSuite({
  describe,
  it,
  name: 'correct fake',
  factory: ({ clock }) => createFakeSubject(clock),
  provider: ({ limiter, clock, limits }) => createFakeProvider(limiter, clock, limits),
  propertyRuns: 60,
});
