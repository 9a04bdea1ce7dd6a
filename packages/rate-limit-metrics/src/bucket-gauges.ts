import type { Attributes, BatchObservableCallback, BatchObservableResult, Meter, Observable } from '@opentelemetry/api';
import type { BucketSnapshot, RateLimiter } from '@core/rate-limit-contract';
import type { LimiterInstruments } from './limiter-instruments.js';
import { ATTR, METRIC, isPacingAxis } from './names.js';

/** What a limiter may report about its record buffer (the Redis limiter's `recordStats()`, a third party's). */
export interface RecordStatsLike {
  /** Records waiting for the store now. */
  readonly buffered: number;
  /** Records dropped so far (cumulative). */
  readonly dropped: number;
}

/** The record statistics a limiter offers, read by duck typing: `recordStats()`, else `stats().recordsDropped`. */
export function recordStatsOf(limiter: RateLimiter): (() => RecordStatsLike | { readonly dropped: number }) | undefined {
  const l = limiter as unknown as { recordStats?: () => unknown; stats?: () => unknown };
  if (typeof l.recordStats === 'function') {
    return () => {
      const r = (l.recordStats as () => Partial<RecordStatsLike>).call(limiter);
      return { buffered: Number(r.buffered ?? 0), dropped: Number(r.dropped ?? 0) };
    };
  }
  if (typeof l.stats === 'function') {
    return () => {
      const r = (l.stats as () => { recordsDropped?: unknown }).call(limiter);
      return { dropped: Number(r.recordsDropped ?? 0) };
    };
  }
  return undefined;
}

/** The venue's limit a live bucket keeps under, for the limit and utilization gauges. */
export interface DocumentedLimit {
  /** Per window for a window limit; a token bucket's capacity. */
  readonly limit: number;
  /** The venue's tier whose limit it is (absent: the default). */
  readonly tier?: string;
}

/**
 * The default `documentedLimit`: a window limit's own `perWindow` (the paced clients keep a venue's window
 * at its documented number, the tier in force, and leave the margin to the jitter allowance); nothing for a
 * token bucket, whose capacity is a safe limit below the venue's.
 */
export function windowLimitOf(b: BucketSnapshot): DocumentedLimit | undefined {
  return b.windowMs === undefined ? undefined : { limit: b.capacity };
}

/** Options of {@link observeBuckets}. */
export interface BucketGaugeOptions {
  /** The venue's limit of a live bucket (default {@link windowLimitOf}); `undefined` for none. */
  readonly documentedLimit?: (bucket: BucketSnapshot) => DocumentedLimit | undefined;
  /** At most this many live buckets get gauge series, the fullest first (borrowed / capacity). */
  readonly maxBucketSeries: number;
  /** Whether to read the live buckets (`snapshot()`) at each collection. */
  readonly buckets: boolean;
}

/** The credential attribute: 12 hex digits of the one-way hash (RL-K3); none for the public pool. */
function bucketAttrs(b: BucketSnapshot): Attributes {
  return b.credentialHash === null
    ? { [ATTR.venue]: b.venue, [ATTR.axis]: b.axis }
    : { [ATTR.venue]: b.venue, [ATTR.axis]: b.axis, [ATTR.credentialHash]: b.credentialHash.slice(0, 12) };
}

function fill(b: BucketSnapshot): number {
  return b.capacity > 0 ? b.borrowed / b.capacity : b.borrowed > 0 ? Infinity : 0;
}

/**
 * Registers the observed instruments of a limiter in one batch callback: per live bucket its borrowed
 * amount and capacity, a window limit's counted cost, and where exchange-specs documents the bucket the
 * venue's limit (the tier in force) and the utilization (counted over that limit) (from `snapshot()` at
 * each collection, at most `maxBucketSeries` of them, the fullest first; a paced client's pacing buckets
 * left out, no limits of the venue), the number of live buckets, the record buffer's depth and drops when the limiter
 * reports them, and the totals of `instruments` (decisions, store failures). A snapshot that answers
 * `backend_unavailable` is counted in the same collection; once a snapshot answers `closed` the
 * buckets are no longer read (the counters keep their totals).
 *
 * @returns a function that unregisters them.
 */
