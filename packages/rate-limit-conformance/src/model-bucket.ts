// biome-ignore-all lint/style/noNonNullAssertion: the model indexes its own fixed-length class states by construction; a miss is a bug the suite's self-test catches.
// A bucket of the reference model (./reference-model.ts) as plain data, the answers the model gives, and the pure
// steps that change one bucket: a booking's charge, a record's, a raise to a later tat, and borrowed(now).
// A token bucket's times are kept relative to the time it was written (MODEL.md, "State"): `tat` is
// `tat − at`, and a step at `now` reads it as `tat + (at − now)`, computes relative to now and writes
// `at = now`.
import type { NormalizedLimit } from '@core/rate-limit-contract';
import { HORIZON_MS, MAX_AMOUNT, addUp, formatNumber, isWindow, msPerToken, type ModelCheck, type ModelKey, type ModelLimit } from './model-arithmetic.js';
import { classesAfterCharge, classesAfterRaise, settledClasses, type ModelClasses } from './model-classes.js';
import type { WindowBook } from './window-log.js';

/** One bucket's state. */
export interface ModelBucket {
  readonly key: ModelKey;
  readonly limit: ModelLimit;
  /** Theoretical arrival time (refill > 0), relative to `at`. */
  readonly tat: number;
  /** When `tat` and the class state were written: their times are relative to it. */
  readonly at: number;
  /** Amount used (refill 0). */
  readonly used: number;
  /** The end of the penalty hold, `-Infinity` when there never was one (RL-R3). */
  readonly hold: number;
  /** A window limit's state, of the model's {@link WindowBook} (undefined for a token bucket). */
  readonly win: unknown;
  /** A token bucket's class state while bookings lie ahead (./model-classes.ts); absent otherwise. */
  readonly classes?: ModelClasses;
}

/** What a booking wrote on one bucket, to undo it on cancellation (RL-W5). */
export interface BookingWrite {
  readonly id: string;
  /** The stored bucket before the call (undefined when it was not live). */
  readonly before: ModelBucket | undefined;
  /** A penalty hold and recorded debt kept for the bucket before its first definition. */
  readonly hold: number | undefined;
  readonly debt: number | undefined;
  readonly after: ModelBucket;
}

/** The handle of an admission, for {@link ReferenceModel.cancel}. */
export interface ModelBooking {
  readonly writes: readonly BookingWrite[];
}

/** The model's answer to a check. `ok` with `waitMs > 0` is a booking (answered `booked`, RL-W1). */
export type ModelOutcome =
  | { readonly kind: 'ok'; readonly sendAtMs: number; readonly waitMs: number; readonly booking: ModelBooking }
  | { readonly kind: 'wait'; readonly waitMs: number; readonly retryAfterMs: number }
  | { readonly kind: 'unpayable'; readonly message: string; readonly path: string }
  | { readonly kind: 'invalid'; readonly message: string };

/** What a cancellation did: on how many buckets the booking was returned, and on how many forfeited. */
export interface ModelCancellation {
  readonly returned: number;
  readonly forfeited: number;
}

/** A live bucket as the model reports it. */
export interface ModelSnapshotEntry {
  readonly key: ModelKey;
  /** The definition as a snapshot shows it: a window limit by its long-run rate (capacity `perWindow`). */
  readonly limit: NormalizedLimit;
  readonly tokens: number;
  readonly borrowed: number;
  /** A window limit's window (RL-I3). */
  readonly windowMs?: number;
  /** The end of a hold in force (RL-R3). */
  readonly heldUntilMs?: number;
}

/** A token bucket's `tat` relative to `now`. */
export function tatAt(bucket: ModelBucket, now: number): number {
  return bucket.tat + (bucket.at - now);
}

