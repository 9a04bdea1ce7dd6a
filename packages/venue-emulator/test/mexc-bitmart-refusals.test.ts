import { afterEach, describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueRequest, type VenueSpec } from '@core/exchange-specs';
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
    headers: { 'content-type': 'application/json', ...headers },
    ...(r.body === undefined ? {} : { body: typeof r.body === 'string' ? r.body : JSON.stringify(r.body) }),
  });
  return { status: res.status, headers: Object.fromEntries(res.headers), body: JSON.parse(await res.text()) as unknown };
}

async function sendTimes(n: number, r: VenueRequest, headers: Record<string, string> = {}): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await send(r, headers));
  return out;
}

const verdictOf = (spec: VenueSpec, r: VenueRequest, a: Answer, credential: string | null = null) => interpretResponse(spec, r, a, { credential });

describe('MEXC and BitMart refuse as they document it (and exchange-specs reads it)', () => {
  it('each venue id gets its own style', () => {
    expect(styleFor(getVenueSpec('mexc-spot')).name).toBe('mexc');
    expect(styleFor(getVenueSpec('mexc-futures')).name).toBe('mexc-futures');
    expect(styleFor(getVenueSpec('bitmart-spot')).name).toBe('bitmart');
    expect(styleFor(getVenueSpec('bitmart-futures')).name).toBe('bitmart');
  });

  it('MEXC spot: 500 weight per 10 s per endpoint, then 429 with Retry-After; calling on is a 418 IP ban of 2 minutes', async () => {
    const spec = getVenueSpec('mexc-spot');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const all: VenueRequest = { method: 'GET', path: '/api/v3/ticker/24hr' }; // weight 40 without symbol
    const ok = await sendTimes(12, all); // 480
    expect(ok.every((a) => a.status === 200)).toBe(true);
    // another endpoint has its own budget
    expect((await send({ method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT' } })).status).toBe(200);
    const refused = await send(all);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ code: 429, msg: 'Too Many Requests' });
    expect(refused.headers['retry-after']).toBe('10');
    expect(verdictOf(spec, all, refused)).toMatchObject({ verdict: 'rate_limited', rule: 'too-many-requests', retryAfterMs: 10_000 });
    const banned = await send(all);
    expect(banned.status).toBe(418);
    expect(banned.headers['retry-after']).toBe('120');
    expect(verdictOf(spec, all, banned)).toMatchObject({ verdict: 'banned', rule: 'ip-ban', retryAfterMs: 120_000 });
    expect((await send({ method: 'GET', path: '/api/v3/time' })).status).toBe(418);
    clock.advance(120_000);
    expect((await send(all)).status).toBe(200);
    expect(venue.stats()).toMatchObject({ violations: 2, bans: 1, refusedWhileBanned: 1 });
  });

  it('MEXC spot: account information twice per second, per IP and per account (X-MEXC-APIKEY names the key)', async () => {
    const spec = getVenueSpec('mexc-spot');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const account: VenueRequest = { method: 'GET', path: '/api/v3/account' };
    const ok = await sendTimes(2, account, { 'x-mexc-apikey': 'k' });
    expect(ok.every((a) => a.status === 200)).toBe(true);
    // a second key on the same IP finds the endpoint's per-IP budget spent
    expect((await send(account, { 'x-mexc-apikey': 'k2' })).status).toBe(429);
    const byAxis = (axis: string) => venue!.stats().buckets.filter((b) => b.axis === axis);
    expect(byAxis('twice-per-second-ip:GET /api/v3/account')).toMatchObject([{ limit: 2, admittedCost: 2, refusals: 1 }]);
    // each key's account has its own (k spent 2, k2 nothing)
    expect(
      byAxis('twice-per-second-uid:GET /api/v3/account')
        .map((b) => b.admittedCost)
        .sort(),
    ).toEqual([0, 2]);
    expect(byAxis('ip-endpoint:GET /api/v3/account')).toMatchObject([{ limit: 500, admittedCost: 20 }]);
  });

  it('MEXC futures: 20 per 2 s per endpoint, then code 510 in an HTTP 200 body (no ban)', async () => {
    const spec = getVenueSpec('mexc-futures');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const depth: VenueRequest = { method: 'GET', path: '/api/v1/contract/depth/BTC_USDT' };
    const ok = await sendTimes(20, depth);
    expect(ok.every((a) => a.status === 200 && (a.body as { success: boolean }).success)).toBe(true);
    const refused = await send(depth);
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({ success: false, code: 510, message: 'Excessive frequency of requests' });
    expect(verdictOf(spec, depth, refused)).toMatchObject({ verdict: 'rate_limited', rule: 'excessive-frequency', retryAfterMs: 5000 });
    expect((await send(depth)).body).toMatchObject({ code: 510 });
    clock.advance(2_000);
    expect((await send(depth)).body).toMatchObject({ success: true, code: 0 });
    expect(venue.stats()).toMatchObject({ violations: 2, bans: 0 });
  });

  it('BitMart spot: X-BM-RateLimit headers (Remaining is the amount used), 429 / 30013, then 418 / 30017 for calling on', async () => {
    const spec = getVenueSpec('bitmart-spot');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const books: VenueRequest = { method: 'GET', path: '/spot/quotation/v3/books', query: { symbol: 'BTC_USDT' } };
    const first = await send(books);
    expect(first.headers).toMatchObject({ 'x-bm-ratelimit-remaining': '1', 'x-bm-ratelimit-limit': '15', 'x-bm-ratelimit-reset': '2' });
    expect(first.body).toMatchObject({ code: 1000, message: 'OK' });
    await sendTimes(14, books);
    const refused = await send(books);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 30013, message: 'Request too many requests' });
    expect(refused.headers).toMatchObject({ 'x-bm-ratelimit-remaining': '15', 'x-bm-ratelimit-limit': '15', 'x-bm-ratelimit-reset': '2' });
    expect(verdictOf(spec, books, refused)).toMatchObject({ verdict: 'rate_limited', rule: 'too-many-requests', retryAfterMs: 2000 });
    const rejected = await send(books);
    expect(rejected.status).toBe(418);
    expect(rejected.body).toMatchObject({ code: 30017 });
    expect(verdictOf(spec, books, rejected)).toMatchObject({ verdict: 'banned', rule: 'account-rejected', retryAfterMs: 600_000 });
    clock.advance(600_000);
    expect((await send(books)).status).toBe(200);
    expect(venue.stats()).toMatchObject({ violations: 2, bans: 1 });
  });

  it('BitMart futures: orders per API key (X-BM-KEY), 24 per 2 s each', async () => {
    const spec = getVenueSpec('bitmart-futures');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const order: VenueRequest = {
      method: 'POST',
      path: '/contract/private/submit-order',
      body: { symbol: 'BTCUSDT', side: 1, type: 'limit', size: 1, price: '1' },
    };
    const ok = await sendTimes(24, order, { 'x-bm-key': 'a' });
    expect(ok.every((a) => a.status === 200)).toBe(true);
    expect((await send(order, { 'x-bm-key': 'b' })).status).toBe(200);
    const refused = await send(order, { 'x-bm-key': 'a' });
    expect(refused.status).toBe(429);
    expect(verdictOf(spec, order, refused, 'a')).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 2000 });
    clock.advance(2_000);
    expect((await send(order, { 'x-bm-key': 'a' })).status).toBe(200);
  });
});
