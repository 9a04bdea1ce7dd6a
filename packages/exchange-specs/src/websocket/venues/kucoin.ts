import type { Provenance } from '../../venue-spec.js';
import type { MessageFormat, WebSocketSpec } from '../websocket-spec.js';

/*
 * Quoted from KuCoin's rate-limit page ("Websocket Rate Limit"), read 2026-12-01 from a stored copy
 * of https://www.kucoin.com/docs-new/rate-limit. The page gives numbers without saying, for two of
 * them, whether they are per connection, per IP or per account: those are kept per IP, the reading
 * that is safe whichever it is.
 */

const doc = (quote: string): Provenance => ({ source: 'rateLimit', confidence: 'documented', quote });
const unsure = (quote: string): Provenance => ({ source: 'rateLimit', confidence: 'uncertain', quote });

const Q = {
  connections: '1. Number of Connections | Number of connections per user ID: ≤ 800',
  times: '2. Connection Times | Connection Limit: 30 per minute',
  messages: '3. Number of Uplink Messages | Message limit sent to the server: 100 per 10 seconds',
  batch: '4. Topic Subscription Limit | Maximum number of batch subscriptions at a time: 100 topics',
  perConnection: '5. Subscription limit for each connection | 400 topics (there is no such restriction for Futures)',
} as const;

const FORMAT: MessageFormat = { operationPath: 'type', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], ping: ['ping'], topicsPath: 'topic', topicList: 'comma-after-colon' };

/** KuCoin spot WebSocket (classic API): public and private channels, over the instance server the bullet endpoints name. */
export const kucoinWebSocket: WebSocketSpec = {
  id: 'kucoin',
  venue: 'KuCoin',
  product: 'spot WebSocket (public and private channels)',
  origin: 'hand-authored',
  sources: {
    rateLimit: { url: 'https://www.kucoin.com/docs-new/rate-limit', retrieved: '2026-12-01', note: '"Websocket Rate Limit" section; read from a stored copy of the page' },
  },
  buckets: [
    {
      id: 'connections',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 30,
      windowMs: 60_000,
      provenance: unsure(Q.times),
      description: "connection attempts: the page states 30 per minute without a scope (per user ID, like the section's first number, or per IP); one bucket per IP is safe in either reading. Sliding window: the strictest",
    },
    {
      id: 'messages',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 100,
      windowMs: 10_000,
      provenance: unsure(Q.messages),
      description: 'messages sent to the server: 100 per 10 s without a scope (per connection or per user); one bucket for every connection of the IP is safe in either reading. Sliding window: the strictest',
    },
  ],
  caps: [
    { id: 'connections-per-user', counts: 'connections', scope: 'uid', limit: 800, provenance: doc(Q.connections) },
    { id: 'topics-per-message', counts: 'topics-per-message', scope: 'connection', limit: 100, provenance: doc(Q.batch) },
    { id: 'topics-per-connection', counts: 'subscriptions', scope: 'connection', limit: 400, provenance: doc(Q.perConnection), description: 'spot (the futures service has no such restriction)' },
  ],
  endpoints: [
    {
      id: 'public',
      url: 'wss://ws-api-spot.kucoin.com',
      auth: 'public',
      description: 'connect with the token of POST /api/v1/bullet-public (a REST request, paced by the REST spec) to the instance server it names',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'messages', cost: 1 }],
      caps: ['topics-per-message', 'topics-per-connection'],
      format: FORMAT,
    },
    {
      id: 'private',
      url: 'wss://ws-api-spot.kucoin.com',
      auth: 'private',
      description: 'connect with the token of POST /api/v1/bullet-private',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'messages', cost: 1 }],
      caps: ['connections-per-user', 'topics-per-message', 'topics-per-connection'],
      format: FORMAT,
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      { other: 'hummingbot kucoin/kucoin_constants.py', what: 'connection attempts', ours: '30 per minute (per IP)', theirs: '30 per 60 s (WS_CONNECTION_LIMIT)', verdict: 'agrees' },
      { other: 'hummingbot kucoin/kucoin_constants.py', what: 'messages sent to the server', ours: '100 per 10 s (per IP)', theirs: '100 per 10 s (WS_REQUEST_LIMIT, one limit for the connector)', verdict: 'agrees' },
    ],
  },
  notes: ['Each connection needs a token from POST /api/v1/bullet-public or /bullet-private (REST, 10 weight of the public or spot pool); a token is valid 24 hours and may be reused for reconnects.'],
};
