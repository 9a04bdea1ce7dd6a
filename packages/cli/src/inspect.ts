import type { BucketSnapshot, ErrorResult } from '@core/rate-limit-contract';
import { paceAxis } from '@core/paced-fetch';
import { instrumentRateLimiter } from '@core/rate-limit-metrics';
import { connectRedis } from './connect-redis.js';
import { describeDocumented, describeNow } from './describe-bucket.js';
import { documentedBucket, documentedLimitOf } from './documented-bucket.js';
import { explainEmptyPanel } from './empty-panel.js';
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

/** The suffix of a paced client's internal pacing bucket (paced-fetch's `paceAxis`): `<axis>/pace`. */
const PACE_SUFFIX = paceAxis('');

/** An internal pacing bucket, grouped under the window limit it paces. */
export interface PacingBucket {
  readonly axis: string;
  readonly capacity: number;
  readonly refillPerSec: number;
  readonly tokens: number;
  readonly borrowed: number;
}

/** One live limit as data: the snapshot, the documented limit it keeps under, and what it holds now. */
export interface InspectedBucket extends BucketSnapshot {
  /** The venue's documented limit in words (the tier in force), or `null` when the venue or axis is not in exchange-specs. */
  readonly documentedLimit: string | null;
  readonly tier?: string;
  /** The limit is ccxt's pacing of a ccxt-derived spec, an estimate, not the venue's documentation. */
  readonly estimated?: true;
  /** The most the limiter lets the venue count per documented window over time, as a share of the limit (see `documentedBucket`). */
  readonly mostPerWindow: number | null;
  /** A window limit's cost counted in the window ending now over the documented limit (see `documentedBucket`). */
  readonly countedShare: number | null;
  /** `free …`, `full`, `queue … s`, `used … of …` or `held … s`. */
  readonly now: string;
  /** The paced client's internal pacing bucket of this limit (it spreads a window's sends; the venue never sees it). */
  readonly pacing?: PacingBucket;
}

/** The live buckets as data, sorted, each set against its documented limit; pacing buckets grouped under their limits. */
export function inspectBuckets(buckets: readonly BucketSnapshot[], nowMs: number): InspectedBucket[] {
  const limits = sorted(buckets.filter((b) => !b.axis.endsWith(PACE_SUFFIX)));
  const pacing = new Map(buckets.filter((b) => b.axis.endsWith(PACE_SUFFIX)).map((b) => [`${b.venue}\t${b.credentialHash}\t${b.axis}`, b]));
  return limits.map((b) => {
    const d = documentedBucket(b);
    const pace = pacing.get(`${b.venue}\t${b.credentialHash}\t${b.axis}${PACE_SUFFIX}`);
    return {
      ...b,
      documentedLimit: d.documented === null ? null : describeDocumented(d.documented),
      ...(d.tier === undefined ? {} : { tier: d.tier }),
      ...(d.estimated === undefined ? {} : { estimated: d.estimated }),
      mostPerWindow: d.mostPerWindow,
      countedShare: d.countedShare,
      now: describeNow(b, nowMs),
      ...(pace === undefined
        ? {}
        : { pacing: { axis: pace.axis, capacity: pace.capacity, refillPerSec: pace.refillPerSec, tokens: pace.tokens, borrowed: pace.borrowed } }),
    };
  });
}

function pct(x: number | null): string {
  return x === null ? 'n/a' : `${(x * 100).toFixed(1)}%`;
}

/** The limiter's own limit in words: a window limit `60 / 2 s +100 ms`, a token bucket `1 cap, 4.20/s`. */
function limiterLimit(b: BucketSnapshot): string {
  if (b.windowMs === undefined) return `${num(b.capacity)} cap, ${num(b.refillPerSec)}/s`;
  const w = b.windowMs % 60_000 === 0 ? `${b.windowMs / 60_000} min` : `${num(b.windowMs / 1000)} s`;
  return `${num(b.capacity)} / ${w}${b.jitterMs === undefined ? '' : ` +${num(b.jitterMs)} ms`}`;
}

/**
 * The budget panel: one row per live limit, credentials hashed (RL-K3), each against the venue's
 * documented limit (the tier in force): the limit, the limiter's own limit, the most it lets the venue
 * count per window and what it counts in the window ending now (both shares of the documented limit,
 * the demo's arithmetic), and what it holds now. A paced client's internal pacing buckets are not rows:
 * `--json` gives each under the limit it paces.
 */
export function bucketTable(buckets: readonly BucketSnapshot[], nowMs: number = Date.now()): string {
  return formatTable(
    ['venue', 'credential (hash)', 'axis', 'documented limit', 'limiter', 'most per window', 'counted now', 'now'],
    inspectBuckets(buckets, nowMs).map((b) => [
      b.venue,
      b.credentialHash === null ? 'public' : b.credentialHash.slice(0, 12),
      b.axis,
      b.documentedLimit === null
        ? 'not in exchange-specs'
        : `${b.documentedLimit}${b.tier === undefined ? '' : ` (${b.tier})`}${b.estimated === true ? ' (ccxt estimate)' : ''}`,
      limiterLimit(b),
      pct(b.mostPerWindow),
      pct(b.countedShare),
      b.now,
    ]),
  );
}

/**
 * Printed under the panel: why `counted now` may read above the venue's count. The limiter counts again a
 * send whose answer came back late (paced-fetch's late-answer rule, RL-R1: twice, never too little), and a
 * busy machine delays answers; the venue counted the send once.
 */
export const COUNTED_NOW_NOTE = [
  "counted now is the limiter's count: it also counts again a send whose answer came back late (it may have",
  "reached the venue late), so on a busy machine it reads above the venue's count and the demo's utilization,",
  'by one request per such send (10 points each on a limit of 10 per window)',
].join('\n');

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
  const limiter =
    metrics === undefined ? redis.limiter : instrumentRateLimiter(redis.limiter, { meterProvider: metrics.meterProvider, documentedLimit: documentedLimitOf });
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
        const rows = inspectBuckets(buckets, at);
        const empty = rows.length === 0 ? { note: await explainEmptyPanel(options.redisUrl, options.prefix) } : {};
        options.out.write(`${JSON.stringify({ at: new Date(at).toISOString(), redis: options.redisUrl, prefix: options.prefix, buckets: rows, ...empty })}\n`);
        if (options.once || options.signal?.aborted === true) return 0;
        if (await pause(options)) return 0;
        continue;
      }
      const at = Date.now();
      const rows = inspectBuckets(buckets, at);
      const heading = `${new Date(at).toISOString()}  ${options.redisUrl}  prefix ${options.prefix}  ${rows.length} live limit(s)`;
      const body = rows.length === 0 ? await explainEmptyPanel(options.redisUrl, options.prefix) : `${bucketTable(buckets, at)}\n${COUNTED_NOW_NOTE}`;
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
