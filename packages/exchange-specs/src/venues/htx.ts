import type { BucketSpec, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/**
 * HTX spot REST limits. HTX documents one limit per endpoint ("Rate Limit: 100times/2s" on each
 * endpoint's page): private endpoints per UID (every key of the account shares it), public market
 * endpoints per 5 minutes. Each endpoint here has its own bucket, named like the endpoint.
 */

const one = { kind: 'constant', value: 1 } as const;
const RETRIEVED = '2026-12-01';
const COPY = 'read from a verbatim copy of the page taken 2025-11-25 (rosssaunders/coincise@f4d861f, docs/htx/spot)';
const page = (id: string) => `https://www.htx.com/en-us/opend/newApiPages/?id=${id}`;

function doc(source: string, quote: string): Provenance {
  return { source, confidence: 'documented', quote };
}

/** One endpoint with its own bucket (its id), `limit` per `windowMs`, per UID (private) or per IP (public). */
interface Row {
  readonly id: string;
  readonly method: EndpointSpec['method'];
  readonly path: string;
  readonly limit: number;
  readonly windowMs: number;
  /** A key of the spec's sources (the endpoint's page). */
  readonly source: string;
  /** The endpoint page's "Rate Limit:" line, verbatim. */
  readonly quote: string;
  /** The bucket, when several endpoints (methods) share one. */
  readonly bucket?: string;
  readonly note?: string;
}

const PRIVATE: readonly Row[] = [
  { id: 'place', method: 'POST', path: '/v1/order/orders/place', limit: 100, windowMs: 2000, source: 'place', quote: 'Rate Limit: 100times/2s' },
  { id: 'batch-orders', method: 'POST', path: '/v1/order/batch-orders', limit: 50, windowMs: 2000, source: 'spot', quote: 'Rate Limit: 50times/2s', note: 'a batch holds at most 10 orders ("A batch contains at most 10 orders."); the limit counts requests' },
  { id: 'margin-place', method: 'POST', path: '/v1/order/auto/place', limit: 100, windowMs: 2000, source: 'margin-place', quote: 'Rate Limit: 100times/2s' },
  { id: 'submitcancel', method: 'POST', path: '/v1/order/orders/{order-id}/submitcancel', limit: 100, windowMs: 2000, source: 'submitcancel', quote: 'Rate Limit: 100times/2s' },
  { id: 'submit-cancel-client-order', method: 'POST', path: '/v1/order/orders/submitCancelClientOrder', limit: 100, windowMs: 2000, source: 'submit-cancel-client-order', quote: 'Rate Limit: 100times/2s' },
  { id: 'batchcancel', method: 'POST', path: '/v1/order/orders/batchcancel', limit: 50, windowMs: 2000, source: 'batchcancel', quote: 'Rate Limit: 50times/2s' },
  { id: 'batch-cancel-open-orders', method: 'POST', path: '/v1/order/orders/batchCancelOpenOrders', limit: 50, windowMs: 2000, source: 'batch-cancel-open-orders', quote: 'Rate Limit: 50times/2s' },
  {
    id: 'cancel-all-orders',
    method: 'GET',
    path: '/v1/order/cancelAllOrders',
    limit: 1,
    windowMs: 2000,
    source: 'cancel-all-orders',
    quote: 'Rate Limit: 1 times/2s',
    note: 'HTX documents this endpoint as "Request type: GET"; POST is charged to the same bucket',
  },
  { id: 'cancel-all-orders-post', bucket: 'cancel-all-orders', method: 'POST', path: '/v1/order/cancelAllOrders', limit: 1, windowMs: 2000, source: 'cancel-all-orders', quote: 'Rate Limit: 1 times/2s' },
  { id: 'open-orders', method: 'GET', path: '/v1/order/openOrders', limit: 50, windowMs: 2000, source: 'open-orders', quote: 'Rate Limit: 50times/2s' },
  { id: 'order', method: 'GET', path: '/v1/order/orders/{order-id}', limit: 50, windowMs: 2000, source: 'order', quote: 'Rate Limit: 50times/2s' },
  { id: 'client-order', method: 'GET', path: '/v1/order/orders/getClientOrder', limit: 50, windowMs: 2000, source: 'client-order', quote: 'Rate Limit: 50times/2s' },
  { id: 'order-matchresults', method: 'GET', path: '/v1/order/orders/{order-id}/matchresults', limit: 50, windowMs: 2000, source: 'order-matchresults', quote: 'Rate Limit: 50times/2s' },
  { id: 'orders', method: 'GET', path: '/v1/order/orders', limit: 50, windowMs: 2000, source: 'orders', quote: 'Rate Limit: 50times/2s' },
  { id: 'history', method: 'GET', path: '/v1/order/history', limit: 20, windowMs: 2000, source: 'history', quote: 'Rate Limit: 20times/2s' },
  { id: 'matchresults', method: 'GET', path: '/v1/order/matchresults', limit: 20, windowMs: 2000, source: 'matchresults', quote: 'Rate Limit: 20times/2s' },
  { id: 'accounts', method: 'GET', path: '/v1/account/accounts', limit: 100, windowMs: 2000, source: 'accounts', quote: 'Rate Limit: 100times/2s' },
  { id: 'balance', method: 'GET', path: '/v1/account/accounts/{account-id}/balance', limit: 100, windowMs: 2000, source: 'balance', quote: 'Rate Limit: 100times/2s' },
  { id: 'fee-rate', method: 'GET', path: '/v2/reference/transact-fee-rate', limit: 50, windowMs: 2000, source: 'fee-rate', quote: 'Rate Limit: 50 times / 2s' },
];

const PUBLIC: readonly Row[] = [
  { id: 'kline', method: 'GET', path: '/market/history/kline', limit: 4500, windowMs: 300_000, source: 'kline', quote: 'Rate Limit: 4,500 5 minutes' },
  { id: 'merged', method: 'GET', path: '/market/detail/merged', limit: 4500, windowMs: 300_000, source: 'merged', quote: 'Rate Limit: 4,500 5 minutes' },
  { id: 'tickers', method: 'GET', path: '/market/tickers', limit: 4500, windowMs: 300_000, source: 'tickers', quote: 'Rate Limit: 4,500 5 minutes' },
  { id: 'depth', method: 'GET', path: '/market/depth', limit: 4000, windowMs: 300_000, source: 'depth', quote: 'Rate Limit: 4,000 5 minutes' },
  { id: 'trade', method: 'GET', path: '/market/trade', limit: 4500, windowMs: 300_000, source: 'trade', quote: 'Rate Limit: 4,500 5 minutes' },
  { id: 'history-trade', method: 'GET', path: '/market/history/trade', limit: 3000, windowMs: 300_000, source: 'history-trade', quote: 'Rate Limit: 3,000 5 minutes' },
  { id: 'detail', method: 'GET', path: '/market/detail', limit: 4500, windowMs: 300_000, source: 'detail', quote: 'Rate Limit: 4,500 5 minutes' },
  { id: 'full-mbp', method: 'GET', path: '/market/fullMbp', limit: 5, windowMs: 1000, source: 'full-mbp', quote: 'Rate Limit: 5 times/1s' },
];

const UID_RULE = 'The new version rate limit is applied on UID basis, which means, the overall access rate, from all API keys under same UID, to single endpoint, shouldn’t exceed the rate limit applied on that endpoint.';

function bucketOf(r: Row, scope: 'ip' | 'uid'): BucketSpec {
  return {
    id: r.id,
    scope,
    algorithm: 'sliding-window',
    limit: r.limit,
    windowMs: r.windowMs,
    provenance: doc(r.source, r.quote),
    description: scope === 'uid' ? `${r.method} ${r.path} per UID (all keys of the account). The window's kind is not documented: a rolling window is assumed (the strictest reading).` : `${r.method} ${r.path} per IP. The page names no scope; an unsigned request can only be counted per IP. A rolling window is assumed.`,
  };
}

function endpointOf(r: Row, auth: EndpointSpec['auth']): EndpointSpec {
  return {
    id: r.id,
    method: r.method,
    path: r.path,
    auth,
    costs: [{ bucket: r.bucket ?? r.id, cost: one }],
    provenance: auth === 'public' ? { ...doc(r.source, r.quote), deviations: [{ value: 1, reason: 'formula', text: `the page states a number of calls per 5 minutes ("${r.quote}"): each call counts one` }] } : doc(r.source, r.quote),
    ...(r.note === undefined ? {} : { note: r.note }),
  };
}

/** HTX (Huobi) spot REST (`api.huobi.pro`): per-endpoint limits, per UID (private) or per IP (public market data). */
export const htx: VenueSpec = {
  id: 'htx',
  venue: 'HTX',
  product: 'spot REST API',
  markets: ['spot', 'margin'],
  origin: 'hand-authored',
  ccxtIds: ['htx'],
  sources: {
    spot: { url: 'https://www.htx.com/en-us/opend/newApiPages/', retrieved: RETRIEVED, note: `spot API documentation: "API Access" (New Version Rate limit Rule), trading endpoints, error codes; ${COPY}` },
    place: { url: page('7ec4ee16-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'margin-place': { url: page('10000066-77b7-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    submitcancel: { url: page('7ec4e938-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'submit-cancel-client-order': { url: page('7ec4ef06-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    batchcancel: { url: page('7ec4ea21-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'batch-cancel-open-orders': { url: page('7ec4eb66-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'cancel-all-orders': { url: page('8cb89359-77b5-11ed-9966-193afaf3b53'), retrieved: RETRIEVED, note: COPY },
    'open-orders': { url: page('7ec4e04b-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    order: { url: page('7ec4e31c-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'client-order': { url: page('7ec4ec26-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'order-matchresults': { url: page('7ec4e708-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    orders: { url: page('7ec4e1c4-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    history: { url: page('7ec4db3d-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    matchresults: { url: page('7ec4de21-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    accounts: { url: page('7ec4b291-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    balance: { url: page('7ec4b429-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'fee-rate': { url: page('7ec51870-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    kline: { url: page('7ec4a4da-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    merged: { url: page('7ec4a3b6-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    tickers: { url: page('7ec4a808-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    depth: { url: 'https://www.htx.com/en-us/opend/newApiPages/', retrieved: RETRIEVED, note: `spot API documentation, Market Data: "/market/depth ( Get Market Depth)"; ${COPY}` },
    trade: { url: page('7ec4aa2b-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'history-trade': { url: page('7ec4a59d-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    detail: { url: page('7ec4a2cd-7773-11ed-9966-0242ac110003'), retrieved: RETRIEVED, note: COPY },
    'full-mbp': { url: page('8cb89359-77b5-11ed-9966-193426b1a86'), retrieved: RETRIEVED, note: COPY },
    ccxt: { url: 'https://github.com/ccxt/ccxt/blob/4.5.84/js/src/htx.js', retrieved: RETRIEVED, note: 'exceptions.exact: error codes ccxt saw in HTX responses (not in HTX documentation)' },
  },
  buckets: [...PRIVATE.filter((r) => r.bucket === undefined).map((r) => bucketOf(r, 'uid')), ...PUBLIC.map((r) => bucketOf(r, 'ip'))],
  endpoints: [...PRIVATE.map((r) => endpointOf(r, 'private')), ...PUBLIC.map((r) => endpointOf(r, 'public'))],
  feedback: [
    {
      // The header's unit for the window's end (X-HB-RateLimit-Requests-Expire) is not documented: it is not read.
      header: 'x-hb-ratelimit-requests-remain',
      meaning: 'remaining',
      buckets: PRIVATE.filter((r) => r.bucket === undefined).map((r) => r.id),
      provenance: doc('spot', 'It is suggested to read HTTP Header `X-HB-RateLimit-Requests-Remain` and `X-HB-RateLimit-Requests-Expire` to get the remaining count of request and the expire time for current rate limit time window, then you can adjust the API access rate dynamically.'),
    },
  ],
  errors: [
    {
      id: 'exceed-rate-limit',
      body: [{ path: 'err-code', equals: ['base_request_exceed_number_limit', 'frequent-invoke', 'base-user-request-exceed-limit'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: {
        ...doc('spot', 'base_request_exceed_number_limit | Request exceeds number limit, try again later; frequent-invoke | Operates too frequently, try again later; base-user-request-exceed-limit | Operates too frequently, try again later'),
        deviations: [{ value: 2000, reason: 'conservative', text: "HTX states no wait (and not the unit of X-HB-RateLimit-Requests-Expire): 2 s, the window of every private endpoint limit, is the spec's default" }],
      },
      note: "HTX states no wait: 2 s, the window of every private endpoint limit, is this spec's default (the window's end is in X-HB-RateLimit-Requests-Expire, whose unit is not documented)",
    },
    {
      id: 'exceed-rate-limit-v2',
      body: [{ path: 'code', equals: [1006, 40403] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: { ...doc('spot', '1006 | Exceed rate limit; 40403 | | Too many requests.'), deviations: [{ value: 2000, reason: 'conservative', text: "HTX states no wait (and not the unit of X-HB-RateLimit-Requests-Expire): 2 s, the window of every private endpoint limit, is the spec's default" }] },
      note: 'v2 endpoints answer {"code": ..., "message": ...}; 2 s as above',
    },
    {
      id: 'exceed-frequency-observed',
      body: [{ path: 'err-code', equals: ['base-request-exceed-frequency-limit', 'rate-too-many-requests'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: {
        source: 'ccxt',
        confidence: 'uncertain',
        quote: '\'base-request-exceed-frequency-limit\': RateLimitExceeded, // {"status":"error","err-code":"base-request-exceed-frequency-limit","err-msg":"Frequency of requests has exceeded the limit, please try again later","data":null}',
        deviations: [{ value: 2000, reason: 'conservative', text: "HTX states no wait (and not the unit of X-HB-RateLimit-Requests-Expire): 2 s, the window of every private endpoint limit, is the spec's default" }],
      },
      note: 'codes seen in HTX responses by ccxt, absent from HTX documentation; treated as rate limits (the safe reading)',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 2000 }],
      provenance: {
        source: 'spot',
        confidence: 'uncertain',
        quote: 'bad-request | 429 too many request | Request exceed limit',
        deviations: [{ value: 2000, reason: 'conservative', text: "HTX states no wait (and not the unit of X-HB-RateLimit-Requests-Expire): 2 s, the window of every private endpoint limit, is the spec's default" }],
      },
      note: 'HTTP 429 is documented for the WebSocket API only; a REST 429 is treated the same way (the safe reading)',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'market data limit per IP', was: '800 per second, shared by every market endpoint', now: 'per endpoint per 5 minutes: /market/depth 4,000; merged, tickers, trade, kline and detail 4,500; /market/history/trade 3,000', source: 'depth' },
      { what: 'POST /v1/order/orders/batchCancelOpenOrders limit', was: '1 per 2 s', now: '50 per 2 s', source: 'batch-cancel-open-orders' },
      { what: 'v1/order/cancelAllOrders (1 per 2 s)', was: 'not modelled', now: 'its own bucket, 1 per 2 s per UID (GET as documented; POST charged to the same bucket)', source: 'cancel-all-orders' },
      { what: 'GET /market/history/kline charges', was: 'the 800/s market bucket and 4,500 per 5 min', now: 'its own 4,500 per 5 min bucket only', source: 'kline' },
      { what: 'X-HB-RateLimit-Requests-Expire', was: 'read as an epoch in ms (reset and wait)', now: 'not read: its unit is not documented; a rate-limit error holds the charged buckets 2 s', source: 'spot' },
    ],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 htx.js',
        what: 'market endpoints (market/depth, market/history/kline, ...)',
        ours: '4,000 or 4,500 or 3,000 per 5 min per endpoint (13-15 per s)',
        theirs: 'cost 1 at rateLimit 100 ms: 10 per s in all',
        verdict: 'ccxt is stricter but not from HTX documentation; the documented per-endpoint limits are shipped',
      },
      { other: 'ccxt 4.5.84 htx.js', what: 'POST /v1/order/orders/place', ours: '100 per 2 s', theirs: 'cost 0.2 at rateLimit 100 ms: 50 per s', verdict: 'same limit: the documentation' },
      { other: 'ccxt 4.5.84 htx.js', what: 'POST /v1/order/orders/batchCancelOpenOrders, batch-orders, batchcancel, GET openOrders', ours: '50 per 2 s each', theirs: 'cost 0.4: 25 per s', verdict: 'same limit: the documentation' },
      { other: 'hummingbot htx/htx_constants.py', what: 'public market endpoints (/market/tickers, /market/depth, /market/trade)', ours: '4,000-4,500 per 5 min per endpoint', theirs: '10 per s each', verdict: 'Hummingbot is stricter; not from HTX documentation; the documentation is shipped' },
      { other: 'hummingbot htx/htx_constants.py', what: 'order detail and match results (/v1/order/orders/{id}, /matchresults)', ours: '50 per 2 s', theirs: '50 per 2 s', verdict: 'agree' },
      { other: 'hummingbot htx/htx_constants.py', what: 'place, submitcancel, batchcancel, accounts, balance', ours: '100, 100, 50, 100, 100 per 2 s', theirs: '100, 100, 50, 100, 100 per 2 s', verdict: 'agree' },
    ],
  },
  notes: [
    `Every limit is per endpoint: the private ones per UID, shared by every API key of the account ("${UID_RULE}"). Users with several keys of one account must pass the same \`uid\` in the identity.`,
    'HTX: "Only those endpoints marked with rate limit value separately are applied with new rate limit rule." Endpoints without a documented limit (e.g. /v1/common/timestamp) are not listed and do not resolve.',
    'The 800 requests per second per IP figure is from the contracts documentation (api.hbdm.com: "all products(futures, coin margined swap, usdt margined Contracts ) 800 times/second for one IP at most"); it does not apply to spot.',
    'Contracts (api.hbdm.com: 72 / 3 s per UID, headers ratelimit-*) are a separate product, not modelled here.',
  ],
};
