import { describe, expect, it } from 'vitest';
import type { PenaltyHold } from '@core/rate-limit-contract';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';
import { charged } from './venue-limits.js';

const spec = getVenueSpec('binance-options');
const account: Identity = { credential: 'key-1', uid: 'account-1' };
const forMs = (hold: PenaltyHold) => ('forMs' in hold ? hold.forMs : Number.NaN);
const mark: VenueRequest = { method: 'GET', path: '/eapi/v1/mark' };
const order: VenueRequest = { method: 'POST', path: '/eapi/v1/order', query: { symbol: 'BTC-261225-100000-C' } };

function w(method: VenueRequest['method'], path: string, query: Record<string, string> = {}): Record<string, number> {
  return Object.fromEntries(Object.entries(charged('binance-options', { method, path, query }, account)).map(([k, v]) => [k, v.cost]));
}

function feedback(request: VenueRequest, response: Partial<VenueResponse>) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, account);
}

describe('binance-options: every number carries the documentation sentence it comes from', () => {
  it('validates with a quote on every provenance, checked 2026-12-01; the options market', () => {
    const r = validateSpec(spec);
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(spec.markets).toEqual(['options']);
  });

  it("the exchangeInfo example's limits: 2,400 weight per minute per IP, 300 orders per 10 s and 1,200 per minute per account", () => {
    const b = Object.fromEntries(spec.buckets.map((x) => [x.id, x]));
    expect(b['request_weight']).toMatchObject({ scope: 'ip', limit: 2400, windowMs: 60_000 });
    expect(b['orders_10s']).toMatchObject({ scope: 'uid', limit: 300, windowMs: 10_000 });
    expect(b['orders_1m']).toMatchObject({ scope: 'uid', limit: 1200, windowMs: 60_000 });
    for (const x of spec.buckets) expect(x.provenance.confidence, x.id).toBe('uncertain');
  });

  it('the plain name binance stays spot; options are asked for by id', () => {
    expect(getVenueSpec('binance').id).toBe('binance-spot');
    expect(getVenueSpec('binance-options').id).toBe('binance-options');
  });
});

describe('binance-options endpoint weights', () => {
  it('a new order: 0 IP weight, 1 on each order limit; a batch (up to 10 orders): 5 weight, 10 on each', () => {
    expect(w('POST', '/eapi/v1/order')).toEqual({ request_weight: 0, orders_10s: 1, orders_1m: 1 });
    expect(w('POST', '/eapi/v1/batchOrders')).toEqual({ request_weight: 5, orders_10s: 10, orders_1m: 10 });
  });

  it('depth by limit (default 100): up to 50 → 2 (the higher of the two page versions), 100 → 5, 500 → 10, 1000 → 20', () => {
    const d = (limit?: string) => w('GET', '/eapi/v1/depth', { symbol: 'X', ...(limit === undefined ? {} : { limit }) })['request_weight'];
    expect([d('10'), d('50'), d(), d('100'), d('500'), d('1000')]).toEqual([2, 2, 5, 5, 10, 20]);
  });

  it('ticker 5 with symbol and 40 without; open orders 1 / 40; cancels 1, batches and cancel-all 5', () => {
    const x = (method: VenueRequest['method'], path: string, query: Record<string, string> = {}) => w(method, path, query)['request_weight'];
    expect([x('GET', '/eapi/v1/ticker', { symbol: 'A' }), x('GET', '/eapi/v1/ticker')]).toEqual([5, 40]);
    expect([x('GET', '/eapi/v1/openOrders', { symbol: 'A' }), x('GET', '/eapi/v1/openOrders')]).toEqual([1, 40]);
    expect([
      x('DELETE', '/eapi/v1/order'),
      x('DELETE', '/eapi/v1/batchOrders'),
      x('DELETE', '/eapi/v1/allOpenOrders'),
      x('DELETE', '/eapi/v1/allOpenOrdersByUnderlying'),
    ]).toEqual([1, 5, 5, 5]);
    expect([x('GET', '/eapi/v1/position'), x('GET', '/eapi/v1/marginAccount'), x('GET', '/eapi/v1/mark'), x('GET', '/eapi/v1/openInterest')]).toEqual([
      5, 3, 5, 0,
    ]);
  });

  it('a /dapi path is refused naming binance-coinm', () => {
    const r = resolveRequest(spec, { method: 'GET', path: '/dapi/v1/ping' }, account);
    expect(r.ok ? 'resolved' : r.error.pricedBy).toBe('binance-coinm');
  });
});

describe('binance-options refusals', () => {
  it('-1008 is the options weight limit: rate limited, the IP weight held for Retry-After, else a minute', () => {
    const fb = feedback(mark, { status: 429, body: { code: -1008, msg: 'Too much request weight used; current limit is 2400 request weight per 1 MINUTE.' } });
    expect([fb.verdict, fb.rule]).toEqual(['rate_limited', 'too-much-weight']);
    expect(fb.penalties.map((p) => [p.key.axis, forMs(p.hold)])).toEqual([['request_weight', 60_000]]);
  });

  it('-1015 naming the 10-second interval holds the orders 10 s; otherwise both order limits a minute', () => {
    const ten = feedback(order, { status: 429, body: { code: -1015, msg: 'Too many new orders; current limit is 300 orders per 10 SECOND.' } });
    expect(ten.penalties.map((p) => [p.key.axis, forMs(p.hold)])).toEqual([['orders_10s', 10_000]]);
    const minute = feedback(order, { status: 429, body: { code: -1015, msg: 'Too many new orders; current limit is 1200 orders per MINUTE.' } });
    expect(minute.penalties.map((p) => [p.key.axis, forMs(p.hold)])).toEqual([
      ['orders_10s', 60_000],
      ['orders_1m', 60_000],
    ]);
  });

  it('418 holds the IP weight', () => {
    expect(feedback(mark, { status: 418, headers: { 'retry-after': '240' } }).penalties.map((p) => [p.key.axis, forMs(p.hold)])).toEqual([
      ['request_weight', 240_000],
    ]);
  });
});
