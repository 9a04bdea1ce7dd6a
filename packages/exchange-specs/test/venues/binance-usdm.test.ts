import { describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';
import type { PenaltyHold } from '@core/rate-limit-contract';
import { costs, keyId, publicId } from '../helpers.js';
import { charged } from './venue-limits.js';

const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0 } as const;
const spec = getVenueSpec('binance-usdm');
const order: VenueRequest = { method: 'POST', path: '/fapi/v1/order', query: { symbol: 'BTCUSDT' } };
const depth: VenueRequest = { method: 'GET', path: '/fapi/v1/depth', query: { symbol: 'BTCUSDT' } };

function feedback(request: VenueRequest, response: Partial<VenueResponse>, identity: Identity = publicId) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, identity, PINNED);
}
/** The hold's duration: interpretResponse answers with `forMs`. */
const forMs = (hold: PenaltyHold) => ('forMs' in hold ? hold.forMs : Number.NaN);
const holds = (fb: ReturnType<typeof feedback>) => fb.penalties.map((p) => [p.key.axis, forMs(p.hold)]);
const c = (method: VenueRequest['method'], path: string, query: Record<string, string> = {}, identity: Identity = publicId) =>
  costs('binance-usdm', { method, path, query }, identity);

describe('binance-usdm: every number carries the documentation sentence it comes from', () => {
  it('validates with a quote on every provenance, checked 2026-12-01', () => {
    const r = validateSpec(spec);
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(spec.verification?.checked).toBe('2026-12-01');
  });

  it('2,400 weight per minute per IP; 300 orders per 10 s and 1,200 per minute per account', () => {
    const b = Object.fromEntries(spec.buckets.map((x) => [x.id, x]));
    expect(b['request_weight']).toMatchObject({ limit: 2400, windowMs: 60_000, scope: 'ip' });
    expect(b['orders_10s']).toMatchObject({ limit: 300, windowMs: 10_000, scope: 'uid' });
    expect(b['orders_1m']).toMatchObject({ limit: 1200, windowMs: 60_000, scope: 'uid' });
  });
});

