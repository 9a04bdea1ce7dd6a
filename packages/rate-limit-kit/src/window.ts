import { BULK } from './classes.js';
import { HORIZON_MS, MAX_AMOUNT, NO_HOLD, clampHold } from './gcra.js';

/**
 * The arithmetic of window limits (the contract package's MODEL.md, "Window limits"): at most
 * `perWindow` of cost in any window of `windowMs` as the venue counts it, each send arriving anywhere
 * up to `jitterMs` after its send time. That holds exactly when, over send times, every interval
 * `(T − span, T]` with `span = windowMs + jitterMs` holds at most `perWindow` (RL-V1); a venue's rolling
 * windows and its fixed windows (aligned or anchored) are all intervals of `windowMs`, so one rule keeps
 * all three. A report of a fixed window lets the list forget what reached the venue before that window
 * began (RL-V9, see `windowSync`): no window that can still hold a send counts it.
 *
 * State: a list of entries `[a, b, c, f]` (flat, sorted by `a`): cost `c` sent at some time in `[a, b]`
 * (one send is `a = b`; adjacent entries are merged into one interval when there are more than
 * {@link MAX_WINDOW_ENTRIES}, which only ever counts a cost over a longer span), `f` its kind: `0` this
 * deployment's own admitted sends of class normal (`4` of class critical, `5` of class bulk: RL-Q1),
 * `1` what the venue reported others spent (a sync; what that report adds over the reports counting
 * longer, see `windowSync`), `2` a penalty,
 * `3` a record or an amount taken over from another definition (its send time is not known: a sync
 * never takes it as counted by time), `6` the start of a fixed window as the last report with
 * `countedSinceMs` bounded it (cost 0, counts nowhere: it tells merges where the venue's windows of
 * this bucket begin, RL-V6), `10`, `11`, `12` one admitted send of class normal, critical, bulk, sent
 * at `a`, that a sync said was answered (`answeredCost`: `b` is then when the store learned it, and a
 * later sync takes it as counted when that was before its reporting request was sent, RL-V5), `13`,
 * `14`, `15` such a send that may have reached the venue as late as its mark (RL-V7: it counts until
 * `b`), `7`, `8`, `9` entries of such sends merged (`b` the latest of their marks: their sends' own times are lost). An
 * entry counts in the interval ending at `T` when `a <= T < until + span`, `until` its last send time:
 * `a` for one answered send (the mark never makes a send count longer: the venue counted it when it
 * arrived, whenever its answer came back), `b` for every other kind. The Redis scripts compute the same
 * expressions in Lua; a differential test compares them.
 */

/** Entries a window bucket keeps at most (memory per bucket: 4 numbers each, and up to {@link MAX_ANSWERS} answer records of {@link ANSWER} numbers). */
export const MAX_WINDOW_ENTRIES = 128;
/**
 * The critical cost, as a share of `perWindow`, that a merge with a lower class's send moves onto the
 * lines for nothing (RL-V6): a gate (a charge the venue applies only on an outcome, admitted at a
 * millionth of it) costs the lines nothing to speak of, wherever it merges.
 */
export const MERGE_GATE = 1e-6;
/** Values per entry in the flat list. */
export const ENTRY = 4;
/** The kind of the entry that marks where a fixed window began, as the last report bounded it (RL-V6). */
export const START_KIND = 6;

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

/** The cost counted in the interval ending at `T`: entries with `a <= T < until + span` (see {@link lastSend}). */
export function countAt(e: readonly number[], span: number, T: number): number {
  let sum = 0;
  for (let i = 0; i < e.length; i += ENTRY) if ((e[i] as number) <= T && T < lastSend(e, i) + span) sum += e[i + 2] as number;
  return sum;
}

/**
 * The latest send time an entry (at index `i`) stands for: its `a` for one answered send (kinds 10, 11,
 * 12, whose `b` is when the store learned it was answered), its `b` for every other kind.
 */
export function lastSend(e: readonly number[], i: number): number {
  const f = e[i + 3] as number;
  return (f >= 10 && f <= 12 ? e[i] : e[i + 1]) as number;
}

/** The entry kind of an admitted send of class `cls` (0 critical, 1 normal, 2 bulk). */
export function ownKind(cls: number): number {
  return cls === 0 ? 4 : cls === 2 ? 5 : 0;
}

/** Whether an entry kind is one of this deployment's admitted sends (any class, answered or not). */
export function isOwnKind(f: number): boolean {
  return f === 0 || f === 4 || f === 5 || (f >= 7 && f <= 15);
}

/** Whether an entry kind is an admitted send a sync said was answered, or such sends merged (RL-V5). */
function isAnsweredKind(f: number): boolean {
  return f >= 7 && f <= 15;
}

