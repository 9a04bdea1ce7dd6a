import { describe, expect, it } from 'vitest';
import { getVenueSpec, validateSpec } from '../../src/index.js';
import { charged, read, refused } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;
const trader = { ...user, tier: 'copy-trader' } as const;
const place = { method: 'POST', path: '/api/v2/spot/trade/place-order', body: { symbol: 'BTCUSDT' } } as const;

describe('bitget: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('bitget');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it("every request counts against 6000 per minute per IP, and its endpoint's own limit", () => {
    expect(charged('bitget', place, user)).toEqual({
      'spot-place-order': { axis: 'spot-place-order', credential: 'uid-1', scope: 'uid', cost: 1, limit: 10, windowMs: 1000 },
      ip: { axis: 'ip', credential: null, scope: 'ip', cost: 1, limit: 6000, windowMs: 60_000 },
    });
    expect(charged('bitget', { method: 'GET', path: '/api/v2/spot/market/tickers' })['spot-tickers']).toMatchObject({ limit: 20, scope: 'ip' });
  });

  it('futures endpoints bots use besides orders: margin and position mode, margin, bills, trigger and TP/SL orders, funding and prices', () => {
    const limitOf = (method: 'GET' | 'POST', path: string, id: string, identity: { credential: string | null } = user) =>
      charged('bitget', { method, path }, identity)[id];
    expect(limitOf('POST', '/api/v2/mix/account/set-margin-mode', 'mix-set-margin-mode')).toMatchObject({ limit: 5, scope: 'uid', credential: 'uid-1' });
    expect(limitOf('POST', '/api/v2/mix/account/set-position-mode', 'mix-set-position-mode')).toMatchObject({ limit: 5, scope: 'uid' });
    expect(limitOf('POST', '/api/v2/mix/account/set-margin', 'mix-set-margin')).toMatchObject({ limit: 5 });
    expect(limitOf('GET', '/api/v2/mix/account/bill', 'mix-bill')).toMatchObject({ limit: 10 });
    expect(limitOf('GET', '/api/v2/mix/order/fill-history', 'mix-fill-history')).toMatchObject({ limit: 10 });
    expect(limitOf('GET', '/api/v2/mix/position/history-position', 'mix-history-position')).toMatchObject({ limit: 20 });
    expect(limitOf('POST', '/api/v2/mix/order/place-plan-order', 'mix-place-plan-order')).toMatchObject({ limit: 10 });
    expect(limitOf('POST', '/api/v2/mix/order/cancel-plan-order', 'mix-cancel-plan-order')).toMatchObject({ limit: 10 });
    expect(limitOf('POST', '/api/v2/mix/order/place-tpsl-order', 'mix-place-tpsl-order')).toMatchObject({ limit: 10 });
    expect(limitOf('GET', '/api/v2/mix/order/orders-plan-pending', 'mix-orders-plan-pending')).toMatchObject({ limit: 10 });
    expect(charged('bitget', { method: 'POST', path: '/api/v2/mix/order/click-backhand' }, trader)['mix-click-backhand']).toMatchObject({ limit: 1 });
    expect(limitOf('POST', '/api/v2/mix/order/click-backhand', 'mix-click-backhand')).toMatchObject({ limit: 10 });
    const anyone = { credential: null };
    expect(limitOf('GET', '/api/v2/mix/market/open-interest', 'mix-open-interest', anyone)).toMatchObject({ limit: 20, scope: 'ip' });
    expect(limitOf('GET', '/api/v2/mix/market/funding-time', 'mix-funding-time', anyone)).toMatchObject({ limit: 20, scope: 'ip' });
    expect(limitOf('GET', '/api/v2/mix/market/history-fund-rate', 'mix-history-fund-rate', anyone)).toMatchObject({ limit: 20, scope: 'ip' });
    expect(limitOf('GET', '/api/v2/mix/market/symbol-price', 'mix-symbol-price', anyone)).toMatchObject({ limit: 20, scope: 'ip' });
    expect(limitOf('GET', '/api/v2/mix/market/fills-history', 'mix-fills-history', anyone)).toMatchObject({ limit: 10, scope: 'ip' });
  });

  it('copy-trading traders: 1 per s on the order-placing endpoints', () => {
    expect(charged('bitget', place, trader)['spot-place-order']).toMatchObject({ limit: 1, windowMs: 1000 });
    expect(charged('bitget', { method: 'POST', path: '/api/v2/spot/trade/batch-orders' }, trader)['spot-batch-orders']).toMatchObject({ limit: 1 });
    expect(charged('bitget', { method: 'POST', path: '/api/v2/spot/trade/batch-orders' }, user)['spot-batch-orders']).toMatchObject({ limit: 5 });
    expect(charged('bitget', { method: 'POST', path: '/api/v2/mix/order/place-order' }, trader)['mix-place-order']).toMatchObject({ limit: 1 });
    expect(charged('bitget', { method: 'POST', path: '/api/v2/mix/order/batch-place-order' }, trader)['mix-batch-place-order']).toMatchObject({ limit: 1 });
    expect(charged('bitget', { method: 'POST', path: '/api/v2/spot/trade/cancel-order' }, trader)['spot-cancel-order']).toMatchObject({ limit: 10 });
  });

  it('per-endpoint limits of the commonly used endpoints', () => {
    const cases: readonly [string, string, string, number][] = [
      ['GET', '/api/v2/spot/trade/unfilled-orders', 'spot-unfilled-orders', 20],
      ['POST', '/api/v2/spot/trade/cancel-symbol-order', 'spot-cancel-symbol-order', 5],
      ['GET', '/api/v2/spot/account/info', 'spot-account-info', 1],
      ['POST', '/api/v2/mix/order/cancel-order', 'mix-cancel-order', 10],
      ['GET', '/api/v2/mix/position/all-position', 'mix-all-position', 5],
    ];
    for (const [method, path, id, limit] of cases) expect(charged('bitget', { method, path }, user)[id], path).toMatchObject({ limit, windowMs: 1000 });
  });

  it('an endpoint without a listed limit does not resolve', () => {
    expect(refused('bitget', { method: 'GET', path: '/api/v2/spot/unknown' })).toBe('unknown_endpoint');
  });
});

describe('bitget: responses', () => {
  it('HTTP 429, or code 429 in the body, holds the charged buckets 1 s', () => {
    for (const response of [{ status: 429 }, { status: 200, body: { code: '429', msg: 'Too many requests' } }]) {
      const fb = read('bitget', place, response, user);
      expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 1000 });
      expect(fb.penalties.map((p) => p.key.axis)).toEqual(['spot-place-order', 'ip']);
    }
  });
  it('45129: the same order may be cancelled again after 1 s; no bucket is held', () => {
    const fb = read('bitget', { method: 'POST', path: '/api/v2/spot/trade/cancel-order' }, { status: 400, body: { code: '45129' } }, user);
    expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 1000, penalties: [] });
  });
});
