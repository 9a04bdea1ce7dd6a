// biome-ignore-all lint/style/noNonNullAssertion: the model indexes its own fixed-length tuples and arrays by construction; a miss is a bug the suite's self-test catches.
import type { SyncOptions } from '@core/rate-limit-contract';
import { HORIZON_MS, MAX_AMOUNT, MODEL_EPS } from './model-arithmetic.js';

/**
 * The arithmetic of window limits (MODEL.md in `@core/rate-limit-contract`, "Window limits"), written as
 * plainly as possible for the suite's {@link ReferenceModel}: a log of what was sent, and the question
 * "which intervals of send times hold how much". It shares no code with any implementation.
 *
 * A window limit admits at most `perWindow` of cost whose send times fall in any interval
 * `(T − span, T]`, `span = windowMs + jitterMs` (RL-V1). The log holds entries `[from, to]` of a cost
 * sent at some time in that range (one send: `from = to`); an entry counts in the interval ending at `T`
 * when `from <= T < to + span` (it may lie anywhere in its range, so it counts wherever it might).
 */

/** A window limit in its canonical form (`jitterMs` filled in). */
export interface ModelWindow {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly jitterMs: number;
}

/**
 * What an entry of a window bucket's log stands for: `own`, this deployment's admitted sends;
 * `recorded`, a record or an amount taken over from another definition (its send time is not known, so
 * a sync never takes it as counted); `reported`, what a venue reported that others spent (a sync), as
 * what that report adds over the reports counting longer (see {@link afterSync});
 * `penalty`, a penalty's full window; `start`, where the last report with `countedSinceMs` said a fixed
 * window began (cost 0, it counts nowhere: merges keep their ranges inside the windows of its phase).
 */
export type WindowEntryKind = 'own' | 'own-critical' | 'own-bulk' | 'recorded' | 'reported' | 'penalty' | 'start';

/** The kind of an admitted send of class `cls` (0 critical, 1 normal, 2 bulk; RL-Q1): `own` for normal. */
export function ownKindOf(cls: number): 'own' | 'own-critical' | 'own-bulk' {
  return cls === 0 ? 'own-critical' : cls === 2 ? 'own-bulk' : 'own';
}

/** What merges with what (RL-V6): entries of one kind, and admitted sends of every class together. */
function mergeGroup(kind: WindowEntryKind): string {
  return isOwn(kind) ? 'own' : kind;
}

/** The kind of two merged entries: admitted sends take the lowest class among them (never a higher class's room). */
function mergedKind(a: WindowEntryKind, b: WindowEntryKind): WindowEntryKind {
  if (!isOwn(a)) return a;
  return a === 'own-bulk' || b === 'own-bulk' ? 'own-bulk' : a === 'own' || b === 'own' ? 'own' : 'own-critical';
}

/** Whether an entry is one of this deployment's admitted sends, of any class. */
export function isOwn(kind: WindowEntryKind): boolean {
  return kind === 'own' || kind === 'own-critical' || kind === 'own-bulk';
}

/** One entry of a window bucket's log. */
export interface WindowEntry {
  readonly from: number;
  readonly to: number;
  readonly cost: number;
  readonly kind: WindowEntryKind;
  /**
   * An admitted send a sync said was answered (`answeredCost`, RL-V5), or such sends merged: a later sync
   * takes it as counted when the limiter learned it (`answeredAt`, else `to`) before its reporting request
   * was sent.
   */
  readonly answered?: boolean;
  /**
   * When the limiter learned that this one send (`from`, its send time; `to` is `from`) was answered. The
   * mark never makes a send count longer: the venue counted it when it arrived, whenever its answer came
   * back; only a send that may have reached the venue as late as its mark (RL-V7) has `to` at the mark.
   * Merged answered sends keep none: their `to` is the latest of their marks (their sends' own times are lost).
   */
  readonly answeredAt?: number;
  /**
   * What the sync that marked this one send answered reported with it, when that sync gave the fixed
   * window's end (`windowEnd`, known to within a quarter window): the usage it reported and that end. A
   * later sync of the same window (the two ends intersect) reporting more usage takes the send as counted:
   * the venue's count of a fixed window never falls, so it counted this send before that report's request.
   * Merged sends keep none.
   */
  readonly answerReport?: { readonly used: number; readonly earliestMs: number; readonly latestMs: number };
}

