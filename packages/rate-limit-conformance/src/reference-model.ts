import type { BucketKey, Limit, NormalizedLimit } from '@core/rate-limit-contract';

/**
 * The bucket arithmetic of docs/model.md, written as plainly as possible. It is the oracle of the
 * suite's differential test and the core of the self-test's correct fake. It assumes valid input
 * (keys, limits and costs already checked); {@link normalizeLimit} answers `'invalid'` for a bad limit.
 *
 * Per bucket: `T = 1000 / refillPerSec` ms per token, `tau = capacity · T`, state `tat`. A fixed
 * quota (refill 0) keeps the amount `used` instead.
 */

/** A bucket key with its axis filled in (RL-K2). */
export interface ModelKey {
  readonly venue: string;
  readonly credential: string | null;
  readonly axis: string;
}

/** One bucket's state. */
export interface ModelBucket {
  readonly key: ModelKey;
  readonly limit: NormalizedLimit;
  /** Theoretical arrival time (refill > 0). */
  readonly tat: number;
  /** Amount used (refill 0). */
  readonly used: number;
}

/** One merged check: a bucket, its definition and the combined cost (RL-M2). */
export interface ModelCheck {
  readonly id: string;
  readonly key: ModelKey;
  readonly limit: NormalizedLimit;
  readonly cost: number;
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

/** The model's answer to a check. */
export type ModelOutcome =
  | { readonly kind: 'ok'; readonly sendAtMs: number; readonly waitMs: number; readonly booking: ModelBooking }
  | { readonly kind: 'wait'; readonly waitMs: number; readonly retryAfterMs: number }
  | { readonly kind: 'unpayable'; readonly message: string }
  | { readonly kind: 'invalid'; readonly message: string };

/** A live bucket as the model reports it. */
export interface ModelSnapshotEntry {
  readonly key: ModelKey;
  readonly limit: NormalizedLimit;
  readonly tokens: number;
  readonly borrowed: number;
}

/** Relative float tolerance of comparisons (docs/model.md "Floating point"). */
export const MODEL_EPS = 1e-9;

/** Fills in the default axis (RL-K2). */
export function modelKey(key: BucketKey): ModelKey {
  return { venue: key.venue, credential: key.credential, axis: key.axis ?? 'request' };
}

/** A string that names one bucket; the public pool is separate from every credential (RL-K1). */
export function bucketId(key: BucketKey): string {
  const k = modelKey(key);
  const who = k.credential === null ? 'public' : `key:${k.credential}`;
  return JSON.stringify([k.venue, who, k.axis]);
}

/**
 * The canonical form of a limit (RL-L1): `null` for unlimited (RL-L2), `'invalid'` for anything
 * RL-L3 refuses.
 */
export function normalizeLimit(limit: Limit): NormalizedLimit | null | 'invalid' {
  if (limit === null || limit === undefined) return null;
  if (typeof limit !== 'object') return 'invalid';
  const fields = Object.keys(limit).sort().join(',');
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  const l = limit as unknown as Record<string, unknown>;
  if (fields === 'capacity,refillPerSec') {
    const { capacity, refillPerSec } = l;
    if (!finite(capacity) || capacity <= 0 || !finite(refillPerSec) || refillPerSec < 0) return 'invalid';
    return { capacity, refillPerSec };
  }
  if (fields === 'periodMs,requests') {
    const { requests, periodMs } = l;
    if (!finite(requests) || requests <= 0 || !finite(periodMs) || periodMs <= 0) return 'invalid';
    return { capacity: requests, refillPerSec: requests / (periodMs / 1000) };
  }
  if (fields === 'requests') {
    const { requests } = l;
    if (!finite(requests) || requests <= 0) return 'invalid';
    return { capacity: requests, refillPerSec: requests };
  }
  return 'invalid';
}

/** Milliseconds per token. */
export function msPerToken(limit: NormalizedLimit): number {
  return 1000 / limit.refillPerSec;
}

/** Whole milliseconds a caller waits for an exact wait: rounded up after float noise, at least 1. */
export function roundWait(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs - 1e-9));
}

function sameLimit(a: NormalizedLimit, b: NormalizedLimit): boolean {
  return a.capacity === b.capacity && a.refillPerSec === b.refillPerSec;
}

