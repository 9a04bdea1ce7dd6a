// Over 400 lines on purpose: every write to the bucket table and its side maps (holds, pending penalties
// and debts, window entries, class states, bookings) stays in this one class, so no operation can update
// one and miss another.
import type { BucketSnapshot, Capabilities, Clock, ErrorResult, SideEffectResult } from '@core/rate-limit-contract';
import {
  NO_HOLD,
  addDebt,
  classCharge,
  classRaise,
  lineOf,
  settleClasses,
  windowLineOf,
  admits,
  borrowedAt,
  chargeAt,
  decodeBucketId,
  foldPending,
  freshState,
  fromBorrowed,
  holdAfter,
  isIdle,
  penalizeUntil,
  planAdmission,
  recordCost,
  redefine,
  syncBorrowed,
  venuePrefix,
  windowBorrowed,
  windowCharge,
  windowExpiry,
  windowFoldPending,
  windowFromBorrowed,
  windowHeldWait,
  withoutHeld,
  windowPenalize,
  windowRecord,
  windowSync,
  type Admission,
  type AdmissionPlan,
  type AdmitMode,
  type ClassCharged,
  type ClassState,
  type Definition,
  type Hold,
  type LimiterStore,
  type ResolvedKey,
  type SyncReport,
} from '@core/rate-limit-kit';
import { BucketTable } from './bucket-table.js';
import { IdleSweep } from './idle-sweep.js';

/** A penalty or recorded debt waiting for its bucket's first definition (RL-R1, RL-R3). */
interface Pending {
  hold: number;
  debt: number;
}

/** One bucket of a booking for later, with what a return needs (RL-W5). */
interface Booked {
  readonly id: string;
  readonly def: number;
  /** The state and definition the booking replaced (a bucket it created: fresh, pending folded in). */
  readonly replaced: number;
  readonly replacedDef: number;
  /** The booking created the bucket: a return forgets it again and puts back what was pending. */
  readonly created: boolean;
  readonly pendingBefore: Pending | undefined;
  /** A window bucket's entries the booking replaced. */
  readonly replacedWindow: number[] | undefined;
  /** A token bucket's class state the booking replaced. */
  readonly replacedClasses: ClassState | undefined;
  /** Where the booking wrote; a bucket moved or forgotten since then forfeits the return. */
  readonly slot: number;
  readonly epoch: number;
  /** The slot's write counter right after the booking: any later write forfeits the return. */
  readonly version: number;
}

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
  priorities: true,
  heldPeeks: true,
});

/**
 * The in-process store: every bucket's `tat` (or a quota's used amount) and definition number in typed
 * arrays behind one `Map` (see {@link BucketTable}), holds and pending penalties in small maps, and the
 * kit's arithmetic on the hot path. Idle buckets are evicted by an amortized sweep, a few slots per
 * operation; there are no per-key timers. Synchronous: every answer is a plain value.
 */
export class MemoryStore implements LimiterStore {
  readonly capabilities: Capabilities = CAPABILITIES;
  readonly synchronous = true;
  readonly timers: Clock;
  readonly #clock: Clock;
  readonly #options: MemoryStoreOptions;
  readonly #table = new BucketTable();
  /** Definitions by their index (the front door interns them). */
  readonly #defs: Definition[] = [];
  readonly #pending = new Map<string, Pending>();
  /** Holds in force on live buckets (a redefinition must keep them, RL-R3). */
  readonly #holds = new Map<string, number>();
  /** The entries of window buckets (RL-V1; the table keeps their expiry as their state). */
  readonly #windows = new Map<string, number[]>();
  /** A window bucket's answer records (RL-V5, the kit's `windowSync`), held by its entry list: they go when it does. */
  readonly #answers = new WeakMap<readonly number[], number[]>();
  /** The class states of token buckets with bookings ahead (RL-Q1..RL-Q5, the kit's classes.ts). */
  readonly #classes = new Map<string, ClassState>();
  readonly #cs: (ClassState | undefined)[] = [];
  readonly #charged: ClassCharged = { x: 0, cs: undefined };
  readonly #plan: AdmissionPlan = { sendAt: 0, unpayable: -1 };
  readonly #xs: number[] = [];
  readonly #ws: (number[] | undefined)[] = [];
  readonly #slots: number[] = [];
  readonly #sweep: IdleSweep;
  recordsDropped = 0;
  pendingDropped = 0;

