import type { BucketCheck, BucketKey, NormalizedLimit } from '@core/rate-limit-contract';
import { responseCost } from './evaluate-cost.js';
import { readPath } from './request-params.js';
import { bucketMargin } from './deferred-charges.js';
import { bucketLimit, resolveCharges, scopeCredential, type Charge, type EnforcedLimit, type ResolveOptions } from './resolve-charges.js';
import type { Feedback, FeedbackPenalty, FeedbackSync, Identity, VenueRequest, VenueResponse } from './venue-io.js';
import type { BodyMatch, BucketSpec, ErrorRule, FeedbackRule, VenueSpec, WaitSource, WaitUnit } from './venue-spec.js';
import { holdsNothingAt } from './body-holds.js';
import { dateMs, header, numberHeader } from './response-headers.js';
import { DEFAULT_JITTER_MS, DEFAULT_MARGIN } from './safe-limit.js';
import { usedIn, windowFeedback, type OwnWindowSends } from './window-feedback.js';

/**
 * The caller's own share of a venue's reported usage (paced-fetch keeps it): without it a usage
 * header is read as if every counted request could stay in the window until it ends, which holds a
 * limiter that is alone on its account back for nothing on sliding windows.
 */
export interface OwnUsage {
  /** The caller's clock now (epoch ms), when the response was received. */
  readonly nowMs: number;
  /**
   * When the request being interpreted was sent (epoch ms): its own charges count as ours too when
   * the venue counted them (they are in the usage it reports) and it was sent inside the window.
   */
  readonly sentAtMs?: number;
  /**
   * The cost the venue counted on `key` for the caller's own requests sent after `sinceMs` whose
   * responses arrived before the request being interpreted was sent (so the venue had counted them
   * when it answered). An undercount is safe; an overcount is not.
   */
  usage(key: BucketKey, sinceMs: number): number;
  /** Window limits: the caller's answered sends (see {@link OwnWindowSends}). */
  readonly answered?: OwnWindowSends['answered'];
  /** Clock-aligned window limits: when the venue's clock had passed a time (see {@link OwnWindowSends}). */
  readonly answeredSince?: OwnWindowSends['answeredSince'];
  /** Clock-aligned window limits: the latest send before the venue's clock reached a time (see {@link OwnWindowSends}). */
  readonly sentBefore?: OwnWindowSends['sentBefore'];
  /** Fixed window limits: the caller's sends answered while the request was on its way (see {@link OwnWindowSends}). */
  readonly answeredMeanwhile?: OwnWindowSends['answeredMeanwhile'];
  /** Window limits: `answered`'s folds from a summary (see {@link OwnWindowSends}). */
  readonly answeredQuery?: OwnWindowSends['answeredQuery'];
}

/** Options of {@link interpretResponse}. */
export interface InterpretOptions extends ResolveOptions {
  readonly own?: OwnUsage;
}

function bodyOf(response: VenueResponse): unknown {
  const raw = response.body;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    return raw;
  }
}

function matchesBody(body: unknown, m: BodyMatch): boolean {
  const v = readPath(body, m.path);
  const values = Array.isArray(v) ? v : [v];
  return values.some((x) => {
    if (typeof x !== 'string' && typeof x !== 'number') return false;
    const s = String(x);
    if (m.equals?.some((e) => String(e) === s)) return true;
    if (m.contains !== undefined && s.toLowerCase().includes(m.contains.toLowerCase())) return true;
    return m.startsWith !== undefined && s.startsWith(m.startsWith);
  });
}

/** A number read from a value: the value itself, or the first capture of `pattern` in it (or in the first element it matches). */
function numberIn(raw: unknown, pattern: string | undefined): number {
  if (pattern === undefined) {
    return typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
  }
  const re = new RegExp(pattern);
  for (const x of Array.isArray(raw) ? raw : [raw]) {
    if (typeof x !== 'string' && typeof x !== 'number') continue;
    const captured = re.exec(String(x))?.[1];
    if (captured !== undefined && captured.trim() !== '') return Number(captured);
  }
  return Number.NaN;
}

