import { MAX_AMOUNT, clampHold } from './gcra.js';

/**
 * The arithmetic of window limits as a slot ledger (the contract package's MODEL.md, "Window limits, rebuilt:
 * the slot ledger"). Send times fall in slots of `g = windowMs / WINDOW_SLOTS` ms; an interval of
 * `span = windowMs + jitterMs` touches at most `M = ceil(span / g) + 1` consecutive slots. A send of cost `c` in
 * slot `j` fits under a line when every run of `M` slots containing `j` holds at most `line − c`: every interval
 * `(T − span, T]` lies in one such run, so RL-V1 holds whatever the interleaving.
 *
 * State, one flat array (the Redis scripts store the same numbers, in the same order, as text): a header of
 * {@link LEDGER_HEADER} numbers (named by the `AT_*` constants), then pairs `[slot, amount]` in slot order for the
 * slots that hold cost and can still count. The header keeps the pairs' sum (so a send behind everything is one
 * comparison), others' reported use (amount, slot, the time from which it no longer counts), the first slot a
 * hold leaves open, and the latest fixed window a report told (its start, its end to within `[endMin, endMax]`).
 * Absent values are the finite sentinels {@link NONE} and {@link NEVER}, which the Lua can write and read back.
 */

/** Slots per window: the implementation's parameter of the utilization formula `K / (ceil(K · (1 + J/W)) + 1)`. */
export const WINDOW_SLOTS = 128;
/** "None" for a slot or a time that lies before everything (a finite number the Lua writes and reads back). */
export const NONE = -1e300;
/** "Never" for a time that lies after everything. */
export const NEVER = 1e300;

/** Header positions. */
export const AT_SUM = 0;
export const AT_OTHERS = 1;
export const AT_OTHERS_SLOT = 2;
export const AT_OTHERS_UNTIL = 3;
export const AT_OPEN_FROM = 4;
export const AT_WINDOW_FROM = 5;
export const AT_END_MIN = 6;
export const AT_END_MAX = 7;
/** Numbers in the header, before the `[slot, amount]` pairs. */
export const LEDGER_HEADER = 8;

/** A window limit prepared for the arithmetic. */
export interface WindowDefinition {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly jitterMs: number;
  /** `windowMs + jitterMs`: the interval over send times that must hold at most `perWindow`. */
  readonly span: number;
  /** The tolerance, relative to the limit (RL-A7): `1e-9 · perWindow`. */
  readonly eps: number;
  /** Slot width, ms. */
  readonly g: number;
  /** Slots in the widest run an interval of `span` touches. */
  readonly M: number;
}

/** Prepares a validated window limit. */
export function defineWindow(perWindow: number, windowMs: number, jitterMs: number): WindowDefinition {
  const g = windowMs / WINDOW_SLOTS;
  const span = windowMs + jitterMs;
  // an infinite span (a jitter of 1e308) makes every run endless: one send per bucket, ever (the wait cannot be represented)
  return { perWindow, windowMs, jitterMs, span, eps: 1e-9 * perWindow, g, M: Math.ceil(span / g) + 1 };
}

/** An empty ledger. */
export function emptyLedger(): number[] {
  return [0, 0, NONE, NEVER, NONE, NONE, NEVER, NEVER];
}

/** The slot of time `t`. */
export function slotOf(t: number, d: WindowDefinition): number {
  return Math.floor(t / d.g);
}

const num = (e: readonly number[], i: number): number => e[i] as number;

const EMPTY: readonly number[] = emptyLedger();

/** `e`, or the empty ledger for a bucket that has none yet (`[]`). */
function ledger(e: readonly number[]): readonly number[] {
  return e.length < LEDGER_HEADER ? EMPTY : e;
}

/** The pairs' sum, recomputed (after entries leave, so the kept sum never drifts from float residue). */
function sumOf(e: readonly number[]): number {
  let sum = 0;
  for (let i = LEDGER_HEADER + 1; i < e.length; i += 2) sum += num(e, i);
  return sum;
}

/** A copy of `e` without the pairs before index `from` (and a fresh sum); `e` itself when nothing goes. */
function dropHead(e: readonly number[], from: number): number[] {
  if (from === LEDGER_HEADER) return e.slice();
  const out = e.slice(from - LEDGER_HEADER);
  for (let i = 0; i < LEDGER_HEADER; i++) out[i] = num(e, i);
  out[AT_SUM] = sumOf(out);
  return out;
}