describe('binance-usdm endpoint weights', () => {
  it('GET /fapi/v1/historicalTrades weighs 200 IP weight (the connector since 2026-08-07; 20 before), quoted from its source', () => {
    expect(c('GET', '/fapi/v1/historicalTrades', { symbol: 'BTCUSDT' }, keyId)).toEqual({ request_weight: 200 });
    const e = spec.endpoints.find((x) => x.id === 'historicalTrades');
    expect(e?.provenance.quote).toContain('Weight(IP): 200');
    expect(spec.sources[e?.provenance.source ?? '']).toMatchObject({ retrieved: '2026-12-07' });
    expect(spec.sources[e?.provenance.source ?? '']?.url).toContain('binance-connector-python/blob/c4b8aa696a85adcf73f4d12402448dfd7a53934a/');
  });

  it('GET /fapi/v1/premiumIndex weighs 1 with symbol, 10 without', () => {
    expect(c('GET', '/fapi/v1/premiumIndex', { symbol: 'BTCUSDT' })['request_weight']).toBe(1);
    expect(c('GET', '/fapi/v1/premiumIndex')['request_weight']).toBe(10);
  });

  it('modifying an order counts on both order counts and 0 on the IP weight; modifying a batch 5 / 1 / 5', () => {
    expect(c('PUT', '/fapi/v1/order', {}, keyId)).toEqual({ orders_10s: 1, orders_1m: 1 });
    expect(c('PUT', '/fapi/v1/batchOrders', {}, keyId)).toEqual({ orders_10s: 5, orders_1m: 1, request_weight: 5 });
  });

  it('new orders: 1 / 1 / 0; a batch of up to 5: 5 / 1 / 5', () => {
    expect(c('POST', '/fapi/v1/order', {}, keyId)).toEqual({ orders_10s: 1, orders_1m: 1 });
    expect(costs('binance-usdm', { method: 'POST', path: '/fapi/v1/batchOrders', body: { batchOrders: '[{},{}]' } }, keyId)).toEqual({
      orders_10s: 5,
      orders_1m: 1,
      request_weight: 5,
    });
  });

  it('funding rate history and info share their own 500 per 5 minutes per IP', () => {
    expect(spec.buckets.find((b) => b.id === 'funding_5m')).toMatchObject({ limit: 500, windowMs: 300_000, scope: 'ip' });
    expect(c('GET', '/fapi/v1/fundingRate', { symbol: 'BTCUSDT' })).toEqual({ funding_5m: 1, request_weight: 1 });
    expect(c('GET', '/fapi/v1/fundingInfo')).toEqual({ funding_5m: 1 });
  });

  it('depth by limit: 5/10/20/50 → 2, 100 → 5, 500 (default) → 10, 1000 → 20', () => {
    const d = (limit?: string) => c('GET', '/fapi/v1/depth', { symbol: 'X', ...(limit === undefined ? {} : { limit }) })['request_weight'];
    expect([d('5'), d('10'), d('20'), d('50'), d('100'), d(), d('500'), d('1000')]).toEqual([2, 2, 2, 2, 5, 10, 10, 20]);
  });

  it('klines and the other kline endpoints by limit: [1,100) 1, [100,500) 2, [500,1000] 5, above 10; default 500', () => {
    for (const path of [
      '/fapi/v1/klines',
      '/fapi/v1/continuousKlines',
      '/fapi/v1/indexPriceKlines',
      '/fapi/v1/markPriceKlines',
      '/fapi/v1/premiumIndexKlines',
    ]) {
      const k = (limit?: string) => c('GET', path, { symbol: 'X', ...(limit === undefined ? {} : { limit }) })['request_weight'];
      expect([k('1'), k('99'), k('100'), k('499'), k('500'), k('1000'), k('1001'), k('1500'), k()], path).toEqual([1, 1, 2, 2, 5, 5, 10, 10, 5]);
    }
  });

  it('tickers and account endpoints', () => {
    const w = (method: VenueRequest['method'], path: string, query: Record<string, string> = {}, identity: Identity = publicId) =>
      c(method, path, query, identity)['request_weight'];
    expect([w('GET', '/fapi/v1/ticker/24hr', { symbol: 'A' }), w('GET', '/fapi/v1/ticker/24hr')]).toEqual([1, 40]);
    expect([w('GET', '/fapi/v1/ticker/price', { symbol: 'A' }), w('GET', '/fapi/v1/ticker/price'), w('GET', '/fapi/v2/ticker/price')]).toEqual([1, 2, 2]);
    expect([w('GET', '/fapi/v1/ticker/bookTicker', { symbol: 'A' }), w('GET', '/fapi/v1/ticker/bookTicker')]).toEqual([2, 5]);
    expect([
      w('GET', '/fapi/v1/exchangeInfo'),
      w('GET', '/fapi/v1/trades'),
      w('GET', '/fapi/v1/aggTrades'),
      w('GET', '/fapi/v1/historicalTrades', {}, keyId),
    ]).toEqual([1, 5, 20, 200]);
    expect([
      w('GET', '/fapi/v1/openOrders', { symbol: 'A' }, keyId),
      w('GET', '/fapi/v1/openOrders', {}, keyId),
      w('GET', '/fapi/v1/forceOrders', {}, keyId),
    ]).toEqual([1, 40, 50]);
    expect([
      w('GET', '/fapi/v2/account', {}, keyId),
      w('GET', '/fapi/v3/balance', {}, keyId),
      w('GET', '/fapi/v3/positionRisk', {}, keyId),
      w('GET', '/fapi/v1/income', {}, keyId),
    ]).toEqual([5, 5, 5, 30]);
    expect([
      w('GET', '/fapi/v1/positionSide/dual', {}, keyId),
      w('POST', '/fapi/v1/positionSide/dual', {}, keyId),
      w('POST', '/fapi/v1/countdownCancelAll', {}, keyId),
    ]).toEqual([30, 1, 10]);
  });
});

