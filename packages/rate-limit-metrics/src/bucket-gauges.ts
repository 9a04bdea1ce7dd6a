import type { Attributes, BatchObservableCallback, BatchObservableResult, Meter, Observable } from '@opentelemetry/api';
import type { BucketSnapshot, RateLimiter } from '@core/rate-limit-contract';
import type { LimiterInstruments } from './limiter-instruments.js';
import { ATTR, METRIC } from './names.js';

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

/** Options of {@link observeBuckets}. */
export interface BucketGaugeOptions {
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
 * amount and capacity (from `snapshot()` at each collection, at most `maxBucketSeries` of them, the
 * fullest first), the number of live buckets, the record buffer's depth and drops when the limiter
 * reports them, and the totals of `instruments` (decisions, store failures). A snapshot that answers
 * `backend_unavailable` is counted in the same collection; once a snapshot answers `closed` the
 * buckets are no longer read (the counters keep their totals).
 *
 * @returns a function that unregisters them.
 */
export function observeBuckets(meter: Meter, limiter: RateLimiter, instruments: LimiterInstruments, options: BucketGaugeOptions): () => void {
  const observables: Observable[] = [];
  const withBuckets = options.buckets && limiter.capabilities.snapshot;
  const borrowed = withBuckets
    ? meter.createObservableGauge(METRIC.bucketBorrowed, {
        description: "A live bucket's borrowed amount: capacity minus tokens now, bookings included.",
        unit: '{token}',
      })
    : undefined;
  const capacity = withBuckets
    ? meter.createObservableGauge(METRIC.bucketCapacity, { description: "A live bucket's capacity, the limit the limiter enforces.", unit: '{token}' })
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
  for (const o of [borrowed, capacity, count, depth, dropped]) if (o !== undefined) observables.push(o);
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
    if (borrowed === undefined || capacity === undefined || count === undefined || closed) return;
    const answer = await limiter.snapshot();
    if (!Array.isArray(answer)) {
      const code = (answer as { error?: { code?: string } }).error?.code;
      if (code === 'backend_unavailable') instruments.unavailable('snapshot');
      if (code === 'closed') closed = true; // the limiter is gone: its buckets with it
      return;
    }
    const buckets = answer as readonly BucketSnapshot[];
    result.observe(count, buckets.length);
    const shown = buckets.length <= options.maxBucketSeries ? buckets : [...buckets].sort((a, b) => fill(b) - fill(a)).slice(0, options.maxBucketSeries);
    for (const b of shown) {
      const attrs = bucketAttrs(b);
      result.observe(borrowed, b.borrowed, attrs);
      result.observe(capacity, b.capacity, attrs);
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