/** `dropHead` made on `e` itself, a ledger the caller made and holds alone. */
function dropHeadHere(e: number[], from: number): number[] {
  if (from === LEDGER_HEADER) return e;
  e.splice(LEDGER_HEADER, from - LEDGER_HEADER);
  e[AT_SUM] = sumOf(e);
  return e;
}

/** The index of the first pair whose slot is at or after `slot`. */
function firstFrom(e: readonly number[], slot: number): number {
  let i = LEDGER_HEADER;
  while (i < e.length && num(e, i) < slot) i += 2;
  return i;
}

/**
 * Past the reported fixed window's end (`t >= endMax`), that window is over for every send from `t` on: what
 * surely reached the venue before `endMin` (slots whose last instant plus `jitterMs` is before it) and others'
 * use reported in it are forgotten. Returns `e` itself when there is nothing to roll over.
 */
export function rollOver(raw: readonly number[], d: WindowDefinition, t: number): readonly number[] {
  const e = ledger(raw);
  const endMax = num(e, AT_END_MAX);
  if (t < endMax) return e;
  const endMin = num(e, AT_END_MIN);
  const out = dropHead(e, firstFrom(e, Math.floor((endMin - d.jitterMs) / d.g)));
  if (num(out, AT_OTHERS_UNTIL) <= endMax) clearOthers(out);
  out[AT_WINDOW_FROM] = endMin;
  out[AT_END_MIN] = NEVER;
  out[AT_END_MAX] = NEVER;
  return out;
}

function clearOthers(e: number[]): void {
  e[AT_OTHERS] = 0;
  e[AT_OTHERS_SLOT] = NONE;
  e[AT_OTHERS_UNTIL] = NEVER;
}

/** Drops what no run containing a send at or after `now` can hold: slots at or before `slot(now) − M`, others' use likewise, a window that ended. */
export function pruneWindow(raw: readonly number[], d: WindowDefinition, now: number): number[] {
  const e = ledger(raw);
  const oldest = slotOf(now, d) - d.M;
  const rolled = rollOver(e, d, now);
  const out = dropHead(rolled, firstFrom(rolled, oldest + 1));
  if (out[AT_OTHERS_SLOT] !== NONE && (num(out, AT_OTHERS_SLOT) <= oldest || now >= num(out, AT_OTHERS_UNTIL))) clearOthers(out);
  if (out.length === LEDGER_HEADER) out[AT_SUM] = 0;
  return out;
}

/** Others' use as counted by a send in slot `j` at time `t`: in every run containing its slot, until its window ends. */
function othersFor(e: readonly number[], d: WindowDefinition, j: number, t: number): number {
  const at = num(e, AT_OTHERS_SLOT);
  return at > j - d.M && at < j + d.M && t < num(e, AT_OTHERS_UNTIL) ? num(e, AT_OTHERS) : 0;
}

/** The largest run of `M` slots containing slot `j` (others' use included): a run is largest where a slot enters it, so only those starts are tried. */
function worstRun(e: readonly number[], d: WindowDefinition, j: number, t: number): number {
  const lo = j - d.M + 1;
  const hi = j + d.M - 1;
  const from = firstFrom(e, lo);
  let to = from;
  while (to < e.length && num(e, to) <= hi) to += 2;
  const others = othersFor(e, d, j, t);
  const otherSlot = num(e, AT_OTHERS_SLOT);
  let worst = 0;
  for (let k = from - 2; k < to; k += 2) {
    // the run starting at lo, then at each slot (and others' slot) that enters a run containing j
    const start = k < from ? lo : num(e, k) - d.M + 1;
    if (start < lo || start > j) continue;
    let run = others > 0 && otherSlot >= start && otherSlot <= start + d.M - 1 ? others : 0;
    for (let i = from; i < to; i += 2) if (num(e, i) >= start && num(e, i) <= start + d.M - 1) run += num(e, i + 1);
    if (run > worst) worst = run;
  }
  if (others > 0) {
    const start = otherSlot - d.M + 1;
    if (start > lo && start <= j) {
      let run = others;
      for (let i = from; i < to; i += 2) if (num(e, i) >= start && num(e, i) <= start + d.M - 1) run += num(e, i + 1);
      if (run > worst) worst = run;
    }
  }
  return worst;
}

