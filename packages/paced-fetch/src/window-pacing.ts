import type { BucketCheck, Reserve } from '@core/rate-limit-contract';
import { bucketMaxCost, type VenueCharge, type VenueSpec } from '@core/exchange-specs';

/**
 * The default share of a window limit that may go out at once (`PacedFetchOptions.windowBurst`): 5 %,
 * no more than a window keeps for higher classes (exchange-specs' `DEFAULT_WINDOW_RESERVE`). Sends still
 * on their way when a later request leaves count, in that request's usage report, as what another client
 * may have spent, for a whole window; a burst of a tenth of Binance spot's minute (600 weight) showed up
 * so, filled the room kept for cancels and held them for seconds. Less (2 %) starved market data on a
 * store shared by 4 processes (Bybit's IP window at 75 % instead of 93 %). At least the bucket's largest
 * cost goes at once.
 */
export const DEFAULT_WINDOW_BURST = 0.05;

/** The axis of a window limit's pacing bucket. */
export function paceAxis(axis: string | undefined): string {
  return `${axis ?? 'request'}/pace`;
}

/**
 * The checks of a request with a pacing token bucket beside each window limit: `burst` of the window's
 * limit (no more than its reserve for bulk keeps free, and at least the bucket's largest cost) may go
 * out at once, the rest at the window's own average rate (`perWindow` per `windowMs`). The window limit still decides how much goes out per window (over
 * a window the pacing bucket allows more than the limit), so the pacing costs no utilization; it keeps
 * a whole window from leaving in one burst, which the venue, the network or this process's own event
 * loop would take longer than the jitter allowance to deliver (the venue counts a send when it
 * arrives). `burst: false` leaves the checks as they are.
 *
 * With classes (RL-Q4, RL-Q6), a window check's reserve (its own, else `callReserve`) is kept on its
 * pacing bucket as the same room: the pacing bucket holds `burst` plus what the window keeps free
 * (`bulk · perWindow`), and its shares keep exactly that room from the lower classes, so bulk is paced
 * as without classes while a critical call finds the window's reserve at once, not a share of a small
 * pacing bucket (which could be less than one order).
 *
 * @throws RangeError when `burst` is neither false nor in (0, 1].
 */
export function withWindowPacing(
  spec: VenueSpec,
  checks: readonly BucketCheck[],
  charges: readonly VenueCharge[],
  burst: number | false,
  callReserve?: Reserve,
): readonly BucketCheck[] {
  if (burst === false) return checks;
  if (!(Number.isFinite(burst) && burst > 0 && burst <= 1))
    throw new RangeError(`paced fetch: windowBurst must be false or a number in (0, 1], got ${String(burst)}`);
  let out: BucketCheck[] | undefined;
  for (const c of checks) {
    const l = c.limit;
    if (l === null || !('perWindow' in l)) continue;
    const charge = charges.find((x) => x.key.credential === c.key.credential && (x.key.axis ?? 'request') === (c.key.axis ?? 'request'));
    const largest = charge === undefined ? c.cost : bucketMaxCost(spec, charge.bucket);
    const key = { ...c.key, axis: paceAxis(c.key.axis) };
    const refillPerSec = l.perWindow / (l.windowMs / 1000);
    const r = c.reserve ?? callReserve;
    const bulk = r?.bulk ?? 0;
    const normal = r?.normal ?? 0;
    // no more at once than the window keeps free for higher classes: a burst still on its way counts in
    // the next usage report as others' spending, and would take that room
    const base = Math.max((bulk > 0 ? Math.min(burst, bulk) : burst) * l.perWindow, largest, c.cost);
    if (r === undefined || !(bulk > 0 && normal <= bulk)) {
      // no room kept on the window (or a reserve the limiter will refuse, as it refuses the window's): plain pacing
      const pace: BucketCheck = { key, limit: { capacity: base, refillPerSec }, cost: c.cost };
      (out ??= [...checks]).push(r === undefined ? pace : { ...pace, reserve: r });
      continue;
    }
    const capacity = base + bulk * l.perWindow;
    const share = (room: number): number => Math.min(room / capacity, 0.999999);
    (out ??= [...checks]).push({
      key,
      limit: { capacity, refillPerSec },
      cost: c.cost,
      reserve: { normal: share(normal * l.perWindow), bulk: share(bulk * l.perWindow) },
    });
  }
  return out ?? checks;
}
