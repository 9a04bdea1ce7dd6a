import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';
import { lateBuckets } from '@core/exchange-specs';

/**
 * What the paced fetches on one limiter object in this process know of their own sends, per bucket key:
 * a bucket of the IP is sent on by every credential's fetch, and a usage header reports all of them, so
 * each fetch must know the others' answered sends (`seq` orders sends and answers as they happened).
 */
export interface SharedSendLog<T> {
  readonly sends: Map<string, T[]>;
  seq: number;
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

/**
 * Counts a send again from now on its window limits when it went out `lateMs` later than its limiter admitted it and
 * that is more than half a limit's jitter allowance (a timer that fired late on a busy event loop): it may reach the
 * venue later than the allowance covers, so it is counted twice rather than too little (RL-R1).
 */
export function recordLate(limiter: RateLimiter, checks: readonly BucketCheck[], lateMs: number): void {
  for (const b of lateBuckets(checks)) if (lateMs > b.jitterMs / 2) limiter.record(b.key, b.cost);
}

const logs = new WeakMap<RateLimiter, SharedSendLog<unknown>>();

/** The send log of a limiter object in this process (created on first use). */
export function sendLogOf<T>(limiter: RateLimiter): SharedSendLog<T> {
  let l = logs.get(limiter);
  if (l === undefined) {
    l = { sends: new Map(), seq: 0, dated: new Map(), datedSends: new Map() };
    logs.set(limiter, l);
  }
  return l as SharedSendLog<T>;
}
