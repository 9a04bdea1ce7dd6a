import type { SyncOptions } from '@core/rate-limit-contract';
import { MAX_AMOUNT, MODEL_EPS } from './model-arithmetic.js';

/**
 * The suite's oracle of window limits (RULEBOOK.md, "Window limits", in `@core/rate-limit-contract`): an exact
 * log of send times, written to be obviously right rather than fast. A window limit admits at most `perWindow`
 * of cost whose send times fall in any interval `(T − span, T]`, `span = windowMs + jitterMs` (RL-V1). It shares
 * no code with any implementation; an implementation may count in slots instead (`capabilities.windowSlots`),
 * which the suite's tests allow for by their bounds. The reference model reaches it through {@link WindowBook},
 * so the self-test can put flawed or coarser arithmetic in its place.
 */

/** A window limit in its canonical form (`jitterMs` filled in). */
export interface ModelWindow {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly jitterMs: number;
}

/** One cost this deployment sent: an admission or booking at its send time, a record at the time of the record. */
export interface WindowSend {
  readonly at: number;
  readonly cost: number;
  /** The class that sent it (0 critical, 1 normal, 2 bulk; records: 1). */
  readonly cls: number;
}

/** A window bucket's state; never mutated. */
export interface WindowState {
  /** What this deployment sent and can still count, in order of `at`. */
  readonly sends: readonly WindowSend[];
  /** What others spent, from the reports (RL-V5): one amount, counted as sent at `at`, for sends before `until`. */
  readonly others: { readonly amount: number; readonly at: number; readonly until: number } | undefined;
  /** Nothing is admitted before this time: a penalty's end plus `windowMs + jitterMs` (RL-V2). */
  readonly closedUntil: number;
  /** The latest fixed window a report told (RL-V5): its end, within `[endMin, endMax]`. */
  readonly fixed: { readonly endMin: number; readonly endMax: number } | undefined;
  /** The latest time a reported fixed window began by; a report of a window that ended by then is stale. */
  readonly windowFrom: number;
}

/** The window arithmetic the reference model runs: the oracle below, or a test's flawed or coarser one. */
export interface WindowBook<S = unknown> {
  /** A bucket seen for the first time. */
  empty(w: ModelWindow): S;
  /** The earliest time at or after `from` a send of `cost` fits under `line` (every send counted), `Infinity` when never. */
  earliest(s: S, w: ModelWindow, cost: number, from: number, line: number, now: number): number;
  /** A send of `cost` at `at` (an admission, or a booking at its send time) by class `cls`. */
  charge(s: S, w: ModelWindow, cost: number, at: number, now: number, cls: number): S;
  /** A record: the cost counted as sent now. */
  record(s: S, w: ModelWindow, cost: number, now: number): S;
  /** A venue's report (RL-V5). */
  sync(s: S, w: ModelWindow, used: number, now: number, report: SyncOptions): S;
  /** A penalty until `untilMs` (RL-V2). */
  penalize(s: S, w: ModelWindow, untilMs: number, now: number): S;
  /** borrowed(now) (RL-I1): the most any window from now on holds; the whole limit while closed. */
  borrowed(s: S, w: ModelWindow, now: number): number;
  /** Whether nothing counts any more (the bucket is as good as absent). */
  idle(s: S, w: ModelWindow, now: number): boolean;
  /** The state under another window limit (RL-L5). */
  redefine(s: S, from: ModelWindow, to: ModelWindow, hold: number, now: number): S;
}

/** `windowMs + jitterMs`: the length of the intervals of send times that hold at most `perWindow`. */
export function spanOf(w: ModelWindow): number {
  return w.windowMs + w.jitterMs;
}

/** The tolerance of a window's comparisons (RL-A7): a billionth of `perWindow`. */
export function windowTolerance(w: ModelWindow): number {
  return MODEL_EPS * w.perWindow;
}

/** The long-run rate of a window limit as a snapshot shows it: capacity `perWindow`, `perWindow` per window. */
export function longRunRate(w: ModelWindow): { capacity: number; refillPerSec: number } {
  return { capacity: w.perWindow, refillPerSec: (w.perWindow * 1000) / w.windowMs };
}

/** Whether a sync's `windowEnd` says the window is fixed: in order, and narrower than a quarter window. */
export function tellsWindow(w: ModelWindow, end: SyncOptions['windowEnd']): end is NonNullable<SyncOptions['windowEnd']> {
  return end !== undefined && end.latestMs >= end.earliestMs && end.latestMs - end.earliestMs < w.windowMs / 4;
}

