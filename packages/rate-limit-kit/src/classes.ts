import { HORIZON_MS, chargeAt, type BucketDefinition } from './gcra.js';

/**
 * Admission classes (the contract's `Priority`, RULEBOOK RL-Q1..RL-Q5, MODEL.md "Classes"): the one
 * implementation of their arithmetic. The in-process store calls it; the Redis scripts compute the same
 * expressions in Lua (lua/state.lua), pinned by the differential test.
 *
 * Class `k` spends a bucket only up to its line `C_k = capacity · (1 − free_k)` (critical: the whole
 * capacity). A token bucket that refills keeps, besides its `tat` (`x`), a class state while bookings lie
 * ahead (absent otherwise, when `tat` alone is exact): `[L, Lc, Ln, aEnd, Pa, Pb]`:
 * - `L`: the send time of the latest booking (any class); `Lc`, `Ln`: of the latest booking of class
 *   critical, and of class normal or critical (`-Infinity` when none). A class-k call goes at once only
 *   when no booking of its class or a higher one lies ahead (first come, first served within a class).
 * - `Pa`, `Pb` (ms, a level times `T`): upper bounds on the bucket's level, bookings included, over
 *   `[now, aEnd)` and over `[aEnd, ∞)`. Their maximum is the peak: the most the bucket will hold at any
 *   instant from now on. A class-k cost `c` goes at once when `peak + c·T ≤ tau_k` (within `eps`), so the
 *   bucket never holds more than `C_k ≤ capacity` at any instant: RL-A6 for the sum of all classes.
 * - Otherwise it books at the GCRA time `max(now, x + c·T − tau_k)`: `(x − t)/T` bounds the level at
 *   every instant from `t` on (every charge ahead counted as borrowed), so no later level passes the line.
 *   A booking at or after `L` (in order; `x` is exact, conservatively, from `L` on) raises `Pb` to its level
 *   after; a charge at `s` before `L` (a call that went at once, or a booking between charges ahead) raises
 *   every level from `s` on by at most its span and none above `(x' − t)/T`: the bounds of the parts of
 *   time from `s` on become the smaller of `P + span` and `x' − max(s, aEnd)` (kept at least `P` where the
 *   part also holds times before `s`).
 * - Once `now ≥ aEnd`, `Pb` becomes `Pa` and `aEnd` moves to `L` (with `Pb = max(0, x − L)`): the bound
 *   of the bookings made before a charge at once passes with them. Once `now ≥ L`, the state is dropped.
 *
 * Records, syncs and penalties raise `x` by some `d` as of now, which raises every later level by at most
 * `d`: both bounds grow by `d`; a penalty also lifts both to `tau` (nothing goes at once before the state
 * is dropped). A new definition drops the state (`x` then counts every booking as borrowed now).
 */

/** Class indices, highest first (the contract's `'critical' | 'normal' | 'bulk'`). */
export const CRITICAL = 0;
export const NORMAL = 1;
export const BULK = 2;

/** Slots of a class state. */
const L = 0;
const LC = 1;
const LN = 2;
const A_END = 3;
const PA = 4;
const PB = 5;

/** A token bucket's class state `[L, Lc, Ln, aEnd, Pa, Pb]` (see above); `undefined` when no booking lies ahead. */
export type ClassState = readonly number[];

/** The index of a priority (the contract's names); `NORMAL` for `undefined`. */
export function classIndex(priority: 'critical' | 'normal' | 'bulk' | undefined): number {
  return priority === 'critical' ? CRITICAL : priority === 'bulk' ? BULK : NORMAL;
}

/** The class state as of `now`: dropped once no booking lies ahead, its first bound passed on once `aEnd` passed. */
export function settleClasses(cs: ClassState | undefined, x: number, now: number): ClassState | undefined {
  if (cs === undefined || !((cs[L] as number) > now)) return undefined;
  if ((cs[A_END] as number) > now) return cs;
  const last = cs[L] as number;
  return [last, cs[LC] as number, cs[LN] as number, last, cs[PB] as number, x > last ? x - last : 0];
}

/**
 * A class's line for a cost: `tau · (1 − free)` ms for a bucket that refills, `capacity · (1 − free)` for
 * a fixed quota, but never below the cost itself (up to the whole bucket): a cost above its class's line
 * waits for room for all of it, as it would without classes, and is never held back further or refused
 * for the reserve. `tau` (the capacity) exactly when `free` is 0.
 */
export function lineOf(def: BucketDefinition, free: number, cost: number): number {
  const whole = def.quota ? def.capacity : def.tau;
  if (free === 0) return whole;
  const line = whole * (1 - free);
  const need = def.quota ? cost : cost * def.msPerToken;
  return need > line ? (need < whole ? need : whole) : line;
}

/** A window limit's line for a cost (see {@link lineOf}): `perWindow · (1 − free)`, never below the cost (up to `perWindow`). */
export function windowLineOf(perWindow: number, free: number, cost: number): number {
  if (free === 0) return perWindow;
  const line = perWindow * (1 - free);
  return cost > line ? (cost < perWindow ? cost : perWindow) : line;
}

