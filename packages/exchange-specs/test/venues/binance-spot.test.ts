import { describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';
import type { PenaltyHold } from '@core/rate-limit-contract';
import { costs, keyId, publicId } from '../helpers.js';

/** Limits pinned with explicit options (round numbers). */
// Pins the token-bucket derivation (for limiters without window limits); window limits are tested on their own.
const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0, windowLimits: false } as const;
const spec = getVenueSpec('binance-spot');
const order: VenueRequest = { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT' } };
const depth: VenueRequest = { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT' } };
const at = (iso: string) => new Date(iso).toUTCString();

function feedback(request: VenueRequest, response: Partial<VenueResponse>, identity: Identity = publicId) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, identity, PINNED);
}
/** The hold's duration: interpretResponse answers with `forMs`. */
const forMs = (hold: PenaltyHold) => ('forMs' in hold ? hold.forMs : Number.NaN);
const holds = (fb: ReturnType<typeof feedback>) => fb.penalties.map((p) => [p.key.axis, forMs(p.hold)]);
const weight = (request: VenueRequest, identity: Identity = publicId) => costs('binance-spot', request, identity)['request_weight'];

describe('binance-spot: every number carries the documentation sentence it comes from', () => {
  it('validates with a quote on every provenance, checked 2026-12-01', () => {
    const r = validateSpec(spec);
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(Object.values(spec.sources).every((s) => s.retrieved === '2026-12-01')).toBe(true);
  });
});

describe('binance-spot unfilled order counts (Binance API FAQ: "50 times/10 seconds and 160,000 times/24 hours")', () => {
  it('50 orders per 10 s per account: an order is admitted against 90 % of 50, not of 100', () => {
    expect(spec.buckets.find((b) => b.id === 'orders_10s')).toMatchObject({ limit: 50, windowMs: 10_000, scope: 'uid', algorithm: 'fixed-window-aligned' });
    const r = resolveRequest(spec, order, keyId, PINNED);
    // usable 45: burst 4.5, refill (45 − 4.5) / 10 s
    expect(r.ok && r.checks.find((c) => c.key.axis === 'orders_10s')?.limit).toEqual({ capacity: 4.5, refillPerSec: 4.05 });
  });

  it('160,000 orders per UTC day per account', () => {
    expect(spec.buckets.find((b) => b.id === 'orders_1d')).toMatchObject({ limit: 160_000, windowMs: 86_400_000, scope: 'uid' });
    const r = resolveRequest(spec, order, keyId, PINNED);
    // usable 144,000: burst 14,400, refill 129,600 per 86,400 s
    expect(r.ok && r.checks.find((c) => c.key.axis === 'orders_1d')?.limit).toEqual({ capacity: 14_400, refillPerSec: 1.5 });
  });

  it('order lists count each of their orders: OCO, OTO and OPO 2, OTOCO and OPOCO 3; amending keeps priority without counting', () => {
    const placed = (path: string) => costs('binance-spot', { method: 'POST', path }, keyId);
    expect(placed('/api/v3/orderList/oco')).toMatchObject({ orders_10s: 2, orders_1d: 2, request_weight: 1 });
    expect(placed('/api/v3/order/oco')).toMatchObject({ orders_10s: 2, orders_1d: 2 });
    expect(placed('/api/v3/orderList/oto')).toMatchObject({ orders_10s: 2 });
    expect(placed('/api/v3/orderList/opo')).toMatchObject({ orders_10s: 2 });
    expect(placed('/api/v3/orderList/otoco')).toMatchObject({ orders_10s: 3, orders_1d: 3 });
    expect(placed('/api/v3/orderList/opoco')).toMatchObject({ orders_10s: 3 });
    expect(placed('/api/v3/sor/order')).toMatchObject({ orders_10s: 1, orders_1d: 1 });
    expect(costs('binance-spot', { method: 'PUT', path: '/api/v3/order/amend/keepPriority' }, keyId)).toEqual({ request_weight: 4, raw_requests: 1 });
  });
});

