import type { BucketSnapshot, ErrorResult } from '@core/rate-limit-contract';
import { instrumentRateLimiter } from '@core/rate-limit-metrics';
import { connectRedis } from './connect-redis.js';
import { describeDocumented, describeNow, documentedBucket } from './documented-bucket.js';
import { formatTable } from './format-table.js';
import { startMetricsEndpoint, type MetricsEndpoint } from './metrics-endpoint.js';

/** Options of {@link runInspect}. */
export interface InspectOptions {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly intervalMs: number;
  readonly once: boolean;
  readonly out: NodeJS.WritableStream & { isTTY?: boolean };
  /** Ends the refresh loop (Ctrl-C). */
  readonly signal?: AbortSignal;
  /** Serve the buckets as Prometheus metrics at `http://127.0.0.1:<metricsPort>/metrics` while it runs. */
  readonly metricsPort?: number | undefined;
  /** Print each refresh as one line of JSON instead of a table. */
  readonly json?: boolean;
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n < 10 ? n.toFixed(2) : n.toFixed(1);
}

function sorted(buckets: readonly BucketSnapshot[]): BucketSnapshot[] {
  return [...buckets].sort((a, b) =>
    a.venue !== b.venue
      ? a.venue < b.venue
        ? -1
        : 1
      : a.axis !== b.axis
        ? a.axis < b.axis
          ? -1
          : 1
        : (a.credentialHash ?? '') < (b.credentialHash ?? '')
          ? -1
          : 1,
  );
}

/** One live bucket as data: the snapshot, the documented limit it keeps under, and what it holds now. */
export interface InspectedBucket extends BucketSnapshot {
  /** The venue's documented limit in words, or `null` when the venue or axis is not in exchange-specs. */
  readonly documentedLimit: string | null;
  readonly tier?: string;
  /** The limit is ccxt's pacing of a ccxt-derived spec, an estimate, not the venue's documentation. */
  readonly estimated?: true;
  /** The most the limiter lets through per documented window, as a share of the limit (see `documentedBucket`). */
  readonly paceShare: number | null;
  /** `free …`, `queue … s`, `used … of …` or `held … s`. */
  readonly now: string;
}

/** The live buckets as data, sorted, each set against its documented limit. */
export function inspectBuckets(buckets: readonly BucketSnapshot[], nowMs: number): InspectedBucket[] {
  return sorted(buckets).map((b) => {
    const d = documentedBucket(b);
    return {
      ...b,
      documentedLimit: d.documented === null ? null : describeDocumented(d.documented),
      ...(d.tier === undefined ? {} : { tier: d.tier }),
      ...(d.estimated === undefined ? {} : { estimated: d.estimated }),
      paceShare: d.paceShare,
      now: describeNow(b, nowMs),
    };
  });
}

/**
 * The budget panel: one row per live bucket, credentials hashed (RL-K3), each against the venue's
 * documented limit: the limit, the limiter's bucket (a safe limit below it), the most that bucket lets
 * through per documented window as a share of the limit, and what it holds now. Borrowed above the
 * capacity is bookings waiting their turn, shown as a queue in seconds, never as usage above 100 %.
 */
export function bucketTable(buckets: readonly BucketSnapshot[], nowMs: number = Date.now()): string {
  return formatTable(
    ['venue', 'credential (hash)', 'axis', 'documented limit', 'limiter bucket', 'most per window', 'now'],
    inspectBuckets(buckets, nowMs).map((b) => [
      b.venue,
      b.credentialHash === null ? 'public' : b.credentialHash.slice(0, 12),
      b.axis,
      b.documentedLimit === null
        ? 'not in exchange-specs'
        : `${b.documentedLimit}${b.tier === undefined ? '' : ` (${b.tier})`}${b.estimated === true ? ' (ccxt estimate)' : ''}`,
      `${num(b.capacity)} cap, ${num(b.refillPerSec)}/s`,
      b.paceShare === null ? 'n/a' : `${(b.paceShare * 100).toFixed(1)}%`,
      b.now,
    ]),
  );
}

/**
 * Shows the buckets of a Redis store, refreshed every `intervalMs` until the signal fires (or once).
 *
 * @returns the exit code: 0, or 1 when Redis stops answering.
 * @throws Error when Redis cannot be reached at the start.
 */
export async function runInspect(options: InspectOptions): Promise<number> {
  const redis = await connectRedis(options.redisUrl, options.prefix);
  let metrics: MetricsEndpoint | undefined;
  try {
    if (options.metricsPort !== undefined) metrics = await startMetricsEndpoint(options.metricsPort);
  } catch (e) {
    await redis.close();
    throw e;
  }
  const limiter = metrics === undefined ? redis.limiter : instrumentRateLimiter(redis.limiter, { meterProvider: metrics.meterProvider });
  const json = options.json === true;
  const tty = options.out.isTTY === true && !options.once && !json;
  if (metrics !== undefined && !json) options.out.write(`metrics (Prometheus): ${metrics.url}\n`);
  try {
    for (;;) {
      // every step of a snapshot answers within the limiter's timeout, or the snapshot is a typed error
      const buckets = await limiter.snapshot();
      if (!Array.isArray(buckets)) {
        options.out.write(`lost Redis at ${options.redisUrl}: ${(buckets as ErrorResult).error.message}\n`);
        return 1;
      }
      if (json) {
        const at = Date.now();
        options.out.write(
          `${JSON.stringify({ at: new Date(at).toISOString(), redis: options.redisUrl, prefix: options.prefix, buckets: inspectBuckets(buckets, at) })}\n`,
        );
        if (options.once || options.signal?.aborted === true) return 0;
        if (await pause(options)) return 0;
        continue;
      }
      const heading = `${new Date().toISOString()}  ${options.redisUrl}  prefix ${options.prefix}  ${buckets.length} live bucket(s)`;
      const body = buckets.length === 0 ? '(no live buckets: nothing has been admitted recently under this prefix)' : bucketTable(buckets);
      options.out.write(`${tty ? '\x1b[2J\x1b[H' : ''}${heading}\n${body}\n${tty ? '\n(Ctrl-C to stop)\n' : '\n'}`);
      if (options.once || options.signal?.aborted === true) return 0;
      if (await pause(options)) return 0;
    }
  } finally {
    await redis.close();
    await metrics?.close();
  }
}

/** Waits `intervalMs`; answers `true` when the signal fired meanwhile. */
function pause(options: InspectOptions): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const t = setTimeout(() => {
      options.signal?.removeEventListener('abort', onAbort);
      resolve(false);
    }, options.intervalMs);
    const onAbort = (): void => {
      clearTimeout(t);
      resolve(true);
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
