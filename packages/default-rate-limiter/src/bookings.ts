import type { ClassState } from '@core/rate-limit-kit';
import type { BucketState, Pending } from './bucket-state.js';

/** One bucket of a booking for later, with what a return needs (RL-W5). */
export interface Booked {
  readonly id: string;
  readonly def: number;
  /** The state and definition the booking replaced (a bucket it created: fresh, pending folded in), and when that state was written. */
  readonly replaced: number;
  readonly replacedAt: number;
  readonly replacedDef: number;
  /** The booking created the bucket: a return forgets it again and puts back what was pending. */
  readonly created: boolean;
  readonly pendingBefore: Pending | undefined;
  /** A window bucket's entries the booking replaced. */
  readonly replacedWindow: number[] | undefined;
  /** A token bucket's class state the booking replaced. */
  readonly replacedClasses: ClassState | undefined;
  /** The number of the booking's write to the bucket (the table's, never reused): any later write forfeits the return. */
  readonly version: number;
}

/** What a booking of bucket `id` must remember before it writes (slot `before`, -1 when absent; `x` its effective state). */
export interface BeforeBooking {
  readonly pending: Pending | undefined;
  readonly replaced: number;
  readonly replacedAt: number;
  readonly replacedDef: number;
  readonly replacedWindow: number[] | undefined;
  readonly replacedClasses: ClassState | undefined;
}

/** Reads what a booking replaces, before it writes (`x` relative to `now`). */
export function beforeBooking(b: BucketState, id: string, before: number, x: number, def: number, now: number): BeforeBooking {
  const pending = before < 0 && b.pending.size > 0 ? b.pending.get(id) : undefined;
  return {
    pending: pending === undefined ? undefined : { hold: pending.hold, debt: pending.debt },
    replaced: before >= 0 ? b.table.state(before) : x,
    replacedAt: before >= 0 ? b.table.at(before) : now,
    replacedDef: before >= 0 ? b.table.def(before) : def,
    replacedWindow: before >= 0 ? b.windows.get(id) : undefined,
    replacedClasses: before >= 0 ? b.classes.get(id) : undefined,
  };
}

/** The record of one bucket booked: what it replaced, and the number of its own write. */
export function booked(b: BucketState, id: string, def: number, before: number, r: BeforeBooking, slot: number): Booked {
  return {
    id,
    def,
    replaced: r.replaced,
    replacedAt: r.replacedAt,
    replacedDef: r.replacedDef,
    created: before < 0,
    pendingBefore: r.pending,
    replacedWindow: r.replacedWindow,
    replacedClasses: r.replacedClasses,
    version: b.table.version(slot),
  };
}

/** RL-W5: returns each bucket of a booking only when nothing was written to it after the booking; answers whether all were. */
export function cancelBooking(b: BucketState, booking: readonly Booked[]): boolean {
  let returned = true;
  const table = b.table;
  for (const x of booking) {
    const slot = table.find(x.id);
    // (a bucket forgotten since, reset or evicted, is absent or written again; one moved by compaction keeps its write)
    if (slot < 0 || table.def(slot) !== x.def || table.version(slot) !== x.version) {
      returned = false;
      continue;
    }
    if (!x.created) {
      b.restore(slot, x.id, x.replaced, x.replacedAt, x.replacedDef, x.replacedWindow, x.replacedClasses);
      continue;
    }
    // the bucket did not exist before the booking: forget it, with the penalty or debt it folded in kept pending
    b.forget(x.id);
    if (x.pendingBefore !== undefined && !b.pending.has(x.id)) {
      const p = b.pendingFor(x.id);
      if (p !== undefined) {
        p.hold = x.pendingBefore.hold;
        p.debt = x.pendingBefore.debt;
      }
    }
  }
  return returned;
}
