import { LEDGER_HEADER, MAX_AMOUNT, slotOf, windowCharge, windowExpiry, windowSendTime, type WindowDefinition } from '@core/rate-limit-kit';

/** Header positions of a slot ledger the quick charge reads (the kit's window.ts: sum, the fixed window's end). */
const AT_SUM = 0;
const AT_OTHERS_SLOT = 2;
const AT_OTHERS_UNTIL = 3;
const AT_END_MAX = 7;
const NONE = -1e300;

/**
 * The window arithmetic of the quick admission (a probe of class normal that keeps no share free, so the line is
 * `perWindow`): the kit's, except that a charge at now changes the ledger in place when that is the kit's charge
 * exactly (no slot to forget, no fixed window to roll over, the send in the last slot or after it). A quick
 * admission books nothing, so no booking holds the ledger it replaced.
 */
export class WindowQuick {
  sendTime(e: readonly number[], w: WindowDefinition, cost: number, from: number): number {
    return windowSendTime(e, w, cost, from);
  }

  expiry(e: readonly number[], w: WindowDefinition): number {
    return windowExpiry(e, w);
  }

  charge(e: number[], w: WindowDefinition, cost: number, now: number): number[] {
    const n = e.length;
    if (n < LEDGER_HEADER + 2 || now >= (e[AT_END_MAX] as number)) return windowCharge(e, w, cost, now, now);
    const j = slotOf(now, w);
    // nothing to forget: the oldest slot still in a run with j
    if ((e[LEDGER_HEADER] as number) <= j - w.M) return windowCharge(e, w, cost, now, now);
    const others = e[AT_OTHERS_SLOT] as number;
    if (others !== NONE && (others <= j - w.M || now >= (e[AT_OTHERS_UNTIL] as number))) return windowCharge(e, w, cost, now, now);
    const last = e[n - 2] as number;
    if (last > j) return windowCharge(e, w, cost, now, now);
    if (last === j) e[n - 1] = Math.min((e[n - 1] as number) + cost, MAX_AMOUNT);
    else e.push(j, cost);
    e[AT_SUM] = Math.min((e[AT_SUM] as number) + cost, MAX_AMOUNT);
    return e;
  }
}
