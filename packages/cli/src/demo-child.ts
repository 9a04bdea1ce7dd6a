import { getVenueSpec } from '@core/exchange-specs';
import { connectRedis } from './connect-redis.js';
import { emptyCounts, runWorkers } from './run-workers.js';
import { lanesFor } from './workloads.js';

/** The job a demo child process gets from its parent. */
export interface ChildJob {
  readonly type: 'start';
  readonly venue: string;
  readonly baseUrl: string;
  readonly redisUrl: string;
  readonly prefix: string;
  readonly credentials: readonly string[];
  readonly workerIds: readonly number[];
  readonly durationMs: number;
  readonly margin: number;
}

/** What a child reports: progress, its end, or a failure. */
export type ChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly counts: ReturnType<typeof emptyCounts> }
  | { readonly type: 'done'; readonly counts: ReturnType<typeof emptyCounts>; readonly failure?: string };

function send(m: ChildMessage): Promise<void> {
  return new Promise((resolve) => {
    // The parent may have hung up (it stops every child when one fails): then there is no one to tell.
    if (process.send === undefined || !process.connected) return resolve();
    try {
      process.send(m, undefined, {}, () => resolve());
    } catch {
      resolve();
    }
  });
}

/**
 * A demo worker process: connects its own Redis limiter, runs its share of the workers, reports
 * progress every 250 ms and its counts at the end, then exits (1 on failure).
 */
async function main(job: ChildJob): Promise<number> {
  const counts = emptyCounts();
  let failure: string | undefined;
  let redis;
  try {
    redis = await connectRedis(job.redisUrl, job.prefix);
  } catch (e) {
    await send({ type: 'done', counts, failure: (e as Error).message });
    return 1;
  }
  const ticker = setInterval(() => void send({ type: 'progress', counts }), 250);
  const stop = new AbortController();
  process.once('disconnect', () => stop.abort());
  try {
    await send({ type: 'ready' });
    const spec = getVenueSpec(job.venue);
    const r = await runWorkers(
      { spec, baseUrl: job.baseUrl, limiter: redis.limiter, credentials: job.credentials, lanes: lanesFor(spec), workerIds: job.workerIds, durationMs: job.durationMs, margin: job.margin, signal: stop.signal },
      counts,
    );
    failure = r.failure;
  } catch (e) {
    failure = (e as Error).message;
  } finally {
    clearInterval(ticker);
    await redis.close();
  }
  await send(failure === undefined ? { type: 'done', counts } : { type: 'done', counts, failure });
  return failure === undefined ? 0 : 1;
}

process.once('message', (job: ChildJob) => {
  main(job).then(
    (code) => {
      if (process.connected) process.disconnect();
      process.exitCode = code;
    },
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
});
