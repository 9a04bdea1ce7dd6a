export type { Result } from './result.js';
export { hashCredential } from './hash-credential.js';
export { normalizeKey, validateVenue, MAX_NAME_LENGTH, MAX_CREDENTIAL_LENGTH } from './normalize-key.js';
export type { NormalizedKey } from './normalize-key.js';
export { normalizeLimit } from './normalize-limit.js';
export { validateCost, validateWaitBudget, validateSignal } from './validate-number.js';
export { validateChecks, keyIdentity, MAX_CHECKS } from './validate-checks.js';
export type { NormalizedCheck } from './validate-checks.js';
export { systemClock } from './system-clock.js';
export {
  borrowedAt,
  cancelBooking,
  chargeAt,
  defineBucket,
  freshState,
  isIdle,
  penalizeUntil,
  recordCost,
  redefine,
  roundUpWait,
  sendTime,
  syncBorrowed,
  tokensAt,
  admit,
} from './gcra.js';
export type { BucketDefinition, AdmitInput, AdmitOutcome } from './gcra.js';
export { bucketId, decodeBucketId, venuePrefix } from './bucket-id.js';
export type { DecodedBucketId } from './bucket-id.js';
export { DefaultRateLimiter, createDefaultRateLimiter } from './default-rate-limiter.js';
export type { DefaultRateLimiterOptions, DefaultRateLimiterStats } from './default-rate-limiter.js';
export { createProviderRateLimiter } from './provider-rate-limiter.js';
export type { ProviderRateLimiterOptions } from './provider-rate-limiter.js';
export { specificationVersion, createRateLimiter } from './default-module.js';
export { loadRateLimiter, DEFAULT_RATE_LIMITER_MODULE } from './load-rate-limiter.js';
export type { LoadRateLimiterOptions } from './load-rate-limiter.js';
