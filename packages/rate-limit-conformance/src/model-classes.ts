// biome-ignore-all lint/style/noNonNullAssertion: the model indexes its own fixed-length tuples and arrays by construction; a miss is a bug the suite's self-test catches.
/**
 * Admission classes in the reference model (MODEL.md, "Classes"; RL-Q1..RL-Q5), stated as plain
 * arithmetic apart from any implementation. A token bucket that refills keeps, while bookings lie ahead,
 * `[L, Lc, Ln, aEnd, Pa, Pb]`: the send time of the latest booking (any class), of the latest critical
 * booking and of the latest normal-or-critical booking; and two upper bounds (ms: a level times `T`) on
 * the bucket's level, bookings included, over `[now, aEnd)` and over `[aEnd, ∞)`.
 */

/** Class indices, highest first. */
export const MODEL_CRITICAL = 0;
export const MODEL_NORMAL = 1;
export const MODEL_BULK = 2;

/**
 * A class's line: the bucket (`whole`: ms of a refilling bucket, or amount) less its free share, never
 * below what the cost needs (`need`, in the same unit) up to the whole bucket.
 */
export function classLine(whole: number, free: number, need: number): number {
  if (free === 0) return whole;
  const line = whole * (1 - free);
  return need > line ? Math.min(need, whole) : line;
}

/** A class state (see above); `undefined` when no booking lies ahead. */
export type ModelClasses = readonly number[];

/** The class state as of `now`: gone once no booking lies ahead; its first bound handed on once `aEnd` passed. */
export function settledClasses(cs: ModelClasses | undefined, tat: number, now: number): ModelClasses | undefined {
  if (cs === undefined || !(cs[0]! > now)) return undefined;
  if (cs[3]! > now) return cs;
  return [cs[0]!, cs[1]!, cs[2]!, cs[0]!, cs[5]!, Math.max(0, tat - cs[0]!)];
}

/** The send time of the latest booking of class `cls` or a higher one (`−∞` when none). */
export function bookingAhead(cs: ModelClasses, cls: number): number {
  return cls === MODEL_CRITICAL ? cs[1]! : cls === MODEL_NORMAL ? cs[2]! : cs[0]!;
}

/** Whether no booking of class `cls` or a higher one lies ahead (first come, first served within a class, RL-Q2). */
export function noBookingAhead(cs: ModelClasses, cls: number, now: number): boolean {
  return !(bookingAhead(cs, cls) > now);
}

/** Whether the most the bucket holds from now on, plus `span` ms, stays within the line (ms): RL-A6 for every class together. */
export function roomAtOnce(cs: ModelClasses, span: number, line: number, eps: number): boolean {
  return Math.max(cs[4]!, cs[5]!) + span - line <= eps;
}

/** The class state after a charge of class `cls` as of `s` that moved `tat` from `before` to `after`. */
export function classesAfterCharge(cs: ModelClasses | undefined, cls: number, before: number, after: number, s: number, now: number): ModelClasses | undefined {
  if (cs === undefined) {
    if (!(s > now)) return undefined;
    return [s, cls === MODEL_CRITICAL ? s : -Infinity, cls <= MODEL_NORMAL ? s : -Infinity, s, Math.max(0, before - now), after - s];
  }
  const lc = cls === MODEL_CRITICAL && s > now ? Math.max(cs[1]!, s) : cs[1]!;
  const ln = cls <= MODEL_NORMAL && s > now ? Math.max(cs[2]!, s) : cs[2]!;
  if (s >= cs[0]!) return [s, lc, ln, cs[3]!, cs[4]!, Math.max(cs[5]!, after - s)];
  // a charge before the latest booking raises every level from s on by at most its span, and none above (after − t)
  const d = after - before;
  const aEnd = cs[3]!;
  const pa = s < aEnd ? (s > now ? Math.max(cs[4]!, Math.min(cs[4]! + d, after - s, 1e15)) : Math.min(cs[4]! + d, after - s, 1e15)) : cs[4]!;
  const upB = Math.min(cs[5]! + d, after - Math.max(s, aEnd), 1e15);
  const pb = s > aEnd ? Math.max(cs[5]!, upB) : upB;
  return [cs[0]!, lc, ln, aEnd, pa, pb];
}

/** The class state after a record, sync or penalty (`held`) raised `tat` from `before` to `after` now. */
export function classesAfterRaise(cs: ModelClasses | undefined, tau: number, before: number, after: number, held: boolean): ModelClasses | undefined {
  if (cs === undefined) return undefined;
  const d = Math.max(0, after - before);
  let pa = Math.min(cs[4]! + d, 1e15);
  let pb = Math.min(cs[5]! + d, 1e15);
  if (held) {
    pa = Math.max(pa, tau);
    pb = Math.max(pb, tau);
  }
  return [cs[0]!, cs[1]!, cs[2]!, cs[3]!, pa, pb];
}
