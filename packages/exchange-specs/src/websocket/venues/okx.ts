import type { Provenance } from '../../venue-spec.js';
import type { WebSocketOperationSpec, WebSocketSpec } from '../websocket-spec.js';

/*
 * Quoted from OKX's API v5 documentation (one page, https://www.okx.com/docs-v5/en/), read
 * 2026-12-01 from stored copies of the page: the WebSocket overview (Connect, Connection count limit,
 * Subscribe), the WebSocket trade operations and the WebSocket error codes.
 */

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });

const Q = {
  connections: 'Connection limit: 3 requests per second (based on IP)',
  requests: "Request limit: The total number of 'subscribe'/'unsubscribe'/'login' requests per connection is limited to 480 times per hour.",
  length: 'Users can choose to subscribe to one or more channels, and the total length of multiple channels cannot exceed 64 KB.',
  order: 'WS / Place order | Rate Limit: 60 requests per 2 seconds | Rate limit rule (except Options): User ID + Instrument ID | Rate limit is shared with the `Place order` REST API endpoints',
  batchOrders: 'WS / Place multiple orders | If there is only one order in the request, it will consume the rate limit of `Place order`. Rate limit is shared with the `Place multiple orders` REST API endpoints',
  cancel: 'WS / Cancel order | Rate Limit: 60 requests per 2 seconds | Rate limit is shared with the `Cancel order` REST API endpoints',
  batchCancel: 'WS / Cancel multiple orders | If there is only one order in the request, it will consume the rate limit of `Cancel order`. Rate limit is shared with the `Cancel multiple orders` REST API endpoints',
  amend: 'WS / Amend order | Rate Limit: 60 requests per 2 seconds | Rate limit is shared with the `Amend order` REST API endpoints',
  batchAmend: 'WS / Amend multiple orders | Rate Limit: 300 orders per 2 seconds | Rate limit is shared with the `Amend multiple orders` REST API endpoints.',
  countLimit: 'The limit will be set at 30 WebSocket connections per specific WebSocket channel per sub-account.',
  frame: '1009 | Request message exceeds the maximum frame length | 4003 | APIKey subscription amount exceeds the limit 100',
} as const;

const INST_ID = 'the REST limit is per instrument (instId): an order that names its instrument only by instIdCode cannot be priced and is refused (missing parameter)';

function op(operation: string, endpoint: string, paramsPath: string, quote: string): WebSocketOperationSpec {
  return { operation, endpoint, paramsPath, provenance: doc('wsTrade', quote), note: INST_ID };
}

/** OKX API v5 WebSocket: public, private and business services. */
export const okxWebSocket: WebSocketSpec = {
  id: 'okx',
  venue: 'OKX',
  product: 'API v5 WebSocket (public, private with order entry, business)',
  origin: 'hand-authored',
  sources: {
    connect: { url: 'https://www.okx.com/docs-v5/en/#overview-websocket-connect', retrieved: '2026-12-01', note: 'WebSocket overview: "Connect", "Connection count limit", "Subscribe"; read from a stored copy of the page' },
    wsTrade: { url: 'https://www.okx.com/docs-v5/en/#order-book-trading-trade-ws-place-order', retrieved: '2026-12-01', note: 'the "WS / …" order operations (place, place multiple, cancel, cancel multiple, amend, amend multiple), stored copies of the pages updated 2026-07' },
    wsErrors: { url: 'https://www.okx.com/docs-v5/en/#error-code-websocket-public', retrieved: '2026-12-01', note: 'WebSocket error codes and close frames; read from a stored copy of the page' },
  },
  buckets: [
    {
      id: 'connections',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 3,
      windowMs: 1000,
      provenance: doc('connect', Q.connections),
      description: 'connection attempts per IP, every service together; how the second moves is not stated: sliding is the strictest reading',
    },
    {
      id: 'control-requests',
      scope: 'connection',
      algorithm: 'sliding-window',
      limit: 480,
      windowMs: 3_600_000,
      provenance: doc('connect', Q.requests),
      description: 'subscribe, unsubscribe and login requests per connection per hour (sliding: the strictest reading)',
    },
  ],
  caps: [
    {
      id: 'subscribe-length',
      counts: 'message-bytes',
      scope: 'connection',
      limit: 64_000,
      kinds: ['subscribe', 'unsubscribe'],
      provenance: { ...doc('connect', Q.length), deviations: [{ value: 64_000, reason: 'conservative', text: '"64 KB" read as the smaller 64,000 bytes (not 65,536)' }] },
      description: 'the channels of one subscribe request: the whole message is held to 64,000 bytes (64 KB read as the smaller 64,000, and the message is longer than its channels: both on the safe side)',
    },
  ],
  endpoints: [
    {
      id: 'public',
      url: 'wss://ws.okx.com:8443/ws/v5/public',
      auth: 'public',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'control-requests', kinds: ['subscribe', 'unsubscribe', 'login'], cost: 1 }],
      caps: ['subscribe-length'],
      format: { operationPath: 'op', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], login: ['login'], topicsPath: 'args', topicList: 'items', text: { ping: 'ping' } },
    },
    {
      id: 'private',
      url: 'wss://ws.okx.com:8443/ws/v5/private',
      auth: 'private',
      description: 'private channels and order entry; orders spend the REST per-instrument and sub-account limits',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'control-requests', kinds: ['subscribe', 'unsubscribe', 'login'], cost: 1 }],
      caps: ['subscribe-length'],
      format: { operationPath: 'op', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], login: ['login'], topicsPath: 'args', topicList: 'items', text: { ping: 'ping' } },
      operations: [
        op('order', 'place-order', 'args.0', Q.order),
        op('batch-orders', 'batch-orders', 'args', Q.batchOrders),
        op('cancel-order', 'cancel-order', 'args.0', Q.cancel),
        op('batch-cancel-orders', 'cancel-batch-orders', 'args', Q.batchCancel),
        op('amend-order', 'amend-order', 'args.0', Q.amend),
        op('batch-amend-orders', 'amend-batch-orders', 'args', Q.batchAmend),
      ],
    },
    {
      id: 'business',
      url: 'wss://ws.okx.com:8443/ws/v5/business',
      auth: 'public',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'control-requests', kinds: ['subscribe', 'unsubscribe', 'login'], cost: 1 }],
      caps: ['subscribe-length'],
      format: { operationPath: 'op', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], login: ['login'], topicsPath: 'args', topicList: 'items', text: { ping: 'ping' } },
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      { other: 'hummingbot okx/okx_constants.py', what: 'subscribe/unsubscribe/login requests per connection', ours: '480 per hour', theirs: '240 per hour (WS_SUBSCRIPTION_LIMIT) and 1 login per 15 s', verdict: 'the documentation says 480 per hour; Hummingbot keeps a stricter budget of its own' },
      { other: 'hummingbot okx/okx_constants.py', what: 'connection attempts per IP', ours: '3 per second', theirs: '3 per second', verdict: 'agrees' },
    ],
  },
  notes: [
    `Not modelled: ${Q.countLimit} (orders, account, positions and other private channels; OKX answers channel-conn-count-error). Keep private subscriptions of one channel on fewer than 30 connections per sub-account.`,
    `Close frames documented without a number or scope this spec can price: ${Q.frame}.`,
    'OKX answers a ping text with pong; "The connection will break automatically if the subscription is not established or data has not been pushed for more than 30 seconds."',
  ],
};
