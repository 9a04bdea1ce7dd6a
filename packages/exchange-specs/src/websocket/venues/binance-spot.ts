import type { Provenance } from '../../venue-spec.js';
import type { WebSocketOperationSpec, WebSocketSpec } from '../websocket-spec.js';

/*
 * Quoted from Binance's spot API documentation, read 2026-12-01 from its source repository
 * (binance/binance-spot-api-docs @a5e0bc3, 2026-07-21): web-socket-streams.md "WebSocket Limits",
 * web-socket-api.md (rate limits, the weight of every method) and CHANGELOG.md.
 */

const DOCS_AT = 'read from binance/binance-spot-api-docs at commit a5e0bc3 (2026-07-21)';
const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });

const Q = {
  streamLimits: 'WebSocket connections have a limit of 5 incoming messages per second. A message is considered: A PING frame | A PONG frame | A JSON controlled message (e.g. subscribe, unsubscribe) | A connection that goes beyond the limit will be disconnected; IPs that are repeatedly disconnected may be banned.',
  streams: 'A single connection can listen to a maximum of 1024 streams.',
  streamConnections: 'There is a limit of **300 connections per attempt every 5 minutes per IP**.',
  apiConnections: 'There is a limit of **300 connections per attempt every 5 minutes**. The connection is per **IP address**.',
  shared: 'The WS-API and Websocket Stream now only allows 300 connections requests every 5 minutes. This limit is **per IP address**.',
  connectWeight: 'Connecting to WebSocket API costs 2 weight.',
  sameRules: 'WebSocket API is subject to the same Filter and Rate Limit rules as REST API.',
  noRaw: 'For WebSocket API, removed `RAW REQUESTS` rate limit in `exchangeInfo`, replaced it with `CONNECTIONS` rate limit, which is the limit for new Websocket connections.',
  ping: 'The WebSocket server will send a `ping frame` every 20 seconds.',
  lifetime: 'A single connection to **stream.binance.com** is only valid for 24 hours; expect to be disconnected at the 24 hour mark.',
} as const;

/** A WebSocket API method priced as its REST equivalent (the weights match method by method). */
function same(operation: string, endpoint: string, weight: string): WebSocketOperationSpec {
  return {
    operation,
    endpoint,
    paramsPath: 'params',
    excludeRestBuckets: ['raw_requests'],
    provenance: doc('wsApi', `\`${operation}\` … **Weight:** ${weight} | ${Q.sameRules}`),
  };
}

/** A WebSocket API method without a REST equivalent: its documented weight. */
function weightOnly(operation: string, weight: number, quote: string, note?: string): WebSocketOperationSpec {
  return {
    operation,
    rest: [{ restBucket: 'request_weight', cost: weight }],
    paramsPath: 'params',
    provenance: doc('wsApi', `\`${operation}\` … **Weight:** ${quote}`),
    ...(note === undefined ? {} : { note }),
  };
}

