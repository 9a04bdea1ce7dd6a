import { describe, expect, it } from 'vitest';
import { getVenueSpec, validateSpec } from '../../src/index.js';
import { charged, read } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;

describe('bitmart-futures: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('bitmart-futures');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
    expect(spec.ccxtIds).toBeUndefined();
  });

  it('orders per API key; plan, TP/SL and modify endpoints per account', () => {
    expect(charged('bitmart-futures', { method: 'POST', path: '/contract/private/submit-order' }, user)).toEqual({
      'key-24-per-2s': { axis: 'key-24-per-2s:POST /contract/private/submit-order', credential: 'key-1', scope: 'key', cost: 1, limit: 24, windowMs: 2000 },
    });
    expect(charged('bitmart-futures', { method: 'POST', path: '/contract/private/cancel-order' }, user)['key-40-per-2s']).toMatchObject({ limit: 40 });
    expect(charged('bitmart-futures', { method: 'POST', path: '/contract/private/cancel-orders' }, user)['key-2-per-2s']).toMatchObject({ limit: 2 });
    expect(charged('bitmart-futures', { method: 'POST', path: '/contract/private/modify-limit-order' }, user)['uid-24-per-2s']).toMatchObject({
      limit: 24,
      credential: 'uid-1',
    });
    expect(charged('bitmart-futures', { method: 'POST', path: '/contract/private/cancel-all-after' }, user)['uid-4-per-2s']).toMatchObject({ limit: 4 });
    expect(charged('bitmart-futures', { method: 'POST', path: '/contract/private/cancel-plan-order' }, user)['uid-40-per-2s']).toMatchObject({ limit: 40 });
  });

  it('queries and account endpoints per API key', () => {
    expect(charged('bitmart-futures', { method: 'GET', path: '/contract/private/position' }, user)['key-6-per-2s']).toMatchObject({ limit: 6 });
    expect(charged('bitmart-futures', { method: 'GET', path: '/contract/private/get-open-orders' }, user)['key-50-per-2s']).toMatchObject({ limit: 50 });
    expect(charged('bitmart-futures', { method: 'GET', path: '/contract/private/assets-detail' }, user)['key-12-per-2s']).toMatchObject({ limit: 12 });
    expect(charged('bitmart-futures', { method: 'POST', path: '/account/v1/transfer-contract' }, user)['key-1-per-2s']).toMatchObject({
      limit: 1,
      windowMs: 2000,
    });
  });

  it('market data per IP: 12 per 2 s, open interest 2 per 2 s', () => {
    expect(charged('bitmart-futures', { method: 'GET', path: '/contract/public/depth', query: { symbol: 'BTCUSDT' } })).toEqual({
      'ip-12-per-2s': { axis: 'ip-12-per-2s:GET /contract/public/depth', credential: null, scope: 'ip', cost: 1, limit: 12, windowMs: 2000 },
    });
    expect(charged('bitmart-futures', { method: 'GET', path: '/contract/public/open-interest' })['ip-2-per-2s']).toMatchObject({ limit: 2 });
  });
});

describe('bitmart-futures: responses', () => {
  const order = { method: 'POST', path: '/contract/private/submit-order' } as const;

  it('429 or code 30013 holds the endpoint one window (2 s without X-BM-RateLimit-Reset)', () => {
    expect(read('bitmart-futures', order, { status: 429 }, user)).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 2000 });
    expect(read('bitmart-futures', order, { status: 200, body: { code: 30013 } }, user)).toMatchObject({
      verdict: 'rate_limited',
      rule: 'too-many-requests-code',
    });
  });

  it('418 / 30017 rejects the account: held 10 minutes (no duration is documented)', () => {
    expect(read('bitmart-futures', order, { status: 418, body: { code: 30017 } }, user)).toMatchObject({
      verdict: 'banned',
      rule: 'account-rejected',
      retryAfterMs: 600_000,
    });
  });
});
