import type { BucketSnapshot, Clock, Decision, RateLimiter, WaitDecision } from '@core/rate-limit-contract';
import type { LimiterObserver, ObservedOperation, ResolvedKey } from '@core/rate-limit-kit';
import { observeBuckets, type DocumentedLimit } from './bucket-gauges.js';
import { InstrumentedRateLimiter } from './instrumented-rate-limiter.js';
import { LimiterInstruments } from './limiter-instruments.js';
import { meterOf, type MeterChoice } from './meter-of.js';

/** Options of {@link instrumentRateLimiter}. */
export interface RateLimiterMetricsOptions extends MeterChoice {
  /**
   * At most this many (venue, axis) pairs get decision series of their own; further axes are
   * reported as `_other` under their venue. Default 500.
   */
  readonly maxSeries?: number;
  /** At most this many live buckets get borrowed and capacity gauges, the fullest first. Default 200. */
  readonly maxBucketSeries?: number;
  /**
   * Read the live buckets (`snapshot()`) at each collection for the per-bucket gauges. Default `true`
   * when the limiter offers snapshots. A shared store's snapshot scans its keys: turn it off, or
   * collect less often, where that is too costly.
   */
  readonly bucketGauges?: boolean;
  /**
   * The venue's limit a live bucket keeps under, for the `rate_limit.bucket.limit` and
   * `rate_limit.bucket.utilization` gauges. Default: a window limit's own `perWindow` (the paced
   * clients keep it at the venue's documented number); none for a token bucket. `exlimits` passes
   * exchange-specs' documented limit, the tier in force.
   */
  readonly documentedLimit?: (bucket: BucketSnapshot) => DocumentedLimit | undefined;
  /** The clock a wrapped limiter's waits are measured on; default `performance.now()`. */
  readonly clock?: Pick<Clock, 'now'>;
}

/** A limiter built on the kit's front door: it reports its own admissions to an observer. */
export interface ObservableRateLimiter extends RateLimiter {
  setObserver(observer: LimiterObserver | undefined): void;
}

function isObservable(limiter: RateLimiter): limiter is ObservableRateLimiter {
  return typeof (limiter as Partial<ObservableRateLimiter>).setObserver === 'function';
}

function positiveInteger(value: number | undefined, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 1) throw new TypeError(`instrumentRateLimiter: ${name} must be a positive integer (got ${String(value)})`);
  return value;
}

/**
 * Adds OpenTelemetry metrics to any `RateLimiter`: the one place that wires them for every
 * implementation. A limiter built on the kit's front door (`StoreRateLimiter`: the in-process and
 * Redis limiters, a third party's) is instrumented in place by the front door's observer hook and
 * returned as is; any other limiter is returned wrapped (an {@link InstrumentedRateLimiter}) with the
 * same records. Either way the per-bucket gauges and the record statistics are observed at each
 * collection.
 *
 * Nothing is instrumented, and the limiter is returned untouched, when no meter would record:
 * `@opentelemetry/api` not installed, or no meter provider given or registered globally. Register the
 * provider first (an OpenTelemetry meter taken before that stays a no-op).
 *
 * @example
 * ```ts
 * import { createDefaultRateLimiter } from '@core/default-rate-limiter';
 * import { instrumentRateLimiter } from '@core/rate-limit-metrics';
 *
 * const limiter = instrumentRateLimiter(createDefaultRateLimiter());
 * ```
 */
export function instrumentRateLimiter<L extends ObservableRateLimiter>(limiter: L, options?: RateLimiterMetricsOptions): L;
export function instrumentRateLimiter(limiter: RateLimiter, options?: RateLimiterMetricsOptions): RateLimiter;
export function instrumentRateLimiter(limiter: RateLimiter, options: RateLimiterMetricsOptions = {}): RateLimiter {
  const maxSeries = positiveInteger(options.maxSeries, 'maxSeries', 500);
  const maxBucketSeries = positiveInteger(options.maxBucketSeries, 'maxBucketSeries', 200);
  const meter = meterOf(options);
  if (meter === undefined) return limiter;
  const instruments = new LimiterInstruments(meter, maxSeries);
  const stop = observeBuckets(meter, limiter, instruments, {
    maxBucketSeries,
    buckets: options.bucketGauges ?? true,
    ...(options.documentedLimit === undefined ? {} : { documentedLimit: options.documentedLimit }),
  });
  if (isObservable(limiter)) {
    // the counters keep reporting their totals after close(), like any counter of the process
    limiter.setObserver(frontDoorObserver(instruments));
    return limiter;
  }
  const clock = options.clock;
  const now = clock === undefined ? () => performance.now() : () => clock.now();
  return new InstrumentedRateLimiter(limiter, instruments, now, stop);
}

/** The front door's hook, recording into the instruments. */
export function frontDoorObserver(instruments: LimiterInstruments): LimiterObserver {
  return {
    admission(operation: ObservedOperation, n: number, keys: readonly ResolvedKey[], answer: Decision | WaitDecision, waitedMs: number | undefined): void {
      instruments.admission(operation, n, keys, answer, waitedMs);
    },
  };
}
