import type { BucketKey, WindowLimit } from '@core/rate-limit-contract';
import { dateMs, numberHeader } from './response-headers.js';
import type { FeedbackSync, VenueResponse, WindowEnd } from './venue-io.js';
import type { BucketSpec, FeedbackRule } from './venue-spec.js';

type WindowBucket = BucketSpec & { readonly windowMs: number; readonly limit: number };

/** One of the caller's own sends on a key, answered (see {@link OwnWindowSends}). */
export interface AnsweredSend {
  /** When it was sent (the caller's clock, epoch ms). */
  readonly sentAtMs: number;
  /** The cost the venue counted for it on the key. */
  readonly cost: number;
  /** The window its own answer reported (its sync's `windowEnd`), when known. */
  readonly windowEnd?: WindowEnd;
  /**
   * When its answer arrived (the caller's clock, epoch ms), when known: the venue's window whose usage the
   * answer reported had begun by then.
   */
  readonly answeredAtMs?: number;
  /**
   * What the venue said it had counted on the key when it counted this send (its own answer's usage, the
   * sync's `minBorrowed`), when known. A fixed window's count never falls, and this send added to it, so
   * a report of the same window that says more was counted after this send: it counted this send.
   */
  readonly reportedUsed?: number;
}

/**
 * What a caller knows of its own sends on a window limit (paced-fetch keeps it), so that a usage report
 * says how much of this caller's own cost the venue certainly counted in the reported window (RL-V5, the
 * contract's `SyncOptions.countedOwnCost`: a lower bound the store compares with its own).
 */
export interface OwnWindowSends {
  /** The caller's own sends on `key` whose answers arrived before `beforeMs` (so the venue had counted them by then). */
  answered(key: BucketKey, beforeMs: number): Iterable<AnsweredSend>;
  /**
   * The earliest time (the caller's clock) an answer from this venue arrived whose `Date` header said
   * `venueMs` or later, on any request: the venue's clock had passed `venueMs` by then (it dated the
   * answer, floored to the second, before sending it). Undefined when none did.
   */
  answeredSince?(venueMs: number): number | undefined;
  /**
   * The latest send time (the limiter's clock: the send's admission time, at or before it went out) of a
   * request to this venue whose answer's `Date` header was at least a second before `venueMs`, on any
   * request: the venue's clock had not reached `venueMs` when it dated that answer, after the request
   * was sent, so it reached `venueMs` after that send time. Undefined when none was.
   */
  sentBefore?(venueMs: number): number | undefined;
  /**
   * The caller's own sends on `key` whose answers arrived after the reporting request was sent and before
   * its own answer did (sent together with it, or just before or after): a fixed window's report takes
   * as counted those whose own answers reported less of the same window (`reportedUsed`).
   */
  answeredMeanwhile?(key: BucketKey): Iterable<AnsweredSend>;
  /**
   * Optional, for speed: the two folds a usage report takes of `answered(key, beforeMs)` ({@link earliestAnsweredIn}
   * and {@link costCounted}), answered from a summary of the same sends rather than by handing them out one by one
   * (a busy caller's sends of a minute's window are tens of thousands). Must answer what the folds answer.
   */
  answeredQuery?(key: BucketKey, beforeMs: number): AnsweredQuery;
}

/** The folds of a caller's answered sends on a key that a usage report takes (see {@link OwnWindowSends.answeredQuery}). */
export interface AnsweredQuery {
  /** {@link earliestAnsweredIn} of the sends. */
  earliestAnsweredIn(end: WindowEnd, windowMs: number): number | undefined;
  /** {@link costCounted} of the sends. */
  costCounted(latestStartMs: number, end: WindowEnd | undefined, windowMs: number, skip?: CountedRange): number;
}

/** Whether two window ends, each known to within half a window, are the same window's (two windows end at least a window apart). */
function sameWindow(a: WindowEnd, b: WindowEnd): boolean {
  return a.earliestMs <= b.latestMs && b.earliestMs <= a.latestMs;
}

