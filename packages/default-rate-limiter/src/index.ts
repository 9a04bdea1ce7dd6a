export { DefaultRateLimiter, createDefaultRateLimiter } from './default-rate-limiter.js';
export type { DefaultRateLimiterOptions, DefaultRateLimiterStats } from './default-rate-limiter.js';
export { MemoryStore } from './memory-store.js';
export type { MemoryStoreOptions } from './memory-store.js';
export { specificationVersion, createRateLimiter } from './default-module.js';
export { loadRateLimiter, DEFAULT_RATE_LIMITER_MODULE } from './load-rate-limiter.js';
export type { LoadRateLimiterOptions } from './load-rate-limiter.js';
/** The host-level contract over any limiter; it lives in the kit and is re-exported here for hosts. */
export { createProviderRateLimiter } from '@core/rate-limit-kit';
export type { ProviderRateLimiterOptions } from '@core/rate-limit-kit';
