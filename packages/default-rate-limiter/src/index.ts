export type { Result } from './result.js';
export { hashCredential } from './hash-credential.js';
export { normalizeKey, validateVenue, MAX_NAME_LENGTH, MAX_CREDENTIAL_LENGTH } from './normalize-key.js';
export type { NormalizedKey } from './normalize-key.js';
export { normalizeLimit } from './normalize-limit.js';
export { validateCost, validateWaitBudget, validateSignal } from './validate-number.js';
export { validateChecks, keyIdentity, MAX_CHECKS } from './validate-checks.js';
export type { NormalizedCheck } from './validate-checks.js';
export { systemClock } from './system-clock.js';