describe('binance-spot weight of successful orders (CHANGELOG 2026-03-27: 0 when the request is successful)', () => {
  const chargeOf = (request: VenueRequest) => {
    const r = resolveRequest(spec, request, keyId);
    return r.ok ? r.charges.find((c) => c.bucket === 'request_weight') : undefined;
  };
  it('placement and cancel endpoints pay their weight only when they fail', () => {
    for (const [method, path] of [
      ['POST', '/api/v3/order'],
      ['DELETE', '/api/v3/order'],
      ['DELETE', '/api/v3/openOrders'],
      ['POST', '/api/v3/order/cancelReplace'],
      ['POST', '/api/v3/order/oco'],
      ['POST', '/api/v3/orderList/oco'],
      ['POST', '/api/v3/orderList/oto'],
      ['POST', '/api/v3/orderList/otoco'],
      ['POST', '/api/v3/orderList/opo'],
      ['POST', '/api/v3/orderList/opoco'],
      ['DELETE', '/api/v3/orderList'],
      ['POST', '/api/v3/sor/order'],
    ] as const) {
      expect(chargeOf({ method, path }), `${method} ${path}`).toMatchObject({ cost: 1, charge: 'failure' });
    }
  });
  it('amend keepPriority is charged its 4 always (0 only when the amendment expires the order)', () => {
    expect(chargeOf({ method: 'PUT', path: '/api/v3/order/amend/keepPriority' })).toMatchObject({ cost: 4, charge: 'always' });
  });
});

describe('binance-spot endpoint weights', () => {
  it('depth: 5 / 25 / 50 / 250 by limit, default 100, and a limit above 5000 is charged as 5000 ("only 5000 entries will be returned")', () => {
    const d = (limit?: string) => weight({ ...depth, query: { symbol: 'X', ...(limit === undefined ? {} : { limit }) } });
    expect([d(), d('1'), d('100'), d('101'), d('500'), d('501'), d('1000'), d('1001'), d('5000')]).toEqual([5, 5, 5, 25, 25, 50, 50, 250, 250]);
    expect(d('5001')).toBe(250);
    expect(d('10000')).toBe(250);
  });
  it('ticker/24hr by symbol, by the number of symbols, and without either', () => {
    const t = (query: Record<string, string>) => weight({ method: 'GET', path: '/api/v3/ticker/24hr', query });
    const list = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `S${i}`));
    expect([
      t({ symbol: 'A' }),
      t({ symbols: list(1) }),
      t({ symbols: list(20) }),
      t({ symbols: list(21) }),
      t({ symbols: list(100) }),
      t({ symbols: list(101) }),
      t({}),
    ]).toEqual([2, 2, 2, 40, 40, 80, 80]);
  });
  it('rolling-window and trading-day tickers: 4 per symbol, capped at 200 beyond 50 symbols', () => {
    const list = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => `S${i}`));
    for (const path of ['/api/v3/ticker', '/api/v3/ticker/tradingDay']) {
      const t = (query: Record<string, string>) => weight({ method: 'GET', path, query });
      expect([t({ symbol: 'A' }), t({ symbols: list(3) }), t({ symbols: list(50) }), t({ symbols: list(51) }), t({ symbols: list(100) })]).toEqual([
        4, 12, 200, 200, 200,
      ]);
    }
  });
  it('market data, account and query endpoints', () => {
    const g = (path: string, query: Record<string, string> = {}, identity: Identity = publicId) => weight({ method: 'GET', path, query }, identity);
    expect(g('/api/v3/exchangeInfo')).toBe(20);
    expect(g('/api/v3/exchangeInfo', { symbol: 'BTCUSDT' })).toBe(20);
    expect(g('/api/v3/exchangeInfo', { symbols: '["BTCUSDT","BNBBTC"]' })).toBe(20);
    expect([g('/api/v3/trades'), g('/api/v3/historicalTrades'), g('/api/v3/aggTrades'), g('/api/v3/klines'), g('/api/v3/avgPrice')]).toEqual([25, 25, 4, 2, 2]);
    expect([
      g('/api/v3/ticker/price', { symbol: 'A' }),
      g('/api/v3/ticker/price'),
      g('/api/v3/ticker/bookTicker', { symbol: 'A' }),
      g('/api/v3/ticker/bookTicker', { symbols: '["A"]' }),
    ]).toEqual([2, 4, 2, 4]);
    expect([g('/api/v3/openOrders', { symbol: 'A' }, keyId), g('/api/v3/openOrders', {}, keyId)]).toEqual([6, 80]);
    expect([g('/api/v3/myTrades', { symbol: 'A' }, keyId), g('/api/v3/myTrades', { symbol: 'A', orderId: '1' }, keyId)]).toEqual([20, 5]);
    expect([
      g('/api/v3/account', {}, keyId),
      g('/api/v3/order', {}, keyId),
      g('/api/v3/allOrders', {}, keyId),
      g('/api/v3/rateLimit/order', {}, keyId),
    ]).toEqual([20, 4, 20, 40]);
  });
  it('every request counts 1 on RAW_REQUESTS, 300,000 per 5 minutes per IP', () => {
    expect(spec.buckets.find((b) => b.id === 'raw_requests')).toMatchObject({ limit: 300_000, windowMs: 300_000, scope: 'ip' });
    expect(costs('binance-spot', depth)['raw_requests']).toBe(1);
  });
});