/** Whether an entry kind is a critical send (answered or not): it spends the share lower lines keep free (RL-Q4). */
function isCriticalKind(f: number): boolean {
  return f === 4 || f === 8 || f === 11 || f === 14;
}

/** Whether an own kind is of class bulk (answered or not, merged or not). */
function isBulkKind(f: number): boolean {
  return f === 5 || f === 9 || f === 12 || f === 15;
}

/** Whether an own kind is of class normal (answered or not, merged or not). */
function isNormalKind(f: number): boolean {
  return f === 0 || f === 7 || f === 10 || f === 13;
}

/** The kind of one send of class kind `f` (0, 4, 5) marked answered: 10, 11, 12. */
function answeredKind(f: number): number {
  return f === 4 ? 11 : f === 5 ? 12 : 10;
}

/** The kind of merged answered sends of class kind `f` (0, 4, 5): 7, 8, 9. */
function mergedAnsweredKind(f: number): number {
  return f === 4 ? 8 : f === 5 ? 9 : 7;
}

/**
 * What merges with what at no cost beyond the merged width (RL-V6): entries of one kind; admitted sends of
 * classes normal and bulk together (so those classes cost a window no merge granularity), and critical
 * sends among themselves. A critical send merged with a lower class's takes its class, so a line then
 * counts it (RL-Q4: a line counts every send but critical ones): such a merge costs besides the span times
 * the critical share of the merged cost (see `addEntry`).
 */
function mergeGroup(f: number): number {
  return isOwnKind(f) ? (isCriticalKind(f) ? 4 : 0) : f;
}

/**
 * The kind of two merged entries: admitted sends take the lowest class among them (never a higher
 * class's room), answered only when both were (as merged sends: 7, 8, 9).
 */
function mergedKind(f: number, g: number): number {
  if (!isOwnKind(f)) return f;
  const cls = isBulkKind(f) || isBulkKind(g) ? 5 : isNormalKind(f) || isNormalKind(g) ? 0 : 4;
  return isAnsweredKind(f) && isAnsweredKind(g) ? mergedAnsweredKind(cls) : cls;
}

/**
 * Whether the interval ending at `T` has room for `cost`: within the limit, every entry counted, and
 * within the class's line (RL-Q4), counting every entry but critical sends (kinds 4, 8, 11, 14): a line
 * keeps its share free for critical calls, so what they spend comes out of it and costs the lower classes
 * only what they leave of it; and, every entry counted, within the limit less `keep` (bulk's: half its
 * share, see {@link bulkKeep}).
 */
function roomAt(e: readonly number[], d: WindowDefinition, cost: number, T: number, line: number, keep: number): boolean {
  let count = 0;
  let critical = 0;
  for (let i = 0; i < e.length; i += ENTRY) {
    if ((e[i] as number) <= T && T < lastSend(e, i) + d.span) {
      count += e[i + 2] as number;
      if (isCriticalKind(e[i + 3] as number)) critical += e[i + 2] as number;
    }
  }
  if (count > d.perWindow + d.eps - cost) return false;
  if (line === d.perWindow) return true;
  if (count - critical > line + d.eps - cost) return false;
  return keep === 0 || !(count > d.perWindow - keep + d.eps - cost);
}

/**
 * What a class must leave free of a window whatever critical calls spent (RL-Q4), beside its line: for
 * bulk half of the share its line keeps free (`(perWindow − line) / 2`), nothing for the other classes.
 * Bulk traffic (market data) books a window full as far ahead as its bookings reach; critical calls
 * spending more than their share in a window would otherwise wait behind those bookings, and half the
 * share still lets them through at once. Normal calls spend their line as before (an order count's
 * reserve is sized to the critical orders it carries).
 */
export function bulkKeep(perWindow: number, line: number, cls: number): number {
  return cls === BULK ? (perWindow - line) / 2 : 0;
}

/**
 * Whether a send of `cost` at `t` keeps every interval containing it within the limit and, for a class
 * with a line below it (RL-Q4), within the line, critical sends not counted against it: the reserve is
 * what stays for critical calls in every window, less what they spent of it.
 */
function fits(e: readonly number[], d: WindowDefinition, cost: number, t: number, line: number, keep: number): boolean {
  if (!roomAt(e, d, cost, t, line, keep)) return false;
  // later intervals that also contain t: where a booked entry after t starts counting
  for (let i = 0; i < e.length; i += ENTRY) {
    const a = e[i] as number;
    if (a > t && a < t + d.span && !roomAt(e, d, cost, a, line, keep)) return false;
  }
  return true;
}

/**
 * The earliest time at or after `from` a send of `cost` fits (RL-V2), or `Infinity` when the cost
 * exceeds the limit (it never fits, RL-V3). Candidates are `from` and the times entries stop counting
 * (`b + span`): feasibility only improves at those. `line` is what the call's class may fill a window
 * to with everything but critical sends (RL-Q4: `perWindow · (1 − free)`; `perWindow` for critical and
 * by default), `keep` what it leaves free with every send counted ({@link bulkKeep}; 0 by default).
 */
