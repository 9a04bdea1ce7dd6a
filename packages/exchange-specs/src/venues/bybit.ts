import type { BucketSpec, CostExpr, CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/*
 * Every number below is quoted from Bybit's v5 documentation, read 2026-12-01 from its source
 * repository (bybit-exchange/docs @072c197, 2026-07-24). Table rows are quoted cell by cell; where a
 * cell spans the inverse and linear columns, the quote names the columns it spans.
 */

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });
const unsure = (source: string, quote: string): Provenance => ({ source, confidence: 'uncertain', quote });

const FUTURES = ['linear', 'inverse'];
const OPTION = ['option'];
const SPOT = ['spot'];

const VIP_QUOTE = 'Level\\Product | Futures | Option | Spot | Default | 10/s | 10/s | 20/s | VIP 1 | 20/s | 20/s | 25/s | VIP 2 | 40/s | 40/s | 30/s | VIP 3 | 60/s | 60/s | 40/s | VIP 4 | 60/s | 60/s | 40/s | VIP 5 | 60/s | 60/s | 40/s | VIP Supreme | 60/s | 60/s | 40/s';
const FUTURES_TIERS = { vip1: { limit: 20 }, vip2: { limit: 40 }, vip3: { limit: 60 }, vip4: { limit: 60 }, vip5: { limit: 60 }, 'vip-supreme': { limit: 60 } };
const SPOT_TIERS = { vip1: { limit: 25 }, vip2: { limit: 30 }, vip3: { limit: 40 }, vip4: { limit: 40 }, vip5: { limit: 40 }, 'vip-supreme': { limit: 40 } };

const ROLLING = 'rolling one-second window per UID ("The API rate limit is based on the rolling time window per second and UID")';

/**
 * A UID bucket of one endpoint for one product. Bybit lists the limits of the upgradable trading
 * endpoints per product: inverse and linear in one cell (Futures, one business type), option, spot;
 * the VIP table raises them per product.
 */
function uid(id: string, limit: number, provenance: Provenance, description: string, tiers?: Record<string, { limit: number }>): BucketSpec {
  return { id, scope: 'uid', algorithm: 'sliding-window', limit, windowMs: 1000, provenance, description: `${description}; ${ROLLING}`, ...(tiers === undefined ? {} : { tiers }) };
}

interface Row {
  /** The endpoint path, e.g. `/v5/order/create`. */
  readonly path: string;
  /** The table row as quoted. */
  readonly quote: string;
  readonly futures: number;
  readonly option: number;
  readonly spot: number;
  /** Whether the VIP table raises the product's limit (only where its default equals the VIP table's Default row). */
  readonly upgrade: { readonly futures: boolean; readonly option: boolean; readonly spot: boolean };
}

const ROWS: Readonly<Record<string, Row>> = {
  'order/create': { path: '/v5/order/create', quote: 'POST | /v5/order/create | 10/s (inverse, linear) | 10/s (option) | 20/s (spot) | Y', futures: 10, option: 10, spot: 20, upgrade: { futures: true, option: true, spot: true } },
  'order/amend': { path: '/v5/order/amend', quote: 'POST | /v5/order/amend | 10/s (inverse, linear) | 10/s (option) | 10/s (spot) | Y', futures: 10, option: 10, spot: 10, upgrade: { futures: true, option: true, spot: false } },
  'order/cancel': { path: '/v5/order/cancel', quote: 'POST | /v5/order/cancel | 10/s (inverse, linear) | 10/s (option) | 20/s (spot) | Y', futures: 10, option: 10, spot: 20, upgrade: { futures: true, option: true, spot: true } },
  'order/cancel-all': { path: '/v5/order/cancel-all', quote: 'POST | /v5/order/cancel-all | 10/s (inverse, linear) | 1/s (option) | 20/s (spot) | Y', futures: 10, option: 1, spot: 20, upgrade: { futures: true, option: false, spot: true } },
  'order/create-batch': { path: '/v5/order/create-batch', quote: 'POST | /v5/order/create-batch | 10/s (inverse, linear) | 10/s (option) | 20/s (spot) | Y', futures: 10, option: 10, spot: 20, upgrade: { futures: true, option: true, spot: true } },
  'order/amend-batch': { path: '/v5/order/amend-batch', quote: 'POST | /v5/order/amend-batch | 10/s (inverse, linear) | 10/s (option) | 20/s (spot) | Y', futures: 10, option: 10, spot: 20, upgrade: { futures: true, option: true, spot: true } },
  'order/cancel-batch': { path: '/v5/order/cancel-batch', quote: 'POST | /v5/order/cancel-batch | 10/s (inverse, linear) | 10/s (option) | 20/s (spot) | Y', futures: 10, option: 10, spot: 20, upgrade: { futures: true, option: true, spot: true } },
};

