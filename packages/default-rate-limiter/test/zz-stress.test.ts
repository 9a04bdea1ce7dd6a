import { describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createDefaultRateLimiter } from '../src/default-rate-limiter.js';
import { createProviderRateLimiter } from '@core/rate-limit-kit';

await runConformanceSuite({
  describe,
  it,
  name: 'default stress',
  propertyRuns: Number(process.env['RUNS'] ?? 600),
  propertyTimeoutMs: 1_800_000,
  shrink: true,
  filter: (t) => /\(property\)|\(model check\)/.test(t),
  factory: ({ clock }) => {
    const limiter = createDefaultRateLimiter({ clock });
    return { limiter, storageKeys: () => limiter.storageKeys() };
  },
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
});
