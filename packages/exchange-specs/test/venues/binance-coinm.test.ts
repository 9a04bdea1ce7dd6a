import { describe, expect, it } from 'vitest';
import type { PenaltyHold } from '@core/rate-limit-contract';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';
import { charged } from './venue-limits.js';

const spec = getVenueSpec('binance-coinm');
const account: Identity = { credential: 'key-1', uid: 'account-1' };
const forMs = (hold: PenaltyHold) => ('forMs' in hold ? hold.forMs : Number.NaN);
const order: VenueRequest = { method: 'POST', path: '/dapi/v1/order', query: { symbol: 'BTCUSD_PERP' } };

/** What the venue counts per bucket for a request. */
function w(method: VenueRequest['method'], path: string, query: Record<string, string> = {}, identity: Identity = account): Record<string, number> {
  return Object.fromEntries(Object.entries(charged('binance-coinm', { method, path, query }, identity)).map(([k, v]) => [k, v.cost]));
}

function feedback(request: VenueRequest, response: Partial<VenueResponse>) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, account);
}

describe('binance-coinm: every number carries the documentation sentence it comes from', () => {
  it('validates with a quote on every provenance, checked 2026-12-01; perpetual and delivery futures', () => {
    const r = validateSpec(spec);
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(spec.markets).toEqual(['perpetual', 'delivery']);
  });

  it('2,400 weight per minute per IP; 1,200 orders per minute per account (no 10-second limit: that one is USDⓈ-M only)', () => {
    expect(spec.buckets.map((b) => [b.id, b.scope, b.algorithm === 'token-bucket' ? 0 : b.limit, b.algorithm === 'token-bucket' ? 0 : b.windowMs])).toEqual([
      ['request_weight', 'ip', 2400, 60_000],
      ['orders_1m', 'uid', 1200, 60_000],
    ]);
  });

  it("ccxt's binancecoinm resolves to this spec; its estimate is ccxt:binancecoinm", () => {
    expect(getVenueSpec('binancecoinm').id).toBe('binance-coinm');
    expect(getVenueSpec('ccxt:binancecoinm').origin).toBe('ccxt-derived');
  });
});

