import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import type { RateLimiter } from '@core/rate-limit-contract';
import { paceExchange } from '../src/index.js';
import { startCcxtVenue, type EmulatedCcxtVenue } from './support/emulated-venue.js';
import { makeExchange } from './support/workload.mjs';

let venue: EmulatedCcxtVenue | undefined;
let limiter: RateLimiter | undefined;
afterEach(async () => {
  await venue?.close();
  await limiter?.close();
  venue = undefined;
  limiter = undefined;
});

describe('a public request is not signed again when it is sent', () => {
  it('eight order books read at once: eight signatures (ccxt builds each URL once), none made again at the send', async () => {
    venue = await startCcxtVenue('binance');
    limiter = createDefaultRateLimiter();
    const { ex } = makeExchange('binance', venue.baseBySpec);
    let signs = 0;
    const sign = ex.sign.bind(ex);
    ex.sign = (...args: Parameters<typeof ex.sign>) => {
      signs++;
      return sign(...args);
    };
    paceExchange(ex, { limiter });
    await ex.loadMarkets();
    const before = signs;
    const books = await Promise.all(Array.from({ length: 8 }, () => ex.fetchOrderBook('BTC/USDT')));
    expect(books).toHaveLength(8);
    expect(signs - before).toBe(8);
  });
});
