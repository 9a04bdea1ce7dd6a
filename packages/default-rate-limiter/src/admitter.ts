import {
  HORIZON_MS,
  addUp,
  admits,
  chargeAt,
  lineOf,
  planAdmission,
  sendTime,
  windowCharge,
  windowChargeNow,
  windowSendTime,
  windowLineOf,
  type Admission,
  type AdmissionPlan,
  type AdmitMode,
  type ClassState,
  type Definition,
  type ResolvedKey,
} from '@core/rate-limit-kit';
import { type Booked, beforeBooking, booked } from './bookings.js';
import type { BucketState } from './bucket-state.js';

/** Where {@link Admitter.quick} leaves the time of its decision, or the admission its general path answered. */
export interface QuickAnswer {
  now: number;
  slow: Admission | undefined;
}

/**
 * The admissions of a memory store (RL-A1..RL-A5, RL-M1..RL-M5, RL-W1, RL-V2, RL-V4, RL-Q1..RL-Q6): each
 * bucket's state under the call's definition, the kit's plan of the common send time, and the charges
 * as of that time, with what a booking's return needs. Scratch arrays are reused from call to call.
 */
export class Admitter {
  readonly #b: BucketState;
  readonly #cs: (ClassState | undefined)[] = [];
  readonly #plan: AdmissionPlan = { sendAt: 0, unpayable: -1 };
  readonly #xs: number[] = [];
  readonly #ws: (number[] | undefined)[] = [];
  readonly #slots: number[] = [];
  readonly #k1: ResolvedKey[] = [];
  readonly #d1: Definition[] = [];
  readonly #c1: number[] = [];

  constructor(b: BucketState) {
    this.#b = b;
  }