/** A sync's `windowEnd` when it tells its window from the next: in order, and known to within a quarter window. */
function tellingEnd(report: SyncOptions, w: ModelWindow): { readonly earliestMs: number; readonly latestMs: number } | undefined {
  const end = report.windowEnd;
  return end !== undefined && end.earliestMs <= end.latestMs && end.latestMs - end.earliestMs < w.windowMs / 4 ? end : undefined;
}

/** When the limiter learned that an answered entry was answered (its `to` for merged ones), else its `to`. */
function markOf(e: WindowEntry): number {
  return e.answeredAt ?? e.to;
}

/** The most entries a window bucket keeps (RL-V6); beyond it neighbouring entries are merged. */
export const MAX_WINDOW_ENTRIES = 128;

/** `windowMs + jitterMs`: the length of the intervals of send times that hold at most `perWindow`. */
export function spanOf(w: ModelWindow): number {
  return w.windowMs + w.jitterMs;
}

/** The tolerance of a window's comparisons (RL-A7): a billionth of `perWindow`. */
export function windowTolerance(w: ModelWindow): number {
  return MODEL_EPS * w.perWindow;
}

/** The long-run rate of a window limit as a token bucket reports it: capacity `perWindow`, `perWindow` per window. */
export function longRunRate(w: ModelWindow): { capacity: number; refillPerSec: number } {
  return { capacity: w.perWindow, refillPerSec: (w.perWindow * 1000) / w.windowMs };
}

/** The cost counted in the interval of send times ending at `T`. */
export function countAt(log: readonly WindowEntry[], span: number, T: number): number {
  let sum = 0;
  for (const e of log) if (e.from <= T && T < e.to + span) sum += e.cost;
  return sum;
}

/**
 * Whether a send of `cost` at `t` keeps every interval that contains it (those ending in `[t, t + span)`)
 * within the limit. The count only rises where an entry starts, so the intervals ending at `t` and at
 * each entry start in `(t, t + span)` are the ones to look at: bookings ahead close times too (RL-V2).
 */
export function fitsAt(
  log: readonly WindowEntry[],
  w: ModelWindow,
  cost: number,
  t: number,
  line: number = w.perWindow,
  countCritical = false,
  keep = 0,
): boolean {
  const span = spanOf(w);
  // a class with a line below the limit (RL-Q4) keeps every interval within it, counting everything but
  // critical sends: they spend the share the line keeps free for them; and bulk, everything counted,
  // within the limit less `keep` (half its share: see `bulkKeep`)
  const below = countCritical ? log : log.filter((e) => e.kind !== 'own-critical');
  const room = (T: number): boolean => {
    const all = countAt(log, span, T);
    if (all > w.perWindow + windowTolerance(w) - cost) return false;
    if (line === w.perWindow) return true;
    if (countAt(below, span, T) > line + windowTolerance(w) - cost) return false;
    return keep === 0 || !(all > w.perWindow - keep + windowTolerance(w) - cost);
  };
  if (!room(t)) return false;
  return log.every((e) => !(e.from > t && e.from < t + span) || room(e.from));
}

/**
 * What bulk leaves free of a window whatever critical calls spent (RL-Q4): half the share its line keeps
 * free; nothing for the other classes (`cls`: 0 critical, 1 normal, 2 bulk).
 */
export function bulkKeep(perWindow: number, line: number, cls: number): number {
  return cls === 2 ? (perWindow - line) / 2 : 0;
}

