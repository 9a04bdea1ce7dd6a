// The demo's summary explains its terms where it prints them, and prints nothing that does not apply to the venue.
import { describe, expect, it } from 'vitest';
import { getVenueSpec } from '@core/exchange-specs';
import { DEMO_HELP } from '../src/help.js';
import { COUNTS_LEGEND, PACING_NOTE, chargesOnOutcome, failedOrdersLine, tableLegend } from '../src/summary-legend.js';

describe("the demo's summary terms", () => {
  it('every count of the first line and every column of the table is explained, in the output and in --help', () => {
    for (const term of ['received', 'admitted', 'refused', 'bans', 'retries', 'not sent', 'store errors']) {
      expect(COUNTS_LEGEND).toContain(`${term}:`);
      expect(DEMO_HELP).toContain(term);
    }
    for (const term of ['peak', 'utilization']) {
      expect(tableLegend('documented limit')).toContain(`${term}:`);
      expect(DEMO_HELP).toContain(term);
    }
  });

  it('the failed orders line only where the venue charges by outcome (Binance spot), never on OKX', () => {
    expect(chargesOnOutcome(getVenueSpec('binance-spot'))).toBe(true);
    for (const id of ['okx', 'bybit', 'kucoin', 'kraken']) {
      expect(chargesOnOutcome(getVenueSpec(id))).toBe(false);
      expect(failedOrdersLine(getVenueSpec(id), 0.05, 0)).toBeUndefined();
    }
    expect(failedOrdersLine(getVenueSpec('binance-spot'), 0.05, 3)).toContain('(--fail-orders 0.05): 3');
    expect(failedOrdersLine(getVenueSpec('binance-spot'), 0, 0)).toBeUndefined();
  });

  it("says why a burst on a window limit waits: 27 % of Binance's minute takes about 13 s", () => {
    // 6000 per minute: 5 % (300) at once, the rest at 100 a second: (1620 - 300) / 100 = 13.2 s
    expect(PACING_NOTE).toContain('5 %');
    expect(PACING_NOTE).toContain('about 13 s');
    expect(DEMO_HELP).toContain('about 13 s');
  });
});
