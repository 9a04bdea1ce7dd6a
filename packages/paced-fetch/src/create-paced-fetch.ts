// Over 400 lines with a reason: one request's whole life (price, admit, send, read the answer, feed it
// back, retry) is one loop that reads best in one place; its parts (pacing, live limits, signals, the
// request reader) are in files of their own.
import type { BucketCheck, BucketKey, Clock, Decision, Priority, RateLimiter, Reserve, SyncOptions } from '@core/rate-limit-contract';
import {
  getVenueSpec,
  interpretResponse,
  resolveRequest,
  withLiveLimitEndpoints,
  type Feedback,
  type Identity,
  type LiveLimitsResult,
  type ResolveOptions,
  type VenueCharge,
  type VenueRequest,
  type VenueSpec,
  bucketKeyId as ownKey,
} from '@core/exchange-specs';
import { ledgerOf, type HeldCharge } from './in-flight-ledger.js';
import { OwnSendLog } from './own-send-log.js';
import { waitUntilClear } from './overtaken.js';
import { answeredSinceOf, judgeAnswer, noteDate, recordLate, sendLogOf, sentBeforeOf } from './shared-log.js';
import { readLiveLimitsOnce, type LiveLimitsSetting } from './live-limits.js';
import { PacedFetchError } from './paced-fetch-error.js';
import { linkSignal } from './linked-signal.js';
import { DEFAULT_WINDOW_BURST, withWindowPacing } from './window-pacing.js';
import { abortReason, sleep } from './sleep.js';
import { createTurns } from './turns.js';
import { systemClock } from './system-clock.js';
import { readFetchCall, toVenueRequest } from './to-venue-request.js';

/** A `fetch`-compatible function that paces every request through a rate limiter. */
export type PacedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Retries of refused idempotent requests. */
export interface RetryOptions {
  /** Retries per call after a rate-limit refusal; default 1. */
  readonly maxRetries?: number;
  /** The longest venue wait (Retry-After) worth retrying after; default the call's `maxWaitMs`. */
  readonly maxRetryAfterMs?: number;
  /** Which requests may be sent again; default GET, HEAD and OPTIONS. */
  readonly idempotent?: (request: VenueRequest) => boolean;
}

/** A request's class and the reserve it leaves free, as the limiter's calls take them (empty: unclassed). */
type Classed = { readonly priority?: Priority; readonly reserve?: Reserve };

/** One request that went out, reported to {@link PacedFetchOptions.onAttempt}. */
export interface AttemptEvent {
  /** The venue's spec id (`binance-spot`, `okx`, ...). */
  readonly venue: string;
  /** 0 for the first attempt of a call, 1 for its first retry... */
  readonly attempt: number;
  readonly request: VenueRequest;
  /** The checks the admission charged (each attempt is admitted and charged on its own). */
  readonly checks: readonly BucketCheck[];
  /** How long the attempt waited for its send time, ms. */
  readonly waitedMs: number;
  /** The class it was admitted in (RL-Q1): the caller's, or the spec's by nature; `undefined` where the limiter has no classes. */
  readonly priority: Priority | undefined;
  readonly status: number;
  /** What the venue's answer means for the limiter (already applied). */
  readonly feedback: Feedback;
  /** Whether another attempt follows. */
  readonly willRetry: boolean;
  /** Feedback the limiter could not apply (a sync or penalty that answered an error). */
  readonly feedbackErrors: readonly string[];
  /** How many of the feedback's syncs and penalties the limiter applied (answered ok). */
  readonly feedbackApplied: { readonly syncs: number; readonly penalties: number };
}

/** How charges a venue applies only on an outcome are admitted (see {@link PacedFetchOptions.deferredCharges}). */
export interface DeferredChargesOptions {
  /** The share of such a bucket's venue limit that may be in flight as deferred charges (exchange-specs' `inFlightShare`); default 0.02. */
  readonly inFlightShare?: number;
  /**
   * How many processes send on the same buckets through the limiter's shared store: each holds at most
   * `inFlightShare / processes` of a bucket in flight. Required on a distributed limiter (without it
   * deferred charges are reserved there); default 1 on an in-process one.
   */
  readonly processes?: number;
}

