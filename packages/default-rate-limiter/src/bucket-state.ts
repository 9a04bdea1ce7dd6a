import {
  HORIZON_MS,
  NO_HOLD,
  addUp,
  chargeAt,
  sendTime,
  borrowedAt,
  classCharge,
  classRaise,
  foldPending,
  freshState,
  fromBorrowed,
  isIdle,
  redefine,
  settleClasses,
  windowBorrowed,
  windowExpiry,
  windowFoldPending,
  windowFromBorrowed,
  type ClassCharged,
  type ClassState,
  type Definition,
  type ResolvedKey,
} from '@core/rate-limit-kit';
import { BucketTable } from './bucket-table.js';
import { IdleSweep, type SweepOptions } from './idle-sweep.js';

/** A penalty or recorded debt waiting for its bucket's first definition (RL-R1, RL-R3). */
export interface Pending {
  hold: number;
  debt: number;
}

/**
 * Every bucket of a memory store: the table of states and definition numbers, and its side maps
 * (holds, pending penalties and debts, window ledgers, class states). Every
 * write to any of them is a method of this class, so no operation can update one and miss another;
 * the store's operations (memory-store.ts) read the maps and write through these methods.
 */
export class BucketState {
  readonly table = new BucketTable();
  /** Definitions by their index (the front door interns them). */
  readonly defs: Definition[] = [];
  readonly pending = new Map<string, Pending>();
  /** Holds in force on live buckets (a redefinition must keep them, RL-R3). */
  readonly holds = new Map<string, number>();
  /** The slot ledgers of window buckets (RL-V1; the table keeps their expiry as their state). */
  readonly windows = new Map<string, number[]>();
  /** The class states of token buckets with bookings ahead (RL-Q1..RL-Q5, the kit's classes.ts). */
  readonly classes = new Map<string, ClassState>();
  readonly sweep: IdleSweep;
  readonly #maxPending: number;
  readonly #charged: ClassCharged = { x: 0, cs: undefined };
  pendingDropped = 0;

  constructor(options: SweepOptions & { readonly maxPending: number }) {
    this.#maxPending = options.maxPending;
    this.sweep = new IdleSweep(this.table, this.holds, this.windows, this.classes, this.defs, options);
  }

  /** The hold in force recorded for a live bucket, or `NO_HOLD`. */
  holdOf(id: string): number {
    return this.holds.size > 0 ? (this.holds.get(id) ?? NO_HOLD) : NO_HOLD;
  }

  /**
   * A live bucket's state relative to now under its own definition `def` (the kit's gcra.ts, "Times
   * relative to now"): a token bucket's `x − now`, a window's expiry less now, a quota's amount.
   */
  rel(slot: number, def: Definition, now: number): number {
    const t = this.table;
    return def.quota ? t.state(slot) : t.state(slot) + (t.at(slot) - now);
  }

  /** Whether the bucket in `slot` (definition `def`) is idle now: full and not held. */
  idle(slot: number, id: string, def: Definition, now: number): boolean {
    return isIdle(this.rel(slot, def, now), this.holdOf(id) - now, def, 0);
  }

  /** Forgets everything of one bucket but what is pending for it. */
  forget(id: string): void {
    const slot = this.table.find(id);
    if (slot >= 0) this.table.remove(slot);
    this.holds.delete(id);
    this.windows.delete(id);
    this.classes.delete(id);
  }

  /** Forgets every bucket whose id starts with `prefix` (a venue's), with what is pending for them (RL-I2). */
  forgetPrefix(prefix: string): void {
    const table = this.table;
    for (let slot = 0; slot < table.highWater; slot++) {
      const id = table.id(slot);
      if (id?.startsWith(prefix)) table.remove(slot);
    }
    for (const map of [this.pending, this.holds, this.windows, this.classes] as Map<string, unknown>[]) {
      for (const id of [...map.keys()]) if (id.startsWith(prefix)) map.delete(id);
    }
  }

  /** Forgets every bucket and everything pending. */
  clear(): void {
    this.table.clear();
    this.pending.clear();
    this.holds.clear();
    this.windows.clear();
    this.classes.clear();
  }

  /**
   * The slot of a bucket that is not idle, or -1: an idle bucket (full and not held) is evicted on the
   * spot, since it must behave exactly like an absent one (a record or penalty without a definition then
   * waits for the next definition, as on a shared store where idle buckets expire).
   */
  live(id: string, now: number): number {
    const slot = this.table.find(id);
    if (slot < 0) return -1;
    if (!this.idle(slot, id, this.defs[this.table.def(slot)] as Definition, now)) return slot;
    this.table.remove(slot);
    this.holds.delete(id);
    this.windows.delete(id);
    this.classes.delete(id);
    this.sweep.evicted++;
    return -1;
  }