  constructor(options: MemoryStoreOptions) {
    this.#options = options;
    this.#clock = options.clock;
    this.timers = options.clock;
    this.#sweep = new IdleSweep(this.#table, this.#holds, this.#windows, this.#classes, this.#defs, options);
  }

  now(): number {
    return this.#clock.now();
  }

  /** Buckets stored now. */
  get size(): number {
    return this.#table.size;
  }

  /** Penalties and debts waiting for a first definition. */
  get pendingCount(): number {
    return this.#pending.size;
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
    heldAt?: number,
  ): Admission {
    const now = this.#clock.now();
    if (mode !== 'peek') this.#sweep.tick(now);
    const xs = this.#xs;
    const ws = this.#ws;
    const css = this.#cs;
    const slots = this.#slots;
    const anyClasses = this.#classes.size > 0;
    for (let i = 0; i < n; i++) {
      const k = keys[i] as ResolvedKey;
      const def = defs[i] as Definition;
      this.#defs[def.index] = def;
      const slot = this.#slotOf(k);
      slots[i] = slot;
      if (def.window === undefined) {
        const x = this.#effective(slot, k.id, def, now);
        xs[i] = x;
        ws[i] = undefined;
        css[i] = anyClasses ? this.#classesOf(slot, k.id, def, x, now) : undefined;
      } else {
        xs[i] = 0;
        const e = this.#effectiveWindow(slot, k.id, def, now);
        // a booking again of a send held at heldAt (RL-V8): its entry there is given up as this call books,
        // and the list keeps its answer records (RL-V5: they go only with their own sends)
        const w = heldAt === undefined || mode !== 'book' ? e : (withoutHeld(e, costs[i] as number, heldAt) as number[]);
        const answers = w === e ? undefined : this.#answers.get(e);
        if (answers !== undefined) this.#answers.set(w, answers);
        ws[i] = w;
        css[i] = undefined;
      }
    }
    const plan = this.#plan;
    planAdmission(plan, n, xs, defs, costs, now, ws, css, cls, free);
    if (plan.unpayable >= 0) {
      const i = plan.unpayable;
      const def = defs[i] as Definition;
      const w = def.window;
      const fi = typeof free === 'number' ? free : (free[i] as number);
      const reason =
        w !== undefined
          ? (costs[i] as number) > windowLineOf(w.perWindow, fi, costs[i] as number) + w.eps
            ? 'window'
            : 'horizon'
          : def.quota
            ? 'quota'
            : 'horizon';
      return { status: 'unpayable', index: i, reason, left: def.quota ? lineOf(def, fi, costs[i] as number) - Math.max(0, xs[i] as number) : 0 };
    }
    const s = plan.sendAt;
    if (mode === 'peek') return s <= now ? { status: 'admitted', sendAt: now, now } : { status: 'wait', waitMs: s - now };
    if (!admits(s, now, mode === 'book' ? budgetMs : undefined)) return { status: 'wait', waitMs: s - now };
    const booked: Booked[] | undefined = s > now ? [] : undefined;
    for (let i = 0; i < n; i++) {
      const k = keys[i] as ResolvedKey;
      const def = defs[i] as Definition;
      const before = slots[i] as number;
      const x = xs[i] as number;
      const w = ws[i];
      if (booked === undefined) {
        k.memo = this.#charge(before, k.id, x, w, css[i], def, cls, costs[i] as number, s, now);
        continue;
      }
      const pending = before < 0 && this.#pending.size > 0 ? this.#pending.get(k.id) : undefined;
      const replaced = before >= 0 ? this.#table.state(before) : x;
      const replacedDef = before >= 0 ? this.#table.def(before) : def.index;
      const replacedWindow = before >= 0 ? this.#windows.get(k.id) : undefined;
      const replacedClasses = before >= 0 ? this.#classes.get(k.id) : undefined;
      const slot = this.#charge(before, k.id, x, w, css[i], def, cls, costs[i] as number, s, now);
      k.memo = slot;
      booked.push({
        id: k.id,
        def: def.index,
        replaced,
        replacedDef,
        created: before < 0,
        pendingBefore: pending === undefined ? undefined : { hold: pending.hold, debt: pending.debt },
        replacedWindow,
        replacedClasses,
        slot,
        epoch: this.#table.epoch,
        version: this.#table.version(slot),
      });
    }
    return booked === undefined ? { status: 'admitted', sendAt: s, now } : { status: 'admitted', sendAt: s, now, booking: booked };
  }

