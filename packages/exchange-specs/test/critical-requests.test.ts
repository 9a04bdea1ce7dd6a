import { describe, expect, it } from 'vitest';
import {
  CRITICAL_REQUESTS,
  DEFAULT_GATED_WINDOW_RESERVE,
  DEFAULT_VENUE_RESERVE,
  DEFAULT_WINDOW_RESERVE,
  NO_RESERVE,
  bucketReserve,
  criticalBuckets,
  getVenueSpec,
  resolveRequest,
} from '../src/index.js';

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
    const order = (query: Record<string, string>) =>
      resolveRequest(usdm, { method: 'POST', path: '/fapi/v1/order', query: { symbol: 'BTCUSDT', ...query } }, key);
    const p = (r: ReturnType<typeof order>) => (r.ok ? r.priority : r.error.code);
    expect(p(order({ reduceOnly: 'true' }))).toBe('critical');
    expect(p(order({ closePosition: 'TRUE' }))).toBe('critical');
    expect(p(order({ reduceOnly: 'false' }))).toBe('normal');
    expect(p(order({}))).toBe('normal');
    const bybit = getVenueSpec('bybit');
    const create = (body: object) =>
      resolveRequest(bybit, { method: 'POST', path: '/v5/order/create', body: { category: 'linear', symbol: 'BTCUSDT', ...body } }, key);
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

  it('the buckets critical requests by nature are charged on: Binance spot cancels spend the IP weight and raw requests, never the order count', () => {
    const spot = getVenueSpec('binance-spot');
    const set = criticalBuckets(spot);
    expect(set.has('request_weight')).toBe(true);
    expect(set.has('orders_10s')).toBe(false);
    expect(set.has('orders_1d')).toBe(false);
    // Bybit: cancels are charged on the IP bucket and their own per-endpoint bucket, not on the fee-rate one
    const bybit = getVenueSpec('bybit');
    const b = criticalBuckets(bybit);
    expect(b.size).toBeGreaterThan(0);
    expect([...b].some((id) => id.includes('fee'))).toBe(false);
    expect(criticalBuckets(getVenueSpec('mexc')).size).toBe(0); // no table: no bucket kept
  });

  it('with classes, each check carries its bucket’s own reserve unless the caller gives one (RL-Q6)', () => {
    const spot = getVenueSpec('binance-spot');
    const order = { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } } as const;
    const r = resolveRequest(spot, order, key, { classes: true });
    if (!r.ok) throw new Error(r.error.message);
    const by = new Map(r.checks.map((c) => [c.key.axis, c.reserve]));
    const weight = r.checks.find((c) => c.key.axis === 'request_weight');
    expect(weight?.limit !== null && 'perWindow' in (weight?.limit ?? {})).toBe(true);
    expect(by.get('request_weight')).toEqual(DEFAULT_WINDOW_RESERVE);
    expect(by.get('orders_10s')).toEqual(NO_RESERVE);
    expect(bucketReserve(spot, 'request_weight', false)).toEqual(DEFAULT_VENUE_RESERVE);
    // without classes, or with the caller's reserve, checks carry none (a limiter without classes refuses one)
    const plain = resolveRequest(spot, order, key);
    const given = resolveRequest(spot, order, key, { classes: true, reserve: { bulk: 0.3 } });
    for (const x of [plain, given]) {
      if (!x.ok) throw new Error(x.error.message);
      expect(x.checks.every((c) => c.reserve === undefined)).toBe(true);
    }
    expect(given.ok && given.reserve).toEqual({ normal: 0, bulk: 0.3 });
  });

  it('a window where every critical charge is deferred keeps only room for the gates: Binance spot’s cancels weigh only when they fail', () => {
    const spot = getVenueSpec('binance-spot');
    const depth = { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT' } } as const;
    const reserveOf = (options: Parameters<typeof resolveRequest>[3]) => {
      const r = resolveRequest(spot, depth, { credential: null }, { classes: true, ...options });
      if (!r.ok) throw new Error(r.error.message);
      return r.checks.find((c) => c.key.axis === 'request_weight')?.reserve;
    };
    expect(DEFAULT_GATED_WINDOW_RESERVE.bulk).toBeLessThan(DEFAULT_WINDOW_RESERVE.bulk);
    expect(reserveOf({ deferred: true })).toEqual(DEFAULT_GATED_WINDOW_RESERVE);
    // charges reserved at admission: the cancels need their whole weight
    expect(reserveOf({})).toEqual(DEFAULT_WINDOW_RESERVE);
    // an in-flight bound smaller than a cancel's weight: cancels are reserved, not deferred
    expect(bucketReserve(spot, 'request_weight', true, 0.5)).toEqual(DEFAULT_WINDOW_RESERVE);
    expect(bucketReserve(spot, 'request_weight', true, 120)).toEqual(DEFAULT_GATED_WINDOW_RESERVE);
    // a token bucket keeps its default whatever the deferral (its reserve costs only burst)
    expect(bucketReserve(spot, 'request_weight', false, 120)).toEqual(DEFAULT_VENUE_RESERVE);
    // Bybit charges its cancels always: the window keeps 5 % even with deferred charges
    const bybit = getVenueSpec('bybit');
    const ip = [...criticalBuckets(bybit)].find((id) => id === 'ip');
    expect(ip).toBe('ip');
    expect(bucketReserve(bybit, 'ip', true, 1000)).toEqual(DEFAULT_WINDOW_RESERVE);
  });
});
