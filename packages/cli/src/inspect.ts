import type { BucketSnapshot, ErrorResult } from '@core/rate-limit-contract';
import { connectRedis } from './connect-redis.js';
import { formatTable } from './format-table.js';

/** Options of {@link runInspect}. */
export interface InspectOptions {
  readonly redisUrl: string;
  readonly prefix: string;
  readonly intervalMs: number;
  readonly once: boolean;
  readonly out: NodeJS.WritableStream & { isTTY?: boolean };
  /** Ends the refresh loop (Ctrl-C). */
  readonly signal?: AbortSignal;
}

function num(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

/** The budget panel: one row per live bucket, credentials hashed (RL-K3). */
export function bucketTable(buckets: readonly BucketSnapshot[]): string {
  const sorted = [...buckets].sort((a, b) =>
    a.venue !== b.venue ? (a.venue < b.venue ? -1 : 1) : a.axis !== b.axis ? (a.axis < b.axis ? -1 : 1) : (a.credentialHash ?? '') < (b.credentialHash ?? '') ? -1 : 1,
  );
  return formatTable(
    ['venue', 'credential (hash)', 'axis', 'borrowed / capacity', 'used', 'refill/s', 'hold'],
    sorted.map((b) => [
      b.venue,
      b.credentialHash === null ? 'public' : b.credentialHash.slice(0, 12),
      b.axis,
      `${num(b.borrowed)} / ${num(b.capacity)}`,
      b.capacity > 0 ? `${((b.borrowed / b.capacity) * 100).toFixed(0)}%` : '-',
      num(b.refillPerSec),
      b.heldUntilMs === undefined ? '' : 'held',
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
  const tty = options.out.isTTY === true && !options.once;
  try {
    for (;;) {
      // every step of a snapshot answers within the limiter's timeout, or the snapshot is a typed error
      const buckets = await redis.limiter.snapshot();
      if (!Array.isArray(buckets)) {
        options.out.write(`lost Redis at ${options.redisUrl}: ${(buckets as ErrorResult).error.message}\n`);
        return 1;
      }
      const heading = `${new Date().toISOString()}  ${options.redisUrl}  prefix ${options.prefix}  ${buckets.length} live bucket(s)`;
      const body = buckets.length === 0 ? '(no live buckets: nothing has been admitted recently under this prefix)' : bucketTable(buckets);
      options.out.write(`${tty ? '\x1b[2J\x1b[H' : ''}${heading}\n${body}\n${tty ? '\n(Ctrl-C to stop)\n' : '\n'}`);
      if (options.once || options.signal?.aborted === true) return 0;
      const stopped = await new Promise<boolean>((resolve) => {
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
      if (stopped) return 0;
    }
  } finally {
    await redis.close();
  }
}
