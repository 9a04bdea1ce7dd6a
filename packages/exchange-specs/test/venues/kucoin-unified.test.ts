import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveVenueId, validateSpec } from '../../src/index.js';
import { charged, read } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;

describe('kucoin-unified: the unified trading account pool', () => {
  it('is its own id (a UTA account selects it; the plain name kucoin stays spot), and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('kucoin-unified');
    expect(resolveVenueId('kucoin')).toBe('kucoin');
    expect(spec.ccxtIds).toBeUndefined();
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('orders are charged to the Unified Account pool: 200 per 3 s and 2000 per 30 s per UID at VIP0 (both versions of the page)', () => {
    const place = {
      method: 'POST',
      path: '/api/ua/v1/unified/order/place',
      query: { tradeType: 'FUTURES' },
      body: { tradeType: 'FUTURES', symbol: 'XBTUSDTM', side: 'BUY', orderType: 'LIMIT', size: '1', price: '1' },
    } as const;
    expect(charged('kucoin-unified', place, user)).toEqual({
      unified: { axis: 'unified', credential: 'uid-1', scope: 'uid', cost: 1, limit: 200, windowMs: 3000 },
      'unified-30s': { axis: 'unified-30s', credential: 'uid-1', scope: 'uid', cost: 1, limit: 2000, windowMs: 30_000 },
    });
    expect(charged('kucoin-unified', place, { ...user, tier: 'vip7' })).toMatchObject({ unified: { limit: 1000 }, 'unified-30s': { limit: 10000 } });
    expect(charged('kucoin-unified', place, { ...user, tier: 'vip12' })).toMatchObject({ unified: { limit: 2000 }, 'unified-30s': { limit: 20000 } });
  });

  it('weights as ccxt and JKorf/Kucoin.Net both charge them (uncertain): cancel-all 20, batches 4, queries 4, positions 3', () => {
    const w = (method: 'GET' | 'POST', path: string) => charged('kucoin-unified', { method, path }, user)['unified']?.cost;
    expect(w('POST', '/api/ua/v1/unified/order/cancel')).toBe(1);
    expect(w('POST', '/api/ua/v1/unified/order/cancel-all')).toBe(20);
    expect(w('POST', '/api/ua/v1/unified/order/place-batch')).toBe(4);
    expect(w('POST', '/api/ua/v1/unified/order/cancel-batch')).toBe(4);
    expect(w('GET', '/api/ua/v1/unified/order/open-list')).toBe(4);
    expect(w('GET', '/api/ua/v1/unified/position/open-list')).toBe(3);
    expect(getVenueSpec('kucoin-unified').endpoints.every((e) => e.provenance.confidence === 'uncertain')).toBe(true);
  });

  it('the account mode (GET and POST /api/ua/v1/account/mode) weighs 30 on the Management pool per UID, 2000 per 30 s at VIP0', () => {
    for (const method of ['GET', 'POST'] as const) {
      expect(charged('kucoin-unified', { method, path: '/api/ua/v1/account/mode' }, user)).toEqual({
        management: { axis: 'management', credential: 'uid-1', scope: 'uid', cost: 30, limit: 2000, windowMs: 30_000 },
      });
    }
    expect(charged('kucoin-unified', { method: 'GET', path: '/api/ua/v1/account/mode' }, { ...user, tier: 'vip12' })).toMatchObject({
      management: { limit: 20_000 },
    });
  });

  it('since 2026-06-08 the Unified Account pool is one per user: the spec says to pass the master UID for sub-accounts', () => {
    const spec = getVenueSpec('kucoin-unified');
    expect(spec.sources['utaUpgrade']).toMatchObject({
      url: 'https://www.kucoin.com/announcement/my-announcement-on-uta-api-rate-limit-rule-upgrade',
      retrieved: '2026-12-07',
    });
    expect(spec.buckets.find((b) => b.id === 'unified')?.description).toContain("pass the master account's UID as `uid` for every sub-account's key");
  });

  it('market data on the Public pool per IP', () => {
    expect(charged('kucoin-unified', { method: 'GET', path: '/api/ua/v1/market/ticker', query: { tradeType: 'SPOT' } })).toEqual({
      public: { axis: 'public', credential: null, scope: 'ip', cost: 15, limit: 2000, windowMs: 30_000 },
    });
  });

  it('429000 with gw-ratelimit-reset holds both readings of the pool until the reset', () => {
    const fb = read(
      'kucoin-unified',
      { method: 'POST', path: '/api/ua/v1/unified/order/place' },
      { status: 429, headers: { 'gw-ratelimit-reset': '800' }, body: { code: '429000' } },
      user,
    );
    expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 800 });
    expect(fb.penalties.map((p) => p.key.axis).sort()).toEqual(['unified', 'unified-30s']);
  });
});