export function windowSendTime(e: readonly number[], d: WindowDefinition, cost: number, from: number, line: number = d.perWindow, keep = 0): number {
  if (cost > line + d.eps) return Infinity;
  if (fits(e, d, cost, from, line, keep)) return from;
  const candidates: number[] = [];
  for (let i = 0; i < e.length; i += ENTRY) {
    const t = lastSend(e, i) + d.span;
    if (t > from) candidates.push(t);
  }
  candidates.sort((x, y) => x - y);
  for (const t of candidates) if (fits(e, d, cost, t, line, keep)) return t;
  return Infinity; // unreachable: after the last entry stops counting, nothing counts
}

/**
 * Whether a booked send still fits where it is held (RL-V8): the send of `cost` held at `heldAt` (its
 * booking's send time), about to go out at `now`. Its own entry (one unanswered send of its own at
 * `heldAt`, of exactly `cost`) left out, a send of `cost` at `heldAt` must keep every interval containing
 * it within the limit itself (whatever its class: the question is what the venue would refuse), counting
 * everything else held now: a send booked before it may have been moved later since (RL-V7), or cost
 * recorded (RL-R1) or reported (RL-R2). Answers 0 when it fits, and when no such entry is held (merged
 * with others, or never admitted here: nothing to tell); otherwise the wait from `now` until a new
 * admission of `cost` fits, the held entry still counted, and at least 1 (ms).
 */
export function windowHeldWait(e: readonly number[], d: WindowDefinition, cost: number, heldAt: number, now: number): number {
  const i = heldIndex(e, cost, heldAt);
  // asked at the entry's own time: the caller's copy of it may be off by a rounding, and bookings behind it
  // start exactly one span after it
  if (i < 0 || fits(withoutEntry(e, i), d, cost, e[i] as number, d.perWindow, 0)) return 0;
  return Math.max(1, windowSendTime(e, d, cost, now) - now);
}

/** The index of the booked send of `cost` held at `heldAt` (RL-V8): the first unanswered admitted send of its own there (to within a microsecond), of exactly that cost; −1 when there is none. */
function heldIndex(e: readonly number[], cost: number, heldAt: number): number {
  for (let i = 0; i < e.length; i += ENTRY) {
    const f = e[i + 3] as number;
    if ((f === 0 || f === 4 || f === 5) && e[i] === e[i + 1] && Math.abs((e[i] as number) - heldAt) <= SAME_SEND_MS && e[i + 2] === cost) return i;
  }
  return -1;
}

/** The entries without the booked send of `cost` held at `heldAt` (RL-V8, see `heldIndex`); the list itself when there is none. */
export function withoutHeld(e: readonly number[], cost: number, heldAt: number): readonly number[] {
  const i = heldIndex(e, cost, heldAt);
  return i < 0 ? e : withoutEntry(e, i);
}

/** A copy of the entries without the one at index `i`. */
function withoutEntry(e: readonly number[], i: number): number[] {
  return [...e.slice(0, i), ...e.slice(i + ENTRY)];
}

/**
 * Drops the entries that no longer count for any interval ending at or after `now`; the start marker
 * (kind 6) stays while any other entry does (its phase holds for the venue's later windows too).
 */
export function pruneWindow(e: readonly number[], d: WindowDefinition, now: number): number[] {
  let any = false;
  for (let i = 0; i < e.length; i += ENTRY) if (e[i + 3] !== START_KIND && lastSend(e, i) + d.span > now) any = true;
  const out: number[] = [];
  for (let i = 0; i < e.length; i += ENTRY) {
    if (lastSend(e, i) + d.span > now || (any && e[i + 3] === START_KIND)) out.push(e[i] as number, e[i + 1] as number, e[i + 2] as number, e[i + 3] as number);
  }
  return out;
}

/**
 * What merging an entry that starts at `a` with one whose merged range ends at `b` costs syncs beyond
 * its width (RL-V6), in ms. A sync takes a send as counted by its time only when it left `jitterMs`
 * before the reporting request, and only inside the venue's window:
 * - nothing for a range that ends at least `2 · jitterMs` before now, or starts after now (bookings
 *   ahead), inside one window (below);
 * - `2 · jitterMs` for a range inside the last `2 · jitterMs`: its earlier sends are taken as counted
 *   up to its width later, and it is at most that far from a range that costs nothing;
 * - `windowMs` for a range from before the last `2 · jitterMs` into it: as it keeps growing with new
 *   sends, a sync would take none of it, its older sends included;
 * - once a report marked where the venue's fixed windows start (`start`, kind 6, from its
 *   `countedSinceMs`), `windowMs` more for a range not inside one aligned window, starting at least
 *   `2 · jitterMs` after its start (a venue's aligned windows start at multiples of `windowMs`, and a
 *   report bounds that start to within about a round trip after it: an entry across the bound is
 *   counted neither as ours nor as outside the window, for as long as the window lasts), or not inside
 *   one window of the marked phase (`start + k · windowMs`: windows anchored elsewhere, such as at a
 *   credential's first request) clear of `2 · jitterMs` at both its ends. Without a mark (a rolling
 *   window, or no report of a fixed one yet) no sync takes a window's start from the list, so where
 *   windows start costs nothing.
 */