/** The table's row of a trading endpoint (every caller names a row of ROWS). */
function row(id: string): Row {
  const r = ROWS[id];
  if (r === undefined) throw new Error(`bybit: no trading row ${id}`);
  return r;
}

/** The three buckets of an upgradable trading endpoint: `<id>` (linear and inverse), `<id>/option`, `<id>/spot`. */
function tradingBuckets(id: string): BucketSpec[] {
  const r = row(id);
  const q = (extra: string) => `${r.quote} | ${extra}`;
  const note = (product: string, upgrade: boolean) => `${product}${upgrade ? ', raised per VIP level by the VIP table' : "; the VIP table does not state this endpoint's raised limit for this product, so the default is kept at every level (safe)"}`;
  return [
    uid(id, r.futures, doc('rate', q(VIP_QUOTE)), note('linear and inverse together (one Futures limit: inverse and linear share one table cell)', r.upgrade.futures), r.upgrade.futures ? FUTURES_TIERS : undefined),
    uid(`${id}/option`, r.option, doc('rate', q(VIP_QUOTE)), note('option', r.upgrade.option), r.upgrade.option ? FUTURES_TIERS : undefined),
    uid(`${id}/spot`, r.spot, doc('rate', q(VIP_QUOTE)), note('spot', r.upgrade.spot), r.upgrade.spot ? SPOT_TIERS : undefined),
  ];
}

const one = { kind: 'constant', value: 1 } as const;

/** One unit per item of the list `param`, for 1 to `max` items (more is refused: the venue's maximum per request). */
function perItem(param: string, max: number): CostExpr {
  return { kind: 'table', param, measure: 'count', rows: Array.from({ length: max }, (_, i) => ({ upTo: i + 1, cost: i + 1 })) };
}

/** The cost rules of a trading endpoint: one rule per product, by `category`. */
function byCategory(id: string, costs: { futures: CostExpr; option: CostExpr; spot: CostExpr }, provenance?: { futures?: Provenance; option?: Provenance; spot?: Provenance }): CostRule[] {
  const rule = (bucket: string, values: string[], cost: CostExpr, p: Provenance | undefined): CostRule => ({ bucket, cost, when: { param: 'category', in: values }, ...(p === undefined ? {} : { provenance: p }) });
  return [rule(id, FUTURES, costs.futures, provenance?.futures), rule(`${id}/option`, OPTION, costs.option, provenance?.option), rule(`${id}/spot`, SPOT, costs.spot, provenance?.spot)];
}

const BATCH_COUNT =
  'When category = linear spot or inverse | API for batch create/amend/cancel order, the frequency of the API will be consistent with the current configuration, but the counting consumption will be consumed according to the actual number of orders. (Number of consumption = number of requests * number of orders included in a single request), and the configuration of business lines is independent of each other. | The batch APIs allows 1-10 orders/request. For example, if a batch order request is made once and contains 5 orders, then the request limit will consume 5.';
const OPTION_BATCH = 'Option rate limt instruction: its rate limit is count based on the actual number of request sent, e.g., by default, option trading rate limit is 10 reqs per sec, so you can send up to 20 * 10 = 200 orders in one second.';

/**
 * A batch endpoint: per order on futures (at most 10, the rate-limit page's batch size) and spot (at
 * most 10); on option per request for batch create (documented), per order (at most 10) for batch
 * amend and cancel, whose pages do not say how option batches count (the safe reading).
 */
function batchCosts(id: string): CostRule[] {
  const optionPerRequest = id === 'order/create-batch';
  return byCategory(
    id,
    { futures: perItem('request', 10), option: optionPerRequest ? one : perItem('request', 10), spot: perItem('request', 10) },
    {
      futures: doc('rate', BATCH_COUNT),
      option: optionPerRequest ? doc('batch', OPTION_BATCH) : unsure('rate', BATCH_COUNT),
      spot: doc('rate', BATCH_COUNT),
    },
  );
}

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth'], costs: readonly CostRule[], provenance: Provenance, note?: string): EndpointSpec {
  return { id, method, path, auth, costs, provenance, ...(note === undefined ? {} : { note }) };
}

