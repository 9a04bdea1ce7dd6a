import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';
import { lateBuckets, type LateBucket } from '@core/exchange-specs';
import type { OwnSendLog } from './own-send-log.js';

/**
 * What the paced fetches on one limiter object in this process know of their own sends, per bucket key:
 * a bucket of the IP is sent on by every credential's fetch, and a usage header reports all of them, so
 * each fetch must know the others' answered sends (`seq` orders sends and answers as they happened).
 */
export interface SharedSendLog {
  readonly sends: Map<string, OwnSendLog>;
  seq: number;
  /** Per venue id: per `Date` header value (ms), the earliest time an answer so dated arrived (see `noteDate`). */
  readonly dated: Map<string, Map<number, number>>;
  /** Per venue id: per `Date` header value (ms), the latest send time (the limiter's clock) of a request whose answer was so dated (see `noteDate`). */
  readonly datedSends: Map<string, Map<number, number>>;
  /** Per venue id: the fastest answer seen and the recent answers (see `judgeAnswer`). */
  readonly answers: Map<string, AnswerTimes>;
}

/** One recent answer: when it came, how long it took, how long after its admission, its window checks, and whether its send was counted again. */
interface Answered {
  readonly at: number;
  readonly answerMs: number;
  readonly sinceAdmittedMs: number;
  readonly checks: readonly BucketCheck[];
  counted: boolean;
}

/** The answers of one venue seen by the paced fetches on one limiter object in this process. */
interface AnswerTimes {
  fastest: number;
  readonly recent: Answered[];
}

/** How long answers are kept for a faster one to judge again (a minute's window and its jitter allowance), and how many at most. */
const ANSWER_MEMORY_MS = 61_000;
const ANSWER_MEMORY_COUNT = 256;

/** The window limits of a request's checks (`lateBuckets`), found once per checks list: a request shape's checks are one list. */
const lateOfChecks = new WeakMap<readonly BucketCheck[], readonly LateBucket[]>();

function lateOf(checks: readonly BucketCheck[]): readonly LateBucket[] {
  let late = lateOfChecks.get(checks);
  if (late === undefined) lateOfChecks.set(checks, (late = lateBuckets(checks)));
  return late;
}

/**
 * Judges an answer for lateness: an answer is no faster than its request's trip to the venue, so one that came
 * more than half a window limit's jitter allowance slower than the fastest answer of the venue may have reached it
 * that much later than its send time. Its send is then counted again from now on those limits (twice, never too
 * little), unless it was answered within the whole allowance of its admission (`sinceAdmittedMs`): a request
 * reaches the venue before its answer comes back, so that one reached it in time, however late this process
 * noticed the answer (a busy event loop). A new fastest answer judges the recent ones again (at a cold start the
 * first answers wait for new connections). One comparison per answer in the common case.
 */
export function judgeAnswer(
  log: SharedSendLog,
  limiter: RateLimiter,
  venue: string,
  checks: readonly BucketCheck[],
  answer: { readonly answerMs: number; readonly sinceAdmittedMs: number },
  now: number,
): void {
  let t = log.answers.get(venue);
  if (t === undefined) log.answers.set(venue, (t = { fastest: Number.POSITIVE_INFINITY, recent: [] }));
  const { answerMs, sinceAdmittedMs } = answer;
  const mine: Answered = { at: now, answerMs, sinceAdmittedMs, checks, counted: false };
  const faster = answerMs < t.fastest;
  if (faster) t.fastest = answerMs;
  while (t.recent.length > 0 && ((t.recent[0]?.at ?? now) < now - ANSWER_MEMORY_MS || t.recent.length >= ANSWER_MEMORY_COUNT)) t.recent.shift();
  t.recent.push(mine);
  for (const a of faster ? t.recent : [mine]) {
    if (a.counted) continue;
    const lateMs = a.answerMs - t.fastest;
    let any = false;
    for (const b of lateOf(a.checks)) {
      if (lateMs > b.jitterMs / 2 && a.sinceAdmittedMs > b.jitterMs) {
        limiter.record(b.key, b.cost);
        any = true;
      }
    }
    a.counted = any;
  }
}

/** How long the `Date` headers of a venue's answers are kept at the least (forgotten in batches, up to twice as long): beyond the longest clock-aligned window a header bounds (a minute). */
const DATED_MS = 120_000;

/**
 * Notes that an answer from `venue` dated `dateMs` (its `Date` header) arrived at `at` (the caller's
 * clock): the venue's clock had passed `dateMs` by then. Keeps the earliest arrival per date. With
 * `sentAt` (the request's send time as the limiter keeps it: its admission's, at or before it went out),
 * also the latest such send per date: the venue's clock had not reached `dateMs` plus a second when it
 * dated the answer, after that send.
 */
