import { setMaxListeners } from 'node:events';
import type { BucketCheck, Priority, RateLimiter, Reserve } from '@core/rate-limit-contract';
import type { VenueSpec } from '@core/exchange-specs';
import { createPacedFetch, isPacedFetchError, type AttemptEvent, type DeferredChargesOptions, type PacedFetch } from '@core/paced-fetch';
import { styleFor } from '@core/venue-emulator';
import { laneSlots, type Lane } from './workloads.js';
import type { WsCounts } from './run-ws-workers.js';

/** What the workers saw, summed. */
export interface WorkerCounts {
  /** Attempts sent to the venue (retries included). */
  sent: number;
  /** Attempts the venue refused (rate limited or banned). */
  refused: number;
  /** Attempts answered with a ban. */
  banned: number;
  /** Retries after a refusal. */
  retries: number;
  /** Requests not sent because their wait exceeded the budget. */
  timeouts: number;
  /** Syncs or penalties the limiter could not apply. */
  feedbackErrors: number;
  /** Admissions the limiter's store did not answer in time (nothing sent; retried while the store recovers). */
  storeErrors: number;
}

/** Zeroed counts. */
export function emptyCounts(): WorkerCounts {
  return { sent: 0, refused: 0, banned: 0, retries: 0, timeouts: 0, feedbackErrors: 0, storeErrors: 0 };
}

/** Adds `b` into `a`. */
export function addCounts(a: WorkerCounts, b: WorkerCounts): void {
  a.sent += b.sent;
  a.refused += b.refused;
  a.banned += b.banned;
  a.retries += b.retries;
  a.timeouts += b.timeouts;
  a.feedbackErrors += b.feedbackErrors;
  a.storeErrors += b.storeErrors;
}

/** Options of {@link runWorkers}. */
export interface RunWorkersOptions {
  readonly spec: VenueSpec;
  /** The venue's base URL (the emulator's). */
  readonly baseUrl: string;
  readonly limiter: RateLimiter;
  /** The API keys; worker i uses credentials[i % credentials.length]. */
  readonly credentials: readonly string[];
  /** Worker i sends the lane of slot floor(i / credentials.length) (see `laneSlots`). */
  readonly lanes: readonly Lane[];
  /** The global indexes of the workers to run here (processes split them). */
  readonly workerIds: readonly number[];
  readonly durationMs: number;
  readonly margin: number;
  /** How the paced fetches admit charges the venue applies only on an outcome (paced-fetch's `deferredCharges`); default its own. */
  readonly deferredCharges?: DeferredChargesOptions | false;
  /** Stops the workers early (for example on Ctrl-C or a failure elsewhere). */
  readonly signal?: AbortSignal;
  /** Also told of every attempt sent (metrics). */
  readonly onAttempt?: (e: AttemptEvent) => void;
  /**
   * Admission classes (RL-Q1): `true` (default, where the limiter offers them) admits each lane in its
   * class (market data bulk, cancels critical by nature); `false` admits every request as `'normal'`
   * with nothing kept free, as before classes (the comparison run).
   */
  readonly classes?: boolean;
}

/** How long each attempt waited for its send time, ms, per class (`'normal'` where the limiter has none) and request: `<class>\t<method> <path>`. */
export type ClassWaits = Record<string, number[]>;

/** Adds the waits `b` into `a`. */
export function addWaits(a: ClassWaits, b: ClassWaits): void {
  for (const [k, v] of Object.entries(b)) (a[k] ??= []).push(...v);
}

/**
 * How long a process's start-up lasts for the wait summary. Its first requests wait for Node loading its
 * HTTP client, V8 compiling the code on first use and collecting the garbage of the start, not for a limit:
 * 70 to 215 ms with 4 processes starting together on 2 cores, then at most 26 ms (2026-12-07). Attempts
 * that begin within it are summarized apart, so the steady state's percentiles are the limiter's.
 */
export const START_UP_MS = 1_000;

/** Attempts' waits from now on: those that begin in the first {@link START_UP_MS} apart (`now`: ms, monotonic). */
export function waitRecorder(now: () => number = () => performance.now()): {
  readonly waits: ClassWaits;
  readonly startUpWaits: ClassWaits;
  add(e: Pick<AttemptEvent, 'waitedMs' | 'priority'> & { readonly request: Pick<AttemptEvent['request'], 'method' | 'path'> }): void;
} {
  const started = now();
  const waits: ClassWaits = {};
  const startUpWaits: ClassWaits = {};
  return {
    waits,
    startUpWaits,
    add(e) {
      const into = now() - e.waitedMs - started < START_UP_MS ? startUpWaits : waits;
      (into[`${e.priority ?? 'normal'}\t${e.request.method} ${e.request.path}`] ??= []).push(e.waitedMs);
    },
  };
}