const trading = (id: string) => ep(id.replace('/', '-'), 'POST', row(id).path, 'private', byCategory(id, { futures: one, option: one, spot: one }), doc('rate', row(id).quote));
const batch = (id: string) =>
  ep(id.replace('/', '-'), 'POST', row(id).path, 'private', batchCosts(id), doc('rate', row(id).quote), 'the orders are in body.request; linear and inverse batches of more than 10 orders are refused by this spec (the rate-limit page allows 1-10 per request, the endpoint page 20): split them');

const Q = {
  ip: 'You are allowed to send 600 requests within a 5-second window per IP by default. This limit applies to all traffic directed to `api.bybit.com`, `api.bybick.com`, and local site hostnames such as `api.bybit.kz`.',
  ban: 'If you encounter the error "403, access too frequent", it indicates that your IP has exceeded the allowed request frequency. In this case, you should terminate all HTTP sessions and wait for at least 10 minutes. The ban will be lifted automatically.',
  forbidden: '403 | Forbidden request. Possible causes: 1. IP rate limit breached; 2. You send GET request with an empty json body; 3. You are using U.S IP',
  headers:
    'Every request to the API returns response header shown in the code panel: `X-Bapi-Limit-Status` - your remaining requests for current endpoint `X-Bapi-Limit` - your current limit for current endpoint `X-Bapi-Limit-Reset-Timestamp` - the timestamp indicating when your request limit resets if you have exceeded your rate_limit. Otherwise, this is just the current timestamp (it may not exactly match `timeNow`).',
  visits: 'If you receive `"retCode": 10006, "retMsg": "Too many visits!"` in the JSON response, you have hit the API rate limit. | 10006 | Too many visits. Exceeded the API Rate Limit.',
  /** The header's words: an endpoint's limit counts requests (a cost of 1 is one request). */
  perRequest: '`X-Bapi-Limit-Status` - your remaining requests for current endpoint',
} as const;

/** A row of the rate-limit table with the header's words that its limit counts requests. */
const counted = (row: string): Provenance => doc('rate', `${row} | ${Q.perRequest}`);

/** A row of the rate-limit table as read on 2026-12-07 (bybit-exchange/docs @130165c). */
const table = (row: string): Provenance => doc('rateTable', row);

/** Endpoints ccxt calls that the spec priced nowhere before 2026-12-07: id, path, limit per second, the table row. */
const ADDED: readonly (readonly [string, string, number, string])[] = [
  ['asset/coin/query-info', '/v5/asset/coin/query-info', 5, 'GET | /v5/asset/coin/query-info | 5 req/s | N'],
  ['user/query-api', '/v5/user/query-api', 10, 'GET | /v5/user/query-api | 10 req/s | N'],
  ['account/info', '/v5/account/info', 50, `GET | /v5/account/info | | 50/s | N | ${Q.perRequest}`],
];

