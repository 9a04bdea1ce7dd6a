import type { BucketKey, Limit, NormalizedLimit, SyncOptions } from '@core/rate-limit-contract';
import {
  HORIZON_MS,
  MAX_AMOUNT,
  addUp,
  bucketId,
  formatNumber,
  isWindow,
  modelKey,
  msPerToken,
  normalizeModelLimit,
  roundWait,
  sameDefinition,
  toleranceOf,
  type ModelCheck,
  type ModelKey,
  type ModelLimit,
} from './model-arithmetic.js';
import { MODEL_NORMAL, bookingAhead, classLine, noBookingAhead, roomAtOnce, type ModelClasses } from './model-classes.js';
import { EXACT_WINDOWS, longRunRate, windowTolerance, type WindowBook } from './window-log.js';
import {
  booked,
  borrowedOf,
  charged,
  classesAt,
  raised,
  tatAt,
  unrepresentable,
  type BookingWrite,
  type ModelBooking,
  type ModelBucket,
  type ModelCancellation,
  type ModelOutcome,
  type ModelSnapshotEntry,
} from './model-bucket.js';

export type { ModelBooking, ModelBucket, ModelCancellation, ModelOutcome, ModelSnapshotEntry } from './model-bucket.js';

/**
 * The bucket arithmetic of MODEL.md (shipped in `@core/rate-limit-contract`), written as plainly as
 * possible. It is the oracle of the suite's differential test and the core of the self-test's fakes,
 * and it stays the suite's own statement of the rules: it shares no code with any implementation.
 * It assumes valid input (keys, limits and costs already checked).
 *
 * Per bucket: `T = 1000 / refillPerSec` ms per token, `tau = capacity · T`, state `(tat, hold)`, `tat`
 * and a class state's times kept relative to `at`, when they were written (MODEL.md, "State"). A
 * fixed quota (refill 0) keeps the amount `used` instead of `tat`. A window limit (RL-V1) keeps the state
 * of its {@link WindowBook} instead (by default the exact log of `./window-log.ts`), and a hold.
 */

const NO_HOLD = Number.NEGATIVE_INFINITY;
const NO_WIN = undefined;

/** The buckets of one limiter, as plain data and plain arithmetic. */
export class ReferenceModel {
  readonly #buckets = new Map<string, ModelBucket>();
  /** Penalty holds on buckets not yet defined (folded in at the first definition, RL-R3). */
  readonly #holds = new Map<string, number>();
  /** Recorded cost on buckets not yet defined (charged at the first definition, RL-R1). */
  readonly #debts = new Map<string, number>();
  /** The window arithmetic: the exact log unless a test gives its own. */
  protected readonly windows: WindowBook;

  constructor(windows: WindowBook = EXACT_WINDOWS as WindowBook) {
    this.windows = windows;
  }

  /** The tolerance of a bucket's comparisons (RL-A7); a subclass may only ever use it, not change the rules. */
  protected tolerance(limit: NormalizedLimit): number {
    return toleranceOf(limit);
  }

  /**
   * Whether a class-`cls` call may go at once beside bookings ahead: none of its class or a higher one
   * (RL-Q2); a subclass may only ever use it, not change the rules.
   */
  protected classGate(cs: ModelClasses, cls: number, now: number): boolean {
    return noBookingAhead(cs, cls, now);
  }

  /**
   * A live bucket under a new definition (RL-L5): the borrowed amount converted, and, while a hold is
   * in force, the bucket kept empty until the hold ends (RL-R3). A window limit takes another window
   * limit's state as its book says, and starts from a token bucket with its borrowed amount sent now.
   */
  protected redefine(live: ModelBucket, limit: ModelLimit, now: number): ModelBucket {
    const held = live.hold > now;
    if (isWindow(limit)) {
      if (isWindow(live.limit)) return { ...live, limit, win: this.windows.redefine(live.win, live.limit, limit, live.hold, now) };
      const b = borrowedOf(this.windows, live, now);
      let win = this.windows.empty(limit);
      if (b > 0) win = this.windows.record(win, limit, b, now);
      if (held) win = this.windows.penalize(win, limit, live.hold, now);
      return { key: live.key, limit, tat: 0, at: now, used: 0, hold: live.hold, win };
    }
    const b = borrowedOf(this.windows, live, now);
    if (limit.refillPerSec === 0) {
      const used = Math.min(b, MAX_AMOUNT);
      return { key: live.key, limit, tat: 0, at: now, used: held ? Math.max(used, limit.capacity) : used, hold: live.hold, win: NO_WIN };
    }
    const t = msPerToken(limit);
    const tat = Math.min(b * t, HORIZON_MS);
    return {
      key: live.key,
      limit,
      tat: held ? Math.max(tat, addUp(live.hold - now, limit.capacity * t)) : tat,
      at: now,
      used: 0,
      hold: live.hold,
      win: NO_WIN,
    };
  }

