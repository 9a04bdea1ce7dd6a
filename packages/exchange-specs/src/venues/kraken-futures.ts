import type { CostExpr, CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/*
 * Kraken Futures REST (futures.kraken.com). Every cost is quoted from Kraken's "Futures Rate Limits"
 * guide (docs.kraken.com), read 2026-12-01 from a verbatim copy of the page updated 2026-05-27; table
 * rows are quoted cell by cell (`endpoint | cost`).
 */

const RETRIEVED = '2026-12-01';

const Q = {
  derivatives:
    'Request limits are determined from cost associated with each API call and rate limiting budgets depend on which path the endpoint uses. Public endpoints do not have a cost and therefore do not count against any rate limiting budget. For `/derivatives` endpoints, clients can spend up to 500 every 10 seconds.',
  history: 'For `/history` endpoints, clients have a pool of up to 100 tokens that continually replenishes at a rate of 100 every 10 minutes.',
  batch: 'batchorder | 9 + size of batch | On the Batch Order endpoint, the cost is 9 + size of the batch of the requests. For example, a batch of 10 order requests, (send, edit, and or cancel) sent through the Batch Order endpoint would cost 19.',
  fills: 'fills (without lastFillTime specified) | 2 | fills (with lastFillTime specified) | 25',
  accountLog: "The accountlog rate limit cost varies on the optional 'count' parameter (default count is 500): | accountlog (count: 1 - 25) | 1 | accountlog (count: 26 - 50) | 2 | accountlog (count: 51 - 1000) | 3 | accountlog (count: 1001 - 5000) | 6 | accountlog (count: 5001 - 100000) | 10",
  exceeded: 'If the API limit is exceeded, the API will return `error` equal to `apiLimitExceeded`. For the FIX API the API Limit is done at the `CompID` level.',
  example: 'The following shows the return of call of the `sendorder` endpoint where the API limit has been exceeded. { "result": "error", "serverTime": "2016-02-25T09:45:53.818Z", "error": "apiLimitExceeded" }',
} as const;

const doc = (quote: string): Provenance => ({ source: 'limits', confidence: 'documented', quote });
const constant = (value: number): CostExpr => ({ kind: 'constant', value });

const SCOPE_NOTE = 'Kraken says "clients" without naming the scope: the account (every key of it) is assumed, the safe reading (the FIX API counts per CompID).';

/** A /derivatives endpoint of the cost table, charged to the 500 per 10 s budget. */
function derivatives(id: string, method: EndpointSpec['method'], name: string, cost: number, tableName = name): EndpointSpec {
  return { id, method, path: `/derivatives/api/v3/${name}`, auth: 'private', costs: [{ bucket: 'derivatives', cost: constant(cost) }], provenance: doc(`${tableName} | ${cost}`) };
}

/** A /history endpoint of the cost table, charged to the 100-token pool. */
function history(id: string, name: string, cost: number, tableName: string): EndpointSpec {
  return { id, method: 'GET', path: `/api/history/{version}/${name}`, auth: 'private', costs: [{ bucket: 'history', cost: constant(cost) }], provenance: doc(`${tableName} | ${cost}`) };
}

const PUBLIC: Provenance = {
  source: 'limits',
  confidence: 'uncertain',
  quote: 'Public endpoints do not have a cost and therefore do not count against any rate limiting budget.',
  deviations: [
    { value: 5, reason: 'conservative', text: 'Kraken documents no limit for its public endpoints (per IP); 5 calls per 5 s, one per second on average as the Kraken spot spec allows, is charged instead of nothing' },
    { value: 5000, reason: 'conservative', text: 'the window of the 5 calls charged where Kraken documents no limit: 5 s' },
    { value: 1, reason: 'conservative', text: 'each public call counts 1 of those 5 per 5 s, where Kraken charges no cost' },
  ],
};

function pub(id: string, path: string): EndpointSpec {
  return { id, method: 'GET', path, auth: 'public', costs: [{ bucket: 'public', cost: constant(1) }], provenance: PUBLIC };
}

/** `9 + n` for a batch of 1 to 10 orders (send, edit and cancel instructions); more is refused here. */
const batchCost: CostExpr = { kind: 'table', param: 'json.batchOrder', measure: 'count', rows: Array.from({ length: 10 }, (_, i) => ({ upTo: i + 1, cost: 10 + i })) };
const batchCostJson: CostExpr = { ...batchCost, param: 'batchOrder' };

const batchRules: readonly CostRule[] = [
  { bucket: 'derivatives', cost: batchCost, when: { param: 'json.batchOrder', items: { min: 1 } } },
  { bucket: 'derivatives', cost: batchCostJson, when: { param: 'batchOrder', items: { min: 1 } } },
];

/** Kraken Futures REST: a cost budget per 10 s for /derivatives, a token pool for /history. */
export const krakenFutures: VenueSpec = {
  id: 'kraken-futures',
  venue: 'Kraken',
  product: 'Futures REST API (futures.kraken.com)',
  markets: ['perpetual', 'delivery'],
  origin: 'hand-authored',
  ccxtIds: ['krakenfutures'],
  sources: {
    limits: {
      url: 'https://docs.kraken.com/api/docs/guides/futures-rate-limits',
      retrieved: RETRIEVED,
      note: 'Futures Rate Limits guide (REST request limits, cost tables for /derivatives and /history, apiLimitExceeded), read from a verbatim copy of the page updated 2026-05-27; the same text is served at docs.kraken.com/exchange/guides/futures/ratelimits',
    },
  },
  buckets: [
    {
      id: 'derivatives',
      scope: 'uid',
      algorithm: 'sliding-window',
      limit: 500,
      windowMs: 10_000,
      provenance: { source: 'limits', confidence: 'uncertain', quote: Q.derivatives },
      description: `cost budget of the /derivatives endpoints, 500 per 10 s. ${SCOPE_NOTE} "Up to 500 every 10 seconds" does not say how the window moves: a sliding window is the strictest reading.`,
    },
    {
      id: 'history',
      scope: 'uid',
      algorithm: 'token-bucket',
      capacity: 100,
      refillPerSec: 100 / 600,
      provenance: { source: 'limits', confidence: 'uncertain', quote: Q.history, deviations: [{ value: 100 / 600, reason: 'formula', text: '"100 every 10 minutes" as a rate per second: 100 / 600' }] },
      description: `token pool of the /history endpoints: 100 tokens, replenished at 100 per 10 minutes. ${SCOPE_NOTE}`,
    },
    {
      id: 'public',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 5,
      windowMs: 5000,
      provenance: PUBLIC,
      description: "Kraken charges no cost for public endpoints and documents no limit for them (per IP); 5 calls per 5 s (one per second on average, as the Kraken spot spec allows) is this spec's conservative default",
    },
  ],
  endpoints: [
    derivatives('sendorder', 'POST', 'sendorder', 10),
    derivatives('editorder', 'POST', 'editorder', 10),
    derivatives('cancelorder', 'POST', 'cancelorder', 10),
    {
      id: 'batchorder',
      method: 'POST',
      path: '/derivatives/api/v3/batchorder',
      auth: 'private',
      costs: batchRules,
      provenance: doc(Q.batch),
      note: 'the instructions are in batchOrder, sent as the form field json ({"batchOrder":[...]}) or as a JSON body; batches of more than 10 instructions are refused by this spec (split them): a larger cost would size every request of the budget to it',
    },
    derivatives('accounts', 'GET', 'accounts', 2),
    derivatives('openpositions', 'GET', 'openpositions', 2),
    {
      id: 'fills',
      method: 'GET',
      path: '/derivatives/api/v3/fills',
      auth: 'private',
      provenance: doc(Q.fills),
      costs: [{ bucket: 'derivatives', cost: { kind: 'presence', param: 'lastFillTime', present: 25, absent: 2 } }],
    },
    derivatives('cancelallorders', 'POST', 'cancelallorders', 25),
    derivatives('cancelallordersafter', 'POST', 'cancelallordersafter', 25),
    derivatives('openorders', 'GET', 'openorders', 2),
    derivatives('orders-status', 'POST', 'orders/status', 1),
    derivatives('orders-status-get', 'GET', 'orders/status', 1),
    derivatives('get-leveragepreferences', 'GET', 'leveragepreferences', 2, 'GET leveragepreferences'),
    derivatives('put-leveragepreferences', 'PUT', 'leveragepreferences', 10, 'PUT leveragepreferences'),
    derivatives('get-pnlpreferences', 'GET', 'pnlpreferences', 2, 'GET pnlpreferences'),
    derivatives('put-pnlpreferences', 'PUT', 'pnlpreferences', 10, 'PUT pnlpreferences'),
    derivatives('transfer', 'POST', 'transfer', 10),
    derivatives('transfer-subaccount', 'POST', 'transfer/subaccount', 10),
    derivatives('get-trading-enabled', 'GET', 'subaccount/{subaccountUid}/trading-enabled', 2, 'subaccount/:subaccountUid/trading-enabled'),
    derivatives('put-trading-enabled', 'PUT', 'subaccount/{subaccountUid}/trading-enabled', 2, 'subaccount/:subaccountUid/trading-enabled'),
    derivatives('get-self-trade-strategy', 'GET', 'self-trade-strategy', 2),
    derivatives('put-self-trade-strategy', 'PUT', 'self-trade-strategy', 2),
    history('historicalorders', 'orders', 1, 'historicalorders'),
    history('historicaltriggers', 'triggers', 1, 'historicaltriggers'),
    history('historicalexecutions', 'executions', 1, 'historicalexecutions'),
    { ...history('accountlogcsv', 'accountlogcsv', 6, 'accounglogcsv'), note: 'the guide spells it "accounglogcsv"' },
    {
      id: 'accountlog',
      method: 'GET',
      path: '/api/history/{version}/account-log',
      auth: 'private',
      provenance: doc(Q.accountLog),
      costs: [
        {
          bucket: 'history',
          cost: {
            kind: 'table',
            param: 'count',
            defaultValue: 500,
            rows: [
              { upTo: 25, cost: 1 },
              { upTo: 50, cost: 2 },
              { upTo: 1000, cost: 3 },
              { upTo: 5000, cost: 6 },
              { upTo: 100_000, cost: 10 },
            ],
          },
        },
      ],
    },
    pub('orderbook', '/derivatives/api/v3/orderbook'),
    pub('tickers', '/derivatives/api/v3/tickers'),
    pub('ticker', '/derivatives/api/v3/tickers/{symbol}'),
    pub('instruments', '/derivatives/api/v3/instruments'),
    pub('instruments-status', '/derivatives/api/v3/instruments/status'),
    pub('instrument-status', '/derivatives/api/v3/instruments/{symbol}/status'),
    pub('trade-history', '/derivatives/api/v3/history'),
    pub('historical-funding-rates', '/derivatives/api/v4/historicalfundingrates'),
    pub('charts', '/api/charts/v1/{tickType}/{symbol}/{resolution}'),
    pub('market-executions', '/api/history/{version}/market/{symbol}/executions'),
    pub('market-orders', '/api/history/{version}/market/{symbol}/orders'),
    pub('market-price', '/api/history/{version}/market/{symbol}/price'),
  ],
  errors: [
    {
      id: 'api-limit-exceeded',
      body: [{ path: 'error', equals: ['apiLimitExceeded'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: {
        ...doc(`${Q.exceeded} | ${Q.example}`),
        deviations: [{ value: 10000, reason: 'conservative', text: 'Kraken states no wait: the buckets the request was charged on are held 10 s, the window of the /derivatives budget ("500 every 10 seconds"; the /history pool regains about 16 tokens in that time)' }],
      },
      note: 'in an HTTP 200 body; Kraken states no wait: the buckets the request was charged on are held for 10 s, the /derivatives window (the /history pool regains 16 tokens in that time)',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: { source: 'limits', confidence: 'uncertain', quote: Q.exceeded, deviations: [{ value: 10000, reason: 'conservative', text: 'Kraken documents apiLimitExceeded, not HTTP 429, and no wait: a 429 is held 10 s like apiLimitExceeded, the window of the /derivatives budget' }] },
      note: 'Kraken documents apiLimitExceeded, not HTTP 429; a 429 (ccxt reads it as DDoS protection) is treated as a rate limit and held 10 s, the safe reading',
    },
  ],
  verification: {
    checked: RETRIEVED,
    corrections: [],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 krakenfutures.js',
        what: 'every endpoint',
        ours: 'the documented costs on a 500 per 10 s budget (sendorder 10, batchorder 9 + n, accounts 2, ...) and the /history pool (100 tokens, 100 per 10 min)',
        theirs: 'cost 1 each at rateLimit 600 ms: about 16.7 requests per 10 s whatever the endpoint, public ones included',
        verdict: "ccxt paces every call alike and ignores the /history pool: it admits 100 history calls in 60 s where Kraken's pool allows 110 in 10 minutes; the documented costs are shipped",
      },
      { other: 'ccxt 4.5.84 krakenfutures.js', what: 'POST /derivatives/api/v3/batchorder', ours: '9 + number of instructions (19 for 10)', theirs: 'cost 1', verdict: 'Kraken documents "9 + size of batch"' },
      {
        other: 'JKorf/Kraken.Net @e597f1d (KrakenExchange.cs, FuturesApi)',
        what: 'the budgets',
        ours: '500 per 10 s (sliding) and a 100-token pool refilled at 100 per 10 min, per account',
        theirs: '500 per 10 s and 100 per 10 min, both fixed windows per API key',
        verdict: "the same numbers; a fixed 10-minute window of 100 lets 200 history calls through around a window boundary, which Kraken's continually replenished pool would refuse",
      },
      { other: 'JKorf/Kraken.Net @e597f1d', what: 'GET and PUT /derivatives/api/v3/leveragepreferences', ours: '2 and 10', theirs: '1 and 1', verdict: 'Kraken documents "GET leveragepreferences | 2" and "PUT leveragepreferences | 10"; the documentation is shipped' },
      { other: 'JKorf/Kraken.Net @e597f1d', what: 'GET /derivatives/api/v3/fills', ours: '2, or 25 with lastFillTime', theirs: '1 (it computes 2 or 25 but registers the request at 1)', verdict: 'Kraken documents 2 and 25; the documentation is shipped' },
      {
        other: 'JKorf/Kraken.Net @e597f1d',
        what: 'sendorder, editorder, cancelorder, cancelallorders, cancelallordersafter, accounts, openpositions, openorders, orders/status, pnlpreferences (GET, PUT), transfer, account-log by count (3 without count)',
        ours: '10, 10, 10, 25, 25, 2, 2, 2, 1, 2 and 10, 10, 1/2/3/6/10 (3)',
        theirs: 'the same',
        verdict: 'agree',
      },
      { other: 'hummingbot', what: 'Kraken Futures', ours: 'this spec', theirs: 'no Kraken Futures connector', verdict: 'nothing to compare' },
    ],
  },
  notes: [
    "Not listed, so they do not resolve: withdrawaltospotwallet (POST /derivatives/api/v3/withdrawal, cost 100) and unwindqueue (GET /derivatives/api/v3/unwindqueue, cost 200). Kraken documents their costs, but one request of 100 or 200 in the 500 budget would size the budget's burst for every request, cutting the order rate by a quarter to two fifths.",
    'The /derivatives endpoints without a documented cost (notifications, recentorders, transfers, subaccounts, fee schedules...) are not listed and do not resolve.',
    "Private calls carry the nonce and the signature in headers; batchorder's instructions are counted from its body.",
  ],
};