/** What counts for a send at `t`: from `t` on past the told fixed window's end, what reached the venue before it is forgotten. */
export function countingAt(s: WindowState, w: ModelWindow, t: number): readonly WindowSend[] {
  const f = s.fixed;
  return f !== undefined && t >= f.endMax ? s.sends.filter((x) => !(x.at + w.jitterMs < f.endMin)) : s.sends;
}

/** The cost counted in the interval `(T − span, T]` for a send at `t` (others' use included while it counts). */
export function countAt(s: WindowState, w: ModelWindow, T: number, t: number, sends = countingAt(s, w, t)): number {
  const span = spanOf(w);
  let sum = 0;
  for (const x of sends) if (x.at > T - span && x.at <= T) sum += x.cost;
  const o = s.others;
  if (o !== undefined && t < o.until && o.at > T - span && o.at <= T) sum += o.amount;
  return sum;
}

/** Whether a send of `cost` at `t` keeps every interval containing it within `line`; `sends` in place of the counted ones. */
export function fitsAt(s: WindowState, w: ModelWindow, cost: number, t: number, line: number, sends = countingAt(s, w, t)): boolean {
  if (t < s.closedUntil) return false;
  const span = spanOf(w);
  const room = (T: number): boolean => countAt(s, w, T, t, sends) + cost <= line + windowTolerance(w);
  // the count of an interval ending at T only rises where a send or others' use enters it
  const ends = [t, ...sends.map((x) => x.at), ...(s.others === undefined ? [] : [s.others.at])].filter((T) => T >= t && T < t + span);
  return ends.every(room);
}

/** The earliest time at or after `from` a send of `cost` fits under `line`; room only opens where something leaves. */
export function earliestFit(s: WindowState, w: ModelWindow, cost: number, from: number, line: number, fits = fitsAt): number {
  if (cost > line + windowTolerance(w)) return Number.POSITIVE_INFINITY;
  const span = spanOf(w);
  const o = s.others;
  const opens = [
    from,
    s.closedUntil,
    ...s.sends.map((x) => x.at + span),
    ...(o === undefined ? [] : [o.at + span, o.until]),
    ...(s.fixed === undefined ? [] : [s.fixed.endMax]),
  ];
  const candidates = opens.filter((t) => t >= from && Number.isFinite(t)).sort((a, b) => a - b);
  for (const t of candidates) if (fits(s, w, cost, t, line)) return t;
  return Number.POSITIVE_INFINITY;
}

/** The state without what counts for no send from `now` on: sends and others' use left behind, a fixed window over. */
export function pruned(s: WindowState, w: ModelWindow, now: number): WindowState {
  const span = spanOf(w);
  let out = s;
  const f = s.fixed;
  if (f !== undefined && now >= f.endMax) {
    out = { ...out, sends: countingAt(out, w, now), fixed: undefined, windowFrom: Math.max(out.windowFrom, f.endMin) };
    if (out.others !== undefined && out.others.until <= f.endMax) out = { ...out, others: undefined };
  }
  const o = out.others;
  return {
    ...out,
    sends: out.sends.filter((x) => x.at > now - span),
    others: o !== undefined && o.at > now - span && now < o.until ? o : undefined,
  };
}

function withSend(s: WindowState, send: WindowSend): WindowState {
  const sends = [...s.sends];
  const i = sends.findIndex((x) => send.at < x.at);
  sends.splice(i < 0 ? sends.length : i, 0, send);
  return { ...s, sends };
}

/**
 * A report (RL-V5): others' use is `used` less the larger of two lower bounds of this deployment's part: its
 * sends surely in the venue's window (after `c − windowMs`, or given a window end of any width, at or after
 * `latestMs − windowMs`) and `jitterMs` or more before `sentAtMs`, plus `outsideOwnCost`; and `countedOwnCost`.
 */
export function ownCounted(s: WindowState, w: ModelWindow, sentAt: number, c: number, end: SyncOptions['windowEnd'], arrival = w.jitterMs): number {
  const startsBy = end !== undefined ? end.latestMs - w.windowMs : c - w.windowMs;
  let own = 0;
  for (const x of s.sends) if ((end !== undefined ? x.at >= startsBy : x.at > startsBy) && x.at + arrival <= sentAt) own += x.cost;
  return own;
}

