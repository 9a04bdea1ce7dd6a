import { afterEach, describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueRequest, type VenueSpec } from '@core/exchange-specs';
import { startVenueEmulator, type VenueEmulator } from '../src/index.js';
import { ManualEpochClock } from './manual-epoch-clock.js';

let venue: VenueEmulator | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

async function send(r: VenueRequest, headers: Record<string, string> = {}): Promise<Answer> {
  const qs = new URLSearchParams(r.query ?? {}).toString();
  const res = await fetch(`${venue!.url}${r.path}${qs === '' ? '' : `?${qs}`}`, {
    method: r.method,
    headers,
    ...(r.body === undefined ? {} : { body: typeof r.body === 'string' ? r.body : JSON.stringify(r.body) }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // plain-text answers (Bybit's 403) stay text
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body };
}

async function sendTimes(n: number, r: VenueRequest, headers: Record<string, string> = {}): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await send(r, headers));
  return out;
}

function verdictOf(spec: VenueSpec, r: VenueRequest, a: Answer, credential: string | null) {
  return interpretResponse(spec, r, a, { credential });
}

describe('venue refusals, as each venue words them (and as exchange-specs reads them)', () => {
  it('OKX: 40 books per 2 s per IP, then code 50011 inside an HTTP 200 body', async () => {
    const spec = getVenueSpec('okx');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const books: VenueRequest = { method: 'GET', path: '/api/v5/market/books', query: { instId: 'BTC-USDT' } };
    const ok = await sendTimes(40, books);
    expect(ok.every((a) => a.status === 200 && (a.body as { code: string }).code === '0')).toBe(true);
    const refused = await send(books);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ code: '50011' });
    expect(verdictOf(spec, books, refused, null)).toMatchObject({ verdict: 'rate_limited', rule: 'rate-limit' });
    clock.advance(2_000); // the sliding window has moved past the first 40
    expect((await send(books)).body).toMatchObject({ code: '0' });
    expect(venue.stats()).toMatchObject({ violations: 1, admitted: 41 });
  });

  it('OKX: orders per account and instrument, 60 per 2 s, each key its own budget', async () => {
    const spec = getVenueSpec('okx');
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(1_700_000_000_000) });
    const order: VenueRequest = {
      method: 'POST',
      path: '/api/v5/trade/order',
      body: { instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '1', px: '1' },
    };
    await sendTimes(60, order, { 'ok-access-key': 'a' });
    expect((await send(order, { 'ok-access-key': 'b' })).body).toMatchObject({ code: '0' });
    expect((await send(order, { 'ok-access-key': 'a' })).body).toMatchObject({ code: '50011' });
    const other: VenueRequest = { ...order, body: { ...(order.body as object), instId: 'ETH-USDT' } };
    expect((await send(other, { 'ok-access-key': 'a' })).body).toMatchObject({ code: '0' });
  });

  it('Bybit: 10 orders per second per account and category, then retCode 10006 with the X-Bapi-Limit headers', async () => {
    const spec = getVenueSpec('bybit');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const order: VenueRequest = {
      method: 'POST',
      path: '/v5/order/create',
      body: { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '1', price: '1' },
    };
    const ok = await sendTimes(10, order, { 'x-bapi-api-key': 'k' });
    expect(ok[9]?.headers).toMatchObject({ 'x-bapi-limit': '10', 'x-bapi-limit-status': '0', 'x-bapi-limit-reset-timestamp': String(1_700_000_001_000) });
    const refused = await send(order, { 'x-bapi-api-key': 'k' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ retCode: 10006 });
    const fb = verdictOf(spec, order, refused, 'k');
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'too-many-visits', retryAfterMs: 1_000 });
    expect(venue.stats().bans).toBe(0);
  });

  it('Bybit: over 600 requests in 5 s from one IP is HTTP 403 "access too frequent" and a 10-minute stop', async () => {
    const spec = getVenueSpec('bybit');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const tickers: VenueRequest = { method: 'GET', path: '/v5/market/tickers', query: { category: 'spot' } };
    const ok = await sendTimes(600, tickers);
    expect(ok.every((a) => a.status === 200)).toBe(true);
    const refused = await send(tickers);
    expect(refused.status).toBe(403);
    expect(refused.body).toBe('access too frequent');
    expect(verdictOf(spec, tickers, refused, null)).toMatchObject({ verdict: 'banned', retryAfterMs: 600_000 });
    clock.advance(5_000); // the window is free again, but the address is stopped
    expect((await send(tickers)).status).toBe(403);
    clock.advance(600_000);
    expect((await send(tickers)).status).toBe(200);
    expect(venue.stats()).toMatchObject({ violations: 1, bans: 1, refusedWhileBanned: 1 });
  });

  it('KuCoin: the public pool, 2000 weight per 30 s anchored at the first request, then 429000 with gw-ratelimit headers', async () => {
    const spec = getVenueSpec('kucoin');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const all: VenueRequest = { method: 'GET', path: '/api/v1/market/allTickers' };
    const first = await send(all);
    expect(first.headers).toMatchObject({ 'gw-ratelimit-limit': '2000', 'gw-ratelimit-remaining': '1985', 'gw-ratelimit-reset': '30000' });
    clock.advance(10_000);
    await sendTimes(132, all); // 133 x 15 = 1995
    const refused = await send(all);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: '429000' });
    expect(refused.headers['gw-ratelimit-reset']).toBe('20000');
    expect(verdictOf(spec, all, refused, null)).toMatchObject({ verdict: 'rate_limited', rule: 'quota-exceeded', retryAfterMs: 20_000 });
    clock.advance(20_000); // the window anchored at the first request ends
    expect((await send(all)).status).toBe(200);
  });

  it('Kraken: the per-key counter (15, decaying 0.33/s) answers EAPI:Rate limit exceeded in a 200 body', async () => {
    const spec = getVenueSpec('kraken');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const balance: VenueRequest = { method: 'POST', path: '/0/private/Balance', body: 'nonce=1' };
    const ok = await sendTimes(15, balance, { 'api-key': 'k' });
    expect(ok.every((a) => a.status === 200 && (a.body as { error: unknown[] }).error.length === 0)).toBe(true);
    const refused = await send(balance, { 'api-key': 'k' });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ error: ['EAPI:Rate limit exceeded'] });
    expect(verdictOf(spec, balance, refused, 'k')).toMatchObject({ verdict: 'rate_limited', rule: 'api-rate-limit' });
    clock.advance(3_100); // 3.1 s x 0.33/s = 1.02 decayed
    expect((await send(balance, { 'api-key': 'k' })).body).toMatchObject({ error: [] });
  });

  it('Kraken: the trading engine counter per pair answers EOrder:Rate limit exceeded', async () => {
    const spec = getVenueSpec('kraken');
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(1_700_000_000_000) });
    const add: VenueRequest = { method: 'POST', path: '/0/private/AddOrder', body: 'nonce=1&pair=XBTUSD&type=buy&ordertype=limit&volume=1&price=1' };
    await sendTimes(60, add, { 'api-key': 'k' });
    const refused = await send(add, { 'api-key': 'k' });
    expect(refused.body).toEqual({ error: ['EOrder:Rate limit exceeded'] });
    expect(verdictOf(spec, add, refused, 'k')).toMatchObject({ verdict: 'rate_limited', rule: 'order-rate-limit' });
    const usage = venue.stats().buckets.find((b) => b.axis === 'trading:XBTUSD');
    expect(usage).toMatchObject({ algorithm: 'token-bucket', limit: 60, refillPerSec: 1, admittedCost: 60, refusals: 1 });
  });
});
