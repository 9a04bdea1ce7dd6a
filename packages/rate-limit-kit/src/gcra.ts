import type { NormalizedLimit } from '@core/rate-limit-contract';

/**
 * The bucket arithmetic (the contract package's MODEL.md) as pure functions of numbers: the one
 * implementation every limiter runs. The in-process limiter calls these on its hot path; the Redis
 * scripts compute exactly the same expressions in Lua, in the same order, and a differential test
 * compares the two step by step.
 *
 * A bucket's state is two numbers:
 * - `x`: the theoretical arrival time `tat` (ms, the limiter's clock) of a refilling bucket, or the
 *   amount used of a fixed quota (refill 0, RL-L4);
 * - `hold`: the end of a penalty hold (RL-R3), `-Infinity` when there is none.
 * Nothing here reads a clock, allocates or keeps state.
 *
 * Times relative to now: every function here depends on times only through their differences, so
 * the stores call them with `now = 0` and every time relative to now: a bucket that refills keeps `x`
 * relative to the time it was written (`at`, the pair `(at, x − at)`), and reads `x − now` as
 * `(x − at) + (at − now)`. Its `x` is then as precise as its own span: on the clock itself, near
 * 1.7e12 ms, a float's last bit is worth 2.4e-4 ms, more than a whole tiny bucket (capacity 1e-9 at
 * refill 3 per second spans 3.3e-7 ms). A quota's amount and a hold's end are kept as they are.
 */

/** The farthest a bucket's `tat` or a hold may lie ahead of now (ms, about 31,700 years, RL-A7). */
export const HORIZON_MS = 1e15;
/** The largest used amount a fixed quota stores (clamp for huge records and syncs, RL-R1). */
export const MAX_AMOUNT = 1e300;
/** The state of "no hold". */
export const NO_HOLD = -Infinity;
const ULP = 2.220446049250313e-16;

/** A limit prepared for the arithmetic. */
export interface BucketDefinition {
  readonly capacity: number;
  readonly refillPerSec: number;
  /** `T = 1000 / refillPerSec`: milliseconds per token; `Infinity` for a fixed quota. */
  readonly msPerToken: number;
  /** `tau = capacity · T`: the span of a full bucket in ms; `Infinity` for a fixed quota. */
  readonly tau: number;
  /** The tolerance, relative to the bucket (RL-A7): `1e-9 · tau` ms, or `1e-9 · capacity` tokens for a quota. */
  readonly eps: number;
  /** Refill 0: `x` is the amount used and never refills. */
  readonly quota: boolean;
}

/** Prepares a validated limit for the arithmetic. */
export function defineBucket(limit: NormalizedLimit): BucketDefinition {
  const quota = limit.refillPerSec === 0;
  const msPerToken = quota ? Infinity : 1000 / limit.refillPerSec;
  const tau = quota ? Infinity : limit.capacity * msPerToken;
  const eps = 1e-9 * (quota ? limit.capacity : tau);
  return { capacity: limit.capacity, refillPerSec: limit.refillPerSec, msPerToken, tau, eps, quota };
}

/**
 * `base + inc`, nudged up when the float sum fell short of `inc`: a charge is never smaller than its
 * cost (absolute times are large numbers whose last bit is worth nanoseconds).
 */
export function addUp(base: number, inc: number): number {
  const r = base + inc;
  return r - base < inc ? r + Math.abs(r) * ULP : r;
}

/** The `x` of a bucket never seen (or forgotten): full. */
export function freshState(def: BucketDefinition): number {
  return def.quota ? 0 : -Infinity;
}

/** A bucket indistinguishable from an absent one: full and not held (it may be evicted or expire). */
export function isIdle(x: number, hold: number, def: BucketDefinition, now: number): boolean {
  return (def.quota ? x <= 0 : x <= now) && !(hold > now);
}

/** borrowed(now) = `max(0, x − now) / T`, or the amount used of a quota (RL-I1). */
export function borrowedAt(x: number, def: BucketDefinition, now: number): number {
  if (def.quota) return x > 0 ? x : 0;
  return x <= now ? 0 : (x - now) / def.msPerToken;
}

/** tokens(now) = capacity − borrowed(now); negative while in debt. */
export function tokensAt(x: number, def: BucketDefinition, now: number): number {
  return def.capacity - borrowedAt(x, def, now);
}

/**
 * The earliest time the bucket can pay `cost`: `s = max(x, now) + c·T − tau`, snapped to `now` within
 * `eps` (covers costs above capacity, RL-A5). A quota answers `now` when the cost fits what is left and
 * `Infinity` when it never will (RL-L4). A result more than {@link HORIZON_MS} ahead (or not finite)
 * cannot be represented: see {@link isUnpayable}.
 */
export function sendTime(x: number, def: BucketDefinition, cost: number, now: number): number {
  if (def.quota) return x + cost <= def.capacity + def.eps ? now : Infinity;
  const start = x > now ? x : now;
  const s = start + cost * def.msPerToken - def.tau;
  return s - now <= def.eps ? now : s;
}

/** A send time that can never come: a quota that cannot pay, or a wait beyond {@link HORIZON_MS} (RL-L4, RL-A7). */
export function isUnpayable(sendAt: number, now: number): boolean {
  return !(sendAt - now <= HORIZON_MS);
}