function syncCost(a: number, b: number, d: WindowDefinition, now: number, start: number | undefined): number {
  const line = now - 2 * d.jitterMs;
  const recent = b <= line || a > now ? 0 : a > line ? 2 * d.jitterMs : d.windowMs;
  if (start === undefined) return recent;
  const k = Math.floor(a / d.windowMs);
  if (!(k === Math.floor(b / d.windowMs) && a - k * d.windowMs >= 2 * d.jitterMs)) return recent + d.windowMs;
  const from = start + Math.floor((a - start) / d.windowMs) * d.windowMs;
  return a - from >= 2 * d.jitterMs && b < from + d.windowMs - 2 * d.jitterMs ? recent : recent + d.windowMs;
}

/** Where the start marker (kind 6) of a list puts the venue's windows, or `undefined` without one. */
function markedStart(e: readonly number[]): number | undefined {
  for (let i = 0; i < e.length; i += ENTRY) if (e[i + 3] === START_KIND) return e[i] as number;
  return undefined;
}

/**
 * Adds an entry `[a, b]` of `cost` (kind `f`), keeping the list sorted by `a`; past
 * {@link MAX_WINDOW_ENTRIES}, merges two entries of one merge group (next to each other among that
 * group, see `mergeGroup`), or an admitted send with the next admitted send of the other side (critical
 * or not), summing their costs (clamped to {@link MAX_AMOUNT}): the cost then counts over the whole
 * merged interval, which only ever admits less. The pair merged is the one whose merged interval's width
 * plus what the merge costs syncs (plus, critical with not, `span · critical / (both costs)`: the share
 * of the cost that lower classes' lines then count, for as long as it counts) is the least, the earliest
 * on a tie, a pair of one group before a mixed one from the same entry (see `syncCost`: nothing for sends
 * before the last `2 · jitterMs` or booked after now and, with a fixed window's start marked by a
 * report, within one aligned window clear of its first `2 · jitterMs` and within one window of the
 * marked phase clear of `2 · jitterMs` at both ends). So a burst of recent sends merges among itself
 * before older sends merge into ranges wider than `2 · jitterMs`, instead of leaving only the old
 * entries to merge, into ranges of seconds that hold their cost that much longer.
 */
