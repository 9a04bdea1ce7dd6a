import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { getVenueSpec, resolveRequest, type Identity, type LiveLimitsRequest, type LiveLimitsResult, type VenueSpec } from '@core/exchange-specs';
import { ManualClock } from '@core/rate-limit-conformance';
import { startVenueEmulator, type EmulatorStats, type VenueEmulator } from '@core/venue-emulator';
import { createPacedFetch, type AttemptEvent } from '../src/index.js';
import { limitOf, START, withLimit } from './spec-limits.js';

const STEP_MS = 40;
let venue: VenueEmulator | undefined;
const limiters: RateLimiter[] = [];

afterEach(async () => {
  await venue?.close();
  venue = undefined;
  for (const l of limiters.splice(0)) await l.close();
});

/** Lets the loopback HTTP exchanges in flight complete (I/O only; time is the manual clock's). */
const ioTurn = (): Promise<void> => new Promise((r) => setTimeout(r, 1));

interface Lane {
  readonly method: string;
  readonly path: string;
  readonly body?: string;
}

interface Run {
  /** What the client starts with (the stored spec). */
  readonly stored: VenueSpec;
  /** What the emulated venue enforces and states. */
  readonly emulated: VenueSpec;
  readonly identity: Identity;
  readonly header: string;
  readonly accounts?: Readonly<Record<string, { uid?: string; tier?: string }>>;
  readonly lane: Lane;
  readonly seconds: number;
  readonly live: boolean;
}

/** Four workers send the lane at full speed through one paced client for `seconds` of the manual clock. */
async function saturate(run: Run): Promise<{ stats: EmulatorStats; results: LiveLimitsResult[]; stopAt: number; attempts: AttemptEvent[] }> {
  const clock = new ManualClock(START);
  const limiter = createDefaultRateLimiter({ clock });
  limiters.push(limiter);
  venue = await startVenueEmulator({ spec: run.emulated, clock, ...(run.accounts === undefined ? {} : { accounts: run.accounts }) });
  const key = run.identity.credential ?? '';
  const results: LiveLimitsResult[] = [];
  const attempts: AttemptEvent[] = [];
  const authenticate = (r: LiveLimitsRequest): LiveLimitsRequest => ({ ...r, headers: { ...r.headers, [run.header]: key } });
  // Requests reach the emulator before the clock moves on: a send arrives at most one step (40 ms)
  // after its send time, within the 50 ms jitter allowance the limits are enforced with.
  let inFlight = 0;
  const tracked: typeof fetch = async (input, init) => {
    inFlight++;
    try {
      return await fetch(input, init);
    } finally {
      inFlight--;
    }
  };
  const paced = createPacedFetch({
    venue: run.stored,
    identity: run.identity,
    limiter,
    clock,
    fetch: tracked,
    maxWaitMs: 600_000,
    onAttempt: (e) => attempts.push(e),
    ...(run.live ? { liveLimits: { authenticate }, onLiveLimits: (r: LiveLimitsResult) => results.push(r) } : {}),
  });
  let stopped = false;
  const workers: Promise<void>[] = [];
  for (let w = 0; w < 4; w++) {
    workers.push(
      (async () => {
        while (!stopped) {
          const res = await paced(`${venue!.url}${run.lane.path}`, {
            method: run.lane.method,
            headers: { [run.header]: key },
            ...(run.lane.body === undefined ? {} : { body: run.lane.body }),
          });
          await res.arrayBuffer();
        }
      })(),
    );
  }
  for (let t = 0; t < run.seconds * 1000; t += STEP_MS) {
    await clock.advance(STEP_MS);
    await ioTurn();
    while (inFlight > 0) await ioTurn();
  }
  stopped = true;
  const stopAt = clock.now();
  while (clock.pendingTimers > 0) {
    await clock.advance(1_000);
    await ioTurn();
  }
  await Promise.all(workers);
  return { stats: venue.stats(), results, stopAt, attempts };
}

