// map-limiter.test.ts: the whole conformance suite under vitest (npx vitest run)
import { describe, it } from 'vitest';
import { createProviderRateLimiter } from '@core/rate-limit-kit';
import { runConformanceSuite } from '@core/rate-limit-conformance';
import { createMapLimiter } from './map-limiter.js';

await runConformanceSuite({
  describe,
  it,
  name: 'map limiter',
  factory: ({ clock }) => {
    const { limiter, store } = createMapLimiter(clock);
    return { limiter, storageKeys: () => store.storageKeys() };
  },
  provider: ({ limiter, clock, limits }) => createProviderRateLimiter(limiter, { clock, limits }),
});
