import type { Provenance } from '../../venue-spec.js';
import type { WebSocketOperationSpec, WebSocketSpec } from '../websocket-spec.js';

/*
 * Binance USDⓈ-M futures: the market-stream limits are quoted from the futures "Websocket Market
 * Streams" page (a stored copy, read 2026-12-01). The futures pages read state no connection-attempt
 * limit and no WebSocket API rate-limit rule: those numbers are the spot documentation's, marked
 * uncertain, on the safe side (shared buckets, the spot connection weight).
 */

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });
const unsure = (source: string, quote: string): Provenance => ({ source, confidence: 'uncertain', quote });

const Q = {
  messages: 'WebSocket connections have a limit of 10 incoming messages per second. | A connection that goes beyond the limit will be disconnected; IPs that are repeatedly disconnected may be banned.',
  streams: 'A single connection can listen to a maximum of 200 streams.',
  ping: 'The websocket server will send a ping frame every 3 minutes. If the websocket server does not receive a pong frame back from the connection within a 10 minute period, the connection will be disconnected.',
  spotConnections: 'The WS-API and Websocket Stream now only allows 300 connections requests every 5 minutes. This limit is **per IP address**.',
  spotSameRules: 'WebSocket API is subject to the same Filter and Rate Limit rules as REST API.',
  spotConnectWeight: 'Connecting to WebSocket API costs 2 weight.',
} as const;

/** A futures WebSocket API method priced as its REST equivalent (the spot rule, uncertain for futures). */
function same(operation: string, endpoint: string): WebSocketOperationSpec {
  return {
    operation,
    endpoint,
    paramsPath: 'params',
    provenance: unsure('spotChangelog', Q.spotSameRules),
    note: `priced as REST ${endpoint}: the futures pages read state no WebSocket API rule; the spot documentation's "same Rate Limit rules as REST API" is the nearest statement, and sharing the REST buckets is the safe reading`,
  };
}

/** Binance USDⓈ-M futures WebSocket market streams and WebSocket API. */
export const binanceUsdmWebSocket: WebSocketSpec = {
  id: 'binance-usdm',
  venue: 'Binance',
  product: 'USDⓈ-M futures WebSocket market streams (fstream.binance.com) and WebSocket API (ws-fapi.binance.com)',
  origin: 'hand-authored',
  sources: {
    streams: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-market-streams', retrieved: '2026-12-01', note: 'read from a stored copy of the page' },
    wsApi: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/websocket-api-general-info', retrieved: '2026-12-01', note: 'read from a stored copy of the page; it states the base endpoint, the 24-hour validity and the 3-minute ping frames, no rate-limit rule' },
    spotChangelog: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/CHANGELOG', retrieved: '2026-12-01', note: 'the spot documentation (binance/binance-spot-api-docs @a5e0bc3), entries 2022-12-15 and 2023-02-17: the nearest statements for what the futures pages leave unsaid' },
    spotWsApi: { url: 'https://developers.binance.com/docs/binance-spot-api-docs/websocket-api/rate-limits', retrieved: '2026-12-01', note: 'the spot WebSocket API rate limits (binance/binance-spot-api-docs @a5e0bc3)' },
  },
  buckets: [
    {
      id: 'connections',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 300,
      windowMs: 300_000,
      provenance: unsure('spotChangelog', Q.spotConnections),
      description: "connection attempts per IP, streams and WebSocket API together: the futures pages state no number; the spot documentation's 300 per 5 minutes per IP is kept (uncertain), shared by both services (the safe reading), in a sliding window (the strictest)",
    },
    {
      id: 'stream-messages',
      scope: 'connection',
      algorithm: 'sliding-window',
      limit: 10,
      windowMs: 1000,
      provenance: doc('streams', Q.messages),
      description: 'messages a client sends on one market-stream connection; the futures page does not list what counts: every message, ping and pong frames included, is counted (the spot page counts them). Sliding window: the strictest reading',
    },
  ],
  caps: [{ id: 'streams-per-connection', counts: 'subscriptions', scope: 'connection', limit: 200, provenance: doc('streams', Q.streams) }],
  endpoints: [
    {
      id: 'market-streams',
      url: 'wss://fstream.binance.com',
      auth: 'public',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'stream-messages', cost: 1 }],
      caps: ['streams-per-connection'],
      format: { operationPath: 'method', subscribe: ['SUBSCRIBE'], unsubscribe: ['UNSUBSCRIBE'], topicsPath: 'params', topicList: 'items' },
      serverPingIntervalMs: 180_000,
      maxLifetimeMs: 86_400_000,
    },
    {
      id: 'ws-api',
      url: 'wss://ws-fapi.binance.com/ws-fapi/v1',
      auth: 'public',
      connect: {
        charges: [{ bucket: 'connections', cost: 1 }],
        rest: [{ restBucket: 'request_weight', cost: 2, provenance: unsure('spotWsApi', Q.spotConnectWeight) }],
      },
      messages: [],
      format: { operationPath: 'method' },
      serverPingIntervalMs: 180_000,
      maxLifetimeMs: 86_400_000,
      operations: [
        same('depth', 'depth'),
        same('ticker.price', 'tickerPrice'),
        same('ticker.book', 'bookTicker'),
        same('order.place', 'newOrder'),
        same('order.modify', 'modifyOrder'),
        same('order.cancel', 'cancelOrder'),
        same('order.status', 'queryOrder'),
        same('account.position', 'positionRiskV3'),
        same('v2/account.position', 'positionRiskV2'),
        same('account.balance', 'balanceV3'),
        same('v2/account.balance', 'balanceV2'),
        same('account.status', 'accountV3'),
        same('v2/account.status', 'accountV2'),
      ],
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [{ other: 'ccxt 4.5.84 pro/binance.js', what: 'streams per futures connection', ours: '200', theirs: 'streamLimits future 50 connections of 200 streams ("max 200" in its comment)', verdict: 'agrees on the cap of 200' }],
  },
  notes: [Q.ping, "Connecting to the futures WebSocket API is charged 2 weight, the spot documentation's value (uncertain): the futures pages read state none."],
};
