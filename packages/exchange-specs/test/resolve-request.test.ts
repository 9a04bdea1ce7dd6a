import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveRequest, validateSpec, type VenueSpec } from '../src/index.js';
import { costs, errorCode, keyId, publicId } from './helpers.js';

/** Limits pinned with explicit options (round numbers); one test checks the defaults. */
// Pins the token-bucket derivation (for limiters without window limits); window limits are tested on their own.
const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0, windowLimits: false } as const;

describe('binance-spot', () => {
  it('prices depth by limit, with the documented default of 100', () => {
    const depth = (limit?: string) =>
      costs('binance-spot', { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', ...(limit === undefined ? {} : { limit }) } });
    expect(depth()).toEqual({ request_weight: 5, raw_requests: 1 });
    expect(depth('100')['request_weight']).toBe(5);
    expect(depth('101')['request_weight']).toBe(25);
    expect(depth('500')['request_weight']).toBe(25);
    expect(depth('1000')['request_weight']).toBe(50);
    expect(depth('5000')['request_weight']).toBe(250);
  });

  it('refuses a non-numeric depth limit', () => {
    expect(errorCode('binance-spot', { method: 'GET', path: '/api/v3/depth', query: { symbol: 'X', limit: 'abc' } })).toBe('invalid_parameter');
  });

  it('prices ticker/24hr with a symbol, by the number of symbols, and without either', () => {
    const t = (query: Record<string, string>) => costs('binance-spot', { method: 'GET', path: '/api/v3/ticker/24hr', query })['request_weight'];
    expect(t({ symbol: 'BTCUSDT' })).toBe(2);
    expect(t({ symbols: JSON.stringify(Array.from({ length: 20 }, (_, i) => `S${i}`)) })).toBe(2);
    expect(t({ symbols: JSON.stringify(Array.from({ length: 21 }, (_, i) => `S${i}`)) })).toBe(40);
    expect(t({ symbols: JSON.stringify(Array.from({ length: 101 }, (_, i) => `S${i}`)) })).toBe(80);
    expect(t({})).toBe(80);
  });

  it('charges an order on the account order counts and reserves its weight, keyed by credential', () => {
    const r = resolveRequest(getVenueSpec('binance-spot'), { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } }, keyId);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const byAxis = Object.fromEntries(r.checks.map((c) => [c.key.axis, c]));
    expect(byAxis['orders_10s']?.key).toEqual({ venue: 'binance-spot', credential: 'test-key-1', axis: 'orders_10s' });
    expect(byAxis['orders_10s']?.cost).toBe(1);
    expect(byAxis['orders_1d']?.cost).toBe(1);
    expect(byAxis['request_weight']?.key.credential).toBeNull();
    expect(byAxis['request_weight']?.cost).toBe(1);
  });

  it('uses the account uid for account-wide buckets when the identity names one', () => {
    const r = costs('binance-spot', { method: 'POST', path: '/api/v3/order' }, { credential: 'k', uid: 'acct-7' });
    expect(r['orders_10s']).toBe(1);
    const full = resolveRequest(getVenueSpec('binance-spot'), { method: 'POST', path: '/api/v3/order' }, { credential: 'k', uid: 'acct-7' });
    expect(full.ok && full.checks.find((c) => c.key.axis === 'orders_10s')?.key.credential).toBe('acct-7');
  });

  it('gives safe token-bucket limits, never the raw window numbers', () => {
    const r = resolveRequest(getVenueSpec('binance-spot'), { method: 'GET', path: '/api/v3/depth', query: { symbol: 'X' } }, publicId, PINNED);
    expect(r.ok && r.checks.find((c) => c.key.axis === 'request_weight')?.limit).toEqual({ capacity: 540, refillPerSec: 81 });
    const d = resolveRequest(getVenueSpec('binance-spot'), { method: 'GET', path: '/api/v3/depth', query: { symbol: 'X' } }, publicId, { windowLimits: false });
    const l = (d.ok ? d.checks.find((c) => c.key.axis === 'request_weight')?.limit : undefined) as { capacity: number; refillPerSec: number } | undefined;
    // The defaults: 4 % margin, a burst of max(2 % of 5760, the largest cost 250), 50 ms of jitter: 250 + r·60.05 s = 5760.
    expect(l?.capacity).toBe(250);
    expect((l?.capacity ?? 0) + ((l?.refillPerSec ?? 0) * 60_050) / 1000).toBeCloseTo(5760, 9);
  });

  it('by default enforces a venue window as a window limit: its own number per its window, the jitter allowed for', () => {
    const d = resolveRequest(getVenueSpec('binance-spot'), { method: 'GET', path: '/api/v3/depth', query: { symbol: 'X' } }, publicId);
    expect(d.ok && d.checks.find((c) => c.key.axis === 'request_weight')?.limit).toEqual({ perWindow: 6000, windowMs: 60_000, jitterMs: 100 });
    const tight = resolveRequest(getVenueSpec('binance-spot'), { method: 'GET', path: '/api/v3/depth', query: { symbol: 'X' } }, publicId, {
      jitterMs: 10,
      windowMargin: 0.01,
    });
    expect(tight.ok && tight.checks.find((c) => c.key.axis === 'request_weight')?.limit).toEqual({ perWindow: 5940, windowMs: 60_000, jitterMs: 10 });
  });

  it('refuses an unknown endpoint and a private endpoint without a credential', () => {
    expect(errorCode('binance-spot', { method: 'GET', path: '/api/v3/nope' })).toBe('unknown_endpoint');
    expect(errorCode('binance-spot', { method: 'GET', path: '/api/v3/account' })).toBe('credential_required');
  });

  it('prices openOrders and myTrades by their optional parameters', () => {
    expect(costs('binance-spot', { method: 'GET', path: '/api/v3/openOrders', query: { symbol: 'X' } }, keyId)['request_weight']).toBe(6);
    expect(costs('binance-spot', { method: 'GET', path: '/api/v3/openOrders' }, keyId)['request_weight']).toBe(80);
    expect(costs('binance-spot', { method: 'GET', path: '/api/v3/myTrades', query: { symbol: 'X', orderId: '1' } }, keyId)['request_weight']).toBe(5);
  });
});

describe('binance-usdm', () => {
  it('charges batchOrders 5 on the 10 s count, 1 on the minute count and 5 IP weight', () => {
    expect(costs('binance-usdm', { method: 'POST', path: '/fapi/v1/batchOrders', body: { batchOrders: '[]' } }, keyId)).toEqual({
      orders_10s: 5,
      orders_1m: 1,
      request_weight: 5,
    });
  });
  it('charges a single order on both order counts and no IP weight', () => {
    expect(costs('binance-usdm', { method: 'POST', path: '/fapi/v1/order' }, keyId)).toEqual({ orders_10s: 1, orders_1m: 1 });
  });
  it('prices depth and klines by limit with their documented defaults', () => {
    const d = (q: Record<string, string>) => costs('binance-usdm', { method: 'GET', path: '/fapi/v1/depth', query: { symbol: 'X', ...q } })['request_weight'];
    expect(d({})).toBe(10);
    expect(d({ limit: '5' })).toBe(2);
    expect(d({ limit: '100' })).toBe(5);
    expect(d({ limit: '1000' })).toBe(20);
    const k = (limit: string) => costs('binance-usdm', { method: 'GET', path: '/fapi/v1/klines', query: { symbol: 'X', limit } })['request_weight'];
    expect([k('99'), k('100'), k('500'), k('1000'), k('1500')]).toEqual([1, 2, 5, 5, 10]);
  });
  it('prices ticker/24hr with and without a symbol', () => {
    expect(costs('binance-usdm', { method: 'GET', path: '/fapi/v1/ticker/24hr', query: { symbol: 'X' } })['request_weight']).toBe(1);
    expect(costs('binance-usdm', { method: 'GET', path: '/fapi/v1/ticker/24hr' })['request_weight']).toBe(40);
  });
});

describe('okx', () => {
  it('charges a placed order on its instrument bucket and the sub-account bucket', () => {
    expect(costs('okx', { method: 'POST', path: '/api/v5/trade/order', body: { instId: 'BTC-USDT', side: 'buy' } }, keyId)).toEqual({
      'trade/order:BTC-USDT': 1,
      'subaccount-orders': 1,
    });
  });
  it('splits a batch by instrument, one unit per order, and counts every order on the sub-account bucket', () => {
    const body = [{ instId: 'BTC-USDT' }, { instId: 'ETH-USDT' }, { instId: 'BTC-USDT' }];
    expect(costs('okx', { method: 'POST', path: '/api/v5/trade/batch-orders', body }, keyId)).toEqual({
      'trade/batch-orders:BTC-USDT': 2,
      'trade/batch-orders:ETH-USDT': 1,
      'subaccount-orders': 3,
    });
    expect(costs('okx', { method: 'POST', path: '/api/v5/trade/batch-orders', body: JSON.stringify(body) }, keyId)['subaccount-orders']).toBe(3);
  });
  it('refuses an order without instId (its bucket depends on it)', () => {
    expect(errorCode('okx', { method: 'POST', path: '/api/v5/trade/order', body: { side: 'buy' } }, keyId)).toBe('missing_parameter');
    expect(errorCode('okx', { method: 'POST', path: '/api/v5/trade/batch-orders', body: [{ side: 'buy' }] }, keyId)).toBe('missing_parameter');
  });
  it('tells GET and POST of the same path apart, and prices public endpoints on the IP', () => {
    expect(costs('okx', { method: 'GET', path: '/api/v5/trade/order', query: { instId: 'BTC-USDT', ordId: '1' } }, keyId)).toEqual({
      'trade/order-get:BTC-USDT': 1,
    });
    const r = resolveRequest(getVenueSpec('okx'), { method: 'GET', path: '/api/v5/market/books', query: { instId: 'BTC-USDT' } }, keyId);
    expect(r.ok && r.checks[0]?.key.credential).toBeNull();
  });
  it('applies the fill-ratio tier to the sub-account bucket and refuses an unknown tier', () => {
    const r = resolveRequest(
      getVenueSpec('okx'),
      { method: 'POST', path: '/api/v5/trade/order', body: { instId: 'X' } },
      { credential: 'k', tier: 'tier-8' },
      PINNED,
    );
    const limit = r.ok ? r.checks.find((c) => c.key.axis === 'subaccount-orders')?.limit : undefined;
    expect(limit).toEqual({ capacity: 900, refillPerSec: 4050 });
    expect(errorCode('okx', { method: 'POST', path: '/api/v5/trade/order', body: { instId: 'X' } }, { credential: 'k', tier: 'vip99' })).toBe('unknown_tier');
  });
});

describe('bybit', () => {
  it('charges an order on its endpoint bucket per product (linear and inverse together) and the IP bucket', () => {
    expect(costs('bybit', { method: 'POST', path: '/v5/order/create', body: { category: 'linear', symbol: 'BTCUSDT' } }, keyId)).toEqual({
      'order/create': 1,
      ip: 1,
    });
    expect(costs('bybit', { method: 'POST', path: '/v5/order/create', body: { category: 'inverse', symbol: 'BTCUSD' } }, keyId)).toEqual({
      'order/create': 1,
      ip: 1,
    });
    expect(costs('bybit', { method: 'POST', path: '/v5/order/create', body: { category: 'spot', symbol: 'BTCUSDT' } }, keyId)).toEqual({
      'order/create/spot': 1,
      ip: 1,
    });
  });
  it('counts a batch one unit per order, and admits it at the full batch size on the spaced 10 / s bucket', () => {
    const request = Array.from({ length: 7 }, () => ({ symbol: 'BTCUSDT' }));
    const r = resolveRequest(getVenueSpec('bybit'), { method: 'POST', path: '/v5/order/create-batch', body: { category: 'linear', request } }, keyId, {
      windowLimits: false,
    });
    expect(r.ok && r.charges.find((c) => c.bucket === 'order/create-batch')?.cost).toBe(7);
    expect(r.ok && r.checks.find((c) => c.key.axis === 'order/create-batch')?.cost).toBe(10);
    // a window limit counts the batch at its own size: no spacing needed
    const w = resolveRequest(getVenueSpec('bybit'), { method: 'POST', path: '/v5/order/create-batch', body: { category: 'linear', request } }, keyId);
    expect(w.ok && w.checks.find((c) => c.key.axis === 'order/create-batch')?.cost).toBe(7);
    expect(errorCode('bybit', { method: 'POST', path: '/v5/order/create-batch', body: { category: 'linear' } }, keyId)).toBe('missing_parameter');
    const twenty = Array.from({ length: 20 }, () => ({ symbol: 'BTCUSDT' }));
    expect(errorCode('bybit', { method: 'POST', path: '/v5/order/create-batch', body: { category: 'linear', request: twenty } }, keyId)).toBe(
      'invalid_parameter',
    );
  });
  it('charges market data on the IP only', () => {
    expect(costs('bybit', { method: 'GET', path: '/v5/market/tickers', query: { category: 'spot' } })).toEqual({ ip: 1 });
  });
});

describe('kucoin', () => {
  it('charges spot orders on the spot pool, accounts on management, market data on the public pool', () => {
    expect(costs('kucoin', { method: 'POST', path: '/api/v1/hf/orders', body: { symbol: 'BTC-USDT' } }, keyId)).toEqual({ spot: 1 });
    expect(costs('kucoin', { method: 'DELETE', path: '/api/v1/orders' }, keyId)).toEqual({ spot: 20 });
    expect(costs('kucoin', { method: 'GET', path: '/api/v1/accounts' }, keyId)).toEqual({ management: 5 });
    expect(costs('kucoin', { method: 'GET', path: '/api/v1/market/allTickers' })).toEqual({ public: 15 });
  });
  it('matches path parameters and applies VIP tiers', () => {
    expect(costs('kucoin', { method: 'DELETE', path: '/api/v1/hf/orders/abc123', query: { symbol: 'BTC-USDT' } }, keyId)).toEqual({ spot: 1 });
    const r = resolveRequest(getVenueSpec('kucoin'), { method: 'POST', path: '/api/v1/hf/orders' }, { credential: 'k', tier: 'vip12' }, PINNED);
    expect(r.ok && r.checks[0]?.limit).toEqual({ capacity: 3600, refillPerSec: 1080 });
  });
});

describe('kraken', () => {
  it('charges private calls on the key counter: 4 for ledgers and trade history', () => {
    expect(costs('kraken', { method: 'POST', path: '/0/private/Balance' }, keyId)).toEqual({ ip: 1, 'rest-counter': 1 });
    expect(costs('kraken', { method: 'POST', path: '/0/private/Ledgers' }, keyId)).toEqual({ ip: 1, 'rest-counter': 4 });
  });
  it('charges orders on the trading counter of the pair (form body) and the key bound; cancels, which name no pair, at worst on the bound', () => {
    expect(costs('kraken', { method: 'POST', path: '/0/private/AddOrder', body: 'nonce=1&pair=XBTUSD&type=buy' }, keyId)).toEqual({
      ip: 1,
      'trading:XBTUSD': 1,
      'trading-key': 1,
    });
    expect(costs('kraken', { method: 'POST', path: '/0/private/CancelOrder', body: 'txid=O1' }, keyId)).toEqual({ ip: 1, 'trading-key': 8 });
    expect(errorCode('kraken', { method: 'POST', path: '/0/private/AddOrder', body: 'txid=O1' }, keyId)).toBe('missing_parameter');
  });
  it('applies the verification tier to the decaying counter', () => {
    const r = resolveRequest(getVenueSpec('kraken'), { method: 'POST', path: '/0/private/Balance' }, { credential: 'k', tier: 'pro' }, PINNED);
    expect(r.ok && r.checks[0]?.limit).toEqual({ capacity: 18, refillPerSec: 0.9 });
  });
});

describe('hyperliquid', () => {
  it('prices /info by request type', () => {
    expect(costs('hyperliquid', { method: 'POST', path: '/info', body: { type: 'l2Book', coin: 'BTC' } })).toEqual({ 'ip-weight': 2 });
    expect(costs('hyperliquid', { method: 'POST', path: '/info', body: { type: 'meta' } })).toEqual({ 'ip-weight': 20 });
    expect(costs('hyperliquid', { method: 'POST', path: '/info', body: { type: 'userRole', user: '0x1' } })).toEqual({ 'ip-weight': 60 });
    expect(errorCode('hyperliquid', { method: 'POST', path: '/info', body: {} })).toBe('missing_parameter');
  });
  it('prices an exchange action by batch length: 1 + floor(n / 40)', () => {
    const order = (n: number) =>
      costs('hyperliquid', { method: 'POST', path: '/exchange', body: { action: { type: 'order', orders: Array.from({ length: n }, () => ({})) } } })[
        'ip-weight'
      ];
    expect([order(1), order(39), order(40), order(79), order(80)]).toEqual([1, 1, 2, 2, 3]);
    expect(
      costs('hyperliquid', { method: 'POST', path: '/exchange', body: { action: { type: 'cancel', cancels: Array.from({ length: 45 }, () => ({})) } } })[
        'ip-weight'
      ],
    ).toBe(2);
    expect(costs('hyperliquid', { method: 'POST', path: '/exchange', body: { action: { type: 'updateLeverage' } } })['ip-weight']).toBe(1);
    expect(errorCode('hyperliquid', { method: 'POST', path: '/exchange', body: { action: { type: 'order' } } })).toBe('missing_parameter');
  });
});

describe('coinbase', () => {
  it('charges private calls per user and public market calls per IP; unlisted paths use the documented per-category limits', () => {
    expect(costs('coinbase', { method: 'POST', path: '/api/v3/brokerage/orders' }, keyId)).toEqual({ private: 1, 'private-hourly': 1 });
    expect(costs('coinbase', { method: 'GET', path: '/api/v3/brokerage/market/products/BTC-USD/ticker' })).toEqual({ public: 1 });
    expect(costs('coinbase', { method: 'GET', path: '/api/v3/brokerage/portfolios' }, keyId)).toEqual({ private: 1, 'private-hourly': 1 });
    expect(costs('coinbase', { method: 'GET', path: '/api/v3/brokerage/something' })).toEqual({ public: 1 });
  });
});

describe('bitget', () => {
  it('charges the endpoint and the overall IP limit', () => {
    expect(costs('bitget', { method: 'POST', path: '/api/v2/spot/trade/place-order' }, keyId)).toEqual({ 'spot-place-order': 1, ip: 1 });
    expect(errorCode('bitget', { method: 'GET', path: '/api/v2/spot/unknown' })).toBe('unknown_endpoint');
  });
});

describe('gate', () => {
  it('charges spot orders per market, and a batch per order on each market it touches', () => {
    expect(costs('gate', { method: 'POST', path: '/api/v4/spot/orders', body: { currency_pair: 'BTC_USDT' } }, keyId)).toEqual({ 'spot-order:BTC_USDT': 1 });
    const batch = [{ currency_pair: 'BTC_USDT' }, { currency_pair: 'ETH_USDT' }, { currency_pair: 'BTC_USDT' }];
    expect(costs('gate', { method: 'POST', path: '/api/v4/spot/batch_orders', body: batch }, keyId)).toEqual({
      'spot-order:BTC_USDT': 2,
      'spot-order:ETH_USDT': 1,
    });
    expect(errorCode('gate', { method: 'POST', path: '/api/v4/spot/orders', body: {} }, keyId)).toBe('missing_parameter');
  });
  it('uses the documented per-endpoint default for unlisted endpoints, per IP or per UID', () => {
    expect(costs('gate', { method: 'GET', path: '/api/v4/spot/tickers' })).toEqual({ 'public-endpoint:GET /api/v4/spot/tickers': 1 });
    expect(costs('gate', { method: 'GET', path: '/api/v4/spot/accounts' }, keyId)).toEqual({ 'private-endpoint:GET /api/v4/spot/accounts': 1 });
  });
});

describe('htx', () => {
  it('charges each endpoint its own bucket per UID', () => {
    expect(costs('htx', { method: 'POST', path: '/v1/order/orders/place' }, keyId)).toEqual({ place: 1 });
    expect(costs('htx', { method: 'POST', path: '/v1/order/orders/12345/submitcancel' }, keyId)).toEqual({ submitcancel: 1 });
    expect(costs('htx', { method: 'GET', path: '/market/history/kline', query: { symbol: 'btcusdt' } })).toEqual({ kline: 1 });
  });
});

describe('bitfinex', () => {
  it('charges each endpoint its own per-minute bucket', () => {
    expect(costs('bitfinex', { method: 'GET', path: '/v2/book/tBTCUSD/P0' })).toEqual({ book: 1 });
    expect(costs('bitfinex', { method: 'POST', path: '/v2/auth/w/order/submit' }, keyId)).toEqual({ 'order-submit': 1 });
  });
});

describe('deribit', () => {
  it('charges 500 credits for non-matching requests and 1 matching unit for orders', () => {
    expect(costs('deribit', { method: 'GET', path: '/api/v2/private/get_positions' }, keyId)).toEqual({ 'non-matching': 500 });
    expect(costs('deribit', { method: 'GET', path: '/api/v2/private/buy' }, keyId)).toEqual({ matching: 1 });
    expect(costs('deribit', { method: 'GET', path: '/api/v2/public/get_index_price' })).toEqual({ public: 500 });
    expect(costs('deribit', { method: 'GET', path: '/api/v2/private/get_margins' }, keyId)).toEqual({ 'non-matching': 500 });
  });
});

describe('bitstamp', () => {
  it('charges every request on both limits', () => {
    expect(costs('bitstamp', { method: 'GET', path: '/api/v2/ticker/btcusd/' })).toEqual({ 'per-second': 1, 'per-10-minutes': 1 });
    expect(costs('bitstamp', { method: 'POST', path: '/api/v2/user_transactions/' }, keyId)).toEqual({ 'per-second': 1, 'per-10-minutes': 1 });
  });
});

describe('ccxt-derived', () => {
  it('prices by the cost ccxt charges, at the path ccxt sends, with the default cost for unlisted paths', () => {
    expect(costs('ccxt:binance', { method: 'GET', path: '/api/v3/depth', query: { limit: '1000' } })).toEqual({ ccxt: 10 });
    expect(costs('ccxt:binance', { method: 'GET', path: '/api/v3/depth' })).toEqual({ ccxt: 1 });
    // the same ccxt path in the futures section is another endpoint with its own costs
    expect(costs('ccxt:binance', { method: 'GET', path: '/fapi/v1/depth', query: { limit: '1000' } })).toEqual({ ccxt: 20 });
    expect(costs('phemex', { method: 'GET', path: '/some/unlisted/path' })).toEqual({ ccxt: 1 });
  });

  it("keeps ccxt's modifiers: no pool id (Binance), no market (Bitvavo)", () => {
    expect(costs('ccxt:binance', { method: 'GET', path: '/sapi/v1/bswap/liquidity' }, keyId)).toEqual({ ccxt: 1 });
    expect(costs('ccxt:binance', { method: 'GET', path: '/sapi/v1/bswap/liquidity', query: { poolId: '2' } }, keyId)).toEqual({ ccxt: 0.1 });
    expect(costs('bitvavo', { method: 'GET', path: '/v2/ticker/24h' })).toEqual({ ccxt: 25 });
    expect(costs('bitvavo', { method: 'GET', path: '/v2/ticker/24h', query: { market: 'BTC-EUR' } })).toEqual({ ccxt: 1 });
    expect(costs('bitvavo', { method: 'GET', path: '/v2/ordersOpen' }, keyId)).toEqual({ ccxt: 100 });
  });

  it('marks the sections ccxt signs private (Binance /sapi)', () => {
    expect(errorCode('ccxt:binance', { method: 'GET', path: '/sapi/v1/bswap/liquidity' })).toBe('credential_required');
    expect(costs('ccxt:binance', { method: 'GET', path: '/sapi/v1/system/status' })).toEqual({ ccxt: 0.1 });
  });

  it('tells hosts apart when the request names one, and charges the costliest when it does not', () => {
    const order = (host?: string) =>
      costs('ccxt:kucoinfutures', { method: 'GET', path: '/api/v1/orders/5c35c02703aa673ceec2a168', ...(host === undefined ? {} : { host }) }, keyId);
    expect(order('api-futures.kucoin.com')).toEqual({ ccxt: 10 });
    expect(order('api.kucoin.com')).toEqual({ ccxt: 2 });
    expect(order()).toEqual({ ccxt: 10 });
    expect(order('127.0.0.1:8080')).toEqual({ ccxt: 10 });
  });

  it('matches parameters inside a path segment (Bitfinex candles)', () => {
    // ccxt: 2.7 units for candles; the default would be 1
    expect(costs('ccxt:bitfinex', { method: 'GET', path: '/v2/candles/trade:1m:tBTCUSD/hist' })).toEqual({ ccxt: 2.7 });
  });
});

describe('hyperliquid conditional rules', () => {
  it('refuses an exchange action without a type rather than pricing it at 0 or 1', () => {
    expect(errorCode('hyperliquid', { method: 'POST', path: '/exchange', body: { action: {} } })).toBe('missing_parameter');
  });
});

describe('count costs beyond the documented maximum', () => {
  it('a list longer than maxItems is refused (it would be charged more than the safe parameters allow for)', () => {
    const spec: VenueSpec = {
      id: 'batchy',
      venue: 'Batchy',
      product: 'test',
      origin: 'hand-authored',
      sources: { doc: { url: 'https://example.com/limits', retrieved: '2026-12-01' } },
      buckets: [
        { id: 'orders', scope: 'uid', algorithm: 'sliding-window', limit: 10, windowMs: 1000, provenance: { source: 'doc', confidence: 'documented' } },
      ],
      endpoints: [
        {
          id: 'batch',
          method: 'POST',
          path: '/batch',
          auth: 'private',
          costs: [{ bucket: 'orders', cost: { kind: 'count', param: '', base: 0, per: 1, maxItems: 3 } }],
          provenance: { source: 'doc', confidence: 'documented' },
        },
      ],
    };
    const checked = validateSpec(spec);
    expect(checked.ok).toBe(true);
    const request = (n: number) => ({ method: 'POST' as const, path: '/batch', body: Array.from({ length: n }, (_, i) => ({ i })) });
    expect(resolveRequest(spec, request(3), { credential: 'k' }).ok).toBe(true);
    expect(resolveRequest(spec, request(4), { credential: 'k' })).toMatchObject({ ok: false, error: { code: 'invalid_parameter' } });
  });
});
