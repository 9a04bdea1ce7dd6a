import type { Limit, ProviderRateLimiter, RateLimiter } from '@core/rate-limit-contract';
import type { ManualClock } from './manual-clock.js';
import type { SubjectFactory } from './subject.js';

/** A test body as the suite registers it. */
export type SuiteTestFn = () => Promise<void>;

/**
 * The runner's `it`/`test` (vitest, node:test, jest, mocha…). The suite calls
 * `it(title, fn, timeoutMs)` and `it.skip(title, fn)`; a runner that ignores the third argument
 * (node:test) runs without a per-test timeout.
 */
export interface SuiteIt {
  (title: string, fn: SuiteTestFn, timeoutMs?: number): unknown;
  readonly skip?: (title: string, fn: SuiteTestFn) => unknown;
}

/** The runner's `describe`. */
export type SuiteDescribe = (title: string, fn: () => void) => unknown;

/** What the suite hands a provider factory: the limiter under test and the providers it uses. */
export interface ProviderContext {
  readonly limiter: RateLimiter;
  readonly clock: ManualClock;
  /** The limit of each provider name the provider tests use (a provider is one bucket per credential). */
  readonly limits: Readonly<Record<string, Limit>>;
}

/** Wraps a bucket-level limiter in the host contract (for example `createProviderRateLimiter`). */
export type ProviderFactory = (context: ProviderContext) => ProviderRateLimiter | Promise<ProviderRateLimiter>;

/** Options of {@link runConformanceSuite}. */
export interface ConformanceOptions {
  /** The runner's `describe`. */
  readonly describe: SuiteDescribe;
  /** The runner's `it` (its `skip` is used for tests the implementation cannot run). */
  readonly it: SuiteIt;
  /** The implementation's name, shown in the top-level describe. */
  readonly name: string;
  /** Builds a fresh, isolated limiter for each test. */
  readonly factory: SubjectFactory;
  /** Wraps a limiter in the host contract; the RL-P tests are skipped without it. */
  readonly provider?: ProviderFactory;
  /** fast-check runs per property (default 60). */
  readonly propertyRuns?: number;
  /** fast-check seed, to replay a failure. */
  readonly propertySeed?: number;
  /** Per-test timeout passed to the runner, in real milliseconds (default 30 000). */
  readonly timeoutMs?: number;
  /** Per-property timeout passed to the runner, in real milliseconds (default 180 000). */
  readonly propertyTimeoutMs?: number;
  /**
   * Real milliseconds the suite waits for an implementation to react (start a waiter's timer,
   * settle a promise after a timer fired) before a test fails (default 5 000).
   */
  readonly realTimeoutMs?: number;
  /** Shrink a property's counterexample before reporting it (default true; false fails faster). */
  readonly shrink?: boolean;
  /** Registers only the tests whose title this accepts (for example one rule while debugging). */
  readonly filter?: (title: string) => boolean;
}
