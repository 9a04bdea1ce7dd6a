import { getVenueSpec } from '@core/exchange-specs';
import { connectRedis, type RedisConnection } from './connect-redis.js';
import { emptyCounts, runWorkers, type ClassWaits } from './run-workers.js';
import { emptyWsCounts, runWsWorkers, type WsCounts } from './run-ws-workers.js';
import { restLanesForWs } from './ws-demo.js';
import { runCcxtWorkers } from './run-ccxt-workers.js';
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
  /** The processes sharing Redis, for the paced fetches' deferred charges (`deferredCharges.processes`); absent: reserved. */
  readonly deferredProcesses?: number;
  /** Admission classes (see `RunWorkersOptions.classes`). */
  readonly classes?: boolean;
  /** With `--ws`: the emulator's WebSocket URL, this process's WebSocket workers and its share of the caps. */
  readonly wsUrl?: string;
  readonly wsWorkerIds?: readonly number[];
  readonly capShare?: number;
  /** `ccxt`: the workers call ccxt's unified methods (`venue` is then the ccxt setup name) on the emulators at `baseBySpec`. */
  readonly client?: 'ccxt';
  readonly baseBySpec?: Readonly<Record<string, string>>;
}

/** The parent's word that every child is ready: the workers start together. */
export interface GoMessage {
  readonly type: 'go';
}

/** What a child reports: progress, its end, or a failure. */
export type ChildMessage =
  | { readonly type: 'ready' }
  | { readonly type: 'progress'; readonly counts: ReturnType<typeof emptyCounts>; readonly wsCounts?: WsCounts }
  | {
      readonly type: 'done';
      readonly counts: ReturnType<typeof emptyCounts>;
      readonly wsCounts?: WsCounts;
      readonly waits?: ClassWaits;
      readonly startUpWaits?: ClassWaits;
      readonly failure?: string;
      /** With `client: 'ccxt'`: the ccxt calls completed. */
      readonly calls?: number;
    };

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
 * What a long-running process has done before its first order: Node's fetch loaded (its first use
 * requires undici: about 50 ms of CPU on the demo's machine) and the limiter's Lua library loaded (at
 * its first call). The demo measures the limiter in steady state, so each process does both before it
 * says it is ready; neither sends a request or charges a bucket.
 */
async function warmUp(redis: RedisConnection, venue: string): Promise<void> {
  void new Response('');
  await redis.limiter.borrowed({ venue, credential: null, axis: 'demo-warm-up' });
}

/**
 * Resolves at the parent's `go` (or when the run is stopped first). Listening starts before the child
 * says it is ready, so the word cannot come before anyone hears it.
 */
function startSignal(stop: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      process.off('message', onMessage);
      stop.removeEventListener('abort', done);
      resolve();
    };
    const onMessage = (m: GoMessage): void => {
      if (m.type === 'go') done();
    };
    process.on('message', onMessage);
    stop.addEventListener('abort', done, { once: true });
  });
}

/**
 * A demo worker process: connects its own Redis limiter, says it is ready, and at the parent's `go`
 * (every process ready: none starts its workers while others still boot, which on a few cores would
 * slow the first requests of those already running) runs its share of the workers, reports progress
 * every 250 ms and its counts at the end, then exits (1 on failure).
 */
async function main(job: ChildJob): Promise<number> {
  const counts = emptyCounts();
  const wsCounts = emptyWsCounts();
  let failure: string | undefined;
  let waits: ClassWaits | undefined;
  let startUpWaits: ClassWaits | undefined;
  let calls: number | undefined;
  let redis: Awaited<ReturnType<typeof connectRedis>>;
  try {
    redis = await connectRedis(job.redisUrl, job.prefix);
  } catch (e) {
    await send({ type: 'done', counts, failure: (e as Error).message });
    return 1;
  }
  const ticker = setInterval(() => void send({ type: 'progress', counts, wsCounts }), 250);
  const stop = new AbortController();
  process.once('disconnect', () => stop.abort());
  try {
    const go = startSignal(stop.signal);
    await warmUp(redis, job.venue);
    await send({ type: 'ready' });
    await go;
    if (job.client === 'ccxt') {
      const r = await runCcxtWorkers(
        {
          venue: job.venue,
          baseBySpec: job.baseBySpec ?? {},
          limiter: redis.limiter,
          credentials: job.credentials,
          workerIds: job.workerIds,
          durationMs: job.durationMs,
          margin: job.margin,
          signal: stop.signal,
          ...(job.deferredProcesses === undefined ? {} : { processes: job.deferredProcesses }),
          ...(job.classes === undefined ? {} : { classes: job.classes }),
        },
        counts,
      );
      failure = r.failure;
      waits = r.waits;
      startUpWaits = r.startUpWaits;
      calls = r.calls;
    } else {
      const spec = getVenueSpec(job.venue);
      const wsStop = new AbortController();
      const wsTimer = setTimeout(() => wsStop.abort(), job.durationMs);
      stop.signal.addEventListener('abort', () => wsStop.abort(), { once: true });
      const lanes = job.wsUrl === undefined ? lanesFor(spec) : restLanesForWs(spec);
      const [r, wsFailure] = await Promise.all([
        runWorkers(
          {
            spec,
            baseUrl: job.baseUrl,
            limiter: redis.limiter,
            credentials: job.credentials,
            lanes,
            workerIds: lanes.length === 0 ? [] : job.workerIds,
            durationMs: job.durationMs,
            margin: job.margin,
            signal: stop.signal,
            deferredCharges: job.deferredProcesses === undefined ? false : { processes: job.deferredProcesses },
            ...(job.classes === undefined ? {} : { classes: job.classes }),
          },
          counts,
        ),
        job.wsUrl === undefined
          ? Promise.resolve(undefined)
          : runWsWorkers(
              {
                venue: spec.id,
                wsUrl: job.wsUrl,
                limiter: redis.limiter,
                credentials: job.credentials,
                workerIds: job.wsWorkerIds ?? [],
                margin: job.margin,
                signal: wsStop.signal,
                capShare: job.capShare ?? 1,
              },
              wsCounts,
            ).finally(() => clearTimeout(wsTimer)),
      ]);
      failure = r.failure ?? wsFailure;
      waits = r.waits;
      startUpWaits = r.startUpWaits;
    }
  } catch (e) {
    failure = (e as Error).message;
  } finally {
    clearInterval(ticker);
    await redis.close();
  }
  const w = {
    ...(waits === undefined ? {} : { waits }),
    ...(startUpWaits === undefined ? {} : { startUpWaits }),
    ...(calls === undefined ? {} : { calls }),
  };
  await send(failure === undefined ? { type: 'done', counts, wsCounts, ...w } : { type: 'done', counts, wsCounts, ...w, failure });
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