/** Whether a window's end is known to within half a window: only then does it tell one window from the next. */
function narrow(end: WindowEnd, bucket: WindowBucket): boolean {
  return end.latestMs - end.earliestMs < bucket.windowMs / 2;
}

/** Whether a send's own answer reported the window that ends at `end`: its window's end known to within half of `windowMs`, and the same window. */
export function reportedSameWindow(u: AnsweredSend, end: WindowEnd, windowMs: number): boolean {
  return u.windowEnd !== undefined && u.windowEnd.latestMs - u.windowEnd.earliestMs < windowMs / 2 && sameWindow(u.windowEnd, end);
}

/** The earliest answer among `sends` that reported the window ending at `end` (see {@link reportedSameWindow}): that window had begun by then. */
export function earliestAnsweredIn(sends: Iterable<AnsweredSend>, end: WindowEnd, windowMs: number): number | undefined {
  let first: number | undefined;
  for (const u of sends)
    if (u.answeredAtMs !== undefined && (first === undefined || u.answeredAtMs < first) && reportedSameWindow(u, end, windowMs)) first = u.answeredAtMs;
  return first;
}

/**
 * How far the send times a limiter counts itself are widened on each side when the caller leaves them out of
 * `outsideOwnCost`: a store converting times between its clock and the limiter's may round one by far less.
 */
const EDGE_MS = 0.001;

/** Send times `[from, to]` a limiter counts itself in a usage report (RL-V5). */
export type CountedRange = readonly [number, number];

/** Whether send time `t` lies in `range`. */
export function inRange(t: number, range: CountedRange | undefined): boolean {
  return range !== undefined && t >= range[0] && t <= range[1];
}

/**
 * The cost of `sends` a window holds that began at `latestStartMs` at the latest: those sent after it, and (given
 * its `end`) those that reported it; those sent in `skip` left out.
 */
export function costCounted(sends: Iterable<AnsweredSend>, latestStartMs: number, end: WindowEnd | undefined, windowMs: number, skip?: CountedRange): number {
  let cost = 0;
  for (const u of sends) {
    if (!(u.cost > 0) || inRange(u.sentAtMs, skip)) continue;
    if (u.sentAtMs > latestStartMs || (end !== undefined && reportedSameWindow(u, end, windowMs))) cost += u.cost;
  }
  return cost;
}

/** What the venue counted in its window, from a usage header (used, or remaining against its limit). */
export function usedIn(rule: FeedbackRule, bucket: BucketSpec & { limit: number }, value: number, response: VenueResponse): number | undefined {
  const venueLimit = (rule.limitHeader === undefined ? undefined : numberHeader(response, rule.limitHeader)) ?? bucket.limit;
  const used = rule.meaning === 'used' ? value : venueLimit - value;
  return Number.isFinite(used) ? Math.max(0, used) : undefined;
}

/**
 * The least and the most time the venue's fixed window still had to run when it answered, as its
 * headers tell: a reset header in whole seconds may have been rounded either way, a `Date` header is
 * floored to the second. Undefined for a sliding window and when nothing tells.
 */
function remainingBounds(rule: FeedbackRule, bucket: WindowBucket, response: VenueResponse): { least: number; most: number } | undefined {
  const W = bucket.windowMs;
  if (bucket.algorithm === 'sliding-window' || bucket.algorithm === 'token-bucket') return undefined;
  const reset = rule.resetHeader === undefined ? undefined : numberHeader(response, rule.resetHeader);
  const date = dateMs(response);
  let least: number | undefined;
  let most: number | undefined;
  if (reset !== undefined) {
    switch (rule.resetUnit) {
      case 'ms-from-now':
        least = most = reset;
        break;
      case 's-from-now':
        least = (reset - 1) * 1000;
        most = (reset + 1) * 1000;
        break;
      case 'epoch-ms':
        if (date !== undefined) [least, most] = [reset - date - 1000, reset - date];
        break;
      case 'epoch-s':
        if (date !== undefined) [least, most] = [reset * 1000 - date - 1000, (reset + 1) * 1000 - date];
        break;
      case undefined:
        break;
    }
  } else if (bucket.algorithm === 'fixed-window-aligned' && date !== undefined) {
    const into = ((date % W) + W) % W;
    [least, most] = [W - into - 1000, W - into];
  }
  if (least === undefined || most === undefined || !Number.isFinite(least) || !Number.isFinite(most)) return undefined;
  return { least: Math.max(0, Math.min(W, least)), most: Math.max(0, Math.min(W, most)) };
}

