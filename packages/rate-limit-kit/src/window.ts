import { HORIZON_MS, MAX_AMOUNT, NO_HOLD, clampHold } from './gcra.js';

/**
 * The arithmetic of window limits (the contract package's MODEL.md, "Window limits"): at most
 * `perWindow` of cost in any window of `windowMs` as the venue counts it, each send arriving anywhere
 * up to `jitterMs` after its send time. That holds exactly when, over send times, every interval
 * `(T − span, T]` with `span = windowMs + jitterMs` holds at most `perWindow` (RL-V1); a venue's rolling
 * windows and its fixed windows (aligned or anchored) are all intervals of `windowMs`, so one rule keeps
 * all three.
 *
 * State: a list of entries `[a, b, c, f]` (flat, sorted by `a`): cost `c` sent at some time in `[a, b]`
 * (one send is `a = b`; adjacent entries are merged into one interval when there are more than
 * {@link MAX_WINDOW_ENTRIES}, which only ever counts a cost over a longer span), `f = 1` for usage the
 * venue reported that this deployment did not send (a sync), `0` otherwise. An entry counts in the
 * interval ending at `T` when `a <= T < b + span`. The Redis scripts compute the same expressions in
 * Lua; a differential test compares them.
 */

/** Entries a window bucket keeps at most (memory per bucket: 4 numbers each). */
export const MAX_WINDOW_ENTRIES = 32;
/** Values per entry in the flat list. */
export const ENTRY = 4;

/** A window limit prepared for the arithmetic. */
export interface WindowDefinition {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly jitterMs: number;
  /** `windowMs + jitterMs`: the interval over send times that must hold at most `perWindow`. */
  readonly span: number;
  /** The tolerance, relative to the limit (RL-A7): `1e-9 · perWindow`. */
  readonly eps: number;
}

/** Prepares a validated window limit. */
export function defineWindow(perWindow: number, windowMs: number, jitterMs: number): WindowDefinition {
  return { perWindow, windowMs, jitterMs, span: windowMs + jitterMs, eps: 1e-9 * perWindow };
}

/** The cost counted in the interval ending at `T`: entries with `a <= T < b + span`. */
export function countAt(e: readonly number[], span: number, T: number): number {
  let sum = 0;
  for (let i = 0; i < e.length; i += ENTRY) if ((e[i] as number) <= T && T < (e[i + 1] as number) + span) sum += e[i + 2] as number;
  return sum;
}

/** Whether a send of `cost` at `t` keeps every interval containing it within the limit. */
function fits(e: readonly number[], d: WindowDefinition, cost: number, t: number): boolean {
  const room = d.perWindow + d.eps - cost;
  if (countAt(e, d.span, t) > room) return false;
  // later intervals that also contain t: where a booked entry after t starts counting
  for (let i = 0; i < e.length; i += ENTRY) {
    const a = e[i] as number;
    if (a > t && a < t + d.span && countAt(e, d.span, a) > room) return false;
  }
  return true;
}

/**
 * The earliest time at or after `from` a send of `cost` fits (RL-V2), or `Infinity` when the cost
 * exceeds the limit (it never fits, RL-V3). Candidates are `from` and the times entries stop counting
 * (`b + span`): feasibility only improves at those.
 */
export function windowSendTime(e: readonly number[], d: WindowDefinition, cost: number, from: number): number {
  if (cost > d.perWindow + d.eps) return Infinity;
  if (fits(e, d, cost, from)) return from;
  const candidates: number[] = [];
  for (let i = 0; i < e.length; i += ENTRY) {
    const t = (e[i + 1] as number) + d.span;
    if (t > from) candidates.push(t);
  }
  candidates.sort((x, y) => x - y);
  for (const t of candidates) if (fits(e, d, cost, t)) return t;
  return Infinity; // unreachable: after the last entry stops counting, nothing counts
}

/** Drops the entries that no longer count for any interval ending at or after `now`. */
export function pruneWindow(e: readonly number[], d: WindowDefinition, now: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < e.length; i += ENTRY) if ((e[i + 1] as number) + d.span > now) out.push(e[i] as number, e[i + 1] as number, e[i + 2] as number, e[i + 3] as number);
  return out;
}

/**
 * Adds an entry `[a, b]` of `cost` (kind `f`), keeping the list sorted by `a`; past
 * {@link MAX_WINDOW_ENTRIES}, merges two entries of one kind (next to each other among that kind) whose
 * merged interval is the shortest (ties: the earliest), summing their costs (clamped to
 * {@link MAX_AMOUNT}): the cost then counts over the whole merged interval, which only ever admits less.
 */
export function addEntry(e: readonly number[], a: number, b: number, cost: number, f: number): number[] {
  const out: number[] = [];
  let placed = false;
  for (let i = 0; i < e.length; i += ENTRY) {
    if (!placed && a < (e[i] as number)) {
      out.push(a, b, cost, f);
      placed = true;
    }
    out.push(e[i] as number, e[i + 1] as number, e[i + 2] as number, e[i + 3] as number);
  }
  if (!placed) out.push(a, b, cost, f);
  while (out.length > MAX_WINDOW_ENTRIES * ENTRY) {
    // merge the two entries of one kind, next to each other among that kind, whose merged interval is
    // the shortest (ties: the earliest); with more entries than room there is always such a pair
    let bi = -1;
    let bj = -1;
    let bestWidth = Infinity;
    for (let i = 0; i < out.length; i += ENTRY) {
      let j = i + ENTRY;
      while (j < out.length && out[j + 3] !== out[i + 3]) j += ENTRY;
      if (j >= out.length) continue;
      const width = Math.max(out[i + 1] as number, out[j + 1] as number) - (out[i] as number);
      if (width < bestWidth) {
        bestWidth = width;
        bi = i;
        bj = j;
      }
    }
    out[bi + 1] = Math.max(out[bi + 1] as number, out[bj + 1] as number);
    out[bi + 2] = Math.min((out[bi + 2] as number) + (out[bj + 2] as number), MAX_AMOUNT);
    out.splice(bj, ENTRY);
  }
  return out;
}