describe('binance-usdm holds the venue imposes', () => {
  it('a WAF 403 is a ban of the IP for the usual 5 minutes, or for Retry-After', () => {
    const fb = feedback(depth, { status: 403, body: '' });
    expect(fb).toMatchObject({ verdict: 'banned', rule: 'waf', retryAfterMs: 300_000 });
    expect(holds(fb)).toEqual([
      ['request_weight', 300_000],
      ['funding_5m', 300_000],
    ]);
    expect(feedback(depth, { status: 403, headers: { 'retry-after': '60' } }).retryAfterMs).toBe(60_000);
  });

  it('-1015 naming the minute (or no interval) without Retry-After holds both order counts a whole minute', () => {
    const minute = feedback(order, { status: 429, body: { code: -1015, msg: 'Too many new orders; current limit is 1200 orders per MINUTE.' } }, keyId);
    expect(minute).toMatchObject({ verdict: 'rate_limited', rule: 'too-many-orders' });
    expect(holds(minute)).toEqual([
      ['orders_10s', 60_000],
      ['orders_1m', 60_000],
    ]);
    expect(holds(feedback(order, { status: 429, body: { code: -1015, msg: 'Too many new orders.' } }, keyId))).toEqual([
      ['orders_10s', 60_000],
      ['orders_1m', 60_000],
    ]);
  });

  it('-1015 naming the 10 s interval holds the 10 s count one interval', () => {
    const fb = feedback(order, { status: 429, body: { code: -1015, msg: 'Too many new orders; current limit is 300 orders per 10 SECOND.' } }, keyId);
    expect(fb.rule).toBe('too-many-orders-10s');
    expect(holds(fb)).toEqual([['orders_10s', 10_000]]);
    expect(
      holds(
        feedback(
          order,
          { status: 429, headers: { 'retry-after': '4' }, body: { code: -1015, msg: 'Too many new orders; current limit is 300 orders per 10 SECOND.' } },
          keyId,
        ),
      ),
    ).toEqual([['orders_10s', 4000]]);
  });

  it('a weight 429 without Retry-After holds the IP weight a whole minute', () => {
    expect(holds(feedback(depth, { status: 429, body: { code: -1003, msg: 'Too many requests; current limit is 2400 requests per minute.' } }))).toEqual([
      ['request_weight', 60_000],
    ]);
  });

  it('503 -1008 is overload, not counted, and names no wait', () => {
    const fb = feedback(
      order,
      {
        status: 503,
        body: { code: -1008, msg: 'Request throttled by system-level protection. Reduce-only/close-position orders are exempt. Please try again.' },
      },
      keyId,
    );
    expect(fb).toMatchObject({ verdict: 'overloaded', counted: false, penalties: [] });
    expect(fb.retryAfterMs).toBeUndefined();
  });

  it('418: Retry-After, else the documented minimum of 2 minutes', () => {
    expect(holds(feedback(depth, { status: 418 }))).toEqual([
      ['request_weight', 120_000],
      ['funding_5m', 120_000],
    ]);
  });
});

describe("binance-usdm: the account-dependent order limits as the futures FAQ's volume tiers", () => {
  const limitOf = (bucket: string, tier?: string) => {
    const id: Identity = { credential: 'key-1', uid: 'account-1', ...(tier === undefined ? {} : { tier }) };
    const r = charged('binance-usdm', order, id)[bucket];
    return r?.limit;
  };

  it('the documented default (1,200 / min, 300 / 10 s) when the identity names no tier', () => {
    expect(spec.defaultTier).toBe('default');
    expect([limitOf('orders_1m'), limitOf('orders_10s')]).toEqual([1200, 300]);
  });

  it('per 30-day futures volume: 5,000 to 15,000 orders a minute, a third of it per 10 s (rounded down)', () => {
    const tiers = ['volume-600m', 'volume-1b', 'volume-2.5b', 'volume-5b', 'volume-12.5b', 'volume-25b'];
    expect(tiers.map((t) => limitOf('orders_1m', t))).toEqual([5000, 6000, 8000, 10_000, 12_000, 15_000]);
    expect(tiers.map((t) => limitOf('orders_10s', t))).toEqual([1666, 2000, 2666, 3333, 4000, 5000]);
  });

  it('the tier never raises the IP weight (granted per IP, not per account)', () => {
    const depthLimit = (tier: string) => charged('binance-usdm', depth, { credential: 'key-1', tier })['request_weight']?.limit;
    expect(depthLimit('volume-25b')).toBe(2400);
  });

  it('an unknown tier is refused', () => {
    const r = resolveRequest(spec, order, { credential: 'key-1', tier: 'vip-9' });
    expect(r.ok ? 'resolved' : r.error.code).toBe('unknown_tier');
  });
});