export function addEntry(e: readonly number[], a: number, b: number, cost: number, f: number, d: WindowDefinition, now: number): number[] {
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
    // merge the pair whose merged interval's width plus what the merge costs syncs (and lines) is the
    // least (ties: the earliest); with more entries than room there is always such a pair
    let bi = -1;
    let bj = -1;
    let best = Infinity;
    const start = markedStart(out);
    // for each entry, the next one of its merge group and the next admitted send (-1: none), in one pass
    const nextSame: number[] = [];
    const nextOwn: number[] = [];
    const lastOf = new Map<number, number>();
    let lastOwn = -1;
    for (let i = out.length - ENTRY; i >= 0; i -= ENTRY) {
      const g = mergeGroup(out[i + 3] as number);
      nextSame[i] = lastOf.get(g) ?? -1;
      lastOf.set(g, i);
      nextOwn[i] = lastOwn;
      if (isOwnKind(out[i + 3] as number)) lastOwn = i;
    }
    for (let i = 0; i < out.length; i += ENTRY) {
      const fi = out[i + 3] as number;
      const j = nextSame[i] as number;
      if (j >= 0) {
        const end = Math.max(out[i + 1] as number, out[j + 1] as number);
        const score = end - (out[i] as number) + syncCost(out[i] as number, end, d, now, start);
        if (score < best) {
          best = score;
          bi = i;
          bj = j;
        }
      }
      if (!isOwnKind(fi)) continue;
      // the next admitted send of the other side (critical or not): merged, the critical cost counts
      // against the lines, for as long as it counts; a cost too small to matter (a gate) merges freely
      const k = nextOwn[i] as number;
      if (k < 0 || mergeGroup(out[k + 3] as number) === mergeGroup(fi)) continue;
      const end = Math.max(out[i + 1] as number, out[k + 1] as number);
      const ci = out[i + 2] as number;
      const ck = out[k + 2] as number;
      const critical = isCriticalKind(fi) ? ci : ck;
      const score =
        end - (out[i] as number) + syncCost(out[i] as number, end, d, now, start) + (critical > MERGE_GATE * d.perWindow ? (d.span * critical) / (ci + ck) : 0);
      if (score < best) {
        best = score;
        bi = i;
        bj = k;
      }
    }
    out[bi + 1] = Math.max(out[bi + 1] as number, out[bj + 1] as number);
    out[bi + 2] = Math.min((out[bi + 2] as number) + (out[bj + 2] as number), MAX_AMOUNT);
    out[bi + 3] = mergedKind(out[bi + 3] as number, out[bj + 3] as number);
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

/** The time the last entry stops counting (`max(until) + span`, see {@link lastSend}): the bucket is idle from then on. */
export function windowExpiry(e: readonly number[], d: WindowDefinition): number {
  let end = -Infinity;
  for (let i = 0; i < e.length; i += ENTRY) end = Math.max(end, lastSend(e, i) + d.span);
  return end;
}

/** A charge of class `cls` as of the send time `s` (RL-A1, RL-M5): one entry at `s`, of its class's kind. */
export function windowCharge(e: readonly number[], d: WindowDefinition, cost: number, s: number, now: number, cls = 1): number[] {
  return addEntry(pruneWindow(e, d, now), s, s, cost, ownKind(cls), d, now);
}

/**
 * A record (RL-R1): the cost counted now, even beyond the limit (later sends wait it out); clamped. Kind
 * 3: what was recorded may have been sent earlier, so a sync never takes it as counted by its time.
 *
 * With `late` (`[t, x, y]`, RL-V7: the admitted send of `cost` held at `t` went out at some time in
 * `[x, y]`, validated `t <= x <= y`): the first own entry of one send at `t` (within a microsecond) of
 * exactly `cost` moves there instead, and nothing is recorded: one not answered becomes `[x, y]` of its
 * kind; one answered (kinds 10 to 15) counts until its mark, kinds 13, 14, 15, when it went out when
 * admitted (`x` is `t`) and `y` is no later than its mark (still one send, its answer record applies),
 * else becomes `[x, max(mark, y)]` of its merged answered kind (7, 8, 9). Without such an entry (the
 * send merged with others), every own entry whose range holds `t` (not one answered send: kinds 0, 4,
 * 5, 7, 8, 9) counts until `y` at the least (`b = max(b, y)`): the send is in one of them. Without any,
 * the record as above.
 */
export function windowRecord(e: readonly number[], d: WindowDefinition, cost: number, now: number, late?: readonly [number, number, number]): number[] {
  const kept = pruneWindow(e, d, now);
  if (late !== undefined) {
    const [t, x, y] = late;
    for (let i = 0; i < kept.length; i += ENTRY) {
      const f = kept[i + 3] as number;
      if (Math.abs((kept[i] as number) - t) > SAME_SEND_MS || kept[i + 2] !== cost || !isOwnKind(f)) continue;
      const single = kept[i] === kept[i + 1] && !isAnsweredKind(f);
      if (!single && !isSingleAnswered(f)) continue;
      const cls = isCriticalKind(f) ? 4 : isBulkKind(f) ? 5 : 0;
      if (!single && Math.abs(x - (kept[i] as number)) <= SAME_SEND_MS && y <= (kept[i + 1] as number)) {
        // an answered send that went out when admitted and may have arrived as late as its mark: it
        // counts until its mark, and stays one send of its own (its answer record still applies)
        kept[i + 3] = cls === 4 ? 14 : cls === 5 ? 15 : 13;
        return kept;
      }
      const b = single ? y : Math.max(kept[i + 1] as number, y);
      const g = single ? f : mergedAnsweredKind(cls);
      kept.splice(i, ENTRY);
      // one entry out, one in: the list keeps its length, so nothing merges
      return addEntry(kept, x, b, cost, g, d, now);
    }
    // merged with other sends: the send is in an entry whose range holds `t` (a merge keeps both
    // ranges), so every such entry counts until `y` at the least; one that holds other sends only
    // counts a little longer
    let widened = false;
    for (let i = 0; i < kept.length; i += ENTRY) {
      const f = kept[i + 3] as number;
      if (!isOwnKind(f) || isSingleAnswered(f) || (kept[i] as number) - SAME_SEND_MS > t || t > (kept[i + 1] as number) + SAME_SEND_MS) continue;
      kept[i + 1] = Math.max(kept[i + 1] as number, y);
      widened = true;
    }
    if (widened) return kept;
  }
  return addEntry(kept, now, now, Math.min(cost, MAX_AMOUNT), 3, d, now);
}

/** Values per answer record (see {@link windowSync}). */
export const ANSWER = 6;
/** Answer records a window bucket keeps at most: those of the latest answered sends. */
export const MAX_ANSWERS = 128;

/**
 * Whether a sync's `windowEnd` tells its venue window from the next: finite, in order, and known to
 * within a quarter window (two such ends of different windows lie at least half a window apart, so
 * clocks that disagree by less than that never make them look alike).
 */
function tellsWindow(end: readonly [number, number] | undefined, d: WindowDefinition): end is readonly [number, number] {
  return end !== undefined && Number.isFinite(end[0]) && Number.isFinite(end[1]) && end[0] <= end[1] && end[1] - end[0] < d.windowMs / 4;
}

/**
 * The answer record of the single answered send at index `i` (kinds 10, 11, 12), as an index into
 * `answers`, or -1: the one record with its send time, mark and cost, when exactly one entry and one
 * record carry them (anything else is ambiguous, and takes nothing).
 */
function answerOf(e: readonly number[], i: number, answers: readonly number[]): number {
  const a = e[i] as number;
  const b = e[i + 1] as number;
  const c = e[i + 2] as number;
  let found = -1;
  for (let j = 0; j < answers.length; j += ANSWER) {
    if (answers[j] === a && answers[j + 1] === b && answers[j + 2] === c) {
      if (found >= 0) return -1;
      found = j;
    }
  }
  if (found < 0) return -1;
  for (let k = 0; k < e.length; k += ENTRY) {
    if (k !== i && e[k] === a && e[k + 1] === b && e[k + 2] === c && isSingleAnswered(e[k + 3] as number)) return -1;
  }
  return found;
}

/** Whether an entry kind is one admitted send a sync said was answered (10, 11, 12; 13, 14, 15 when it may have arrived as late as its mark). */
function isSingleAnswered(f: number): boolean {
  return f >= 10 && f <= 15;
}

/**
 * A sync (RL-R2, RL-V5): the venue counted `used` in its window, in the answer to a send at `sentAtMs`
 * (the venue counted it at some `r` in `[sentAt, min(sentAt + jitterMs, now)]`: its answer has come
 * back; a `sentAtMs` after now counts as none); the window began at or before
 * `countedSinceMs` (default `r − windowMs`, a rolling window), so at or before
 * `L = max(countedSince, min(sentAt + jitterMs, now) − windowMs)`.
 *
 * This deployment's sends taken as counted: those sent after `L` (they arrived after the window
 * began) and by `sentAt − jitterMs` (they arrived by the time the reporting request was sent), plus
 * `countedOwnCost`, the sends outside those times the caller knows were counted (the reporting
 * request itself, sends answered before it was sent). A send still on its way is not taken: its entry
 * stands for itself, and cannot also stand for what others spent. The rest, `used` less those, is
 * what others spent in the reported window, kept as one reported entry (kind 1) at `c − jitterMs`, `c =
 * min(sentAt + jitterMs, now)` the latest time the venue counted it (at `now` without `sentAtMs`): it
 * counts in every window ending before `c + windowMs`, so in every future window that can hold any of it.
 *
 * Of two reports, the one the venue counted later covers what the earlier one reported that any future
 * window can hold (every window ending at or after now starts after the later one's window began). So a
 * report the venue counted before this one was sent (its position plus the jitter at most `sentAt`) is
 * dropped. The others stay beside it (the venue may have counted them after this one), and a window
 * counts the largest of the reports still counting in it, never their sum: each is kept as the excess
 * of its cost over the reports counting longer (see `addReports`), so a large report (one that took own
 * sends still on their way for others') leaves as soon as a report sent after it was counted arrives,
 * however many reports in between overlapped it. Penalties (kind 2) stay. Without `sentAtMs`: `sentAt =
 * now`, none of this deployment's sends is taken as counted, and nothing is dropped (safe, and
 * conservative). With `answeredCost`, the reporting request's own entry (at `sentAtMs`, of that cost) is
 * first marked answered at now (see `markAnswered`): a later sync takes an answered send as counted when
 * it was answered before that sync's reporting request was sent (`b < sentAt`). A `countedSinceMs` at or before now, while it still counts (`+ span > now`), replaces
 * the list's start marker (kind 6, cost 0) with one at it: merges keep their ranges inside the windows
 * of that phase (RL-V6, see `keepsSyncs`).
 *
 * Answer records (RL-V5): `answers` holds, flat, one record `[a, b, c, used, endEarliest, endLatest]`
 * per send a sync with `windowEnd` marked answered: its entry's send time, mark and cost, what the venue
 * said it had counted in its fixed window with it, and when that window ends. A fixed window's count never falls, and a send adds to it: so a later report
 * of the same window (both ends told apart, and intersecting) that says more was counted than a
 * send's own answer did counted that send before its own request, wherever the two were sent from.
 * Such a send, still one entry (not merged) and not taken by its time or its mark, is taken as counted,
 * wherever it was sent (at or before `L` too: a fixed window's start is known only to a second or so).
 * With `answeredCost` and a `windowEnd` that tells its window, the marked send's record is added;
 * records of sends that left the window are dropped, and the oldest past {@link MAX_ANSWERS}.
 *
 * A `windowEnd` that tells its window also says the venue's windows are fixed, and that the reported one
 * (so every one that can still hold a send) began at or after `B = min(windowEnd[0] − windowMs, min(s +
 * jitterMs, now))` (RL-V9): own entries not taken as counted, and reports, whose latest send time plus
 * `jitterMs` is before `B` reached the venue (or were counted) before it, and are forgotten.
 */
export function windowSync(
  e: readonly number[],
  answers: readonly number[],
  d: WindowDefinition,
  used: number,
  now: number,
  sentAtMs: number | undefined,
  countedSinceMs: number | undefined,
  countedOwnCost = 0,
  answeredCost: number | undefined,
  windowEnd: readonly [number, number] | undefined,
): { entries: number[]; answers: number[] } {
  const pruned = markAnswered(pruneWindow(e, d, now), sentAtMs, answeredCost, now);
  // a send time after now is not one the store can have admitted: taken as unknown (the safe side)
  const known = sentAtMs !== undefined && sentAtMs <= now;
  const s = known ? Math.max(sentAtMs, now - HORIZON_MS) : now;
  // counted by now, when its answer came back, and at most the jitter allowance after it was sent
  const latestStart = Math.max(countedSinceMs ?? -Infinity, Math.min(s + d.jitterMs, now) - d.windowMs);
  const arrived = s - d.jitterMs;
  // a fixed window's start, kept as the marker merges keep their ranges clear of (RL-V6)
  const marks = countedSinceMs !== undefined && countedSinceMs <= now && countedSinceMs + d.span > now;
  let ours = known ? countedOwnCost : 0;
  const tells = known && tellsWindow(windowEnd, d);
  // a fixed window began at or after `forget` (RL-V9): what surely reached the venue before it counts in
  // none of the venue's windows that can still hold a send (capped at the latest the venue counted the report)
  const forget = tells ? Math.min(windowEnd[0] - d.windowMs, Math.min(s + d.jitterMs, now)) : -Infinity;
  const reported = Math.min(used, MAX_AMOUNT);
  // the earlier reports still in force, each as the excess of its cost over the later ones': [a, b, excess]
  const reports: number[] = [];
  const kept: number[] = [];
  for (let i = 0; i < pruned.length; i += ENTRY) {
    const a = pruned[i] as number;
    const b = pruned[i + 1] as number;
    const c = pruned[i + 2] as number;
    const f = pruned[i + 3] as number;
    if (f === 1) {
      // replaced when the venue counted it before this report's request was sent
      if (!(known && b + d.jitterMs <= s) && !(b + d.jitterMs < forget)) reports.push(a, b, c);
      continue;
    }
    if (f === START_KIND && marks) continue;
    // arrived by its send time, or answered before the reporting request was sent
    if (isOwnKind(f) && known && a > latestStart && (lastSend(pruned, i) <= arrived || (isAnsweredKind(f) && b < s))) ours += c;
    else if (tells && isSingleAnswered(f)) {
      // counted in the same fixed window before the reporting request: its own answer reported less of it
      const j = answerOf(pruned, i, answers);
      if (j >= 0 && (answers[j + 3] as number) < reported && (answers[j + 4] as number) <= windowEnd[1] && windowEnd[0] <= (answers[j + 5] as number))
        ours += c;
      else if (lastSend(pruned, i) + d.jitterMs < forget) continue;
    } else if (isOwnKind(f) && lastSend(pruned, i) + d.jitterMs < forget) continue;
    kept.push(a, b, c, f);
  }
  const marked = marks ? addEntry(kept, countedSinceMs, countedSinceMs, 0, START_KIND, d, now) : kept;
  const others = reported - ours;
  // at the latest time the venue counted it, less the jitter allowance: counted until one window after it
  const at = known ? Math.min(s + d.jitterMs, now) - d.jitterMs : s;
  const entries = addReports(marked, reports, others > d.eps ? [at, at, others] : [], d, now);
  return { entries, answers: noteAnswer(answers, pruned, d, now, sentAtMs, answeredCost, reported, tells ? windowEnd : undefined) };
}

/**
 * The answer records after a sync: those of sends still in the window (sent after `now − span`), the
 * latest {@link MAX_ANSWERS} of them, and the record of the send this sync marked answered (at
 * `sentAtMs`, of `answeredCost`, its mark `now`), when the sync told its window.
 */
function noteAnswer(
  answers: readonly number[],
  e: readonly number[],
  d: WindowDefinition,
  now: number,
  sentAtMs: number | undefined,
  answeredCost: number | undefined,
  used: number,
  windowEnd: readonly [number, number] | undefined,
): number[] {
  const out: number[] = [];
  for (let j = 0; j < answers.length; j += ANSWER) if ((answers[j] as number) + d.span > now) out.push(...answers.slice(j, j + ANSWER));
  if (windowEnd !== undefined && sentAtMs !== undefined && answeredCost !== undefined) {
    for (let i = 0; i < e.length; i += ENTRY) {
      // the entry markAnswered marked: one answered send, of that cost, marked now
      if (e[i + 1] === now && isSingleAnswered(e[i + 3] as number) && e[i + 2] === answeredCost && Math.abs((e[i] as number) - sentAtMs) <= SAME_SEND_MS) {
        out.push(e[i] as number, now, answeredCost, used, windowEnd[0], windowEnd[1]);
        break;
      }
    }
  }
  return out.length > MAX_ANSWERS * ANSWER ? out.slice(out.length - MAX_ANSWERS * ANSWER) : out;
}

/** How far apart two send times may be and still be one send's (a store's epoch conversion rounds). */
const SAME_SEND_MS = 1e-3;

/**
 * Marks the reporting request's own entry answered (RL-V5): the first admitted send not yet answered
 * sent at `sentAtMs` (within a microsecond), of exactly `answeredCost`, gets its answered kind (10, 11,
 * 12: one send, still counted by its send time `a`) and `b = now`, when the sync learned it. Nothing when
 * none matches (merged, or never admitted there) or `sentAtMs` is after now.
 */
function markAnswered(e: number[], sentAtMs: number | undefined, answeredCost: number | undefined, now: number): number[] {
  if (sentAtMs === undefined || answeredCost === undefined || !(sentAtMs <= now)) return e;
  for (let i = 0; i < e.length; i += ENTRY) {
    const f = e[i + 3] as number;
    // (a store may keep times in its own epoch: a microsecond of rounding is the same send)
    if (e[i] === e[i + 1] && Math.abs((e[i] as number) - sentAtMs) <= SAME_SEND_MS && e[i + 2] === answeredCost && isOwnKind(f) && !isAnsweredKind(f)) {
      e[i + 1] = now;
      e[i + 3] = answeredKind(f);
      break;
    }
  }
  return e;
}

/** Orders reports (flat `[a, b, c]`) latest first: by `b` descending, then by cost descending, then by `a`. */
function latestFirst(r: readonly number[]): number[] {
  const idx: number[] = [];
  for (let i = 0; i < r.length; i += 3) idx.push(i);
  idx.sort((x, y) => (r[y + 1] as number) - (r[x + 1] as number) || (r[y + 2] as number) - (r[x + 2] as number) || (r[x] as number) - (r[y] as number));
  return idx;
}

/**
 * Keeps reports as entries of kind 1 whose sum, in the interval ending at any `T` from now on, is the
 * largest cost among the reports still counting there (each report stands for all others spent in its
 * window, so two of them never add up): latest first, each entry holds what its report adds over the
 * ones counting longer. `prior` holds such entries (their costs are rebuilt by adding them up from the
 * latest: a report dropped before them counted for less time, so it never entered theirs), `added` a
 * new report at its whole cost. A report dropped later takes only its own excess with it.
 */
function addReports(kept: number[], prior: readonly number[], added: readonly number[], d: WindowDefinition, now: number): number[] {
  const whole: number[] = [];
  let sum = 0;
  for (const i of latestFirst(prior)) {
    sum += prior[i + 2] as number;
    whole.push(prior[i] as number, prior[i + 1] as number, sum);
  }
  whole.push(...added);
  let out = kept;
  let most = 0;
  for (const i of latestFirst(whole)) {
    const c = whole[i + 2] as number;
    if (!(c - most > d.eps)) continue;
    out = addEntry(out, whole[i] as number, whole[i + 1] as number, c - most, 1, d, now);
    most = c;
  }
  return out;
}

/**
 * A penalty (RL-R3, RL-V5): nothing before `untilMs`, and the window full then: one reported entry of
 * the whole limit over `[now, until]`, so nothing goes out before `until + span`.
 */
export function windowPenalize(e: readonly number[], d: WindowDefinition, untilMs: number, now: number): number[] {
  const until = clampHold(untilMs, now);
  if (!(until + d.span > now)) return pruneWindow(e, d, now);
  return addEntry(pruneWindow(e, d, now), Math.min(now, until), until, d.perWindow, 2, d, now);
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
  let e: number[] = borrowed > 0 ? addEntry([], now, now, Math.min(borrowed, MAX_AMOUNT), 3, d, now) : [];
  if (hold > now) e = windowPenalize(e, d, hold, now);
  return e;
}
