import type { VenueSpec } from '../venue-spec.js';

const general = { source: 'general', confidence: 'documented' } as const;
const market = { source: 'market', confidence: 'documented' } as const;
const trade = { source: 'trade', confidence: 'documented' } as const;
const account = { source: 'account', confidence: 'documented' } as const;
const weight = (value: number) => ({ bucket: 'request_weight', cost: { kind: 'constant', value } }) as const;
const bySymbol = (present: number, absent: number) => ({ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present, absent } }) as const;

/** Binance USDⓈ-M futures REST (`fapi.binance.com`). */
export const binanceUsdm: VenueSpec = {
  id: 'binance-usdm',
  venue: 'Binance',
  product: 'USDⓈ-M futures REST API (/fapi)',
  origin: 'hand-authored',
  ccxtIds: ['binanceusdm'],
  sources: {
    general: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info', retrieved: '2026-11' },
    market: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api', retrieved: '2026-11-30' },
    trade: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/trade/rest-api', retrieved: '2026-11' },
    account: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/account/rest-api', retrieved: '2026-11-30' },
    errors: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code', retrieved: '2026-11' },
  },
  buckets: [
    { id: 'request_weight', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 2400, windowMs: 60_000, provenance: general, description: 'REQUEST_WEIGHT per IP per minute' },
    { id: 'orders_10s', scope: 'uid', algorithm: 'fixed-window-aligned', limit: 300, windowMs: 10_000, provenance: general, description: 'ORDERS per account per 10 s' },
    { id: 'orders_1m', scope: 'uid', algorithm: 'fixed-window-aligned', limit: 1200, windowMs: 60_000, provenance: general, description: 'ORDERS per account per minute' },
  ],
  endpoints: [
    { id: 'ping', method: 'GET', path: '/fapi/v1/ping', auth: 'public', costs: [weight(1)], provenance: market },
    { id: 'time', method: 'GET', path: '/fapi/v1/time', auth: 'public', costs: [weight(1)], provenance: market },
    { id: 'exchangeInfo', method: 'GET', path: '/fapi/v1/exchangeInfo', auth: 'public', costs: [weight(1)], provenance: market },
    {
      id: 'depth', method: 'GET', path: '/fapi/v1/depth', auth: 'public', provenance: market, note: 'limit 5/10/20/50: 2, 100: 5, 500 (default): 10, 1000: 20',
      costs: [{ bucket: 'request_weight', cost: { kind: 'table', param: 'limit', defaultValue: 500, rows: [{ upTo: 50, cost: 2 }, { upTo: 100, cost: 5 }, { upTo: 500, cost: 10 }, { upTo: 1000, cost: 20 }] } }],
    },
    { id: 'trades', method: 'GET', path: '/fapi/v1/trades', auth: 'public', costs: [weight(5)], provenance: market },
    { id: 'aggTrades', method: 'GET', path: '/fapi/v1/aggTrades', auth: 'public', costs: [weight(20)], provenance: market },
    {
      id: 'klines', method: 'GET', path: '/fapi/v1/klines', auth: 'public', provenance: market, note: 'limit [1,100): 1, [100,500): 2, [500,1000]: 5, >1000: 10; default 500',
      costs: [{ bucket: 'request_weight', cost: { kind: 'table', param: 'limit', defaultValue: 500, rows: [{ upTo: 99, cost: 1 }, { upTo: 499, cost: 2 }, { upTo: 1000, cost: 5 }], above: 10 } }],
    },
    { id: 'premiumIndex', method: 'GET', path: '/fapi/v1/premiumIndex', auth: 'public', costs: [weight(1)], provenance: market },
    { id: 'ticker24hr', method: 'GET', path: '/fapi/v1/ticker/24hr', auth: 'public', costs: [bySymbol(1, 40)], provenance: market },
    { id: 'tickerPrice', method: 'GET', path: '/fapi/v1/ticker/price', auth: 'public', costs: [bySymbol(1, 2)], provenance: market },
    { id: 'tickerPriceV2', method: 'GET', path: '/fapi/v2/ticker/price', auth: 'public', costs: [bySymbol(1, 2)], provenance: market },
    { id: 'bookTicker', method: 'GET', path: '/fapi/v1/ticker/bookTicker', auth: 'public', costs: [bySymbol(2, 5)], provenance: market },
    {
      id: 'newOrder', method: 'POST', path: '/fapi/v1/order', auth: 'private', provenance: trade, note: '0 IP weight; 1 on each order count',
      costs: [{ bucket: 'orders_10s', cost: { kind: 'constant', value: 1 } }, { bucket: 'orders_1m', cost: { kind: 'constant', value: 1 } }],
    },
    {
      id: 'batchOrders', method: 'POST', path: '/fapi/v1/batchOrders', auth: 'private', provenance: trade, note: 'up to 5 orders: 5 on the 10 s count, 1 on the minute count, 5 IP weight',
      costs: [{ bucket: 'orders_10s', cost: { kind: 'constant', value: 5 } }, { bucket: 'orders_1m', cost: { kind: 'constant', value: 1 } }, weight(5)],
    },
    {
      id: 'modifyOrder', method: 'PUT', path: '/fapi/v1/order', auth: 'private', provenance: trade,
      costs: [{ bucket: 'orders_10s', cost: { kind: 'constant', value: 1 } }, { bucket: 'orders_1m', cost: { kind: 'constant', value: 1 } }, weight(1)],
    },
    { id: 'cancelOrder', method: 'DELETE', path: '/fapi/v1/order', auth: 'private', costs: [weight(1)], provenance: trade },
    { id: 'cancelBatch', method: 'DELETE', path: '/fapi/v1/batchOrders', auth: 'private', costs: [weight(1)], provenance: trade },
    { id: 'cancelAll', method: 'DELETE', path: '/fapi/v1/allOpenOrders', auth: 'private', costs: [weight(1)], provenance: trade },
    { id: 'queryOrder', method: 'GET', path: '/fapi/v1/order', auth: 'private', costs: [weight(1)], provenance: trade },
    { id: 'openOrders', method: 'GET', path: '/fapi/v1/openOrders', auth: 'private', costs: [bySymbol(1, 40)], provenance: trade },
    { id: 'allOrders', method: 'GET', path: '/fapi/v1/allOrders', auth: 'private', costs: [weight(5)], provenance: trade },
    { id: 'userTrades', method: 'GET', path: '/fapi/v1/userTrades', auth: 'private', costs: [weight(5)], provenance: trade },
    { id: 'accountV2', method: 'GET', path: '/fapi/v2/account', auth: 'private', costs: [weight(5)], provenance: account },
    { id: 'accountV3', method: 'GET', path: '/fapi/v3/account', auth: 'private', costs: [weight(5)], provenance: account },
    { id: 'balanceV2', method: 'GET', path: '/fapi/v2/balance', auth: 'private', costs: [weight(5)], provenance: account },
    { id: 'balanceV3', method: 'GET', path: '/fapi/v3/balance', auth: 'private', costs: [weight(5)], provenance: account },
    { id: 'positionRiskV2', method: 'GET', path: '/fapi/v2/positionRisk', auth: 'private', costs: [weight(5)], provenance: trade },
    { id: 'positionRiskV3', method: 'GET', path: '/fapi/v3/positionRisk', auth: 'private', costs: [weight(5)], provenance: trade },
    { id: 'rateLimitOrder', method: 'GET', path: '/fapi/v1/rateLimit/order', auth: 'private', costs: [weight(1)], provenance: account },
  ],
  feedback: [
    { header: 'x-mbx-used-weight-1m', meaning: 'used', buckets: ['request_weight'], provenance: general },
    { header: 'x-mbx-order-count-10s', meaning: 'used', buckets: ['orders_10s'], provenance: general },
    { header: 'x-mbx-order-count-1m', meaning: 'used', buckets: ['orders_1m'], provenance: general },
  ],
  errors: [
    { id: 'ip-ban', status: [418], verdict: 'banned', counted: true, penalize: ['request_weight'], wait: [{ from: 'header', header: 'retry-after', unit: 's' }, { from: 'fixed', ms: 120_000 }], provenance: general },
    { id: 'too-many-orders', status: [429], body: [{ path: 'code', equals: [-1015] }], verdict: 'rate_limited', counted: true, penalize: ['orders_10s', 'orders_1m'], wait: [{ from: 'header', header: 'retry-after', unit: 's' }, { from: 'fixed', ms: 10_000 }], provenance: { source: 'errors', confidence: 'documented' } },
    { id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: ['request_weight'], wait: [{ from: 'header', header: 'retry-after', unit: 's' }, { from: 'fixed', ms: 60_000 }], provenance: general },
    { id: 'throttled', status: [503], body: [{ path: 'code', equals: [-1008] }], verdict: 'overloaded', counted: false, wait: [{ from: 'fixed', ms: 1000 }], provenance: { source: 'errors', confidence: 'documented' }, note: '"Request throttled by system-level protection": not counted against the quotas' },
  ],
};
