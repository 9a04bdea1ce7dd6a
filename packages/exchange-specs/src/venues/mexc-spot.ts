import type { BucketSpec, CostExpr, CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/*
 * MEXC spot API v3 (`api.mexc.com/api/v3`). Every endpoint has its own limit of 500 weight per 10 s,
 * per IP for the endpoints marked "Weight(IP)" and per account for those marked "Weight(UID)".
 * Numbers are quoted from MEXC's spot v3 documentation (now at www.mexc.com/api-docs/spot-v3),
 * read 2026-12-01 in MEXC's own documentation repository and in a stored copy of the current pages.
 * Endpoint quotes give the section title, then the weight line as the page prints it.
 */

const RETRIEVED = '2026-12-01';
const SITE = 'https://www.mexc.com/api-docs/spot-v3';
const READ = "read in MEXC's documentation repository (mexcdevelop/apidocs, branch spot_v3_en, commit c0de8ff of 2025-08-08; the site moved to www.mexc.com/api-docs in 2025-07) and in a stored copy of the www.mexc.com pages taken 2025-11-25 (rosssaunders/coincise@a00ae58, docs/mexc), which state the same numbers";

const Q = {
  unit: 'There is rate limit for API access frequency, upon exceed client will get code 429: Too many requests. The account is used as the basic unit of speed limit for the endpoints that need to carry access keys. For endpoints that do not need to carry access keys, IP addresses are used as the basic unit of rate limiting.',
  marked: 'According to the two modes of IP and UID (account) limit, each are independent. Endpoints are marked according to IP or UID limit and their corresponding weight value.',
  ip: 'Each endpoint with IP limits has an independent 500 every 10 second limit.',
  uid: 'Each endpoint with UID limits has an independent 500 every 10 second limit.',
  batch: 'Supports 20 orders with a same symbol in a batch,rate limit:2 times/s.',
  account: 'Get current account information,rate limit:2 times/s.',
  http429: 'HTTP 429 return code is used when breaking a request rate limit.',
  retryAfter: 'A Retry-After header is sent with a 418 or 429 responses and will give the number of seconds required to wait, in the case of a 429, to prevent a ban, or, in the case of a 418, until the ban is over.',
  ban: 'Repeatedly violating rate limits and/or failing to back off after receiving 429s will result in an automated IP ban . IP bans are tracked and scale in duration for repeat offenders, from 2 minutes to 3 days.',
  waf: 'HTTP 403 return code is used when the WAF Limit (Web Application Firewall) has been violated.',
  code429: '429 | Too Many Requests',
} as const;

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });
const uncertain = (source: string, quote: string): Provenance => ({ source, confidence: 'uncertain', quote });

const byEndpoint = { kind: 'endpoint' } as const;
const WINDOW_NOTE = 'MEXC says "500 every 10 second" and not how the window moves: a rolling window is assumed (the strictest reading).';

function bucket(id: string, scope: 'ip' | 'uid', limit: number, windowMs: number, provenance: Provenance, description: string): BucketSpec {
  return { id, scope, algorithm: 'sliding-window', limit, windowMs, partition: byEndpoint, provenance, description: `${description} ${WINDOW_NOTE}` };
}

const constant = (value: number): CostExpr => ({ kind: 'constant', value });

/** A public endpoint: its weight on its own per-IP bucket. */
function pub(method: EndpointSpec['method'], path: string, title: string, weight: number | CostExpr, quote?: string): EndpointSpec {
  const cost = typeof weight === 'number' ? constant(weight) : weight;
  return { id: `${method} ${path}`, method, path, auth: 'public', costs: [{ bucket: 'ip-endpoint', cost }], provenance: doc(sourceOf(path), quote ?? `${title} … Weight(IP): ${String(weight)}`) };
}

/**
 * A signed endpoint marked "Weight(IP)": its weight on its own per-IP bucket (as marked) and on its
 * own per-account bucket, because MEXC also says the account is the unit for endpoints that carry a
 * key. Which one MEXC applies is not settled by the documentation: both are charged.
 */
