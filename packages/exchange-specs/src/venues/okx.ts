import type { BucketSpec, CostExpr, CostRule, EndpointSpec, Partition, Provenance, VenueSpec } from '../venue-spec.js';

/*
 * Every number below is quoted from OKX's API v5 documentation (one page, https://www.okx.com/docs-v5/en/,
 * one anchor per section), read 2026-12-01 from a stored copy of the page as crawled 2026-06-27.
 * Per-endpoint lines are quoted as the page prints them, separate lines joined with " | ".
 */

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });

/**
 * Options are limited per instrument family, every other instrument per instrument ID: an option
 * `instId` (`BTC-USD-241227-50000-C`) is partitioned by its family (`BTC-USD`), any other by itself.
 */
const OPTION_FAMILY = '^([^-]+-[^-]+)-\\d{6}-[^-]+-[CP]$';
const perInstrument: Partition = { kind: 'param', param: 'instId', pattern: OPTION_FAMILY };
const perOrderInstrument: Partition = { kind: 'items', list: '', field: 'instId', pattern: OPTION_FAMILY };

const RULE_INSTRUMENT = 'Rate limit rule (except Options): User ID + Instrument ID | Rate limit rule (Options only): User ID + Instrument Family';
const ALGORITHM_NOTE = 'OKX states "x requests per 2 seconds" and not how the window moves; a sliding window is the strictest reading (the safe limits are the same for every window algorithm)';

function bucket(id: string, scope: 'ip' | 'uid', limit: number, windowMs: number, provenance: Provenance, partition?: Partition): BucketSpec {
  return { id, scope, algorithm: 'sliding-window', limit, windowMs, provenance, description: ALGORITHM_NOTE, ...(partition === undefined ? {} : { partition }) };
}

const one = { kind: 'constant', value: 1 } as const;
/** One unit per order of a batch (the body is the list of orders): 1 to 20, more is refused ("Maximum 20 orders"). */
const orders: CostExpr = { kind: 'table', param: '', measure: 'count', rows: Array.from({ length: 20 }, (_, i) => ({ upTo: i + 1, cost: i + 1 })) };
const single = { param: '', items: { min: 1, max: 1 } } as const;
const several = { param: '', items: { min: 2 } } as const;

function endpoint(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth'], costs: readonly CostRule[], provenance: Provenance, note?: string): EndpointSpec {
  return { id, method, path, auth, costs, provenance, ...(note === undefined ? {} : { note }) };
}