describe('binance-spot holds the venue imposes', () => {
  it("-1015 without Retry-After holds the account's orders to the end of the 10 s interval (it resets at :00, :10, ...)", () => {
    const body = { code: -1015, msg: 'Too many new orders; current limit is 50 orders per 10 SECOND.' };
    const fb = feedback(order, { status: 429, headers: { date: at('2026-12-01T12:00:03Z') }, body }, keyId);
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'too-many-orders', retryAfterMs: 7000 });
    expect(fb.penalties).toEqual([{ key: { venue: 'binance-spot', credential: 'test-key-1', axis: 'orders_10s' }, hold: { forMs: 7000 } }]);
    // without a Date header: the whole interval
    expect(holds(feedback(order, { status: 429, body }, keyId))).toEqual([['orders_10s', 10_000]]);
    // a message that names no interval is read as the 10 s one
    expect(holds(feedback(order, { status: 429, body: { code: -1015, msg: 'Too many new orders.' } }, keyId))).toEqual([['orders_10s', 10_000]]);
  });

  it('-1015 naming the DAY interval holds the day count until 00:00 UTC', () => {
    const body = { code: -1015, msg: 'Too many new orders; current limit is 160000 orders per DAY.' };
    const fb = feedback(order, { status: 429, headers: { date: at('2026-12-01T18:00:00Z') }, body }, keyId);
    expect(fb.rule).toBe('too-many-orders-day');
    expect(holds(fb)).toEqual([['orders_1d', 6 * 3_600_000]]);
  });

  it('Retry-After, when sent, is the wait of either -1015', () => {
    const day = { code: -1015, msg: 'Too many new orders; current limit is 160000 orders per DAY.' };
    expect(holds(feedback(order, { status: 429, headers: { 'retry-after': '3', date: at('2026-12-01T18:00:00Z') }, body: day }, keyId))).toEqual([
      ['orders_1d', 3000],
    ]);
    expect(holds(feedback(order, { status: 429, headers: { 'retry-after': '3' }, body: { code: -1015 } }, keyId))).toEqual([['orders_10s', 3000]]);
  });

  it('a weight 429 without Retry-After holds the IP weight to the end of the minute', () => {
    const body = {
      code: -1003,
      msg: 'Too much request weight used; current limit is 6000 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
    };
    const fb = feedback(depth, { status: 429, headers: { date: at('2026-12-01T12:00:20Z') }, body });
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'too-much-weight' });
    expect(holds(fb)).toEqual([['request_weight', 40_000]]);
  });

  it('any other 429 without Retry-After holds both IP buckets to the end of the 5-minute interval', () => {
    const fb = feedback(depth, { status: 429, headers: { date: at('2026-12-01T12:03:00Z') }, body: { code: -1003, msg: 'Too many requests queued.' } });
    expect(fb.rule).toBe('too-many-requests');
    expect(holds(fb)).toEqual([
      ['request_weight', 120_000],
      ['raw_requests', 120_000],
    ]);
  });

  it('a WAF 403 is a ban of the IP for the usual 5 minutes, or for Retry-After', () => {
    const fb = feedback(order, { status: 403, body: '<html>403 Forbidden</html>' }, keyId);
    expect(fb).toMatchObject({ verdict: 'banned', rule: 'waf', retryAfterMs: 300_000 });
    expect(fb.penalties.map((p) => [p.key.axis, p.key.credential, forMs(p.hold)])).toEqual([
      ['request_weight', null, 300_000],
      ['raw_requests', null, 300_000],
    ]);
    expect(feedback(depth, { status: 403, headers: { 'retry-after': '900' } }).retryAfterMs).toBe(900_000);
  });

  it('418 is an IP ban: Retry-After, else the documented minimum of 2 minutes', () => {
    expect(feedback(depth, { status: 418, headers: { 'retry-after': '259200' } })).toMatchObject({ verdict: 'banned', retryAfterMs: 259_200_000 });
    expect(holds(feedback(depth, { status: 418 }))).toEqual([
      ['request_weight', 120_000],
      ['raw_requests', 120_000],
    ]);
  });
});

