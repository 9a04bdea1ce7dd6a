export type { SpecificationVersion } from './version.js';
export type { BucketKey, DefaultAxis } from './key.js';
export type {
  CapacityLimit,
  PeriodLimit,
  RequestsPerSecondLimit,
  WindowLimit,
  Limit,
  NormalizedLimit,
} from './limit.js';
export type { RateLimitErrorCode, RateLimitError } from './errors.js';
export type { OkDecision, BookedDecision, DelayDecision, ErrorDecision, Decision, WaitDecision, PeekDecision } from './decision.js';
export type { Clock, TimerHandle } from './clock.js';
export type { Capabilities } from './capabilities.js';
export type { Priority, Reserve } from './priority.js';
export type { BucketSnapshot } from './snapshot.js';
export type {
  BucketCheck,
  CheckOptions,
  WaitOptions,
  PeekOptions,
  PenaltyHold,
  SyncOptions,
  RateLimiter,
  SideEffectResult,
  ErrorResult,
} from './limiter.js';
export type {
  ProviderCheckOptions,
  ProviderAcquireOptions,
  ProviderCheckResult,
  ProviderAcquireResult,
  ProviderPenaltyResult,
  ProviderRateLimiter,
} from './provider.js';
export type { RateLimiterModule, RateLimiterSelection } from './module.js';