/**
 * The earliest time class `cls` can pay `cost` on a token bucket, against its line (`lineOf`), with the
 * bucket's settled class state. The plain GCRA send time against the line, `max(now, x + c·T − line)`
 * (`sendTime` at `free = 0`), is always sound: `x` counts every charge ahead as borrowed now, so
 * `(x − t)/T` bounds the level at every `t` from there on. When the peak leaves room for the cost at every
 * instant ahead, the cost may go earlier: now, when no booking of its class or a higher one lies ahead;
 * else right after the latest of those (`Lc`, `Ln` or `L`), when that comes before the GCRA time (first
 * come, first served within a class, never behind lower classes' bookings). A quota answers now or
 * `Infinity`.
 */
export function classSendTime(x: number, cs: ClassState | undefined, def: BucketDefinition, line: number, cls: number, cost: number, now: number): number {
  if (def.quota) return x + cost <= line + def.eps ? now : Infinity;
  const span = cost * def.msPerToken;
  if (cs === undefined) {
    const start = x > now ? x : now;
    const s = start + span - line;
    return s - now <= def.eps ? now : s;
  }
  const start = x > now ? x : now;
  const s = start + span - line;
  const gcra = s - now <= def.eps ? now : s;
  const pa = cs[PA] as number;
  const pb = cs[PB] as number;
  if (!((pa > pb ? pa : pb) + span - line <= def.eps)) return gcra;
  // room at every instant ahead: at once, or right after the latest booking of its class or a higher one
  const ahead = cls === CRITICAL ? (cs[LC] as number) : cls === NORMAL ? (cs[LN] as number) : (cs[L] as number);
  if (!(ahead > now)) return now;
  return gcra < ahead ? gcra : ahead;
}

/** What {@link classCharge} answers: the new `x` and class state. */
export interface ClassCharged {
  x: number;
  cs: ClassState | undefined;
}

/**
 * Charges class `cls`'s `cost` as of the send time `s` (≥ its own send time) on a token bucket that
 * refills: `x' = max(x, s) + min(c·T, tau)` as always, and the class state kept a sound bound (see above).
 */
export function classCharge(
  out: ClassCharged,
  x: number,
  cs: ClassState | undefined,
  def: BucketDefinition,
  cls: number,
  cost: number,
  s: number,
  now: number,
): void {
  const x2 = chargeAt(x, def, cost, s);
  out.x = x2;
  if (!(s > now) && cs === undefined) {
    out.cs = undefined;
    return;
  }
  if (cs === undefined) {
    out.cs = [s, cls === CRITICAL ? s : -Infinity, cls <= NORMAL ? s : -Infinity, s, x > now ? x - now : 0, x2 - s];
    return;
  }
  const lc = cls === CRITICAL && s > now && s > (cs[LC] as number) ? s : (cs[LC] as number);
  const ln = cls <= NORMAL && s > now && s > (cs[LN] as number) ? s : (cs[LN] as number);
  const last = cs[L] as number;
  if (s >= last) {
    const pb = cs[PB] as number;
    out.cs = [s, lc, ln, cs[A_END] as number, cs[PA] as number, x2 - s > pb ? x2 - s : pb];
    return;
  }
  // a charge before the latest booking raises every level from s on by at most its span, and none above
  // (x' − t)/T: levels before s keep their bound, those from s on take the smaller of the two
  const d = x2 - x;
  const aEnd = cs[A_END] as number;
  const pa = cs[PA] as number;
  const pb = cs[PB] as number;
  let pa2 = pa;
  if (s < aEnd) {
    const up = Math.min(pa + d, x2 - s, HORIZON_MS);
    pa2 = s > now ? (up > pa ? up : pa) : up;
  }
  const from = s > aEnd ? s : aEnd;
  const upB = Math.min(pb + d, x2 - from, HORIZON_MS);
  const pb2 = s > aEnd ? (upB > pb ? upB : pb) : upB;
  out.cs = [last, lc, ln, aEnd, pa2, pb2];
}

/**
 * The class state after `x` was raised from `before` to `after` as of now (a record, a sync, a penalty):
 * both bounds grow by the raise; a penalty (`held`) also lifts them to `tau`. `cs` must be settled at now.
 */
export function classRaise(cs: ClassState | undefined, def: BucketDefinition, before: number, after: number, held: boolean): ClassState | undefined {
  if (cs === undefined) return undefined;
  const d = after > before ? after - before : 0;
  if (d === 0 && !held) return cs;
  let pa = Math.min((cs[PA] as number) + d, HORIZON_MS);
  let pb = Math.min((cs[PB] as number) + d, HORIZON_MS);
  if (held) {
    if (pa < def.tau) pa = def.tau;
    if (pb < def.tau) pb = def.tau;
  }
  return [cs[L] as number, cs[LC] as number, cs[LN] as number, cs[A_END] as number, pa, pb];
}

/** The share a class leaves free under a reserve: 0 for critical. */
export function freeShare(cls: number, normal: number, bulk: number): number {
  return cls === CRITICAL ? 0 : cls === NORMAL ? normal : bulk;
}