/** A wait in ms from a number in `unit`, or `undefined` (a negative duration, an epoch without a Date header). */
function toWaitMs(n: number, unit: WaitUnit, response: VenueResponse): number | undefined {
  if (!Number.isFinite(n)) return undefined;
  if (unit === 'epoch-ms' || unit === 'epoch-s') {
    const date = dateMs(response);
    if (date === undefined) return undefined;
    // The Date header is floored to the second: measure from it, which can only lengthen the wait.
    return Math.max(0, (unit === 'epoch-s' ? n * 1000 : n) - date);
  }
  if (n < 0) return undefined;
  return unit === 's' ? n * 1000 : n;
}

/** The response's body, parsed once and only when a rule reads it (an order book's JSON is most of an answer). */
type LazyBody = () => unknown;

function matchesRule(rule: ErrorRule, response: VenueResponse, body: LazyBody): boolean {
  if (rule.status !== undefined && !rule.status.includes(response.status)) return false;
  if (rule.body !== undefined && !rule.body.every((m) => !holdsNothingAt(response, m.path) && matchesBody(body(), m))) return false;
  if (rule.hasHeader !== undefined && header(response, rule.hasHeader) === undefined) return false;
  if (rule.lacksHeader !== undefined && header(response, rule.lacksHeader) !== undefined) return false;
  return true;
}

function waitMs(sources: readonly WaitSource[], response: VenueResponse, body: LazyBody): number | undefined {
  for (const s of sources) {
    if (s.from === 'fixed') return s.ms;
    if (s.from === 'window-end') return windowEndMs(s.windowMs, response);
    const raw = s.from === 'header' ? header(response, s.header) : readPath(body(), s.path);
    const ms = toWaitMs(numberIn(raw, s.from === 'body' ? s.pattern : undefined), s.unit, response);
    if (ms !== undefined) return ms;
  }
  return undefined;
}

/**
 * The time left in the clock-aligned window of `windowMs` the response was sent in, read against its
 * `date` header, floored to the second: the real time is at or after it, so this is never shorter
 * than the truth, unless a window ends inside that second (only possible when `windowMs` is not a
 * whole number of seconds): then the next window may already have started, and its whole length is
 * added. The whole window without a `date` header.
 */
function windowEndMs(windowMs: number, response: VenueResponse): number {
  const date = dateMs(response);
  if (date === undefined) return windowMs;
  const left = windowMs - (((date % windowMs) + windowMs) % windowMs);
  return left < 1000 ? left + windowMs : left;
}

/** The time left in the venue's current window as the response reports it, conservatively (never less). */
function windowRemainingMs(rule: FeedbackRule, bucket: BucketSpec & { windowMs: number }, response: VenueResponse): number {
  const W = bucket.windowMs;
  if (bucket.algorithm === 'sliding-window') return W;
  const reset = rule.resetHeader === undefined ? undefined : numberHeader(response, rule.resetHeader);
  const date = dateMs(response);
  let rem: number | undefined;
  if (reset !== undefined) {
    switch (rule.resetUnit) {
      case 'ms-from-now':
        rem = reset;
        break;
      case 's-from-now':
        rem = reset * 1000;
        break;
      case 'epoch-ms':
        rem = date === undefined ? undefined : reset - date;
        break;
      case 'epoch-s':
        rem = date === undefined ? undefined : reset * 1000 - date;
        break;
      case undefined:
        rem = undefined;
    }
  } else if (bucket.algorithm === 'fixed-window-aligned' && date !== undefined) {
    // The Date header is floored to the second: the real time is at or after it, so this overestimates.
    rem = W - (((date % W) + W) % W);
    if (rem < 1000) rem = W; // the window may have rolled over within that second
  }
  if (rem === undefined || !Number.isFinite(rem)) return W;
  return Math.min(W, Math.max(0, rem));
}