/** The end of a run of workers: the counts, and the failure that ended it early, if any. */
export interface RunWorkersResult {
  readonly counts: WorkerCounts;
  /** With WebSocket workers: what they saw. */
  readonly wsCounts?: WsCounts;
  /** How long the attempts waited for their send times, per class (after the start-up). */
  readonly waits?: ClassWaits;
  /** The same, of the attempts that began in the start-up ({@link START_UP_MS}). */
  readonly startUpWaits?: ClassWaits;
  readonly failure?: string;
}

/**
 * The demo's reserve with classes (RL-Q4, RL-Q6): each bucket the spec's own (market data keeps room
 * where cancels are charged, none elsewhere), and an account's order count keeps 10 % from normal
 * orders for the critical hedges (new orders, critical by the demo's choice, not by nature): of Binance's
 * 50 per aligned 10 s that is 5, room for the 4 hedges, one every 2.5 s, that a credential sends in one
 * fixed window (a report of a new window forgets the window before's sends, RL-V9) and for one order
 * another process has on its way when a usage report is counted (taken as others' spending), so a hedge
 * does not book ahead (a critical booking ahead holds later critical calls on the buckets they share,
 * RL-Q2). The hedges spend the share on top of the normal orders' line (RL-Q4), so what they leave unused
 * of it is what the classes cost the order count: 45 normal orders and 4 hedges make the window's ceiling
 * 98 %. With RL-V9, on Redis across 4 processes, 10 % reached 97.5–97.8 % with the hedges' p99 at 30 ms
 * (2026-12-06); 12 % (ceiling 96 %) had reached 94.5–96.0 % before it, and 10 % had left the hedges 683 ms
 * at p99 on Redis before the answer records of RL-V5 (2026-12-04).
 */
const demoReserve = (c: BucketCheck): Reserve | undefined => (c.key.axis?.startsWith('orders') === true ? { normal: 0.1 } : undefined);

/** How long the limiter's store may keep failing before the run ends (a slow moment is not a dead store). */
const STORE_OUTAGE_LIMIT_MS = 5_000;

/** The budget of one wait: long, since the demo queues many workers on a few buckets; the end of the run aborts them. */
const DEMO_MAX_WAIT_MS = 120_000;

/**
 * Runs demo workers for `durationMs`: each sends its lane's request as fast as its paced fetch lets
 * it, and the run stops at the end (pending waits are aborted and give their bookings back). A
 * failure (a limiter that cannot answer, a venue that cannot be reached or answers garbage, a
 * request the spec cannot price) stops every worker and is returned in `failure`.
 *
 * @param counts - updated live, so a caller can show progress.
 */