/** The earliest time at or after `s` at which `cost` fits under `line`, the ledger as it is (no roll-over). */
function earliestIn(e: readonly number[], d: WindowDefinition, cost: number, from: number, line: number): number {
  let s = from;
  const openFrom = num(e, AT_OPEN_FROM);
  if (slotOf(s, d) < openFrom) s = openFrom * d.g;
  const j0 = slotOf(s, d);
  const head = firstFrom(e, j0 - d.M + 1);
  const last = e.length > LEDGER_HEADER ? num(e, e.length - 2) : NONE;
  const otherSlot = num(e, AT_OTHERS_SLOT);
  if (last <= j0 && otherSlot <= j0) {
    // nothing booked ahead: the run ending at j0 is the largest containing it
    let sum = num(e, AT_SUM);
    for (let i = LEDGER_HEADER; i < head; i += 2) sum -= num(e, i + 1);
    const others = othersFor(e, d, j0, s);
    const need = sum + others + cost - line - d.eps;
    if (need <= 0) return s;
    // full: the first slot where enough has left every run (slot k leaves at k + M)
    let left = 0;
    let othersLeft = others === 0;
    for (let i = head; i < e.length; i += 2) {
      const k = num(e, i);
      if (!othersLeft && otherSlot <= k) {
        othersLeft = true;
        left += others;
        if (left >= need) return (otherSlot + d.M) * d.g;
      }
      left += num(e, i + 1);
      if (left >= need) return (k + d.M) * d.g;
    }
    return (Math.max(last, otherSlot) + d.M) * d.g;
  }
  if (worstRun(e, d, j0, s) + cost <= line + d.eps) return s;
  const candidates: number[] = [];
  for (let i = head; i < e.length; i += 2) if (num(e, i) + d.M > j0) candidates.push(num(e, i) + d.M);
  if (otherSlot + d.M > j0) candidates.push(otherSlot + d.M);
  candidates.sort((x, y) => x - y);
  for (const j of candidates) if (worstRun(e, d, j, j * d.g) + cost <= line + d.eps) return j * d.g;
  return (Math.max(last, otherSlot) + d.M) * d.g;
}

/**
 * The earliest time at or after `from` a send of `cost` fits under `line` (RL-V2; `perWindow` by default, a
 * class's line otherwise), or `Infinity` when the cost exceeds the line (RL-V3). A wait that crosses the end of a
 * reported fixed window is asked again from that end, as the ledger will be then.
 */
export function windowSendTime(e: readonly number[], d: WindowDefinition, cost: number, from: number, line: number = d.perWindow): number {
  if (cost > line + d.eps) return Infinity;
  const now = rollOver(ledger(e), d, from);
  const t = earliestIn(now, d, cost, from, line);
  const endMax = num(now, AT_END_MAX);
  if (t <= endMax) return t;
  return Math.min(t, earliestIn(rollOver(now, d, endMax), d, cost, endMax, line));
}

/** Adds `cost` to slot `j`, in order. */
function addAt(e: number[], j: number, cost: number): number[] {
  let i = e.length;
  while (i > LEDGER_HEADER && num(e, i - 2) > j) i -= 2;
  if (i > LEDGER_HEADER && num(e, i - 2) === j) e[i - 1] = Math.min(num(e, i - 1) + cost, MAX_AMOUNT);
  else e.splice(i, 0, j, cost);
  e[AT_SUM] = Math.min(num(e, AT_SUM) + cost, MAX_AMOUNT);
  return e;
}

/** A charge as of the send time `s` (RL-A1, RL-M5): `cost` in the slot of `s`. */
export function windowCharge(e: readonly number[], d: WindowDefinition, cost: number, s: number, now: number): number[] {
  return addAt(pruneWindow(e, d, now), slotOf(s, d), cost);
}

/**
 * A charge sent now, `windowCharge(e, d, cost, now, now)` exactly, made in place when nothing is to be forgotten and
 * the send lands in the last slot or after it (the common case of a window admitting behind everything): no copy.
 * For a caller that holds no other reference to `e` (an admission that books nothing). Answers the ledger written.
 */
