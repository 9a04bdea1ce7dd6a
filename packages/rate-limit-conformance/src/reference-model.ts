import type { BucketKey, Limit, NormalizedLimit } from '@core/rate-limit-contract';
import {
  HORIZON_MS,
  MAX_AMOUNT,
  addUp,
  bucketId,
  formatNumber,
  modelKey,
  msPerToken,
  normalizeLimit,
  roundWait,
  sameDefinition,
  toleranceOf,
  type ModelCheck,
  type ModelKey,
} from './model-arithmetic.js';

/**
 * The bucket arithmetic of MODEL.md (shipped in `@core/rate-limit-contract`), written as plainly as
 * possible. It is the oracle of the suite's differential test and the core of the self-test's fakes,
 * and it stays the suite's own statement of the rules: it shares no code with any implementation.
 * It assumes valid input (keys, limits and costs already checked).
 *
 * Per bucket: `T = 1000 / refillPerSec` ms per token, `tau = capacity · T`, state `(tat, hold)`. A
 * fixed quota (refill 0) keeps the amount `used` instead of `tat`.
 */

/** One bucket's state. */
export interface ModelBucket {
  readonly key: ModelKey;
  readonly limit: NormalizedLimit;
  /** Theoretical arrival time (refill > 0). */
  readonly tat: number;
  /** Amount used (refill 0). */
  readonly used: number;
  /** The end of the penalty hold, `-Infinity` when there never was one (RL-R3). */
  readonly hold: number;
}

/** What a booking wrote on one bucket, to undo it on cancellation (RL-W5). */
interface BookingWrite {
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
  readonly limit: NormalizedLimit;
  readonly tokens: number;
  readonly borrowed: number;
  /** The end of a hold in force (RL-R3). */
  readonly heldUntilMs?: number;
}

const NO_HOLD = Number.NEGATIVE_INFINITY;

/** borrowed(now) of a bucket under its own definition (RL-I1). */
function borrowedOf(bucket: ModelBucket, now: number): number {
  if (bucket.limit.refillPerSec === 0) return bucket.used;
  return Math.max(0, bucket.tat - now) / msPerToken(bucket.limit);
}

/** The buckets of one limiter, as plain data and plain arithmetic. */
export class ReferenceModel {
  readonly #buckets = new Map<string, ModelBucket>();
  /** Penalty holds on buckets not yet defined (folded in at the first definition, RL-R3). */
  readonly #holds = new Map<string, number>();
  /** Recorded cost on buckets not yet defined (charged at the first definition, RL-R1). */
  readonly #debts = new Map<string, number>();

  /** The tolerance of a bucket's comparisons (RL-A7); a subclass may only ever use it, not change the rules. */
  protected tolerance(limit: NormalizedLimit): number {
    return toleranceOf(limit);
  }

  /**
   * A live bucket under a new definition (RL-L5): the borrowed amount converted, and, while a hold is
   * in force, the bucket kept empty until the hold ends (RL-R3).
   */
  protected redefine(live: ModelBucket, limit: NormalizedLimit, now: number): ModelBucket {
    const b = borrowedOf(live, now);
    const held = live.hold > now;
    if (limit.refillPerSec === 0) {
      const used = Math.min(b, MAX_AMOUNT);
      return { key: live.key, limit, tat: now, used: held ? Math.max(used, limit.capacity) : used, hold: live.hold };
    }
    const t = msPerToken(limit);
    const tat = Math.min(now + b * t, now + HORIZON_MS);
    return { key: live.key, limit, tat: held ? Math.max(tat, live.hold + limit.capacity * t) : tat, used: 0, hold: live.hold };
  }

