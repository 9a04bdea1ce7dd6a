import { getVenueSpec, venueEvidence, type VenueEvidence } from '@core/exchange-specs';
import type { BucketUsage } from '@core/venue-emulator';
import type { WorkerCounts } from './run-workers.js';
import type { ClassWaitSummary } from './summary-table.js';

/** One limit a demo run touched, as data (the summary table's row). */
export interface BucketSummary {
  readonly bucket: string;
  readonly axis: string;
  /** 12 hex digits of the credential's hash, or `null` for an IP bucket. */
  readonly credentialHash: string | null;
  readonly algorithm: BucketUsage['algorithm'];
  /** The limit per window (a token bucket's capacity). */
  readonly limit: number;
  readonly windowMs: number;
  readonly refillPerSec?: number;
  readonly admittedCost: number;
  readonly admittedRequests: number;
  /** The highest counter level over the limit (0..1), `null` for a limit of 0. */
  readonly peak: number | null;
  /** Cost per complete window over the limit (0..1), `null` when no window completed during the run. */
  readonly utilization: number | null;
  readonly refused: number;
}

/** A demo run's summary as data (`exlimits demo --json`). */
export interface DemoSummary {
  readonly venue: string;
  /** Whether the limits are the venue's documented ones or estimated from ccxt. */
  readonly limits: VenueEvidence;
  readonly seconds: number;
  readonly mode: string;
  readonly venueCounts: {
    readonly received: number;
    readonly admitted: number;
    readonly refused: number;
    readonly bans: number;
    readonly badRequests: number;
    /** Requests the emulated venue failed on purpose (`--fail-orders`). */
    readonly failed: number;
  };
  readonly workers: WorkerCounts;
  readonly buckets: readonly BucketSummary[];
  readonly chart: string;
  /** How long each class's requests waited for their send times (p50, p99, max, ms). */
  readonly waits?: readonly ClassWaitSummary[];
  readonly failure?: string;
}

/** What {@link demoSummary} reads from a run. */
export interface SummaryInput {
  readonly venue: string;
  readonly seconds: number;
  readonly mode: string;
  readonly counts: WorkerCounts;
  readonly stats: {
    readonly requests: number;
    readonly admitted: number;
    readonly violations: number;
    readonly refusedWhileBanned: number;
    readonly bans: number;
    readonly badRequests: number;
    readonly failed?: number;
    readonly buckets: readonly BucketUsage[];
  };
  readonly chartPath: string;
  readonly waits?: readonly ClassWaitSummary[];
  readonly failure?: string;
}

/** The summary of a demo run as plain data, without the per-window series (those are in the chart). */
export function demoSummary(r: SummaryInput): DemoSummary {
  const buckets = r.stats.buckets.map(
    (b): BucketSummary => ({
      bucket: b.bucketId,
      axis: b.axis,
      credentialHash: b.credentialHash,
      algorithm: b.algorithm,
      limit: b.limit,
      windowMs: b.windowMs,
      ...(b.refillPerSec === undefined ? {} : { refillPerSec: b.refillPerSec }),
      admittedCost: b.admittedCost,
      admittedRequests: b.admittedRequests,
      peak: b.limit > 0 ? b.peakUsed / b.limit : null,
      utilization: b.utilization,
      refused: b.refusals,
    }),
  );
  return {
    venue: r.venue,
    limits: venueEvidence(getVenueSpec(r.venue)),
    seconds: r.seconds,
    mode: r.mode,
    venueCounts: {
      received: r.stats.requests,
      admitted: r.stats.admitted,
      refused: r.stats.violations + r.stats.refusedWhileBanned,
      bans: r.stats.bans,
      badRequests: r.stats.badRequests,
      failed: r.stats.failed ?? 0,
    },
    workers: { ...r.counts },
    buckets,
    chart: r.chartPath,
    ...(r.waits === undefined ? {} : { waits: r.waits }),
    ...(r.failure === undefined ? {} : { failure: r.failure }),
  };
}