/**
 * The earliest time at or after `from` a send of `cost` fits, or `Infinity` when the cost exceeds the
 * limit (RL-V3). Only leaving entries make room, so the candidates are `from` and every time an entry
 * stops counting (`to + span`).
 */
export function earliestFit(
  log: readonly WindowEntry[],
  w: ModelWindow,
  cost: number,
  from: number,
  fits: (log: readonly WindowEntry[], w: ModelWindow, cost: number, t: number) => boolean = fitsAt,
  line: number = w.perWindow,
): number {
  if (cost > line + windowTolerance(w)) return Number.POSITIVE_INFINITY;
  const candidates = [from, ...log.map((e) => e.to + spanOf(w)).filter((t) => t > from)].sort((a, b) => a - b);
  for (const t of candidates) if (fits(log, w, cost, t)) return t;
  return Number.POSITIVE_INFINITY;
}

/**
 * A peek at a booked send held at `heldAt` (RL-V8): 0 when its window still has room for it there (one
 * unanswered admitted send at `heldAt` of exactly `cost` left out, a send of `cost` at `heldAt` keeps every
 * interval containing it within the limit itself), and when no such send is held; else the wait from `now`
 * until a new admission of `cost` fits with the held one still counted, at least 1 (ms).
 */
export function heldWait(log: readonly WindowEntry[], w: ModelWindow, cost: number, heldAt: number, now: number): number {
  const i = heldIndex(log, cost, heldAt);
  // asked at the entry's own time: the caller's copy may be off by a rounding
  if (i < 0 || fitsAt(withoutEntry(log, i), w, cost, (log[i] as WindowEntry).from)) return 0;
  return Math.max(1, earliestFit(log, w, cost, now) - now);
}

/** The index of the booked send of `cost` held at `heldAt` (RL-V8: the first own, unanswered single send there, to within a microsecond), or −1. */
function heldIndex(log: readonly WindowEntry[], cost: number, heldAt: number): number {
  return log.findIndex((e) => isOwn(e.kind) && e.answered !== true && e.from === e.to && Math.abs(e.from - heldAt) <= 1e-3 && e.cost === cost);
}

/** The log without the booked send of `cost` held at `heldAt` (see `heldIndex`); the log itself without one. */
export function withoutHeld(log: readonly WindowEntry[], cost: number, heldAt: number): readonly WindowEntry[] {
  const i = heldIndex(log, cost, heldAt);
  return i < 0 ? log : withoutEntry(log, i);
}

/** A copy of the log without the entry at index `i`. */
function withoutEntry(log: readonly WindowEntry[], i: number): WindowEntry[] {
  return [...log.slice(0, i), ...log.slice(i + 1)];
}

/** borrowed(now) of a window bucket (RL-I1): the most any interval ending at or after now holds, bookings included. */
export function windowBorrowed(log: readonly WindowEntry[], w: ModelWindow, now: number): number {
  const span = spanOf(w);
  let most = countAt(log, span, now);
  for (const e of log) if (e.from > now) most = Math.max(most, countAt(log, span, e.from));
  return most;
}

/**
 * The log without the entries that count for no interval ending at or after `now`; a `start` entry stays
 * while any other entry does (the phase it marks holds for the venue's later windows too).
 */
export function pruned(log: readonly WindowEntry[], w: ModelWindow, now: number): WindowEntry[] {
  const counts = (e: WindowEntry): boolean => e.to + spanOf(w) > now;
  const any = log.some((e) => e.kind !== 'start' && counts(e));
  return log.filter((e) => counts(e) || (any && e.kind === 'start'));
}