describe('binance-coinm endpoint weights', () => {
  it("a new order: 1 on the account's minute order count, 0 IP weight", () => {
    expect(w('POST', '/dapi/v1/order', { symbol: 'BTCUSD_PERP' })).toEqual({ orders_1m: 1 });
  });

  it('a batch of up to 5 orders: 5 IP weight and 5 orders (its most, the page states no order count)', () => {
    expect(w('POST', '/dapi/v1/batchOrders')).toEqual({ request_weight: 5, orders_1m: 5 });
    expect(w('PUT', '/dapi/v1/order')).toEqual({ request_weight: 1, orders_1m: 1 });
    expect(w('PUT', '/dapi/v1/batchOrders')).toEqual({ request_weight: 5, orders_1m: 5 });
  });

  it('depth by limit: 5/10/20/50 → 2, 100 → 5, 500 (default) → 10, 1000 → 20', () => {
    const d = (limit?: string) => w('GET', '/dapi/v1/depth', { symbol: 'X', ...(limit === undefined ? {} : { limit }) })['request_weight'];
    expect([d('5'), d('50'), d('100'), d(), d('500'), d('1000')]).toEqual([2, 2, 5, 10, 10, 20]);
  });

  it('klines by limit: [1,100) 1, [100,500) 2, [500,1000] 5, above 10; default 500', () => {
    for (const path of [
      '/dapi/v1/klines',
      '/dapi/v1/continuousKlines',
      '/dapi/v1/indexPriceKlines',
      '/dapi/v1/markPriceKlines',
      '/dapi/v1/premiumIndexKlines',
    ]) {
      const k = (limit?: string) => w('GET', path, { symbol: 'X', ...(limit === undefined ? {} : { limit }) })['request_weight'];
      expect([k('99'), k('100'), k('500'), k('1000'), k('1001'), k()], path).toEqual([1, 2, 5, 5, 10, 5]);
    }
  });

  it('old trades weigh 200 (the page since August 2026), the mark price 10, tickers by symbol', () => {
    const x = (method: VenueRequest['method'], path: string, query: Record<string, string> = {}) => w(method, path, query)['request_weight'];
    expect(x('GET', '/dapi/v1/historicalTrades', { symbol: 'X' })).toBe(200);
    expect(x('GET', '/dapi/v1/premiumIndex')).toBe(10);
    expect([x('GET', '/dapi/v1/ticker/24hr', { symbol: 'A' }), x('GET', '/dapi/v1/ticker/24hr')]).toEqual([1, 40]);
    expect([x('GET', '/dapi/v1/ticker/price', { symbol: 'A' }), x('GET', '/dapi/v1/ticker/price')]).toEqual([1, 2]);
    expect([x('GET', '/dapi/v1/ticker/bookTicker', { symbol: 'A' }), x('GET', '/dapi/v1/ticker/bookTicker')]).toEqual([2, 5]);
  });

  it('orders and fills: 20 with symbol, 40 with pair; open orders 1 / 40; force orders 20 / 50', () => {
    const x = (path: string, query: Record<string, string>) => w('GET', path, query)['request_weight'];
    expect([x('/dapi/v1/allOrders', { symbol: 'BTCUSD_PERP' }), x('/dapi/v1/allOrders', { pair: 'BTCUSD' })]).toEqual([20, 40]);
    expect([x('/dapi/v1/userTrades', { symbol: 'BTCUSD_PERP' }), x('/dapi/v1/userTrades', { pair: 'BTCUSD' })]).toEqual([20, 40]);
    expect([x('/dapi/v1/openOrders', { symbol: 'BTCUSD_PERP' }), x('/dapi/v1/openOrders', {})]).toEqual([1, 40]);
    expect([x('/dapi/v1/forceOrders', { symbol: 'BTCUSD_PERP' }), x('/dapi/v1/forceOrders', {})]).toEqual([20, 50]);
  });

  it('account endpoints', () => {
    const x = (method: VenueRequest['method'], path: string) => w(method, path)['request_weight'];
    expect([
      x('GET', '/dapi/v1/account'),
      x('GET', '/dapi/v1/balance'),
      x('GET', '/dapi/v1/positionRisk'),
      x('GET', '/dapi/v1/income'),
      x('GET', '/dapi/v1/positionSide/dual'),
    ]).toEqual([5, 1, 1, 20, 30]);
    expect([
      x('DELETE', '/dapi/v1/order'),
      x('DELETE', '/dapi/v1/batchOrders'),
      x('DELETE', '/dapi/v1/allOpenOrders'),
      x('POST', '/dapi/v1/countdownCancelAll'),
    ]).toEqual([1, 1, 1, 10]);
  });

  it('a /fapi path is refused naming binance-usdm; an unlisted /dapi path is refused', () => {
    const r = resolveRequest(spec, { method: 'GET', path: '/fapi/v1/depth' }, account);
    expect(r.ok ? 'resolved' : [r.error.code, r.error.pricedBy]).toEqual(['unknown_endpoint', 'binance-usdm']);
    const u = resolveRequest(spec, { method: 'GET', path: '/dapi/v1/income/asyn' }, account);
    expect(u.ok ? 'resolved' : [u.error.code, u.error.pricedBy]).toEqual(['unknown_endpoint', undefined]);
  });
});

describe('binance-coinm refusals and usage headers', () => {
  it("X-MBX-USED-WEIGHT-1M syncs the IP weight, X-MBX-ORDER-COUNT-1M the account's orders", () => {
    const fb = feedback(order, { headers: { 'x-mbx-used-weight-1m': '2300', 'x-mbx-order-count-1m': '1100' } });
    expect(fb.syncs.map((s) => s.key.axis).sort()).toEqual(['orders_1m', 'request_weight']);
  });

  it('429 -1015 holds the orders for Retry-After, else a whole minute', () => {
    const fb = feedback(order, { status: 429, body: { code: -1015, msg: 'Too many new orders; current limit is 1200 orders per MINUTE.' } });
    expect(fb.penalties.map((p) => [p.key.axis, forMs(p.hold)])).toEqual([['orders_1m', 60_000]]);
  });

  it('418 holds the IP weight for Retry-After, else 2 minutes', () => {
    const depth: VenueRequest = { method: 'GET', path: '/dapi/v1/depth', query: { symbol: 'X' } };
    expect(feedback(depth, { status: 418, headers: { 'retry-after': '300' } }).penalties.map((p) => forMs(p.hold))).toEqual([300_000]);
    expect(feedback(depth, { status: 418 }).penalties.map((p) => forMs(p.hold))).toEqual([120_000]);
  });

  it('503 -1008 (system-level throttling) is not counted and holds nothing', () => {
    const fb = feedback(order, { status: 503, body: { code: -1008, msg: 'Request throttled by system-level protection.' } });
    expect([fb.verdict, fb.counted, fb.penalties.length]).toEqual(['overloaded', false, 0]);
  });
});