function signed(method: EndpointSpec['method'], path: string, title: string, weight: number, more: { note?: string; extra?: readonly CostRule[]; quote?: string } = {}): EndpointSpec {
  const cost = constant(weight);
  return {
    id: `${method} ${path}`,
    method,
    path,
    auth: 'private',
    costs: [{ bucket: 'ip-endpoint', cost }, { bucket: 'uid-endpoint', cost, provenance: uncertain('limits', Q.unit) }, ...(more.extra ?? [])],
    provenance: doc(sourceOf(path), more.quote ?? `${title} … Weight(IP): ${weight}`),
    ...(more.note === undefined ? {} : { note: more.note }),
  };
}

/** The page of an endpoint, by its path. */
function sourceOf(path: string): string {
  if (path.startsWith('/api/v3/capital/sub-account') || path.startsWith('/api/v3/sub-account')) return 'subaccount';
  if (path.startsWith('/api/v3/capital')) return 'wallet';
  if (path.startsWith('/api/v3/rebate')) return 'rebate';
  if (path.startsWith('/api/v3/userDataStream')) return 'userStream';
  const market = ['ping', 'time', 'defaultSymbols', 'exchangeInfo', 'depth', 'trades', 'aggTrades', 'klines', 'avgPrice', 'ticker/24hr', 'ticker/price', 'ticker/bookTicker'];
  return market.some((m) => path === `/api/v3/${m}`) ? 'market' : 'trade';
}

/** Twice per second, on the endpoint's per-IP and per-account buckets (the scope is not stated). */
const twicePerSecond = (quote: string): CostRule[] => [
  { bucket: 'twice-per-second-ip', cost: constant(1), provenance: uncertain('trade', quote) },
  { bucket: 'twice-per-second-uid', cost: constant(1), provenance: uncertain('trade', quote) },
];

const REBATE: readonly (readonly [string, string])[] = [
  ['/api/v3/rebate/taxQuery', 'Get Rebate History Records'],
  ['/api/v3/rebate/detail', 'Get Rebate Records Detail'],
  ['/api/v3/rebate/detail/kickback', 'Get Self Rebate Records Detail'],
  ['/api/v3/rebate/referCode', 'Query ReferCode'],
  ['/api/v3/rebate/affiliate/commission', 'Get Affiliate Commission Record (affiliate only)'],
  ['/api/v3/rebate/affiliate/withdraw', 'Get Affiliate Withdraw Record (affiliate only)'],
  ['/api/v3/rebate/affiliate/commission/detail', 'Get Affiliate Commission Detail Record (affiliate only)'],
  ['/api/v3/rebate/affiliate/campaign', 'Get Affiliate Campaign Data (affiliate only)'],
  ['/api/v3/rebate/affiliate/referral', 'Get Affiliate Referral Data（affiliate only）'],
  ['/api/v3/rebate/affiliate/subaffiliates', 'Get Subaffiliates Data (affiliate only)'],
];

/** The weight charged for a listen-key call, which MEXC does not state. */
const LISTEN_KEY_WEIGHT = 10;
const LISTEN_KEY_NOTE = `the User Data Stream section states no weight for the listen-key endpoints: ${LISTEN_KEY_WEIGHT} is charged on the endpoint's own buckets (5 calls per second, below ccxt's 20; bots call them once per 30 to 60 minutes)`;

function listenKey(method: EndpointSpec['method'], title: string): EndpointSpec {
  return {
    id: `${method} /api/v3/userDataStream`,
    method,
    path: '/api/v3/userDataStream',
    auth: 'private',
    costs: [
      { bucket: 'ip-endpoint', cost: constant(LISTEN_KEY_WEIGHT) },
      { bucket: 'uid-endpoint', cost: constant(LISTEN_KEY_WEIGHT) },
    ],
    provenance: {
      ...uncertain('userStream', `${title} … ${method} /api/v3/userDataStream`),
      deviations: [{ value: LISTEN_KEY_WEIGHT, reason: 'conservative', text: "MEXC states no weight for the listen-key calls: 10 is charged, 50 calls per 10 s on each of the endpoint's buckets of 500, slower than ccxt's 20 per second (a weight of 1 would allow 50 per second)" }],
    },
    note: LISTEN_KEY_NOTE,
  };
}

