import type { Capabilities, Limit, ProviderRateLimiter, RateLimiter } from '@core/rate-limit-contract';
import type { ConformanceOptions } from './conformance-options.js';
import type { ManualClock } from './manual-clock.js';
import type { Requirement } from './requirement.js';
import type { RuleId } from './rule-catalogue.js';
import type { ConformanceSubject } from './subject.js';

/** A limiter built by the factory on its own manual clock. */
export interface Spawned {
  readonly clock: ManualClock;
  readonly limiter: RateLimiter;
  readonly subject: ConformanceSubject;
  /** A second limiter on the same store and clock (the subject's `peer()`), closed with this one. */
  peer(): Promise<RateLimiter>;
  /** Closes the limiter and disposes of the subject (once; the suite also does it after the test). */
  close(): Promise<void>;
}

/** What a test body receives: a fresh limiter on a manual clock, and the subject's hooks. */
export interface TestContext extends Spawned {
  readonly capabilities: Capabilities;
  readonly options: ConformanceOptions;
  /** Another fresh limiter on its own clock (property tests build one per run). */
  spawn(): Promise<Spawned>;
  /** The limiter wrapped in the host contract (only for tests that need `provider`). */
  provider(limits: ProviderLimits): Promise<ProviderRateLimiter>;
}

/** Provider names and their limits, for the RL-P tests. */
export type ProviderLimits = Readonly<Record<string, Limit>>;

/** One test of the suite: a rule id, the rest of the title, what it needs, and its body. */
export interface ConformanceTest {
  readonly rule: RuleId;
  readonly title: string;
  readonly needs: readonly Requirement[];
  /** Property tests get the longer timeout. */
  readonly property?: boolean;
  readonly run: (t: TestContext) => Promise<void>;
}

/** Builds a {@link ConformanceTest} (reads better in the rule files). */
export function test(rule: RuleId, title: string, needs: readonly Requirement[], run: (t: TestContext) => Promise<void>): ConformanceTest {
  return { rule, title, needs, run };
}

/** Builds a property {@link ConformanceTest}. */
export function property(rule: RuleId, title: string, needs: readonly Requirement[], run: (t: TestContext) => Promise<void>): ConformanceTest {
  return { rule, title, needs, run, property: true };
}