/**
 * How long, at the least, the venue's window had been counting when it answered: a sliding window its
 * whole length; a fixed window its length less the most time its headers say it still had to run; 0
 * when nothing tells (the window may have begun with this very request).
 */
function elapsedAtLeastMs(rule: FeedbackRule, bucket: WindowBucket, response: VenueResponse): number {
  if (bucket.algorithm === 'sliding-window') return bucket.windowMs;
  const r = remainingBounds(rule, bucket, response);
  return r === undefined ? 0 : bucket.windowMs - r.most;
}

/** A report's own send and the request's own cost on the key, as {@link windowFeedback} needs them. */
export interface ReportingSend {
  /** When the reporting request was sent (the caller's clock, epoch ms). */
  readonly sentAtMs: number;
  /**
   * When its answer arrived (the caller's clock, epoch ms), when known: the venue counted the request by
   * then, so an answer faster than the jitter allowance bounds when the venue counted it more tightly.
   */
  readonly answeredAtMs?: number;
  /** Its own cost on the key the venue counted in the reported usage (0 when it was not counted). */
  readonly countedCost: number;
  /** The caller's earlier sends (see {@link OwnWindowSends}). */
  readonly own: OwnWindowSends | undefined;
}

/**
 * The sync of a window limit (RL-V5): what the venue counted, how long its window had been counting at
 * the least when the request was sent (the send's jitter allowance taken off, or the time its answer
 * took when that was shorter: the venue counted the request before answering), and, given the
 * reporting send, the window's end as far as it is known and the cost of own sends the caller knows the
 * venue counted in that window (`countedOwnCost`, see below).
 */
