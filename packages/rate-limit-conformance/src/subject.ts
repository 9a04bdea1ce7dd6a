import type { RateLimiter } from '@core/rate-limit-contract';
import type { ManualClock } from './manual-clock.js';

/** What a factory builds for one test: a fresh, isolated limiter and optional fault hooks. */
export interface ConformanceSubject {
  readonly limiter: RateLimiter;
  /**
   * Makes the store unreachable (or too slow) until {@link ConformanceSubject.repairStore}; the
   * RL-F1 fail-closed tests are skipped when absent.
   */
  breakStore?(): void | Promise<void>;
  repairStore?(): void | Promise<void>;
  /**
   * Builds a second limiter on the same store and the same clock, as another process would (for
   * `capabilities.distributed` implementations). The suite closes it after the test. The tests of
   * sharing across processes are skipped when absent.
   */
  peer?(): RateLimiter | Promise<RateLimiter>;
  /**
   * Lists the names of what the limiter stored (for example Redis keys under the test's prefix), so
   * RL-K3 can check that no name holds a raw credential. Skipped when absent.
   */
  storageKeys?(): readonly string[] | Promise<readonly string[]>;
  /** Releases what the factory made (closing the limiter is done by the suite). */
  dispose?(): void | Promise<void>;
}

/** The context handed to a factory. */
export interface FactoryContext {
  /** The manual clock the suite controls; an implementation with `injectableClock` must use it. */
  readonly clock: ManualClock;
}

/** Builds a fresh, isolated limiter for each test. */
export type SubjectFactory = (context: FactoryContext) => ConformanceSubject | Promise<ConformanceSubject>;