  /** The bucket as it would be under `limit` at `now`: created, converted (RL-L5) or as it is. */
  #defined(id: string, key: ModelKey, limit: ModelLimit, now: number): ModelBucket {
    const live = this.#buckets.get(id);
    if (live !== undefined) return sameDefinition(live.limit, limit) ? live : this.redefine(live, limit, now);
    // The first definition: empty (a window: full) as of a kept hold's end, then the kept debt (RL-R3, RL-R1).
    const hold = this.#holds.get(id);
    const debt = this.#debts.get(id) ?? 0;
    if (isWindow(limit)) {
      let win = this.windows.empty(limit);
      if (hold !== undefined) win = this.windows.penalize(win, limit, hold, now);
      if (debt > 0) win = this.windows.record(win, limit, debt, now);
      return { key, limit, tat: 0, at: now, used: 0, hold: hold ?? NO_HOLD, win };
    }
    if (limit.refillPerSec === 0) {
      const used = hold === undefined ? debt : limit.capacity + debt;
      return { key, limit, tat: 0, at: now, used: Math.min(used, MAX_AMOUNT), hold: hold ?? NO_HOLD, win: NO_WIN };
    }
    const t = msPerToken(limit);
    const start = hold === undefined ? 0 : Math.max(0, addUp(hold - now, limit.capacity * t));
    const tat = debt === 0 ? start : Math.min(addUp(start, debt * t), HORIZON_MS);
    return { key, limit, tat: Math.max(start, tat), at: now, used: 0, hold: hold ?? NO_HOLD, win: NO_WIN };
  }

  #store(id: string, bucket: ModelBucket): void {
    this.#buckets.set(id, bucket);
    this.#holds.delete(id);
    this.#debts.delete(id);
  }

  /**
   * Checks merged buckets at `now`. Without a budget (`maxWaitMs` undefined) only an admission now
   * writes (RL-A3); with one, a wait within it books as of the common send time (RL-W1, RL-M5, RL-V4).
   * `dryRun` never writes (peek). `cls` is the call's class (0 critical, 1 normal, 2 bulk) and `callFree` the
   * share of each bucket it leaves free (RL-Q1..RL-Q5; a check's own `free` in its place, RL-Q6): it
   * spends a bucket only up to its line (on a window limit every send counted, RL-Q4).
   */
  check(checks: readonly ModelCheck[], now: number, maxWaitMs?: number, dryRun = false, cls = MODEL_NORMAL, callFree = 0): ModelOutcome {
    const planned: { check: ModelCheck; bucket: ModelBucket }[] = [];
    // Token buckets first, relative to now: each can pay at any time from its own send time on.
    let latest = 0;
    for (const check of checks) {
      if (check.cost === 0) continue; // RL-A2: cost 0 is admitted and changes nothing
      const bucket = this.#defined(check.id, check.key, check.limit, now);
      planned.push({ check, bucket });
      const limit = check.limit;
      if (isWindow(limit)) continue;
      const free = check.free ?? callFree;
      const where = `checks[${check.index}] (${check.key.venue}/${check.key.axis})`;
      const eps = this.tolerance(limit);
      if (limit.refillPerSec === 0) {
        const quotaLine = classLine(limit.capacity, free, check.cost);
        if (bucket.used + check.cost > quotaLine + eps) {
          const left = formatNumber(Math.max(0, quotaLine - bucket.used), eps);
          return {
            kind: 'unpayable',
            path: `checks[${check.index}]`,
            message: `${where}: cost ${formatNumber(check.cost)} can never be paid: the fixed quota of ${formatNumber(limit.capacity)} has ${left} left and never refills`,
          };
        }
        continue;
      }
      const t = msPerToken(limit);
      const line = classLine(limit.capacity * t, free, check.cost * t);
      const cs = classesAt(bucket, now);
      let s = Math.max(0, Math.max(tatAt(bucket, now), 0) + check.cost * t - line);
      if (s <= eps) s = 0;
      if (cs !== undefined && roomAtOnce(cs, check.cost * t, line, eps)) {
        // RL-Q1: room at every instant ahead: at once, or right after the latest booking of its class or a higher one (RL-Q2)
        if (this.classGate(cs, cls, 0)) continue;
        s = Math.min(s, bookingAhead(cs, cls));
      }
      if (!(s <= HORIZON_MS)) return unrepresentable(check);
      latest = Math.max(latest, s);
    }
    // The common time on the clock, rounded up: never before any token bucket's own time.
    let sendAt = latest > 0 ? addUp(now, latest) : now;
    // Then window limits: each moves the common time to its earliest fitting time from there (bookings
    // ahead may close some times), until none moves it (RL-V4).
    for (let moved = true; moved; ) {
      moved = false;
      for (const { check, bucket } of planned) {
        const limit = check.limit;
        if (!isWindow(limit)) continue;
        const free = check.free ?? callFree;
        const windowLine = classLine(limit.perWindow, free, check.cost);
        if (check.cost > windowLine + windowTolerance(limit)) {
          return {
            kind: 'unpayable',
            path: `checks[${check.index}]`,
            message: `checks[${check.index}] (${check.key.venue}/${check.key.axis}): cost ${formatNumber(check.cost)} can never be paid: a window of ${formatNumber(limit.windowMs)} ms holds at most ${formatNumber(limit.perWindow)}`,
          };
        }
        const s = this.windows.earliest(bucket.win, limit, check.cost, sendAt, windowLine, now);
        if (!(s - now <= HORIZON_MS)) return unrepresentable(check);
        if (s > sendAt) {
          sendAt = s;
          moved = true;
        }
      }
    }
    const waitMs = sendAt - now;
    if (waitMs > 0 && (maxWaitMs === undefined || waitMs > maxWaitMs)) {
      return { kind: 'wait', waitMs, retryAfterMs: roundWait(waitMs) };
    }
    const writes: BookingWrite[] = [];
    for (const { check, bucket } of planned) {
      const after = booked(this.windows, bucket, check.cost, sendAt, now, cls);
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
   * (RL-R1); on a window limit it is a send now, even beyond the limit (RL-V2). Without a limit, a
   * live bucket is debited under its definition and an unknown one keeps the debt until its first
   * definition.
   */
  record(key: BucketKey, cost: number, limit: Limit | undefined, now: number): void {
    const id = bucketId(key);
    if (limit === null || !Number.isFinite(cost) || cost < 0) return; // RL-L2: unlimited records nothing
    if (limit === undefined) {
      const live = this.#buckets.get(id);
      if (live === undefined) this.#debts.set(id, Math.min(addUp(this.#debts.get(id) ?? 0, cost), MAX_AMOUNT));
      else this.#buckets.set(id, charged(this.windows, live, cost, now));
      return;
    }
    const normalized = normalizeModelLimit(limit);
    if (normalized === null || normalized === 'invalid') return;
    this.#store(id, charged(this.windows, this.#defined(id, modelKey(key), normalized, now), cost, now));
  }

  /**
   * A token bucket: raises borrowed to at least `minBorrowed`, clamped to the horizon; never lowers it
   * (RL-R2); `report` is ignored. A window limit (RL-V5): `report` tells what the caller knows of the
   * report (the reporting request's send time, the window's latest start, the cost of its own sends it
   * knows were counted), so the report holds the bucket back only by what others spent; with a send
   * time it replaces an earlier report it covers (the one way a sync lowers), without one it never
   * lowers.
   */
  sync(key: BucketKey, limit: ModelLimit, minBorrowed: number, now: number, report: SyncOptions = {}): void {
    const id = bucketId(key);
    const bucket = this.#defined(id, modelKey(key), limit, now);
    if (isWindow(limit)) {
      this.#store(id, { ...bucket, win: this.windows.sync(bucket.win, limit, minBorrowed, now, report) });
    } else if (limit.refillPerSec === 0) {
      this.#store(id, { ...bucket, used: Math.max(bucket.used, Math.min(minBorrowed, MAX_AMOUNT)) });
    } else {
      const target = Math.min(minBorrowed * msPerToken(limit), HORIZON_MS);
      this.#store(id, raised(bucket, Math.max(tatAt(bucket, now), target), now, false));
    }
  }

  /**
   * Admits nothing before `untilMs` (clamped to the horizon) and treats the bucket as empty then (a
   * window limit: its whole window used then, RL-V2); never shortens a hold; kept for a bucket not yet
   * defined (RL-R3).
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
    const limit = live.limit;
    if (isWindow(limit)) {
      this.#buckets.set(id, { ...live, win: this.windows.penalize(live.win, limit, until, now), hold });
      return;
    }
    if (limit.refillPerSec === 0) {
      this.#buckets.set(id, { ...live, used: Math.max(live.used, limit.capacity), hold });
      return;
    }
    const tau = limit.capacity * msPerToken(limit);
    const tat = Math.max(tatAt(live, now), Math.min(addUp(until - now, tau), HORIZON_MS));
    this.#buckets.set(id, { ...raised(live, tat, now, true), hold });
  }

  /** capacity − tokens now (a window limit: the most any window from now on holds); 0 for an unknown key, or the debt it keeps (RL-I1). */
  borrowed(key: BucketKey, now: number): number {
    const id = bucketId(key);
    const live = this.#buckets.get(id);
    if (live !== undefined) return borrowedOf(this.windows, live, now);
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
      const borrowed = borrowedOf(this.windows, bucket, now);
      const held = bucket.hold > now;
      const limit = bucket.limit;
      if (isWindow(limit)) {
        if ((borrowed <= 0 || this.windows.idle(bucket.win, limit, now)) && !held) continue;
        const rate = longRunRate(limit);
        const entry = { key: bucket.key, limit: rate, tokens: rate.capacity - borrowed, borrowed, windowMs: limit.windowMs };
        out.push(held ? { ...entry, heldUntilMs: bucket.hold } : entry);
        continue;
      }
      if (borrowed <= 0 && limit.refillPerSec > 0) continue;
      const entry = { key: bucket.key, limit, tokens: limit.capacity - borrowed, borrowed };
      out.push(held ? { ...entry, heldUntilMs: bucket.hold } : entry);
    }
    return out;
  }

  /** The stored state of a bucket (for tests of the model itself). */
  bucket(key: BucketKey): ModelBucket | undefined {
    return this.#buckets.get(bucketId(key));
  }
}