/** The flaws a test's model may give a sync (none for the oracle). */
export interface SyncFlaws {
  /** Adds the two lower bounds of this deployment's part instead of taking the larger. */
  readonly sumsOwn?: boolean;
  /** Leaves `outsideOwnCost` out of its own count. */
  readonly ignoresOutside?: boolean;
  /** Forgets nothing on a report of a fixed window. */
  readonly forgetsNothing?: boolean;
  /** Forgets by send time, as if every send arrived at once. */
  readonly forgetsBySendTime?: boolean;
  /** Applies a report of a window that ended before the latest one began. */
  readonly appliesStale?: boolean;
  /** Takes as counted the sends made within `jitterMs` before the reporting request, still on their way. */
  readonly takesInFlight?: boolean;
  /** Adds a new report to one it does not replace, instead of keeping the larger. */
  readonly sumsReports?: boolean;
}

/** A sync (RL-V5) on the oracle's state. */
export function afterSync(s0: WindowState, w: ModelWindow, used: number, now: number, report: SyncOptions, flaws: SyncFlaws = {}): WindowState {
  let s = pruned(s0, w, now);
  const known = report.sentAtMs !== undefined && report.sentAtMs <= now;
  const sentAt = known ? (report.sentAtMs as number) : now;
  const c = Math.min(sentAt + w.jitterMs, now);
  const end = tellsWindow(w, report.windowEnd) ? report.windowEnd : undefined;
  if (end !== undefined && end.latestMs <= s.windowFrom && !flaws.appliesStale) return s;
  const outside = known && !flaws.ignoresOutside ? (report.outsideOwnCost ?? 0) : 0;
  const own = known ? ownCounted(s, w, sentAt, c, report.windowEnd, flaws.takesInFlight ? 0 : w.jitterMs) + outside : 0;
  const certified = known ? (report.countedOwnCost ?? 0) : 0;
  const others = Math.min(used, MAX_AMOUNT) - (flaws.sumsOwn ? own + certified : Math.max(own, certified));
  let o = s.others;
  // a report the venue counted before this report's request was sent is covered by it
  if (o !== undefined && o.at + w.jitterMs <= sentAt) o = undefined;
  // a report of a fixed window that ended before this one began counts no more
  if (o !== undefined && end !== undefined && o.until <= end.earliestMs - w.windowMs) o = undefined;
  if (others > windowTolerance(w)) {
    o = {
      amount: flaws.sumsReports ? (o?.amount ?? 0) + others : Math.max(o?.amount ?? 0, others),
      at: Math.max(o?.at ?? Number.NEGATIVE_INFINITY, c - w.jitterMs),
      until: end === undefined ? Number.POSITIVE_INFINITY : end.latestMs,
    };
  }
  s = { ...s, others: o };
  if (end === undefined || flaws.forgetsNothing) return s;
  // the window is fixed: what surely reached the venue before it began counts in none of its windows from now on
  const B = Math.min(end.earliestMs - w.windowMs, c);
  const arrival = flaws.forgetsBySendTime ? 0 : w.jitterMs;
  return {
    ...s,
    sends: s.sends.filter((x) => !(x.at + arrival < B)),
    fixed: { endMin: end.earliestMs, endMax: end.latestMs },
    windowFrom: Math.max(s.windowFrom, B),
  };
}

const EMPTY: WindowState = { sends: [], others: undefined, closedUntil: Number.NEGATIVE_INFINITY, fixed: undefined, windowFrom: Number.NEGATIVE_INFINITY };

/** The oracle: an exact log of send times. */
export const EXACT_WINDOWS: WindowBook<WindowState> = {
  empty: () => EMPTY,
  earliest: (s, w, cost, from, line, now) => earliestFit(pruned(s, w, now), w, cost, from, line),
  charge: (s, w, cost, at, now, cls) => withSend(pruned(s, w, now), { at, cost: Math.min(cost, MAX_AMOUNT), cls }),
  record: (s, w, cost, now) => withSend(pruned(s, w, now), { at: now, cost: Math.min(cost, MAX_AMOUNT), cls: 1 }),
  sync: (s, w, used, now, report) => afterSync(s, w, used, now, report),
  penalize: (s, w, untilMs, now) => {
    const p = pruned(s, w, now);
    const open = untilMs + spanOf(w);
    return open > now ? { ...p, closedUntil: Math.max(p.closedUntil, open) } : p;
  },
  borrowed: (s, w, now) => {
    const p = pruned(s, w, now);
    let most = p.closedUntil > now ? w.perWindow : 0;
    for (const T of [now, ...p.sends.map((x) => x.at)]) if (T >= now) most = Math.max(most, countAt(p, w, T, now));
    return most;
  },
  idle: (s, w, now) => {
    const p = pruned(s, w, now);
    return p.sends.length === 0 && p.others === undefined && p.closedUntil <= now;
  },
  redefine: (s, _from, to, _hold, now) => pruned(s, to, now),
};