const Q = {
  placeOrder: `Rate Limit: 60 requests per 2 seconds | ${RULE_INSTRUMENT}`,
  batchOrders: `Rate Limit: 300 orders per 2 seconds | ${RULE_INSTRUMENT} | Unlike other endpoints, the rate limit of this endpoint is determined by the number of orders. If there is only one order in the request, it will consume the rate limit of \`Place order\`.`,
  cancelOrder: `Rate Limit: 60 requests per 2 seconds | ${RULE_INSTRUMENT}`,
  cancelBatch: `Rate Limit: 300 orders per 2 seconds | ${RULE_INSTRUMENT} | Unlike other endpoints, the rate limit of this endpoint is determined by the number of orders. If there is only one order in the request, it will consume the rate limit of \`Cancel order\`.`,
  amendOrder: `Rate Limit: 60 requests per 2 seconds | ${RULE_INSTRUMENT}`,
  amendBatch: `Rate Limit: 300 orders per 2 seconds | ${RULE_INSTRUMENT} | Unlike other endpoints, the rate limit of this endpoint is determined by the number of orders. If there is only one order in the request, it will consume the rate limit of \`Amend order\`.`,
  getOrder: `Rate Limit: 60 requests per 2 seconds | ${RULE_INSTRUMENT}`,
  ordersPending: 'Rate Limit: 60 requests per 2 seconds | Rate limit rule: User ID',
  ordersHistory: 'Rate Limit: 40 requests per 2 seconds | Rate limit rule: User ID',
  fills: 'Rate Limit: 60 requests per 2 seconds | Rate limit rule: User ID',
  accountRateLimit: 'Rate Limit: 1 request per second | Rate limit rule: User ID',
  balance: 'Rate Limit: 10 requests per 2 seconds | Rate limit rule: User ID',
  positions: 'Rate Limit: 10 requests per 2 seconds | Rate limit rule: User ID',
  config: 'Rate Limit: 5 requests per 2 seconds | Rate limit rule: User ID',
  books: 'Rate Limit: 40 requests per 2 seconds | Rate limit rule: IP',
  tickers: 'Rate Limit: 20 requests per 2 seconds | Rate limit rule: IP',
  ticker: 'Rate Limit: 20 requests per 2 seconds | Rate limit rule: IP',
  candles: 'Rate Limit: 40 requests per 2 seconds | Rate limit rule: IP',
  trades: 'Rate Limit: 100 requests per 2 seconds | Rate limit rule: IP',
  instruments: 'Rate Limit: 20 requests per 2 seconds | Rate limit rule: IP + Instrument Type',
  time: 'Rate Limit: 10 requests per 2 seconds | Rate limit rule: IP',
  status: 'Rate Limit: 1 request per 5 seconds',
  currencies: 'Rate Limit: 6 requests per second | Rate limit rule: User ID',
  elpTaker: 'Rate limit of orders tagged as isElpTakerAccess:true - 50 orders per 2 seconds per User ID per instrument ID. - This rate limit is shared in Place order/Place multiple orders endpoints in REST/WebSocket',
  subaccount:
    'At the sub-account level, we allow a maximum of 1000 order requests per 2 seconds. Only new order requests and amendment order requests will be counted towards this limit. The limit encompasses all requests from the endpoints below. For batch order requests consisting of multiple orders, each order will be counted individually. Error code 50061 is returned when the sub-account rate limit is exceeded. | ' +
    'Tier 1 | [0,1) | 1,000 | Tier 2 | [1,2) | 1,250 | Tier 3 | [2,3) | 1,500 | Tier 4 | [3,5) | 1,750 | Tier 5 | [5,10) | 2,000 | Tier 6 | [10,20) | 2,500 | Tier 7 | [20,50) | 3,000 | Tier 8 | >= 50 | 10,000',
} as const;

const SINGLE_IN_BATCH = 'Rate limits for a multiple order endpoint and a single order endpoint are also independent, with the exception being when there is only one order sent to a multiple order endpoint, the order will be counted as a single order and adopt the single order rate limit.';

