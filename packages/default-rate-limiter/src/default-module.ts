import { createDefaultRateLimiter, type DefaultRateLimiter, type DefaultRateLimiterOptions } from './default-rate-limiter.js';

/** The contract version this module speaks; a host compares it before using the module. */
export const specificationVersion = 'v1' as const;

/**
 * The module-level factory a host calls when it selects this package by configuration
 * (`{ module: '@core/default-rate-limiter', options }`).
 *
 * @example
 * ```ts
 * const limiter = createRateLimiter({ credentialSecret: process.env.RATE_LIMIT_SECRET });
 * ```
 */
export function createRateLimiter(options?: DefaultRateLimiterOptions): DefaultRateLimiter {
  return createDefaultRateLimiter(options);
}
