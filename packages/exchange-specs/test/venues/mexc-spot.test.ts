import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveVenueId, validateSpec } from '../../src/index.js';
import { charged, date, read, refused } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;
const TEN_S = 10_000;
const batch = (n: number): string =>
  JSON.stringify(Array.from({ length: n }, () => ({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', quantity: '1', price: '1' })));

describe('mexc-spot: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('mexc-spot');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('the plain name mexc is the documented spot spec; the ccxt estimate is ccxt:mexc', () => {
    expect(resolveVenueId('mexc')).toBe('mexc-spot');
    expect(getVenueSpec('mexc').origin).toBe('hand-authored');
    expect(getVenueSpec('ccxt:mexc').origin).toBe('ccxt-derived');
  });

  it('market data: each endpoint its own 500 weight per 10 s per IP, even when a key is sent', () => {
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '5000' } }, user)).toEqual({
      'ip-endpoint': { axis: 'ip-endpoint:GET /api/v3/depth', credential: null, scope: 'ip', cost: 1, limit: 500, windowMs: TEN_S },
    });
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/trades', query: { symbol: 'BTCUSDT' } })['ip-endpoint']).toMatchObject({
      cost: 5,
      axis: 'ip-endpoint:GET /api/v3/trades',
    });
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/exchangeInfo' })['ip-endpoint']).toMatchObject({ cost: 10 });
  });

  it('tickers: 1 with symbol; 40 (24hr) and 2 (price) for all symbols', () => {
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/ticker/24hr', query: { symbol: 'BTCUSDT' } })['ip-endpoint']?.cost).toBe(1);
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/ticker/24hr' })['ip-endpoint']?.cost).toBe(40);
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/ticker/price', query: { symbol: 'BTCUSDT' } })['ip-endpoint']?.cost).toBe(1);
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/ticker/price' })['ip-endpoint']?.cost).toBe(2);
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/ticker/bookTicker' })['ip-endpoint']?.cost).toBe(1);
  });

  it('new order: weight 1 per IP and 1 per account (Weight(IP): 1, Weight(UID): 1)', () => {
    expect(charged('mexc-spot', { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } }, user)).toEqual({
      'ip-endpoint': { axis: 'ip-endpoint:POST /api/v3/order', credential: null, scope: 'ip', cost: 1, limit: 500, windowMs: TEN_S },
      'uid-endpoint': { axis: 'uid-endpoint:POST /api/v3/order', credential: 'uid-1', scope: 'uid', cost: 1, limit: 500, windowMs: TEN_S },
    });
  });

  it('batch orders: one weight for up to 20 orders, twice per second; more than 20 is refused', () => {
    const r = charged('mexc-spot', { method: 'POST', path: '/api/v3/batchOrders', query: { batchOrders: batch(20) } }, user);
    expect(r['ip-endpoint']).toMatchObject({ cost: 1, limit: 500 });
    expect(r['uid-endpoint']).toMatchObject({ cost: 1, credential: 'uid-1' });
    expect(r['twice-per-second-ip']).toMatchObject({
      cost: 1,
      limit: 2,
      windowMs: 1000,
      credential: null,
      axis: 'twice-per-second-ip:POST /api/v3/batchOrders',
    });
    expect(r['twice-per-second-uid']).toMatchObject({ cost: 1, limit: 2, windowMs: 1000, credential: 'uid-1' });
    expect(refused('mexc-spot', { method: 'POST', path: '/api/v3/batchOrders', query: { batchOrders: batch(21) } }, user)).toBe('invalid_parameter');
  });

  it('account information: weight 10 and twice per second', () => {
    const r = charged('mexc-spot', { method: 'GET', path: '/api/v3/account' }, user);
    expect(r['ip-endpoint']).toMatchObject({ cost: 10, limit: 500 });
    expect(r['uid-endpoint']).toMatchObject({ cost: 10, credential: 'uid-1' });
    expect(r['twice-per-second-ip']).toMatchObject({ limit: 2, windowMs: 1000, axis: 'twice-per-second-ip:GET /api/v3/account' });
  });

  it('signed endpoints marked Weight(IP) count per IP and per account, each endpoint on its own', () => {
    const query = charged('mexc-spot', { method: 'GET', path: '/api/v3/order', query: { symbol: 'BTCUSDT', orderId: '1' } }, user);
    expect(query['ip-endpoint']).toMatchObject({ cost: 2, axis: 'ip-endpoint:GET /api/v3/order', credential: null });
    expect(query['uid-endpoint']).toMatchObject({ cost: 2, axis: 'uid-endpoint:GET /api/v3/order', credential: 'uid-1' });
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/openOrders' }, user)['ip-endpoint']).toMatchObject({
      cost: 3,
      axis: 'ip-endpoint:GET /api/v3/openOrders',
    });
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/myTrades', query: { symbol: 'BTCUSDT' } }, user)['ip-endpoint']?.cost).toBe(10);
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/tradeFee', query: { symbol: 'BTCUSDT' } }, user)['ip-endpoint']?.cost).toBe(20);
    expect(charged('mexc-spot', { method: 'DELETE', path: '/api/v3/openOrders', query: { symbol: 'BTCUSDT' } }, user)['uid-endpoint']?.cost).toBe(1);
    expect(charged('mexc-spot', { method: 'DELETE', path: '/api/v3/strategy/group' }, user)['ip-endpoint']?.cost).toBe(20);
  });

  it('wallet: deposit and withdraw addresses weigh 10, generating one 1', () => {
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/capital/deposit/address', query: { coin: 'USDT' } }, user)['ip-endpoint']?.cost).toBe(10);
    expect(
      charged('mexc-spot', { method: 'POST', path: '/api/v3/capital/deposit/address', query: { coin: 'USDT', network: 'TRC20' } }, user)['ip-endpoint']?.cost,
    ).toBe(1);
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/capital/withdraw/address' }, user)['ip-endpoint']?.cost).toBe(10);
    expect(charged('mexc-spot', { method: 'POST', path: '/api/v3/capital/convert' }, user)['ip-endpoint']?.cost).toBe(10);
    expect(charged('mexc-spot', { method: 'GET', path: '/api/v3/capital/config/getall' }, user)['ip-endpoint']?.cost).toBe(10);
  });

  it('the listen-key calls, whose weight MEXC does not state, weigh 10 on both of their buckets (5 per second)', () => {
    for (const method of ['POST', 'GET', 'PUT', 'DELETE'] as const) {
      const c = charged('mexc-spot', { method, path: '/api/v3/userDataStream' }, user);
      expect([c['ip-endpoint']?.cost, c['uid-endpoint']?.cost], method).toEqual([10, 10]);
    }
  });

  it('an endpoint MEXC does not document is refused, not guessed', () => {
    expect(refused('mexc-spot', { method: 'GET', path: '/api/v3/margin/loan' }, user)).toBe('unknown_endpoint');
  });
});