/** Options of {@link createPacedFetch}. */
export interface PacedFetchOptions {
  /** The venue: a spec, or an id for `getVenueSpec` (`binance-spot`, `okx`, ...). */
  readonly venue: VenueSpec | string;
  /** The credential (null for public calls), and optionally the account's tier and uid. */
  readonly identity: Identity;
  /** Any implementation of the contract: in-process, Redis, a third party's. */
  readonly limiter: RateLimiter;
  /** The fetch that sends; default the global `fetch`. */
  readonly fetch?: typeof fetch;
  /** Each attempt's wait budget, ms; default 10 000. */
  readonly maxWaitMs?: number;
  /** Retries of refused idempotent requests; `false` for none. Default `{ maxRetries: 1 }`. */
  readonly retry?: RetryOptions | false;
  /** The fraction of each documented limit kept unused (exchange-specs' `margin`); default 0.04. */
  readonly margin?: number;
  /** The burst as a fraction of each window's usable limit (exchange-specs' `burstFraction`); default 0.02. */
  readonly burstFraction?: number;
  /** How late a request may reach the venue after its send time, ms (exchange-specs' `jitterMs`); default 50. */
  readonly jitterMs?: number;
  /**
   * Enforce the venue's window limits as window limits (exchange-specs' `windowLimits`), counting the
   * way the venue counts; default: the limiter's `capabilities.windowLimits`.
   */
  readonly windowLimits?: boolean;
  /** The fraction of each window limit kept unused (exchange-specs' `windowMargin`); default 0. */
  readonly windowMargin?: number;
  /**
   * The share of a window limit that may go out at once (no more than the window's reserve for bulk
   * keeps free), the rest paced at the window's average rate by a pacing bucket beside it (see
   * `withWindowPacing`); default 0.05 (`DEFAULT_WINDOW_BURST`), `false` for none.
   */
  readonly windowBurst?: number | false;
  /** The clock of the send-time guard and the Retry-After waits; default the system clock. */
  readonly clock?: Clock;
  /** Called after every attempt that was sent (for metrics and progress displays). */
  readonly onAttempt?: (event: AttemptEvent) => void;
  /**
   * When a request charges both buckets of its own credential and shared ones (the IP's), wait
   * without booking while only its own buckets hold it back, then book: a booking far in the future
   * would hold the shared buckets for every other caller until then (RL-W2). Default `true`.
   */
  readonly waitUnbookedForOwnBuckets?: boolean;
  /**
   * Read the venue's published current limits before the first request (`readLiveLimits` of
   * exchange-specs): the first request waits until they are read (once, shared by concurrent first
   * requests), and every request from then on is paced by the venue's numbers instead of the stored
   * ones, in both directions. A reading that fails (refused, malformed, not sent) leaves the stored
   * spec in force and is reported to `onLiveLimits`. `true` reads from the first request's origin;
   * private sources (Binance `rateLimit/order`, Bybit, OKX, KuCoin) need `authenticate`. Default `false`.
   */
  readonly liveLimits?: boolean | LiveLimitsSetting;
  /** Called once with the outcome of the live-limits reading: the venue's numbers in force, or why the stored spec stays (exceptions it throws are ignored). */
  readonly onLiveLimits?: (result: LiveLimitsResult) => void;
  /**
   * Charges the venue applies only on an outcome (Binance spot's order and cancel weight, charged only
   * when the request fails): admitted without reserving them (exchange-specs' `deferred`), each held in
   * an in-flight ledger of its bucket from before the admission until the answer (at most
   * `inFlightShare / processes` of the venue's limit in flight; a request waits while it is full), and
   * recorded (`limiter.record`) when the answer says the venue applied it, or when the send fails without
   * an answer (the outcome is unknown). Such a bucket's limit is lowered by `inFlightShare`, so that
   * even when every request in flight fails the venue's count stays inside its limit. `false` reserves
   * them at admission. Default on, with `processes: 1`, on an in-process limiter; on a distributed one
   * only when `processes` is given.
   */
  readonly deferredCharges?: DeferredChargesOptions | false;
  /**
   * The class of this fetch's requests (RL-Q1..RL-Q5), or a function that picks it per request
   * (`undefined`: the spec's). Default: the class the venue's spec gives each request by nature
   * (exchange-specs' `requestPriority`: `'critical'` for cancels, cancel-all, position closes and
   * reduce-only orders, `'normal'` otherwise). A market-data client passes `'bulk'`. Needs a limiter
   * with `capabilities.priorities` when given; without one, requests go unclassed.
   */
  readonly priority?: Priority | ((request: VenueRequest) => Priority | undefined);
  /**
   * The share of the buckets lower classes leave free for higher ones (RL-Q4, RL-Q6). Default: each
   * bucket its own (exchange-specs' `bucketReserve`): bulk keeps 20 % of a token bucket and 5 % of a
   * window limit free where the venue's critical requests by nature (cancels, reduce-only orders) are
   * charged (1.5 % of a window where all their charges there are deferred, so they need only a gate:
   * Binance spot's IP weight), and nothing on the other buckets (a bucket only market data spends is
   * spent to its end). A
   * `Reserve` holds for every bucket; a function gives a bucket's own from its check (`undefined`: the
   * default for that bucket), for example `(c) => (c.key.axis?.startsWith('orders') ? { normal: 0.1 } : undefined)`
   * to keep room for critical orders on an account's order count. Needs a limiter with
   * `capabilities.priorities`.
   */
  readonly reserve?: Reserve | ((check: BucketCheck) => Reserve | undefined);
}

