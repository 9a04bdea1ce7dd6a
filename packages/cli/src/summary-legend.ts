import { DEFAULT_WINDOW_BURST } from '@core/paced-fetch';
import type { VenueSpec } from '@core/exchange-specs';

/** What each count of the summary's first line means, printed under it. */
export const COUNTS_LEGEND = [
  '  received: requests that reached the venue; admitted: those inside every limit; refused: those the venue',
  '  turned away (over a limit, or while banned: the limiter let too much through); bans: penalty holds the venue',
  '  imposed; retries: requests sent again after a refusal; not sent: requests whose wait for room was longer than',
  "  their budget, given up before sending; store errors: admissions the limiter's store did not answer in time",
  '  (nothing was sent for them)',
].join('\n');

/** What the per-limit table's columns mean, printed under it; `limit` names the limit column (`documented limit`, ...). */
export function tableLegend(limit: string): string {
  return [
    `  peak: the highest count the venue's own counter reached, over the ${limit}; utilization: cost admitted per complete`,
    `  window / the ${limit}, n/a while no window completed (token buckets: cost admitted / (capacity + refill × time),`,
    '  n/a before one refill period)',
  ].join('\n');
}

/** Whether the venue charges a request by its outcome (Binance spot's orders): only such a venue's emulator fails orders. */
export function chargesOnOutcome(spec: VenueSpec): boolean {
  return spec.endpoints.some((e) => [...e.costs, ...(e.publicCosts ?? [])].some((c) => (c.charge ?? 'always') !== 'always'));
}

/**
 * The line on orders the emulated venue failed on purpose (`--fail-orders`), or `undefined` where it
 * fails none: a venue that charges every request alike has nothing to fail.
 */
export function failedOrdersLine(spec: VenueSpec, failOrders: number, failed: number): string | undefined {
  if (!chargesOnOutcome(spec) || (failOrders <= 0 && failed === 0)) return undefined;
  return `  orders the venue failed (--fail-orders ${failOrders}): ${failed}, on purpose; ${spec.venue} charges an order's weight only when it fails, and every limit below is counted as the venue counts it`;
}

/**
 * Why a burst on a window limit takes a while: the paced client lets only a share of a window out at
 * once and the rest at the window's own average rate (a burst of 27 % of Binance's minute weight, 1,620
 * of 6,000, takes about 13 s: 300 at once, the rest at 100 a second).
 */
export const PACING_NOTE = [
  `  pacing: a window limit lets ${DEFAULT_WINDOW_BURST * 100} % of itself out at once and the rest at its average rate, so a burst waits:`,
  "  a quarter of a window takes about a quarter of the window to send (27 % of Binance's minute weight, about 13 s)",
].join('\n');