/** The cost the venue admitted on one bucket instance in each window that ended before the traffic stopped. */
function perWindow(stats: EmulatorStats, bucketId: string, stopAt: number): number[] {
  const instances = stats.buckets.filter((b) => b.bucketId === bucketId);
  expect(instances, `${bucketId} instances`).toHaveLength(1);
  return instances[0]!.windows.filter((w) => w.endMs <= stopAt).map((w) => w.cost);
}

const mean = (xs: readonly number[]): number => xs.reduce((s, x) => s + x, 0) / xs.length;

const binanceOrder: Lane = { method: 'POST', path: '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1' };

describe('live limits against the emulated venue: paced by the venue number, not the stored one', () => {
  const spot = getVenueSpec('binance-spot');
  const stored = limitOf(spot, 'orders_10s');

  it('Binance spot, a lower live order count: zero violations, every 10 s window at most the live number and well used', { timeout: 120_000 }, async () => {
    const live = Math.max(5, Math.floor(stored * 0.4));
    const run = await saturate({
      stored: spot,
      emulated: withLimit(spot, 'orders_10s', live),
      identity: { credential: 'key-1' },
      header: 'x-mbx-apikey',
      lane: binanceOrder,
      seconds: 60,
      live: true,
    });
    const [result] = run.results;
    expect(result?.ok).toBe(true);
    if (result?.ok === true) {
      expect(result.sources).toEqual(['exchangeInfo', 'rateLimit/order']);
      expect(result.changes.filter((c) => c.bucket === 'orders_10s').map((c) => [c.stored, c.live])).toEqual([
        [stored, live],
        [stored, live],
      ]);
    }
    expect(run.stats.violations).toBe(0);
    expect(run.stats.refusedWhileBanned).toBe(0);
    const windows = perWindow(run.stats, 'orders_10s', run.stopAt);
    expect(windows.length).toBeGreaterThanOrEqual(5);
    expect(Math.max(...windows)).toBeLessThanOrEqual(live);
    expect(mean(windows)).toBeGreaterThanOrEqual(0.75 * live);
    // The reading went through the paced client: paced and charged like any other request.
    expect(run.attempts.slice(0, 2).map((a) => a.request.path)).toEqual(['/api/v3/exchangeInfo', '/api/v3/rateLimit/order']);
    expect(run.attempts[0]?.checks.find((c) => c.key.axis === 'request_weight')?.cost).toBe(20);
  });

  it('control: the same venue without live limits is violated (the stored number is too high for it)', { timeout: 120_000 }, async () => {
    const live = Math.max(5, Math.floor(stored * 0.4));
    const run = await saturate({
      stored: spot,
      emulated: withLimit(spot, 'orders_10s', live),
      identity: { credential: 'key-1' },
      header: 'x-mbx-apikey',
      lane: binanceOrder,
      seconds: 30,
      live: false,
    });
    expect(run.results).toEqual([]);
    expect(run.stats.violations).toBeGreaterThan(0);
  });

  it('Binance spot, a higher live order count: zero violations, and more per window than the stored number allows', { timeout: 120_000 }, async () => {
    const live = stored * 2;
    const run = await saturate({
      stored: spot,
      emulated: withLimit(spot, 'orders_10s', live),
      identity: { credential: 'key-1' },
      header: 'x-mbx-apikey',
      lane: binanceOrder,
      seconds: 40,
      live: true,
    });
    expect(run.results[0]?.ok).toBe(true);
    expect(run.stats.violations).toBe(0);
    const windows = perWindow(run.stats, 'orders_10s', run.stopAt);
    expect(windows.length).toBeGreaterThanOrEqual(3);
    expect(Math.max(...windows)).toBeLessThanOrEqual(live);
    expect(mean(windows)).toBeGreaterThan(stored);
    expect(mean(windows)).toBeGreaterThanOrEqual(0.75 * live);
  });

  it("OKX, a lower sub-account order limit (accRateLimit): zero violations, every 2 s window at most the venue's number", { timeout: 120_000 }, async () => {
    const okx = getVenueSpec('okx');
    // Below the per-instrument place-order limit, so that the sub-account limit is what paces.
    const live = 40;
    expect(live).toBeLessThan(limitOf(okx, 'trade/order'));
    const order = { instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '1', px: '1' };
    const run = await saturate({
      stored: okx,
      emulated: withLimit(okx, 'subaccount-orders', live),
      identity: { credential: 'key-1' },
      header: 'ok-access-key',
      lane: { method: 'POST', path: '/api/v5/trade/order', body: JSON.stringify(order) },
      seconds: 20,
      live: true,
    });
    const [result] = run.results;
    expect(result).toMatchObject({ ok: true, sources: ['account-rate-limit'] });
    expect(run.stats.violations).toBe(0);
    const windows = perWindow(run.stats, 'subaccount-orders', run.stopAt);
    expect(windows.length).toBeGreaterThanOrEqual(8);
    expect(Math.max(...windows)).toBeLessThanOrEqual(live);
    // Enforced as a window limit (the limiter has them): the live number itself per 2 s window.
    const liveSpec = result?.ok === true ? result.spec : okx;
    const checks = resolveRequest(liveSpec, { method: 'POST', path: '/api/v5/trade/order', body: order }, { credential: 'key-1' });
    const limit = checks.ok ? checks.checks.find((c) => c.key.axis === 'subaccount-orders')?.limit : undefined;
    if (limit === undefined || limit === null || !('perWindow' in limit)) throw new Error('no subaccount-orders window check');
    expect(limit.perWindow).toBe(live);
    expect(mean(windows)).toBeGreaterThanOrEqual(0.75 * live);
  });

  it("Bybit, a lower per-UID rate (apilimit/query): zero violations, every second at most the venue's rate", { timeout: 120_000 }, async () => {
    const bybit = getVenueSpec('bybit');
    const live = 5;
    expect(live).toBeLessThan(limitOf(bybit, 'order/create'));
    const run = await saturate({
      stored: bybit,
      emulated: withLimit(bybit, 'order/create', live),
      identity: { credential: 'key-1', uid: '290118' },
      accounts: { 'key-1': { uid: '290118' } },
      header: 'x-bapi-api-key',
      lane: {
        method: 'POST',
        path: '/v5/order/create',
        body: JSON.stringify({ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '1', price: '1' }),
      },
      seconds: 15,
      live: true,
    });
    expect(run.results[0]).toMatchObject({ ok: true, sources: ['apilimit/query'] });
    expect(run.stats.violations).toBe(0);
    const windows = perWindow(run.stats, 'order/create', run.stopAt);
    expect(windows.length).toBeGreaterThanOrEqual(12);
    expect(Math.max(...windows)).toBeLessThanOrEqual(live);
    expect(mean(windows)).toBeGreaterThanOrEqual(0.6 * live);
  });

  it("KuCoin, a higher VIP level (user-info): zero violations, and more per 30 s than the stored default tier's quota", { timeout: 120_000 }, async () => {
    const kucoin = getVenueSpec('kucoin');
    const vip0 = limitOf(kucoin, 'spot');
    const run = await saturate({
      stored: kucoin,
      emulated: kucoin,
      identity: { credential: 'key-1' },
      accounts: { 'key-1': { tier: 'vip1' } },
      header: 'kc-api-key',
      lane: { method: 'DELETE', path: '/api/v1/orders' },
      seconds: 62,
      live: true,
    });
    expect(run.results[0]).toMatchObject({ ok: true, tier: 'vip1' });
    expect(run.stats.violations).toBe(0);
    const windows = perWindow(run.stats, 'spot', run.stopAt);
    expect(windows.length).toBeGreaterThanOrEqual(2);
    expect(mean(windows)).toBeGreaterThan(vip0);
  });
});
