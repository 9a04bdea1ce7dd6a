import type { BucketSnapshot, Capabilities, Clock, ErrorResult, SideEffectResult } from '@core/rate-limit-contract';
import {
  WINDOW_SLOTS,
  NO_HOLD,
  addDebt,
  borrowedAt,
  classRaise,
  holdAfter,
  penalizeUntil,
  recordCost,
  syncBorrowed,
  venuePrefix,
  windowBorrowed,
  windowPenalize,
  windowRecord,
  windowSync,
  type Admission,
  type AdmitMode,
  type Definition,
  type Hold,
  type LimiterStore,
  type ResolvedKey,
  type SyncReport,
} from '@core/rate-limit-kit';
import { Admitter, type QuickAnswer } from './admitter.js';
import { type Booked, cancelBooking } from './bookings.js';
import { BucketState } from './bucket-state.js';
import { type InspectedBucket, inspectBucket, snapshotBuckets, storedIds } from './store-inspection.js';

/** Tuning of a {@link MemoryStore}. */
export interface MemoryStoreOptions {
  readonly clock: Clock;
  readonly sweepEvery: number;
  readonly sweepBatch: number;
  readonly maxPending: number;
  readonly idleGraceMs: number;
}

const OK: SideEffectResult = Object.freeze({ kind: 'ok' });

const CAPABILITIES: Capabilities = Object.freeze({
  distributed: false,
  injectableClock: true,
  bookings: true,
  abortSignal: true,
  fractionalCosts: true,
  snapshot: true,
  sync: true,
  penalize: true,
  crossVenueChecks: true,
  windowLimits: true,
  windowSlots: WINDOW_SLOTS,
  priorities: true,
});

/**
 * The in-process store: every bucket's `tat` (or a quota's used amount) and definition number in typed
 * arrays behind one `Map` (see {@link BucketTable}), holds, pending penalties, window entries and class
 * states in side maps (all of them in a {@link BucketState}), and the kit's arithmetic on the hot path.
 * Idle buckets are evicted by an amortized sweep, a few slots per operation; there are no per-key timers.
 * Synchronous: every answer is a plain value.
 */
export class MemoryStore implements LimiterStore {
  readonly capabilities: Capabilities = CAPABILITIES;
  readonly synchronous = true;
  readonly timers: Clock;
  readonly #clock: Clock;
  readonly #b: BucketState;
  readonly #admitter: Admitter;
  recordsDropped = 0;

  constructor(options: MemoryStoreOptions) {
    this.#clock = options.clock;
    this.timers = options.clock;
    this.#b = new BucketState(options);
    this.#admitter = new Admitter(this.#b);
  }

  now(): number {
    return this.#clock.now();
  }

  /** Buckets stored now. */
  get size(): number {
    return this.#b.table.size;
  }

  /** Penalties and debts waiting for a first definition. */
  get pendingCount(): number {
    return this.#b.pending.size;
  }

  /** Pending penalties or debts dropped because more than `maxPending` were waiting. */
  get pendingDropped(): number {
    return this.#b.pendingDropped;
  }

  // ---------------------------------------------------------------- admission

  admit(
    n: number,
    keys: readonly ResolvedKey[],
    defs: readonly Definition[],
    costs: readonly number[],
    mode: AdmitMode,
    budgetMs: number | undefined,
    cls = 1,
    free: number | readonly number[] = 0,
  ): Admission {
    const now = this.#clock.now();
    if (mode !== 'peek') this.#b.sweep.tick(now);
    return this.#admitter.admit(now, n, keys, defs, costs, mode, budgetMs, cls, free);
  }

