import { addUp, isUnpayable, type BucketDefinition, HORIZON_MS } from './gcra.js';
import { NORMAL, classSendTime, lineOf, windowLineOf, type ClassState } from './classes.js';
import { windowSendTime, type WindowDefinition } from './window.js';

/** The outcome of {@link planAdmission}: the common send time, or which bucket can never pay. */
export interface AdmissionPlan {
  /** The common send time (RL-M4, on the clock: not relative); `Infinity` when a bucket can never pay. */
  sendAt: number;
  /** The index of the first bucket that can never pay (RL-L4, RL-A7, RL-V3), or -1. */
  unpayable: number;
}

/** A definition the plan understands: a token bucket, or a window limit (`window` set). */
export type PlanDefinition = BucketDefinition & { readonly window?: WindowDefinition | undefined };

/**
 * The whole admission rule of one call over `n` buckets (RL-M1, RL-M4, RL-V4): the common send time is
 * the earliest time at which every bucket can pay. A token bucket can pay at any time from its own send
 * time on, so the common time starts at the largest of those; a window limit can pay only where every
 * window containing the send stays within its limit (bookings ahead may close some times), so each window
 * bucket moves the common time to its earliest fitting time from there, until none moves it. A bucket
 * that can never pay (a quota without enough left, a cost above a window, a wait beyond the horizon)
 * makes the call unpayable. Costs of 0 are skipped (RL-A2). The states must already be under the call's
 * definitions: `xs[i]` for a token bucket, `windows[i]` (the entries; omit `windows` when there are none)
 * for a window limit. Token buckets are planned relative to now (gcra.ts, "Times relative to now"): `xs[i]`
 * is `x − now` and a class state's times are relative too; a window limit's entries are on the clock. The
 * common time leaves the token buckets as `now + s`, rounded up (`addUp`), so a charge as of `sendAt − now`
 * is never earlier than a token bucket's own send time. A call's class (RL-Q1..RL-Q5) spends each bucket only up to its line (`free`, the
 * share its class leaves free, 0 for critical and by default; one per bucket when checks name their own
 * reserves, RL-Q6), and token buckets with bookings ahead are
 * planned with their settled class states (`states[i]`, see classes.ts); without them, plain GCRA.
 */
export function planAdmission(
  plan: AdmissionPlan,
  n: number,
  xs: ArrayLike<number>,
  defs: ArrayLike<PlanDefinition>,
  costs: ArrayLike<number>,
  now: number,
  windows: ArrayLike<readonly number[] | undefined> = [],
  states: ArrayLike<ClassState | undefined> = [],
  cls: number = NORMAL,
  free: number | ArrayLike<number> = 0,
): void {
  const one = typeof free === 'number';
  let r = 0;
  let anyWindow = false;
  for (let i = 0; i < n; i++) {
    const cost = costs[i] as number;
    if (cost === 0) continue;
    const def = defs[i] as PlanDefinition;
    if (def.window !== undefined) {
      anyWindow = true;
      continue;
    }
    const si = classSendTime(xs[i] as number, states[i], def, lineOf(def, one ? free : (free[i] as number), cost), cls, cost, 0);
    if (isUnpayable(si, 0)) return unpayable(plan, i);
    if (si > r) r = si;
  }
  let s = r > 0 ? addUp(now, r) : now;
  for (let moved = anyWindow; moved; ) {
    moved = false;
    for (let i = 0; i < n; i++) {
      const def = defs[i] as PlanDefinition;
      const cost = costs[i] as number;
      if (def.window === undefined || cost === 0) continue;
      const line = windowLineOf(def.window.perWindow, one ? free : (free[i] as number), cost);
      const si = windowSendTime(windows[i] ?? [], def.window, cost, s, line);
      if (!(si - now <= HORIZON_MS)) return unpayable(plan, i);
      if (si > s) {
        s = si;
        moved = true;
      }
    }
  }
  plan.sendAt = s;
  plan.unpayable = -1;
}

function unpayable(plan: AdmissionPlan, i: number): void {
  plan.sendAt = Infinity;
  plan.unpayable = i;
}