/**
 * The log with `entry` added, in order of `from`. Past {@link MAX_WINDOW_ENTRIES} two entries of one kind
 * that follow each other among that kind are merged (RL-V6): their cost then counts over the whole merged
 * range, which only ever admits less. The pair is the one whose merged range's length plus what the merge
 * costs a sync is the least (the earliest on a tie). A sync takes a send as counted only when it left
 * `jitterMs` before the reporting request, and only inside the venue's window, so a merged range costs:
 * nothing when it ends at least `2 · jitterMs` before now or starts after now (bookings ahead);
 * `2 · jitterMs` when it lies inside the last `2 · jitterMs`; `windowMs` when it reaches from before them
 * into them; and, once a `start` entry is in the log (a report marked where the venue's fixed windows
 * begin), `windowMs` more when it is not inside one aligned window (those begin at multiples of
 * `windowMs`) starting at least `2 · jitterMs` after that window's start (a report bounds the start to
 * about a round trip), or not inside one window of the marked phase (beginning at `start + k ·
 * windowMs`: windows anchored at some other time, such as a credential's first request) at least
 * `2 · jitterMs` from both of that window's ends. Without one, no sync takes a window's start from the
 * log (a rolling window, or no report of a fixed one yet).
 */
export function withEntry(log: readonly WindowEntry[], entry: WindowEntry, w: ModelWindow, now: number): WindowEntry[] {
  const out = [...log];
  const at = out.findIndex((e) => entry.from < e.from);
  out.splice(at < 0 ? out.length : at, 0, entry);
  const marked = out.find((e) => e.kind === 'start');
  const syncCost = (from: number, to: number): number => {
    const line = now - 2 * w.jitterMs;
    const recent = to <= line || from > now ? 0 : from > line ? 2 * w.jitterMs : w.windowMs;
    if (marked === undefined) return recent;
    const start = Math.floor(from / w.windowMs) * w.windowMs;
    if (!(to < start + w.windowMs && from - start >= 2 * w.jitterMs)) return recent + w.windowMs;
    const phased = marked.from + Math.floor((from - marked.from) / w.windowMs) * w.windowMs;
    return from - phased >= 2 * w.jitterMs && to < phased + w.windowMs - 2 * w.jitterMs ? recent : recent + w.windowMs;
  };
  while (out.length > MAX_WINDOW_ENTRIES) {
    const pairs: { i: number; j: number; score: number }[] = [];
    for (let i = 0; i < out.length; i++) {
      const j = out.findIndex((e, k) => k > i && mergeGroup(e.kind) === mergeGroup(out[i]!.kind));
      if (j < 0) continue;
      const to = Math.max(markOf(out[i]!), markOf(out[j]!));
      pairs.push({ i, j, score: to - out[i]!.from + syncCost(out[i]!.from, to) });
    }
    // the least; the earliest on a tie (pairs are in order of their first entry)
    const { i, j } = pairs.reduce((best, p) => (p.score < best.score ? p : best));
    const a = out[i]!;
    const b = out[j]!;
    const answered = a.answered === true && b.answered === true;
    out[i] = {
      from: a.from,
      to: Math.max(markOf(a), markOf(b)),
      cost: Math.min(a.cost + b.cost, MAX_AMOUNT),
      kind: mergedKind(a.kind, b.kind),
      ...(answered ? { answered } : {}),
    };
    out.splice(j, 1);
  }
  return out;
}

/**
 * A test's flawed model of RL-V9 (`none` for the rule itself): `nothing`, a sync forgets nothing;
 * `bySendTime`, it forgets what was sent before the window's earliest start, as if every send arrived
 * at once; `ownOnly`, it forgets own sends but keeps the reports of the window before.
 */
export type ForgetFlaw = 'none' | 'nothing' | 'bySendTime' | 'ownOnly';