describe('mexc-spot: responses', () => {
  const now = Date.UTC(2026, 11, 1, 12, 0, 0);
  const depth = { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT' } } as const;
  const order = { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } } as const;

  it("429 holds the endpoint's buckets for Retry-After, else one whole window", () => {
    const fb = read('mexc-spot', order, { status: 429, headers: { 'retry-after': '7', date: date(now) }, body: { code: 429, msg: 'Too Many Requests' } }, user);
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'too-many-requests', retryAfterMs: 7000 });
    expect(fb.penalties.map((p) => p.key.axis).sort()).toEqual(['ip-endpoint:POST /api/v3/order', 'uid-endpoint:POST /api/v3/order']);
    expect(read('mexc-spot', depth, { status: 429, body: { code: 429 } })).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 10_000 });
  });

  it('418 is an IP ban until Retry-After, else the documented minimum of 2 minutes', () => {
    expect(read('mexc-spot', depth, { status: 418, headers: { 'retry-after': '300' } })).toMatchObject({
      verdict: 'banned',
      rule: 'ip-ban',
      retryAfterMs: 300_000,
    });
    expect(read('mexc-spot', depth, { status: 418 })).toMatchObject({ verdict: 'banned', retryAfterMs: 120_000 });
  });

  it('403 (the WAF) stops the endpoint like a ban', () => {
    expect(read('mexc-spot', depth, { status: 403, body: '' })).toMatchObject({ verdict: 'banned', rule: 'waf', retryAfterMs: 120_000 });
  });

  it('a 200 is admitted and counted', () => {
    expect(read('mexc-spot', depth, { status: 200, body: { lastUpdateId: 1, bids: [], asks: [] } })).toMatchObject({
      verdict: 'ok',
      counted: true,
      penalties: [],
    });
  });
});
