import type { BucketCheck, BucketKey, Priority, Reserve } from '@core/rate-limit-contract';
import {
  getVenueSpec,
  interpretResponse,
  resolveRequest,
  withLiveLimitEndpoints,
  type InterpretOptions,
  type ResolveOptions,
  type VenueCharge,
  type VenueRequest,
  type VenueSpec,
  bucketKeyId as ownKey,
} from '@core/exchange-specs';
import { AnswerRead } from './answer-read.js';
import { createAdmission } from './admission.js';
import { applyFeedback, recordDeferred } from './apply-feedback.js';
import type { HeldCharge } from './in-flight-ledger.js';
import { OwnSends } from './own-sends.js';
import type { Classed, PacedFetch, PacedFetchOptions } from './paced-fetch-options.js';
import { judgeAnswer, noteDate, recordLate, sendLogOf } from './shared-log.js';
import { readLiveLimitsOnce } from './live-limits.js';
import { PacedFetchError } from './paced-fetch-error.js';
import { linkSignal } from './linked-signal.js';
import { DEFAULT_WINDOW_BURST, withWindowPacing } from './window-pacing.js';
import { abortReason, sleep } from './sleep.js';
import { systemClock } from './system-clock.js';
import { readFetchCall, toVenueRequest } from './to-venue-request.js';

const DEFAULT_MAX_WAIT_MS = 10_000;
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

/** The last `Date` header read and its time (the answers of a second carry the same one). */
let lastDate = { text: '', ms: Number.NaN };

function dateOf(text: string): number {
  if (text !== lastDate.text) lastDate = { text, ms: Date.parse(text) };
  return lastDate.ms;
}

/**
 * Creates a `fetch` for one venue and one identity that keeps every request inside the venue's
 * documented limits through `limiter`:
 *
 * 1. It prices the request with the venue's spec (`resolveRequest`); a request it cannot price
 *    (unknown endpoint, missing parameter...) rejects with a {@link PacedFetchError} and is never sent.
 * 2. It books the request's checks with `limiter.waitForCapacity(checks, { maxWaitMs, signal })` (in
 *    the request's class, `priority`, where the limiter offers classes; a request charged on both its
 *    credential's buckets and shared ones is first probed with `checkRates`, one call when it can go
 *    at once) and sends at the send time, never before (it also waits out any time the limiter's
 *    answer still asks for). A wait beyond the budget, a store that cannot be reached or an abort
 *    rejects, unsent.
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
  // One object prices a request and reads its answer (with the answer's own usage set just before, read only then):
  // exchange-specs finds the charges it resolved for the request by the options object itself.
  const interpreting: { -readonly [K in keyof InterpretOptions]: InterpretOptions[K] } = { ...resolveOptions };
  const reserveOf = typeof options.reserve === 'function' ? options.reserve : undefined;
  if (!classes && (options.priority !== undefined || options.reserve !== undefined)) {
    throw new TypeError('paced fetch: priority and reserve need a limiter with capabilities.priorities');
  }
  const classOf = (request: VenueRequest, byNature: Priority): Priority => {
    const p = options.priority;
    return (typeof p === 'function' ? p(request) : p) ?? byNature;
  };
  const sendLog = sendLogOf(limiter);
  const ownSends = new OwnSends(sendLog);
  const waitUnbookedForOwnBuckets = options.waitUnbookedForOwnBuckets ?? true;
  const windowBurst = options.windowBurst ?? DEFAULT_WINDOW_BURST;
  withWindowPacing(spec, [], [], windowBurst); // a bad windowBurst is refused at creation

  const admit = createAdmission({ limiter, clock, maxWaitMs, waitUnbookedForOwnBuckets });

  // A request's checks with their window pacing, made once for the checks of a request shape (exchange-specs prices a
  // shape once and hands its requests the same checks): the same checks, spec, charges and reserve pace alike.
  const paced = new WeakMap<readonly BucketCheck[], { spec: VenueSpec; charges: readonly VenueCharge[]; reserve: unknown; checks: readonly BucketCheck[] }>();
  const pacedChecks = (
    current: VenueSpec,
    checks: readonly BucketCheck[],
    charges: readonly VenueCharge[],
    reserve: Reserve | undefined,
  ): readonly BucketCheck[] => {
    const kept = paced.get(checks);
    if (kept !== undefined && kept.spec === current && kept.charges === charges && kept.reserve === reserve) return kept.checks;
    const out = withWindowPacing(current, checks, charges, windowBurst, reserve);
    paced.set(checks, { spec: current, charges, reserve, checks: out });
    return out;
  };

  // A request's class and reserve, the same object for the requests of a shape in a row (it is only read).
  let lastClassed: Classed = {};
  const classedOf = (priority: Priority | undefined, reserve: Reserve): Classed => {
    if (priority === undefined) return {};
    if (lastClassed.priority !== priority || lastClassed.reserve !== reserve) lastClassed = { priority, reserve };
    return lastClassed;
  };

  const sendPaced = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const current = spec;
    const call = await readFetchCall(input, init);
    const request = toVenueRequest(call);
    const priced = resolveRequest(current, request, identity, interpreting);
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
    const resolved = {
      checks: pacedChecks(current, admitted, priced.charges, classes ? priced.reserve : undefined),
      charges: priced.charges,
      deferred: priced.deferred,
    };
    const priority = classes ? classOf(request, priced.priority) : undefined;
    const cls = classedOf(priority, priced.reserve);
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
        // an answer that says its body can still be read after the read above is the caller's as it is
        if ((response as { bodyUsed?: unknown }).bodyUsed === false) return response;
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
      const what = `${current.id}: ${request.method} ${request.path}`;
      admittedAt = await admit({ what, checks: resolved.checks, held, hold, cls, started, signal });
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
      await recordDeferred(
        limiter,
        unknown.map((d) => ({ key: d.key, limit: d.limit, cost: d.cost })),
      );
      throw e;
    } finally {
      link.release();
    }
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      headers[name.toLowerCase()] = value;
    });
    const respondedAt = clock.now();
    // an answer much slower than the venue's fastest: its request may have reached the venue late
    if (admittedAt !== undefined && !sentLate)
      judgeAnswer(sendLog, limiter, current.id, resolved.checks, { answerMs: respondedAt - sentAt, sinceAdmittedMs: respondedAt - admittedAt }, respondedAt);
    const answerSeq = ++sendLog.seq;
    // the venue's clock had passed this answer's Date by now: it bounds when a clock-aligned window began
    const dated = headers['date'] === undefined ? Number.NaN : dateOf(headers['date']);
    if (Number.isFinite(dated)) noteDate(sendLog, current.id, dated, respondedAt, keptAt);
    const own = ownSends.usage({ venue: current.id, respondedAt, keptAt, sentAt, sendSeq });
    // the body is read (decoded, parsed) only if the spec's rules read it: an order book's is most of an answer
    const answer = new AnswerRead(response.status, headers, bytes);
    interpreting.own = own;
    const feedback = interpretResponse(current, request, answer, identity, interpreting);
    ownSends.remember(resolved.charges, feedback, keptAt, respondedAt, answerSeq);
    const { feedbackErrors, feedbackApplied } = await applyFeedback(limiter, feedback, held, admittedAt, keptAt);
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
