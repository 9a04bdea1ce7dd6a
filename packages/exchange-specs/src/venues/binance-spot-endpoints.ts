/**
 * The endpoints of `binance-spot` (binance-spot.ts) with their weights and unfilled order counts, each
 * quoting its documentation page.
 */
import type { CostRule, EndpointSpec, Provenance } from '../venue-spec.js';

/** A documented provenance: the spec's source key and the page's words. */
export function doc(source: string, quote: string): Provenance {
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

/** Every endpoint of `binance-spot`. */
export const BINANCE_SPOT_ENDPOINTS: readonly EndpointSpec[] = [
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
];