/**
 * A sync (RL-V5): the venue counted `used` in its window, in the answer to a request sent at
 * `sentAtMs` (never later than now; the venue counted it at most `jitterMs` after, and by now, since its
 * answer came back). Its window began at the latest at `L = max(countedSinceMs, min(sentAt + jitterMs,
 * now) − windowMs)`.
 *
 * Counted as ours: the own entries sent after `L` and at least `jitterMs` before `sentAt` (`from > L`,
 * `to <= sentAt − jitterMs`: they reached the venue inside its window, before the reporting request),
 * plus `countedOwnCost`. A send still on its way when the reporting request left is never counted as
 * ours by its time alone. The rest of `used` is what others spent: one reported entry at `c − jitterMs`,
 * `c = min(sentAt + jitterMs, now)` the latest time the venue counted the report (`sentAt` without one).
 *
 * An earlier report counted before this report's request was sent (its latest position plus `jitterMs`
 * at most `sentAt`) is dropped, since this report covers every future window it could count in. The
 * others stay beside this one, and a window counts the largest of the reports counting in it, not their
 * sum: the log holds each report as what it adds over the reports that count longer (later positions),
 * so a report no larger than one counting longer adds nothing and leaves, and a large one leaves alone
 * when a later report drops it. Penalties are never touched. Without `sentAtMs`: `sentAt = now`,
 * nothing is counted as ours (`countedOwnCost` is ignored) and nothing is dropped, so the sync never
 * lowers (RL-R2). With `answeredCost` the reporting request's own entry is first marked answered at now
 * (see `markAnswered`; with a `windowEnd` that tells its window, its answer's usage and that end are
 * kept with it), and an answered own entry counts as ours when `to < sentAt` (answered before the
 * reporting request was sent), however recently it was sent, or, one send with a kept report, wherever
 * it was sent, when this sync's `windowEnd` tells the same window and `used` is more than its own answer
 * reported. A `countedSinceMs` at or before now that still counts (`+ span > now`) replaces the
 * log's `start` entry with one at it, logged before the reports.
 *
 * With `sentAtMs` and a `windowEnd` that tells its window (RL-V9), the venue's windows are fixed and none
 * that can still hold a send began before `B = min(windowEnd.earliestMs − windowMs, min(sentAt +
 * jitterMs, now))`: own entries not counted as ours and reported entries with `to + jitterMs < B`
 * reached the venue (or were counted) before it, and are forgotten.
 */