  /**
   * The commonest admission at `now` (the sweep already ticked), answered without the general path's
   * class states, plans and answer objects: a probe (`checkRate`, `checkRates`, `tryAcquireSync` without
   * options) of class normal leaving no share free, over `n` buckets. The same decision and the same
   * writes as `admit(now, n, keys, defs, costs, 'probe', undefined, 1, 0)`. Answers 0 when admitted now
   * (charged), the wait when it must wait (nothing changed), or NaN when the general path answered
   * (`out.slow`: class states are kept, or a bucket can never pay).
   */
  quick(now: number, n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], out: QuickAnswer): number {
    const b = this.#b;
    if (b.classes.size > 0) return this.#slow(now, n, keys, defs, costs, out);
    const xs = this.#xs;
    const ws = this.#ws;
    const slots = this.#slots;
    // token buckets relative to now (the kit's gcra.ts), window limits on the clock
    let r = 0;
    let windows = false;
    for (let i = 0; i < n; i++) {
      const def = defs[i] as Definition;
      const k = keys[i] as ResolvedKey;
      b.defs[def.index] = def;
      const slot = b.slotOf(k);
      slots[i] = slot;
      if (def.window !== undefined) {
        ws[i] = b.effectiveWindow(slot, k.id, def, now);
        windows = true;
        continue;
      }
      ws[i] = undefined;
      const t = b.table;
      const x = slot >= 0 && t.def(slot) === def.index && !def.quota ? t.state(slot) + (t.at(slot) - now) : b.effective(slot, k.id, def, now);
      xs[i] = x;
      // the class arithmetic of class normal with nothing kept free and no class state is plain GCRA
      const si = sendTime(x, def, costs[i] as number, 0);
      if (!(si <= HORIZON_MS)) return this.#slow(now, n, keys, defs, costs, out);
      if (si > r) r = si;
    }
    let s = r > 0 ? addUp(now, r) : now;
    // window limits last, each moving the common time to where it fits until none moves it (planAdmission)
    for (let moved = windows; moved; ) {
      moved = false;
      for (let i = 0; i < n; i++) {
        const w = (defs[i] as Definition).window;
        if (w === undefined) continue;
        const si = windowSendTime(ws[i] as number[], w, costs[i] as number, s);
        if (!(si - now <= HORIZON_MS)) return this.#slow(now, n, keys, defs, costs, out);
        if (si > s) {
          s = si;
          moved = true;
        }
      }
    }
    if (s > now) return s - now;
    for (let i = 0; i < n; i++) {
      const k = keys[i] as ResolvedKey;
      const def = defs[i] as Definition;
      const w = def.window;
      const e = ws[i];
      if (w === undefined || e === undefined) {
        k.memo = b.write(slots[i] as number, k.id, chargeAt(xs[i] as number, def, costs[i] as number, 0), def, now);
        continue;
      }
      // a quick admission books nothing: no booking holds the ledger it replaces, so it may change in place
      k.memo = b.writeWindow(slots[i] as number, k.id, windowChargeNow(e, w, costs[i] as number, now), def, now);
    }
    return 0;
  }

  /** {@link Admitter.quick} of one bucket, given as its key, definition and cost. */
  quickOne(now: number, k: ResolvedKey, def: Definition, cost: number, out: QuickAnswer): number {
    this.#k1[0] = k;
    this.#d1[0] = def;
    this.#c1[0] = cost;
    return this.quick(now, 1, this.#k1, this.#d1, this.#c1, out);
  }

  /** The general path's answer to a quick call over one bucket (see `quick`). */
  slowOne(now: number, k: ResolvedKey, def: Definition, cost: number, out: QuickAnswer): number {
    this.#k1[0] = k;
    this.#d1[0] = def;
    this.#c1[0] = cost;
    return this.#slow(now, 1, this.#k1, this.#d1, this.#c1, out);
  }

  #slow(now: number, n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], out: QuickAnswer): number {
    out.slow = this.admit(now, n, keys, defs, costs, 'probe', undefined, 1, 0);
    return Number.NaN;
  }

  /** The general admission at `now` (the sweep already ticked): see `LimiterStore.admit`. */
  admit(
    now: number,
    n: number,
    keys: readonly ResolvedKey[],
    defs: readonly Definition[],
    costs: readonly number[],
    mode: AdmitMode,
    budgetMs: number | undefined,
    cls: number,
    free: number | readonly number[],
  ): Admission {
    const b = this.#b;
    const xs = this.#xs;
    const ws = this.#ws;
    const css = this.#cs;
    const slots = this.#slots;
    const anyClasses = b.classes.size > 0;
    for (let i = 0; i < n; i++) {
      const k = keys[i] as ResolvedKey;
      const def = defs[i] as Definition;
      b.defs[def.index] = def;
      const slot = b.slotOf(k);
      slots[i] = slot;
      if (def.window === undefined) {
        const x = b.effective(slot, k.id, def, now);
        xs[i] = x;
        ws[i] = undefined;
        css[i] = anyClasses ? b.classesOf(slot, k.id, def, x, now) : undefined;
      } else {
        xs[i] = 0;
        ws[i] = b.effectiveWindow(slot, k.id, def, now);
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
    const booking: Booked[] | undefined = s > now ? [] : undefined;
    for (let i = 0; i < n; i++) {
      const k = keys[i] as ResolvedKey;
      const def = defs[i] as Definition;
      const before = slots[i] as number;
      const r = booking === undefined ? undefined : beforeBooking(b, k.id, before, xs[i] as number, def.index, now);
      const slot = this.#charge(before, k.id, xs[i] as number, ws[i], css[i], def, cls, costs[i] as number, s, now);
      k.memo = slot;
      if (r !== undefined) booking?.push(booked(b, k.id, def.index, before, r, slot));
    }
    return booking === undefined ? { status: 'admitted', sendAt: s, now } : { status: 'admitted', sendAt: s, now, booking };
  }

  /**
   * Charges one bucket of an admission as of the send time `s` (RL-M5, RL-V4, RL-Q1..RL-Q5; on the clock,
   * a token bucket's `x` and `cs` relative to now); the slot written.
   */
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
    const b = this.#b;
    if (w !== undefined && def.window !== undefined) return b.writeWindow(slot, id, windowCharge(w, def.window, cost, s, now), def, now);
    if (def.quota) return b.write(slot, id, chargeAt(x, def, cost, s - now), def, now);
    return b.chargeTokens(slot, id, x, cs, def, cls, cost, s - now, now);
  }
}