/**
 * The borrowed amount that keeps the limiter inside what the venue says is left.
 *
 * With safe parameters `(C, r)`, `C + r·(W + J) <= usable = L·(1 − margin)`, the venue's usage `U`
 * in a window that ends in `R` ms (the reset header, the clock alignment; `R = W` when unknown and
 * for sliding windows, whose entries may all stay for a whole window), the limiter admits at most
 * `C − b + r·R` more before the window ends, so `U + C − b + r·R <= usable` needs
 * `b >= U + C + r·R − usable` (bound 1).
 *
 * When the caller says how much of `U` is its own (`own`: requests it sent in this window whose
 * responses it had before sending this one, so the venue counted them before answering), the
 * others' usage is `O = U − own` and a second bound holds: in any venue window our own traffic is at
 * most `C + r·(W + J) <= usable` (the safe parameters), and raising `b` to `C + O` takes `O` off the
 * part still to come, so ours plus the others' stays `<= usable`; with `O <= 0` nothing is needed
 * (bound 2). Either bound is sound; the smaller one is returned, so a limiter alone on its account
 * loses nothing to the syncs (bound 2 is 0) while one that shares it is held back by what the others spent.
 */
function minBorrowed(
  rule: FeedbackRule,
  bucket: BucketSpec,
  key: BucketKey,
  limit: NormalizedLimit,
  value: number,
  response: VenueResponse,
  margin: number,
  own: OwnUsage | undefined,
  thisRequest: number,
  jitterMs: number,
): number | undefined {
  const venueLimit =
    (rule.limitHeader === undefined ? undefined : numberHeader(response, rule.limitHeader)) ??
    (bucket.algorithm === 'token-bucket' ? bucket.capacity : bucket.limit);
  const room = rule.meaning === 'used' ? venueLimit - value : value;
  if (!Number.isFinite(room)) return undefined;
  if (bucket.algorithm === 'token-bucket') {
    // A decaying counter: our tokens must not exceed what is left of its capacity, scaled like the safe limit.
    return Math.max(0, limit.capacity - Math.max(0, room) * (1 - margin));
  }
  const usable = venueLimit * (1 - margin);
  const used = venueLimit - room;
  const R = windowRemainingMs(rule, bucket, response);
  const bound1 = Math.max(0, used + limit.capacity + (limit.refillPerSec * R) / 1000 - usable);
  // Bound 2 rests on the safe parameters fitting what the venue reports as its limit now.
  if (own === undefined || limit.capacity + (limit.refillPerSec * (bucket.windowMs + jitterMs)) / 1000 > usable * (1 + 1e-12)) return bound1;
  // Our requests counted in this window: sent after its start (a sliding window: the last W).
  const since = bucket.algorithm === 'sliding-window' ? own.nowMs - bucket.windowMs : own.nowMs - (bucket.windowMs - R);
  const mine = Math.max(0, own.usage(key, since)) + (own.sentAtMs !== undefined && own.sentAtMs > since ? thisRequest : 0);
  const others = used - mine;
  const bound2 = others > 1e-9 ? limit.capacity + others : 0;
  return Math.min(bound1, bound2);
}

/** Whether the venue counts a charge for a response with this verdict. */
function countedNow(charge: Charge['charge'], verdict: Feedback['verdict']): boolean {
  return charge === 'always' || (charge === 'success') === (verdict === 'ok');
}

/** The cost the venue counts on `key` of the charges, for an answer with this verdict (in the charges' order). */
function countedCostOn(charges: readonly Charge[], key: BucketKey, verdict: Feedback['verdict']): number {
  let cost = 0;
  for (const c of charges) if (sameKey(c.key, key) && countedNow(c.charge, verdict)) cost += c.venueCost;
  return cost;
}

function keyOf(spec: VenueSpec, bucket: BucketSpec, identity: Identity): BucketKey | undefined {
  if (bucket.partition !== undefined) return undefined;
  const credential = scopeCredential(bucket, identity);
  return credential === undefined ? undefined : { venue: spec.id, credential, axis: bucket.id };
}