function epsOf(limit: NormalizedLimit): number {
  if (limit.refillPerSec === 0) return MODEL_EPS * Math.max(1, limit.capacity);
  return MODEL_EPS * Math.max(1, limit.capacity * msPerToken(limit));
}

/** borrowed(now) of a bucket under its own definition (RL-I1). */
function borrowedOf(bucket: ModelBucket, now: number): number {
  if (bucket.limit.refillPerSec === 0) return bucket.used;
  return Math.max(0, bucket.tat - now) / msPerToken(bucket.limit);
}

/**
 * Merges a call's checks (RL-M2 repeated keys combined, RL-M3 conflicting definitions refused,
 * RL-L2 unlimited checks dropped). Assumes valid keys and costs.
 */
export function mergeChecks(
  checks: readonly { readonly key: BucketKey; readonly limit: Limit; readonly cost: number }[],
): readonly ModelCheck[] | { readonly invalid: string } {
  const merged = new Map<string, { key: ModelKey; limit: NormalizedLimit | null; cost: number }>();
  for (const [i, check] of checks.entries()) {
    const limit = normalizeLimit(check.limit);
    if (limit === 'invalid') return { invalid: `checks[${i}].limit is not a valid limit` };
    const id = bucketId(check.key);
    const seen = merged.get(id);
    if (seen === undefined) {
      merged.set(id, { key: modelKey(check.key), limit, cost: check.cost });
      continue;
    }
    const same = seen.limit === null || limit === null ? seen.limit === limit : sameLimit(seen.limit, limit);
    if (!same) return { invalid: `checks[${i}] defines its bucket differently from an earlier check` };
    seen.cost += check.cost;
  }
  const out: ModelCheck[] = [];
  for (const [id, m] of merged) if (m.limit !== null) out.push({ id, key: m.key, limit: m.limit, cost: m.cost });
  return out;
}

/** The buckets of one limiter, as plain data and plain arithmetic. */
export class ReferenceModel {
  readonly #buckets = new Map<string, ModelBucket>();
  /** Penalty holds on buckets not yet defined (folded in at the first definition, RL-R3). */
  readonly #holds = new Map<string, number>();
  /** Recorded cost on buckets not yet defined (charged at the first definition, RL-R1). */
  readonly #debts = new Map<string, number>();

