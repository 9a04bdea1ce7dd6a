import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';
import { recordLateSend } from '@core/exchange-specs';

/**
 * What the paced fetches on one limiter object in this process know of their own sends, per bucket key:
 * a bucket of the IP is sent on by every credential's fetch, and a usage header reports all of them, so
 * each fetch must know the others' answered sends (`seq` orders sends and answers as they happened).
 */
export interface SharedSendLog<T> {
  readonly sends: Map<string, T[]>;
  seq: number;
  /** Per venue id: how fast its answers come, to tell which sends may have reached it late (see `judgeAnswer`). */
  readonly answers: Map<string, AnswerTimes>;
  /** Per venue id: per `Date` header value (ms), the earliest time an answer so dated arrived (see `noteDate`). */
  readonly dated: Map<string, Map<number, number>>;
  /** Per venue id: per `Date` header value (ms), the latest send time (the limiter's clock) of a request whose answer was so dated (see `noteDate`). */
  readonly datedSends: Map<string, Map<number, number>>;
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
export function noteDate(log: SharedSendLog<unknown>, venue: string, dateMs: number, at: number, sentAt?: number): void {
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
  if (kept === undefined || wins(value, kept)) d.set(dateMs, value);
  if (kept === undefined && d.size > 2 * (DATED_MS / 1000)) for (const t of d.keys()) if (t < dateMs - DATED_MS) d.delete(t);
}

/**
 * The latest send time (the limiter's clock) of a request to `venue` whose answer was dated at least a
 * second before `venueMs` (a `Date` header is floored to the second), if any: the venue's clock reached
 * `venueMs` after it.
 */
export function sentBeforeOf(log: SharedSendLog<unknown>, venue: string, venueMs: number): number | undefined {
  let latest: number | undefined;
  for (const [t, sentAt] of log.datedSends.get(venue) ?? []) if (t + 1000 <= venueMs && (latest === undefined || sentAt > latest)) latest = sentAt;
  return latest;
}

/** The earliest arrival (the caller's clock) of an answer from `venue` dated `venueMs` or later, if any. */
export function answeredSinceOf(log: SharedSendLog<unknown>, venue: string, venueMs: number): number | undefined {
  let first: number | undefined;
  for (const [t, at] of log.dated.get(venue) ?? []) if (t >= venueMs && (first === undefined || at < first)) first = at;
  return first;
}

/** One answer judged for lateness: when it came, how long it took, the lateness it was judged with, its checks and its send. */
interface JudgedAnswer {
  readonly at: number;
  readonly answerMs: number;
  judgedMs: number;
  readonly checks: readonly BucketCheck[];
  /** The send time the store holds its send at; none when a record already counted it again from when it went out. */
  readonly heldAtMs: number | undefined;
  /** The lateness the records of its send cover (RL-V7: it was moved up to its send plus this), 0 before any. */
  coveredMs: number;
}

/** The answers of one venue seen by the paced fetches on one limiter object in this process. */
export interface AnswerTimes {
  /** The fastest answer seen, ms (`Infinity` before the first). */
  fastest: number;
  /** When the first answer came (`Infinity` before it): a request sent before then had no answer to be judged by. */
  firstAt: number;
  /** The answers of the last {@link ANSWER_MEMORY_MS}, oldest first (at most {@link ANSWER_MEMORY_COUNT}). */
  readonly recent: JudgedAnswer[];
}

/** How long answers are remembered for a later, faster answer to judge again (a minute's window and its jitter allowance). */
export const ANSWER_MEMORY_MS = 61_000;
/** The most answers remembered per venue (the oldest go first). */
export const ANSWER_MEMORY_COUNT = 512;

/**
 * Judges an answer that took `answerMs` for lateness (exchange-specs' `recordLateSend`): how much slower
 * it came than the fastest answer of the venue seen so far in this process, its own included. An answer
 * is no faster than its request's trip to the venue, so a slower one may have arrived that much later than
 * the others. A request sent before any answer came is judged against no trip at all (late by its whole
 * answer time): at a cold start the first requests all wait for new connections, and the sends booked
 * behind them may go out before a faster answer shows how late they reached the venue. When an answer
 * is the fastest yet, the remembered answers are judged again against it: the first answers on new
 * connections need not be the slowest. A late send's window limits say so to the store (RL-V7): the send
 * went out at some time from its send to its send plus the lateness, and the store moves it there (a send
 * marked answered keeps counting until its mark; see `judge` for sends judged again).
 */
export function judgeAnswer(
  limiter: RateLimiter,
  times: AnswerTimes,
  checks: readonly BucketCheck[],
  answerMs: number,
  now: number,
  heldAtMs: number | undefined,
): void {
  while (times.recent.length > 0 && ((times.recent[0]?.at ?? now) <= now - ANSWER_MEMORY_MS || times.recent.length >= ANSWER_MEMORY_COUNT))
    times.recent.shift();
  const faster = answerMs < times.fastest;
  if (faster) {
    times.fastest = answerMs;
    for (const a of times.recent) {
      const late = a.answerMs - answerMs;
      if (late <= a.judgedMs) continue;
      judge(limiter, a, late, a.judgedMs);
      a.judgedMs = late;
    }
  }
  // a request sent before any answer came (a cold start: every connection new, the venue perhaps busy
  // with everyone's first requests) is judged against no trip at all: it may have reached the venue as
  // late as its answer came, and no faster answer may come before the sends booked behind it go out
  const late = answerMs - (now - answerMs < times.firstAt ? 0 : times.fastest);
  times.firstAt = Math.min(times.firstAt, now);
  const judged: JudgedAnswer = { at: now, answerMs, judgedMs: late, checks, heldAtMs, coveredMs: 0 };
  if (late > 0) judge(limiter, judged, late, 0);
  if (checks.some((c) => c.limit !== null && 'perWindow' in c.limit)) times.recent.push(judged);
}

/**
 * Records an answer's send as late by `late`, judged before as late by `previous`. A send already counted
 * again from when it went out (`heldAtMs` undefined) is counted again from now on the window limits it is
 * newly late for (a record from now holds any arrival since). Any other moves to where it can have gone
 * out (RL-V7), on every window limit it is late for, when it is newly late for one, or late by more than
 * half a limit's jitter allowance beyond what its last move covered (the allowance holds the rest): moves
 * count nothing twice, and a faster answer (a new fastest, however slightly) does not move every
 * remembered send again.
 */
function judge(limiter: RateLimiter, a: JudgedAnswer, late: number, previous: number): void {
  if (a.heldAtMs === undefined) {
    recordLateSend(
      limiter,
      a.checks.filter((c) => !isLate(c, previous)),
      late,
    );
    return;
  }
  const covered = a.coveredMs;
  const due = a.checks.some((c) => isLate(c, late) && (!isLate(c, covered) || isLate(c, late - covered)));
  if (!due) return;
  recordLateSend(limiter, a.checks, late, { heldAtMs: a.heldAtMs, earliestMs: a.heldAtMs, latestMs: a.heldAtMs + late });
  a.coveredMs = late;
}

/** Whether `recordLateSend` records a check for a lateness (more than half its window's jitter allowance). */
function isLate(c: BucketCheck, lateMs: number): boolean {
  const l = c.limit;
  return l !== null && 'perWindow' in l && lateMs > (l.jitterMs ?? 0) / 2;
}

/** The answer times of a venue in a send log (created on first use). */
export function answerTimesOf(log: SharedSendLog<unknown>, venue: string): AnswerTimes {
  let t = log.answers.get(venue);
  if (t === undefined) {
    t = { fastest: Infinity, firstAt: Infinity, recent: [] };
    log.answers.set(venue, t);
  }
  return t;
}

const logs = new WeakMap<RateLimiter, SharedSendLog<unknown>>();

/** The send log of a limiter object in this process (created on first use). */
export function sendLogOf<T>(limiter: RateLimiter): SharedSendLog<T> {
  let l = logs.get(limiter);
  if (l === undefined) {
    l = { sends: new Map(), seq: 0, answers: new Map(), dated: new Map(), datedSends: new Map() };
    logs.set(limiter, l);
  }
  return l as SharedSendLog<T>;
}
