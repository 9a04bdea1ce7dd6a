import type { Deviation, ErrorRule } from '../venue-spec.js';

/*
 * Why the Binance specs wait what they wait where Binance states no duration (audit of 2026-12-07), kept apart so
 * the specs stay within their length: each text becomes a `conservative` deviation of its rule's fixed or
 * window-end wait (the Retry-After header, when sent, is read first).
 */
const WAITS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'binance-spot': {
    'too-many-orders':
      'The quote says to stop "until the affected rate limit interval expires"; the message this rule reads names no interval ("Too many new orders."), so orders are held to the end of the 10 s interval, the shorter spot order-count interval (a refusal naming the day is held to 00:00 UTC by the rule before)',
    'too-much-weight': 'The message names its interval only as "%s"; the spot request weight limit is per minute: without Retry-After the weight is held to the end of the minute',
    'too-many-requests': 'The quote says to back off, with no duration: without Retry-After both IP buckets are held to the end of the 5-minute interval, the longest IP window (raw requests per 5 minutes), since sending again sooner risks the 418 ban',
  },
  'binance-usdm': {
    'too-many-orders-10s': "The message names the 10 s interval; Binance states no wait: without Retry-After the account's orders are held one whole interval, 10 s",
    'too-many-orders': "Binance states no wait: without Retry-After the account's orders are held one whole minute, the longest order interval (the message may name none)",
    'too-many-requests': 'The quote says to back off, with no duration: without Retry-After the IP weight is held one whole minute, the interval of the weight limit',
  },
};

/** The rules of a Binance spec, each wait Binance states no duration for explained as a deviation of its rule. */
export function explainWaits(spec: string, rules: readonly ErrorRule[]): ErrorRule[] {
  return rules.map((r) => {
    const text = WAITS[spec]?.[r.id];
    if (text === undefined) return r;
    const values = (r.wait ?? []).flatMap((w) => (w.from === 'fixed' ? [w.ms] : w.from === 'window-end' ? [w.windowMs] : []));
    const deviations: Deviation[] = values.map((value) => ({ value, reason: 'conservative', text }));
    return { ...r, provenance: { ...r.provenance, deviations: [...(r.provenance.deviations ?? []), ...deviations] } };
  });
}

/** USDⓈ-M's 10-second order limits per volume tier: a third of the tier's minute limit, rounded down. */
export const USDM_ORDERS_10S_THIRDS: readonly Deviation[] = (
  [
    [5000, '600,000,000'],
    [6000, '1,000,000,000'],
    [8000, '2,500,000,000'],
    [10000, '5,000,000,000'],
    [12000, '12,500,000,000'],
  ] as const
).map(([minute, row]) => ({
  value: Math.floor(minute / 3),
  reason: 'formula',
  text: `"Any adjusted order limit will be ⅓ of the minute limit": ⅓ of ${minute.toLocaleString('en-US')} (the ${row} row's order rate limit per minute), rounded down`,
}));