export function windowFeedback(
  rule: FeedbackRule,
  bucket: WindowBucket,
  key: BucketKey,
  limit: WindowLimit & { readonly jitterMs: number },
  used: number,
  response: VenueResponse,
  send: ReportingSend | undefined,
): FeedbackSync {
  // the venue counted the request (and answered) within the jitter allowance of its send, and before its answer came back
  const answerMs = send?.answeredAtMs === undefined ? Number.NaN : send.answeredAtMs - send.sentAtMs;
  // (an answer time before the send time is a clock that cannot be trusted: the allowance alone)
  const counting = answerMs >= 0 ? Math.min(limit.jitterMs, answerMs) : limit.jitterMs;
  const windowElapsedMs = elapsedAtLeastMs(rule, bucket, response) - counting;
  if (send === undefined) return { key, limit, minBorrowed: used, windowElapsedMs };
  const r = remainingBounds(rule, bucket, response);
  // the window's end in the caller's clock
  const end = r === undefined ? undefined : { earliestMs: send.sentAtMs + r.least, latestMs: send.sentAtMs + counting + r.most };
  // only an end known to within half a window tells one window from the next
  let windowEnd = end !== undefined && narrow(end, bucket) ? end : undefined;
  const query = send.own?.answeredQuery?.(key, send.sentAtMs);
  const answered = query === undefined ? [...(send.own?.answered(key, send.sentAtMs) ?? [])] : [];
  // the window began by the time any answer reporting it arrived: a tighter bound than a Date header's
  // second, so the sends made between the two are taken as counted by their times
  let latestStart = send.sentAtMs - windowElapsedMs;
  if (windowEnd !== undefined) {
    const first = query === undefined ? earliestAnsweredIn(answered, windowEnd, bucket.windowMs) : query.earliestAnsweredIn(windowEnd, bucket.windowMs);
    if (first !== undefined) latestStart = Math.min(latestStart, first);
  }
  // a clock-aligned window began at the latest multiple of its length at or before this answer's Date (in
  // the venue's clock; the report's window is that one or the one before), so it had begun when any
  // answer dated at or after that multiple arrived, whichever request it answered: with many requests in
  // flight, within a round trip of the start, where the Date's second alone bounds it to a second
  const date = bucket.algorithm === 'fixed-window-aligned' && rule.resetHeader === undefined ? dateMs(response) : undefined;
  if (date !== undefined) {
    const start = date - (((date % bucket.windowMs) + bucket.windowMs) % bucket.windowMs);
    const witnessed = send.own?.answeredSince?.(start);
    if (witnessed !== undefined) latestStart = Math.min(latestStart, witnessed);
    // and it began after any request whose answer was dated before that multiple was sent: the window's
    // end is then known from below within a round trip too, where the Date's second alone leaves a second
    // (the store forgets what surely reached the venue before the window began, RL-V9)
    const before = send.own?.sentBefore?.(start);
    if (windowEnd !== undefined && before !== undefined && before + bucket.windowMs > windowEnd.earliestMs && before + bucket.windowMs <= windowEnd.latestMs) {
      windowEnd = { earliestMs: before + bucket.windowMs, latestMs: windowEnd.latestMs };
    }
  }
  const base = { key, limit, minBorrowed: used, windowElapsedMs: send.sentAtMs - latestStart };
  // A fixed window's end, however loosely known, bounds when it began: the limiter takes none of this deployment's
  // sends from before then as counted. Unknown, it ends after this request was counted and within a window of it.
  const fixed = bucket.algorithm !== 'sliding-window';
  const bound = windowEnd ?? end ?? (fixed ? { earliestMs: send.sentAtMs, latestMs: send.sentAtMs + counting + bucket.windowMs } : undefined);
  // The send times whose sends the limiter counts itself (RL-V5): from when the window surely began (a rolling
  // window's start is later than any send of the caller's it could count) to `jitterMs` before this request.
  // (widened by a microsecond each way: a store that keeps times in its own clock converts them, and a send at an
  // edge must not fall on both sides of it)
  const range: CountedRange = [
    bound === undefined ? Number.NEGATIVE_INFINITY : bound.latestMs - bucket.windowMs - EDGE_MS,
    send.sentAtMs - limit.jitterMs + EDGE_MS,
  ];
  // What this caller knows the venue counted of its own in the reported window: the reporting request, its sends
  // answered before this request was sent that the window holds (sent after its latest start, or reported in the
  // same fixed window), and its sends answered while this request was on its way whose own answers reported less
  // of the same fixed window (its count never falls, so the venue counted them first); and the part of it sent
  // outside that range, which the limiter adds to its own count of every process's sends (RL-V5).
  const earlier =
    query === undefined
      ? (skip?: CountedRange) => costCounted(answered, latestStart, windowEnd, bucket.windowMs, skip)
      : (skip?: CountedRange) => query.costCounted(latestStart, windowEnd, bucket.windowMs, skip);
  let certain = send.countedCost + earlier();
  let outside = (inRange(send.sentAtMs, range) ? 0 : send.countedCost) + earlier(range);
  if (windowEnd !== undefined) {
    for (const u of send.own?.answeredMeanwhile?.(key) ?? []) {
      if (
        !(u.cost > 0) ||
        u.reportedUsed === undefined ||
        !(u.reportedUsed < used) ||
        u.windowEnd === undefined ||
        !narrow(u.windowEnd, bucket) ||
        !sameWindow(u.windowEnd, windowEnd)
      )
        continue;
      certain += u.cost;
      if (!inRange(u.sentAtMs, range)) outside += u.cost;
    }
  }
  const sync: { -readonly [K in keyof FeedbackSync]: FeedbackSync[K] } = base;
  if (bound !== undefined) sync.windowEnd = bound;
  if (certain > 0) sync.countedOwnCost = certain;
  if (outside > 0) sync.outsideOwnCost = outside;
  return sync;
}
