import type { BucketCheck } from '@core/rate-limit-contract';
import { bucketMaxCost, type VenueCharge, type VenueSpec } from '@core/exchange-specs';

/** The default share of a window limit that may go out at once (`PacedFetchOptions.windowBurst`). */
export const DEFAULT_WINDOW_BURST = 0.1;

/** The axis of a window limit's pacing bucket. */
export function paceAxis(axis: string | undefined): string {
  return `${axis ?? 'request'}/pace`;
}

/**
 * The checks of a request with a pacing token bucket beside each window limit: `burst` of the window's
 * limit (at least the bucket's largest cost) may go out at once, the rest at the window's own average
 * rate (`perWindow` per `windowMs`). The window limit still decides how much goes out per window (over
 * a window the pacing bucket allows more than the limit), so the pacing costs no utilization; it keeps
 * a whole window from leaving in one burst, which the venue, the network or this process's own event
 * loop would take longer than the jitter allowance to deliver (the venue counts a send when it
 * arrives). `burst: false` leaves the checks as they are.
 *
 * @throws RangeError when `burst` is neither false nor in (0, 1].
 */
export function withWindowPacing(spec: VenueSpec, checks: readonly BucketCheck[], charges: readonly VenueCharge[], burst: number | false): readonly BucketCheck[] {
  if (burst === false) return checks;
  if (!(Number.isFinite(burst) && burst > 0 && burst <= 1)) throw new RangeError(`paced fetch: windowBurst must be false or a number in (0, 1], got ${String(burst)}`);
  let out: BucketCheck[] | undefined;
  for (const c of checks) {
    const l = c.limit;
    if (l === null || !('perWindow' in l)) continue;
    const charge = charges.find((x) => x.key.credential === c.key.credential && (x.key.axis ?? 'request') === (c.key.axis ?? 'request'));
    const largest = charge === undefined ? c.cost : bucketMaxCost(spec, charge.bucket);
    const capacity = Math.max(burst * l.perWindow, largest, c.cost);
    (out ??= [...checks]).push({ key: { ...c.key, axis: paceAxis(c.key.axis) }, limit: { capacity, refillPerSec: l.perWindow / (l.windowMs / 1000) }, cost: c.cost });
  }
  return out ?? checks;
}

