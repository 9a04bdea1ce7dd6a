import type { BucketSnapshot } from '@core/rate-limit-contract';
import { NO_HOLD, borrowedAt, decodeBucketId, isIdle, windowBorrowed, windowCounted, type Definition } from '@core/rate-limit-kit';
import type { BucketState } from './bucket-state.js';

/** One bucket's stored state as {@link inspectBucket} shows it. */
export type InspectedBucket =
  | {
      readonly pending: false;
      readonly text: string;
      /** A token bucket's `x` relative to `at`, the time it was written (0: a quota's amount, a window's expiry). */
      readonly x: number;
      readonly at: number;
      readonly hold: number;
      readonly entries?: readonly number[];
      readonly answers?: readonly number[];
      readonly classes?: readonly number[];
    }
  | { readonly pending: true; readonly debt: number; readonly hold: number };

/** The live buckets for a budget panel (RL-I3): idle ones are left out. */
export function snapshotBuckets(b: BucketState, now: number): BucketSnapshot[] {
  const out: BucketSnapshot[] = [];
  const table = b.table;
  for (let slot = 0; slot < table.highWater; slot++) {
    const id = table.id(slot);
    if (id === undefined) continue;
    const def = b.defs[table.def(slot)] as Definition;
    const x = b.rel(slot, def, now);
    const held = b.holds.get(id) ?? NO_HOLD;
    if (isIdle(x, held - now, def, 0)) continue;
    const { venue, credentialHash, axis } = decodeBucketId(id);
    const w = def.window;
    const entries = b.windows.get(id) ?? [];
    const borrowed = w === undefined ? borrowedAt(x, def, 0) : windowBorrowed(entries, w, now);
    const base = {
      venue,
      credentialHash,
      axis,
      capacity: def.capacity,
      refillPerSec: def.refillPerSec,
      tokens: def.capacity - borrowed,
      borrowed,
      ...(w === undefined ? {} : { windowMs: w.windowMs, jitterMs: w.jitterMs, counted: windowCounted(entries, w, now) }),
    };
    out.push(held > now ? { ...base, heldUntilMs: held } : base);
  }
  return out;
}

/** The names under which buckets and pending penalties are stored (ids: venue, credential hash, axis). */
export function storedIds(b: BucketState): string[] {
  const out: string[] = [];
  for (let slot = 0; slot < b.table.highWater; slot++) {
    const id = b.table.id(slot);
    if (id !== undefined) out.push(id);
  }
  for (const id of b.pending.keys()) out.push(id);
  return out;
}

/**
 * One bucket's stored state, by id: a defined bucket's definition, `x` (and when it was written) and hold in force (with a window
 * bucket's entries and answer records, a token bucket's class state), a pending hold or debt, or
 * `undefined` when nothing is stored. Lists are copies.
 */
export function inspectBucket(b: BucketState, id: string): InspectedBucket | undefined {
  const slot = b.table.find(id);
  if (slot >= 0) {
    const def = b.defs[b.table.def(slot)] as Definition;
    const base = { pending: false as const, text: def.text, x: b.table.state(slot), at: b.table.at(slot), hold: b.holds.get(id) ?? NO_HOLD };
    const cs = b.classes.get(id);
    if (def.window === undefined) return cs === undefined ? base : { ...base, classes: cs };
    return { ...base, entries: (b.windows.get(id) ?? []).slice() };
  }
  const p = b.pending.get(id);
  return p === undefined ? undefined : { pending: true, debt: p.debt, hold: p.hold };
}
