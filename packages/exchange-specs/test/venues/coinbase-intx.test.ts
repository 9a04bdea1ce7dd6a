import { describe, expect, it } from 'vitest';
import { getVenueSpec, validateSpec } from '../../src/index.js';
import { charged, read } from './venue-limits.js';

const key = { credential: 'intx-key-1', uid: 'intx-account' } as const;
const order = {
  method: 'POST',
  path: '/api/v1/orders',
  body: { portfolio: 'p1', instrument: 'BTC-PERP', side: 'BUY', type: 'LIMIT', size: '0.01', price: '60000', tif: 'GTC' },
} as const;

describe('coinbase-intx: documented numbers', () => {
  it('carries its verification, and the ccxt name coinbaseinternational resolves to it', () => {
    const spec = getVenueSpec('coinbase-intx');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
    expect(getVenueSpec('coinbaseinternational').id).toBe('coinbase-intx');
    expect(getVenueSpec('ccxt:coinbaseinternational').origin).toBe('ccxt-derived');
  });

  it('signed requests: 40 per s per API key, 4,000 per s per account, 100 per s per IP', () => {
    expect(charged('coinbase-intx', order, key)).toEqual({
      key: { axis: 'key', credential: 'intx-key-1', scope: 'key', cost: 1, limit: 40, windowMs: 1000 },
      account: { axis: 'account', credential: 'intx-account', scope: 'uid', cost: 1, limit: 4000, windowMs: 1000 },
      ip: { axis: 'ip', credential: null, scope: 'ip', cost: 1, limit: 100, windowMs: 1000 },
    });
    for (const [method, path] of [
      ['DELETE', '/api/v1/orders'],
      ['PUT', '/api/v1/orders/123'],
      ['GET', '/api/v1/portfolios/p1/positions'],
      ['GET', '/api/v1/portfolios/fills'],
      ['POST', '/api/v1/transfers/withdraw'],
    ] as const) {
      expect(charged('coinbase-intx', { method, path }, key)['key'], `${method} ${path}`).toMatchObject({ limit: 40, windowMs: 1000 });
    }
  });

  it('two keys of one account keep their own 40 per s and share the account ceiling', () => {
    const a = charged('coinbase-intx', order, key);
    const b = charged('coinbase-intx', order, { credential: 'intx-key-2', uid: 'intx-account' });
    expect(a['key']?.credential).not.toBe(b['key']?.credential);
    expect(a['account']?.credential).toBe(b['account']?.credential);
  });

  it('market data without a key: 10 per s per IP (no number is stated; ccxt paces INTX at 10), within the 100 per s IP ceiling', () => {
    expect(charged('coinbase-intx', { method: 'GET', path: '/api/v1/instruments/BTC-PERP/quote' })).toEqual({
      public: { axis: 'public', credential: null, scope: 'ip', cost: 1, limit: 10, windowMs: 1000 },
      ip: { axis: 'ip', credential: null, scope: 'ip', cost: 1, limit: 100, windowMs: 1000 },
    });
  });

  it('an endpoint the spec does not list is still a REST request: the per-key limit applies', () => {
    expect(Object.keys(charged('coinbase-intx', { method: 'GET', path: '/api/v1/rankings/statistics' }, key)).sort()).toEqual(['account', 'ip', 'key']);
  });
});

describe('coinbase-intx: responses', () => {
  it('429 holds the charged buckets for Retry-After, else 1 s', () => {
    const body = { message: 'Rate limit exceeded - Server allows 100 requests per second' };
    const withHeader = read('coinbase-intx', order, { status: 429, headers: { 'retry-after': '2' }, body }, key);
    expect(withHeader).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 2000 });
    expect(withHeader.penalties.map((p) => p.key.axis).sort()).toEqual(['account', 'ip', 'key']);
    expect(read('coinbase-intx', order, { status: 429, body }, key)).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 1000 });
  });

  it('a bad request is no rate limit', () => {
    expect(read('coinbase-intx', order, { status: 400, body: { message: 'Invalid Price' } }, key).verdict).toBe('error');
  });
});