export function noteDate(log: SharedSendLog, venue: string, dateMs: number, at: number, sentAt?: number): void {
  keepPerDate(log.dated, venue, dateMs, at, (value, kept) => value < kept);
  if (sentAt !== undefined) keepPerDate(log.datedSends, venue, dateMs, sentAt, (value, kept) => value > kept);
}

/** Keeps `value` for `dateMs` of `venue` when none is kept or `wins` over the kept one; a new date forgets, in a batch, those over {@link DATED_MS} older. */
function keepPerDate(
  byVenue: Map<string, Map<number, number>>,
  venue: string,
  dateMs: number,
  value: number,
  wins: (value: number, kept: number) => boolean,
): void {
  let d = byVenue.get(venue);
  if (d === undefined) byVenue.set(venue, (d = new Map()));
  const kept = d.get(dateMs);
  if (kept !== undefined && !wins(value, kept)) return;
  d.set(dateMs, value);
  if (kept === undefined && d.size > 2 * (DATED_MS / 1000)) {
    for (const t of d.keys()) if (t < dateMs - DATED_MS) d.delete(t);
    sinceAnswers.delete(d);
    beforeAnswers.delete(d);
    return;
  }
  // the answers kept that read the date changed: at or after a time (since), a second before a time (before)
  const since = sinceAnswers.get(d);
  if (since !== undefined) for (const venueMs of since.keys()) if (dateMs >= venueMs) since.delete(venueMs);
  const before = beforeAnswers.get(d);
  if (before !== undefined) for (const venueMs of before.keys()) if (dateMs + 1000 <= venueMs) before.delete(venueMs);
}

/**
 * What {@link answeredSinceOf} and {@link sentBeforeOf} answered per time, per venue's dates, until a date they read
 * changes: a usage report asks them of its window's start, which the answers of a whole window share.
 */
const sinceAnswers = new WeakMap<Map<number, number>, Map<number, number | undefined>>();
const beforeAnswers = new WeakMap<Map<number, number>, Map<number, number | undefined>>();
/** Times kept per venue (a few windows' starts). */
const ANSWERED_TIMES = 64;

/** The answer kept for `venueMs`, or `fold` of the dates, kept. */
function keptAnswer(
  memos: WeakMap<Map<number, number>, Map<number, number | undefined>>,
  dates: Map<number, number>,
  venueMs: number,
  fold: () => number | undefined,
): number | undefined {
  let memo = memos.get(dates);
  if (memo?.has(venueMs) === true) return memo.get(venueMs);
  const answer = fold();
  if (memo === undefined || memo.size >= ANSWERED_TIMES) memos.set(dates, (memo = new Map()));
  memo.set(venueMs, answer);
  return answer;
}

/**
 * The latest send time (the limiter's clock) of a request to `venue` whose answer was dated at least a
 * second before `venueMs` (a `Date` header is floored to the second), if any: the venue's clock reached
 * `venueMs` after it.
 */
export function sentBeforeOf(log: SharedSendLog, venue: string, venueMs: number): number | undefined {
  const dated = log.datedSends.get(venue);
  if (dated === undefined) return undefined;
  return keptAnswer(beforeAnswers, dated, venueMs, () => {
    let latest: number | undefined;
    for (const [t, sentAt] of dated) if (t + 1000 <= venueMs && (latest === undefined || sentAt > latest)) latest = sentAt;
    return latest;
  });
}

/** The earliest arrival (the caller's clock) of an answer from `venue` dated `venueMs` or later, if any. */
export function answeredSinceOf(log: SharedSendLog, venue: string, venueMs: number): number | undefined {
  const dated = log.dated.get(venue);
  if (dated === undefined) return undefined;
  return keptAnswer(sinceAnswers, dated, venueMs, () => {
    let first: number | undefined;
    for (const [t, at] of dated) if (t >= venueMs && (first === undefined || at < first)) first = at;
    return first;
  });
}

/**
 * Counts a send again from now on its window limits when it went out `lateMs` later than its limiter admitted it and
 * that is more than half a limit's jitter allowance (a timer that fired late on a busy event loop): it may reach the
 * venue later than the allowance covers, so it is counted twice rather than too little (RL-R1). Answers whether it was.
 */
export function recordLate(limiter: RateLimiter, checks: readonly BucketCheck[], lateMs: number): boolean {
  let any = false;
  for (const b of lateOf(checks)) {
    if (lateMs > b.jitterMs / 2) {
      limiter.record(b.key, b.cost);
      any = true;
    }
  }
  return any;
}

const logs = new WeakMap<RateLimiter, SharedSendLog>();

/** The send log of a limiter object in this process (created on first use). */
export function sendLogOf(limiter: RateLimiter): SharedSendLog {
  let l = logs.get(limiter);
  if (l === undefined) {
    l = { sends: new Map(), seq: 0, dated: new Map(), datedSends: new Map(), answers: new Map() };
    logs.set(limiter, l);
  }
  return l;
}
