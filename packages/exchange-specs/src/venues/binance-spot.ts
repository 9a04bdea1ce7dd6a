import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';
import { binancePricedElsewhere } from './binance-paths.js';
import { explainWaits } from './binance-waits.js';

/** The docs repository commit the REST, WebSocket API and FAQ pages were read at. */
const DOCS_AT = 'read from binance/binance-spot-api-docs at commit a5e0bc3 (2026-07-21), the source of these pages';

function doc(source: string, quote: string): Provenance {
  return { source, confidence: 'documented', quote };
}

const weight = (value: number): CostRule => ({ bucket: 'request_weight', cost: { kind: 'constant', value } });

/**
 * The weight of the order placement and cancel endpoints: since 2026-04-02 a successful request
 * costs 0 weight, a failed one its documented weight (reserved at admission, unless resolved with
 * `deferred`: then recorded when the answer is a failure).
 */
const weightOnFailure = (value: number): CostRule => ({
  bucket: 'request_weight',
  cost: { kind: 'constant', value },
  charge: 'failure',
  provenance: doc('changelog', 'Request weights for the following endpoints and methods become 0 when the request is successful. Failed requests are still charged the documented weight.'),
});

/** The unfilled order count of an order placement, on both ORDERS intervals. */
const orders = (value: number): CostRule[] => [
  { bucket: 'orders_10s', cost: { kind: 'constant', value } },
  { bucket: 'orders_1d', cost: { kind: 'constant', value } },
];

/** "4 for each requested symbol ... cap at 200 once the number of symbols is more than 50". */
const perSymbolCapped: CostRule = {
  bucket: 'request_weight',
  cost: {
    kind: 'presence',
    param: 'symbol',
    present: 4,
    absent: { kind: 'table', param: 'symbols', measure: 'count', rows: Array.from({ length: 50 }, (_, i) => ({ upTo: i + 1, cost: 4 * (i + 1) })), above: 200 },
  },
};

function get(id: string, path: string, auth: 'public' | 'private', costs: readonly CostRule[], source: string, quote: string, note?: string): EndpointSpec {
  return { id, method: 'GET', path, auth, costs, provenance: doc(source, quote), ...(note === undefined ? {} : { note }) };
}

function placeList(id: string, path: string, count: number, quote: string): EndpointSpec {
  return { id, method: 'POST', path, auth: 'private', costs: [weightOnFailure(1), ...orders(count)], provenance: doc('trading', quote) };
}

