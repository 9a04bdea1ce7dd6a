import { describe, expect, it } from 'vitest';
import { getVenueSpec, listVenues, validateSpec } from '../../src/index.js';
import { charged, read, refused } from './venue-limits.js';

const account = { credential: 'ascendex-key', uid: 'ascendex-account' } as const;
const snapshot = { method: 'GET', path: '/api/pro/data/v1/cash/balance/snapshot', query: { date: '2026-11-30' } } as const;

describe('ascendex: the one documented REST limit', () => {
  it('carries its verification; its ccxt id names it (ccxt 4.5.84 has no ascendex estimate)', () => {
    const spec = getVenueSpec('ascendex');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
    expect(spec.ccxtIds).toEqual(['ascendex']);
    expect(listVenues().some((v) => v.id === 'ccxt:ascendex')).toBe(false);
  });

  it('balance snapshot and detail: 8 per minute, counted per IP and per account at once', () => {
    expect(charged('ascendex', snapshot, account)).toEqual({
      'balance-detail-ip': { axis: 'balance-detail-ip', credential: null, scope: 'ip', cost: 1, limit: 8, windowMs: 60_000 },
      'balance-detail-account': { axis: 'balance-detail-account', credential: 'ascendex-account', scope: 'uid', cost: 1, limit: 8, windowMs: 60_000 },
    });
  });

  it('the six cash, margin and futures endpoints share the same 8 per minute', () => {
    for (const ac of ['cash', 'margin', 'futures']) {
      for (const what of ['snapshot', 'history']) {
        const path = `/api/pro/data/v1/${ac}/balance/${what}`;
        expect(charged('ascendex', { method: 'GET', path }, account)['balance-detail-account'], path).toMatchObject({
          axis: 'balance-detail-account',
          limit: 8,
          windowMs: 60_000,
        });
      }
    }
  });

  it('endpoints without a documented limit are not priced', () => {
    expect(refused('ascendex', { method: 'POST', path: '/1/api/pro/v1/cash/order' }, account)).toBe('unknown_endpoint');
    expect(refused('ascendex', { method: 'GET', path: '/api/pro/v1/depth', query: { symbol: 'BTC/USDT' } })).toBe('unknown_endpoint');
  });

  it('a 429 holds both buckets for Retry-After, else the minute', () => {
    const fb = read('ascendex', snapshot, { status: 429, body: { code: 100001 } }, account);
    expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 60_000 });
    expect(fb.penalties.map((p) => p.key.axis).sort()).toEqual(['balance-detail-account', 'balance-detail-ip']);
    expect(read('ascendex', snapshot, { status: 429, headers: { 'retry-after': '5' } }, account).retryAfterMs).toBe(5000);
  });
});
