import type { CostRule, Deviation, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';
import { binancePricedElsewhere } from './binance-paths.js';

/** How the endpoint pages were read. */
const PAGES_AT =
  "the weights as the page states them, read in the text of Binance's official SDK generated from it (binance/binance-connector-python, commit 29da329, 2026-08-21), compared with a verbatim copy of the pages made in November 2025 (rosssaunders/coincise, docs/binance/options/endpoints); where the two differ the higher weight is charged";

const COPY_AT = 'read from a verbatim copy of the page made on 2025-11-24 (rosssaunders/coincise, docs/binance/options)';

const CATALOG = 'https://developers.binance.com/en/docs/catalog/core-trading-derivatives-trading-options/api/rest-api';

function doc(source: string, quote: string): Provenance {
  return { source, confidence: 'documented', quote };
}

function uncertain(source: string, quote: string, deviations?: readonly Deviation[]): Provenance {
  return { source, confidence: 'uncertain', quote, ...(deviations === undefined ? {} : { deviations }) };
}

/** The higher weight of the November 2025 copy of a page, charged where the 2026 page (quoted) states less. */
const olderCopy = (value: number, what: string): readonly Deviation[] => [{ value, reason: 'conservative', text: `the 2026 page (quoted) says less; the November 2025 copy of the page says ${value} ${what}: the higher is charged` }];

const weight = (value: number): CostRule => ({ bucket: 'request_weight', cost: { kind: 'constant', value } });
const bySymbol = (present: number, absent: number): CostRule => ({ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present, absent } });

/** An order count the pages do not state: charged on both order limits, on the safe side (see the endpoint's note). */
const orders = (value: number, quote: string): CostRule[] => [
  { bucket: 'orders_10s', cost: { kind: 'constant', value }, provenance: uncertain('trade', quote) },
  { bucket: 'orders_1m', cost: { kind: 'constant', value }, provenance: uncertain('trade', quote) },
];

function ep(id: string, method: EndpointSpec['method'], path: string, auth: 'public' | 'private', costs: readonly CostRule[], provenance: Provenance, note?: string): EndpointSpec {
  return { id, method, path, auth, costs, provenance, ...(note === undefined ? {} : { note }) };
}

/** The options exchangeInfo example, the only statement of the options limits. */
const LIMITS_QUOTE = '"rateLimits": [ { "rateLimitType": "REQUEST_WEIGHT", "interval": "MINUTE", "intervalNum": 1, "limit": 2400 }, { "rateLimitType": "ORDERS", "interval": "MINUTE", "intervalNum": 1, "limit": 1200 }, { "rateLimitType": "ORDERS", "interval": "SECOND", "intervalNum": 10, "limit": 300 } ]';

const NEW_ORDER_QUOTE = 'New Order (TRADE) … Weight(IP): 0';
const BATCH_QUOTE = 'Place Multiple Orders (TRADE) … Weight(IP): 5 … orders (Union[List[PlaceMultipleOrdersOrdersParameterInner], None]): order list. Max 10 orders';