/** Binance spot REST (`api.binance.com/api/v3`). */
export const binanceSpot: VenueSpec = {
  id: 'binance-spot',
  venue: 'Binance',
  product: 'spot REST API (/api/v3)',
  markets: ['spot'],
  origin: 'hand-authored',
  ccxtIds: ['binance'],
  sources: {
    limits: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/limits', retrieved: '2026-12-01', note: `rest-api.md "LIMITS"; ${DOCS_AT}` },
    general: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/general-endpoints', retrieved: '2026-12-01', note: `rest-api.md "General endpoints"; ${DOCS_AT}` },
    market: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/market-data-endpoints', retrieved: '2026-12-01', note: `rest-api.md "Market Data endpoints"; ${DOCS_AT}` },
    trading: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/trading-endpoints', retrieved: '2026-12-01', note: `rest-api.md "Trading endpoints"; ${DOCS_AT}` },
    account: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/rest-api/account-endpoints', retrieved: '2026-12-01', note: `rest-api.md "Account Endpoints"; ${DOCS_AT}` },
    wsLimits: {
      url: 'https://developers.binance.com/docs/binance-spot-api-docs/websocket-api/rate-limits',
      retrieved: '2026-12-01',
      note: `web-socket-api.md "How to interpret rate limits" (the REST and WebSocket APIs share the REQUEST_WEIGHT and ORDERS limits); ${DOCS_AT}`,
    },
    changelog: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/CHANGELOG', retrieved: '2026-12-01', note: `entries 2023-08-25, 2026-03-27 and 2026-04-02; ${DOCS_AT}` },
    errors: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/errors', retrieved: '2026-12-01', note: `errors.md; ${DOCS_AT}` },
    orderCountFaq: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/faqs/order_count_decrement', retrieved: '2026-12-01', note: `faqs/order_count_decrement.md "Spot Unfilled Order Count Rules"; ${DOCS_AT}` },
    apiFaq: {
      url: 'https://www.binance.com/en/support/faq/detail/360004492232',
      retrieved: '2026-12-01',
      note: 'Binance support FAQ "Frequently Asked Questions on API" (last updated 15 November 2024), linked from the REST API docs\' HTTP return codes; read from a stored copy',
    },
  },
  buckets: [
    {
      id: 'request_weight',
      scope: 'ip',
      algorithm: 'fixed-window-aligned',
      limit: 6000,
      windowMs: 60_000,
      provenance: doc('changelog', 'The `REQUEST_WEIGHT` rate limit for both REST and WebSocket API has been adjusted to 6,000 every minute.'),
      description: 'REQUEST_WEIGHT per IP, REST and WebSocket API together ("The limits on the API are based on the IPs, not the API keys."); windows aligned to the clock ("a `1 MINUTE` interval starts every minute", WebSocket API rate limits)',
    },
    {
      id: 'raw_requests',
      scope: 'ip',
      algorithm: 'fixed-window-aligned',
      limit: 300_000,
      windowMs: 300_000,
      provenance: doc('changelog', '`RAW_REQUESTS` rate limit increases to 300,000 per 5 minutes.'),
      description: 'RAW_REQUESTS per IP, every request counts 1 (300,000 per 5 min since 2026-04-02, 61,000 before); 5-minute windows aligned like the others ("Other intervals behave in a similar manner")',
    },
    {
      id: 'orders_10s',
      scope: 'uid',
      algorithm: 'fixed-window-aligned',
      limit: 50,
      windowMs: 10_000,
      provenance: { source: 'apiFaq', confidence: 'observed', quote: 'The order limits (currently it is 50 times/10 seconds and 160,000 times/24 hours) will be dependent on the account.' },
      description:
        'unfilled ORDERS per account, shared by its keys ("The number of unfilled orders is tracked for each account."); 50 is also the limit in the docs\' own GET /api/v3/rateLimit/order example. The live value is in exchangeInfo rateLimits. Windows at :00, :10, ... ("`10 SECOND` interval resets at 00, 10, 20... seconds of each minute")',
    },
    {
      id: 'orders_1d',
      scope: 'uid',
      algorithm: 'fixed-window-aligned',
      limit: 160_000,
      windowMs: 86_400_000,
      provenance: { source: 'apiFaq', confidence: 'observed', quote: 'The order limits (currently it is 50 times/10 seconds and 160,000 times/24 hours) will be dependent on the account.' },
      description: 'unfilled ORDERS per account per UTC day ("`1 DAY` rate limit resets at 00:00 UTC every day"); 160,000 is also the limit in the docs\' own GET /api/v3/rateLimit/order example',
    },
  ],
  global: [{ bucket: 'raw_requests', cost: { kind: 'constant', value: 1 }, provenance: doc('changelog', '`RAW_REQUESTS` rate limit increases to 300,000 per 5 minutes.') }],
  endpoints: [
    get('ping', '/api/v3/ping', 'public', [weight(1)], 'general', 'Test connectivity to the Rest API. Weight: 1'),
    get('time', '/api/v3/time', 'public', [weight(1)], 'general', 'Test connectivity to the Rest API and get the current server time. Weight: 1'),
    get('exchangeInfo', '/api/v3/exchangeInfo', 'public', [weight(20)], 'general', 'Current exchange trading rules and symbol information Weight: 20', 'the weight is 20 with or without symbol, symbols or permissions'),
    get(
      'depth',
      '/api/v3/depth',
      'public',
      [
        {
          bucket: 'request_weight',
          cost: {
            kind: 'table',
            param: 'limit',
            defaultValue: 100,
            rows: [
              { upTo: 100, cost: 5 },
              { upTo: 500, cost: 25 },
              { upTo: 1000, cost: 50 },
              { upTo: 5000, cost: 250 },
            ],
            above: 250,
          },
        },
      ],
      'market',
      'Limit | Request Weight; 1-100 | 5; 101-500 | 25; 501-1000 | 50; 1001-5000 | 250 … limit | INT | NO | Default: 100; Maximum: 5000. If limit > 5000, only 5000 entries will be returned.',
      'a limit above 5000 returns 5000 entries and is charged as 5000',
    ),
    get('trades', '/api/v3/trades', 'public', [weight(25)], 'market', 'Get recent trades. Weight: 25'),
    get('historicalTrades', '/api/v3/historicalTrades', 'public', [weight(25)], 'market', 'Get older trades. Weight: 25'),
    get('historicalBlockTrades', '/api/v3/historicalBlockTrades', 'public', [weight(25)], 'market', 'Get block trades. Weight: 25'),
    get('aggTrades', '/api/v3/aggTrades', 'public', [weight(4)], 'market', 'Get compressed, aggregate trades. Trades that fill at the time, from the same taker order, with the same price will have the quantity aggregated. Weight: 4'),
    get('klines', '/api/v3/klines', 'public', [weight(2)], 'market', 'Kline/candlestick bars for a symbol. Klines are uniquely identified by their open time. Weight: 2'),
    get('uiKlines', '/api/v3/uiKlines', 'public', [weight(2)], 'market', '`uiKlines` return modified kline data, optimized for presentation of candlestick charts. Weight: 2'),
    get('avgPrice', '/api/v3/avgPrice', 'public', [weight(2)], 'market', 'Current average price for a symbol. Weight: 2'),
    get(
      'ticker24hr',
      '/api/v3/ticker/24hr',
      'public',
      [
        {
          bucket: 'request_weight',
          cost: {
            kind: 'presence',
            param: 'symbol',
            present: 2,
            absent: {
              kind: 'table',
              param: 'symbols',
              measure: 'count',
              rows: [
                { upTo: 20, cost: 2 },
                { upTo: 100, cost: 40 },
              ],
              above: 80,
              absent: 80,
            },
          },
        },
      ],
      'market',
      'Parameter | Symbols Provided | Weight; symbol | 1 | 2; symbol parameter is omitted | 80; symbols | 1-20 | 2; 21-100 | 40; 101 or more | 80; symbols parameter is omitted | 80',
    ),
    get('tickerTradingDay', '/api/v3/ticker/tradingDay', 'public', [perSymbolCapped], 'market', '4 for each requested symbol. The weight for this request will cap at 200 once the number of `symbols` in the request is more than 50.', 'symbol or symbols is required'),
    get('tickerRolling', '/api/v3/ticker', 'public', [perSymbolCapped], 'market', '4 for each requested symbol regardless of windowSize. The weight for this request will cap at 200 once the number of `symbols` in the request is more than 50.', 'symbol or symbols is required'),
    get('tickerPrice', '/api/v3/ticker/price', 'public', [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present: 2, absent: 4 } }], 'market', 'Parameter | Symbols Provided | Weight; symbol | 1 | 2; symbol parameter is omitted | 4; symbols | Any | 4'),
    get('bookTicker', '/api/v3/ticker/bookTicker', 'public', [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present: 2, absent: 4 } }], 'market', 'Parameter | Symbols Provided | Weight; symbol | 1 | 2; symbol parameter is omitted | 4; symbols | Any | 4'),
    get('referencePrice', '/api/v3/referencePrice', 'public', [weight(2)], 'market', 'Query Reference Price … Weight: 2'),
    {
      id: 'newOrder',
      method: 'POST',
      path: '/api/v3/order',
      auth: 'private',
      costs: [weightOnFailure(1), ...orders(1)],
      provenance: doc('trading', 'Send in a new order. This adds 1 order to the `EXCHANGE_MAX_ORDERS` filter and the `MAX_NUM_ORDERS` filter. Weight: 1 Unfilled Order Count: 1'),
    },
    {
      id: 'testOrder',
      method: 'POST',
      path: '/api/v3/order/test',
      auth: 'private',
      costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'computeCommissionRates', present: 20, absent: 1 } }],
      provenance: doc('trading', 'Condition | Request Weight; Without `computeCommissionRates` | 1; With `computeCommissionRates` | 20'),
      note: 'computeCommissionRates sent at all (even false) is charged 20: the safe reading',
    },
    { id: 'cancelOrder', method: 'DELETE', path: '/api/v3/order', auth: 'private', costs: [weightOnFailure(1)], provenance: doc('trading', 'Cancel an active order. Weight: 1') },
    { id: 'cancelOpenOrders', method: 'DELETE', path: '/api/v3/openOrders', auth: 'private', costs: [weightOnFailure(1)], provenance: doc('trading', 'Cancels all active orders on a symbol. This includes orders that are part of an order list. Weight: 1') },
    {
      id: 'cancelReplace',
      method: 'POST',
      path: '/api/v3/order/cancelReplace',
      auth: 'private',
      costs: [weightOnFailure(1), ...orders(1)],
      provenance: doc('trading', 'A new order that was not attempted (i.e. when `newOrderResult: NOT_ATTEMPTED`), will still increase the unfilled order count by 1. … Weight: 1 Unfilled Order Count: 1'),
    },
    {
      id: 'amendKeepPriority',
      method: 'PUT',
      path: '/api/v3/order/amend/keepPriority',
      auth: 'private',
      costs: [weight(4)],
      provenance: doc('trading', 'Reduce the quantity of an existing open order. This adds 0 orders to the `EXCHANGE_MAX_ORDERS` filter and the `MAX_NUM_ORDERS` filter. … Weight: 4 Unfilled Order Count: 0'),
      note: 'the weight is 0 only when the amendment expires the order (CHANGELOG 2026-04-02: "Successful requests that do not cause the order to expire are still charged the documented weight"): the outcome is unknown in advance, so 4 is charged',
    },
    placeList('newOco', '/api/v3/order/oco', 2, 'Send in a new OCO. … `OCO` adds 2 orders to the `EXCHANGE_MAX_ORDERS` filter and the `MAX_NUM_ORDERS` filter. Weight: 1 Unfilled Order Count: 2'),
    placeList('newOrderListOco', '/api/v3/orderList/oco', 2, 'OCOs add 2 orders to the `EXCHANGE_MAX_ORDERS` filter and the `MAX_NUM_ORDERS` filter. Weight: 1 Unfilled Order Count: 2'),
    placeList('newOrderListOto', '/api/v3/orderList/oto', 2, 'OTOs add 2 orders to the `EXCHANGE_MAX_NUM_ORDERS` filter and `MAX_NUM_ORDERS` filter. Weight: 1 Unfilled Order Count: 2'),
    placeList('newOrderListOtoco', '/api/v3/orderList/otoco', 3, 'OTOCOs add 3 orders to the `EXCHANGE_MAX_NUM_ORDERS` filter and `MAX_NUM_ORDERS` filter. Weight: 1 Unfilled Order Count: 3'),
    placeList('newOrderListOpo', '/api/v3/orderList/opo', 2, 'OPOs add 2 orders to the EXCHANGE_MAX_NUM_ORDERS filter and MAX_NUM_ORDERS filter. Weight: 1 Unfilled Order Count: 2'),
    placeList('newOrderListOpoco', '/api/v3/orderList/opoco', 3, 'Place an OPOCO. Weight: 1 Unfilled Order Count: 3'),
    { id: 'cancelOrderList', method: 'DELETE', path: '/api/v3/orderList', auth: 'private', costs: [weightOnFailure(1)], provenance: doc('trading', 'Cancel an entire Order list Weight: 1') },
    placeList('newSorOrder', '/api/v3/sor/order', 1, 'Places an order using smart order routing (SOR). This adds 1 order to the `EXCHANGE_MAX_ORDERS` filter and the `MAX_NUM_ORDERS` filter. … Weight: 1 Unfilled Order Count: 1'),
    {
      id: 'testSorOrder',
      method: 'POST',
      path: '/api/v3/sor/order/test',
      auth: 'private',
      costs: [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'computeCommissionRates', present: 20, absent: 1 } }],
      provenance: doc('trading', 'Condition | Request Weight; Without `computeCommissionRates` | 1; With `computeCommissionRates` | 20'),
    },
    get('queryOrder', '/api/v3/order', 'private', [weight(4)], 'account', "Check an order's status. Weight: 4"),
    get('openOrders', '/api/v3/openOrders', 'private', [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present: 6, absent: 80 } }], 'account', 'Weight: 6 for a single symbol; 80 when the symbol parameter is omitted'),
    get('allOrders', '/api/v3/allOrders', 'private', [weight(20)], 'account', 'Get all account orders; active, canceled, or filled. Weight: 20'),
    get('queryOrderList', '/api/v3/orderList', 'private', [weight(4)], 'account', 'Retrieves a specific order list based on provided optional parameters. Weight: 4'),
    get('allOrderList', '/api/v3/allOrderList', 'private', [weight(20)], 'account', 'Retrieves all order lists based on provided optional parameters. … Weight: 20'),
    get('openOrderList', '/api/v3/openOrderList', 'private', [weight(6)], 'account', 'Query Open Order lists (USER_DATA) … Weight: 6'),
    get('account', '/api/v3/account', 'private', [weight(20)], 'account', 'Get current account information. Weight: 20'),
    get('myTrades', '/api/v3/myTrades', 'private', [{ bucket: 'request_weight', cost: { kind: 'presence', param: 'orderId', present: 5, absent: 20 } }], 'account', 'Condition | Weight; Without orderId | 20; With orderId | 5'),
    get('commission', '/api/v3/account/commission', 'private', [weight(20)], 'account', 'Get current account commission rates. Weight: 20'),
    get('rateLimitOrder', '/api/v3/rateLimit/order', 'private', [weight(40)], 'account', "Displays the user's unfilled order count for all intervals. Weight: 40"),
  ],
  feedback: [
    {
      header: 'x-mbx-used-weight-1m',
      meaning: 'used',
      buckets: ['request_weight'],
      provenance: doc('limits', 'Every request will contain `X-MBX-USED-WEIGHT-(intervalNum)(intervalLetter)` in the response headers which has the current used weight for the IP for all request rate limiters defined.'),
    },
    {
      header: 'x-mbx-order-count-10s',
      meaning: 'used',
      buckets: ['orders_10s'],
      provenance: doc('limits', 'Every successful order response will contain a `X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter)` header indicating how many orders you have placed for that interval.'),
    },
    {
      header: 'x-mbx-order-count-1d',
      meaning: 'used',
      buckets: ['orders_1d'],
      provenance: doc('limits', 'Every successful order response will contain a `X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter)` header indicating how many orders you have placed for that interval.'),
    },
  ],
  errors: explainWaits('binance-spot', [
    {
      id: 'ip-ban',
      status: [418],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight', 'raw_requests'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 120_000 },
      ],
      provenance: doc(
        'limits',
        'IP bans are tracked and scale in duration for repeat offenders, from 2 minutes to 3 days. A `Retry-After` header is sent with a 418 or 429 responses and will give the number of seconds required to wait, in the case of a 429, to prevent a ban, or, in the case of a 418, until the ban is over.',
      ),
      note: 'automatic IP ban after 429s were ignored; without Retry-After the documented minimum of 2 minutes is held',
    },
    {
      id: 'too-many-orders-day',
      status: [429],
      body: [
        { path: 'code', equals: [-1015] },
        { path: 'msg', contains: 'DAY' },
      ],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['orders_1d'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'window-end', windowMs: 86_400_000 },
      ],
      provenance: doc('wsLimits', 'For example, `1 DAY` rate limit resets at 00:00 UTC every day, … If you exhaust a longer interval, you will have to wait for that interval to reset, even if shorter rate limit count is zero.'),
      note: 'the message names the interval ("Too many new orders; current limit is %s orders per %s.", errors.md) and the unfilled order count FAQ says "please stop sending orders until the affected rate limit interval expires": without Retry-After the account\'s orders are held until 00:00 UTC',
    },
    {
      id: 'too-many-orders',
      status: [429],
      body: [{ path: 'code', equals: [-1015] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['orders_10s'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'window-end', windowMs: 10_000 },
      ],
      provenance: doc(
        'orderCountFaq',
        'When an order is rejected by the system due to the unfilled order rate limit, the HTTP status code is set to `429 Too Many Requests` and the error code is `-1015 "Too many new orders"`. If you encounter these errors, please stop sending orders until the affected rate limit interval expires.',
      ),
      note: 'the REST docs said "you will receive a 429 error without the `Retry-After` header" until 2025-12-17 and "with" since: without one, orders are held to the end of the 10 s interval ("resets at 00, 10, 20... seconds of each minute"), at most 10 s. A message that names no interval ("Too many new orders.") is read as the 10 s one: the day count is synced from X-MBX-ORDER-COUNT-1D on every successful order, and a day-limit refusal that names its interval is held until 00:00 UTC by the rule before',
    },
    {
      id: 'too-much-weight',
      status: [429],
      body: [{ path: 'msg', contains: 'request weight' }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'window-end', windowMs: 60_000 },
      ],
      provenance: doc('errors', '-1003 TOO_MANY_REQUESTS … Too much request weight used; current limit is %s request weight per %s. Please use WebSocket Streams for live updates to avoid polling the API.'),
      note: 'without Retry-After the weight is held to the end of the minute ("Once the 00:02:00 minute starts, the count will reset to zero again", WebSocket API rate limits)',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['request_weight', 'raw_requests'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'window-end', windowMs: 300_000 },
      ],
      provenance: doc('limits', "Requests fail with HTTP status code 429 when you exceed the request rate limit. … When a 429 is received, it's your obligation as an API to back off and not spam the API."),
      note: 'a 429 that does not say it is the weight (RAW_REQUESTS, "Too many requests queued.") holds both IP buckets, without Retry-After to the end of the 5-minute interval, the longest IP window: sending again before the venue\'s window resets risks the 418 ban',
    },
    {
      id: 'waf',
      status: [403],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight', 'raw_requests'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 300_000 },
      ],
      provenance: { source: 'apiFaq', confidence: 'observed', quote: "Web Application Firewall limitations will only be applied by IP. Usually, a WAF ban will have a duration of 5 minutes. However, if the server has interpreted a user's request as malicious, it may be extended." },
      note: 'HTTP 403 "is used when a WAF (Web Application Firewall) rule has been violated. This can indicate a rate limit violation or a security block." (REST API docs, HTTP Return Codes): the IP is held for the usual 5 minutes unless Retry-After says otherwise',
    },
    {
      id: 'order-rejected',
      body: [{ path: 'code', equals: [-1010, -2010, -2011, -2038] }],
      verdict: 'error',
      counted: true,
      provenance: doc('errors', 'Messages for -1010 ERROR_MSG_RECEIVED, -2010 NEW_ORDER_REJECTED, -2011 CANCEL_REJECTED, and -2038 ORDER_AMEND_REJECTED: This code is sent when an error has been returned by the matching engine.'),
      note: 'the order, cancel or amendment failed (HTTP 4XX, "the issue is on the sender\'s side"): its request weight is charged ("Failed requests are still charged the documented weight.", CHANGELOG 2026-03-27); any other 4XX or 5XX answer is read as a failure too (a 5XX\'s "execution status is UNKNOWN": the safe reading)',
    },
    {
      id: 'server-busy',
      body: [{ path: 'code', equals: [-1008] }],
      verdict: 'overloaded',
      counted: true,
      provenance: doc('errors', '-1008 SERVER_BUSY Server is currently overloaded with other requests. Please try again in a few minutes.'),
      note: 'whether it counts is not documented for spot: counted (the safe reading); "a few minutes" names no duration, so nothing is held',
    },
  ]),
  pricedElsewhere: binancePricedElsewhere('binance-spot'),
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'orders_10s limit (unfilled orders per 10 s per account)', was: '100', now: '50', source: 'apiFaq' },
      { what: 'orders_1d limit (unfilled orders per day per account)', was: '200,000', now: '160,000', source: 'apiFaq' },
      { what: '429 -1015 without Retry-After', was: 'no hold', now: 'orders held to the end of the 10 s interval (at most 10 s); to 00:00 UTC when the message names the DAY interval', source: 'orderCountFaq' },
      { what: '429 without Retry-After (weight or raw requests)', was: 'no hold', now: 'held to the end of the minute (weight) or of the 5-minute interval (other 429s)', source: 'limits' },
      { what: 'HTTP 403 (WAF)', was: 'error, no hold', now: 'banned: the IP buckets held 5 minutes (or Retry-After)', source: 'apiFaq' },
      { what: 'GET /api/v3/depth limit above 5000', was: 'refused as an invalid parameter', now: 'weight 250 (the venue returns 5000 entries)', source: 'market' },
    ],
    crossChecks: [
      { other: 'hummingbot binance/binance_constants.py', what: 'ORDERS per 10 s', ours: '50', theirs: '100', verdict: "Binance's FAQ and its rateLimit/order example say 50; Hummingbot keeps the older 100, which over-admits" },
      { other: 'hummingbot binance/binance_constants.py', what: 'ORDERS per day', ours: '160,000', theirs: '200,000', verdict: "Binance's FAQ and its rateLimit/order example say 160,000" },
      { other: 'hummingbot binance/binance_constants.py', what: 'RAW_REQUESTS per 5 min', ours: '300,000', theirs: '61,000', verdict: 'CHANGELOG 2026-03-27: 300,000 since 2026-04-02; Hummingbot predates it (safe side there)' },
      { other: 'hummingbot binance/binance_constants.py', what: 'GET /api/v3/depth weight', ours: '5 / 25 / 50 / 250 by limit', theirs: '100 flat', verdict: "the docs' table; Hummingbot over-charges" },
      { other: 'hummingbot binance/binance_constants.py', what: '/api/v3/order weight (one limit for every method)', ours: 'POST 1 and DELETE 1 on failure only, GET 4', theirs: '4 for POST, GET and DELETE', verdict: 'the docs: new order and cancel weigh 1 (0 when successful since 2026-04-02), query order 4' },
      { other: 'hummingbot binance/binance_constants.py', what: 'GET /api/v3/ticker/bookTicker and /ticker/price weight with a symbol', ours: '2', theirs: '4', verdict: "the docs' table: 2 for one symbol, 4 without or with symbols" },
      { other: 'ccxt 4.5.84 binance.js', what: 'GET /api/v3/trades and /historicalTrades weight', ours: '25', theirs: '10 (cost 2 at 0.2 per weight)', verdict: 'the docs say 25; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js', what: 'GET /api/v3/aggTrades weight', ours: '4', theirs: '2 (cost 0.4)', verdict: 'the docs say 4; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js', what: 'GET /api/v3/myTrades weight with orderId', ours: '5', theirs: '20 (cost 4, flat)', verdict: "the docs' table: 5 with orderId, 20 without" },
      { other: 'ccxt 4.5.84 binance.js', what: 'GET /api/v3/ticker/24hr weight with symbols', ours: '2 / 40 / 80 by count', theirs: '80 (noSymbol: 16)', verdict: "the docs' table; ccxt over-charges small symbols lists" },
      { other: 'ccxt 4.5.84 binance.js', what: 'GET /api/v3/ticker and /ticker/tradingDay weight', ours: '4 per symbol, at most 200', theirs: '2 per request, 80 without symbol (ticker); 4 (tradingDay)', verdict: 'the docs: 4 for each requested symbol, capped at 200; ccxt under-charges symbols lists' },
      { other: 'ccxt 4.5.84 binance.js', what: 'order placement and cancel weight', ours: '1 on failure only (0 on success)', theirs: '1 (cost 0.2) always', verdict: 'CHANGELOG 2026-03-27; ccxt over-charges successful orders' },
      { other: 'ccxt 4.5.84 binance.js', what: 'unfilled order count limits', ours: '50 / 10 s and 160,000 / day per account', theirs: 'not modelled', verdict: 'the FAQ; ccxt paces orders by weight only' },
    ],
  },
  notes: [
    'Order placement and cancel weight is charged by Binance only when the request fails (CHANGELOG 2026-03-27, in force since 2026-04-02 07:00 UTC): resolved with `deferred`, it is admitted without reserving it, within a bound on what may be in flight, and recorded when the answer is a failure; without `deferred` it is reserved on every order.',
    'The ORDERS limits can differ per account: read the live values from GET /api/v3/exchangeInfo (rateLimits) or GET /api/v3/rateLimit/order.',
    '/sapi endpoints (wallet, sub-accounts, margin, Simple Earn) have per-endpoint IP and UID weights of their own: they are priced by `binance-sapi`, and a /sapi path sent to this spec is refused naming it (as /fapi, /dapi and /eapi paths name `binance-usdm`, `binance-coinm` and `binance-options`).',
  ],
};