function sameKey(a: BucketKey, b: BucketKey): boolean {
  return a.venue === b.venue && a.credential === b.credential && (a.axis ?? 'request') === (b.axis ?? 'request');
}

/**
 * Reads a venue's response and says what the limiter should do.
 *
 * - Error rules (first match wins): the verdict (`rate_limited`, `banned`, `overloaded`, `error`),
 *   whether the request counted, the wait (Retry-After, a body field, or the documented duration)
 *   and the buckets to hold (`penalties`, each `{ key, hold: { forMs } }` for `limiter.penalize`).
 *   Without a matching rule: `ok` for 1xx-3xx, `error` otherwise, counted.
 * - Feedback rules: usage headers (used or remaining) become `syncs` for `limiter.sync`, with the
 *   borrowed amount that keeps the limiter inside what the venue says is left in its window.
 * - Response-size costs become `extraChecks` (record them).
 * - With the `deferred` option, the deferred charges the answer's outcome applied become `deferred`
 *   (record them): a charge on `failure` applies to an answer whose verdict is not `ok` (an HTTP 4xx or
 *   5xx, a refusal, an error in the body), on `success` to an `ok` one; an answer the spec's error rule
 *   marks as not counted applies neither.
 *
 * @param spec - the spec the request was resolved with.
 * @param request - the request that was sent.
 * @param response - status, lower-case headers, body (parsed JSON or text).
 * @param identity - the identity the request was sent with.
 * @param options - `margin`, `burstFraction`, `jitterMs` as for `resolveRequest`; `own`, the
 * caller's own usage of each key, so that usage headers only hold the limiter back by what other
 * clients spent (see {@link OwnUsage}).
 * @example
 * ```ts
 * const fb = interpretResponse(spec, req, { status: res.status, headers, body }, identity);
 * for (const s of fb.syncs) await limiter.sync(s.key, s.limit, s.minBorrowed);
 * for (const p of fb.penalties) await limiter.penalize(p.key, p.hold);
 * ```
 */
