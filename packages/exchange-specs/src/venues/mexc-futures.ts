import type { BucketSpec, CostExpr, CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/*
 * MEXC futures (contract API v1, `contract.mexc.com/api/v1`). Each endpoint states its own limit,
 * "Rate limit:20 times/2 seconds" for nearly all of them. The documentation never says whether a
 * limit counts per IP or per account: public endpoints (no key) are counted per IP, signed ones on
 * a per-IP and a per-account bucket both. Numbers read 2026-12-01 from MEXC's documentation
 * repository and a stored copy of the current pages; endpoint quotes give the section title, then
 * the limit as the page prints it.
 */

const RETRIEVED = '2026-12-01';
const SITE = 'https://www.mexc.com/api-docs/futures';
const READ = "read in MEXC's documentation repository (mexcdevelop/apidocs, branch contract_v1_en, commit 84922b1 of 2025-04-17; the site moved to www.mexc.com/api-docs in 2025-07) and in a stored copy of the pages taken 2025-11-25 (rosssaunders/coincise@a00ae58, docs/mexc/contract), which state the same limits";

const Q = {
  twenty: 'Rate limit:20 times/2 seconds',
  detail: 'Get the contract information … Rate limit: 1 times / 5 seconds',
  batchQuery: 'Query the order in bulk based on the order number … Rate limit:5 times/2 seconds … order_ids | long | true | order number array，can be separated by "," for example :order_ids = 1,2,3(maximum 50 orders)',
  submitBatch: 'Bulk order (Under maintenance) … Rate limit:1/2 seconds … Request parameters:(maximum 50 )',
  market: "The API endpoint under the [Market endpoints] module doesn't require authentication.",
  code510: '510 | Excessive frequency of requests',
  code2037: '2037 | Frequent transactions, please try it later',
} as const;

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });
const uncertain = (source: string, quote: string): Provenance => ({ source, confidence: 'uncertain', quote });
const constant = (value: number): CostExpr => ({ kind: 'constant', value });
const byEndpoint = { kind: 'endpoint' } as const;

const WINDOW_NOTE = 'MEXC does not say how the window moves: a rolling window is assumed (the strictest reading).';
const SCOPE_NOTE = 'The documentation does not say whether the limit is per IP or per account: signed endpoints are charged on a per-IP and a per-account bucket both.';

function bucket(id: string, scope: 'ip' | 'uid', limit: number, windowMs: number, provenance: Provenance, description: string, partitioned = true): BucketSpec {
  return { id, scope, algorithm: 'sliding-window', limit, windowMs, provenance, description: `${description} ${WINDOW_NOTE}`, ...(partitioned ? { partition: byEndpoint } : {}) };
}

/** A market endpoint: 20 per 2 s on its own per-IP bucket. */
function market(path: string, title: string): EndpointSpec {
  return { id: `GET ${path}`, method: 'GET', path, auth: 'public', costs: [{ bucket: 'public', cost: constant(1) }], provenance: doc('market', `${title} … ${Q.twenty}`) };
}

/** A signed endpoint: its limit on its own per-account and per-IP buckets (`private`, or another pair). */
function signed(method: EndpointSpec['method'], path: string, title: string, more: { pair?: string; cost?: CostExpr; quote?: string; note?: string } = {}): EndpointSpec {
  const pair = more.pair ?? 'private';
  const cost = more.cost ?? constant(1);
  const costs: CostRule[] = [
    { bucket: `${pair}-uid`, cost },
    { bucket: `${pair}-ip`, cost },
  ];
  return {
    id: `${method} ${path}`,
    method,
    path,
    auth: 'private',
    costs,
    provenance: doc('trade', more.quote ?? `${title} … ${Q.twenty}`),
    ...(more.note === undefined ? {} : { note: more.note }),
  };
}

const UNDER_MAINTENANCE = 'MEXC marks order placement and cancellation "(Under maintenance)": the API accepts them only for accounts MEXC enables';