  /** RL-V8: the window limits' room for a booked send where it is held; changes nothing. */
  heldWait(n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], heldAtMs: number): Admission {
    const now = this.#clock.now();
    let wait = 0;
    for (let i = 0; i < n; i++) {
      const def = defs[i] as Definition;
      if (def.window === undefined) continue;
      const k = keys[i] as ResolvedKey;
      const e = this.#effectiveWindow(this.#slotOf(k), k.id, def, now);
      wait = Math.max(wait, windowHeldWait(e, def.window, costs[i] as number, heldAtMs, now));
    }
    return wait > 0 ? { status: 'wait', waitMs: wait } : { status: 'admitted', sendAt: now, now };
  }

  /** RL-W5: each bucket is returned only when nothing was written to it after the booking. */
  cancel(booking: unknown): boolean {
    let returned = true;
    for (const b of booking as readonly Booked[]) {
      const table = this.#table;
      const slot = table.find(b.id);
      if (slot !== b.slot || table.epoch !== b.epoch || table.def(slot) !== b.def || table.version(slot) !== b.version) {
        returned = false;
        continue;
      }
      if (!b.created) {
        table.set(slot, b.replaced, b.replacedDef);
        if (b.replacedWindow === undefined) this.#windows.delete(b.id);
        else this.#windows.set(b.id, b.replacedWindow);
        if (b.replacedClasses === undefined) this.#classes.delete(b.id);
        else this.#classes.set(b.id, b.replacedClasses);
        continue;
      }
      // the bucket did not exist before the booking: forget it, with the penalty or debt it folded in kept pending
      table.remove(slot);
      this.#holds.delete(b.id);
      this.#windows.delete(b.id);
      this.#classes.delete(b.id);
      if (b.pendingBefore !== undefined && !this.#pending.has(b.id)) {
        const p = this.#pendingFor(b.id);
        if (p !== undefined) {
          p.hold = b.pendingBefore.hold;
          p.debt = b.pendingBefore.debt;
        }
      }
    }
    return returned;
  }

  // ---------------------------------------------------------------- feedback

  record(key: ResolvedKey, cost: number, def: Definition | undefined, late?: readonly [number, number, number]): void {
    const now = this.#clock.now();
    this.#sweep.tick(now);
    const slot = this.#live(key.id, now);
    if (def === undefined) {
      if (slot < 0) {
        const p = this.#pendingFor(key.id);
        if (p !== undefined) p.debt = addDebt(p.debt, cost);
        return;
      }
      def = this.#defs[this.#table.def(slot)] as Definition;
    }
    this.#defs[def.index] = def;
    if (def.window !== undefined) {
      const before = this.#effectiveWindow(slot, key.id, def, now);
      key.memo = this.#writeWindow(slot, key.id, windowRecord(before, def.window, cost, now, late), def, now, this.#answers.get(before));
      return;
    }
    const x = this.#effective(slot, key.id, def, now);
    const y = recordCost(x, def, cost, now);
    key.memo = this.#writeRaised(slot, key.id, x, y, def, now, false);
  }

  dropRecord(): void {
    this.recordsDropped++;
  }

  sync(key: ResolvedKey, def: Definition, minBorrowed: number, report: SyncReport): SideEffectResult {
    const now = this.#clock.now();
    this.#sweep.tick(now);
    this.#defs[def.index] = def;
    const slot = this.#table.find(key.id);
    // a new definition converts, keeping any hold (RL-L5, RL-R3)
    if (def.window !== undefined) {
      const before = this.#effectiveWindow(slot, key.id, def, now);
      const end = report.windowEnd === undefined ? undefined : ([report.windowEnd.earliestMs, report.windowEnd.latestMs] as const);
      const r = windowSync(
        before,
        this.#answers.get(before) ?? [],
        def.window,
        minBorrowed,
        now,
        report.sentAtMs,
        report.countedSinceMs,
        report.countedOwnCost,
        report.answeredCost,
        end,
      );
      key.memo = this.#writeWindow(slot, key.id, r.entries, def, now, r.answers);
      return OK;
    }
    const x = this.#effective(slot, key.id, def, now);
    key.memo = this.#writeRaised(slot, key.id, x, syncBorrowed(x, def, minBorrowed, now), def, now, false);
    return OK;
  }

  penalize(key: ResolvedKey, hold: Hold): SideEffectResult {
    const now = this.#clock.now();
    const until = 'untilMs' in hold ? hold.untilMs : now + hold.forMs;
    this.#sweep.tick(now);
    const slot = this.#live(key.id, now);
    if (slot < 0) {
      const p = this.#pendingFor(key.id);
      if (p !== undefined) p.hold = holdAfter(p.hold, until, now);
      return OK;
    }
    const def = this.#defs[this.#table.def(slot)] as Definition;
    if (def.window !== undefined) {
      const before = this.#windows.get(key.id) ?? [];
      this.#writeWindow(slot, key.id, windowPenalize(before, def.window, until, now), def, now, this.#answers.get(before));
    } else {
      const x = this.#table.state(slot);
      const y = penalizeUntil(x, def, until, now);
      const cs = this.#classes.size > 0 ? classRaise(settleClasses(this.#classes.get(key.id), x, now), def, x, y, true) : undefined;
      this.#table.setState(slot, y);
      if (cs === undefined) this.#classes.delete(key.id);
      else this.#classes.set(key.id, cs);
    }
    const h = holdAfter(this.#holds.get(key.id) ?? NO_HOLD, until, now);
    if (h > now) this.#holds.set(key.id, h);
    return OK;
  }

  // ---------------------------------------------------------------- inspection

  borrowed(key: ResolvedKey): number | ErrorResult {
    const slot = this.#table.find(key.id);
    if (slot >= 0) {
      const def = this.#defs[this.#table.def(slot)] as Definition;
      const now = this.#clock.now();
      if (def.window !== undefined) return windowBorrowed(this.#windows.get(key.id) ?? [], def.window, now);
      return borrowedAt(this.#table.state(slot), def, now);
    }
    return this.#pending.get(key.id)?.debt ?? 0;
  }

  reset(key: ResolvedKey): SideEffectResult {
    const slot = this.#table.find(key.id);
    if (slot >= 0) this.#table.remove(slot);
    this.#pending.delete(key.id);
    this.#holds.delete(key.id);
    this.#windows.delete(key.id);
    this.#classes.delete(key.id);
    return OK;
  }

  resetVenue(venue: string): SideEffectResult {
    const prefix = venuePrefix(venue);
    const table = this.#table;
    for (let slot = 0; slot < table.highWater; slot++) {
      const id = table.id(slot);
      if (id?.startsWith(prefix)) table.remove(slot);
    }
    for (const id of [...this.#pending.keys()]) if (id.startsWith(prefix)) this.#pending.delete(id);
    for (const id of [...this.#holds.keys()]) if (id.startsWith(prefix)) this.#holds.delete(id);
    for (const id of [...this.#windows.keys()]) if (id.startsWith(prefix)) this.#windows.delete(id);
    for (const id of [...this.#classes.keys()]) if (id.startsWith(prefix)) this.#classes.delete(id);
    return OK;
  }

  resetAll(): SideEffectResult {
    this.#table.clear();
    this.#pending.clear();
    this.#holds.clear();
    this.#windows.clear();
    this.#classes.clear();
    return OK;
  }

  snapshot(): readonly BucketSnapshot[] {
    const now = this.#clock.now();
    const out: BucketSnapshot[] = [];
    const table = this.#table;
    for (let slot = 0; slot < table.highWater; slot++) {
      const id = table.id(slot);
      if (id === undefined) continue;
      const def = this.#defs[table.def(slot)] as Definition;
      const x = table.state(slot);
      const held = this.#holds.get(id) ?? NO_HOLD;
      if (isIdle(x, held, def, now)) continue;
      const { venue, credentialHash, axis } = decodeBucketId(id);
      const w = def.window;
      const borrowed = w === undefined ? borrowedAt(x, def, now) : windowBorrowed(this.#windows.get(id) ?? [], w, now);
      const base = {
        venue,
        credentialHash,
        axis,
        capacity: def.capacity,
        refillPerSec: def.refillPerSec,
        tokens: def.capacity - borrowed,
        borrowed,
        ...(w === undefined ? {} : { windowMs: w.windowMs }),
      };
      out.push(held > now ? { ...base, heldUntilMs: held } : base);
    }
    return out;
  }

  /** The names under which buckets and pending penalties are stored (ids: venue, credential hash, axis). */
  storageKeys(): string[] {
    const out: string[] = [];
    for (let slot = 0; slot < this.#table.highWater; slot++) {
      const id = this.#table.id(slot);
      if (id !== undefined) out.push(id);
    }
    for (const id of this.#pending.keys()) out.push(id);
    return out;
  }

  /**
   * One bucket's stored state, by id (for the differential test that pins the Redis scripts to this
   * arithmetic): a defined bucket's definition, `x` and hold in force, a pending hold or debt, or
   * `undefined` when nothing is stored.
   */
  inspect(id: string):
    | {
        readonly pending: false;
        readonly text: string;
        readonly x: number;
        readonly hold: number;
        readonly entries?: readonly number[];
        readonly answers?: readonly number[];
        readonly classes?: readonly number[];
      }
    | { readonly pending: true; readonly debt: number; readonly hold: number }
    | undefined {
    const slot = this.#table.find(id);
    if (slot >= 0) {
      const def = this.#defs[this.#table.def(slot)] as Definition;
      const base = { pending: false as const, text: def.text, x: this.#table.state(slot), hold: this.#holds.get(id) ?? NO_HOLD };
      const cs = this.#classes.get(id);
      if (def.window === undefined) return cs === undefined ? base : { ...base, classes: cs };
      const entries = this.#windows.get(id) ?? [];
      const answers = this.#answers.get(entries);
      return answers === undefined ? { ...base, entries } : { ...base, entries, answers };
    }
    const p = this.#pending.get(id);
    return p === undefined ? undefined : { pending: true, debt: p.debt, hold: p.hold };
  }

  /** Evicts every idle bucket now and gives unused table memory back; answers how many were evicted. */
  sweepAll(): number {
    return this.#sweep.all(this.#clock.now());
  }

  /** Idle buckets evicted so far. */
  get evicted(): number {
    return this.#sweep.evicted;
  }

  close(): void {
    this.#table.clear();
    this.#pending.clear();
    this.#holds.clear();
    this.#windows.clear();
    this.#classes.clear();
  }

  // ---------------------------------------------------------------- internals

  /**
   * The slot of a bucket that is not idle, or -1: an idle bucket (full and not held) is evicted on the
   * spot, since it must behave exactly like an absent one (a record or penalty without a definition then
   * waits for the next definition, as on a shared store where idle buckets expire).
   */
  #live(id: string, now: number): number {
    const slot = this.#table.find(id);
    if (slot < 0) return -1;
    const hold = this.#holds.size > 0 ? (this.#holds.get(id) ?? NO_HOLD) : NO_HOLD;
    if (!isIdle(this.#table.state(slot), hold, this.#defs[this.#table.def(slot)] as Definition, now)) return slot;
    this.#table.remove(slot);
    this.#holds.delete(id);
    this.#windows.delete(id);
    this.#classes.delete(id);
    this.#sweep.evicted++;
    return -1;
  }

  /** The slot of a key's bucket, or -1; uses the slot remembered on the key when it still holds the bucket. */
  #slotOf(k: ResolvedKey): number {
    const s = k.memo;
    if (typeof s === 'number' && s >= 0 && this.#table.id(s) === k.id) return s;
    const slot = this.#table.find(k.id);
    k.memo = slot;
    return slot;
  }

  /** The bucket's `x` under `def` now: converted keeping its hold (RL-L5, RL-R3), or folded from what was pending. */
  #effective(slot: number, id: string, def: Definition, now: number): number {
    if (slot >= 0) {
      const x = this.#table.state(slot);
      const old = this.#table.def(slot);
      if (old === def.index) return x;
      const hold = this.#holds.size > 0 ? (this.#holds.get(id) ?? NO_HOLD) : NO_HOLD;
      const from = this.#defs[old] as Definition;
      if (from.window !== undefined) return fromBorrowed(windowBorrowed(this.#windows.get(id) ?? [], from.window, now), hold, def, now);
      return redefine(x, hold, from, def, now);
    }
    if (this.#pending.size > 0) {
      const p = this.#pending.get(id);
      if (p !== undefined) return foldPending(p.debt, p.hold, def, now);
    }
    return freshState(def);
  }

  /** A window bucket's entries under window definition `def` now: kept, converted from a token bucket, or folded from what was pending. */
  #effectiveWindow(slot: number, id: string, def: Definition, now: number): number[] {
    const w = def.window as NonNullable<Definition['window']>;
    if (slot >= 0) {
      const from = this.#defs[this.#table.def(slot)] as Definition;
      const hold = this.#holds.size > 0 ? (this.#holds.get(id) ?? NO_HOLD) : NO_HOLD;
      // entries carry over to another window definition, unless the bucket is idle: then it is absent
      if (from.window !== undefined) return isIdle(this.#table.state(slot), hold, from, now) ? [] : (this.#windows.get(id) ?? []);
      return windowFromBorrowed(borrowedAt(this.#table.state(slot), from, now), hold, w, now);
    }
    if (this.#pending.size > 0) {
      const p = this.#pending.get(id);
      if (p !== undefined) return windowFoldPending(p.debt, p.hold, w, now);
    }
    return [];
  }

  /** Writes a window bucket: its entries, and their expiry as the table's state (idle once it passed). */
  #writeWindow(slot: number, id: string, entries: number[], def: Definition, now: number, answers: number[] | undefined): number {
    const at = this.#write(slot, id, windowExpiry(entries, def.window as NonNullable<Definition['window']>), def, now);
    // the answer records of the list written from (none when it started afresh): they go with the list
    if (answers !== undefined && answers.length > 0) this.#answers.set(entries, answers);
    else this.#answers.delete(entries);
    this.#windows.set(id, entries);
    return at;
  }

  /** Charges one bucket of an admission as of the send time `s` (RL-M5, RL-V4, RL-Q1..RL-Q5); the slot written. */
  #charge(
    slot: number,
    id: string,
    x: number,
    w: number[] | undefined,
    cs: ClassState | undefined,
    def: Definition,
    cls: number,
    cost: number,
    s: number,
    now: number,
  ): number {
    if (w !== undefined && def.window !== undefined)
      return this.#writeWindow(slot, id, windowCharge(w, def.window, cost, s, now, cls), def, now, this.#answers.get(w));
    if (def.quota) return this.#write(slot, id, chargeAt(x, def, cost, s), def, now);
    const c = this.#charged;
    classCharge(c, x, cs, def, cls, cost, s, now);
    const at = this.#write(slot, id, c.x, def, now);
    if (c.cs !== undefined) this.#classes.set(id, c.cs);
    else if (cs !== undefined || this.#classes.size > 0) this.#classes.delete(id);
    return at;
  }

  /** A token bucket's class state under `def` now (a new definition drops it), settled (classes.ts). */
  #classesOf(slot: number, id: string, def: Definition, x: number, now: number): ClassState | undefined {
    if (slot < 0 || def.quota || this.#table.def(slot) !== def.index) return undefined;
    return settleClasses(this.#classes.get(id), x, now);
  }

  /** Writes a token bucket whose `x` a record or sync raised from `x` to `y` now, its class state kept a bound. */
  #writeRaised(slot: number, id: string, x: number, y: number, def: Definition, now: number, held: boolean): number {
    const cs = this.#classes.size > 0 ? classRaise(this.#classesOf(slot, id, def, x, now), def, x, y, held) : undefined;
    const at = this.#write(slot, id, y, def, now);
    if (cs !== undefined) this.#classes.set(id, cs);
    else if (this.#classes.size > 0) this.#classes.delete(id);
    return at;
  }

  #write(slot: number, id: string, x: number, def: Definition, now: number): number {
    if (this.#windows.size > 0 && def.window === undefined) this.#windows.delete(id);
    if (this.#classes.size > 0 && (def.window !== undefined || def.quota)) this.#classes.delete(id);
    if (slot >= 0) {
      this.#table.set(slot, x, def.index);
      return slot;
    }
    const created = this.#table.insert(id, x, def.index);
    if (this.#pending.size > 0) {
      const p = this.#pending.get(id);
      if (p !== undefined) {
        this.#pending.delete(id);
        if (p.hold > now) this.#holds.set(id, p.hold);
      }
    }
    return created;
  }

  #pendingFor(id: string): Pending | undefined {
    let p = this.#pending.get(id);
    if (p !== undefined) return p;
    if (this.#pending.size >= this.#options.maxPending) {
      const oldest = this.#pending.keys().next();
      if (!oldest.done) this.#pending.delete(oldest.value);
      this.pendingDropped++;
    }
    p = { hold: NO_HOLD, debt: 0 };
    this.#pending.set(id, p);
    return p;
  }
}
