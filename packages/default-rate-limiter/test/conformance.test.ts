import { describe, it } from 'vitest';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createDefaultRateLimiter } from '../src/default-rate-limiter.js';
import { createProviderRateLimiter } from '@core/rate-limit-kit';

await runConformanceSuite({
  describe,
  it,
  name: '@core/default-rate-limiter',
  factory: ({ clock }) => {
    const limiter = createDefaultRateLimiter({ clock });
    return { limiter, storageKeys: () => limiter.storageKeys() };
  },
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
});