  /**
   * The commonest admission answered quickly (see {@link Admitter.quick}): a probe of class normal that
   * keeps no share free. The front door calls it instead of `admit(n, keys, defs, costs, 'probe',
   * undefined, 1, 0)`, which answers the same. 0 when admitted now (`out.now` is the decision's time),
   * the wait when it must wait, NaN when `out.slow` holds the admission.
   */
  admitQuick(n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], out: QuickAnswer): number {
    const now = this.#clock.now();
    this.#b.sweep.tick(now);
    out.now = now;
    return this.#admitter.quick(now, n, keys, defs, costs, out);
  }

  /** {@link MemoryStore.admitQuick} of one bucket, given as its key, definition and cost. */
  admitQuickOne(key: ResolvedKey, def: Definition, cost: number, out: QuickAnswer): number {
    const now = this.#clock.now();
    this.#b.sweep.tick(now);
    out.now = now;
    const b = this.#b;
    if (b.classes.size > 0 || def.window !== undefined) return this.#admitter.quickOne(now, key, def, cost, out);
    const w = b.quickTokens(key, def, cost, now);
    return w >= 0 ? w : this.#admitter.slowOne(now, key, def, cost, out);
  }

  /** RL-W5: each bucket is returned only when nothing was written to it after the booking. */
  cancel(booking: unknown): boolean {
    return cancelBooking(this.#b, booking as readonly Booked[]);
  }

  // ---------------------------------------------------------------- feedback

  record(key: ResolvedKey, cost: number, def: Definition | undefined): void {
    const now = this.#clock.now();
    const b = this.#b;
    b.sweep.tick(now);
    const slot = b.live(key.id, now);
    if (def === undefined) {
      if (slot < 0) {
        const p = b.pendingFor(key.id);
        if (p !== undefined) p.debt = addDebt(p.debt, cost);
        return;
      }
      def = b.defs[b.table.def(slot)] as Definition;
    }
    b.defs[def.index] = def;
    if (def.window !== undefined) {
      const before = b.effectiveWindow(slot, key.id, def, now);
      key.memo = b.writeWindow(slot, key.id, windowRecord(before, def.window, cost, now), def, now);
      return;
    }
    const x = b.effective(slot, key.id, def, now);
    const y = recordCost(x, def, cost, 0);
    key.memo = b.writeRaised(slot, key.id, x, y, def, now, false);
  }

  dropRecord(): void {
    this.recordsDropped++;
  }

  sync(key: ResolvedKey, def: Definition, minBorrowed: number, report: SyncReport): SideEffectResult {
    const now = this.#clock.now();
    const b = this.#b;
    b.sweep.tick(now);
    b.defs[def.index] = def;
    const slot = b.table.find(key.id);
    // a new definition converts, keeping any hold (RL-L5, RL-R3)
    if (def.window !== undefined) {
      const before = b.effectiveWindow(slot, key.id, def, now);
      const end = report.windowEnd === undefined ? undefined : ([report.windowEnd.earliestMs, report.windowEnd.latestMs] as const);
      const synced = windowSync(before, def.window, minBorrowed, now, report.sentAtMs, report.countedOwnCost ?? 0, end, report.outsideOwnCost ?? 0);
      key.memo = b.writeWindow(slot, key.id, synced, def, now);
      return OK;
    }
    const x = b.effective(slot, key.id, def, now);
    key.memo = b.writeRaised(slot, key.id, x, syncBorrowed(x, def, minBorrowed, 0), def, now, false);
    return OK;
  }

  penalize(key: ResolvedKey, hold: Hold): SideEffectResult {
    const now = this.#clock.now();
    const b = this.#b;
    const until = 'untilMs' in hold ? hold.untilMs : now + hold.forMs;
    b.sweep.tick(now);
    const slot = b.live(key.id, now);
    if (slot < 0) {
      const p = b.pendingFor(key.id);
      if (p !== undefined) p.hold = holdAfter(p.hold, until, now);
      return OK;
    }
    const def = b.defs[b.table.def(slot)] as Definition;
    if (def.window !== undefined) {
      const before = b.windows.get(key.id) ?? [];
      b.writeWindow(slot, key.id, windowPenalize(before, def.window, until, now), def, now);
    } else {
      const x = b.rel(slot, def, now);
      const y = penalizeUntil(x, def, until - now, 0);
      const cs = b.classes.size > 0 ? classRaise(b.classesOf(slot, key.id, def, x, now), def, x, y, true) : undefined;
      b.setTokens(slot, key.id, y, cs, def.quota ? 0 : now);
    }
    b.setHold(key.id, holdAfter(b.holds.get(key.id) ?? NO_HOLD, until, now), now);
    return OK;
  }

  // ---------------------------------------------------------------- inspection

  borrowed(key: ResolvedKey): number | ErrorResult {
    const b = this.#b;
    const slot = b.table.find(key.id);
    if (slot >= 0) {
      const def = b.defs[b.table.def(slot)] as Definition;
      const now = this.#clock.now();
      if (def.window !== undefined) return windowBorrowed(b.windows.get(key.id) ?? [], def.window, now);
      return borrowedAt(b.rel(slot, def, now), def, 0);
    }
    return b.pending.get(key.id)?.debt ?? 0;
  }

  reset(key: ResolvedKey): SideEffectResult {
    this.#b.forget(key.id);
    this.#b.pending.delete(key.id);
    return OK;
  }

  resetVenue(venue: string): SideEffectResult {
    this.#b.forgetPrefix(venuePrefix(venue));
    return OK;
  }

  resetAll(): SideEffectResult {
    this.#b.clear();
    return OK;
  }

  snapshot(): readonly BucketSnapshot[] {
    return snapshotBuckets(this.#b, this.#clock.now());
  }

  /** The names under which buckets and pending penalties are stored (ids: venue, credential hash, axis). */
  storageKeys(): string[] {
    return storedIds(this.#b);
  }

  /**
   * One bucket's stored state, by id (for the differential test that pins the Redis scripts to this
   * arithmetic): a defined bucket's definition, `x` and hold in force, a pending hold or debt, or
   * `undefined` when nothing is stored.
   */
  inspect(id: string): InspectedBucket | undefined {
    return inspectBucket(this.#b, id);
  }

  /** Evicts every idle bucket now and gives unused table memory back; answers how many were evicted. */
  sweepAll(): number {
    return this.#b.sweep.all(this.#clock.now());
  }

  /** Idle buckets evicted so far. */
  get evicted(): number {
    return this.#b.sweep.evicted;
  }

  close(): void {
    this.#b.clear();
  }
}