export function windowChargeNow(e: number[], d: WindowDefinition, cost: number, now: number): number[] {
  const n = e.length;
  if (n < LEDGER_HEADER + 2 || now >= num(e, AT_END_MAX)) return windowCharge(e, d, cost, now, now);
  const j = slotOf(now, d);
  // nothing to forget: the oldest slot and others' use still in a run with j, no fixed window ended
  if (num(e, LEDGER_HEADER) <= j - d.M) return windowCharge(e, d, cost, now, now);
  const others = num(e, AT_OTHERS_SLOT);
  if (others !== NONE && (others <= j - d.M || now >= num(e, AT_OTHERS_UNTIL))) return windowCharge(e, d, cost, now, now);
  const last = num(e, n - 2);
  if (last > j) return windowCharge(e, d, cost, now, now);
  if (last === j) e[n - 1] = Math.min(num(e, n - 1) + cost, MAX_AMOUNT);
  else e.push(j, cost);
  e[AT_SUM] = Math.min(num(e, AT_SUM) + cost, MAX_AMOUNT);
  return e;
}

/** A record (RL-R1): the cost counted as sent now, even beyond the limit (later sends wait it out); clamped. */
export function windowRecord(e: readonly number[], d: WindowDefinition, cost: number, now: number): number[] {
  return addAt(pruneWindow(e, d, now), slotOf(now, d), Math.min(cost, MAX_AMOUNT));
}

/** Whether a sync's `windowEnd` tells its venue window from the next: in order and narrower than a quarter of `windowMs`. */
export function tellsWindow(d: WindowDefinition, end: readonly [number, number] | undefined): end is readonly [number, number] {
  return end !== undefined && end[1] >= end[0] && end[1] - end[0] < d.windowMs / 4;
}

/**
 * A venue's report (RL-V5): `used` counted in its window when it counted the request sent at `sentAtMs`. Others'
 * use is `used` less the larger of two lower bounds of what the venue counted of this deployment's: the slots
 * entirely after the window surely began and entirely `jitterMs` before `sentAtMs` plus `outsideOwnCost` (the
 * caller's own sent outside those times), and `countedOwnCost`, the caller's own count. It is kept at the slot of
 * `c − jitterMs` (`c`, the latest time the venue can have counted it); it replaces a report the venue counted
 * before this request was sent, and otherwise the larger is kept. A `windowEnd` that tells its window says the
 * venue's windows are fixed (RL-V9): what reached the venue before the window began is forgotten, and the window's
 * end is kept for the roll-over. A report of a window that ended before the latest one reported began changes
 * nothing. Without `sentAtMs` (or with one after now) the report is taken as sent now and nothing of this
 * deployment's is taken as counted.
 */
export function windowSync(
  e: readonly number[],
  d: WindowDefinition,
  used: number,
  now: number,
  sentAtMs: number | undefined,
  countedOwnCost: number,
  windowEnd: readonly [number, number] | undefined,
  outsideOwnCost = 0,
): number[] {
  const out = pruneWindow(e, d, now);
  const known = sentAtMs !== undefined && sentAtMs <= now;
  const sentAt = known ? sentAtMs : now;
  const J = d.jitterMs;
  const c = Math.min(sentAt + J, now);
  const fixed = tellsWindow(d, windowEnd);
  if (fixed && windowEnd[1] <= num(out, AT_WINDOW_FROM)) return out;
  let own = 0;
  if (known) {
    // the window began by then: a window of the venue's that ends by windowEnd's latest (however loosely known)
    // began windowMs before it at the latest; a rolling one at c − windowMs
    const startsBy = windowEnd !== undefined ? windowEnd[1] - d.windowMs : c - d.windowMs;
    // a send at t is surely in the window when t > startsBy (rolling) or t >= startsBy (a window with an end)
    const first = windowEnd !== undefined ? Math.ceil(startsBy / d.g) : Math.floor(startsBy / d.g) + 1;
    const lastCounted = Math.floor((sentAt - J) / d.g) - 1;
    for (let i = LEDGER_HEADER; i < out.length && num(out, i) <= lastCounted; i += 2) if (num(out, i) >= first) own += num(out, i + 1);
  }
  const others = Math.min(used, MAX_AMOUNT) - (known ? Math.max(own + outsideOwnCost, countedOwnCost) : 0);
  // an earlier report the venue counted before this request was sent is covered by this one
  if (out[AT_OTHERS_SLOT] !== NONE && (num(out, AT_OTHERS_SLOT) + 1) * d.g + J <= sentAt) clearOthers(out);
  // others' use reported in a fixed window that ended before this one can have begun counts no more
  if (fixed && num(out, AT_OTHERS_UNTIL) <= windowEnd[0] - d.windowMs) clearOthers(out);
  if (others > d.eps) {
    out[AT_OTHERS] = Math.max(num(out, AT_OTHERS), others);
    out[AT_OTHERS_SLOT] = Math.max(num(out, AT_OTHERS_SLOT), slotOf(c - J, d));
    out[AT_OTHERS_UNTIL] = fixed ? windowEnd[1] : NEVER;
  }
  if (!fixed) return out;
  // what surely reached the venue before the window began (slots whose last instant + J is before B)
  const B = Math.min(windowEnd[0] - d.windowMs, c);
  if (B > num(out, AT_WINDOW_FROM)) out[AT_WINDOW_FROM] = B;
  // (out is pruneWindow's copy, this call's own)
  const kept = dropHeadHere(out, firstFrom(out, Math.floor((B - J) / d.g)));
  kept[AT_END_MIN] = windowEnd[0];
  kept[AT_END_MAX] = windowEnd[1];
  return kept;
}

