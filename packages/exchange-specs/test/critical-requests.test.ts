import { describe, expect, it } from 'vitest';
import { CRITICAL_REQUESTS, DEFAULT_VENUE_RESERVE, getVenueSpec, resolveRequest } from '../src/index.js';

const key = { credential: 'k-1' };

describe('requests critical by nature', () => {
  it('every endpoint the table names is an endpoint of its venue spec', () => {
    for (const [venue, table] of Object.entries(CRITICAL_REQUESTS)) {
      const ids = new Set(getVenueSpec(venue).endpoints.map((e) => e.id));
      for (const id of [...table.endpoints, ...(table.params ?? []).flatMap((p) => p.endpoints)]) expect(ids.has(id), `${venue}: ${id}`).toBe(true);
    }
  });

  it('a cancel is critical, market data and a plain order normal (binance-spot)', () => {
    const spot = getVenueSpec('binance-spot');
    const cancel = resolveRequest(spot, { method: 'DELETE', path: '/api/v3/order', query: { symbol: 'BTCUSDT', orderId: '1' } }, key);
    const cancelAll = resolveRequest(spot, { method: 'DELETE', path: '/api/v3/openOrders', query: { symbol: 'BTCUSDT' } }, key);
    const depth = resolveRequest(spot, { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '100' } }, { credential: null });
    const order = resolveRequest(spot, { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } }, key);
    expect([cancel, cancelAll, depth, order].map((r) => (r.ok ? r.priority : r.error.code))).toEqual(['critical', 'critical', 'normal', 'normal']);
  });

  it('a reduce-only or close-position order is critical where the venue has the parameter', () => {
    const usdm = getVenueSpec('binance-usdm');
    const order = (query: Record<string, string>) => resolveRequest(usdm, { method: 'POST', path: '/fapi/v1/order', query: { symbol: 'BTCUSDT', ...query } }, key);
    const p = (r: ReturnType<typeof order>) => (r.ok ? r.priority : r.error.code);
    expect(p(order({ reduceOnly: 'true' }))).toBe('critical');
    expect(p(order({ closePosition: 'TRUE' }))).toBe('critical');
    expect(p(order({ reduceOnly: 'false' }))).toBe('normal');
    expect(p(order({}))).toBe('normal');
    const bybit = getVenueSpec('bybit');
    const create = (body: object) => resolveRequest(bybit, { method: 'POST', path: '/v5/order/create', body: { category: 'linear', symbol: 'BTCUSDT', ...body } }, key);
    expect(p(create({ reduceOnly: true }))).toBe('critical');
    expect(p(create({ reduceOnly: false }))).toBe('normal');
    const okx = getVenueSpec('okx');
    const place = resolveRequest(okx, { method: 'POST', path: '/api/v5/trade/order', body: { instId: 'BTC-USDT-SWAP', reduceOnly: 'true' } }, key);
    expect(p(place)).toBe('critical');
    expect(p(resolveRequest(okx, { method: 'POST', path: '/api/v5/trade/cancel-order', body: { instId: 'BTC-USDT', ordId: '1' } }, key))).toBe('critical');
  });

  it('carries the reserve: the documented default, or the option over it', () => {
    const spot = getVenueSpec('binance-spot');
    const req = { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT' } } as const;
    const a = resolveRequest(spot, req, { credential: null });
    const b = resolveRequest(spot, req, { credential: null }, { reserve: { bulk: 0.4 } });
    expect(a.ok && a.reserve).toEqual({ normal: 0, bulk: 0.2 });
    expect(DEFAULT_VENUE_RESERVE).toEqual({ normal: 0, bulk: 0.2 });
    expect(b.ok && b.reserve).toEqual({ normal: 0, bulk: 0.4 });
  });
});
