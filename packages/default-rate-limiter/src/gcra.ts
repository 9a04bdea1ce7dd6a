import type { NormalizedLimit } from '@core/rate-limit-contract';

/**
 * The bucket arithmetic of docs/model.md as pure functions of numbers. A bucket's state is ONE
 * number: its theoretical arrival time `tat` (ms, limiter clock) when it refills, or the amount used
 * when it is a fixed quota (refill 0, RL-L4). Nothing here reads a clock, allocates per call or
 * keeps state; the limiter composes these at its edges.
 */

/** A limit prepared for the arithmetic. */
export interface BucketDefinition {
  readonly capacity: number;
  readonly refillPerSec: number;
  /** `T`: milliseconds per token; `Infinity` for a fixed quota. */
  readonly msPerToken: number;
  /** `tau = capacity · T`: the span of a full bucket in ms; `Infinity` for a fixed quota. */
  readonly tau: number;
  /** Float tolerance: ms for a refilling bucket (`1e-9 · max(1, tau)`), tokens for a quota. */
  readonly eps: number;
  /** Refill 0: the state is the amount used and never refills. */
  readonly quota: boolean;
}

/** Prepares a validated limit (see `normalizeLimit`) for the arithmetic. */
export function defineBucket(limit: NormalizedLimit): BucketDefinition {
  const quota = limit.refillPerSec === 0;
  const msPerToken = quota ? Infinity : 1000 / limit.refillPerSec;
  const tau = quota ? Infinity : limit.capacity * msPerToken;
  const eps = 1e-9 * Math.max(1, quota ? limit.capacity : tau);
  return { capacity: limit.capacity, refillPerSec: limit.refillPerSec, msPerToken, tau, eps, quota };
}

/** The state of a bucket never seen (or forgotten): full. */
export function freshState(def: BucketDefinition): number {
  return def.quota ? 0 : -Infinity;
}

/** A state that is indistinguishable from a fresh bucket (and so may be evicted). */
export function isIdle(state: number, def: BucketDefinition, now: number): boolean {
  return def.quota ? state <= 0 : state <= now;
}

/** borrowed(now) = max(0, tat − now) / T, or the amount used of a quota (RL-I1). */
export function borrowedAt(state: number, def: BucketDefinition, now: number): number {
  if (def.quota) return Math.max(0, state);
  return state <= now ? 0 : (state - now) / def.msPerToken;
}

/** tokens(now) = capacity − borrowed(now); negative while in debt. */
export function tokensAt(state: number, def: BucketDefinition, now: number): number {
  return def.capacity - borrowedAt(state, def, now);
}

/**
 * The earliest time the bucket can pay `cost`: `s = max(now, max(tat, now) + c·T − tau)`, snapped
 * to `now` within `eps`. Covers costs above capacity (RL-A5). For a quota: `now` when the cost
 * fits what is left, `Infinity` when it never will (RL-L4).
 */
export function sendTime(state: number, def: BucketDefinition, cost: number, now: number): number {
  if (def.quota) return state + cost <= def.capacity + def.eps ? now : Infinity;
  const start = state > now ? state : now;
  const s = start + cost * def.msPerToken - def.tau;
  return s - now <= def.eps ? now : s;
}

/**
 * Charges `cost` as of the send time `sendAt` (RL-M5, RL-A5): `tat' = max(tat, s) + min(c·T, tau)`.
 * A cost above capacity leaves the bucket at zero at `s`. A quota adds the cost to the amount used.
 */
export function chargeAt(state: number, def: BucketDefinition, cost: number, sendAt: number): number {
  if (def.quota) return state + cost;
  const span = cost * def.msPerToken;
  return (state > sendAt ? state : sendAt) + (span < def.tau ? span : def.tau);
}

/** record (RL-R1): `tat = max(tat, now) + c·T`; debt allowed. */
export function recordCost(state: number, def: BucketDefinition, cost: number, now: number): number {
  if (def.quota) return state + cost;
  return (state > now ? state : now) + cost * def.msPerToken;
}