/** Binance options REST (`eapi.binance.com`): European options on crypto and TradFi underlyings. */
export const binanceOptions: VenueSpec = {
  id: 'binance-options',
  venue: 'Binance',
  product: 'options REST API (/eapi)',
  markets: ['options'],
  origin: 'hand-authored',
  sources: {
    general: { url: 'https://developers.binance.com/docs/derivatives/option/general-info', retrieved: '2026-12-01', note: COPY_AT },
    errors: { url: 'https://developers.binance.com/docs/derivatives/option/error-code', retrieved: '2026-12-01', note: COPY_AT },
    exchangeInfo: { url: 'https://developers.binance.com/docs/derivatives/option/market-data/Exchange-Information', retrieved: '2026-12-01', note: `the response example of GET /eapi/v1/exchangeInfo; ${COPY_AT}` },
    apiFaq: {
      url: 'https://www.binance.com/en/support/faq/detail/360004492232',
      retrieved: '2026-12-01',
      note: 'Binance support FAQ "Frequently Asked Questions on API" (last updated 15 November 2024); the nearest statement of a WAF ban\'s length',
    },
    market: { url: `${CATALOG}/market-data`, retrieved: '2026-12-01', note: PAGES_AT },
    trade: { url: `${CATALOG}/trade`, retrieved: '2026-12-01', note: PAGES_AT },
    account: { url: `${CATALOG}/account`, retrieved: '2026-12-01', note: PAGES_AT },
    marketMaker: { url: `${CATALOG}/market-maker-endpoints`, retrieved: '2026-12-01', note: PAGES_AT },
    userStream: { url: `${CATALOG}/user-data-streams`, retrieved: '2026-12-01', note: PAGES_AT },
  },
  buckets: [
    {
      id: 'request_weight',
      scope: 'ip',
      algorithm: 'fixed-window-aligned',
      limit: 2400,
      windowMs: 60_000,
      provenance: uncertain('exchangeInfo', LIMITS_QUOTE),
      description:
        'REQUEST_WEIGHT per IP ("The limits on the API are based on the IPs, not the API keys.", general info). The options pages state the limits only in the exchangeInfo response example ("The /eapi/v1/exchangeInfo rateLimits array contains objects related to the exchange\'s RAW_REQUEST, REQUEST_WEIGHT, and ORDER rate limits."): its numbers are used, and the live ones can be read from GET /eapi/v1/exchangeInfo. The clock-aligned minute of the spot API is assumed',
    },
    {
      id: 'orders_10s',
      scope: 'uid',
      algorithm: 'fixed-window-aligned',
      limit: 300,
      windowMs: 10_000,
      provenance: uncertain('exchangeInfo', LIMITS_QUOTE),
      description: 'ORDERS per account per 10 s ("The order rate limit is counted against each account.", general info), as the exchangeInfo example states it',
    },
    {
      id: 'orders_1m',
      scope: 'uid',
      algorithm: 'fixed-window-aligned',
      limit: 1200,
      windowMs: 60_000,
      provenance: uncertain('exchangeInfo', LIMITS_QUOTE),
      description: 'ORDERS per account per minute, as the exchangeInfo example states it',
    },
  ],
  endpoints: [
    ep('ping', 'GET', '/eapi/v1/ping', 'public', [weight(1)], doc('market', 'Test Connectivity … Weight(IP): 1')),
    ep('time', 'GET', '/eapi/v1/time', 'public', [weight(1)], doc('market', 'Check Server Time … Weight(IP): 1')),
    ep('exchangeInfo', 'GET', '/eapi/v1/exchangeInfo', 'public', [weight(1)], doc('market', 'Exchange Information … Weight(IP): 1')),
    ep('index', 'GET', '/eapi/v1/index', 'public', [weight(1)], doc('market', 'Index Price … Weight(IP): 1')),
    ep('mark', 'GET', '/eapi/v1/mark', 'public', [weight(5)], doc('market', 'Option Mark Price … Weight(IP): 5')),
    ep(
      'depth',
      'GET',
      '/eapi/v1/depth',
      'public',
      [
        {
          bucket: 'request_weight',
          cost: {
            kind: 'table',
            param: 'limit',
            defaultValue: 100,
            rows: [
              { upTo: 50, cost: 2 },
              { upTo: 100, cost: 5 },
              { upTo: 500, cost: 10 },
              { upTo: 1000, cost: 20 },
            ],
          },
        },
      ],
      uncertain('market', 'Order Book … Weight: limit | weight; 5, 10, 20, 50 | 1; 100 | 5; 500 | 10; 1000 | 20 … limit | INT | NO | Default:100 Max:1000.Optional value:[10, 20, 50, 100, 500, 1000]', olderCopy(2, 'for a limit of 5 to 50')),
      'the 2026 page says 1 for a limit up to 50, the November 2025 copy 2: 2 is charged (the safe side); a limit between the valid values is charged as the next valid one',
    ),
    ep('klines', 'GET', '/eapi/v1/klines', 'public', [weight(1)], doc('market', 'Kline/Candlestick Data … Weight(IP): 1')),
    ep('trades', 'GET', '/eapi/v1/trades', 'public', [weight(5)], doc('market', 'Recent Trades List … Weight(IP): 5')),
    ep('blockTrades', 'GET', '/eapi/v1/blockTrades', 'public', [weight(5)], doc('market', 'Recent Block Trades List … Weight(IP): 5')),
    ep(
      'ticker',
      'GET',
      '/eapi/v1/ticker',
      'public',
      [bySymbol(5, 40)],
      uncertain('market', '24hr Ticker Price Change Statistics … Weight: 1 for a single symbol; 40 when the symbol parameter is omitted', olderCopy(5, 'with a symbol')),
      'the 2026 page: 1 with symbol, 40 without; the November 2025 copy: 5: 5 with symbol and 40 without are charged (the safe side)',
    ),
    ep('openInterest', 'GET', '/eapi/v1/openInterest', 'public', [weight(0)], doc('market', 'Open Interest … Weight(IP): 0')),
    ep('exerciseHistory', 'GET', '/eapi/v1/exerciseHistory', 'public', [weight(3)], doc('market', 'Historical Exercise Records … Weight(IP): 3')),
    ep('newOrder', 'POST', '/eapi/v1/order', 'private', [weight(0), ...orders(1, NEW_ORDER_QUOTE)], doc('trade', NEW_ORDER_QUOTE), "the page states no order count; an order is charged 1 on each of the account's order limits (what they count)"),
    ep('batchOrders', 'POST', '/eapi/v1/batchOrders', 'private', [weight(5), ...orders(10, BATCH_QUOTE)], doc('trade', BATCH_QUOTE), 'the page states no order count for a batch: 10 (its most orders) is charged on each order limit, the safe side'),
    ep('cancelOrder', 'DELETE', '/eapi/v1/order', 'private', [weight(1)], doc('trade', 'Cancel Option Order (TRADE) … Weight(IP): 1')),
    ep('cancelBatch', 'DELETE', '/eapi/v1/batchOrders', 'private', [weight(5)], doc('trade', 'Cancel Multiple Option Orders (TRADE) … Weight(IP): 5'), 'the November 2025 copy said 1; the 2026 page 5'),
    ep(
      'cancelAll',
      'DELETE',
      '/eapi/v1/allOpenOrders',
      'private',
      [weight(5)],
      uncertain('trade', 'Cancel all Option orders on specific symbol (TRADE) … Weight(IP): 1', olderCopy(5, '(the two cancel-all endpoints swapped their weights)')),
      'the 2026 page says 1, the November 2025 copy 5 (the two cancel-all endpoints swapped their weights): 5 is charged (the safe side)',
    ),
    ep('cancelAllByUnderlying', 'DELETE', '/eapi/v1/allOpenOrdersByUnderlying', 'private', [weight(5)], doc('trade', 'Cancel All Option Orders By Underlying (TRADE) … Weight(IP): 5'), 'the November 2025 copy said 1; the 2026 page 5'),
    ep('queryOrder', 'GET', '/eapi/v1/order', 'private', [weight(1)], doc('trade', 'Query Single Order (TRADE) … Weight(IP): 1')),
    ep('openOrders', 'GET', '/eapi/v1/openOrders', 'private', [bySymbol(1, 40)], doc('trade', 'Query Current Open Option Orders (USER_DATA) … Weight: 1 for a single symbol; 40 when the symbol parameter is omitted')),
    ep('historyOrders', 'GET', '/eapi/v1/historyOrders', 'private', [weight(3)], doc('trade', 'Query Option Order History (TRADE) … Weight(IP): 3')),
    ep('position', 'GET', '/eapi/v1/position', 'private', [weight(5)], doc('trade', 'Option Position Information (USER_DATA) … Weight(IP): 5')),
    ep('userTrades', 'GET', '/eapi/v1/userTrades', 'private', [weight(5)], doc('trade', 'Account Trade List (USER_DATA) … Weight(IP): 5')),
    ep('exerciseRecord', 'GET', '/eapi/v1/exerciseRecord', 'private', [weight(5)], doc('trade', 'User Exercise Record (USER_DATA) … Weight(IP): 5')),
    ep('commission', 'GET', '/eapi/v1/commission', 'private', [weight(5)], doc('trade', 'User Commission (USER_DATA) … Weight(IP): 5')),
    ep('marginAccount', 'GET', '/eapi/v1/marginAccount', 'private', [weight(3)], doc('account', 'Option Margin Account Information (USER_DATA) … Weight(IP): 3')),
    ep('bill', 'GET', '/eapi/v1/bill', 'private', [weight(1)], doc('account', 'Account Funding Flow (USER_DATA) … Weight(IP): 1')),
    ep('mmp', 'GET', '/eapi/v1/mmp', 'private', [weight(1)], doc('marketMaker', 'Get Market Maker Protection Config (TRADE) … Weight(IP): 1')),
    ep('mmpSet', 'POST', '/eapi/v1/mmpSet', 'private', [weight(1)], doc('marketMaker', 'Set Market Maker Protection Config (TRADE) … Weight(IP): 1')),
    ep('mmpReset', 'POST', '/eapi/v1/mmpReset', 'private', [weight(1)], doc('marketMaker', 'Reset Market Maker Protection Config (TRADE) … Weight(IP): 1')),
    ep('countdownCancelAllGet', 'GET', '/eapi/v1/countdownCancelAll', 'private', [weight(1)], doc('marketMaker', 'Get Auto-Cancel All Open Orders (Kill-Switch) Config (TRADE) … Weight(IP): 1')),
    ep('countdownCancelAllSet', 'POST', '/eapi/v1/countdownCancelAll', 'private', [weight(1)], doc('marketMaker', 'Set Auto-Cancel All Open Orders (Kill-Switch) Config (TRADE) … Weight(IP): 1')),
    ep('countdownHeartBeat', 'POST', '/eapi/v1/countdownCancelAllHeartBeat', 'private', [weight(10)], doc('marketMaker', 'Auto-Cancel All Open Orders (Kill-Switch) Heartbeat (TRADE) … Weight(IP): 10')),
    ep('listenKeyStart', 'POST', '/eapi/v1/listenKey', 'private', [weight(1)], doc('userStream', 'Start User Data Stream (USER_STREAM) … Weight(IP): 1')),
    ep('listenKeyKeepalive', 'PUT', '/eapi/v1/listenKey', 'private', [weight(1)], doc('userStream', 'Keepalive User Data Stream (USER_STREAM) … Weight(IP): 1')),
    ep('listenKeyClose', 'DELETE', '/eapi/v1/listenKey', 'private', [weight(1)], doc('userStream', 'Close User Data Stream (USER_STREAM) … Weight(IP): 1')),
  ],
  feedback: [
    {
      header: 'x-mbx-used-weight-1m',
      meaning: 'used',
      buckets: ['request_weight'],
      provenance: doc('general', 'Every request will contain X-MBX-USED-WEIGHT-(intervalNum)(intervalLetter) in the response headers which has the current used weight for the IP for all request rate limiters defined.'),
    },
    {
      header: 'x-mbx-order-count-10s',
      meaning: 'used',
      buckets: ['orders_10s'],
      provenance: doc('general', 'Every order response will contain a X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter) header which has the current order count for the account for all order rate limiters defined.'),
    },
    {
      header: 'x-mbx-order-count-1m',
      meaning: 'used',
      buckets: ['orders_1m'],
      provenance: doc('general', 'Every order response will contain a X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter) header which has the current order count for the account for all order rate limiters defined.'),
    },
  ],
  errors: [
    {
      id: 'ip-ban',
      status: [418],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 120_000 },
      ],
      provenance: doc('general', 'Repeatedly violating rate limits and/or failing to back off after receiving 429s will result in an automated IP ban (HTTP status 418). IP bans are tracked and scale in duration for repeat offenders, from 2 minutes to 3 days.'),
      note: 'the options pages do not mention Retry-After; it is read when present, else the documented minimum of 2 minutes is held',
    },
    {
      id: 'too-many-orders-10s',
      status: [429],
      body: [
        { path: 'code', equals: [-1015] },
        { path: 'msg', contains: 'SECOND' },
      ],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['orders_10s'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 10_000 },
      ],
      provenance: {
        ...doc('errors', '-1015 TOO_MANY_ORDERS Too many new orders. Too many new orders; current limit is %s orders per %s.'),
        deviations: [{ value: 10000, reason: 'conservative', text: "The message names the 10 s interval; Binance states no wait: without Retry-After the account's orders are held one whole interval, 10 s" }],
      },
      note: "the message names the 10 s interval: without Retry-After the account's orders are held one whole interval",
    },
    {
      id: 'too-many-orders',
      status: [429],
      body: [{ path: 'code', equals: [-1015] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['orders_10s', 'orders_1m'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 60_000 },
      ],
      provenance: {
        ...doc('errors', '-1015 TOO_MANY_ORDERS Too many new orders. Too many new orders; current limit is %s orders per %s.'),
        deviations: [{ value: 60000, reason: 'conservative', text: "Binance states no wait: without Retry-After the account's orders are held one whole minute, the longest order interval (the message may name none)" }],
      },
      note: "the minute interval, or a message that names none: without Retry-After the account's orders are held one whole minute, the longest order interval",
    },
    {
      id: 'too-much-weight',
      body: [{ path: 'code', equals: [-1008] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 60_000 },
      ],
      provenance: {
        ...doc('errors', '-1008 TOO_MANY_REQUESTS Too many requests queued. Too much request weight used; please use the websocket for live updates to avoid polling the API. Too much request weight used; current limit is %s request weight per %s %s. Please use the websocket for live updates to avoid polling the API.'),
        deviations: [{ value: 60000, reason: 'conservative', text: 'Binance states no wait: without Retry-After the IP weight is held one whole minute, the interval of the weight limit' }],
      },
      note: 'on the options API -1008 is the weight limit (not the overload of the futures APIs): the IP weight is held, without Retry-After one whole minute',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 60_000 },
      ],
      provenance: {
        ...doc('general', "A 429 will be returned when either rate limit is violated. … When a 429 is received, it's your obligation as an API to back off and not spam the API."),
        deviations: [{ value: 60000, reason: 'conservative', text: 'Binance states no wait: without Retry-After the IP weight is held one whole minute, the interval of the weight limit' }],
      },
      note: 'without Retry-After the IP weight is held one whole minute, the weight interval',
    },
    {
      id: 'waf',
      status: [403],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 300_000 },
      ],
      provenance: { source: 'apiFaq', confidence: 'uncertain', quote: "Web Application Firewall limitations will only be applied by IP. Usually, a WAF ban will have a duration of 5 minutes. However, if the server has interpreted a user's request as malicious, it may be extended." },
      note: 'the general info: "HTTP 403 return code is used when the WAF Limit (Web Application Firewall) has been violated." It gives no duration; the Binance API FAQ\'s usual 5 minutes is held',
    },
  ],
  pricedElsewhere: binancePricedElsewhere('binance-options'),
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      { other: 'ccxt 4.5.84 binance.js (eapiPublic)', what: 'GET /eapi/v1/depth weight', ours: '2 / 5 / 10 / 20 by limit', theirs: '1 flat', verdict: "the pages' table; ccxt under-charges deep books" },
      { other: 'ccxt 4.5.84 binance.js (eapiPublic)', what: 'GET /eapi/v1/ticker weight without symbol', ours: '40', theirs: '5', verdict: 'the page: 40 when the symbol parameter is omitted; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (eapiPublic)', what: 'GET /eapi/v1/openInterest weight', ours: '0', theirs: '3', verdict: 'the page says Weight(IP): 0; ccxt over-charges' },
      { other: 'ccxt 4.5.84 binance.js (eapiPrivate)', what: 'DELETE /eapi/v1/batchOrders, /allOpenOrders and /allOpenOrdersByUnderlying weight', ours: '5, 5, 5', theirs: '1, 1, 1', verdict: 'the pages (2026: 5, 1, 5; November 2025: 1, 5, 1), the higher of each charged; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (eapiPrivate)', what: 'POST /eapi/v1/order', ours: '0 IP weight, 1 on each order limit', theirs: 'cost 1 on the shared limiter', verdict: 'the page: Weight(IP): 0; ccxt does not model the order limits' },
      { other: 'ccxt 4.5.84 binance.js', what: 'REQUEST_WEIGHT per minute', ours: '2400', theirs: '1200 (rateLimit 50 ms with cost = weight, shared with every Binance API of the instance)', verdict: 'the exchangeInfo example; ccxt paces at half of it' },
      { other: 'binance-connector-js a9de9a9 (2026-07-24)', what: 'GET /eapi/v1/ticker weight', ours: '5 with symbol, 40 without', theirs: '5', verdict: 'binance-connector-python 29da329 (2026-08-21) carries the newer page (1 / 40); the higher of each is charged' },
    ],
  },
  notes: [
    "No ccxt exchange id is only Binance options (ccxt's `binance` prices /eapi with spot): the plain name `binance` stays spot; ask for `binance-options`.",
    'Block trade (market maker) endpoints and POST /eapi/v1/stock/contract are not listed: refused (unknown_endpoint).',
    'Hummingbot ships no Binance options connector: nothing to compare.',
  ],
};