  /** The slot of a key's bucket, or -1; uses the slot remembered on the key when it still holds the bucket. */
  slotOf(k: ResolvedKey): number {
    const s = k.memo;
    if (typeof s === 'number' && s >= 0 && this.table.id(s) === k.id) return s;
    const slot = this.table.find(k.id);
    k.memo = slot;
    return slot;
  }

  /**
   * The bucket's `x` under `def`, relative to now: converted keeping its hold (RL-L5, RL-R3), or folded
   * from what was pending.
   */
  effective(slot: number, id: string, def: Definition, now: number): number {
    if (slot >= 0) {
      const old = this.table.def(slot);
      if (old === def.index) return def.quota ? this.table.state(slot) : this.table.state(slot) + (this.table.at(slot) - now);
      const hold = this.holdOf(id) - now;
      const from = this.defs[old] as Definition;
      if (from.window !== undefined) return fromBorrowed(windowBorrowed(this.windows.get(id) ?? [], from.window, now), hold, def, 0);
      return redefine(this.rel(slot, from, now), hold, from, def, 0);
    }
    if (this.pending.size > 0) {
      const p = this.pending.get(id);
      if (p !== undefined) return foldPending(p.debt, p.hold - now, def, 0);
    }
    return freshState(def);
  }

  /**
   * The quick admission of one token bucket (the admitter's `quick` for one bucket): `def` a token
   * bucket, no class state kept anywhere. Charges and answers 0 when `cost` fits now, answers the wait
   * when it must wait, NaN when it can never pay (nothing changed then).
   */
  quickTokens(k: ResolvedKey, def: Definition, cost: number, now: number): number {
    this.defs[def.index] = def;
    const slot = this.slotOf(k);
    // (a live bucket under this definition, read in place: the commonest case, kept small enough to inline)
    const t = this.table;
    const x = slot >= 0 && t.def(slot) === def.index && !def.quota ? t.state(slot) + (t.at(slot) - now) : this.effective(slot, k.id, def, now);
    const s = sendTime(x, def, cost, 0);
    // (the wait as the general path answers it: from the send time on the clock, rounded up)
    if (s > 0) return s <= HORIZON_MS ? addUp(now, s) - now : Number.NaN;
    k.memo = this.write(slot, k.id, chargeAt(x, def, cost, 0), def, now);
    return 0;
  }

  /** A window bucket's entries under window definition `def` now: kept, converted from a token bucket, or folded from what was pending. */
  effectiveWindow(slot: number, id: string, def: Definition, now: number): number[] {
    const w = def.window as NonNullable<Definition['window']>;
    if (slot >= 0) {
      const from = this.defs[this.table.def(slot)] as Definition;
      if (from.window !== undefined) {
        // an idle bucket is absent; slots carry over to a definition of the same slot width, and the amount
        // borrowed otherwise (RL-L5): a slot of one width means nothing under another
        if (this.idle(slot, id, from, now)) return [];
        const kept = this.windows.get(id) ?? [];
        return from.window.g === w.g ? kept : windowFromBorrowed(windowBorrowed(kept, from.window, now), this.holdOf(id), w, now);
      }
      return windowFromBorrowed(borrowedAt(this.rel(slot, from, now), from, 0), this.holdOf(id), w, now);
    }
    if (this.pending.size > 0) {
      const p = this.pending.get(id);
      if (p !== undefined) return windowFoldPending(p.debt, p.hold, w, now);
    }
    return [];
  }

  /** Writes a window bucket: its entries, and their expiry as the table's state (idle once it passed). */
  writeWindow(slot: number, id: string, entries: number[], def: Definition, now: number, expiry?: number): number {
    const at = this.write(slot, id, expiry ?? windowExpiry(entries, def.window as NonNullable<Definition['window']>), def, now);
    this.windows.set(id, entries);
    return at;
  }

  /**
   * Charges one token bucket of an admission as of the send time `s` (RL-M5, RL-Q1..RL-Q5); `x`, `cs` and
   * `s` relative to now. The slot written.
   */
  chargeTokens(slot: number, id: string, x: number, cs: ClassState | undefined, def: Definition, cls: number, cost: number, s: number, now: number): number {
    const c = this.#charged;
    classCharge(c, x, cs, def, cls, cost, s, 0);
    const at = this.write(slot, id, c.x, def, now);
    if (c.cs !== undefined) this.classes.set(id, c.cs);
    else if (cs !== undefined || this.classes.size > 0) this.classes.delete(id);
    return at;
  }