const DEFAULT_MAX_WAIT_MS = 10_000;
/** Unbooked sleeps for the own buckets before a request books (see `waitUnbookedForOwnBuckets`). */
const UNBOOKED_SLEEPS = 3;
/** A wait for capacity longer than this (ms, this process's clock) waited for a booking, not for a store's answer. */
const WAITED_MS = 5;
/** How long a request keeps its turn to join the shared queue after asking to book, ms of real time. */
const JOIN_HOLD_MS = 20;

function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
/** How long own sends are remembered for the usage syncs (forgetting only makes them more cautious). */
const OWN_LOG_MS = 65_000;
/** The log of a key no send of which was counted yet. */
const EMPTY_LOG = new OwnSendLog();

function countedNow(c: VenueCharge, feedback: Feedback): boolean {
  if (!feedback.counted) return false;
  return c.charge === 'always' || (c.charge === 'success') === (feedback.verdict === 'ok');
}
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const NULL_BODY_STATUSES = new Set([101, 103, 204, 205, 304]);

function resolveSpec(venue: VenueSpec | string): VenueSpec {
  if (typeof venue !== 'string') return venue;
  try {
    return getVenueSpec(venue);
  } catch (e) {
    throw new PacedFetchError('unknown_venue', (e as Error).message);
  }
}

function positive(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`paced fetch: ${name} must be a positive finite number of ms, got ${String(v)}`);
  return v;
}

function parseBody(text: string): unknown {
  const t = text.trim();
  if (t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.parse(t) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Creates a `fetch` for one venue and one identity that keeps every request inside the venue's
 * documented limits through `limiter`:
 *
 * 1. It prices the request with the venue's spec (`resolveRequest`); a request it cannot price
 *    (unknown endpoint, missing parameter...) rejects with a {@link PacedFetchError} and is never sent.
 * 2. It books the request's checks with `limiter.waitForCapacity(checks, { maxWaitMs, signal })` (in
 *    the request's class, `priority`, where the limiter offers classes) and
 *    sends at the send time, never before (it also waits out any time the limiter's answer still
 *    asks for). A wait beyond the budget, a store that cannot be reached or an abort rejects, unsent.
 * 3. After the response it applies the venue's feedback: usage headers as `limiter.sync` (less what
 *    its own earlier sends account for, so only other clients' usage holds it back), refusals and
 *    bans as `limiter.penalize`, response-size costs as `limiter.record`.
 * 4. A refused idempotent request is sent again after the venue's Retry-After (within the
 *    budget); nothing else is retried. Each attempt is admitted, and so charged, on its own.
 *
 * Every attempt it sends is therefore on the limiter's books exactly once (RL-P6): its priced cost
 * by its own admission, and what only the response reveals by a record. The venue's response is
 * returned as is, refusals included (like `fetch`, it does not reject on an HTTP status).
 *
 * With `liveLimits`, the first request waits until the venue's published limits are read (through
 * this client, so paced and charged), and the venue's numbers price every request from then on; a
 * reading that fails leaves the stored spec in force and is reported to `onLiveLimits`.
 *
 * @throws PacedFetchError `unknown_venue` when `venue` is an unknown id; RangeError for a bad option.
 * @example
 * ```ts
 * const limiter = createDefaultRateLimiter();
 * const binance = createPacedFetch({ venue: 'binance-spot', identity: { credential: apiKey }, limiter });
 * const res = await binance('https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=100');
 * ```
 */
