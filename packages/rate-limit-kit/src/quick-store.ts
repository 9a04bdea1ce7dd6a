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