/**
 * Charges `cost` as of the send time `sendAt` (RL-M5, RL-A5): `x' = max(x, s) + min(c·T, tau)`, rounded
 * up (see {@link addUp}). A cost above capacity leaves the bucket at zero at `s`. A quota adds the cost
 * to the amount used.
 */
export function chargeAt(x: number, def: BucketDefinition, cost: number, sendAt: number): number {
  if (def.quota) return x + cost;
  const span = cost * def.msPerToken;
  return addUp(x > sendAt ? x : sendAt, span < def.tau ? span : def.tau);
}

/**
 * record (RL-R1): `x' = max(x, now) + c·T` (debt allowed), clamped to `now + HORIZON_MS`; a quota's used
 * amount grows, clamped to {@link MAX_AMOUNT}.
 */
export function recordCost(x: number, def: BucketDefinition, cost: number, now: number): number {
  if (def.quota) return Math.min(x + cost, MAX_AMOUNT);
  return Math.min(addUp(x > now ? x : now, cost * def.msPerToken), now + HORIZON_MS);
}

/** sync (RL-R2): `x' = max(x, now + b·T)`, the raise clamped like a record; never lowers. */
export function syncBorrowed(x: number, def: BucketDefinition, minBorrowed: number, now: number): number {
  if (def.quota) return Math.max(x, Math.min(minBorrowed, MAX_AMOUNT));
  return Math.max(x, Math.min(addUp(now, minBorrowed * def.msPerToken), now + HORIZON_MS));
}

/** A hold's end clamped to the representable horizon. */
export function clampHold(untilMs: number, now: number): number {
  return Math.min(untilMs, now + HORIZON_MS);
}

/** The hold after a penalty until `untilMs` (RL-R3): never shortened. */
export function holdAfter(hold: number, untilMs: number, now: number): number {
  return Math.max(hold, clampHold(untilMs, now));
}

/**
 * The `x` after a penalty until `untilMs` (RL-R3): `max(x, until + tau)`, nothing before the hold's end
 * and empty then; never shortens. A quota is empty from then on: used up.
 */
export function penalizeUntil(x: number, def: BucketDefinition, untilMs: number, now: number): number {
  if (def.quota) return Math.max(x, def.capacity);
  return Math.max(x, addUp(clampHold(untilMs, now), def.tau));
}

/**
 * A new definition of a live bucket keeps the amount borrowed (RL-L5) and never lifts a hold (RL-R3):
 * `b = borrowed(now)` under the old one, `x' = now + b·T_new` (used = b for a quota); then, while the
 * hold lasts, `x' ≥ hold + tau_new` (a quota stays used up).
 */
export function redefine(x: number, hold: number, from: BucketDefinition, to: BucketDefinition, now: number): number {
  return fromBorrowed(borrowedAt(x, from, now), hold, to, now);
}

/**
 * The `x` of a token bucket that takes over `b` borrowed now (RL-L5: from another definition, a token
 * bucket's or a window limit's), keeping a hold in force (RL-R3).
 */
export function fromBorrowed(b: number, hold: number, to: BucketDefinition, now: number): number {
  let y: number;
  if (b <= 0) y = freshState(to);
  else y = to.quota ? Math.min(b, MAX_AMOUNT) : Math.min(addUp(now, b * to.msPerToken), now + HORIZON_MS);
  if (hold > now) y = to.quota ? Math.max(y, to.capacity) : Math.max(y, addUp(hold, to.tau));
  return y;
}

/**
 * The first definition of a bucket that had only a hold and/or recorded debt (RL-R1, RL-R3): empty as
 * of the hold's end (even when that end has passed: it refills from there), then the debt on top.
 */
export function foldPending(debt: number, hold: number, def: BucketDefinition, now: number): number {
  if (def.quota) return Math.min((hold > NO_HOLD ? def.capacity : 0) + debt, MAX_AMOUNT);
  let y = now;
  if (hold > NO_HOLD) {
    const empty = addUp(hold, def.tau);
    if (empty > y) y = empty;
  }
  if (debt > 0) y = Math.min(addUp(y, debt * def.msPerToken), now + HORIZON_MS);
  return y;
}

/** A pending bucket's debt after a record (clamped to {@link MAX_AMOUNT}). */
export function addDebt(debt: number, cost: number): number {
  return Math.min(debt + cost, MAX_AMOUNT);
}

/**
 * A wait as answered to callers in a delay (RL-A3): rounded up to whole milliseconds after subtracting
 * 1e-9 (so `110.00000000000001` answers 110), at least 1. A booking's wait is never rounded (RL-W1).
 */
export function roundUpWait(waitMs: number): number {
  const w = Math.ceil(waitMs - 1e-9);
  return w < 1 ? 1 : w;
}

/** Whether an admission planned for `sendAt` goes ahead: now, or a booking within the budget (RL-W1, RL-W3). */
export function admits(sendAt: number, now: number, budgetMs: number | undefined): boolean {
  return sendAt <= now || (budgetMs !== undefined && sendAt - now <= budgetMs);
}