/**
 * borrowed(now) of a window bucket (RL-I1): the most any interval ending at or after now holds, bookings
 * included.
 */
export function windowBorrowed(e: readonly number[], d: WindowDefinition, now: number): number {
  let most = countAt(e, d.span, now);
  for (let i = 0; i < e.length; i += ENTRY) {
    const a = e[i] as number;
    if (a > now) most = Math.max(most, countAt(e, d.span, a));
  }
  return most;
}

/** The time the last entry stops counting (`max(b) + span`): the bucket is idle from then on. */
export function windowExpiry(e: readonly number[], d: WindowDefinition): number {
  let end = -Infinity;
  for (let i = 0; i < e.length; i += ENTRY) end = Math.max(end, (e[i + 1] as number) + d.span);
  return end;
}

/** A charge as of the send time `s` (RL-A1, RL-M5): one entry at `s`. */
export function windowCharge(e: readonly number[], d: WindowDefinition, cost: number, s: number, now: number): number[] {
  return addEntry(pruneWindow(e, d, now), s, s, cost, 0);
}

/** A record (RL-R1): the cost counted now, even beyond the limit (later sends wait it out); clamped. */
export function windowRecord(e: readonly number[], d: WindowDefinition, cost: number, now: number): number[] {
  return addEntry(pruneWindow(e, d, now), now, now, Math.min(cost, MAX_AMOUNT), 0);
}

/**
 * A sync (RL-R2, RL-V5): the venue counted `used` in its window, in the answer to a send at `sentAtMs`
 * (its arrival, at most `jitterMs` later), a window that began no earlier than `since` (default
 * `sentAt − windowMs`, a rolling window). Our sends certainly counted there are those sent in
 * `(since + jitter, sentAt − jitter]` (they arrived inside that window, before the reporting request);
 * the rest, `used` minus them, was spent by others, somewhere in `[since, sentAt + jitter]`. The usage
 * others spent is raised to at least that (reported usage already recorded there counts toward it),
 * never lowered. Without `sentAtMs` none of our sends is taken as counted: everything reported is
 * raised as others' usage (safe, and conservative).
 */
export function windowSync(
  e: readonly number[],
  d: WindowDefinition,
  used: number,
  now: number,
  sentAtMs: number | undefined,
  countedSinceMs: number | undefined,
): number[] {
  const pruned = pruneWindow(e, d, now);
  const s = sentAtMs ?? now;
  const from = Math.max(countedSinceMs ?? s - d.windowMs, s - d.windowMs);
  const to = s + d.jitterMs;
  let ours = 0;
  let reported = 0;
  for (let i = 0; i < pruned.length; i += ENTRY) {
    const a = pruned[i] as number;
    const b = pruned[i + 1] as number;
    const c = pruned[i + 2] as number;
    if (pruned[i + 3] === 1) {
      if (a <= to && b >= from) reported += c;
    } else if (sentAtMs !== undefined && a > from + d.jitterMs && b <= s - d.jitterMs) {
      ours += c;
    }
  }
  const others = Math.min(used, MAX_AMOUNT) - ours;
  if (!(others - reported > d.eps)) return pruned;
  return addEntry(pruned, Math.max(from, now - HORIZON_MS), Math.min(to, now + HORIZON_MS), others - reported, 1);
}

/**
 * A penalty (RL-R3, RL-V5): nothing before `untilMs`, and the window full then: one reported entry of
 * the whole limit over `[now, until]`, so nothing goes out before `until + span`.
 */
export function windowPenalize(e: readonly number[], d: WindowDefinition, untilMs: number, now: number): number[] {
  const until = clampHold(untilMs, now);
  if (!(until + d.span > now)) return pruneWindow(e, d, now);
  return addEntry(pruneWindow(e, d, now), Math.min(now, until), until, d.perWindow, 1);
}

/** The first window definition of a bucket that had only a hold and/or recorded debt (RL-R1, RL-R3). */
export function windowFoldPending(debt: number, hold: number, d: WindowDefinition, now: number): number[] {
  let e: number[] = [];
  if (hold > NO_HOLD) e = windowPenalize(e, d, hold, now);
  if (debt > 0) e = windowRecord(e, d, debt, now);
  return e;
}

/** A window bucket that took over the amount a token bucket had borrowed (RL-L5): `borrowed` counted now, and a hold kept. */
export function windowFromBorrowed(borrowed: number, hold: number, d: WindowDefinition, now: number): number[] {
  let e: number[] = borrowed > 0 ? addEntry([], now, now, Math.min(borrowed, MAX_AMOUNT), 0) : [];
  if (hold > now) e = windowPenalize(e, d, hold, now);
  return e;
}
