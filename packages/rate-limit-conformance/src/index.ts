export { runConformanceSuite } from './run-conformance-suite.js';
export type {
  ConformanceOptions,
  ProviderContext,
  ProviderFactory,
  SuiteDescribe,
  SuiteIt,
  SuiteTestFn,
} from './conformance-options.js';
export { ManualClock, settle } from './manual-clock.js';
export { ConformanceFailure } from './expect.js';
export type { ConformanceSubject, FactoryContext, SubjectFactory } from './subject.js';
export type { Requirement } from './requirement.js';
export { RULES, UNTESTED_RULES } from './rule-catalogue.js';
export type { Rule, RuleId } from './rule-catalogue.js';
export { ReferenceModel } from './reference-model.js';
export type { ModelBooking, ModelBucket, ModelCancellation, ModelOutcome, ModelSnapshotEntry } from './reference-model.js';
export {
  HORIZON_MS,
  MAX_AMOUNT,
  MODEL_EPS,
  addUp,
  bucketId,
  formatNumber,
  isWindow,
  mergeChecks,
  modelKey,
  msPerToken,
  normalizeLimit,
  normalizeModelLimit,
  normalizeWindowLimit,
  roundWait,
  toleranceOf,
} from './model-arithmetic.js';
export type { ModelCheck, ModelKey, ModelLimit } from './model-arithmetic.js';
export { EXACT_WINDOWS } from './window-log.js';
export type { ModelWindow, WindowBook, WindowSend, WindowState } from './window-log.js';
export { ALL_TESTS } from './rules/all-tests.js';
export type { ConformanceTest, Spawned, TestContext } from './conformance-test.js';
export { ConformanceProfile, CORE_LETTERS } from './conformance-profile.js';
