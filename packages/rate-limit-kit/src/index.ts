export type { Result } from './result.js';
export { ok, invalid } from './result.js';
export { describeValue, describeSecret } from './describe-value.js';
export { hashCredential } from './hash-credential.js';
export { systemClock } from './system-clock.js';
export { normalizeKey, validateVenue, MAX_NAME_LENGTH, MAX_CREDENTIAL_LENGTH } from './normalize-key.js';
export type { NormalizedKey } from './normalize-key.js';
export { normalizeLimit, isWindowLimit } from './normalize-limit.js';
export type { NormalizedShape, NormalizedWindowLimit } from './normalize-limit.js';
export { validateCost, validateWaitBudget, validateSignal } from './validate-number.js';
export { bucketId, decodeBucketId, venuePrefix } from './bucket-id.js';
export type { DecodedBucketId } from './bucket-id.js';
export { KeyResolver } from './key-resolver.js';
export type { ResolvedKey } from './key-resolver.js';
export { DefinitionTable, UNLIMITED } from './definition-table.js';
export type { Definition } from './definition-table.js';
export {
  HORIZON_MS,
  MAX_AMOUNT,
  NO_HOLD,
  addDebt,
  addUp,
  admits,
  borrowedAt,
  chargeAt,
  clampHold,
  defineBucket,
  foldPending,
  freshState,
  fromBorrowed,
  holdAfter,
  isIdle,
  isUnpayable,
  penalizeUntil,
  recordCost,
  redefine,
  roundUpWait,
  sendTime,
  syncBorrowed,
  tokensAt,
} from './gcra.js';
export type { BucketDefinition } from './gcra.js';
export { planAdmission } from './plan.js';
export { BULK, CRITICAL, NORMAL, classCharge, classIndex, classRaise, classSendTime, freeShare, lineOf, settleClasses, windowLineOf } from './classes.js';
export type { ClassCharged, ClassState } from './classes.js';
export type { AdmissionPlan, PlanDefinition } from './plan.js';
export {
  LEDGER_HEADER,
  WINDOW_SLOTS,
  defineWindow,
  emptyLedger,
  pruneWindow,
  slotOf,
  windowBorrowed,
  windowCharge,
  windowChargeNow,
  windowExpiry,
  windowFoldPending,
  windowFromBorrowed,
  windowPenalize,
  windowRecord,
  windowSendTime,
  windowCounted,
  windowSync,
} from './window.js';
export type { WindowDefinition } from './window.js';
export type { Admission, AdmitMode, Hold, LimiterStore, MaybePromise, SyncReport } from './limiter-store.js';
export { StoreRateLimiter } from './store-rate-limiter.js';
export type { LimiterObserver, ObservedOperation } from './limiter-observer.js';
export type { StoreRateLimiterOptions } from './store-rate-limiter.js';
export { WaiterSet } from './waiter-set.js';
export { MAX_CHECKS, DEFAULT_WAIT_BUDGET_MS, DEFAULT_RESERVE, readReserve } from './read-arguments.js';
export type { ReserveShares } from './read-arguments.js';
export {
  CLOSED,
  abortedError,
  errorResult,
  formatNumber,
  internalError,
  invalidParameters,
  notSupported,
  timeoutError,
  unpayableError,
} from './messages.js';
export { createProviderRateLimiter } from './provider-rate-limiter.js';
export type { ProviderRateLimiterOptions } from './provider-rate-limiter.js';