describe('binance-spot deferred order weight (the deferred option)', () => {
  const deferred = { deferred: true } as const;
  const rejected: Partial<VenueResponse> = { status: 400, body: { code: -2010, msg: 'Account has insufficient balance for requested action.' } };

  it('admits an order on the weight at the gate cost only, returns its weight apart with the in-flight bound, and lowers the weight limit by 2 %', () => {
    const r = resolveRequest(spec, order, keyId, deferred);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.checks.find((c) => c.key.axis === 'request_weight')).toEqual({
      key: { venue: 'binance-spot', credential: null, axis: 'request_weight' },
      limit: { perWindow: 5880, windowMs: 60_000, jitterMs: 100 },
      cost: 1e-6,
    });
    expect(r.deferred).toEqual([
      {
        key: { venue: 'binance-spot', credential: null, axis: 'request_weight' },
        bucket: 'request_weight',
        cost: 1,
        charge: 'failure',
        limit: { perWindow: 5880, windowMs: 60_000, jitterMs: 100 },
        inFlight: 120,
      },
    ]);
    // the order counts are charged always: not deferred, their limits not lowered
    expect(r.checks.find((c) => c.key.axis === 'orders_10s')).toMatchObject({ cost: 1, limit: { perWindow: 50 } });
    // every request on the weight sees the same lowered limit
    const d = resolveRequest(spec, depth, publicId, deferred);
    expect(d.ok && d.checks.find((c) => c.key.axis === 'request_weight')).toMatchObject({ cost: 5, limit: { perWindow: 5880 } });
    expect(d.ok && d.deferred).toEqual([]);
  });

  it('without the option reserves the weight on every order (nothing deferred)', () => {
    const r = resolveRequest(spec, order, keyId);
    expect(r.ok && r.checks.find((c) => c.key.axis === 'request_weight')).toMatchObject({ cost: 1, limit: { perWindow: 6000 } });
    expect(r.ok && r.deferred).toEqual([]);
  });

  it('the token-bucket derivation keeps the share out of its margin', () => {
    const r = resolveRequest(spec, depth, publicId, { ...PINNED, deferred: true, inFlightShare: 0.1 });
    // usable 6000 · (1 − 0.1 − 0.1) = 4800: burst 480
    expect(r.ok && r.checks.find((c) => c.key.axis === 'request_weight')?.limit).toEqual({ capacity: 480, refillPerSec: 72 });
  });

  it('refuses an in-flight share outside [0, 1)', () => {
    const r = resolveRequest(spec, order, keyId, { deferred: true, inFlightShare: 1 });
    expect(!r.ok && r.error.code).toBe('invalid_spec');
  });

  it('says the venue applied the weight to a rejected order (-2010, -2011, any 4XX or 5XX), not to a successful one', () => {
    const fb = interpretResponse(spec, order, { status: 400, headers: {}, body: {}, ...rejected }, keyId, deferred);
    expect(fb.rule).toBe('order-rejected');
    expect(fb.deferred).toEqual([
      { key: { venue: 'binance-spot', credential: null, axis: 'request_weight' }, limit: { perWindow: 5880, windowMs: 60_000, jitterMs: 100 }, cost: 1 },
    ]);
    const cancel: VenueRequest = { method: 'DELETE', path: '/api/v3/order', query: { symbol: 'BTCUSDT', orderId: '1' } };
    expect(
      interpretResponse(spec, cancel, { status: 400, headers: {}, body: { code: -2011, msg: 'Unknown order sent.' } }, keyId, deferred).deferred?.[0]?.cost,
    ).toBe(1);
    expect(interpretResponse(spec, order, { status: 503, headers: {}, body: 'unknown' }, keyId, deferred).deferred?.[0]?.cost).toBe(1);
    expect(interpretResponse(spec, order, { status: 200, headers: {}, body: { orderId: 1 } }, keyId, deferred).deferred).toBeUndefined();
    // reserved at admission: nothing to record after
    expect(interpretResponse(spec, order, { status: 400, headers: {}, body: {}, ...rejected }, keyId).deferred).toBeUndefined();
  });

  it('a refusal the order count answers (429 -1015) applies the weight too: the order failed', () => {
    const fb = interpretResponse(
      spec,
      order,
      { status: 429, headers: { 'retry-after': '3' }, body: { code: -1015, msg: 'Too many new orders; current limit is 50 orders per 10 SECOND.' } },
      keyId,
      deferred,
    );
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.deferred?.[0]?.cost).toBe(1);
  });
});

