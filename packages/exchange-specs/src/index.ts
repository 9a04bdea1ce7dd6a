export type {
  Confidence,
  Source,
  Provenance,
  Deviation,
  Correction,
  CrossCheck,
  Verification,
  Market,
  Scope,
  BucketAlgorithm,
  WindowAlgorithm,
  Partition,
  WindowBucketSpec,
  TokenBucketSpec,
  BucketSpec,
  CostExpr,
  CostRule,
  EndpointSpec,
  FeedbackRule,
  BodyMatch,
  WaitSource,
  WaitUnit,
  ErrorRule,
  PricedElsewhere,
  VenueSpec,
} from './venue-spec.js';
export type {
  Identity,
  VenueRequest,
  VenueResponse,
  ResolveErrorCode,
  ResolveError,
  ResolveResult,
  VenueCharge,
  DeferredCharge,
  FeedbackSync,
  WindowEnd,
  FeedbackPenalty,
  Feedback,
} from './venue-io.js';
export { unquotedNumbers, statesNumber, quotedNumbers, type UnquotedNumber } from './quoted-numbers.js';
export { validateSpec, type SpecError, type ValidateResult } from './validate-spec.js';
export { getVenueSpec, listVenues, resolveVenueId, venueEvidence, CCXT_ID_PREFIX, type VenueListing, type VenueEvidence } from './registry.js';
export { resolveRequest } from './resolve-request.js';
export {
  CRITICAL_REQUESTS,
  DEFAULT_GATED_WINDOW_RESERVE,
  DEFAULT_VENUE_RESERVE,
  DEFAULT_WINDOW_RESERVE,
  NO_RESERVE,
  bucketReserve,
  criticalBuckets,
  requestPriority,
  type CriticalParam,
  type CriticalRequests,
} from './critical-requests.js';
export {
  bucketMaxCost,
  bucketLimit,
  bucketDerivation,
  resolveCharges,
  usesWindowLimit,
  type ResolveOptions,
  type Charge,
  type ChargesResult,
  type EnforcedLimit,
} from './resolve-charges.js';
export { bucketDefers, bucketMargin, inFlightBound, DEFAULT_IN_FLIGHT_SHARE, DEFERRED_GATE_FRACTION } from './deferred-charges.js';
export { interpretResponse, type InterpretOptions, type OwnUsage } from './interpret-response.js';
export type { OwnWindowSends, AnsweredSend, AnsweredQuery } from './window-feedback.js';
export { costCounted, earliestAnsweredIn, reportedSameWindow } from './window-feedback.js';
export {
  safeLimit,
  describeSafeLimit,
  venueLimit,
  DEFAULT_MARGIN,
  DEFAULT_BURST_FRACTION,
  DEFAULT_JITTER_MS,
  DEFAULT_WINDOW_MARGIN,
  DEFAULT_WINDOW_JITTER_MS,
  type SafeLimitOptions,
  type SafeLimitDerivation,
  type VenueLimitOptions,
} from './safe-limit.js';
export { createBucketModel, type BucketModel, type ModelResult } from './bucket-model.js';
export { bucketForTier } from './tier.js';
export { evaluateCost, type CostResult } from './evaluate-cost.js';
export { requestParams, type RequestParams } from './request-params.js';
export {
  specFromCcxt,
  ccxtCapacity,
  CCXT_CAPACITY_HEADROOM,
  CCXT_CAPACITY_REFILL_MS,
  type CcxtFile,
  type CcxtSection,
  type CcxtEndpointEntry,
  type CcxtEndpointOverrides,
} from './ccxt-spec.js';
export { handAuthoredSpecs } from './hand-authored.js';
export { venueTable } from './venue-table.js';
export { verificationRows, verificationTable } from './verification-table.js';
export type { VerificationRow } from './verification-table.js';
export { readLiveLimits, type LiveLimitsOptions, type LiveLimitsResult, type LiveLimitsRequest, type LiveLimitsFetch } from './live-limits/read-live-limits.js';
export { applyLiveStatements, type LiveLimitChange, type LiveReading } from './live-limits/apply-live-limits.js';
export { liveLimitSources, withLiveLimitEndpoints } from './live-limits/sources.js';
export { LiveLimitsError, isLiveLimitsError, type LiveLimitsErrorCode } from './live-limits/live-limits-error.js';
export type { LiveLimitSource, LiveStatement, StatedLimit, StatedTier, FieldDocumentation, ParseContext } from './live-limits/live-limit-source.js';
export { BINANCE_SPOT_LIMITS, BINANCE_USDM_LIMITS, binanceWindowMs, type BinanceLimitMapping } from './live-limits/binance.js';
export { BYBIT_RATE_BUCKETS } from './live-limits/bybit.js';
export { OKX_SUBACCOUNT_BUCKET } from './live-limits/okx.js';
export * from './websocket/index.js';
export { bucketKeyId, lateBuckets, type LateBucket } from './late-send.js';
