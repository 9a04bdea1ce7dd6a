import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveVenueId, validateSpec } from '../../src/index.js';
import { charged, read, refused } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;
const orders = (n: number) => Array.from({ length: n }, () => ({ side: 'buy', type: 'limit', size: '1', price: '1' }));

describe('bitmart-spot: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('bitmart-spot');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
    expect(resolveVenueId('bitmart')).toBe('bitmart-spot');
  });

  it('market data: each endpoint its own limit per IP', () => {
    expect(charged('bitmart-spot', { method: 'GET', path: '/spot/quotation/v3/books', query: { symbol: 'BTC_USDT' } }, user)).toEqual({
      'ip-15-per-2s': { axis: 'ip-15-per-2s:GET /spot/quotation/v3/books', credential: null, scope: 'ip', cost: 1, limit: 15, windowMs: 2000 },
    });
    expect(charged('bitmart-spot', { method: 'GET', path: '/spot/quotation/v3/ticker' })['ip-15-per-2s']?.axis).toBe(
      'ip-15-per-2s:GET /spot/quotation/v3/ticker',
    );
    expect(charged('bitmart-spot', { method: 'GET', path: '/spot/quotation/v3/tickers' })['ip-10-per-2s']).toMatchObject({ limit: 10, windowMs: 2000 });
    expect(charged('bitmart-spot', { method: 'GET', path: '/spot/quotation/v3/klines' })['ip-10-per-2s']).toMatchObject({ limit: 10 });
    expect(charged('bitmart-spot', { method: 'GET', path: '/system/time' })['ip-10-per-1s']).toMatchObject({ limit: 10, windowMs: 1000 });
    expect(charged('bitmart-spot', { method: 'GET', path: '/account/v1/currencies' })['ip-2-per-2s']).toMatchObject({ limit: 2, windowMs: 2000 });
  });

  it('orders count per account (UID), queries per API key', () => {
    expect(charged('bitmart-spot', { method: 'POST', path: '/spot/v2/submit_order', body: { symbol: 'BTC_USDT' } }, user)).toEqual({
      'uid-40-per-2s': { axis: 'uid-40-per-2s:POST /spot/v2/submit_order', credential: 'uid-1', scope: 'uid', cost: 1, limit: 40, windowMs: 2000 },
    });
    expect(charged('bitmart-spot', { method: 'POST', path: '/spot/v4/query/order', body: { orderId: '1' } }, user)).toEqual({
      'key-50-per-2s': { axis: 'key-50-per-2s:POST /spot/v4/query/order', credential: 'key-1', scope: 'key', cost: 1, limit: 50, windowMs: 2000 },
    });
    expect(charged('bitmart-spot', { method: 'POST', path: '/spot/v4/query/open-orders' }, user)['key-12-per-2s']).toMatchObject({ limit: 12 });
    expect(charged('bitmart-spot', { method: 'GET', path: '/spot/v1/wallet' }, user)['key-12-per-2s']).toMatchObject({
      limit: 12,
      axis: 'key-12-per-2s:GET /spot/v1/wallet',
    });
  });

  it('cancel all: 1 per 3 s; margin orders: 20 per s; borrow records: 150 per 2 s', () => {
    expect(charged('bitmart-spot', { method: 'POST', path: '/spot/v4/cancel_all', body: {} }, user)['uid-1-per-3s']).toMatchObject({
      limit: 1,
      windowMs: 3000,
    });
    expect(charged('bitmart-spot', { method: 'POST', path: '/spot/v1/margin/submit_order' }, user)['uid-20-per-1s']).toMatchObject({
      limit: 20,
      windowMs: 1000,
    });
    expect(charged('bitmart-spot', { method: 'GET', path: '/spot/v1/margin/isolated/borrow_record' }, user)['key-150-per-2s']).toMatchObject({ limit: 150 });
    expect(charged('bitmart-spot', { method: 'POST', path: '/account/v1/withdraw/apply' }, user)['key-8-per-2s']).toMatchObject({ limit: 8 });
  });

  it('batch orders: one request for up to 10 orders; more is refused', () => {
    expect(
      charged('bitmart-spot', { method: 'POST', path: '/spot/v4/batch_orders', body: { symbol: 'BTC_USDT', orderParams: orders(10) } }, user)['uid-40-per-2s'],
    ).toMatchObject({ cost: 1, limit: 40 });
    expect(refused('bitmart-spot', { method: 'POST', path: '/spot/v4/batch_orders', body: { symbol: 'BTC_USDT', orderParams: orders(11) } }, user)).toBe(
      'invalid_parameter',
    );
  });

  it("an endpoint outside BitMart's tables is refused, not guessed", () => {
    expect(refused('bitmart-spot', { method: 'GET', path: '/spot/v1/ticker' })).toBe('unknown_endpoint');
  });
});

describe('bitmart-spot: responses', () => {
  const books = { method: 'GET', path: '/spot/quotation/v3/books', query: { symbol: 'BTC_USDT' } } as const;
  it('X-BM-RateLimit-Remaining is the amount used: a full window holds the endpoint back', () => {
    const near = read('bitmart-spot', books, { headers: { 'x-bm-ratelimit-remaining': '15', 'x-bm-ratelimit-limit': '15', 'x-bm-ratelimit-reset': '2' } });
    expect(near.syncs.map((s) => s.key.axis)).toEqual(['ip-15-per-2s:GET /spot/quotation/v3/books']);
    expect(near.syncs[0]?.minBorrowed).toBeGreaterThan(0);
    const idle = read('bitmart-spot', books, { headers: { 'x-bm-ratelimit-remaining': '0', 'x-bm-ratelimit-limit': '15', 'x-bm-ratelimit-reset': '2' } });
    expect(idle.syncs[0]?.minBorrowed).toBe(0);
  });

  it('429 holds the endpoint one window: X-BM-RateLimit-Reset, else the longest window', () => {
    const fb = read('bitmart-spot', books, {
      status: 429,
      headers: { 'x-bm-ratelimit-reset': '2' },
      body: { code: 30013, message: 'Request too many requests' },
    });
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'too-many-requests', retryAfterMs: 2000 });
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['ip-15-per-2s:GET /spot/quotation/v3/books']);
    expect(read('bitmart-spot', books, { status: 429 })).toMatchObject({ retryAfterMs: 3000 });
  });
});
