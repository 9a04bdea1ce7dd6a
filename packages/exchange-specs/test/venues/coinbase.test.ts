import { describe, expect, it } from 'vitest';
import { getVenueSpec, validateSpec } from '../../src/index.js';
import { charged, read } from './venue-limits.js';

const firstKey = { credential: 'key-1', uid: 'user-1' } as const;
const secondKey = { credential: 'key-2', uid: 'user-1' } as const;
const order = { method: 'POST', path: '/api/v3/brokerage/orders', body: { product_id: 'BTC-USD' } } as const;

describe('coinbase: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('coinbase');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('the private limit is per user: two keys of one user share one 30/s bucket', () => {
    const a = charged('coinbase', order, firstKey)['private'];
    const b = charged('coinbase', order, secondKey)['private'];
    expect(a).toMatchObject({ scope: 'uid', credential: 'user-1', limit: 30, windowMs: 1000 });
    expect(b?.credential).toBe(a?.credential);
    expect(b?.axis).toBe(a?.axis);
  });

  it('without a uid, a key is its own user (the notes tell users with several keys to pass uid)', () => {
    expect(charged('coinbase', order, { credential: 'key-1' })['private']?.credential).toBe('key-1');
    expect(getVenueSpec('coinbase').notes?.some((n) => n.includes('`uid`'))).toBe(true);
  });

  it('private requests also count against 10,000 per hour per user (the safe reading of the Coinbase App page)', () => {
    expect(charged('coinbase', order, firstKey)['private-hourly']).toMatchObject({ scope: 'uid', credential: 'user-1', limit: 10_000, windowMs: 3_600_000 });
    const hourly = getVenueSpec('coinbase').buckets.find((b) => b.id === 'private-hourly');
    expect(hourly?.provenance.confidence).toBe('uncertain');
  });

  it('public market endpoints: 10 per second per IP', () => {
    expect(charged('coinbase', { method: 'GET', path: '/api/v3/brokerage/market/products/BTC-USD/ticker' })).toEqual({
      public: { axis: 'public', credential: null, scope: 'ip', cost: 1, limit: 10, windowMs: 1000 },
    });
  });
});

describe('coinbase: responses', () => {
  it('429 holds both private buckets of the user, Retry-After when given, else 1 s', () => {
    const fb = read('coinbase', order, { status: 429, body: { errors: [{ id: 'rate_limit_exceeded', message: 'Too many requests' }] } }, secondKey);
    expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 1000 });
    expect(fb.penalties.map((p) => [p.key.credential, p.key.axis])).toEqual([
      ['user-1', 'private'],
      ['user-1', 'private-hourly'],
    ]);
    expect(read('coinbase', order, { status: 429, headers: { 'retry-after': '3' } }, secondKey).retryAfterMs).toBe(3000);
  });
});
