import { describe, expect, it } from 'vitest';
import { getVenueSpec, validateSpec } from '../../src/index.js';
import { charged, date, read, refused } from './venue-limits.js';

const alice = { credential: 'key-a', uid: 'uid-1' } as const;
const aliceOtherKey = { credential: 'key-b', uid: 'uid-1' } as const;
const FIVE_MIN = 300_000;

describe('htx: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('htx');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('GET /market/depth: 4,000 per 5 minutes per IP, its own bucket (no 800/s market bucket)', () => {
    expect(charged('htx', { method: 'GET', path: '/market/depth', query: { symbol: 'btcusdt', type: 'step0' } })).toEqual({
      depth: { axis: 'depth', credential: null, scope: 'ip', cost: 1, limit: 4000, windowMs: FIVE_MIN },
    });
  });

  it('merged, tickers, trade, kline and detail: 4,500 per 5 minutes each, each its own bucket', () => {
    const paths = {
      merged: '/market/detail/merged',
      tickers: '/market/tickers',
      trade: '/market/trade',
      kline: '/market/history/kline',
      detail: '/market/detail',
    };
    for (const [id, path] of Object.entries(paths)) {
      expect(charged('htx', { method: 'GET', path, query: { symbol: 'btcusdt' } }), path).toEqual({
        [id]: { axis: id, credential: null, scope: 'ip', cost: 1, limit: 4500, windowMs: FIVE_MIN },
      });
    }
  });

  it('GET /market/history/trade: 3,000 per 5 minutes', () => {
    expect(charged('htx', { method: 'GET', path: '/market/history/trade', query: { symbol: 'btcusdt' } })['history-trade']).toMatchObject({
      limit: 3000,
      windowMs: FIVE_MIN,
      scope: 'ip',
    });
  });

  it('batchCancelOpenOrders: 50 per 2 s per UID, shared by the keys of the account', () => {
    const req = { method: 'POST', path: '/v1/order/orders/batchCancelOpenOrders', body: { 'account-id': '1' } };
    const a = charged('htx', req, alice)['batch-cancel-open-orders'];
    expect(a).toMatchObject({ limit: 50, windowMs: 2000, scope: 'uid', credential: 'uid-1' });
    expect(charged('htx', req, aliceOtherKey)['batch-cancel-open-orders']?.credential).toBe('uid-1');
  });

  it('v1/order/cancelAllOrders: 1 per 2 s per UID (GET as documented, POST on the same bucket)', () => {
    for (const method of ['GET', 'POST']) {
      expect(charged('htx', { method, path: '/v1/order/cancelAllOrders' }, alice), method).toEqual({
        'cancel-all-orders': { axis: 'cancel-all-orders', credential: 'uid-1', scope: 'uid', cost: 1, limit: 1, windowMs: 2000 },
      });
    }
  });

  it('order placement, batch orders, submitcancel and open orders keep their documented limits', () => {
    expect(charged('htx', { method: 'POST', path: '/v1/order/orders/place' }, alice)['place']).toMatchObject({ limit: 100, windowMs: 2000 });
    expect(charged('htx', { method: 'POST', path: '/v1/order/batch-orders' }, alice)['batch-orders']).toMatchObject({ limit: 50, windowMs: 2000 });
    expect(charged('htx', { method: 'POST', path: '/v1/order/orders/123/submitcancel' }, alice)['submitcancel']).toMatchObject({ limit: 100, windowMs: 2000 });
    expect(charged('htx', { method: 'GET', path: '/v1/order/openOrders' }, alice)['open-orders']).toMatchObject({ limit: 50, windowMs: 2000 });
    expect(charged('htx', { method: 'GET', path: '/v1/order/orders/getClientOrder' }, alice)['client-order']).toMatchObject({ limit: 50 });
  });

  it('endpoints without a documented limit do not resolve', () => {
    expect(refused('htx', { method: 'GET', path: '/v1/common/timestamp' })).toBe('unknown_endpoint');
  });
});

describe('htx: responses', () => {
  const place = { method: 'POST', path: '/v1/order/orders/place' } as const;
  it('documented rate-limit codes hold the charged bucket 2 s', () => {
    for (const code of ['base_request_exceed_number_limit', 'frequent-invoke', 'base-user-request-exceed-limit']) {
      const fb = read('htx', place, { body: { status: 'error', 'err-code': code } }, alice);
      expect(fb, code).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 2000 });
      expect(fb.penalties.map((p) => p.key.axis)).toEqual(['place']);
    }
    expect(read('htx', { method: 'GET', path: '/v2/reference/transact-fee-rate' }, { body: { code: 1006, message: 'Exceed rate limit' } }, alice).verdict).toBe(
      'rate_limited',
    );
  });
  it('does not read X-HB-RateLimit-Requests-Expire as a wait (its unit is not documented)', () => {
    const now = Date.UTC(2026, 11, 1, 12, 0, 0);
    const fb = read(
      'htx',
      place,
      { headers: { 'x-hb-ratelimit-requests-expire': '5', date: date(now) }, body: { status: 'error', 'err-code': 'base-request-exceed-frequency-limit' } },
      alice,
    );
    expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 2000 });
  });
  it('X-HB-RateLimit-Requests-Remain syncs the endpoint bucket of the UID', () => {
    expect(read('htx', place, { headers: { 'x-hb-ratelimit-requests-remain': '10' } }, alice).syncs.map((s) => s.key)).toEqual([
      { venue: 'htx', credential: 'uid-1', axis: 'place' },
    ]);
  });
});