/** sync (RL-R2): `tat = max(tat, now + minBorrowed·T)`; never lowers. */
export function syncBorrowed(state: number, def: BucketDefinition, minBorrowed: number, now: number): number {
  if (def.quota) return Math.max(state, minBorrowed);
  return Math.max(state, now + minBorrowed * def.msPerToken);
}

/**
 * penalize (RL-R3): `tat = max(tat, until + tau)`: nothing before `until`, empty then; never
 * shortens. A quota is empty from then on, so it is used up.
 */
export function penalizeUntil(state: number, def: BucketDefinition, untilMs: number): number {
  if (def.quota) return Math.max(state, def.capacity);
  return Math.max(state, untilMs + def.tau);
}

/**
 * A new definition of a live bucket keeps the amount borrowed (RL-L5): `b = borrowed(now)` under the
 * old one, `tat = now + b·T_new` (or used = b for a quota).
 */
export function redefine(state: number, from: BucketDefinition, to: BucketDefinition, now: number): number {
  const b = borrowedAt(state, from, now);
  if (b <= 0) return freshState(to);
  return to.quota ? b : now + b * to.msPerToken;
}

/**
 * Cancelling a booking (RL-W5): the value the booking replaced when the bucket still holds what
 * the booking wrote (nothing was charged after it); otherwise the slot is forfeited.
 */
export function cancelBooking(current: number, written: number, replaced: number): number {
  return current === written ? replaced : current;
}

/** A wait as answered to callers: rounded up after subtracting 1e-9, at least 1 ms (RL-A3). */
export function roundUpWait(waitMs: number): number {
  const w = Math.ceil(waitMs - 1e-9);
  return w < 1 ? 1 : w;
}

/** One bucket's part of a pure multi-bucket admission. */
export interface AdmitInput {
  readonly state: number;
  readonly def: BucketDefinition;
  readonly cost: number;
}

/** The outcome of {@link admit}. */
export type AdmitOutcome =
  /** Admitted (`sendAt === now`) or booked for `sendAt`; `states` are the new states. */
  | { readonly kind: 'ok'; readonly sendAt: number; readonly states: readonly number[] }
  /** Not admitted; `waitMs` is the exact wait (round it with {@link roundUpWait}). States unchanged. */
  | { readonly kind: 'delay'; readonly waitMs: number; readonly states: readonly number[] }
  /** A quota bucket (index `bucket`) can never pay; states unchanged (RL-L4). */
  | { readonly kind: 'unpayable'; readonly bucket: number; readonly states: readonly number[] };

/**
 * (states, definitions, costs, now, budget) → (decision, states): the whole admission rule for one
 * call over one or more buckets (RL-M1, RL-M4, RL-M5, RL-A1..RL-A5, RL-W1, RL-W3). The common send
 * time is the largest of the buckets' send times; it books only when a budget is given and the
 * wait fits it. A probe that is not admitted changes nothing (RL-A3).
 *
 * @param buckets - the buckets' current states (already converted to the call's definitions).
 * @param now - the limiter's time.
 * @param budgetMs - the wait budget; `undefined` for a probe.
 * @example
 * ```ts
 * const def = defineBucket({ capacity: 2, refillPerSec: 1 });
 * admit([{ state: freshState(def), def, cost: 1 }], 0); // { kind: 'ok', sendAt: 0, states: [1000] }
 * ```
 */
export function admit(buckets: readonly AdmitInput[], now: number, budgetMs?: number): AdmitOutcome {
  const states = buckets.map((b) => b.state);
  let s = now;
  for (let i = 0; i < buckets.length; i++) {
    const b = buckets[i] as AdmitInput;
    if (b.cost === 0) continue; // RL-A2: cost 0 is admitted and changes nothing
    const si = sendTime(b.state, b.def, b.cost, now);
    if (si === Infinity) return { kind: 'unpayable', bucket: i, states };
    if (si > s) s = si;
  }
  if (s > now && (budgetMs === undefined || s - now > budgetMs)) return { kind: 'delay', waitMs: s - now, states };
  return { kind: 'ok', sendAt: s, states: buckets.map((b) => (b.cost === 0 ? b.state : chargeAt(b.state, b.def, b.cost, s))) };
}
