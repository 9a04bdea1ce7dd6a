import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ChildJob, ChildMessage, GoMessage } from './demo-child.js';
import { addCounts, addWaits, emptyCounts, type ClassWaits, type RunWorkersResult, type WorkerCounts } from './run-workers.js';
import { emptyWsCounts, type WsCounts } from './run-ws-workers.js';

/** Options of {@link spawnWorkers}. */
export interface SpawnWorkersOptions {
  readonly processes: number;
  readonly workers: number;
  readonly job: Omit<ChildJob, 'type' | 'workerIds' | 'wsWorkerIds' | 'capShare'>;
  /** WebSocket workers in all (with `job.wsUrl`): worker i runs in process i % processes, each process with its share of the caps. */
  readonly wsWorkers?: number;
  readonly signal?: AbortSignal;
  /** The process of each worker; default `i % processes`. */
  readonly processOf?: (workerId: number) => number;
  /** Called once every child has connected its limiter; then each is told to start its workers. */
  readonly onAllReady?: () => void;
}

/**
 * The compiled child entry: next to this module in dist/, or dist/ beside src/ when this module runs
 * from source (the package's tests).
 *
 * @throws Error when the package has not been built.
 */
function childScript(): string {
  for (const rel of ['./demo-child.js', '../dist/demo-child.js']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('the demo worker script dist/demo-child.js is missing: build @core/cli first (pnpm --filter @core/cli build)');
}

/** How long past the run's end a child may take to report before it is killed. */
const GRACE_MS = 15_000;

/**
 * Runs the demo's workers in `processes` child processes sharing one Redis limiter: worker i goes to
 * process `processOf(i)` (default i % processes). `live` is updated with the sum of the children's progress. Any child that
 * fails, exits early or overruns the run by 15 s ends the run: the others are stopped, and the
 * result carries the failure.
 */
export async function spawnWorkers(
  options: SpawnWorkersOptions,
  live: WorkerCounts,
  liveWs: WsCounts = emptyWsCounts(),
): Promise<RunWorkersResult & { readonly calls?: number }> {
  const script = childScript();
  const perChild: WorkerCounts[] = [];
  const perChildWs: WsCounts[] = [];
  const waits: ClassWaits = {};
  const startUpWaits: ClassWaits = {};
  let ready = 0;
  let calls: number | undefined;
  const children: ChildProcess[] = [];
  let failure: string | undefined;
  const refresh = (): void => {
    const sum = emptyCounts();
    for (const c of perChild) addCounts(sum, c);
    Object.assign(live, sum);
    const ws = emptyWsCounts();
    for (const c of perChildWs) for (const k of Object.keys(ws) as (keyof WsCounts)[]) ws[k] += c[k];
    Object.assign(liveWs, ws);
  };
  const stopAll = (): void => {
    for (const c of children) if (c.connected) c.disconnect();
  };

  const runs = Array.from({ length: options.processes }, (_, p) => {
    perChild[p] = emptyCounts();
    perChildWs[p] = emptyWsCounts();
    const processOf = options.processOf ?? ((i: number) => i % options.processes);
    const workerIds = Array.from({ length: options.workers }, (_, i) => i).filter((i) => processOf(i) === p);
    const child = fork(script, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    children.push(child);
    return new Promise<void>((resolve) => {
      let reported = false;
      const killTimer = setTimeout(() => {
        failure ??= `worker process ${p + 1} did not finish ${GRACE_MS / 1000} s after the run's end; it was killed`;
        child.kill('SIGKILL');
      }, options.job.durationMs + GRACE_MS);
      child.on('message', (m: ChildMessage) => {
        if (m.type === 'ready' && ++ready === options.processes) {
          // every process booted: all start together (see demo-child.ts)
          for (const c of children) if (c.connected) c.send({ type: 'go' } satisfies GoMessage);
          options.onAllReady?.();
        }
        if (m.type === 'progress' || m.type === 'done') {
          perChild[p] = m.counts;
          if (m.wsCounts !== undefined) perChildWs[p] = m.wsCounts;
          refresh();
        }
        if (m.type === 'done') {
          reported = true;
          if (m.waits !== undefined) addWaits(waits, m.waits);
          if (m.startUpWaits !== undefined) addWaits(startUpWaits, m.startUpWaits);
          if (m.calls !== undefined) calls = (calls ?? 0) + m.calls;
          if (m.failure !== undefined) {
            failure ??= `worker process ${p + 1}: ${m.failure}`;
            stopAll();
          }
        }
      });
      child.on('error', (e) => {
        failure ??= `worker process ${p + 1} could not run: ${e.message}`;
      });
      child.on('exit', (code, sig) => {
        clearTimeout(killTimer);
        if (!reported) {
          failure ??= `worker process ${p + 1} exited before reporting (${sig ?? `code ${code}`})`;
          stopAll();
        }
        resolve();
      });
      const wsWorkerIds = Array.from({ length: options.wsWorkers ?? 0 }, (_, i) => i).filter((i) => i % options.processes === p);
      const job: ChildJob = {
        type: 'start',
        ...options.job,
        workerIds,
        ...(options.job.wsUrl === undefined ? {} : { wsWorkerIds, capShare: 1 / options.processes }),
      };
      child.send(job);
    });
  });
  const onAbort = (): void => stopAll();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    await Promise.all(runs);
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
  refresh();
  const ws = { ...(options.job.wsUrl === undefined ? {} : { wsCounts: liveWs }), ...(calls === undefined ? {} : { calls }) };
  return failure === undefined ? { counts: live, ...ws, waits, startUpWaits } : { counts: live, ...ws, waits, startUpWaits, failure };
}
