import type { Provenance } from '../../venue-spec.js';
import type { MessageFormat, WebSocketSpec } from '../websocket-spec.js';

/*
 * Quoted from Bitget's WebSocket API introduction ("Connect"), read 2026-12-01 from a stored copy of
 * https://www.bitget.com/api-doc/common/websocket-intro (the same text as the changelog entry
 * "[Nov 22,2024] Websocket connection limit update").
 */

const doc = (quote: string): Provenance => ({ source: 'intro', confidence: 'documented', quote });

const Q = {
  connection: 'Connection limit: 300 connection requests/IP/5min, Max 100 connections/IP',
  subscription: 'Subscription limit: 240 subscription requests/Hour/connection, Max 1000 channel subscription/connection',
  messages: 'The Websocket server accepts up to 10 messages per second. The message includes: String "ping" | JSON message, such as subscribe, unsubscribe | If the user sends more messages than the limit, the connection will be disconnected.',
} as const;

const FORMAT: MessageFormat = { operationPath: 'op', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], login: ['login'], topicsPath: 'args', topicList: 'items', text: { ping: 'ping' } };

/** Bitget v2 WebSocket: public and private services. */
export const bitgetWebSocket: WebSocketSpec = {
  id: 'bitget',
  venue: 'Bitget',
  product: 'v2 WebSocket (public, private)',
  origin: 'hand-authored',
  sources: {
    intro: { url: 'https://www.bitget.com/api-doc/common/websocket-intro', retrieved: '2026-12-01', note: 'read from a stored copy of the page' },
  },
  buckets: [
    { id: 'connections', scope: 'ip', algorithm: 'sliding-window', limit: 300, windowMs: 300_000, provenance: doc(Q.connection), description: 'connection requests per IP per 5 minutes (sliding: the strictest reading)' },
    {
      id: 'subscribe-requests',
      scope: 'connection',
      algorithm: 'sliding-window',
      limit: 240,
      windowMs: 3_600_000,
      provenance: doc(Q.subscription),
      description: 'subscription requests per connection per hour; unsubscribe requests are counted too (the safe reading)',
    },
    { id: 'messages', scope: 'connection', algorithm: 'sliding-window', limit: 10, windowMs: 1000, provenance: doc(Q.messages), description: 'messages per connection per second, ping text included (the connection is disconnected beyond it)' },
  ],
  caps: [
    { id: 'connections', counts: 'connections', scope: 'ip', limit: 100, provenance: doc(Q.connection) },
    { id: 'channels-per-connection', counts: 'subscriptions', scope: 'connection', limit: 1000, provenance: doc(Q.subscription) },
  ],
  endpoints: [
    {
      id: 'public',
      url: 'wss://ws.bitget.com/v2/ws/public',
      auth: 'public',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [
        { bucket: 'messages', cost: 1 },
        { bucket: 'subscribe-requests', kinds: ['subscribe', 'unsubscribe'], cost: 1 },
      ],
      caps: ['connections', 'channels-per-connection'],
      format: FORMAT,
    },
    {
      id: 'private',
      url: 'wss://ws.bitget.com/v2/ws/private',
      auth: 'private',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [
        { bucket: 'messages', cost: 1 },
        { bucket: 'subscribe-requests', kinds: ['subscribe', 'unsubscribe'], cost: 1 },
      ],
      caps: ['connections', 'channels-per-connection'],
      format: FORMAT,
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [{ other: 'hummingbot bitget/bitget_constants.py', what: 'WebSocket limits', ours: '300 connections / 5 min and 100 open per IP; 10 messages / s and 240 subscribe requests / h per connection', theirs: 'not modelled (WS_HEARTBEAT_TIME_INTERVAL 30 only)', verdict: 'the documentation' }],
  },
  notes: ['"Websocket will be forcibly disconnected every 24 hours, please add the reconnection mechanism in your code"; Bitget recommends subscribing to fewer than 50 channels per connection.'],
};