export async function runWorkers(options: RunWorkersOptions, counts: WorkerCounts = emptyCounts()): Promise<RunWorkersResult> {
  const { spec, credentials, lanes } = options;
  const stop = new AbortController();
  // Every worker's request in flight listens on this one signal (paced-fetch and the limiter's wait each add
  // a listener and remove it when done), so more than Node's default of 10 at once is expected, not a leak.
  setMaxListeners(10 + 4 * options.workerIds.length, stop.signal);
  let failure: string | undefined;
  const fail = (message: string): void => {
    failure ??= message;
    stop.abort();
  };
  const onOuterAbort = (): void => stop.abort();
  options.signal?.addEventListener('abort', onOuterAbort, { once: true });
  if (options.signal?.aborted === true) stop.abort();
  const timer = setTimeout(() => stop.abort(), options.durationMs);

  const recorder = waitRecorder();
  const { waits, startUpWaits } = recorder;
  const onAttempt = (e: AttemptEvent): void => {
    recorder.add(e);
    counts.sent += 1;
    if (e.feedback.verdict === 'rate_limited' || e.feedback.verdict === 'banned') counts.refused += 1;
    if (e.feedback.verdict === 'banned') counts.banned += 1;
    if (e.willRetry) counts.retries += 1;
    counts.feedbackErrors += e.feedbackErrors.length;
    options.onAttempt?.(e);
  };
  let storeDownSince: number | undefined;
  const apiKeyHeader = styleFor(spec).apiKeyHeader;
  const fetchers = new Map<string, PacedFetch>();
  const classes = options.limiter.capabilities.priorities === true;
  const fetcherFor = (credential: string, lane: Lane): PacedFetch => {
    // with classes a lane's own class, else the spec's by nature; without, every request normal
    const priority: Priority | undefined = !classes ? undefined : options.classes === false ? 'normal' : lane.priority;
    const id = `${credential}\u0000${priority ?? ''}`;
    let f = fetchers.get(id);
    if (f === undefined) {
      const cls = !classes
        ? {}
        : options.classes === false
          ? { priority: 'normal' as const, reserve: { normal: 0, bulk: 0 } }
          : { reserve: demoReserve, ...(priority === undefined ? {} : { priority }) };
      f = createPacedFetch({
        venue: spec,
        identity: { credential },
        limiter: options.limiter,
        maxWaitMs: DEMO_MAX_WAIT_MS,
        margin: options.margin,
        onAttempt,
        ...(options.deferredCharges === undefined ? {} : { deferredCharges: options.deferredCharges }),
        ...cls,
      });
      fetchers.set(id, f);
    }
    return f;
  };

  const worker = async (id: number): Promise<void> => {
    const credential = credentials[id % credentials.length] ?? 'demo-key';
    const slots = laneSlots(lanes);
    const lane = slots[Math.floor(id / credentials.length) % slots.length];
    if (lane === undefined) return;
    const paced = fetcherFor(credential, lane);
    const url = `${options.baseUrl}${lane.path}`;
    const headers: Record<string, string> = { [apiKeyHeader]: credential, ...(lane.contentType === undefined ? {} : { 'content-type': lane.contentType }) };
    /** One request: `false` when the worker must stop (a failure, or the end of the run). */
    const once = async (): Promise<boolean> => {
      let res: Response;
      try {
        res = await paced(url, { method: lane.method, headers, signal: stop.signal, ...(lane.body === undefined ? {} : { body: lane.body }) });
      } catch (e) {
        if (stop.signal.aborted) return false;
        if (isPacedFetchError(e)) {
          if (e.code === 'rate_limit_timeout') {
            counts.timeouts += 1;
            return true;
          }
          if (e.code === 'backend_unavailable') {
            // Fail closed (nothing was sent); end the run only when the store stays away.
            counts.storeErrors += 1;
            const now = Date.now();
            storeDownSince ??= now;
            if (now - storeDownSince > STORE_OUTAGE_LIMIT_MS) {
              fail(`the rate limiter's store stopped answering for over ${STORE_OUTAGE_LIMIT_MS / 1000} s (${e.code}): ${e.message}`);
              return false;
            }
            await new Promise((r) => setTimeout(r, 100));
            return true;
          }
          fail(`${lane.name}: ${e.code}: ${e.message}`);
          return false;
        }
        const cause = (e as { cause?: { code?: string; message?: string } }).cause;
        fail(`cannot reach the venue at ${options.baseUrl}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
        return false;
      }
      storeDownSince = undefined;
      const text = await res.text().catch(() => '');
      try {
        JSON.parse(text);
      } catch {
        if (res.status !== 403) {
          // Bybit's 403 IP ban is plain text; anything else that is not JSON is a malformed answer.
          fail(`malformed response from the venue to ${lane.method} ${lane.path} (HTTP ${res.status}): ${JSON.stringify(text.slice(0, 80))}`);
          return false;
        }
      }
      return true;
    };
    if (lane.everyMs === undefined) {
      while (!stop.signal.aborted) if (!(await once())) return;
      return;
    }
    // a stream: one request every everyMs, whether the earlier ones went out yet or not (open loop, so
    // runs with and without classes send the same stream)
    const inFlight = new Set<Promise<boolean>>();
    while (!stop.signal.aborted) {
      const p = once();
      inFlight.add(p);
      void p.then(() => inFlight.delete(p));
      await new Promise<void>((resolve) => {
        const onAbort = (): void => {
          clearTimeout(t);
          resolve();
        };
        const t = setTimeout(() => {
          stop.signal.removeEventListener('abort', onAbort);
          resolve();
        }, lane.everyMs);
        stop.signal.addEventListener('abort', onAbort, { once: true });
      });
    }
    await Promise.all(inFlight);
  };

  try {
    await Promise.all(options.workerIds.map((id) => worker(id)));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onOuterAbort);
  }
  return failure === undefined ? { counts, waits, startUpWaits } : { counts, waits, startUpWaits, failure };
}
