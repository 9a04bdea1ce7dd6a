import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { getVenueSpec } from '@core/exchange-specs';
import { ManualClock } from '@core/rate-limit-conformance';
import { startVenueEmulator, styleFor, type VenueEmulator } from '@core/venue-emulator';
import { createPacedFetch } from '../src/index.js';

interface Lane {
  readonly path: string;
  readonly method: string;
  readonly body?: string;
}

const LANES: Readonly<Record<string, readonly Lane[]>> = {
  'binance-spot': [
    { method: 'GET', path: '/api/v3/depth?symbol=BTCUSDT&limit=500' },
    { method: 'POST', path: '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1' },
  ],
  okx: [
    { method: 'GET', path: '/api/v5/market/books?instId=BTC-USDT' },
    { method: 'POST', path: '/api/v5/trade/order', body: JSON.stringify({ instId: 'BTC-USDT', side: 'buy', sz: '1' }) },
  ],
  bybit: [
    { method: 'POST', path: '/v5/order/create', body: JSON.stringify({ category: 'linear', symbol: 'BTCUSDT' }) },
    { method: 'GET', path: '/v5/market/tickers?category=spot' },
  ],
  kucoin: [
    { method: 'GET', path: '/api/v1/market/allTickers' },
    { method: 'GET', path: '/api/v1/fills' },
  ],
  kraken: [
    { method: 'POST', path: '/0/private/Balance', body: 'nonce=1' },
    { method: 'POST', path: '/0/private/AddOrder', body: 'nonce=1&pair=XBTUSD' },
  ],
};

const SIMULATED_MS = 32_000;
const STEP_MS = 40;
let venue: VenueEmulator | undefined;
let limiter: RateLimiter | undefined;

afterEach(async () => {
  await venue?.close();
  await limiter?.close();
  venue = undefined;
  limiter = undefined;
});

/** Lets the loopback HTTP exchanges in flight complete (I/O only; time is the manual clock's). */
const ioTurn = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

describe('paced fetch against the emulated venue, on one manual clock (time moves only when the test moves it)', () => {
  for (const [id, lanes] of Object.entries(LANES)) {
    it(`${id}: ${SIMULATED_MS / 1000} s of saturation by 2 workers per lane and 2 keys: no violation`, { timeout: 120_000 }, async () => {
      const spec = getVenueSpec(id);
      // The epoch-scale start puts Binance's aligned windows at realistic boundaries.
      const clock = new ManualClock(1_767_225_600_000 + 17_000);
      limiter = createDefaultRateLimiter({ clock });
      venue = await startVenueEmulator({ spec, clock });
      const header = styleFor(spec).apiKeyHeader;
      // Requests reach the emulator before the clock moves on: a send arrives at most one step (40 ms)
      // after its send time, within the 50 ms jitter allowance the limits are derived with.
      let inFlight = 0;
      const tracked: typeof fetch = async (input, init) => {
        inFlight++;
        try {
          return await fetch(input, init);
        } finally {
          inFlight--;
        }
      };
      const drain = async (): Promise<void> => {
        await ioTurn();
        while (inFlight > 0) await ioTurn();
      };
      let stopped = false;
      const workers: Promise<void>[] = [];
      for (const key of ['key-1', 'key-2']) {
        const paced = createPacedFetch({ venue: spec, identity: { credential: key }, limiter, clock, maxWaitMs: 600_000, fetch: tracked });
        for (const lane of lanes) {
          for (let w = 0; w < 2; w++) {
            workers.push(
              (async () => {
                while (!stopped) {
                  const res = await paced(`${venue!.url}${lane.path}`, {
                    method: lane.method,
                    headers: { [header]: key },
                    ...(lane.body === undefined ? {} : { body: lane.body }),
                  });
                  await res.arrayBuffer();
                }
              })(),
            );
          }
        }
      }
      for (let t = 0; t < SIMULATED_MS; t += STEP_MS) {
        await clock.advance(STEP_MS);
        await drain();
      }
      stopped = true;
      // Let the last waiters through so every worker ends.
      while (clock.pendingTimers > 0) {
        await clock.advance(1_000);
        await ioTurn();
      }
      await Promise.all(workers);
      const stats = venue.stats();
      console.log(
        `${id}: admitted ${stats.admitted}, violations ${stats.violations}\n` +
          stats.buckets
            .map(
              (b) =>
                `  ${b.axis.padEnd(24)} ${String(b.credentialHash ?? 'IP').padEnd(13)} peak ${((b.peakUsed / b.limit) * 100).toFixed(1)}%  utilization ${b.utilization === null ? 'n/a' : `${(b.utilization * 100).toFixed(1)}%`}`,
            )
            .join('\n'),
      );
      expect(stats.admitted).toBeGreaterThan(0);
      expect(stats.violations).toBe(0);
      expect(stats.refusedWhileBanned).toBe(0);
    });
  }
});