  /** The bucket as it would be under `limit` at `now`: created, converted (RL-L5) or as it is. */
  #defined(id: string, key: ModelKey, limit: NormalizedLimit, now: number): ModelBucket {
    const live = this.#buckets.get(id);
    if (live !== undefined) {
      if (sameLimit(live.limit, limit)) return live;
      const b = borrowedOf(live, now);
      if (limit.refillPerSec === 0) return { key, limit, tat: now, used: b };
      return { key, limit, tat: now + b * msPerToken(limit), used: 0 };
    }
    let bucket: ModelBucket = { key, limit, tat: now, used: 0 };
    const hold = this.#holds.get(id);
    if (hold !== undefined) bucket = penalized(bucket, hold);
    const debt = this.#debts.get(id);
    if (debt !== undefined) bucket = charged(bucket, debt, now);
    return bucket;
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
    const planned: { check: ModelCheck; bucket: ModelBucket; sendAt: number }[] = [];
    let fitsNow = true;
    let sendAt = now;
    for (const check of checks) {
      if (check.cost === 0) continue; // RL-A2: cost 0 is admitted and changes nothing
      const bucket = this.#defined(check.id, check.key, check.limit, now);
      const { capacity, refillPerSec } = check.limit;
      let s = now;
      if (refillPerSec === 0) {
        if (bucket.used + check.cost > capacity + epsOf(check.limit)) {
          const left = Math.max(0, capacity - bucket.used);
          return {
            kind: 'unpayable',
            message: `cost ${check.cost} can never be paid: fixed quota of ${capacity} has ${left} left and never refills`,
          };
        }
      } else {
        const t = msPerToken(check.limit);
        s = Math.max(now, Math.max(bucket.tat, now) + check.cost * t - capacity * t);
      }
      if (s - now > epsOf(check.limit)) fitsNow = false;
      sendAt = Math.max(sendAt, s);
      planned.push({ check, bucket, sendAt: s });
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
   * Gives a booking back where nothing wrote to the bucket after it (docs/model.md); otherwise that
   * bucket's slot is forfeited (RL-W5). Every write (admission, booking, record, sync, penalty,
   * redefinition, cancellation) stores a new bucket object, so the stored object is still the one
   * the booking wrote exactly when nothing wrote since, even a write that left `tat` unchanged (a
   * sync or penalty absorbed by the booking's `tat`, which a restore would undo). What the booking
   * replaced comes back whole: the stored bucket with its definition, or, for a bucket that was not
   * live, its absence with any penalty hold or debt kept for it.
   */
  cancel(booking: ModelBooking): void {
    for (const w of booking.writes) {
      if (this.#buckets.get(w.id) !== w.after) continue;
      if (w.before === undefined) this.#buckets.delete(w.id);
      else this.#buckets.set(w.id, { ...w.before });
      if (w.hold !== undefined) this.#holds.set(w.id, w.hold);
      if (w.debt !== undefined) this.#debts.set(w.id, w.debt);
    }
  }

  /** Reports cost sent without admission: always debits, possibly into debt (RL-R1). */
  record(key: BucketKey, cost: number, limit: Limit, now: number): void {
    const id = bucketId(key);
    const normalized = normalizeLimit(limit);
    if (normalized === 'invalid' || !Number.isFinite(cost) || cost < 0) return;
    if (limit === null) return; // RL-L2: unlimited records nothing
    if (normalized === null) {
      const live = this.#buckets.get(id);
      if (live === undefined) {
        this.#debts.set(id, (this.#debts.get(id) ?? 0) + cost);
        return;
      }
      this.#buckets.set(id, charged(live, cost, now));
      return;
    }
    this.#store(id, charged(this.#defined(id, modelKey(key), normalized, now), cost, now));
  }

  /** Raises borrowed to at least `minBorrowed`; never lowers it (RL-R2). */
  sync(key: BucketKey, limit: NormalizedLimit, minBorrowed: number, now: number): void {
    const id = bucketId(key);
    const bucket = this.#defined(id, modelKey(key), limit, now);
    if (limit.refillPerSec === 0) {
      this.#store(id, { ...bucket, used: Math.max(bucket.used, minBorrowed) });
    } else {
      this.#store(id, { ...bucket, tat: Math.max(bucket.tat, now + minBorrowed * msPerToken(limit)) });
    }
  }

  /** Admits nothing before `untilMs` and treats the bucket as empty then; never shortens (RL-R3). */
  penalize(key: BucketKey, untilMs: number): void {
    const id = bucketId(key);
    const live = this.#buckets.get(id);
    if (live === undefined) {
      this.#holds.set(id, Math.max(this.#holds.get(id) ?? -Infinity, untilMs));
      return;
    }
    this.#buckets.set(id, penalized(live, untilMs));
  }

  /** capacity − tokens now; 0 for an unknown key (RL-I1). */
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
      out.push({ key: bucket.key, limit: bucket.limit, tokens: bucket.limit.capacity - borrowed, borrowed });
    }
    return out;
  }

  /** The stored state of a bucket (for tests of the model itself). */
  bucket(key: BucketKey): ModelBucket | undefined {
    return this.#buckets.get(bucketId(key));
  }
}

/** Charges `cost` as of `sendAt`; a cost above capacity leaves the bucket at zero then (RL-A5, RL-M5). */
function booked(bucket: ModelBucket, cost: number, sendAt: number): ModelBucket {
  if (bucket.limit.refillPerSec === 0) return { ...bucket, used: bucket.used + cost };
  const t = msPerToken(bucket.limit);
  const tau = bucket.limit.capacity * t;
  return { ...bucket, tat: Math.max(bucket.tat, sendAt) + Math.min(cost * t, tau) };
}

/** Debits recorded cost at `now`, debt allowed (RL-R1). */
function charged(bucket: ModelBucket, cost: number, now: number): ModelBucket {
  if (bucket.limit.refillPerSec === 0) return { ...bucket, used: bucket.used + cost };
  return { ...bucket, tat: Math.max(bucket.tat, now) + cost * msPerToken(bucket.limit) };
}

/** Empty at `untilMs` and nothing before (RL-R3). */
function penalized(bucket: ModelBucket, untilMs: number): ModelBucket {
  if (bucket.limit.refillPerSec === 0) return { ...bucket, used: Math.max(bucket.used, bucket.limit.capacity) };
  const tau = bucket.limit.capacity * msPerToken(bucket.limit);
  return { ...bucket, tat: Math.max(bucket.tat, untilMs + tau) };
}