describe('deferred charges and answers a venue does not count', () => {
  it('an answer the spec marks as not counted (an overload refusal) applies no deferred charge', () => {
    const uncounted = {
      ...spec,
      errors: [
        {
          id: 'throttled',
          status: [503],
          body: [{ path: 'code', equals: [-1008] }],
          verdict: 'overloaded' as const,
          counted: false,
          provenance: { source: 'errors', confidence: 'documented' as const },
        },
      ],
    };
    const fb = interpretResponse(
      uncounted,
      order,
      { status: 503, headers: {}, body: { code: -1008, msg: 'Request throttled by system-level protection.' } },
      keyId,
      { deferred: true },
    );
    expect(fb.counted).toBe(false);
    expect(fb.deferred).toBeUndefined();
  });
});

describe('binance-spot usage header with deferred order weight (token-bucket derivation)', () => {
  it('keeps the in-flight share free in the bound: usable 6000 · (1 − 0.1 − 0.02)', () => {
    const fb = interpretResponse(
      spec,
      depth,
      { status: 200, headers: { 'x-mbx-used-weight-1m': '3000', date: at('2026-11-30T12:00:30Z') }, body: {} },
      publicId,
      { ...PINNED, deferred: true },
    );
    // C 528, r 79.2 / s, 30 s left: 3000 + 528 + 2376 − 5280
    expect(fb.syncs.find((s) => s.key.axis === 'request_weight')?.minBorrowed).toBeCloseTo(624, 6);
  });
});