/** Binance spot WebSocket market streams and WebSocket API. */
export const binanceSpotWebSocket: WebSocketSpec = {
  id: 'binance-spot',
  venue: 'Binance',
  product: 'spot WebSocket market streams (stream.binance.com) and WebSocket API (ws-api.binance.com)',
  origin: 'hand-authored',
  sources: {
    streams: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/web-socket-streams', retrieved: '2026-12-01', note: `web-socket-streams.md "General WSS information" and "WebSocket Limits"; ${DOCS_AT}` },
    wsApiLimits: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/websocket-api/rate-limits', retrieved: '2026-12-01', note: `web-socket-api.md "Rate limits" (connection limits, IP limits); ${DOCS_AT}` },
    wsApi: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/websocket-api', retrieved: '2026-12-01', note: `web-socket-api.md, the "Weight" of every method; ${DOCS_AT}` },
    changelog: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/CHANGELOG', retrieved: '2026-12-01', note: `entries 2022-12-15, 2023-02-17 and 2023-08-25; ${DOCS_AT}` },
  },
  buckets: [
    {
      id: 'connections',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 300,
      windowMs: 300_000,
      provenance: doc('changelog', Q.shared),
      description: `connection attempts per IP, the market streams and the WebSocket API together: each page states 300 per 5 minutes per IP ("${Q.streamConnections}"; WebSocket API: "${Q.apiConnections}") and the CHANGELOG names both services in one sentence, so one shared bucket is the safe reading. How the 5 minutes move is not stated for the streams: a sliding window is the strictest reading (the safe limits are the same for every window algorithm)`,
    },
    {
      id: 'stream-messages',
      scope: 'connection',
      algorithm: 'sliding-window',
      limit: 5,
      windowMs: 1000,
      provenance: doc('streams', Q.streamLimits),
      description: 'messages a client sends on one market-stream connection, ping and pong frames included; the window is not described: sliding is the strictest reading',
    },
  ],
  caps: [{ id: 'streams-per-connection', counts: 'subscriptions', scope: 'connection', limit: 1024, provenance: doc('streams', Q.streams), description: 'streams one market-stream connection listens to, those named in a combined-stream URL included' }],
  endpoints: [
    {
      id: 'market-streams',
      url: 'wss://stream.binance.com:9443',
      auth: 'public',
      description: 'raw streams at /ws/<streamName>, combined streams at /stream?streams=…; live SUBSCRIBE / UNSUBSCRIBE',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'stream-messages', cost: 1 }],
      caps: ['streams-per-connection'],
      format: { operationPath: 'method', subscribe: ['SUBSCRIBE'], unsubscribe: ['UNSUBSCRIBE'], topicsPath: 'params', topicList: 'items' },
      serverPingIntervalMs: 20_000,
      maxLifetimeMs: 86_400_000,
    },
    {
      id: 'ws-api',
      url: 'wss://ws-api.binance.com:443/ws-api/v3',
      auth: 'public',
      description: 'requests priced like their REST equivalents (method by method the same weights), on the same per-IP REQUEST_WEIGHT and per-account ORDERS limits; no message limit is documented beyond them',
      connect: {
        charges: [{ bucket: 'connections', cost: 1 }],
        rest: [{ restBucket: 'request_weight', cost: 2, provenance: doc('wsApiLimits', Q.connectWeight) }],
      },
      messages: [],
      format: { operationPath: 'method' },
      serverPingIntervalMs: 20_000,
      maxLifetimeMs: 86_400_000,
      operations: [
        same('ping', 'ping', '1'),
        same('time', 'time', '1'),
        same('exchangeInfo', 'exchangeInfo', '20'),
        same('depth', 'depth', 'Adjusted based on the limit: | Limit | Weight | 1–100 | 5 | 101–500 | 25 | 501–1000 | 50 | 1001–5000 | 250'),
        same('trades.recent', 'trades', '25'),
        same('trades.historical', 'historicalTrades', '25'),
        same('blockTrades.historical', 'historicalBlockTrades', '25'),
        same('trades.aggregate', 'aggTrades', '4'),
        same('klines', 'klines', '2'),
        same('uiKlines', 'uiKlines', '2'),
        same('avgPrice', 'avgPrice', '2'),
        same('ticker.24hr', 'ticker24hr', 'Adjusted based on the number of requested symbols: | Symbols | Weight | 1–20 | 2 | 21–100 | 40 | 101 or more | 80 | all symbols | 80'),
        same('ticker.tradingDay', 'tickerTradingDay', '4 for each requested symbol. The weight for this request will cap at 200 once the number of `symbols` in the request is more than 50.'),
        same('ticker', 'tickerRolling', 'Adjusted based on the number of requested symbols: | Symbols | Weight | 1–50 | 4 per symbol | 51–100 | 200'),
        same('ticker.price', 'tickerPrice', 'Adjusted based on the number of requested symbols: | Parameter | Weight | `symbol` | 2 | `symbols` | 4 | none | 4'),
        same('ticker.book', 'bookTicker', 'Adjusted based on the number of requested symbols: | Parameter | Weight | `symbol` | 2 | `symbols` | 4 | none | 4'),
        same('referencePrice', 'referencePrice', '2'),
        same('order.place', 'newOrder', '1'),
        same('order.test', 'testOrder', '|Condition| Request Weight| |Without `computeCommissionRates`| 1| |With `computeCommissionRates`|20|'),
        same('order.cancel', 'cancelOrder', '1'),
        same('order.cancelReplace', 'cancelReplace', '1'),
        same('order.amend.keepPriority', 'amendKeepPriority', '4'),
        same('openOrders.cancelAll', 'cancelOpenOrders', '1'),
        same('orderList.place', 'newOco', '1'),
        same('orderList.place.oco', 'newOrderListOco', '1'),
        same('orderList.place.oto', 'newOrderListOto', '1'),
        same('orderList.place.otoco', 'newOrderListOtoco', '1'),
        same('orderList.place.opo', 'newOrderListOpo', '1'),
        same('orderList.place.opoco', 'newOrderListOpoco', '1'),
        same('orderList.cancel', 'cancelOrderList', '1'),
        same('sor.order.place', 'newSorOrder', '1'),
        same('sor.order.test', 'testSorOrder', '|Condition | Request Weight| |Without `computeCommissionRates`| 1 | |With `computeCommissionRates` |20 |'),
        same('account.status', 'account', '20'),
        same('order.status', 'queryOrder', '4'),
        same('openOrders.status', 'openOrders', 'Adjusted based on the number of requested symbols: | Parameter | Weight | `symbol` | 6 | none | 80'),
        same('allOrders', 'allOrders', '20'),
        same('orderList.status', 'queryOrderList', '4'),
        same('openOrderLists.status', 'openOrderList', '6'),
        same('allOrderLists', 'allOrderList', '20'),
        same('myTrades', 'myTrades', 'Condition| Weight| Without orderId|20| With orderId|5|'),
        same('account.rateLimits.orders', 'rateLimitOrder', '40'),
        same('account.commission', 'commission', '20'),
        weightOnly('session.logon', 2, '2'),
        weightOnly('session.status', 2, '2'),
        weightOnly('session.logout', 2, '2'),
        weightOnly('session.subscriptions', 2, '2'),
        weightOnly('userDataStream.subscribe', 2, '2'),
        weightOnly('userDataStream.subscribe.signature', 2, '2'),
        weightOnly('userDataStream.unsubscribe', 2, '2'),
        weightOnly('referencePrice.calculation', 2, '2'),
        weightOnly('order.amendments', 4, '4'),
        weightOnly('myAllocations', 20, '20'),
        weightOnly('myFilters', 40, '40'),
        weightOnly('executionRules', 40, 'Parameter | Weight | `symbol` | 2 | `symbols` | 2 for each `symbol`, capped at a max of 40 | `symbolStatus` | 40 | None | 40', 'charged 40, the largest weight of the table (the parameters are not priced)'),
        weightOnly('myPreventedMatches', 20, 'Case | Weight | If `symbol` is invalid | 2 | Querying by `preventedMatchId` | 2 | Querying by `orderId` | 20', 'charged 20, the largest weight of the table'),
      ],
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      { other: 'ccxt 4.5.84 pro/binance.js', what: 'streams per market-stream connection', ours: '1024 (spot)', theirs: 'streamLimits spot 50 connections of subscriptionLimitByStream 200 streams ("max 1024" in its comment)', verdict: 'ccxt keeps far below the cap by choice; the documentation says 1024' },
      { other: 'ccxt 4.5.84 pro/binance.js', what: 'messages per connection', ours: '5 per second, ping and pong frames included', theirs: 'not modelled (a flat ws cost of 5)', verdict: 'the documentation; ccxt does not pace WebSocket messages per connection' },
      { other: 'hummingbot binance/binance_constants.py', what: 'WebSocket limits', ours: '300 connections / 5 min per IP, 5 messages / s per connection', theirs: 'not modelled (WS_HEARTBEAT_TIME_INTERVAL 30 only)', verdict: 'the documentation' },
    ],
  },
  notes: [
    `The WebSocket API does not count RAW_REQUESTS (CHANGELOG 2023-08-25: "${Q.noRaw}"): its requests are excluded from that REST bucket.`,
    'Every WebSocket API request is priced on the REST buckets by its REST equivalent, so REST and WebSocket traffic of one IP share REQUEST_WEIGHT and of one account share ORDERS.',
    `${Q.ping} ${Q.lifetime}`,
  ],
};
