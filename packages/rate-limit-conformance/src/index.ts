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
export {
  ReferenceModel,
  MODEL_EPS,
  bucketId,
  mergeChecks,
  modelKey,
  msPerToken,
  normalizeLimit,
  roundWait,
} from './reference-model.js';
export type {
  ModelBooking,
  ModelBucket,
  ModelCheck,
  ModelKey,
  ModelOutcome,
  ModelSnapshotEntry,
} from './reference-model.js';
export { ALL_TESTS } from './rules/all-tests.js';
export type { ConformanceTest, Spawned, TestContext } from './conformance-test.js';