/** Bybit API v5 REST (unified account). */
export const bybit: VenueSpec = {
  id: 'bybit',
  venue: 'Bybit',
  product: 'API v5 REST (unified account)',
  markets: ['spot', 'perpetual', 'delivery', 'options'],
  origin: 'hand-authored',
  ccxtIds: ['bybit'],
  sources: {
    rate: { url: 'https://bybit-exchange.github.io/docs/v5/rate-limit', retrieved: '2026-12-01', note: 'bybit-exchange/docs @072c197 docs/v5/rate-limit/rate-limit.mdx (IP limit, API rate limit table "UTA2.0 Pro", batch instructions)' },
    vip: { url: 'https://bybit-exchange.github.io/docs/v5/rate-limit/rules-for-vips', retrieved: '2026-12-01', note: 'bybit-exchange/docs @072c197 docs/v5/rate-limit/rules-for-vips.mdx' },
    batch: { url: 'https://bybit-exchange.github.io/docs/v5/order/batch-place', retrieved: '2026-12-01', note: 'bybit-exchange/docs @072c197 docs/v5/order/batch-place.mdx' },
    rateTable: {
      url: 'https://bybit-exchange.github.io/docs/v5/rate-limit',
      retrieved: '2026-12-07',
      note: 'bybit-exchange/docs @130165c docs/v5/rate-limit/rate-limit.mdx (Account, Asset and User tables): the endpoints added on 2026-12-07',
    },
    errors: { url: 'https://bybit-exchange.github.io/docs/v5/error', retrieved: '2026-12-01', note: 'bybit-exchange/docs @072c197 docs/v5/error.mdx (HTTP Code, WS OE General code, UTA and Spot tables)' },
  },
  buckets: [
    { id: 'ip', scope: 'ip', algorithm: 'sliding-window', limit: 600, windowMs: 5000, provenance: doc('rate', Q.ip), description: 'every HTTP request to api.bybit.com per IP; "within a 5-second window" does not say how the window moves: a sliding window is the strictest reading' },
    ...Object.keys(ROWS).flatMap(tradingBuckets),
    uid('order/realtime', 50, doc('rate', 'GET | /v5/order/realtime | 50/s (inverse, linear, option, spot) | N'), 'one limit for every category (the cell spans them all; shared, the safe reading)'),
    uid('order/history', 50, doc('rate', 'GET | /v5/order/history | 50/s (inverse, linear, option, spot) | N'), 'one limit for every category (the cell spans them all; shared, the safe reading)'),
    uid('execution/list', 50, doc('rate', 'GET | /v5/execution/list | 50/s (inverse, linear, option, spot) | N'), 'one limit for every category (the cell spans them all; shared, the safe reading)'),
    uid('position/list', 50, doc('rate', 'GET | /v5/position/list | 50/s (inverse, linear, option) | - (spot) | N'), 'one limit for inverse, linear and option (the cell spans them; shared, the safe reading)'),
    uid('account/wallet-balance', 50, doc('rate', 'GET | /v5/account/wallet-balance | accountType=UNIFIED | 50/s | N'), 'unified account'),
    uid('account/fee-rate', 5, doc('rate', 'GET | /v5/account/fee-rate | | 5/s | N'), 'every category'),
    ...ADDED.map(([id, , limit, row]) => uid(id, limit, table(row), 'per UID ("per second per UID")')),
  ],
  global: [{ bucket: 'ip', cost: one, provenance: doc('rate', Q.ip) }],
  endpoints: [
    trading('order/create'),
    trading('order/amend'),
    trading('order/cancel'),
    trading('order/cancel-all'),
    batch('order/create-batch'),
    batch('order/amend-batch'),
    batch('order/cancel-batch'),
    ep('order-realtime', 'GET', '/v5/order/realtime', 'private', [{ bucket: 'order/realtime', cost: one }], doc('rate', 'GET | /v5/order/realtime | 50/s (inverse, linear, option, spot) | N')),
    ep('order-history', 'GET', '/v5/order/history', 'private', [{ bucket: 'order/history', cost: one }], doc('rate', 'GET | /v5/order/history | 50/s (inverse, linear, option, spot) | N')),
    ep('execution-list', 'GET', '/v5/execution/list', 'private', [{ bucket: 'execution/list', cost: one }], counted('GET | /v5/execution/list | 50/s (inverse, linear, option, spot) | N')),
    ep('position-list', 'GET', '/v5/position/list', 'private', [{ bucket: 'position/list', cost: one }], counted('GET | /v5/position/list | 50/s (inverse, linear, option) | - (spot) | N')),
    ep('wallet-balance', 'GET', '/v5/account/wallet-balance', 'private', [{ bucket: 'account/wallet-balance', cost: one }], counted('GET | /v5/account/wallet-balance | accountType=UNIFIED | 50/s | N')),
    ep('fee-rate', 'GET', '/v5/account/fee-rate', 'private', [{ bucket: 'account/fee-rate', cost: one }], counted('GET | /v5/account/fee-rate | | 5/s | N')),
    ...ADDED.map(([id, path, , row]) => ep(id.replaceAll('/', '-'), 'GET', path, 'private', [{ bucket: id, cost: one }], table(row))),
    ep('market-time', 'GET', '/v5/market/time', 'public', [], doc('rate', Q.ip)),
    ep('market-kline', 'GET', '/v5/market/kline', 'public', [], doc('rate', Q.ip)),
    ep('market-orderbook', 'GET', '/v5/market/orderbook', 'public', [], doc('rate', Q.ip)),
    ep('market-tickers', 'GET', '/v5/market/tickers', 'public', [], doc('rate', Q.ip)),
    ep('market-recent-trade', 'GET', '/v5/market/recent-trade', 'public', [], doc('rate', Q.ip)),
    ep('market-instruments', 'GET', '/v5/market/instruments-info', 'public', [], doc('rate', Q.ip)),
  ],
  feedback: [
    {
      header: 'x-bapi-limit-status',
      meaning: 'remaining',
      limitHeader: 'x-bapi-limit',
      resetHeader: 'x-bapi-limit-reset-timestamp',
      resetUnit: 'epoch-ms',
      buckets: [...Object.keys(ROWS).flatMap((id) => [id, `${id}/option`, `${id}/spot`]), 'order/realtime', 'order/history', 'execution/list', 'position/list', 'account/wallet-balance', 'account/fee-rate', ...ADDED.map(([id]) => id)],
      provenance: doc('rate', Q.headers),
    },
  ],
  errors: [
    {
      id: 'ip-ban',
      status: [403],
      body: [{ path: '', contains: 'access too frequent' }],
      verdict: 'banned',
      counted: true,
      penalize: ['ip'],
      wait: [{ from: 'fixed', ms: 600_000 }],
      provenance: doc('rate', Q.ban),
      note: 'the IP limit: stop every request from the IP for the documented 10 minutes',
    },
    {
      id: 'region-restricted',
      body: [{ path: 'retCode', equals: [10009] }],
      verdict: 'error',
      counted: true,
      provenance: doc('errors', '10009 | Service Restricted: Access is currently unavailable for your region. Please contact our support team for further assistance'),
      note: 'not a rate limit: nothing held',
    },
    {
      id: 'forbidden',
      status: [403],
      verdict: 'error',
      counted: true,
      provenance: doc('errors', Q.forbidden),
      note: 'a 403 that does not say "access too frequent" is one of the two other documented causes (a GET with an empty JSON body, a U.S. IP): not a rate limit, nothing held',
    },
    {
      id: 'too-many-visits',
      body: [{ path: 'retCode', equals: [10006] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'x-bapi-limit-reset-timestamp', unit: 'epoch-ms' },
        { from: 'fixed', ms: 1000 },
      ],
      provenance: { ...doc('rate', Q.visits), deviations: [{ value: 1000, reason: 'conservative', text: 'Without X-Bapi-Limit-Reset-Timestamp, held one 1 s window: Bybit\'s API rate limit is "per second per UID"; Bybit states no other wait' }] },
      note: 'in an HTTP 200 body; held until X-Bapi-Limit-Reset-Timestamp, else for one 1 s window (the documented default)',
    },
    {
      id: 'system-protection',
      body: [{ path: 'retCode', equals: [10429] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...unsure('errors', '10429 | System level frequency protection'), deviations: [{ value: 1000, reason: 'conservative', text: 'Bybit states no wait; its API limits are per second ("per second per UID"): held one 1 s window' }] },
      note: 'documented among the WebSocket order-entry codes; Bybit states no wait: held for 1 s (the documented default)',
    },
    {
      id: 'server-load',
      body: [{ path: 'retCode', equals: [429] }],
      verdict: 'overloaded',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...doc('errors', '429 | The trading service is experiencing a high server load. Please retry if you encounter this issue.'), deviations: [{ value: 1000, reason: 'conservative', text: 'Bybit states no wait; its API limits are per second ("per second per UID"): held one 1 s window' }] },
      note: 'retCode 429 in the body; Bybit states no wait: held for 1 s (the documented default)',
    },
    {
      id: 'spot-order-rate',
      body: [{ path: 'retCode', equals: [170005] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...doc('errors', '170005 | Too many new orders; current limit is %s orders per %s.'), deviations: [{ value: 1000, reason: 'conservative', text: 'Bybit states no wait; its API limits are per second ("per second per UID"): held one 1 s window' }] },
      note: 'the limit and period are in the message but not in a documented format: held for 1 s (the documented default)',
    },
    {
      id: 'spot-too-many-requests',
      body: [{ path: 'retCode', equals: [170222] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...doc('errors', '170222 | Too many requests in this time frame.'), deviations: [{ value: 1000, reason: 'conservative', text: 'Bybit states no wait; its API limits are per second ("per second per UID"): held one 1 s window' }] },
      note: 'Bybit states no wait: held for 1 s (the documented default)',
    },
    {
      id: 'http-429',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...doc('errors', '429 | System level frequency protection. Please retry when encounter this'), deviations: [{ value: 1000, reason: 'conservative', text: 'Bybit states no wait; its API limits are per second ("per second per UID"): held one 1 s window' }] },
      note: 'Bybit states no wait: held for 1 s (the documented default)',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'HTTP 403', was: 'every 403 held the IP for 10 minutes', now: 'only a 403 saying "access too frequent" holds the IP for 10 minutes; any other 403 (a GET with an empty JSON body, a U.S. IP) is an error and holds nothing', source: 'errors' },
      { what: 'order/create, amend, cancel, cancel-all and the batch endpoints: linear and inverse', was: 'one bucket per category (linear and inverse 10/s each)', now: 'one bucket for linear and inverse together (10/s: one table cell, one Futures limit)', source: 'rate' },
      { what: 'order/create/spot and order/cancel/spot', was: '10/s (the futures limit kept for every category)', now: '20/s, VIP 1-5 and Supreme 25/30/40/40/40/40', source: 'vip' },
      { what: 'order/create, order/cancel (futures, option) at VIP 2 and VIP 3+', was: '30/s and 40/s (the spot column)', now: '40/s and 60/s (the Futures and Option columns)', source: 'vip' },
      { what: 'order/amend/spot at VIP levels', was: 'raised to 20-40/s', now: '10/s at every level (the VIP table states no raised spot amend limit)', source: 'rate' },
      { what: 'order/cancel-all linear, inverse and spot', was: '1/s', now: '10/s (linear and inverse, VIP-raised) and 20/s (spot, VIP-raised); option stays 1/s', source: 'rate' },
      { what: 'batch create on option', was: 'one unit per order', now: 'one unit per request ("count based on the actual number of request sent"); batch amend and cancel on option stay one unit per order (undocumented, the safe reading)', source: 'batch' },
      { what: 'batch endpoints on spot', was: '10/s', now: '20/s, one unit per order, at most 10 orders', source: 'rate' },
      { what: 'order/realtime, order/history, execution/list, position/list', was: 'one bucket per category', now: 'one bucket for every category (one table cell spans them: shared, the safe reading)', source: 'rate' },
      { what: 'account/wallet-balance confidence', was: 'uncertain', now: 'documented: 50/s (accountType=UNIFIED)', source: 'rate' },
      { what: 'retCodes 429, 170005, 170222', was: 'not recognized', now: 'recognized as server load / spot rate limits, held 1 s', source: 'errors' },
    ],
    crossChecks: [
      { other: 'ccxt 4.5.84 bybit.js', what: 'POST /v5/order/create on linear and inverse', ours: '10/s for linear and inverse together', theirs: 'cost 2.5 at rateLimit 20 ms: 20/s whatever the category', verdict: 'Bybit documents 10/s for inverse and linear at the default level; ccxt uses the spot figure' },
      { other: 'ccxt 4.5.84 bybit.js', what: 'GET /v5/order/realtime, /v5/order/history, /v5/execution/list, /v5/position/list', ours: '50/s', theirs: 'cost 5 at rateLimit 20 ms: 10/s', verdict: 'Bybit documents 50/s; ccxt is stricter than needed' },
      {
        other: 'ccxt 4.5.84 bybit.js',
        what: 'POST /v5/order/create-batch, amend-batch, cancel-batch',
        ours: 'one unit per order (linear, inverse, spot), per request (option)',
        theirs: 'a fixed cost of 5 per request (10 requests per second)',
        verdict: 'Bybit counts batches per order on linear, inverse and spot; ccxt undercounts batches of more than one order',
      },
      { other: 'ccxt 4.5.84 bybit.js', what: 'the IP limit', ours: '600 per 5 s per IP, every request', theirs: 'one limiter at rateLimit 20 ms (50 per second)', verdict: 'Bybit documents 600 requests within a 5-second window per IP; both hold it for a single client' },
      { other: 'hummingbot bybit/bybit_constants.py', what: 'private endpoints', ours: 'the documented per-endpoint limits (5-50/s)', theirs: 'one limit of 20/s divided by a safety divider for every endpoint', verdict: 'Bybit documents per-endpoint limits; hummingbot applies one conservative figure' },
    ],
  },
  notes: [
    'Trading limits are per UID and per product (Futures = linear and inverse, option, spot); the VIP table raises the upgradable ones. Pro and market-maker accounts have configurable per-UID limits: read them live with GET /v5/apilimit/query.',
    'Batch and single-order endpoints have separate limits ("The batch order endpoint ... has its own rate limit and does not share it with single requests").',
  ],
};