export function observeBuckets(meter: Meter, limiter: RateLimiter, instruments: LimiterInstruments, options: BucketGaugeOptions): () => void {
  const observables: Observable[] = [];
  const withBuckets = options.buckets && limiter.capabilities.snapshot;
  const documentedLimitOf = options.documentedLimit ?? windowLimitOf;
  const borrowed = withBuckets
    ? meter.createObservableGauge(METRIC.bucketBorrowed, {
        description: "A live bucket's borrowed amount: capacity minus tokens now, bookings included.",
        unit: '{token}',
      })
    : undefined;
  const capacity = withBuckets
    ? meter.createObservableGauge(METRIC.bucketCapacity, { description: "A live bucket's capacity, the limit the limiter enforces.", unit: '{token}' })
    : undefined;
  const limit = withBuckets
    ? meter.createObservableGauge(METRIC.bucketLimit, {
        description: "The venue's documented limit a live bucket keeps under (per window; a token bucket's capacity), the tier in force.",
        unit: '{token}',
      })
    : undefined;
  const counted = withBuckets
    ? meter.createObservableGauge(METRIC.bucketCounted, {
        description: 'What a live window limit counts in the window ending now: its sends and records, not its bookings.',
        unit: '{token}',
      })
    : undefined;
  const utilization = withBuckets
    ? meter.createObservableGauge(METRIC.bucketUtilization, {
        description: "A live window limit's counted over the venue's documented limit: the share of the limit in use now.",
        unit: '1',
      })
    : undefined;
  const count = withBuckets ? meter.createObservableGauge(METRIC.buckets, { description: 'Live buckets in the store.', unit: '{bucket}' }) : undefined;
  const stats = recordStatsOf(limiter);
  const depth =
    stats !== undefined
      ? meter.createObservableGauge(METRIC.recordBufferDepth, { description: 'Records waiting in the record buffer for the store.', unit: '{record}' })
      : undefined;
  const dropped =
    stats !== undefined
      ? meter.createObservableCounter(METRIC.recordsDropped, {
          description: 'Records dropped: buffer full, invalid input, or the limiter closed.',
          unit: '{record}',
        })
      : undefined;
  for (const o of [borrowed, capacity, limit, counted, utilization, count, depth, dropped]) if (o !== undefined) observables.push(o);
  observables.push(...instruments.observables);
  let closed = false;

  const callback: BatchObservableCallback = async (result) => {
    await observeLimiter(result);
    // after the snapshot, so a failed snapshot is in this collection's totals
    instruments.report(result);
  };
  const observeLimiter = async (result: BatchObservableResult): Promise<void> => {
    if (stats !== undefined) {
      try {
        const s = stats();
        if (depth !== undefined && 'buffered' in s) result.observe(depth, s.buffered);
        if (dropped !== undefined) result.observe(dropped, s.dropped);
      } catch {
        // statistics are best effort
      }
    }
    if (borrowed === undefined || capacity === undefined || limit === undefined || counted === undefined || utilization === undefined) return;
    if (count === undefined || closed) return;
    const answer = await limiter.snapshot();
    if (!Array.isArray(answer)) {
      const code = (answer as { error?: { code?: string } }).error?.code;
      if (code === 'backend_unavailable') instruments.unavailable('snapshot');
      if (code === 'closed') closed = true; // the limiter is gone: its buckets with it
      return;
    }
    // a paced client's pacing buckets spread a limit's sends; they are no limit of the venue
    const buckets = (answer as readonly BucketSnapshot[]).filter((b) => !isPacingAxis(b.axis));
    result.observe(count, buckets.length);
    const shown = buckets.length <= options.maxBucketSeries ? buckets : [...buckets].sort((a, b) => fill(b) - fill(a)).slice(0, options.maxBucketSeries);
    for (const b of shown) {
      const attrs = bucketAttrs(b);
      result.observe(borrowed, b.borrowed, attrs);
      result.observe(capacity, b.capacity, attrs);
      if (b.counted !== undefined) result.observe(counted, b.counted, attrs);
      const d = documentedLimitOf(b);
      if (d === undefined || !(d.limit > 0)) continue;
      result.observe(limit, d.limit, d.tier === undefined ? attrs : { ...attrs, [ATTR.tier]: d.tier });
      if (b.counted !== undefined) result.observe(utilization, b.counted / d.limit, attrs);
    }
  };
  let stopped = false;
  const stop = (): void => {
    if (stopped) return;
    stopped = true;
    meter.removeBatchObservableCallback(callback, observables);
  };
  meter.addBatchObservableCallback(callback, observables);
  return stop;
}
