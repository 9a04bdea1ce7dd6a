import { afterEach, describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueRequest } from '@core/exchange-specs';
import { startVenueEmulator, styleFor, type VenueEmulator } from '../src/index.js';
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
    // not JSON
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body };
}

async function sendTimes(n: number, r: VenueRequest, headers: Record<string, string> = {}): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await send(r, headers));
  return out;
}

describe('derivatives venues refuse as they document it (and exchange-specs reads it)', () => {
  it('each new id has its own style; HTX spot keeps the generic one', () => {
    expect(styleFor(getVenueSpec('kraken-futures')).name).toBe('kraken-futures');
    expect(styleFor(getVenueSpec('kraken')).name).toBe('kraken');
    expect(styleFor(getVenueSpec('htx-swap')).name).toBe('htx-swap');
    expect(styleFor(getVenueSpec('htx')).name).toBe('generic');
    expect(styleFor(getVenueSpec('kucoin-futures')).name).toBe('kucoin');
  });

  it('Kraken Futures: 50 orders of cost 10 fill the 500 per 10 s budget, then apiLimitExceeded in a 200 body', async () => {
    const spec = getVenueSpec('kraken-futures');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const order: VenueRequest = { method: 'POST', path: '/derivatives/api/v3/sendorder', body: 'orderType=lmt&symbol=PF_XBTUSD&side=buy&size=1&limitPrice=1' };
    const ok = await sendTimes(50, order, { apikey: 'k' });
    expect(ok.every((a) => a.status === 200 && (a.body as { result: string }).result === 'success')).toBe(true);
    const refused = await send(order, { apikey: 'k' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ result: 'error', error: 'apiLimitExceeded' });
    expect(interpretResponse(spec, order, refused, { credential: 'k' })).toMatchObject({
      verdict: 'rate_limited',
      rule: 'api-limit-exceeded',
      retryAfterMs: 10_000,
    });
    expect((await send({ method: 'GET', path: '/derivatives/api/v3/openorders' }, { apikey: 'other' })).body).toMatchObject({ result: 'success' });
    clock.advance(10_000);
    expect((await send(order, { apikey: 'k' })).body).toMatchObject({ result: 'success' });
  });

  it('Kraken Futures: the /history pool of 100 tokens, then apiLimitExceeded until it refills', async () => {
    const spec = getVenueSpec('kraken-futures');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const csv: VenueRequest = { method: 'GET', path: '/api/history/v2/accountlogcsv' };
    const ok = await sendTimes(16, csv, { apikey: 'k' }); // 16 x 6 = 96
    expect(ok.every((a) => (a.body as { result: string }).result === 'success')).toBe(true);
    expect((await send(csv, { apikey: 'k' })).body).toMatchObject({ error: 'apiLimitExceeded' });
    clock.advance(6_000); // one token back (100 per 10 minutes): 5 left, a 6-token call still does not fit
    expect((await send(csv, { apikey: 'k' })).body).toMatchObject({ error: 'apiLimitExceeded' });
    clock.advance(6_500); // more than 6 tokens: it fits
    expect((await send(csv, { apikey: 'k' })).body).toMatchObject({ result: 'success' });
  });

  it('HTX USDT-margined: 72 trade requests per 3 s per UID with ratelimit-* headers, then err_code 1032; reads are a pool of their own', async () => {
    const spec = getVenueSpec('htx-swap');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const order: VenueRequest = {
      method: 'POST',
      path: '/linear-swap-api/v1/swap_cross_order',
      body: { contract_code: 'BTC-USDT', volume: 1, direction: 'buy', lever_rate: 5, order_price_type: 'limit', price: 1 },
    };
    const ok = await sendTimes(72, order, { accesskeyid: 'k' });
    expect(ok.every((a) => (a.body as { status: string }).status === 'ok')).toBe(true);
    expect(ok[71]?.headers).toMatchObject({ 'ratelimit-limit': '72', 'ratelimit-remaining': '0' });
    const refused = await send(order, { accesskeyid: 'k' });
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ status: 'error', err_code: 1032 });
    expect(interpretResponse(spec, order, refused, { credential: 'k' })).toMatchObject({ verdict: 'rate_limited', rule: 'exceeded', retryAfterMs: 3000 });
    expect((await send({ method: 'POST', path: '/linear-swap-api/v1/swap_cross_account_info' }, { accesskeyid: 'k' })).body).toMatchObject({ status: 'ok' });
    clock.advance(3000);
    expect((await send(order, { accesskeyid: 'k' })).body).toMatchObject({ status: 'ok' });
  });

  it('KuCoin futures: the Futures pool (1000 orders of weight 2 at VIP0 per 30 s), then 429000 with gw-ratelimit headers', async () => {
    const spec = getVenueSpec('kucoin-futures');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const order: VenueRequest = {
      method: 'POST',
      path: '/api/v1/orders',
      body: { symbol: 'XBTUSDTM', side: 'buy', type: 'limit', size: 1, price: '1', leverage: 3 },
    };
    const ok = await sendTimes(1000, order, { 'kc-api-key': 'k' });
    expect(ok[999]?.headers).toMatchObject({ 'gw-ratelimit-limit': '2000', 'gw-ratelimit-remaining': '0' });
    const refused = await send(order, { 'kc-api-key': 'k' });
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: '429000' });
    expect(interpretResponse(spec, order, refused, { credential: 'k' })).toMatchObject({
      verdict: 'rate_limited',
      rule: 'quota-exceeded',
      retryAfterMs: 30_000,
    });
  });
});