/** OKX API v5 REST. Public endpoints per IP; private per User ID (each sub-account its own); trading per User ID + instrument. */
export const okx: VenueSpec = {
  id: 'okx',
  venue: 'OKX',
  product: 'API v5 REST (trading, account, market data)',
  markets: ['spot', 'margin', 'perpetual', 'delivery', 'options', 'wallet'],
  origin: 'hand-authored',
  defaultTier: 'tier-1',
  ccxtIds: ['okx'],
  sources: {
    overview: { url: 'https://www.okx.com/docs-v5/en/#overview-rate-limits', retrieved: '2026-12-01', note: 'section "Rate Limits" (trading-related APIs, sub-account rate limit), page version of 2026-06-27' },
    subaccount: { url: 'https://www.okx.com/docs-v5/en/#overview-rate-limits-fill-ratio-based-sub-account-rate-limit', retrieved: '2026-12-01', note: 'fill-ratio tier table, page version of 2026-06-27' },
    trade: { url: 'https://www.okx.com/docs-v5/en/#order-book-trading-trade', retrieved: '2026-12-01', note: 'per-endpoint "Rate Limit" and "Rate limit rule" lines, page version of 2026-06-27' },
    market: { url: 'https://www.okx.com/docs-v5/en/#order-book-trading-market-data', retrieved: '2026-12-01', note: 'page version of 2026-06-27' },
    public: { url: 'https://www.okx.com/docs-v5/en/#public-data-rest-api', retrieved: '2026-12-01', note: 'page version of 2026-06-27' },
    account: { url: 'https://www.okx.com/docs-v5/en/#trading-account-rest-api', retrieved: '2026-12-01', note: 'page version of 2026-06-27' },
    status: { url: 'https://www.okx.com/docs-v5/en/#status-get-status', retrieved: '2026-12-01', note: 'page version of 2026-06-27' },
    funding: {
      url: 'https://www.okx.com/docs-v5/en/#funding-account-rest-api-get-currencies',
      retrieved: '2026-12-07',
      note: 'section "Get currencies" (Funding Account), read from a copy of the page kept in rosssaunders/coincise @347e06d docs/okx/endpoints/private/get_currencies.md, which names this page as its source',
    },
    errors: { url: 'https://www.okx.com/docs-v5/en/#error-code-rest-api', retrieved: '2026-12-01', note: 'error code table (Error Code | HTTP Status Code | Error Message), page version of 2026-06-27' },
  },
  buckets: [
    bucket('trade/order', 'uid', 60, 2000, doc('trade', Q.placeOrder), perInstrument),
    bucket('trade/batch-orders', 'uid', 300, 2000, doc('trade', Q.batchOrders), perOrderInstrument),
    bucket('trade/cancel-order', 'uid', 60, 2000, doc('trade', Q.cancelOrder), perInstrument),
    bucket('trade/cancel-batch-orders', 'uid', 300, 2000, doc('trade', Q.cancelBatch), perOrderInstrument),
    bucket('trade/amend-order', 'uid', 60, 2000, doc('trade', Q.amendOrder), perInstrument),
    bucket('trade/amend-batch-orders', 'uid', 300, 2000, doc('trade', Q.amendBatch), perOrderInstrument),
    bucket('trade/elp-taker-orders', 'uid', 50, 2000, doc('trade', Q.elpTaker), { kind: 'param', param: 'instId' }),
    bucket('trade/order-get', 'uid', 60, 2000, doc('trade', Q.getOrder), perInstrument),
    bucket('trade/orders-pending', 'uid', 60, 2000, doc('trade', Q.ordersPending)),
    bucket('trade/orders-history', 'uid', 40, 2000, doc('trade', Q.ordersHistory)),
    bucket('trade/fills', 'uid', 60, 2000, doc('trade', Q.fills)),
    bucket('trade/account-rate-limit', 'uid', 1, 1000, doc('trade', Q.accountRateLimit)),
    {
      id: 'subaccount-orders',
      scope: 'subaccount',
      algorithm: 'sliding-window',
      limit: 1000,
      windowMs: 2000,
      provenance: doc('subaccount', Q.subaccount),
      description: `new and amended orders per sub-account (each order of a batch counts); the fill-ratio tiers (OKX's "Tier 1" to "Tier 8", for VIP5 and above) are recomputed daily at 08:00 UTC and a new sub-account starts at Tier 1. OKX exempts spot and margin orders; this spec charges every order (safe). ${ALGORITHM_NOTE}`,
      tiers: { 'tier-1': { limit: 1000 }, 'tier-2': { limit: 1250 }, 'tier-3': { limit: 1500 }, 'tier-4': { limit: 1750 }, 'tier-5': { limit: 2000 }, 'tier-6': { limit: 2500 }, 'tier-7': { limit: 3000 }, 'tier-8': { limit: 10000 } },
    },
    bucket('account/balance', 'uid', 10, 2000, doc('account', Q.balance)),
    bucket('account/positions', 'uid', 10, 2000, doc('account', Q.positions)),
    bucket('account/config', 'uid', 5, 2000, doc('account', Q.config)),
    bucket('asset/currencies', 'uid', 6, 1000, doc('funding', Q.currencies)),
    bucket('market/books', 'ip', 40, 2000, doc('market', Q.books)),
    bucket('market/tickers', 'ip', 20, 2000, doc('market', Q.tickers)),
    bucket('market/ticker', 'ip', 20, 2000, doc('market', Q.ticker)),
    bucket('market/candles', 'ip', 40, 2000, doc('market', Q.candles)),
    bucket('market/trades', 'ip', 100, 2000, doc('market', Q.trades)),
    bucket('public/instruments', 'ip', 20, 2000, doc('public', Q.instruments), { kind: 'param', param: 'instType' }),
    bucket('public/time', 'ip', 10, 2000, doc('public', Q.time)),
    { ...bucket('system/status', 'ip', 1, 5000, doc('status', Q.status)), description: `per IP: the endpoint states no rule, and "Public unauthenticated REST rate limits are based on IP address" (Rate Limits overview). ${ALGORITHM_NOTE}` },
  ],
  endpoints: [
    endpoint(
      'place-order',
      'POST',
      '/api/v5/trade/order',
      'private',
      [
        { bucket: 'trade/order', cost: one },
        { bucket: 'subaccount-orders', cost: one },
        { bucket: 'trade/elp-taker-orders', cost: one, when: { param: 'isElpTakerAccess', in: ['true'] } },
      ],
      doc('trade', Q.placeOrder),
    ),
    endpoint(
      'batch-orders',
      'POST',
      '/api/v5/trade/batch-orders',
      'private',
      [
        { bucket: 'trade/order', cost: one, when: single, provenance: doc('trade', Q.batchOrders) },
        { bucket: 'trade/batch-orders', cost: orders, when: several },
        { bucket: 'subaccount-orders', cost: orders },
      ],
      doc('trade', Q.batchOrders),
      'the body is the list of orders (at most 20); each order counts on its instrument, a batch of one on the place-order limit. Orders tagged isElpTakerAccess in a batch are not charged to their 50 per 2 s limit (only single orders are)',
    ),
    endpoint('cancel-order', 'POST', '/api/v5/trade/cancel-order', 'private', [{ bucket: 'trade/cancel-order', cost: one }], doc('trade', Q.cancelOrder)),
    endpoint(
      'cancel-batch-orders',
      'POST',
      '/api/v5/trade/cancel-batch-orders',
      'private',
      [
        { bucket: 'trade/cancel-order', cost: one, when: single, provenance: doc('trade', Q.cancelBatch) },
        { bucket: 'trade/cancel-batch-orders', cost: orders, when: several },
      ],
      doc('trade', Q.cancelBatch),
    ),
    endpoint(
      'amend-order',
      'POST',
      '/api/v5/trade/amend-order',
      'private',
      [
        { bucket: 'trade/amend-order', cost: one },
        { bucket: 'subaccount-orders', cost: one },
      ],
      doc('trade', Q.amendOrder),
    ),
    endpoint(
      'amend-batch-orders',
      'POST',
      '/api/v5/trade/amend-batch-orders',
      'private',
      [
        { bucket: 'trade/amend-order', cost: one, when: single, provenance: doc('trade', Q.amendBatch) },
        { bucket: 'trade/amend-batch-orders', cost: orders, when: several },
        { bucket: 'subaccount-orders', cost: orders },
      ],
      doc('trade', Q.amendBatch),
    ),
    endpoint('get-order', 'GET', '/api/v5/trade/order', 'private', [{ bucket: 'trade/order-get', cost: one }], doc('trade', Q.getOrder)),
    endpoint('orders-pending', 'GET', '/api/v5/trade/orders-pending', 'private', [{ bucket: 'trade/orders-pending', cost: one }], doc('trade', Q.ordersPending)),
    endpoint('orders-history', 'GET', '/api/v5/trade/orders-history', 'private', [{ bucket: 'trade/orders-history', cost: one }], doc('trade', Q.ordersHistory)),
    endpoint('fills', 'GET', '/api/v5/trade/fills', 'private', [{ bucket: 'trade/fills', cost: one }], doc('trade', Q.fills)),
    endpoint('account-rate-limit', 'GET', '/api/v5/trade/account-rate-limit', 'private', [{ bucket: 'trade/account-rate-limit', cost: one }], doc('trade', Q.accountRateLimit)),
    endpoint('balance', 'GET', '/api/v5/account/balance', 'private', [{ bucket: 'account/balance', cost: one }], doc('account', Q.balance)),
    endpoint('positions', 'GET', '/api/v5/account/positions', 'private', [{ bucket: 'account/positions', cost: one }], doc('account', Q.positions)),
    endpoint('config', 'GET', '/api/v5/account/config', 'private', [{ bucket: 'account/config', cost: one }], doc('account', Q.config)),
    endpoint('currencies', 'GET', '/api/v5/asset/currencies', 'private', [{ bucket: 'asset/currencies', cost: one }], doc('funding', Q.currencies), 'ccxt calls it (fetchCurrencies)'),
    endpoint('books', 'GET', '/api/v5/market/books', 'public', [{ bucket: 'market/books', cost: one }], doc('market', Q.books)),
    endpoint('tickers', 'GET', '/api/v5/market/tickers', 'public', [{ bucket: 'market/tickers', cost: one }], doc('market', Q.tickers)),
    endpoint('ticker', 'GET', '/api/v5/market/ticker', 'public', [{ bucket: 'market/ticker', cost: one }], doc('market', Q.ticker)),
    endpoint('candles', 'GET', '/api/v5/market/candles', 'public', [{ bucket: 'market/candles', cost: one }], doc('market', Q.candles)),
    endpoint('trades', 'GET', '/api/v5/market/trades', 'public', [{ bucket: 'market/trades', cost: one }], doc('market', Q.trades)),
    endpoint('instruments', 'GET', '/api/v5/public/instruments', 'public', [{ bucket: 'public/instruments', cost: one }], doc('public', Q.instruments)),
    endpoint('time', 'GET', '/api/v5/public/time', 'public', [{ bucket: 'public/time', cost: one }], doc('public', Q.time)),
    endpoint('status', 'GET', '/api/v5/system/status', 'public', [{ bucket: 'system/status', cost: one }], doc('status', Q.status)),
  ],
  errors: [
    {
      id: 'subaccount-limit',
      body: [{ path: 'code', equals: ['50061'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['subaccount-orders'],
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: { ...doc('errors', "50061 | 200 | You've reached the maximum order rate limit for this account."), deviations: [{ value: 2000, reason: 'conservative', text: 'OKX states no wait; its limits are counted per 2 seconds ("x requests per 2 seconds"): held one whole 2 s window' }] },
      note: 'the sub-account order limit is exceeded; OKX states no wait: the documented default is one 2 s window',
    },
    {
      id: 'rate-limit',
      body: [{ path: 'code', equals: ['50011'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: {
        ...doc('errors', '50011 | 200 | Rate limit reached. Please refer to API documentation and throttle requests accordingly. | 50011 | 429 | Too Many Requests'),
        deviations: [{ value: 2000, reason: 'conservative', text: 'OKX states no wait; its limits are counted per 2 seconds ("x requests per 2 seconds"): held one whole 2 s window' }],
      },
      note: 'code 50011 arrives in an HTTP 200 body or with HTTP 429; OKX states no wait: the documented default is one 2 s window',
    },
    {
      id: 'batch-item-rate-limit',
      body: [{ path: 'data.sCode', equals: ['50011'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: {
        source: 'errors',
        confidence: 'uncertain',
        quote: '50011 | 200 | Rate limit reached. Please refer to API documentation and throttle requests accordingly.',
        deviations: [{ value: 2000, reason: 'conservative', text: 'OKX states no wait; its limits are counted per 2 seconds ("x requests per 2 seconds"): held one whole 2 s window' }],
      },
      note: 'a batch whose orders were refused one by one with sCode 50011 (the code table does not say which codes appear per order); held for one 2 s window',
    },
    {
      id: 'busy',
      body: [{ path: 'code', equals: ['50013'] }],
      verdict: 'overloaded',
      counted: true,
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...doc('errors', '50013 | 429 | Systems are busy. Please try again later.'), deviations: [{ value: 1000, reason: 'conservative', text: 'OKX says "Please try again later", no number: 1 s is the spec\'s default; nothing is held' }] },
      note: 'OKX states no wait: the documented default is 1 s, nothing held',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: { ...doc('errors', '50011 | 429 | Too Many Requests'), deviations: [{ value: 2000, reason: 'conservative', text: 'OKX states no wait; its limits are counted per 2 seconds ("x requests per 2 seconds"): held one whole 2 s window' }] },
      note: 'HTTP 429 without a body code: held for one 2 s window',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'subaccount-orders tier names', was: "fill-ratio-1 = 1,250 ... fill-ratio-7 = 10,000 (OKX's Tier 2 to Tier 8 under labels one lower; OKX's Tier 1 unnamed)", now: 'tier-1 = 1,000, tier-2 = 1,250, ... tier-8 = 10,000, as OKX labels them', source: 'subaccount' },
      { what: 'default tier', was: 'none (the base limit, unnamed)', now: 'tier-1 (1,000 per 2 s, where every new sub-account starts)', source: 'subaccount' },
      { what: 'POST /api/v5/trade/batch-orders with one order', was: 'charged to trade/batch-orders', now: 'charged to trade/order (the place-order limit)', source: 'overview' },
      { what: 'POST /api/v5/trade/cancel-batch-orders with one order', was: 'charged to trade/cancel-batch-orders', now: 'charged to trade/cancel-order', source: 'trade' },
      { what: 'POST /api/v5/trade/amend-batch-orders with one order', was: 'charged to trade/amend-batch-orders', now: 'charged to trade/amend-order', source: 'trade' },
      { what: 'trade buckets for options', was: 'one bucket per instId', now: 'one bucket per instrument family for options (User ID + Instrument Family), per instId otherwise', source: 'trade' },
      { what: 'orders with isElpTakerAccess=true', was: 'not limited', now: '50 per 2 s per User ID per instrument (trade/elp-taker-orders)', source: 'trade' },
      { what: 'market/tickers confidence', was: 'uncertain', now: 'documented: 20 requests per 2 seconds per IP', source: 'market' },
    ],
    crossChecks: [
      { other: 'ccxt 4.5.84 okx.js', what: 'GET /api/v5/trade/account-rate-limit', ours: '1 per second per User ID', theirs: 'cost 1 at rateLimit 110 ms (about 9 requests per second)', verdict: 'OKX documents "Rate Limit: 1 request per second"; ccxt is looser' },
      {
        other: 'ccxt 4.5.84 okx.js',
        what: 'POST /api/v5/trade/batch-orders, cancel-batch-orders, amend-batch-orders',
        ours: 'one unit per order on the batch limit (300 per 2 s), a batch of one on the single-order limit',
        theirs: 'a fixed cost per request (1/15, 1/15 and 1/150 at rateLimit 110 ms: about 270, 270 and 2,700 requests per 2 s, whatever their size)',
        verdict: 'OKX counts the batch limit per order ("determined by the number of orders"); ccxt undercounts batches of several orders',
      },
      { other: 'ccxt 4.5.84 okx.js', what: 'instrument and sub-account scope of trading limits', ours: 'per User ID + instrument (family for options), plus 1,000 orders per 2 s per sub-account', theirs: 'one global rate limiter', verdict: 'OKX documents the per-instrument and sub-account limits quoted here' },
      { other: 'hummingbot okx/okx_constants.py', what: 'GET /api/v5/market/books', ours: '40 per 2 s per IP', theirs: '20 per 2 s', verdict: 'OKX documents "Rate Limit: 40 requests per 2 seconds"; hummingbot is stricter than needed' },
      { other: 'hummingbot okx/okx_constants.py', what: 'POST /api/v5/trade/order, GET /api/v5/trade/order, POST /api/v5/trade/cancel-order', ours: '60 per 2 s per User ID + instrument', theirs: '20 per 2 s', verdict: 'OKX documents "Rate Limit: 60 requests per 2 seconds"; hummingbot is stricter than needed' },
    ],
  },
  notes: [
    SINGLE_IN_BATCH,
    'REST and WebSocket share the trading limits; this spec counts only the REST requests it sees.',
    'Options are partitioned by instrument family, derived from the option instId (BTC-USD-241227-50000-C belongs to BTC-USD).',
    "Not modelled: the copy-trading limits of a lead trader's lead instruments (4 per 2 s).",
    'OKX sends no usage headers; GET /api/v5/trade/account-rate-limit reports the sub-account limit and fill ratio.',
  ],
};
