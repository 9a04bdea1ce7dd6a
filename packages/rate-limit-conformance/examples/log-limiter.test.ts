// log-limiter.test.ts: the window rules of the conformance suite under vitest (npx vitest run)
import { describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { LogLimiter } from './log-limiter.js';

await runConformanceSuite({
  describe,
  it,
  name: 'log limiter',
  factory: ({ clock }) => ({ limiter: new LogLimiter(clock) }),
  filter: (title) => title.startsWith('RL-V'),
});