export function createPacedFetch(options: PacedFetchOptions): PacedFetch {
  const live = options.liveLimits === undefined || options.liveLimits === false ? undefined : options.liveLimits === true ? {} : options.liveLimits;
  // The spec in force: the stored one until the venue's own numbers are read (see liveLimits).
  let spec = live === undefined ? resolveSpec(options.venue) : withLiveLimitEndpoints(resolveSpec(options.venue));
  const { identity, limiter } = options;
  const send = options.fetch ?? globalThis.fetch;
  const clock = options.clock ?? systemClock;
  const maxWaitMs = positive('maxWaitMs', options.maxWaitMs, DEFAULT_MAX_WAIT_MS);
  const retry = options.retry === false ? undefined : (options.retry ?? {});
  const maxRetries = retry === undefined ? 0 : (retry.maxRetries ?? 1);
  if (!(Number.isInteger(maxRetries) && maxRetries >= 0))
    throw new RangeError(`paced fetch: retry.maxRetries must be an integer >= 0, got ${String(maxRetries)}`);
  const maxRetryAfterMs = positive('retry.maxRetryAfterMs', retry?.maxRetryAfterMs, maxWaitMs);
  const idempotent = retry?.idempotent ?? ((r: VenueRequest) => SAFE_METHODS.has(r.method.toUpperCase()));
  const deferredSetting = options.deferredCharges === false ? undefined : (options.deferredCharges ?? {});
  const processes = deferredSetting?.processes ?? (limiter.capabilities.distributed ? undefined : 1);
  if (processes !== undefined && !(Number.isInteger(processes) && processes >= 1)) {
    throw new RangeError(`paced fetch: deferredCharges.processes must be a whole number >= 1, got ${String(processes)}`);
  }
  const deferring = deferredSetting !== undefined && processes !== undefined;
  const ledger = ledgerOf(limiter);
  // classes (RL-Q1): only through a limiter that offers them; naming one for a limiter that does not is refused below
  const classes = limiter.capabilities.priorities === true;
  const resolveOptions: ResolveOptions = {
    ...(deferring ? { deferred: true, ...(deferredSetting.inFlightShare === undefined ? {} : { inFlightShare: deferredSetting.inFlightShare }) } : {}),
    ...(options.margin === undefined ? {} : { margin: options.margin }),
    ...(options.burstFraction === undefined ? {} : { burstFraction: options.burstFraction }),
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    windowLimits: options.windowLimits ?? limiter.capabilities.windowLimits === true,
    ...(options.windowMargin === undefined ? {} : { windowMargin: options.windowMargin }),
    ...(typeof options.reserve === 'object' ? { reserve: options.reserve } : {}),
    classes,
  };
  const reserveOf = typeof options.reserve === 'function' ? options.reserve : undefined;
  if (!classes && (options.priority !== undefined || options.reserve !== undefined)) {
    throw new TypeError('paced fetch: priority and reserve need a limiter with capabilities.priorities');
  }
  const classOf = (request: VenueRequest, byNature: Priority): Priority => {
    const p = options.priority;
    return (typeof p === 'function' ? p(request) : p) ?? byNature;
  };
  // This process's own sends per key (every paced fetch on this limiter object: a bucket of the IP is
  // sent on by every credential's fetch), so that a usage header holds the limiter back only by what
  // other clients spent (exchange-specs' OwnUsage): a send counts once its response arrived before
  // the request being interpreted was sent (the venue had counted it when it answered).
  const sendLog = sendLogOf(limiter);
  const ownSends = sendLog.sends;
  const logOf = (key: BucketKey): OwnSendLog | undefined => ownSends.get(ownKey(key));
  /** Remembers the charges the venue counted for an answered send, per key (what later usage reports may take as counted). */
  const remember = (charges: readonly VenueCharge[], feedback: Feedback, sentAt: number, respondedAt: number, answerSeq: number): void => {
    for (const c of charges) {
      if (c.cost <= 0 || !countedNow(c, feedback)) continue;
      const id = ownKey(c.key);
      let log = ownSends.get(id);
      if (log === undefined) ownSends.set(id, (log = new OwnSendLog()));
      log.forget(respondedAt - OWN_LOG_MS);
      const sync = feedback.syncs.find((s) => ownKey(s.key) === id);
      const reported = sync?.windowElapsedMs === undefined ? undefined : sync.minBorrowed;
      log.push({
        sentAtMs: sentAt,
        answeredAtMs: respondedAt,
        answerSeq,
        cost: c.cost,
        ...(sync?.windowEnd === undefined ? {} : { windowEnd: sync.windowEnd }),
        ...(reported === undefined ? {} : { reportedUsed: reported }),
      });
    }
  };
  const waitUnbookedForOwnBuckets = options.waitUnbookedForOwnBuckets ?? true;
  const windowBurst = options.windowBurst ?? DEFAULT_WINDOW_BURST;
  withWindowPacing(spec, [], [], windowBurst); // a bad windowBurst is refused at creation

  /**
   * Sleeps once, booking nothing, until the request's own-credential buckets would admit it (a dry
   * run with `peek`), as long as the budget allows; the admission itself comes after, with
   * `waitForCapacity`, so this only decides when to join the shared buckets' queue.
   */
  const waitForOwnBuckets = async (checks: readonly BucketCheck[], deadline: number, signal: AbortSignal | undefined, cls: Classed): Promise<void> => {
    const own = checks.filter((c) => c.key.credential !== null);
    if (own.length === 0 || own.length === checks.length) return;
    const shared = checks.filter((c) => c.key.credential === null);
    // Join the shared buckets' queue just in time: sleep, booking nothing, until the own buckets'
    // wait is no longer than the shared buckets' queue, then book (the booking then lands where the
    // shared queue would put it anyway, holding them no longer, and the own buckets lose no refill).
    // A few sleeps at most (another worker of the credential may take its buckets meanwhile): after
    // them the request books whatever it finds, so a heavy request is never starved by cheaper ones
    // of the same credential that keep taking its own buckets (RL-W2).
    for (let round = 0; round < UNBOOKED_SLEEPS; round++) {
      const p = await limiter.peek(own, cls);
      if (p.kind !== 'delay') return;
      const q = await limiter.peek(shared, cls);
      const queued = q.kind === 'delay' ? q.retryAfterMs : 0;
      if (q.kind === 'error' || p.retryAfterMs <= queued) return;
      const nap = p.retryAfterMs - queued;
      if (nap > deadline - clock.now()) return;
      await sleep(clock, nap, signal);
    }
  };

  const turns = createTurns();
  /** Waits for this request's turn among those of this fetch with the same own buckets; resolves to the release. */
  const joinTurn = (checks: readonly BucketCheck[], signal: AbortSignal | undefined): Promise<() => void> =>
    turns.join(
      checks
        .filter((c) => c.key.credential !== null)
        .map((c) => ownKey(c.key))
        .sort()
        .join('\u0001'),
      signal,
    );

  const sendPaced = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const current = spec;
    const call = await readFetchCall(input, init);
    const request = toVenueRequest(call);
    const priced = resolveRequest(current, request, identity, resolveOptions);
    if (!priced.ok) throw new PacedFetchError(priced.error.code, priced.error.message);
    // A deferred charge larger than this process's share of its bucket's in-flight bound is reserved.
    const held: HeldCharge[] = [];
    let admitted = priced.checks;
    for (const d of priced.deferred) {
      const bound = d.inFlight / (processes ?? 1);
      if (d.cost <= bound) held.push({ key: d.key, cost: d.cost, bound });
      else admitted = admitted.map((c) => (ownKey(c.key) === ownKey(d.key) ? { ...c, cost: c.cost + d.cost } : c));
    }
    if (reserveOf !== undefined) {
      admitted = admitted.map((c) => {
        const r = reserveOf(c);
        if (r === undefined) return c;
        // a share the function leaves out takes the bucket's default (bulk at least normal: its pacing bucket needs both)
        const base = c.reserve ?? priced.reserve;
        const normal = r.normal ?? base.normal ?? 0;
        return { ...c, reserve: { normal, bulk: r.bulk ?? Math.max(base.bulk ?? 0, normal) } };
      });
    }
    const resolved = { ...priced, checks: withWindowPacing(current, admitted, priced.charges, windowBurst, classes ? priced.reserve : undefined) };
    const priority = classes ? classOf(request, priced.priority) : undefined;
    const cls: Classed = priority === undefined ? {} : { priority, reserve: priced.reserve };
    const signal = init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined;

    for (let attempt = 0; ; attempt++) {
      const started = clock.now();
      // the deferred charges are held in flight from just before the admission until the answer is settled
      const hold: { release?: () => void } = {};
      let settled:
        | { readonly response: Response; readonly willRetry: boolean; readonly venueWait: number | undefined; readonly bytes: ArrayBuffer }
        | undefined;
      try {
        settled = await attemptOnce(current, request, resolved, attempt, started, input, init, signal, held, hold, cls);
      } finally {
        hold.release?.();
      }
      const { response, willRetry, venueWait, bytes } = settled;
      if (!willRetry) {
        const copy = new Response(NULL_BODY_STATUSES.has(response.status) ? null : bytes, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
        Object.defineProperty(copy, 'url', { value: response.url });
        return copy;
      }
      // The penalties hold the limiter closed until then too; this covers venues whose wait names no bucket.
      await sleep(clock, venueWait ?? 0, signal);
    }
  };

  /** Records deferred charges the venue applied, and on a shared store waits until the store has them (before their ledger entries go). */
  const recordDeferred = async (checks: readonly BucketCheck[]): Promise<void> => {
    for (const c of checks) limiter.record(c.key, c.cost, c.limit);
    if (!limiter.capabilities.distributed) return;
    // A later call on the same store is applied after the records sent before it.
    for (const c of checks) await limiter.borrowed(c.key);
  };

  /** One attempt: admission, send, answer, feedback. */
  const attemptOnce = async (
    current: VenueSpec,
    request: VenueRequest,
    resolved: {
      readonly checks: readonly BucketCheck[];
      readonly charges: readonly VenueCharge[];
      readonly deferred: readonly { readonly key: BucketKey; readonly cost: number; readonly limit: BucketCheck['limit'] }[];
    },
    attempt: number,
    started: number,
    input: string | URL | Request,
    init: RequestInit | undefined,
    signal: AbortSignal | undefined,
    held: readonly HeldCharge[],
    hold: { release?: () => void },
    cls: Classed,
  ): Promise<{ readonly response: Response; readonly willRetry: boolean; readonly venueWait: number | undefined; readonly bytes: ArrayBuffer }> => {
    // when the limiter admitted this attempt, in its own clock (a usage report's send time, RL-V5)
    let admittedAt: number | undefined;
    if (resolved.checks.length > 0) {
      // a critical request books at once: the room kept for it is there now (RL-Q1)
      const joining =
        waitUnbookedForOwnBuckets &&
        cls.priority !== 'critical' &&
        resolved.checks.some((c) => c.key.credential !== null) &&
        resolved.checks.some((c) => c.key.credential === null);
      const what = `${current.id}: ${request.method} ${request.path}`;
      let asked = clock.now();
      let d: Decision | undefined;
      if (joining) {
        // Admitted at once, the common case, in one call: a probe books nothing, so it holds no shared bucket for
        // later; only a request that must wait takes its turn and looks at its own buckets before it books.
        if (signal?.aborted === true) throw abortReason(signal);
        if (held.length > 0) hold.release = await ledger.acquire(held, clock, started + maxWaitMs, signal, what);
        asked = clock.now();
        const probe = await limiter.checkRates(resolved.checks, cls);
        if (probe.kind !== 'delay') d = probe;
        else {
          hold.release?.();
          delete hold.release;
        }
      }
      if (d === undefined) {
        // Requests of this fetch with the same own buckets join the shared queue one at a time, so
        // two that woke together do not both book (the second far ahead, holding the shared buckets).
        const release = joining ? await joinTurn(resolved.checks, signal) : undefined;
        try {
          if (joining) await waitForOwnBuckets(resolved.checks, started + maxWaitMs, signal, cls);
          // Taken only now, not while the own buckets alone hold the request back: what can still be charged
          // after the fact must be in the ledger when the limiter decides, and until the answer.
          if (held.length > 0) hold.release = await ledger.acquire(held, clock, started + maxWaitMs, signal, what);
          asked = clock.now();
          const budget = Math.max(1, started + maxWaitMs - asked);
          const waiting = limiter.waitForCapacity(resolved.checks, { maxWaitMs: budget, ...cls, ...(signal === undefined ? {} : { signal }) });
          if (release !== undefined) {
            // The turn ends once the booking is in place, not at the send time (the shared queue may
            // be long): when the wait settles, or after JOIN_HOLD_MS of real time (a store's round trip).
            const settled = waiting.then(
              () => undefined,
              () => undefined,
            );
            void Promise.race([settled, realDelay(JOIN_HOLD_MS)]).then(release);
          }
          d = await waiting;
        } finally {
          release?.();
        }
      }
      // Widened on purpose: a limiter that breaks the contract (answers delay, or booked, from
      // waitForCapacity) must still never make this client send early.
      const answer: Decision = d;
      if (answer.kind === 'error') {
        if (answer.error.code === 'aborted') throw abortReason(signal);
        throw new PacedFetchError(
          answer.error.code,
          `${current.id}: ${request.method} ${request.path} not sent: ${answer.error.message}`,
          answer.error.retryAfterMs,
        );
      }
      if (answer.kind === 'delay') {
        throw new PacedFetchError(
          'rate_limit_timeout',
          `${current.id}: ${request.method} ${request.path} not sent: it needs ${answer.retryAfterMs} ms, beyond the ${maxWaitMs} ms budget`,
          answer.retryAfterMs,
        );
      }
      // ok means "send now" (RL-W1); a booking answered where ok was due is waited out: never send early.
      if (answer.kind === 'booked') await sleep(clock, asked + answer.waitMs - clock.now(), signal);
      admittedAt = answer.sendAtMs;
      // a send that waited for its booking asks, when its time comes, whether its window limits are still within
      // their limit (a send before it may have been counted again since); if not, it books them again and waits.
      // (Waited: by this process's clock, longer than a store's answer takes; a send admitted at once cannot
      // have been overtaken.)
      if (answer.kind === 'booked' || clock.now() - asked > WAITED_MS)
        admittedAt = await waitUntilClear(limiter, resolved.checks, admittedAt, async (windows) => {
          const again = clock.now();
          const r = await limiter.waitForCapacity(windows, {
            maxWaitMs: Math.max(1, started + maxWaitMs - again),
            ...cls,
            ...(signal === undefined ? {} : { signal }),
          });
          if (r.kind === 'error') {
            if (r.error.code === 'aborted') throw abortReason(signal);
            throw new PacedFetchError(
              r.error.code,
              `${current.id}: ${request.method} ${request.path} not sent: booked again, ${r.error.message}`,
              r.error.retryAfterMs,
            );
          }
          if (r.sendAtMs > clock.now()) await sleep(clock, r.sendAtMs - clock.now(), signal);
          return r.sendAtMs;
        });
    } else if (signal?.aborted === true) {
      throw abortReason(signal);
    }
    const sentAt = clock.now();
    const sendSeq = ++sendLog.seq;
    // a send later than admitted by more than half a window limit's jitter allowance may reach the venue later than
    // the allowance covers: it is counted again from now on those limits (twice, never too little)
    const sentLate = admittedAt !== undefined && recordLate(limiter, resolved.checks, sentAt - admittedAt);
    // the send time the limiter's store keeps (its admission's), so that what this fetch says it
    // knows of its own sends and what the store finds by time never take one send twice (RL-V5)
    const keptAt = admittedAt ?? sentAt;
    const waitedMs = sentAt - started;
    const link = linkSignal(signal);
    let response: Response;
    let bytes: ArrayBuffer;
    try {
      response = await send(input instanceof Request ? input.clone() : input, link.signal === undefined ? init : { ...init, signal: link.signal });
      bytes = await response.arrayBuffer();
    } catch (e) {
      // sent, no answer: the venue may have counted a failure
      const unknown = resolved.deferred.filter((d) => held.some((h) => ownKey(h.key) === ownKey(d.key)));
      await recordDeferred(unknown.map((d) => ({ key: d.key, limit: d.limit, cost: d.cost })));
      throw e;
    } finally {
      link.release();
    }
    const text = new TextDecoder().decode(bytes);
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const respondedAt = clock.now();
    // an answer much slower than the venue's fastest: its request may have reached the venue late
    if (admittedAt !== undefined && !sentLate) judgeAnswer(sendLog, limiter, current.id, resolved.checks, respondedAt - sentAt, respondedAt);
    const answerSeq = ++sendLog.seq;
    // the venue's clock had passed this answer's Date by now: it bounds when a clock-aligned window began
    const dated = headers['date'] === undefined ? Number.NaN : Date.parse(headers['date']);
    if (Number.isFinite(dated)) noteDate(sendLog, current.id, dated, respondedAt, keptAt);
    const own = {
      nowMs: respondedAt,
      sentAtMs: keptAt,
      usage: (key: BucketKey, since: number) => logOf(key)?.usage(since, sentAt) ?? 0,
      // answered before this request actually went out
      answered: (key: BucketKey) => logOf(key)?.answered(sendSeq) ?? [],
      answeredQuery: (key: BucketKey) => (logOf(key) ?? EMPTY_LOG).query(sendSeq),
      // answered while this request was on its way (every answer logged so far came before this one's)
      answeredMeanwhile: (key: BucketKey) => logOf(key)?.answeredAfter(sendSeq) ?? [],
      answeredSince: (venueMs: number) => answeredSinceOf(sendLog, current.id, venueMs),
      sentBefore: (venueMs: number) => sentBeforeOf(sendLog, current.id, venueMs),
    };
    const feedback = interpretResponse(current, request, { status: response.status, headers, body: parseBody(text) }, identity, { ...resolveOptions, own });
    remember(resolved.charges, feedback, keptAt, respondedAt, answerSeq);
    const feedbackErrors: string[] = [];
    const feedbackApplied = { syncs: 0, penalties: 0 };
    for (const c of feedback.extraChecks ?? []) limiter.record(c.key, c.cost, c.limit);
    // the deferred charges the venue applied (a failed order's weight); those reserved at admission are not among them
    const recorded = (feedback.deferred ?? []).filter((c) => held.some((h) => ownKey(h.key) === ownKey(c.key)));
    await recordDeferred(recorded);
    const syncs: Promise<void>[] = [];
    for (const s of feedback.syncs) {
      // a window limit: the store knows what this deployment sent; say when this request was sent, what this
      // fetch knows the venue counted of its own in the window, and the window's end when it tells it (RL-V5)
      let report: SyncOptions | undefined;
      if (s.windowElapsedMs !== undefined && admittedAt !== undefined) {
        report = {
          sentAtMs: keptAt,
          ...(s.countedOwnCost === undefined ? {} : { countedOwnCost: s.countedOwnCost }),
          // the window's end, however loosely known: it bounds when the window began (RL-V5)
          ...(s.windowEnd === undefined ? {} : { windowEnd: s.windowEnd }),
        };
      }
      syncs.push(
        limiter.sync(s.key, s.limit, s.minBorrowed, report).then((r) => {
          if (r.kind === 'error') feedbackErrors.push(`sync ${s.key.axis ?? 'request'}: ${r.error.code}: ${r.error.message}`);
          else feedbackApplied.syncs++;
        }),
      );
    }
    await Promise.all(syncs);
    for (const p of feedback.penalties) {
      const r = await limiter.penalize(p.key, p.hold);
      if (r.kind === 'error') feedbackErrors.push(`penalize ${p.key.axis ?? 'request'}: ${r.error.code}: ${r.error.message}`);
      else feedbackApplied.penalties++;
    }
    const refused = feedback.verdict === 'rate_limited' || feedback.verdict === 'banned';
    const venueWait = feedback.retryAfterMs;
    const willRetry =
      refused && attempt < maxRetries && idempotent(request) && venueWait !== undefined && venueWait <= maxRetryAfterMs && signal?.aborted !== true;
    options.onAttempt?.({
      venue: current.id,
      attempt,
      request,
      checks: resolved.checks,
      waitedMs,
      priority: cls.priority,
      status: response.status,
      feedback,
      willRetry,
      feedbackErrors,
      feedbackApplied,
    });
    return { response, willRetry, venueWait, bytes };
  };

  if (live === undefined) return sendPaced;
  const reading = readLiveLimitsOnce({
    setting: live,
    identity,
    clock,
    send: sendPaced,
    spec: () => spec,
    use: (next) => {
      spec = next;
    },
    ...(options.onLiveLimits === undefined ? {} : { report: options.onLiveLimits }),
  });
  return async function pacedFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
    await reading.ready(input, init?.signal ?? (input instanceof Request ? input.signal : undefined) ?? undefined);
    return sendPaced(input, init);
  };
}