/** A token bucket's class state with its times relative to `now` (settled there, ./model-classes.ts). */
export function classesAt(bucket: ModelBucket, now: number): ModelClasses | undefined {
  const cs = bucket.classes;
  if (cs === undefined) return undefined;
  const d = bucket.at - now;
  return settledClasses([cs[0]! + d, cs[1]! + d, cs[2]! + d, cs[3]! + d, cs[4]!, cs[5]!], tatAt(bucket, now), 0);
}

/** borrowed(now) of a bucket under its own definition (RL-I1). */
export function borrowedOf(windows: WindowBook, bucket: ModelBucket, now: number): number {
  if (isWindow(bucket.limit)) return windows.borrowed(bucket.win, bucket.limit, now);
  if (bucket.limit.refillPerSec === 0) return bucket.used;
  return Math.max(0, tatAt(bucket, now)) / msPerToken(bucket.limit);
}

/** `cost_unpayable` for a send time that cannot be represented (RL-A7). */
export function unrepresentable(check: ModelCheck): ModelOutcome {
  return {
    kind: 'unpayable',
    path: `checks[${check.index}]`,
    message: `checks[${check.index}] (${check.key.venue}/${check.key.axis}): the wait for cost ${formatNumber(check.cost)} cannot be represented (it lies more than ${formatNumber(HORIZON_MS)} ms ahead)`,
  };
}

/**
 * Charges `cost` as of `sendAt`: `tat' = max(tat, s) + min(c·T, tau)`, rounded up so the charge never
 * falls short of its cost; a cost above capacity leaves the bucket at zero then (RL-A5, RL-M5). A window
 * limit counts the send at `sendAt` (RL-V2, RL-V4).
 */
export function booked(windows: WindowBook, bucket: ModelBucket, cost: number, sendAt: number, now: number, cls: number): ModelBucket {
  const limit = bucket.limit;
  if (isWindow(limit)) return { ...bucket, win: windows.charge(bucket.win, limit, cost, sendAt, now, cls) };
  if (limit.refillPerSec === 0) return { ...bucket, used: addUp(bucket.used, cost) };
  const t = msPerToken(limit);
  const tau = limit.capacity * t;
  const x = tatAt(bucket, now);
  const s = sendAt - now;
  const tat = addUp(Math.max(x, s), Math.min(cost * t, tau));
  return withClasses({ ...bucket, tat, at: now }, classesAfterCharge(classesAt(bucket, now), cls, Math.max(x, 0), tat, s, 0));
}

/** A bucket with its class state (none: the field left out). */
export function withClasses(bucket: ModelBucket, classes: ModelClasses | undefined): ModelBucket {
  const { classes: _dropped, ...rest } = bucket;
  return classes === undefined ? rest : { ...rest, classes };
}

/** A token bucket whose `tat` a record, sync or penalty (`held`) moved to `tat` (relative to now), its class state kept a bound. */
export function raised(bucket: ModelBucket, tat: number, now: number, held: boolean): ModelBucket {
  const limit = bucket.limit as NormalizedLimit;
  const tau = limit.capacity * msPerToken(limit);
  return withClasses({ ...bucket, tat, at: now }, classesAfterRaise(classesAt(bucket, now), tau, tatAt(bucket, now), tat, held));
}

/** Debits recorded cost at `now`, debt allowed, clamped to the horizon (RL-R1); a window limit counts a send now (RL-V2). */
export function charged(windows: WindowBook, bucket: ModelBucket, cost: number, now: number): ModelBucket {
  const limit = bucket.limit;
  if (isWindow(limit)) return { ...bucket, win: windows.record(bucket.win, limit, cost, now) };
  if (limit.refillPerSec === 0) return { ...bucket, used: Math.max(bucket.used, Math.min(addUp(bucket.used, cost), MAX_AMOUNT)) };
  const x = tatAt(bucket, now);
  const tat = Math.min(addUp(Math.max(x, 0), cost * msPerToken(limit)), HORIZON_MS);
  return raised(bucket, Math.max(x, tat), now, false);
}