export function afterSync(
  log: readonly WindowEntry[],
  w: ModelWindow,
  used: number,
  now: number,
  report: SyncOptions = {},
  forgetting: ForgetFlaw = 'none',
): WindowEntry[] {
  // a fixed window's start, logged for merges to keep their ranges clear of (RL-V6)
  const since = report.countedSinceMs;
  const marks = since !== undefined && since <= now && since + spanOf(w) > now;
  // a send time after now is not one the limiter can have admitted: taken as none
  const known = report.sentAtMs !== undefined && report.sentAtMs <= now;
  const reported = Math.min(used, MAX_AMOUNT);
  const end = known ? tellingEnd(report, w) : undefined;
  const kept = pruned(log, w, now).filter((e) => !(marks && e.kind === 'start'));
  const markedAt = markAnswered(kept, report, now);
  const sentAt = known ? Math.max(report.sentAtMs as number, now - HORIZON_MS) : now;
  const latestStart = Math.max(report.countedSinceMs ?? Number.NEGATIVE_INFINITY, Math.min(sentAt + w.jitterMs, now) - w.windowMs);
  let ours = known ? (report.countedOwnCost ?? 0) : 0;
  // the own entries this sync takes as counted: never forgotten below
  const counted = new Set<WindowEntry>();
  if (known) {
    for (const e of kept) {
      if (!isOwn(e.kind)) continue;
      // arrived by its send time, or answered before the reporting request was sent
      if (e.from > latestStart && (e.to <= sentAt - w.jitterMs || (e.answered === true && markOf(e) < sentAt))) counted.add(e);
      // counted in the same fixed window before the reporting request: its own answer reported less of it
      // (the send this sync marks gets its report after this: the caller's countedOwnCost holds it)
      else if (
        end !== undefined &&
        e.answerReport !== undefined &&
        e.answerReport.used < reported &&
        e.answerReport.earliestMs <= end.latestMs &&
        end.earliestMs <= e.answerReport.latestMs
      )
        counted.add(e);
    }
  }
  for (const e of counted) ours += e.cost;
  const others = reported - ours;
  if (markedAt >= 0 && end !== undefined) {
    const before = kept[markedAt] as WindowEntry;
    kept[markedAt] = { ...before, answerReport: { used: reported, earliestMs: end.earliestMs, latestMs: end.latestMs } };
    if (counted.delete(before)) counted.add(kept[markedAt]);
  }
  // RL-V9: the venue's windows are fixed, and none that can still hold a send began before `forget`; an
  // own send or a report that surely reached the venue before it (its latest time plus the jitter
  // allowance) counts in none of them
  const forget = end === undefined ? Number.NEGATIVE_INFINITY : Math.min(end.earliestMs - w.windowMs, Math.min(sentAt + w.jitterMs, now));
  const arrival = forgetting === 'bySendTime' ? 0 : w.jitterMs;
  const forgotten = (e: WindowEntry): boolean =>
    forgetting !== 'nothing' && (isOwn(e.kind) || (e.kind === 'reported' && forgetting !== 'ownOnly')) && !counted.has(e) && e.to + arrival < forget;

  // the earlier reports the venue may have counted after this one: each logged as what it adds over the
  // reports counting longer, so its whole cost is its part plus theirs
  const latestFirst = (x: WindowEntry, y: WindowEntry): number => y.to - x.to || y.cost - x.cost || x.from - y.from;
  const earlier = kept.filter((e) => e.kind === 'reported' && !(known && e.to + w.jitterMs <= sentAt) && !forgotten(e)).sort(latestFirst);
  const reports: WindowEntry[] = [];
  let whole = 0;
  for (const e of earlier) {
    whole += e.cost;
    reports.push({ ...e, cost: whole });
  }
  // at the latest time the venue counted it, less the jitter allowance: counted until one window after it
  const at = known ? Math.min(sentAt + w.jitterMs, now) - w.jitterMs : sentAt;
  if (others > windowTolerance(w)) reports.push({ from: at, to: at, cost: others, kind: 'reported' });
  // a window counts the largest report still counting in it: latest first, each logs what it adds
  let out = kept.filter((e) => e.kind !== 'reported' && !forgotten(e));
  if (marks) out = withEntry(out, { from: since, to: since, cost: 0, kind: 'start' }, w, now);
  let largest = 0;
  for (const r of reports.sort(latestFirst)) {
    if (!(r.cost - largest > windowTolerance(w))) continue;
    out = withEntry(out, { ...r, cost: r.cost - largest }, w, now);
    largest = r.cost;
  }
  return out;
}

/**
 * Marks the reporting request's own entry answered (RL-V5, `answeredCost`), in place: the first admitted
 * send not yet answered, sent at `sentAtMs` (within a microsecond) alone, of exactly `answeredCost`,
 * becomes answered at now (`answeredAt`; it still counts by its send time). Its index, or -1 when none
 * matches or `sentAtMs` is after now.
 */
function markAnswered(log: WindowEntry[], report: SyncOptions, now: number): number {
  const { sentAtMs, answeredCost } = report;
  if (sentAtMs === undefined || answeredCost === undefined || !(sentAtMs <= now)) return -1;
  const i = log.findIndex((e) => isOwn(e.kind) && e.answered !== true && e.from === e.to && Math.abs(e.from - sentAtMs) <= 1e-3 && e.cost === answeredCost);
  if (i >= 0) log[i] = { ...(log[i] as WindowEntry), answered: true, answeredAt: now };
  return i;
}

/**
 * A penalty until `untilMs` (RL-V5): the whole window is used at the end of the hold, logged over
 * `[min(now, until), until]`, so nothing is sent before `until + span`.
 */
