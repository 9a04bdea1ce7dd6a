import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import type { RateLimiter } from '@core/rate-limit-contract';
import { startCcxtVenue, type EmulatedCcxtVenue } from './support/emulated-venue.js';
import { makeExchange, runWorkload } from './support/workload.mjs';

// Binance checks a signed request's timestamp against its recvWindow (-1021 outside it), and so does the
// emulator. Orders that wait seconds for Binance's order count must still arrive inside a 500 ms recvWindow:
// the adapter signs each request again when its send time comes. Time is a manual clock shared by the
// emulator, the limiter, the paced fetches and ccxt's own timestamps; it moves only when the test moves it.
const STEP_MS = 40;
const SIMULATED_MS = 12_000;
const RECV_WINDOW_MS = 500;

let venue: EmulatedCcxtVenue | undefined;
let limiter: RateLimiter | undefined;
afterEach(async () => {
  await venue?.close();
  await limiter?.close();
  venue = undefined;
  limiter = undefined;
});

const ioTurn = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

async function ordersThatWait(
  signAtSend: boolean,
): Promise<{ rejected: number; violations: number; longestWaitMs: number; orders: number; errors: Record<string, number> }> {
  const clock = new ManualClock(1_767_225_600_000 + 17_000);
  venue = await startCcxtVenue('binance', { clock });
  limiter = createDefaultRateLimiter({ clock });
  let inFlight = 0;
  const tracked: typeof fetch = async (input, init) => {
    inFlight++;
    try {
      return await fetch(input, init);
    } finally {
      inFlight--;
    }
  };
  let longestWaitMs = 0;
  const { ex, setup } = makeExchange('binance', venue.baseBySpec, {
    fetchImplementation: tracked,
    options: { recvWindow: RECV_WINDOW_MS },
    pace: {
      limiter,
      signAtSend,
      maxWaitMs: 600_000,
      pacing: { clock },
      onAttempt: (e) => {
        if (e.request.path === '/api/v3/order') longestWaitMs = Math.max(longestWaitMs, e.waitedMs);
      },
    },
  });
  (ex as unknown as { milliseconds: () => number }).milliseconds = () => clock.now();
  const moving = async (p: Promise<unknown>): Promise<void> => {
    let settled = false;
    void p.finally(() => {
      settled = true;
    });
    while (!settled) {
      await clock.advance(STEP_MS);
      await ioTurn();
      while (inFlight > 0) await ioTurn();
    }
    await p;
  };
  await moving(ex.loadMarkets());
  const end = clock.now() + SIMULATED_MS;
  const run = runWorkload(ex, setup, { workers: 16, stop: () => clock.now() >= end, calls: ['createOrder'] });
  await moving(run);
  const counts = await run;
  const totals = venue.totals();
  return { rejected: totals.rejected, violations: totals.violations, longestWaitMs, orders: counts.calls, errors: counts.errors };
}

describe('waiting happens before signing (Binance -1021)', () => {
  it('16 order workers saturating the order count, recvWindow 500 ms: orders wait seconds, none is outside its recvWindow', { timeout: 120_000 }, async () => {
    const r = await ordersThatWait(true);
    console.log(`signed at send: ${r.orders} orders, longest wait ${r.longestWaitMs} ms (simulated), -1021 ${r.rejected}`);
    expect(r.longestWaitMs).toBeGreaterThan(2 * RECV_WINDOW_MS);
    expect(r.errors).toEqual({});
    expect(r.rejected).toBe(0);
    expect(r.violations).toBe(0);
  });

  it('the same with signAtSend: false gets -1021 (InvalidNonce in ccxt): the test sees what it guards against', { timeout: 120_000 }, async () => {
    const r = await ordersThatWait(false);
    console.log(`signed before the wait: ${r.orders} orders, -1021 ${r.rejected}, errors ${JSON.stringify(r.errors)}`);
    expect(r.rejected).toBeGreaterThan(0);
    expect(r.errors['InvalidNonce'] ?? 0).toBeGreaterThan(0);
    expect(r.violations).toBe(0);
  });
});
