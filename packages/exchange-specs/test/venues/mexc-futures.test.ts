import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveVenueId, validateSpec } from '../../src/index.js';
import { charged, read, refused } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;
const ids = (n: number): number[] => Array.from({ length: n }, (_, i) => i + 1);

describe('mexc-futures: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('mexc-futures');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
    expect(resolveVenueId('mexc')).toBe('mexc-spot');
  });

  it('market endpoints: 20 per 2 s each, per IP', () => {
    expect(charged('mexc-futures', { method: 'GET', path: '/api/v1/contract/depth/BTC_USDT' })).toEqual({
      public: { axis: 'public:GET /api/v1/contract/depth/{symbol}', credential: null, scope: 'ip', cost: 1, limit: 20, windowMs: 2000 },
    });
    expect(charged('mexc-futures', { method: 'GET', path: '/api/v1/contract/ticker' })['public']?.axis).toBe('public:GET /api/v1/contract/ticker');
  });

  it('contract information: 1 per 5 s', () => {
    expect(charged('mexc-futures', { method: 'GET', path: '/api/v1/contract/detail' })).toEqual({
      'contract-detail': { axis: 'contract-detail', credential: null, scope: 'ip', cost: 1, limit: 1, windowMs: 5000 },
    });
  });

  it('signed endpoints: 20 per 2 s each, per account and per IP', () => {
    expect(charged('mexc-futures', { method: 'GET', path: '/api/v1/private/position/open_positions' }, user)).toEqual({
      'private-uid': { axis: 'private-uid:GET /api/v1/private/position/open_positions', credential: 'uid-1', scope: 'uid', cost: 1, limit: 20, windowMs: 2000 },
      'private-ip': { axis: 'private-ip:GET /api/v1/private/position/open_positions', credential: null, scope: 'ip', cost: 1, limit: 20, windowMs: 2000 },
    });
    expect(charged('mexc-futures', { method: 'POST', path: '/api/v1/private/order/submit' }, user)['private-uid']?.axis).toBe(
      'private-uid:POST /api/v1/private/order/submit',
    );
    expect(charged('mexc-futures', { method: 'GET', path: '/api/v1/private/order/list/open_orders' }, user)['private-uid']).toMatchObject({ limit: 20 });
  });

  it('batch query: 5 per 2 s; bulk order: 1 per 2 s for up to 50 orders', () => {
    expect(
      charged('mexc-futures', { method: 'GET', path: '/api/v1/private/order/batch_query', query: { order_ids: '1,2,3' } }, user)['batch-query-uid'],
    ).toMatchObject({ limit: 5, windowMs: 2000 });
    const orders = ids(50).map(() => ({ symbol: 'BTC_USDT', price: 1, vol: 1, side: 1, type: 1, openType: 1 }));
    const r = charged('mexc-futures', { method: 'POST', path: '/api/v1/private/order/submit_batch', body: orders }, user);
    expect(r['submit-batch-uid']).toMatchObject({ cost: 1, limit: 1, windowMs: 2000, credential: 'uid-1' });
    expect(r['submit-batch-ip']).toMatchObject({ cost: 1, limit: 1, windowMs: 2000, credential: null });
    expect(refused('mexc-futures', { method: 'POST', path: '/api/v1/private/order/submit_batch', body: [...orders, orders[0]] }, user)).toBe(
      'invalid_parameter',
    );
  });

  it('cancel: one request for up to 50 order ids', () => {
    expect(charged('mexc-futures', { method: 'POST', path: '/api/v1/private/order/cancel', body: ids(50) }, user)['private-uid']).toMatchObject({
      cost: 1,
      limit: 20,
    });
    expect(refused('mexc-futures', { method: 'POST', path: '/api/v1/private/order/cancel', body: ids(51) }, user)).toBe('invalid_parameter');
  });
});

describe('mexc-futures: responses', () => {
  const positions = { method: 'GET', path: '/api/v1/private/position/open_positions' } as const;
  it("code 510 in the body holds the endpoint's buckets 5 s", () => {
    const fb = read('mexc-futures', positions, { status: 200, body: { success: false, code: 510, message: 'Excessive frequency of requests' } }, user);
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'excessive-frequency', retryAfterMs: 5000 });
    expect(fb.penalties.map((p) => p.key.axis).sort()).toEqual([
      'private-ip:GET /api/v1/private/position/open_positions',
      'private-uid:GET /api/v1/private/position/open_positions',
    ]);
  });
  it('an HTTP 429 is read the same way, Retry-After first', () => {
    expect(read('mexc-futures', positions, { status: 429, headers: { 'retry-after': '3' } }, user)).toMatchObject({
      verdict: 'rate_limited',
      retryAfterMs: 3000,
    });
  });
  it('a success body is ok', () => {
    expect(read('mexc-futures', positions, { status: 200, body: { success: true, code: 0, data: [] } }, user)).toMatchObject({ verdict: 'ok', penalties: [] });
  });
});