export function interpretResponse(
  spec: VenueSpec,
  request: VenueRequest,
  response: VenueResponse,
  identity: Identity,
  options: InterpretOptions = {},
): Feedback {
  const margin = options.margin ?? DEFAULT_MARGIN;
  const resolved = resolveCharges(spec, request, identity, options);
  const charges: readonly Charge[] = resolved.ok ? resolved.charges : [];
  const tier = resolved.ok ? resolved.tier : (identity.tier ?? spec.defaultTier);
  let parsed: { readonly value: unknown } | undefined;
  const body: LazyBody = () => (parsed ??= { value: bodyOf(response) }).value;

  let rule: ErrorRule | undefined;
  for (const r of spec.errors ?? []) {
    if (!matchesRule(r, response, body)) continue;
    rule = r;
    break;
  }
  const verdict: Feedback['verdict'] = rule?.verdict ?? (response.status < 400 ? 'ok' : 'error');
  const counted = rule?.counted ?? true;
  const retryAfterMs = rule?.wait === undefined ? undefined : waitMs(rule.wait, response, body);

  const penalties: FeedbackPenalty[] = [];
  if (rule?.penalize !== undefined && retryAfterMs !== undefined && retryAfterMs > 0) {
    const keys: BucketKey[] = [];
    const add = (k: BucketKey): void => {
      if (!keys.some((x) => sameKey(x, k))) keys.push(k);
    };
    if (rule.penalize === 'charged') {
      for (const c of charges) add(c.key);
    } else {
      for (const id of rule.penalize) {
        const hit = charges.filter((c) => c.bucket.id === id);
        if (hit.length > 0) for (const c of hit) add(c.key);
        else {
          const b = spec.buckets.find((x) => x.id === id);
          const k = b === undefined ? undefined : keyOf(spec, b, identity);
          if (k !== undefined) add(k);
        }
      }
    }
    for (const key of keys) penalties.push({ key, hold: { forMs: retryAfterMs } });
  }

  const syncs: FeedbackSync[] = [];
  for (const f of spec.feedback ?? []) {
    const value = numberHeader(response, f.header);
    if (value === undefined) continue;
    // The buckets the request was charged on; a header naming one unpartitioned bucket (Binance's
    // used weight) applies to it even when the request could not be resolved.
    // (a charge's limit is its bucket's for this tier and options: the charges were resolved with them)
    const targets: { bucket: BucketSpec; key: BucketKey; limit?: EnforcedLimit }[] = [];
    for (const c of charges) {
      if (f.buckets.includes(c.bucket.id) && !targets.some((t) => sameKey(t.key, c.key))) targets.push({ bucket: c.bucket, key: c.key, limit: c.limit });
    }
    const only = f.buckets.length === 1 ? spec.buckets.find((x) => x.id === f.buckets[0]) : undefined;
    if (targets.length === 0 && only !== undefined) {
      const k = keyOf(spec, only, identity);
      if (k !== undefined) targets.push({ bucket: only, key: k });
    }
    for (const t of targets) {
      let limit: EnforcedLimit;
      try {
        limit = t.limit ?? bucketLimit(spec, t.bucket, tier, options);
      } catch {
        continue;
      }
      if ('perWindow' in limit) {
        if (t.bucket.algorithm === 'token-bucket') continue;
        // A window limit counts what this deployment sent itself (every process sharing the store): the
        // venue's count holds it back only by what others spent (RL-V5), given when the request was sent.
        const used = usedIn(f, t.bucket, value, response);
        if (used === undefined) continue;
        const own = options.own;
        const send =
          own?.sentAtMs === undefined
            ? undefined
            : {
                sentAtMs: own.sentAtMs,
                answeredAtMs: own.nowMs,
                countedCost: counted ? countedCostOn(charges, t.key, verdict) : 0,
                // (the caller's own sends as they are: window feedback reads only these questions of them)
                own: own.answered === undefined ? undefined : (own as OwnUsage & OwnWindowSends),
              };
        syncs.push(windowFeedback(f, t.bucket, t.key, limit, used, response, send));
        continue;
      }
      const mine = counted ? countedCostOn(charges, t.key, verdict) : 0;
      // a bucket whose deferred charges may be in flight keeps their share free too
      const keep = options.deferred === true ? bucketMargin(spec, t.bucket, options) : margin;
      const mb = minBorrowed(f, t.bucket, t.key, limit, value, response, keep, options.own, mine, options.jitterMs ?? DEFAULT_JITTER_MS);
      if (mb === undefined) continue;
      syncs.push({ key: t.key, limit, minBorrowed: mb });
    }
  }

  const extra: BucketCheck[] = [];
  for (const c of charges) {
    const cost = c.rule.cost.kind === 'response' ? responseCost(c.rule.cost, body(), readPath) : 0;
    if (cost > 0) extra.push({ key: c.key, limit: c.limit, cost });
  }

  // Deferred charges (admitted without reserving them) the venue applied: its answer's outcome is theirs.
  const deferred: BucketCheck[] = [];
  if (counted) {
    for (const c of charges) {
      if (!c.deferred || !countedNow(c.charge, verdict)) continue;
      const prev = deferred.find((d) => sameKey(d.key, c.key));
      if (prev === undefined) deferred.push({ key: c.key, limit: c.limit, cost: c.venueCost });
      else deferred[deferred.indexOf(prev)] = { ...prev, cost: prev.cost + c.venueCost };
    }
  }

  const feedback: { -readonly [K in keyof Feedback]: Feedback[K] } = { counted, verdict, syncs, penalties };
  if (deferred.length > 0) feedback.deferred = deferred;
  if (rule !== undefined) feedback.rule = rule.id;
  if (retryAfterMs !== undefined) feedback.retryAfterMs = retryAfterMs;
  if (extra.length > 0) feedback.extraChecks = extra;
  return feedback;
}