export function afterPenalty(log: readonly WindowEntry[], w: ModelWindow, untilMs: number, now: number): WindowEntry[] {
  const kept = pruned(log, w, now);
  const until = Math.min(untilMs, now + HORIZON_MS);
  if (!(until + spanOf(w) > now)) return kept;
  return withEntry(kept, { from: Math.min(now, until), to: until, cost: w.perWindow, kind: 'penalty' }, w, now);
}

/** A send of `cost` at `at` (an admission or a booking at its send time: `own`; a record at now or a converted amount: `recorded`). */
export function afterSend(
  log: readonly WindowEntry[],
  w: ModelWindow,
  cost: number,
  at: number,
  now: number,
  kind: 'own' | 'own-critical' | 'own-bulk' | 'recorded' = 'own',
): WindowEntry[] {
  return withEntry(pruned(log, w, now), { from: at, to: at, cost: Math.min(cost, MAX_AMOUNT), kind }, w, now);
}

/**
 * A record of a late send (RL-V7): the admitted send of `cost` held at `late.admittedAtMs` went out at
 * some time from `late.earliestMs` to `late.latestMs` (validated in that order). The first own entry of
 * that one send (`from` within a microsecond of it, `from = to` and not answered; or one answered send,
 * `answeredAt` kept) of exactly `cost` moves there: `[earliest, latest]`; an answered one that went out
 * when admitted (`earliest` is its `from`) and arrived by its mark (`latest` no later) counts until its
 * mark (`to = answeredAt`), still one send with its answer's report; any other answered one becomes
 * `[earliest, max(answeredAt, latest)]` as merged answered sends (its one send time is lost). Without
 * one (merged with other sends), every own entry whose range holds the send time, not one answered send,
 * counts until `latest` at the least (`to = max(to, latest)`); without any, a record of `cost` at now.
 */
export function afterLateSend(
  log: readonly WindowEntry[],
  w: ModelWindow,
  cost: number,
  late: { readonly admittedAtMs: number; readonly earliestMs: number; readonly latestMs: number },
  now: number,
  forgetMark = false,
): WindowEntry[] {
  const kept = pruned(log, w, now);
  const i = kept.findIndex(
    (e) =>
      isOwn(e.kind) &&
      Math.abs(e.from - late.admittedAtMs) <= 1e-3 &&
      e.cost === cost &&
      ((e.answered !== true && e.from === e.to) || (e.answered === true && e.answeredAt !== undefined)),
  );
  if (i < 0) {
    // merged with other sends: the send is in an entry whose range holds its time (a merge keeps both
    // ranges), so every such entry counts until the latest time at the least
    const t = late.admittedAtMs;
    const holds = (e: WindowEntry): boolean => isOwn(e.kind) && !(e.answered === true && e.answeredAt !== undefined) && e.from - 1e-3 <= t && t <= e.to + 1e-3;
    if (!kept.some(holds)) return afterSend(kept, w, cost, now, now, 'recorded');
    return kept.map((e) => (holds(e) ? { ...e, to: Math.max(e.to, late.latestMs) } : e));
  }
  const e = kept[i] as WindowEntry;
  if (e.answered === true && e.answeredAt !== undefined && !forgetMark && Math.abs(late.earliestMs - e.from) <= 1e-3 && late.latestMs <= e.answeredAt) {
    // it went out when admitted and arrived by its mark at the latest: counted until its mark, still one
    // send of its own (its answer's report still applies)
    kept[i] = { ...e, to: e.answeredAt };
    return kept;
  }
  kept.splice(i, 1);
  const moved: WindowEntry =
    e.answered === true
      ? { from: late.earliestMs, to: forgetMark ? late.latestMs : Math.max(e.answeredAt ?? e.to, late.latestMs), cost, kind: e.kind, answered: true }
      : { from: late.earliestMs, to: late.latestMs, cost, kind: e.kind };
  return withEntry(kept, moved, w, now);
}