/** MEXC spot API v3 REST (`api.mexc.com`). */
export const mexcSpot: VenueSpec = {
  id: 'mexc-spot',
  venue: 'MEXC',
  product: 'spot API v3 REST (spot, wallet, sub-accounts)',
  markets: ['spot', 'wallet'],
  origin: 'hand-authored',
  ccxtIds: ['mexc'],
  sources: {
    limits: { url: `${SITE}/general-info#limits`, retrieved: RETRIEVED, note: `"LIMITS", "HTTP Return Codes" and "Error Code"; ${READ}` },
    market: { url: `${SITE}/market-data-endpoints`, retrieved: RETRIEVED, note: READ },
    trade: { url: `${SITE}/spot-account-trade`, retrieved: RETRIEVED, note: READ },
    wallet: { url: `${SITE}/wallet-endpoints`, retrieved: RETRIEVED, note: READ },
    subaccount: { url: `${SITE}/subaccount-endpoints`, retrieved: RETRIEVED, note: READ },
    rebate: { url: `${SITE}/rebate-endpoints`, retrieved: RETRIEVED, note: READ },
    userStream: { url: `${SITE}/websocket-user-data-streams`, retrieved: RETRIEVED, note: `"Listen Key"; ${READ}` },
  },
  buckets: [
    bucket('ip-endpoint', 'ip', 500, 10_000, doc('limits', `${Q.marked} ${Q.ip}`), 'every endpoint marked "Weight(IP)", each its own bucket, per IP.'),
    bucket(
      'uid-endpoint',
      'uid',
      500,
      10_000,
      doc('limits', `${Q.marked} ${Q.uid}`),
      'every endpoint marked "Weight(UID)" (order placement), each its own bucket, per account; the other signed endpoints are charged here too (MEXC: "The account is used as the basic unit of speed limit for the endpoints that need to carry access keys").',
    ),
    bucket('twice-per-second-ip', 'ip', 2, 1000, uncertain('trade', `${Q.batch} / ${Q.account}`), 'the batch-order and account-information endpoints\' own "2 times/s", each its own bucket, per IP. MEXC does not say whether this limit is per IP or per account: both are kept.'),
    bucket('twice-per-second-uid', 'uid', 2, 1000, uncertain('trade', `${Q.batch} / ${Q.account}`), 'the same "2 times/s", each endpoint its own bucket, per account (see twice-per-second-ip).'),
  ],
  endpoints: [
    // Market data (public, per IP).
    pub('GET', '/api/v3/ping', 'Test Connectivity', 1),
    pub('GET', '/api/v3/time', 'Check Server Time', 1),
    pub('GET', '/api/v3/defaultSymbols', 'API default symbol', 1),
    pub('GET', '/api/v3/exchangeInfo', 'Exchange Information', 10),
    pub('GET', '/api/v3/depth', 'Order Book', 1),
    pub('GET', '/api/v3/trades', 'Recent Trades List', 5),
    pub('GET', '/api/v3/aggTrades', 'Compressed/Aggregate Trades List', 1),
    pub('GET', '/api/v3/klines', 'Kline/Candlestick Data', 1),
    pub('GET', '/api/v3/avgPrice', 'Current Average Price', 1),
    pub(
      'GET',
      '/api/v3/ticker/24hr',
      '',
      { kind: 'presence', param: 'symbol', present: 1, absent: 40 },
      '24hr Ticker Price Change Statistics … Weight(IP): Parameter | Symbols Provided | Weight; symbol | 1 | 1; symbols | all | 40 … symbol | string | NO | If the symbol is not sent, tickers for all symbols will be returned in an array.',
    ),
    pub('GET', '/api/v3/ticker/price', '', { kind: 'presence', param: 'symbol', present: 1, absent: 2 }, 'Symbol Price Ticker … Weight(IP): Parameter | Symbols Provided | Weight; symbol | 1 | 1; symbols | all | 2 … symbol | string | NO | If the symbol is not sent, all symbols will be returned in an array.'),
    pub('GET', '/api/v3/ticker/bookTicker', 'Symbol Order Book Ticker', 1),
    // Orders.
    signed('POST', '/api/v3/order/test', 'Test New Order', 1),
    {
      id: 'POST /api/v3/order',
      method: 'POST',
      path: '/api/v3/order',
      auth: 'private',
      costs: [
        { bucket: 'ip-endpoint', cost: constant(1) },
        { bucket: 'uid-endpoint', cost: constant(1) },
      ],
      provenance: doc('trade', 'New Order … Weight(IP): 1, Weight(UID): 1'),
    },
    {
      id: 'POST /api/v3/batchOrders',
      method: 'POST',
      path: '/api/v3/batchOrders',
      auth: 'private',
      costs: [{ bucket: 'ip-endpoint', cost: { kind: 'table', param: 'batchOrders', measure: 'count', rows: [{ upTo: 20, cost: 1 }] } }, { bucket: 'uid-endpoint', cost: constant(1) }, ...twicePerSecond(Q.batch)],
      provenance: doc('trade', `Batch Orders … ${Q.batch} … Weight(IP): 1,Weight(UID): 1 … batchOrders | LIST | YES | list of batchOrders,supports max 20 orders`),
      note: 'one weight per request whatever the number of orders (1 to 20, one symbol); a batchOrders list of more than 20 is refused here',
    },
    signed('DELETE', '/api/v3/order', 'Cancel Order', 1),
    signed('DELETE', '/api/v3/openOrders', 'Cancel all Open Orders on a Symbol', 1, { note: 'symbol: up to 5 symbols separated by ","; one weight per request' }),
    signed('GET', '/api/v3/order', 'Query Order', 2),
    signed('GET', '/api/v3/openOrders', 'Current Open Orders', 3, { note: 'the same weight with or without symbol' }),
    signed('GET', '/api/v3/allOrders', 'All Orders', 10),
    signed('GET', '/api/v3/account', 'Account Information', 10, { extra: twicePerSecond(Q.account), quote: `Account Information … Weight(IP): 10 … ${Q.account}` }),
    signed('GET', '/api/v3/myTrades', 'Account Trade List', 10),
    signed('GET', '/api/v3/tradeFee', 'Query Symbol Commission', 20),
    signed('GET', '/api/v3/kyc/status', 'Query KYC status', 1),
    signed('GET', '/api/v3/uid', 'Query UID', 1),
    signed('GET', '/api/v3/selfSymbols', 'User API default symbol', 1),
    signed('POST', '/api/v3/mxDeduct/enable', 'Enable MX Deduct', 1),
    signed('GET', '/api/v3/mxDeduct/enable', 'Query MX Deduct Status', 1),
    signed('POST', '/api/v3/strategy/group', 'Create STP strategy group', 20),
    signed('GET', '/api/v3/strategy/group', 'Query STP strategy group', 20),
    signed('DELETE', '/api/v3/strategy/group', 'Delete STP strategy group', 20),
    signed('GET', '/api/v3/strategy/group/uid', 'Add uid to STP strategy group', 20),
    signed('POST', '/api/v3/strategy/group/uid', 'Add uid to STP strategy group', 20, { note: 'the section is headed GET, its example request is a POST: both are priced' }),
    signed('DELETE', '/api/v3/strategy/group/uid', 'Delete uid to STP strategy group', 20),
    // Wallet.
    signed('GET', '/api/v3/capital/config/getall', 'Query the currency information', 10),
    signed('POST', '/api/v3/capital/withdraw', 'Withdraw(new)', 1),
    signed('DELETE', '/api/v3/capital/withdraw', 'Cancel withdraw', 1),
    signed('POST', '/api/v3/capital/withdraw/apply', 'Withdraw(previous,offline soon)', 1),
    signed('GET', '/api/v3/capital/deposit/hisrec', 'Deposit History(supporting network)', 1),
    signed('GET', '/api/v3/capital/withdraw/history', 'Withdraw History (supporting network)', 1),
    signed('POST', '/api/v3/capital/deposit/address', 'Generate deposit address (supporting network)', 1),
    signed('GET', '/api/v3/capital/deposit/address', 'Deposit Address (supporting network)', 10),
    signed('GET', '/api/v3/capital/withdraw/address', 'Withdraw Address (supporting network)', 10),
    signed('POST', '/api/v3/capital/transfer', 'User Universal Transfer', 1),
    signed('GET', '/api/v3/capital/transfer', 'Query User Universal Transfer History', 1),
    signed('GET', '/api/v3/capital/transfer/tranId', 'Query User Universal Transfer History （by tranId）', 1),
    signed('GET', '/api/v3/capital/convert/list', 'Get Assets That Can Be Converted Into MX', 1),
    signed('POST', '/api/v3/capital/convert', 'Dust Transfer', 10),
    signed('GET', '/api/v3/capital/convert', 'DustLog', 1),
    signed('POST', '/api/v3/capital/transfer/internal', 'Internal Transfer', 1),
    signed('GET', '/api/v3/capital/transfer/internal', 'Query Internal Transfer history', 1),
    // Sub-accounts.
    signed('POST', '/api/v3/sub-account/virtualSubAccount', 'Create a Sub-account(For Master Account)', 1),
    signed('GET', '/api/v3/sub-account/list', 'Query Sub-account List (For Master Account)', 1),
    signed('POST', '/api/v3/sub-account/apiKey', 'Create an APIKey for a sub-account (For Master Account)', 1),
    signed('GET', '/api/v3/sub-account/apiKey', 'Query the APIKey of a sub-account (For Master Account)', 1),
    signed('DELETE', '/api/v3/sub-account/apiKey', 'Delete the APIKey of a sub-account (For Master Account)', 1),
    signed('POST', '/api/v3/capital/sub-account/universalTransfer', 'Universal Transfer (For Master Account)', 1),
    signed('GET', '/api/v3/capital/sub-account/universalTransfer', 'Query Universal Transfer History (For Master Account)', 1),
    signed('GET', '/api/v3/sub-account/asset', 'Query Sub-account Asset', 1),
    // Rebates.
    ...REBATE.map(([path, title]) => signed('GET', path, title, 1)),
    // User data stream (listen keys).
    listenKey('POST', 'Generate Listen Key'),
    listenKey('GET', 'Get Valid Listen Keys'),
    listenKey('PUT', 'Extend Listen Key Validity'),
    listenKey('DELETE', 'Close Listen Key'),
  ],
  errors: [
    {
      id: 'ip-ban',
      status: [418],
      verdict: 'banned',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 120_000 },
      ],
      provenance: doc('limits', `${Q.ban} ${Q.retryAfter}`),
      note: "an automatic IP ban after 429s were ignored: the Retry-After header is the ban's end; without it the documented minimum of 2 minutes is held. Only the buckets of the refused request are held: the other endpoints' buckets learn of the ban from their own 418.",
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 10_000 },
      ],
      provenance: { ...doc('limits', `${Q.http429} ${Q.retryAfter}`), deviations: [{ value: 10000, reason: 'conservative', text: "MEXC states no wait: without Retry-After the endpoint's buckets are held one whole window, 10 s" }] },
      note: "the Retry-After header is read; without it the endpoint's buckets are held one whole window (10 s)",
    },
    {
      id: 'too-many-requests-code',
      body: [{ path: 'code', equals: [429] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 10_000 },
      ],
      provenance: { ...doc('limits', Q.code429), deviations: [{ value: 10000, reason: 'conservative', text: "MEXC states no wait: without Retry-After the endpoint's buckets are held one whole window, 10 s" }] },
      note: 'the error code 429 whatever the HTTP status; held as for HTTP 429',
    },
    {
      id: 'waf',
      status: [403],
      verdict: 'banned',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 120_000 },
      ],
      provenance: { ...uncertain('limits', Q.waf), deviations: [{ value: 120000, reason: 'conservative', text: 'MEXC gives no duration for a WAF block: without Retry-After, 2 minutes, the shortest IP ban MEXC documents' }] },
      note: 'MEXC gives no duration for a WAF block: Retry-After when sent, else 2 minutes (the shortest IP ban MEXC documents)',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      // ccxt paces every endpoint from one pool of 20 cost units per second (rateLimit 50 ms): an endpoint of cost c runs at 20/c per s.
      // MEXC's 500 weight per 10 s per endpoint lets an endpoint of weight w run at 50/w per s.
      { other: 'ccxt 4.5.84 mexc.js', what: 'GET /api/v3/depth', ours: 'weight 1: 50 per s per IP', theirs: 'cost 3: 6.7 per s', verdict: 'MEXC states Weight(IP): 1; ccxt is stricter' },
      { other: 'ccxt 4.5.84 mexc.js', what: 'GET /api/v3/exchangeInfo', ours: 'weight 10: 5 per s', theirs: 'cost 25: 0.8 per s', verdict: 'MEXC states Weight(IP): 10; ccxt is stricter' },
      { other: 'ccxt 4.5.84 mexc.js', what: 'GET /api/v3/ticker/24hr', ours: 'weight 1 with symbol (50 per s), 40 without (1.25 per s)', theirs: 'cost 25 either way: 0.8 per s', verdict: "MEXC's table; ccxt is stricter" },
      { other: 'ccxt 4.5.84 mexc.js', what: 'POST /api/v3/batchOrders', ours: 'weight 1 per IP and per account, and 2 per s', theirs: 'cost 10: 2 per s', verdict: 'agree on the 2 per s' },
      { other: 'ccxt 4.5.84 mexc.js', what: 'GET /api/v3/account', ours: 'weight 10 (5 per s) and 2 per s', theirs: 'cost 10: 2 per s', verdict: 'agree' },
      { other: 'ccxt 4.5.84 mexc.js', what: 'POST /api/v3/capital/transfer', ours: 'weight 1: 50 per s', theirs: 'cost 50: 0.4 per s', verdict: 'MEXC states Weight(IP): 1; ccxt is stricter' },
      { other: 'ccxt 4.5.84 mexc.js', what: 'DELETE /api/v3/strategy/group, /strategy/group/uid', ours: 'weight 20: 2.5 per s', theirs: 'cost 1: 20 per s', verdict: 'MEXC states Weight(IP): 20; ccxt under-charges these two' },
      { other: 'ccxt 4.5.84 mexc.js', what: 'GET /api/v3/capital/deposit/hisrec', ours: 'weight 1: 50 per s', theirs: 'cost 10: 2 per s', verdict: 'MEXC states Weight(IP): 1; ccxt is stricter' },
      {
        other: 'hummingbot mexc/mexc_constants.py',
        what: 'limits',
        ours: '500 weight per 10 s per endpoint, per IP or per account',
        theirs: '20,000 IP weight and 240,000 UID weight per minute, shared by every endpoint',
        verdict: "Hummingbot's pools are not in MEXC's documentation; an endpoint alone may run at 333 weight per s under them, above MEXC's 50 per s: the documentation is shipped",
      },
      { other: 'hummingbot mexc/mexc_constants.py', what: 'GET /api/v3/depth', ours: 'weight 1', theirs: 'weight 50', verdict: 'MEXC states Weight(IP): 1; Hummingbot over-charges' },
      { other: 'hummingbot mexc/mexc_constants.py', what: 'GET /api/v3/ticker/24hr without symbol', ours: 'weight 40', theirs: 'weight 1', verdict: "MEXC's table; Hummingbot under-charges the ticker of all symbols" },
      { other: 'hummingbot mexc/mexc_constants.py', what: 'GET /api/v3/ticker/bookTicker, /defaultSymbols', ours: 'weight 1', theirs: 'weight 2 and 10', verdict: 'MEXC states Weight(IP): 1; Hummingbot over-charges' },
      { other: 'hummingbot mexc/mexc_constants.py', what: 'scope of GET /api/v3/account, /myTrades, /order', ours: 'per IP (as marked) and per account', theirs: 'per account only', verdict: 'MEXC marks them Weight(IP) and also says the account is the unit for keyed endpoints: both are kept' },
    ],
  },
  notes: [
    "Each endpoint has its own budget: the bucket keys carry the endpoint (`ip-endpoint:GET /api/v3/depth`). Signed endpoints marked Weight(IP) are charged on a per-IP and a per-account bucket each, because MEXC's text and its marks disagree on their scope; a single bot on one IP loses nothing to this.",
    'Endpoints not listed here (margin, ETF, broker) are refused by the limiter rather than guessed: MEXC documents no default weight.',
    'MEXC sends no usage headers: only Retry-After on 429 and 418.',
    "The ccxt id `mexc` names this spec; MEXC futures (contract API, ccxt's swap markets of the same id) are `mexc-futures`.",
  ],
};
