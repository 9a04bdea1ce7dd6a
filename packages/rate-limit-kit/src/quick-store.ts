import type { Definition } from './definition-table.js';
import type { ResolvedKey } from './key-resolver.js';
import type { Admission } from './limiter-store.js';

/** Where a quick store leaves the time of its decision, or the admission its general path answered. */
export interface QuickAnswer {
  now: number;
  slow: Admission | undefined;
}

/**
 * What a synchronous store may offer besides `LimiterStore`: the commonest admission answered without the
 * general path's answer objects. `admitQuick(n, keys, defs, costs, out)` must decide and write exactly as
 * `admit(n, keys, defs, costs, 'probe', undefined, 1, 0)` would: it answers 0 when admitted now (`out.now` the
 * decision's time), the wait when the call must wait (nothing changed), or NaN when `out.slow` holds the
 * admission.
 */
export interface QuickStore {
  admitQuick(n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], out: QuickAnswer): number;
  /** `admitQuick` of one bucket, given as its key, definition and cost (`out.slow` needs the call's scratch arrays filled). */
  admitQuickOne(key: ResolvedKey, def: Definition, cost: number, out: QuickAnswer): number;
}

/** The quick path's class: normal (1), every bucket leaving no share free (`free`, the call's; or each bucket's in `parts`). */
export function quickClass(cls: number, free: number, parts: { readonly frees: readonly number[]; readonly perBucket: boolean }, n: number): boolean {
  if (cls !== 1) return false;
  if (!parts.perBucket) return free === 0;
  for (let i = 0; i < n; i++) if (parts.frees[i] !== 0) return false;
  return true;
}

/**
 * A booking (`admit(…, 'book', budget, 1, 0)`) of the quick path's class tried on the quick path first: a booking
 * admitted now writes what a probe admitted now writes, and a probe that must wait writes nothing. The admission
 * when the probe's answer is the booking's too (admitted now, a bucket that can never pay, a failure), or
 * `undefined` when it must wait (nothing written: the booking is the general path's).
 */
export function quickBooking(
  quick: QuickStore,
  n: number,
  parts: { readonly keys: readonly ResolvedKey[]; readonly defs: readonly (Definition | null)[]; readonly costs: readonly number[] },
  out: QuickAnswer,
): Admission | undefined {
  const w = quick.admitQuick(n, parts.keys, parts.defs as Definition[], parts.costs, out);
  if (w === 0) return { status: 'admitted', sendAt: out.now, now: out.now };
  if (w > 0) return undefined;
  const a = out.slow as Admission;
  out.slow = undefined;
  return a.status === 'wait' ? undefined : a;
}