  /**
   * A token bucket's class state under `def` now (a new definition drops it), settled (classes.ts); its
   * times, like `x`, relative to now (stored relative to the time the bucket was written).
   */
  classesOf(slot: number, id: string, def: Definition, x: number, now: number): ClassState | undefined {
    if (slot < 0 || def.quota || this.table.def(slot) !== def.index) return undefined;
    const cs = this.classes.get(id);
    return cs === undefined ? undefined : settleClasses(shiftClasses(cs, this.table.at(slot) - now), x, 0);
  }

  /** Writes a token bucket whose `x` a record or sync raised from `x` to `y` now (both relative to now), its class state kept a bound. */
  writeRaised(slot: number, id: string, x: number, y: number, def: Definition, now: number, held: boolean): number {
    const cs = this.classes.size > 0 ? classRaise(this.classesOf(slot, id, def, x, now), def, x, y, held) : undefined;
    const at = this.write(slot, id, y, def, now);
    if (cs !== undefined) this.classes.set(id, cs);
    else if (this.classes.size > 0) this.classes.delete(id);
    return at;
  }

  /** Sets a live token bucket's `x` (written at `at`: now, or 0 for a quota's amount) and class state (a penalty). */
  setTokens(slot: number, id: string, y: number, cs: ClassState | undefined, at: number): void {
    this.table.setState(slot, y, at);
    if (cs === undefined) this.classes.delete(id);
    else this.classes.set(id, cs);
  }

  /** Keeps a live bucket's hold `h` (the end of its penalties) while it is in force. */
  setHold(id: string, h: number, now: number): void {
    if (h > now) this.holds.set(id, h);
  }

  /** Restores a bucket's state (written at `at`), definition, entries and class state (a booking returned, RL-W5). */
  restore(slot: number, id: string, x: number, at: number, def: number, entries: number[] | undefined, cs: ClassState | undefined): void {
    this.table.set(slot, x, at, def);
    if (entries === undefined) this.windows.delete(id);
    else this.windows.set(id, entries);
    if (cs === undefined) this.classes.delete(id);
    else this.classes.set(id, cs);
  }

  /**
   * Writes a bucket's `x` under `def` (a token bucket's relative to now, a window bucket's expiry on the
   * clock); inserts it, folding in what was pending. The slot written.
   */
  write(slot: number, id: string, x: number, def: Definition, now: number): number {
    const at = def.window === undefined && !def.quota ? now : 0;
    // a window bucket's entries go when it becomes a token bucket (only live window buckets have entries)
    if (def.window === undefined && this.windows.size > 0 && (slot < 0 || (this.defs[this.table.def(slot)] as Definition).window !== undefined))
      this.windows.delete(id);
    if (this.classes.size > 0 && (def.window !== undefined || def.quota)) this.classes.delete(id);
    if (slot >= 0) {
      this.table.set(slot, x, at, def.index);
      return slot;
    }
    const created = this.table.insert(id, x, at, def.index);
    if (this.pending.size > 0) {
      const p = this.pending.get(id);
      if (p !== undefined) {
        this.pending.delete(id);
        if (p.hold > now) this.holds.set(id, p.hold);
      }
    }
    return created;
  }

  /** The pending penalty and debt of a bucket not defined yet, created when absent (the oldest dropped past `maxPending`). */
  pendingFor(id: string): Pending | undefined {
    let p = this.pending.get(id);
    if (p !== undefined) return p;
    if (this.pending.size >= this.#maxPending) {
      const oldest = this.pending.keys().next();
      if (!oldest.done) this.pending.delete(oldest.value);
      this.pendingDropped++;
    }
    p = { hold: NO_HOLD, debt: 0 };
    this.pending.set(id, p);
    return p;
  }
}

/** A class state's times (`L`, `Lc`, `Ln`, `aEnd`: its first four) moved by `d` ms; the same state when `d` is 0. */
function shiftClasses(cs: ClassState, d: number): ClassState {
  if (d === 0) return cs;
  return [(cs[0] as number) + d, (cs[1] as number) + d, (cs[2] as number) + d, (cs[3] as number) + d, cs[4] as number, cs[5] as number];
}