/** A penalty (RL-R3): nothing before `untilMs`, and the window full then: the next send goes in the slot `M` after the hold's. */
export function windowPenalize(e: readonly number[], d: WindowDefinition, untilMs: number, now: number): number[] {
  const out = pruneWindow(e, d, now);
  const until = clampHold(untilMs, now);
  if (!(until > now - d.span)) return out;
  out[AT_OPEN_FROM] = Math.max(num(out, AT_OPEN_FROM), slotOf(until, d) + d.M);
  return out;
}

/** borrowed(now) (RL-I1): the most any run containing a send from now on holds, bookings included; the whole limit while a hold keeps it closed. */
export function windowBorrowed(e: readonly number[], d: WindowDefinition, now: number): number {
  const p = pruneWindow(e, d, now);
  const j = slotOf(now, d);
  let most = num(p, AT_OPEN_FROM) > j ? d.perWindow : 0;
  most = Math.max(most, worstRun(p, d, j, now));
  for (let i = LEDGER_HEADER; i < p.length; i += 2) if (num(p, i) > j) most = Math.max(most, worstRun(p, d, num(p, i), num(p, i) * d.g));
  return most;
}

/**
 * The cost counted in the window ending now: the pairs (sends and records) of the last `WINDOW_SLOTS` slots up
 * to `now`'s own (a window of `windowMs`, to a slot), bookings ahead and others' use left out; a fixed window's
 * ended one is already rolled over. For a budget panel (RL-I3).
 */
export function windowCounted(e: readonly number[], d: WindowDefinition, now: number): number {
  const p = pruneWindow(e, d, now);
  const j = slotOf(now, d);
  let counted = 0;
  for (let i = LEDGER_HEADER; i < p.length; i += 2) {
    const slot = num(p, i);
    if (slot > j - WINDOW_SLOTS && slot <= j) counted += num(p, i + 1);
  }
  return counted;
}

/** The time from which nothing counts any more: the bucket is idle (and may expire) from then on. */
export function windowExpiry(raw: readonly number[], d: WindowDefinition): number {
  const e = ledger(raw);
  const last = e.length > LEDGER_HEADER ? num(e, e.length - 2) : NONE;
  const slot = Math.max(last, num(e, AT_OTHERS_SLOT));
  const open = num(e, AT_OPEN_FROM);
  const end = Math.max(slot === NONE ? NONE : (slot + d.M) * d.g, open === NONE ? NONE : open * d.g);
  return end === NONE ? -Infinity : end;
}

/** The first window definition of a bucket that had only a hold and/or recorded debt (RL-R1, RL-R3). */
export function windowFoldPending(debt: number, hold: number, d: WindowDefinition, now: number): number[] {
  let e = emptyLedger();
  if (hold > -Infinity) e = windowPenalize(e, d, hold, now);
  if (debt > 0) e = windowRecord(e, d, debt, now);
  return e;
}

/** A window limit that took over what another definition had borrowed (RL-L5): `borrowed` counted now, and a hold kept. */
export function windowFromBorrowed(borrowed: number, hold: number, d: WindowDefinition, now: number): number[] {
  let e = emptyLedger();
  if (borrowed > 0) e = windowRecord(e, d, borrowed, now);
  if (hold > now) e = windowPenalize(e, d, hold, now);
  return e;
}
