import type { BucketSnapshot } from '@core/rate-limit-contract';
import { borrowedAt, defineBucket, defineWindow, windowBorrowed } from '@core/rate-limit-kit';
import { definitionOf, type StoredState, windowSnapshot } from './protocol.js';

/**
 * borrowed(now) of a stored value, with the kit's arithmetic (RL-I1); a token bucket relative to now (the kit's
 * gcra.ts, "Times relative to now": a bucket that refills is stored relative to the time it was written).
 */
export function borrowedOf(state: StoredState, now: number): number {
  if (state.pending) return state.debt;
  const def = definitionOf(state.text);
  if (def.windowMs !== undefined) return windowBorrowed(state.entries ?? [], defineWindow(def.capacity, def.windowMs, def.jitterMs ?? 0), now);
  const bucket = defineBucket(def);
  return borrowedAt(bucket.quota ? state.x : state.x + (state.at - now), bucket, 0);
}

/**
 * A snapshot's row for a stored bucket, read at script time `now` (RL-I3): none for a pending bucket, or one that
 * borrows nothing and is not held. `epochOffset` turns script time into the limiter's clock.
 */
export function snapshotRow(
  names: { readonly venue: string; readonly credentialHash: string | null; readonly axis: string },
  state: StoredState | undefined,
  now: number,
  epochOffset: number,
): BucketSnapshot | undefined {
  if (state === undefined || state.pending) return undefined;
  const borrowed = borrowedOf(state, now);
  const held = state.hold > now;
  if (borrowed <= 0 && !held) return undefined;
  const def = definitionOf(state.text);
  return {
    venue: names.venue,
    credentialHash: names.credentialHash,
    axis: names.axis,
    capacity: def.capacity,
    refillPerSec: def.refillPerSec,
    tokens: def.capacity - borrowed,
    borrowed,
    ...(def.windowMs === undefined ? {} : windowSnapshot(state, def.windowMs, now)),
    ...(held ? { heldUntilMs: state.hold + epochOffset } : {}),
  };
}
