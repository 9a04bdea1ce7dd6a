import type { VenueSpec } from '../venue-spec.js';

const doc = { source: 'limits', confidence: 'documented' } as const;
const market = { source: 'market', confidence: 'documented' } as const;
const trading = { source: 'trading', confidence: 'documented' } as const;
const account = { source: 'account', confidence: 'documented' } as const;

const weight = (value: number) => ({ bucket: 'request_weight', cost: { kind: 'constant', value } }) as const;
/** Since 2026-04-02 successful order placements and cancels cost 0 weight; failed ones pay it. */
const weightOnFailure = (value: number) => ({ bucket: 'request_weight', cost: { kind: 'constant', value }, charge: 'failure', provenance: { source: 'changelog', confidence: 'documented' } }) as const;
const orders = (value: number) =>
  [
    { bucket: 'orders_10s', cost: { kind: 'constant', value } },
    { bucket: 'orders_1d', cost: { kind: 'constant', value } },
  ] as const;

/** Binance spot REST (`api.binance.com/api/v3`). */
export const binanceSpot: VenueSpec = {
  id: 'binance-spot',
  venue: 'Binance',
  product: 'spot REST API (/api/v3)',
  origin: 'hand-authored',
  ccxtIds: ['binance'],
  sources: {
    limits: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/limits', retrieved: '2026-11-30' },
    market: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints', retrieved: '2026-11-30' },
    trading: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/trading-endpoints', retrieved: '2026-11' },
    account: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/account-endpoints', retrieved: '2026-11' },
    changelog: { url: 'https://github.com/binance/binance-spot-api-docs/blob/master/CHANGELOG.md', retrieved: '2026-11', note: 'commit a5e0bc3 (2026-07-21): RAW_REQUESTS 300,000 / 5 min and zero weight for successful order calls since 2026-04-02' },
    errors: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/errors', retrieved: '2026-11' },
    exchangeInfo: { url: 'https://api.binance.com/api/v3/exchangeInfo', retrieved: '2026-11', note: 'the live ORDERS limits are in exchangeInfo.rateLimits; the docs only show examples' },
  },
  buckets: [
    { id: 'request_weight', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 6000, windowMs: 60_000, provenance: doc, description: 'REQUEST_WEIGHT per IP, REST and WebSocket API together; each minute starts at :00' },
    { id: 'raw_requests', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 300_000, windowMs: 300_000, provenance: { source: 'changelog', confidence: 'documented' }, description: 'RAW_REQUESTS per IP (was 61,000 before 2026-04-02)' },
    { id: 'orders_10s', scope: 'uid', algorithm: 'fixed-window-aligned', limit: 100, windowMs: 10_000, provenance: { source: 'exchangeInfo', confidence: 'uncertain' }, description: 'unfilled ORDERS per account (every key of the account), windows at :00, :10, ...' },
    { id: 'orders_1d', scope: 'uid', algorithm: 'fixed-window-aligned', limit: 200_000, windowMs: 86_400_000, provenance: { source: 'exchangeInfo', confidence: 'uncertain' }, description: 'unfilled ORDERS per account per UTC day' },
  ],
  global: [{ bucket: 'raw_requests', cost: { kind: 'constant', value: 1 } }],
  endpoints: [
    { id: 'ping', method: 'GET', path: '/api/v3/ping', auth: 'public', costs: [weight(1)], provenance: market },
    { id: 'time', method: 'GET', path: '/api/v3/time', auth: 'public', costs: [weight(1)], provenance: market },
    { id: 'exchangeInfo', method: 'GET', path: '/api/v3/exchangeInfo', auth: 'public', costs: [weight(20)], provenance: market },
    {
      id: 'depth', method: 'GET', path: '/api/v3/depth', auth: 'public', provenance: market,
      note: 'limit defaults to 100',
      costs: [{ bucket: 'request_weight', cost: { kind: 'table', param: 'limit', defaultValue: 100, rows: [{ upTo: 100, cost: 5 }, { upTo: 500, cost: 25 }, { upTo: 1000, cost: 50 }, { upTo: 5000, cost: 250 }] } }],
    },
    { id: 'trades', method: 'GET', path: '/api/v3/trades', auth: 'public', costs: [weight(25)], provenance: market },
    { id: 'historicalTrades', method: 'GET', path: '/api/v3/historicalTrades', auth: 'public', costs: [weight(25)], provenance: market },
    { id: 'aggTrades', method: 'GET', path: '/api/v3/aggTrades', auth: 'public', costs: [weight(4)], provenance: market },
    { id: 'klines', method: 'GET', path: '/api/v3/klines', auth: 'public', costs: [weight(2)], provenance: market },
    { id: 'uiKlines', method: 'GET', path: '/api/v3/uiKlines', auth: 'public', costs: [weight(2)], provenance: market },
    { id: 'avgPrice', method: 'GET', path: '/api/v3/avgPrice', auth: 'public', costs: [weight(2)], provenance: market },
    {
      id: 'ticker24hr', method: 'GET', path: '/api/v3/ticker/24hr', auth: 'public', provenance: market,
      note: 'symbol: 2; symbols 1-20: 2, 21-100: 40, 101+: 80; neither (all symbols): 80',
      costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present: 2, absent: { kind: 'table', param: 'symbols', measure: 'count', rows: [{ upTo: 20, cost: 2 }, { upTo: 100, cost: 40 }], above: 80, absent: 80 } } }],
    },
    {
      id: 'tickerPrice', method: 'GET', path: '/api/v3/ticker/price', auth: 'public', provenance: market,
      costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present: 2, absent: 4 } }],
    },
    {
      id: 'bookTicker', method: 'GET', path: '/api/v3/ticker/bookTicker', auth: 'public', provenance: market,
      costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present: 2, absent: 4 } }],
    },
    { id: 'newOrder', method: 'POST', path: '/api/v3/order', auth: 'private', costs: [weightOnFailure(1), ...orders(1)], provenance: trading },
    { id: 'testOrder', method: 'POST', path: '/api/v3/order/test', auth: 'private', costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'computeCommissionRates', present: 20, absent: 1 } }], provenance: trading },
    { id: 'cancelOrder', method: 'DELETE', path: '/api/v3/order', auth: 'private', costs: [weightOnFailure(1)], provenance: trading },
    { id: 'cancelOpenOrders', method: 'DELETE', path: '/api/v3/openOrders', auth: 'private', costs: [weightOnFailure(1)], provenance: trading },
    { id: 'cancelReplace', method: 'POST', path: '/api/v3/order/cancelReplace', auth: 'private', costs: [weightOnFailure(1), ...orders(1)], provenance: trading },
    { id: 'queryOrder', method: 'GET', path: '/api/v3/order', auth: 'private', costs: [weight(4)], provenance: account },
    {
      id: 'openOrders', method: 'GET', path: '/api/v3/openOrders', auth: 'private', provenance: account,
      costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present: 6, absent: 80 } }],
    },
    { id: 'allOrders', method: 'GET', path: '/api/v3/allOrders', auth: 'private', costs: [weight(20)], provenance: account },
    { id: 'account', method: 'GET', path: '/api/v3/account', auth: 'private', costs: [weight(20)], provenance: account },
    {
      id: 'myTrades', method: 'GET', path: '/api/v3/myTrades', auth: 'private', provenance: account,
      costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'orderId', present: 5, absent: 20 } }],
    },
    { id: 'rateLimitOrder', method: 'GET', path: '/api/v3/rateLimit/order', auth: 'private', costs: [weight(40)], provenance: account },
  ],
  feedback: [
    { header: 'x-mbx-used-weight-1m', meaning: 'used', buckets: ['request_weight'], provenance: doc },
    { header: 'x-mbx-order-count-10s', meaning: 'used', buckets: ['orders_10s'], provenance: doc },
    { header: 'x-mbx-order-count-1d', meaning: 'used', buckets: ['orders_1d'], provenance: doc },
  ],
  errors: [
    {
      id: 'ip-ban', status: [418], verdict: 'banned', counted: true, penalize: ['request_weight', 'raw_requests'],
      wait: [{ from: 'header', header: 'retry-after', unit: 's' }, { from: 'fixed', ms: 120_000 }],
      provenance: doc, note: 'automatic IP ban after 429s were ignored; 2 minutes up to 3 days',
    },
    {
      id: 'too-many-orders', status: [429], body: [{ path: 'code', equals: [-1015] }], verdict: 'rate_limited', counted: true,
      penalize: ['orders_10s'], wait: [{ from: 'header', header: 'retry-after', unit: 's' }], provenance: { source: 'errors', confidence: 'documented' },
    },
    {
      id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: ['request_weight'],
      wait: [{ from: 'header', header: 'retry-after', unit: 's' }], provenance: doc,
    },
    { id: 'server-busy', body: [{ path: 'code', equals: [-1008] }], verdict: 'overloaded', counted: true, provenance: { source: 'errors', confidence: 'documented' }, note: 'counted is not documented for spot: assumed' },
    { id: 'waf', status: [403], verdict: 'error', counted: true, provenance: doc, note: 'WAF limit violated' },
  ],
  notes: [
    'Orders are admitted against request_weight too: the weight is reserved and, on success, not counted by Binance.',
    '/sapi endpoints are a separate product with per-endpoint IP and UID weights (not modelled here).',
  ],
};