/** MEXC futures contract API v1 REST (`contract.mexc.com`). */
export const mexcFutures: VenueSpec = {
  id: 'mexc-futures',
  venue: 'MEXC',
  product: 'futures contract API v1 REST (USDT- and coin-margined perpetuals)',
  markets: ['perpetual'],
  origin: 'hand-authored',
  sources: {
    market: { url: `${SITE}/market-endpoints`, retrieved: RETRIEVED, note: READ },
    trade: { url: `${SITE}/account-and-trading-endpoints`, retrieved: RETRIEVED, note: READ },
    errors: { url: `${SITE}/integration-guide#error-code`, retrieved: RETRIEVED, note: `"Error code"; ${READ}` },
  },
  buckets: [
    bucket('public', 'ip', 20, 2000, doc('market', `${Q.market} … ${Q.twenty}`), 'every market endpoint (no key), each its own bucket, per IP (the only way to count a request without a key).'),
    bucket('contract-detail', 'ip', 1, 5000, doc('market', Q.detail), 'GET /api/v1/contract/detail, per IP.', false),
    bucket('private-uid', 'uid', 20, 2000, uncertain('trade', Q.twenty), `every signed endpoint of 20 per 2 s, each its own bucket, per account. ${SCOPE_NOTE}`),
    bucket('private-ip', 'ip', 20, 2000, uncertain('trade', Q.twenty), `the same limit, each endpoint its own bucket, per IP. ${SCOPE_NOTE}`),
    bucket('batch-query-uid', 'uid', 5, 2000, uncertain('trade', Q.batchQuery), `GET /api/v1/private/order/batch_query, per account. ${SCOPE_NOTE}`, false),
    bucket('batch-query-ip', 'ip', 5, 2000, uncertain('trade', Q.batchQuery), `GET /api/v1/private/order/batch_query, per IP. ${SCOPE_NOTE}`, false),
    bucket('submit-batch-uid', 'uid', 1, 2000, uncertain('trade', Q.submitBatch), `POST /api/v1/private/order/submit_batch, per account. ${SCOPE_NOTE}`, false),
    bucket('submit-batch-ip', 'ip', 1, 2000, uncertain('trade', Q.submitBatch), `POST /api/v1/private/order/submit_batch, per IP. ${SCOPE_NOTE}`, false),
  ],
  endpoints: [
    // Market endpoints (public).
    market('/api/v1/contract/ping', 'Get the server time'),
    {
      id: 'GET /api/v1/contract/detail',
      method: 'GET',
      path: '/api/v1/contract/detail',
      auth: 'public',
      costs: [{ bucket: 'contract-detail', cost: constant(1) }],
      provenance: doc('market', Q.detail),
    },
    market('/api/v1/contract/support_currencies', 'Get the transferable currencies'),
    market('/api/v1/contract/depth/{symbol}', 'Get the contract‘s depth information'),
    market('/api/v1/contract/depth_commits/{symbol}/{limit}', 'Get a snapshot of the latest N depth information of the contract'),
    market('/api/v1/contract/index_price/{symbol}', 'Get contract index price'),
    market('/api/v1/contract/fair_price/{symbol}', 'Get contract fair price'),
    market('/api/v1/contract/funding_rate/{symbol}', 'Get contract funding rate'),
    market('/api/v1/contract/kline/{symbol}', 'K-line data'),
    market('/api/v1/contract/kline/index_price/{symbol}', 'Get K-line data of the index price'),
    market('/api/v1/contract/kline/fair_price/{symbol}', 'Get K-line data of the fair price'),
    market('/api/v1/contract/deals/{symbol}', 'Get contract transaction data'),
    market('/api/v1/contract/ticker', 'Get contract trend data'),
    market('/api/v1/contract/risk_reverse', 'Get all contract risk fund balance'),
    market('/api/v1/contract/risk_reverse/history', 'Get contract risk fund balance history'),
    market('/api/v1/contract/funding_rate/history', 'Get contract funding rate history'),
    // Account, positions and order queries.
    signed('GET', '/api/v1/private/account/assets', "Get all informations of user's asset"),
    signed('GET', '/api/v1/private/account/asset/{currency}', "Get the user's single currency asset information"),
    signed('GET', '/api/v1/private/account/transfer_record', "Get the user's asset transfer records"),
    signed('GET', '/api/v1/private/position/list/history_positions', 'Get the user’s history position information'),
    signed('GET', '/api/v1/private/position/open_positions', "Get the user's current holding position"),
    signed('GET', '/api/v1/private/position/funding_records', 'Get details of user‘s funding rate'),
    signed('GET', '/api/v1/private/order/list/open_orders/{symbol}', "Get the user's current pending order"),
    signed('GET', '/api/v1/private/order/list/open_orders', "Get the user's current pending order", { note: 'the same section, without the optional {symbol}' }),
    signed('GET', '/api/v1/private/order/list/history_orders', "Get all of the user's historical orders"),
    signed('GET', '/api/v1/private/order/external/{symbol}/{external_oid}', 'Query the order based on the external number'),
    signed('GET', '/api/v1/private/order/get/{order_id}', 'Query the order based on the order number'),
    signed('GET', '/api/v1/private/order/batch_query', '', { pair: 'batch-query', quote: Q.batchQuery, note: 'one request for up to 50 order ids' }),
    signed('GET', '/api/v1/private/order/deal_details/{order_id}', 'Get order transaction details based on the order ID'),
    signed('GET', '/api/v1/private/order/list/order_deals', 'Get all transaction details of the user’s order'),
    signed('GET', '/api/v1/private/planorder/list/orders', 'Gets the trigger order list'),
    signed('GET', '/api/v1/private/stoporder/list/orders', 'Get the Stop-Limit order list'),
    signed('GET', '/api/v1/private/account/risk_limit', 'Get risk limits'),
    signed('GET', '/api/v1/private/account/tiered_fee_rate', "Gets the user's current trading fee rate"),
    // Positions, leverage, mode.
    signed('POST', '/api/v1/private/position/change_margin', 'Increase or decrease margin'),
    signed('GET', '/api/v1/private/position/leverage', 'Get leverage'),
    signed('POST', '/api/v1/private/position/change_leverage', 'Switch leverage'),
    signed('GET', '/api/v1/private/position/position_mode', 'Get position mode'),
    signed('POST', '/api/v1/private/position/change_position_mode', 'Change position mode'),
    // Orders.
    signed('POST', '/api/v1/private/order/submit', 'Order (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/order/submit_batch', '', {
      pair: 'submit-batch',
      quote: Q.submitBatch,
      cost: { kind: 'table', param: '', measure: 'count', rows: [{ upTo: 50, cost: 1 }] },
      note: `${UNDER_MAINTENANCE}. One request per 2 s whatever the number of orders (the body is the list, at most 50; more is refused here)`,
    }),
    signed('POST', '/api/v1/private/order/cancel', 'Cancel the order (Under maintenance)', {
      cost: { kind: 'table', param: '', measure: 'count', rows: [{ upTo: 50, cost: 1 }] },
      quote: `Cancel the order (Under maintenance) … ${Q.twenty} … None | List<Long> | true | order id list, maximum 50`,
      note: `${UNDER_MAINTENANCE}. The body is the list of order ids: one request for up to 50, more is refused here`,
    }),
    signed('POST', '/api/v1/private/order/cancel_with_external', 'Cancel the order according to the external order ID (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/order/cancel_all', 'Cancel all orders under a contract (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/planorder/place', 'Trigger order (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/planorder/cancel', 'Cancel the trigger order (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/planorder/cancel_all', 'Cancel all trigger orders (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/stoporder/cancel', 'Cancel the Stop-Limit trigger order (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/stoporder/cancel_all', 'Cancel all Stop-Limit price trigger orders (Under maintenance)', { note: UNDER_MAINTENANCE }),
    signed('POST', '/api/v1/private/stoporder/change_price', 'Switch Stop-Limit limited order price'),
    signed('POST', '/api/v1/private/stoporder/change_plan_price', 'Switch the Stop-Limit price of trigger orders'),
  ],
  errors: [
    {
      id: 'excessive-frequency',
      body: [{ path: 'code', equals: [510] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 5000 },
      ],
      provenance: { ...doc('errors', Q.code510), deviations: [{ value: 5000, reason: 'conservative', text: "MEXC states no wait: the endpoint's buckets are held 5 s, the longest window of this API (a rolling window has forgotten every request after one whole window)" }] },
      note: "no wait is documented: the endpoint's buckets are held 5 s, the longest window of this API (a rolling window has forgotten every request after one whole window)",
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 5000 },
      ],
      provenance: { ...uncertain('errors', Q.code510), deviations: [{ value: 5000, reason: 'conservative', text: "MEXC states no wait: the endpoint's buckets are held 5 s, the longest window of this API (a rolling window has forgotten every request after one whole window)" }] },
      note: "the futures pages document only the code 510; an HTTP 429 (the spot API's refusal) is read the same way",
    },
    {
      id: 'frequent-transactions',
      body: [{ path: 'code', equals: [2037] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 5000 }],
      provenance: { ...uncertain('errors', Q.code2037), deviations: [{ value: 5000, reason: 'conservative', text: "MEXC states no wait: the endpoint's buckets are held 5 s, the longest window of this API (a rolling window has forgotten every request after one whole window)" }] },
      note: "not a documented rate limit, but a refusal for sending too often: the endpoint's buckets are held 5 s as for code 510",
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      // ccxt paces every endpoint from one pool of 20 cost units per second (rateLimit 50 ms): cost 2 is 10 per s, i.e. 20 per 2 s.
      { other: 'ccxt 4.5.84 mexc.js (contract)', what: 'every 20 per 2 s endpoint', ours: '20 per 2 s per endpoint', theirs: 'cost 2: 20 per 2 s, shared by every endpoint', verdict: 'agree per endpoint; ccxt shares the pool (stricter)' },
      { other: 'ccxt 4.5.84 mexc.js (contract)', what: 'GET /api/v1/contract/detail', ours: '1 per 5 s', theirs: 'cost 100: 1 per 5 s', verdict: 'agree' },
      { other: 'ccxt 4.5.84 mexc.js (contract)', what: 'GET /api/v1/private/order/batch_query', ours: '5 per 2 s', theirs: 'cost 8: 5 per 2 s', verdict: 'agree' },
      { other: 'ccxt 4.5.84 mexc.js (contract)', what: 'POST /api/v1/private/order/submit_batch', ours: '1 per 2 s', theirs: 'cost 40: 1 per 2 s', verdict: 'agree' },
      {
        other: 'pymexc (third-party SDK whose docstrings quote www.mexc.com/api-docs/futures)',
        what: 'GET /api/v1/private/order/batch_query',
        ours: '5 per 2 s',
        theirs: '"Rate limit: 20 times / 2 seconds"',
        verdict: "MEXC's own documentation repository says 5 per 2 s; the stricter number is kept until the current page itself can be read",
      },
      {
        other: 'ccxt 4.5.84 mexc.js (contract)',
        what: 'POST /api/v1/private/position/close_all, order/chase_limit_order, order/change_limit_order and other endpoints of the newer pages',
        ours: 'not priced (refused by the limiter)',
        theirs: 'costs 2 to 40',
        verdict: 'the documentation read here does not list them: they are left out rather than guessed',
      },
    ],
  },
  notes: [
    'Hummingbot ships no MEXC perpetual connector: nothing to compare there.',
    'Order placement and cancellation are marked "(Under maintenance)" by MEXC: the API serves them only to accounts MEXC enables; their limits are priced as documented.',
    'Endpoints not listed here are refused by the limiter rather than guessed: MEXC documents no default limit.',
  ],
};