  /** The bucket as it would be under `limit` at `now`: created, converted (RL-L5) or as it is. */
  #defined(id: string, key: ModelKey, limit: NormalizedLimit, now: number): ModelBucket {
    const live = this.#buckets.get(id);
    if (live !== undefined) return sameDefinition(live.limit, limit) ? live : this.redefine(live, limit, now);
    // The first definition: empty as of a kept hold's end, then the kept debt (RL-R3, RL-R1).
    const hold = this.#holds.get(id);
    const debt = this.#debts.get(id) ?? 0;
    if (limit.refillPerSec === 0) {
      const used = hold === undefined ? debt : limit.capacity + debt;
      return { key, limit, tat: now, used: Math.min(used, MAX_AMOUNT), hold: hold ?? NO_HOLD };
    }
    const t = msPerToken(limit);
    const start = hold === undefined ? now : Math.max(now, hold + limit.capacity * t);
    const tat = debt === 0 ? start : Math.min(addUp(start, debt * t), now + HORIZON_MS);
    return { key, limit, tat: Math.max(start, tat), used: 0, hold: hold ?? NO_HOLD };
  }

  #store(id: string, bucket: ModelBucket): void {
    this.#buckets.set(id, bucket);
    this.#holds.delete(id);
    this.#debts.delete(id);
  }

  /**
   * Checks merged buckets at `now`. Without a budget (`maxWaitMs` undefined) only an admission now
   * writes (RL-A3); with one, a wait within it books as of the common send time (RL-W1, RL-M5).
   * `dryRun` never writes (peek).
   */
  check(checks: readonly ModelCheck[], now: number, maxWaitMs?: number, dryRun = false): ModelOutcome {
    const planned: { check: ModelCheck; bucket: ModelBucket }[] = [];
    let fitsNow = true;
    let sendAt = now;
    for (const check of checks) {
      if (check.cost === 0) continue; // RL-A2: cost 0 is admitted and changes nothing
      const bucket = this.#defined(check.id, check.key, check.limit, now);
      const { capacity, refillPerSec } = check.limit;
      const where = `checks[${check.index}] (${check.key.venue}/${check.key.axis})`;
      const eps = this.tolerance(check.limit);
      let s = now;
      if (refillPerSec === 0) {
        if (bucket.used + check.cost > capacity + eps) {
          const left = formatNumber(Math.max(0, capacity - bucket.used), eps);
          return {
            kind: 'unpayable',
            path: `checks[${check.index}]`,
            message: `${where}: cost ${formatNumber(check.cost)} can never be paid: the fixed quota of ${formatNumber(capacity)} has ${left} left and never refills`,
          };
        }
      } else {
        const t = msPerToken(check.limit);
        s = Math.max(now, Math.max(bucket.tat, now) + check.cost * t - capacity * t);
        if (!(s - now <= HORIZON_MS)) {
          return {
            kind: 'unpayable',
            path: `checks[${check.index}]`,
            message: `${where}: the wait for cost ${formatNumber(check.cost)} cannot be represented (it lies more than ${formatNumber(HORIZON_MS)} ms ahead)`,
          };
        }
        if (s - now > eps) fitsNow = false;
      }
      sendAt = Math.max(sendAt, s);
      planned.push({ check, bucket });
    }
    if (fitsNow) sendAt = now;
    const waitMs = sendAt - now;
    if (!fitsNow && (maxWaitMs === undefined || waitMs > maxWaitMs)) {
      return { kind: 'wait', waitMs, retryAfterMs: roundWait(waitMs) };
    }
    const writes: BookingWrite[] = [];
    for (const { check, bucket } of planned) {
      const after = booked(bucket, check.cost, sendAt);
      writes.push({ id: check.id, before: this.#buckets.get(check.id), hold: this.#holds.get(check.id), debt: this.#debts.get(check.id), after });
    }
    if (!dryRun) for (const w of writes) this.#store(w.id, w.after);
    return { kind: 'ok', sendAtMs: sendAt, waitMs, booking: { writes } };
  }

  /**
   * Gives a booking back where nothing wrote to the bucket after it (MODEL.md); otherwise that
   * bucket's slot is forfeited (RL-W5). Every write (admission, booking, record, sync, penalty,
   * redefinition, cancellation) stores a new bucket object, so the stored object is still the one
   * the booking wrote exactly when nothing wrote since, even a write that left `tat` unchanged (a
   * sync or penalty absorbed by the booking's `tat`, which a restore would undo). What the booking
   * replaced comes back whole: the stored bucket with its definition, or, for a bucket that was not
   * live, its absence with any penalty hold or debt kept for it.
   */
  cancel(booking: ModelBooking): ModelCancellation {
    let returned = 0;
    let forfeited = 0;
    for (const w of booking.writes) {
      if (this.#buckets.get(w.id) !== w.after) {
        forfeited++;
        continue;
      }
      returned++;
      if (w.before === undefined) this.#buckets.delete(w.id);
      else this.#buckets.set(w.id, { ...w.before });
      if (w.hold !== undefined) this.#holds.set(w.id, w.hold);
      if (w.debt !== undefined) this.#debts.set(w.id, w.debt);
    }
    return { returned, forfeited };
  }

  /**
   * Reports cost sent without admission: always debits, possibly into debt, clamped to the horizon
   * (RL-R1). Without a limit, a live bucket is debited under its definition and an unknown one keeps
   * the debt until its first definition.
   */
  record(key: BucketKey, cost: number, limit: Limit | undefined, now: number): void {
    const id = bucketId(key);
    if (limit === null || !Number.isFinite(cost) || cost < 0) return; // RL-L2: unlimited records nothing
    if (limit === undefined) {
      const live = this.#buckets.get(id);
      if (live === undefined) this.#debts.set(id, Math.min(addUp(this.#debts.get(id) ?? 0, cost), MAX_AMOUNT));
      else this.#buckets.set(id, charged(live, cost, now));
      return;
    }
    const normalized = normalizeLimit(limit);
    if (normalized === null || normalized === 'invalid') return;
    this.#store(id, charged(this.#defined(id, modelKey(key), normalized, now), cost, now));
  }

  /** Raises borrowed to at least `minBorrowed`, clamped to the horizon; never lowers it (RL-R2). */
  sync(key: BucketKey, limit: NormalizedLimit, minBorrowed: number, now: number): void {
    const id = bucketId(key);
    const bucket = this.#defined(id, modelKey(key), limit, now);
    if (limit.refillPerSec === 0) {
      this.#store(id, { ...bucket, used: Math.max(bucket.used, Math.min(minBorrowed, MAX_AMOUNT)) });
    } else {
      const target = Math.min(now + minBorrowed * msPerToken(limit), now + HORIZON_MS);
      this.#store(id, { ...bucket, tat: Math.max(bucket.tat, target) });
    }
  }

  /**
   * Admits nothing before `untilMs` (clamped to the horizon) and treats the bucket as empty then;
   * never shortens a hold; kept for a bucket not yet defined (RL-R3).
   */
  penalize(key: BucketKey, untilMs: number, now: number): void {
    const id = bucketId(key);
    const until = Math.min(untilMs, now + HORIZON_MS);
    const live = this.#buckets.get(id);
    if (live === undefined) {
      this.#holds.set(id, Math.max(this.#holds.get(id) ?? NO_HOLD, until));
      return;
    }
    const hold = Math.max(live.hold, until);
    if (live.limit.refillPerSec === 0) {
      this.#buckets.set(id, { ...live, used: Math.max(live.used, live.limit.capacity), hold });
      return;
    }
    const tau = live.limit.capacity * msPerToken(live.limit);
    const tat = Math.max(live.tat, Math.min(until + tau, now + HORIZON_MS));
    this.#buckets.set(id, { ...live, tat, hold });
  }

  /** capacity − tokens now; 0 for an unknown key, or the debt it keeps (RL-I1). */
  borrowed(key: BucketKey, now: number): number {
    const id = bucketId(key);
    const live = this.#buckets.get(id);
    if (live !== undefined) return borrowedOf(live, now);
    return this.#debts.get(id) ?? 0;
  }

  /** Forgets one bucket (RL-I2). */
  reset(key: BucketKey): void {
    const id = bucketId(key);
    this.#buckets.delete(id);
    this.#holds.delete(id);
    this.#debts.delete(id);
  }

  /** Forgets every bucket of one venue and no other (RL-I2). */
  resetVenue(venue: string): void {
    for (const map of [this.#buckets, this.#holds, this.#debts] as Map<string, unknown>[]) {
      for (const id of [...map.keys()]) {
        const [v] = JSON.parse(id) as [string];
        if (v === venue) map.delete(id);
      }
    }
  }

  /** Forgets everything (RL-I2). */
  resetAll(): void {
    this.#buckets.clear();
    this.#holds.clear();
    this.#debts.clear();
  }

  /** Live buckets: those not indistinguishable from absent ones (RL-I3). */
  snapshot(now: number): readonly ModelSnapshotEntry[] {
    const out: ModelSnapshotEntry[] = [];
    for (const bucket of this.#buckets.values()) {
      const borrowed = borrowedOf(bucket, now);
      if (borrowed <= 0 && bucket.limit.refillPerSec > 0) continue;
      const entry = { key: bucket.key, limit: bucket.limit, tokens: bucket.limit.capacity - borrowed, borrowed };
      out.push(bucket.hold > now ? { ...entry, heldUntilMs: bucket.hold } : entry);
    }
    return out;
  }

  /** The stored state of a bucket (for tests of the model itself). */
  bucket(key: BucketKey): ModelBucket | undefined {
    return this.#buckets.get(bucketId(key));
  }
}

/**
 * Charges `cost` as of `sendAt`: `tat' = max(tat, s) + min(c·T, tau)`, rounded up so the charge never
 * falls short of its cost; a cost above capacity leaves the bucket at zero then (RL-A5, RL-M5).
 */
function booked(bucket: ModelBucket, cost: number, sendAt: number): ModelBucket {
  if (bucket.limit.refillPerSec === 0) return { ...bucket, used: addUp(bucket.used, cost) };
  const t = msPerToken(bucket.limit);
  const tau = bucket.limit.capacity * t;
  return { ...bucket, tat: addUp(Math.max(bucket.tat, sendAt), Math.min(cost * t, tau)) };
}

/** Debits recorded cost at `now`, debt allowed, clamped to the horizon (RL-R1). */
function charged(bucket: ModelBucket, cost: number, now: number): ModelBucket {
  if (bucket.limit.refillPerSec === 0) return { ...bucket, used: Math.max(bucket.used, Math.min(addUp(bucket.used, cost), MAX_AMOUNT)) };
  const tat = Math.min(addUp(Math.max(bucket.tat, now), cost * msPerToken(bucket.limit)), now + HORIZON_MS);
  return { ...bucket, tat: Math.max(bucket.tat, tat) };
}
