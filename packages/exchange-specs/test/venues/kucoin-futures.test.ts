import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveVenueId, validateSpec } from '../../src/index.js';
import { charged, read } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;
const HALF_MINUTE = 30_000;

describe('kucoin-futures: documented numbers', () => {
  it('is the plain ccxt name kucoinfutures, carries its verification, and every provenance quotes the documentation', () => {
    expect(resolveVenueId('kucoinfutures')).toBe('kucoin-futures');
    const spec = getVenueSpec('kucoin-futures');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('the Futures pool: 2000 per 30 s per UID at VIP0, raised per VIP level to 20000', () => {
    const order = {
      method: 'POST',
      path: '/api/v1/orders',
      body: { symbol: 'XBTUSDTM', side: 'buy', type: 'limit', size: 1, price: '60000', leverage: 3 },
    } as const;
    expect(charged('kucoin-futures', order, user)).toEqual({
      futures: { axis: 'futures', credential: 'uid-1', scope: 'uid', cost: 2, limit: 2000, windowMs: HALF_MINUTE },
    });
    const byTier = Object.fromEntries(
      ['vip0', 'vip1', 'vip2', 'vip3', 'vip4', 'vip5', 'vip6', 'vip7', 'vip8', 'vip9', 'vip10', 'vip11', 'vip12'].map((tier) => [
        tier,
        charged('kucoin-futures', order, { ...user, tier })['futures']?.limit,
      ]),
    );
    expect(byTier).toEqual({
      vip0: 2000,
      vip1: 2000,
      vip2: 4000,
      vip3: 5000,
      vip4: 6000,
      vip5: 7000,
      vip6: 8000,
      vip7: 10000,
      vip8: 12000,
      vip9: 14000,
      vip10: 16000,
      vip11: 18000,
      vip12: 20000,
    });
  });

  it('order endpoints weigh as KuCoin specifies: batch 20, cancel 1, cancel-all v3 10, v1 800, stop orders 15', () => {
    const w = (method: 'GET' | 'POST' | 'DELETE', path: string, query?: Record<string, string>) =>
      charged('kucoin-futures', { method, path, ...(query === undefined ? {} : { query }) }, user)['futures']?.cost;
    expect(w('POST', '/api/v1/orders/multi')).toBe(20);
    expect(w('DELETE', '/api/v1/orders/235303670076489728')).toBe(1);
    expect(w('DELETE', '/api/v1/orders/client-order/my-1')).toBe(1);
    expect(w('DELETE', '/api/v1/orders/multi-cancel')).toBe(20);
    expect(w('DELETE', '/api/v3/orders', { symbol: 'XBTUSDTM' })).toBe(10);
    expect(w('DELETE', '/api/v1/orders', { symbol: 'XBTUSDTM' })).toBe(800);
    expect(w('DELETE', '/api/v1/stopOrders')).toBe(15);
    expect(w('GET', '/api/v1/orders/235303670076489728')).toBe(5);
    expect(w('GET', '/api/v1/orders/byClientOid', { clientOid: 'my-1' })).toBe(5);
    expect(w('GET', '/api/v1/orders', { status: 'active' })).toBe(2);
    expect(w('GET', '/api/v1/fills')).toBe(5);
    expect(w('GET', '/api/v1/recentFills')).toBe(5);
    expect(w('GET', '/api/v1/openOrderStatistics', { symbol: 'XBTUSDTM' })).toBe(10);
  });

  it('positions, leverage, margin, funding and account', () => {
    const w = (method: 'GET' | 'POST', path: string) => charged('kucoin-futures', { method, path }, user)['futures']?.cost;
    expect(w('GET', '/api/v1/positions')).toBe(2);
    expect(w('GET', '/api/v1/position')).toBe(2);
    expect(w('POST', '/api/v2/changeCrossUserLeverage')).toBe(2);
    expect(w('POST', '/api/v2/position/changeMarginMode')).toBe(2);
    expect(w('POST', '/api/v1/position/risk-limit-level/change')).toBe(5);
    expect(w('POST', '/api/v1/position/margin/deposit-margin')).toBe(4);
    expect(w('POST', '/api/v1/margin/withdrawMargin')).toBe(10);
    expect(w('GET', '/api/v1/margin/maxWithdrawMargin')).toBe(10);
    expect(w('GET', '/api/v1/funding-history')).toBe(5);
    expect(w('GET', '/api/v1/account-overview')).toBe(5);
    expect(w('GET', '/api/v1/transaction-history')).toBe(2);
  });

  it('market data on the Public pool, 2000 per 30 s per IP at every level, even with a key', () => {
    const depth = { method: 'GET', path: '/api/v1/level2/depth20', query: { symbol: 'XBTUSDTM' } } as const;
    expect(charged('kucoin-futures', depth, { ...user, tier: 'vip12' })).toEqual({
      public: { axis: 'public', credential: null, scope: 'ip', cost: 5, limit: 2000, windowMs: HALF_MINUTE },
    });
    expect(charged('kucoin-futures', { method: 'GET', path: '/api/v1/level2/depth100' })['public']?.cost).toBe(5);
    expect(charged('kucoin-futures', { method: 'GET', path: '/api/v1/ticker' })['public']?.cost).toBe(2);
    expect(charged('kucoin-futures', { method: 'GET', path: '/api/v1/allTickers' })['public']?.cost).toBe(5);
    expect(charged('kucoin-futures', { method: 'GET', path: '/api/v1/contracts/active' })['public']?.cost).toBe(3);
    expect(charged('kucoin-futures', { method: 'GET', path: '/api/v1/funding-rate/XBTUSDTM/current' })['public']?.cost).toBe(2);
    expect(charged('kucoin-futures', { method: 'GET', path: '/api/v1/contracts/risk-limit/XBTUSDTM' }, user)['public']).toMatchObject({
      cost: 5,
      credential: null,
    });
  });

  it('copy trading has its own pool, 2000 per 30 s per UID at every level', () => {
    expect(charged('kucoin-futures', { method: 'POST', path: '/api/v1/copy-trade/futures/orders' }, { ...user, tier: 'vip9' })).toEqual({
      'copy-trading': { axis: 'copy-trading', credential: 'uid-1', scope: 'uid', cost: 2, limit: 2000, windowMs: HALF_MINUTE },
    });
  });
});

describe('kucoin-futures: responses', () => {
  const order = { method: 'POST', path: '/api/v1/orders' } as const;
  it('429000 with gw-ratelimit-reset holds the Futures pool until the reset', () => {
    const fb = read(
      'kucoin-futures',
      order,
      {
        status: 429,
        headers: { 'gw-ratelimit-reset': '1489', 'gw-ratelimit-remaining': '0', 'gw-ratelimit-limit': '2000' },
        body: { code: '429000', msg: 'Too Many Requests' },
      },
      user,
    );
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'quota-exceeded', retryAfterMs: 1489 });
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['futures']);
  });
  it('429000 without the headers is overload: not counted, nothing held', () => {
    const fb = read('kucoin-futures', order, { status: 429, body: { code: '429000', msg: 'Too Many Requests' } }, user);
    expect(fb).toMatchObject({ verdict: 'overloaded', counted: false, penalties: [] });
  });
  it('gw-ratelimit-remaining syncs the pool the request was charged on', () => {
    const fb = read(
      'kucoin-futures',
      { method: 'GET', path: '/api/v1/ticker' },
      { headers: { 'gw-ratelimit-remaining': '100', 'gw-ratelimit-limit': '2000', 'gw-ratelimit-reset': '20000' } },
    );
    expect(fb.syncs.map((s) => s.key.axis)).toEqual(['public']);
  });
});
