import type { Deviation, Provenance } from '../../venue-spec.js';
import type { WebSocketSpec } from '../websocket-spec.js';

/*
 * Quoted from Hyperliquid's "Rate limits and user limits" page, read 2026-12-01 from a stored copy.
 * Copies of the page disagree on the connection numbers (100 connections in the copy read; 10
 * connections and 30 new connections per minute in the page as client libraries reproduce it now):
 * the smaller numbers are kept, marked uncertain.
 */

const doc = (quote: string): Provenance => ({ source: 'limits', confidence: 'documented', quote });
const unsure = (quote: string, deviations: readonly Deviation[]): Provenance => ({ source: 'limits', confidence: 'uncertain', quote, deviations });

/** Why the connection numbers differ from the copy quoted: the page as client libraries reproduce it now says less. */
const NOW_REPRODUCED = 'the copy of the page read says "Maximum of 100 websocket connections" and no rate of new connections; the page as client libraries reproduce it now says';

const Q = {
  connections: 'Maximum of 100 websocket connections',
  subscriptions: 'Maximum of 1000 websocket subscriptions',
  messages: 'Maximum of 2000 messages sent to Hyperliquid per minute across all websocket connections',
  users: 'Maximum of 10 unique users across user-specific websocket subscriptions',
  perIp: 'The following rate limits apply per IP address:',
} as const;

/** Hyperliquid WebSocket (`wss://api.hyperliquid.xyz/ws`): per-IP connection, subscription and message limits. */
export const hyperliquidWebSocket: WebSocketSpec = {
  id: 'hyperliquid',
  venue: 'Hyperliquid',
  product: 'WebSocket (subscriptions and post requests)',
  origin: 'hand-authored',
  sources: {
    limits: { url: 'https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits', retrieved: '2026-12-01', note: 'read from a stored copy of the page' },
  },
  buckets: [
    {
      id: 'messages',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 2000,
      windowMs: 60_000,
      provenance: doc(`${Q.perIp} | ${Q.messages}`),
      description: 'every message sent, on every connection of the IP (sliding: the strictest reading)',
    },
    {
      id: 'new-connections',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 30,
      windowMs: 60_000,
      provenance: unsure(`${Q.perIp} | ${Q.connections}`, [
        { value: 30, reason: 'conservative', text: `${NOW_REPRODUCED} 30 new connections per minute: kept on the safe side` },
        { value: 60_000, reason: 'conservative', text: `${NOW_REPRODUCED} 30 new connections per minute: a minute` },
      ]),
      description: 'new connections per minute per IP: the copy read states none; 30 per minute, as the page is reproduced now by client libraries, is kept on the safe side',
    },
  ],
  caps: [
    {
      id: 'connections',
      counts: 'connections',
      scope: 'ip',
      limit: 10,
      provenance: unsure(`${Q.perIp} | ${Q.connections}`, [{ value: 10, reason: 'conservative', text: `${NOW_REPRODUCED} 10 connections: the smaller is kept` }]),
      description: 'open connections per IP: 100 in the copy read, 10 in the page as reproduced now; the smaller is kept',
    },
    { id: 'subscriptions', counts: 'subscriptions', scope: 'ip', limit: 1000, provenance: doc(`${Q.perIp} | ${Q.subscriptions}`), description: 'over every connection of the IP' },
  ],
  endpoints: [
    {
      id: 'public',
      url: 'wss://api.hyperliquid.xyz/ws',
      auth: 'public',
      connect: { charges: [{ bucket: 'new-connections', cost: 1 }] },
      messages: [{ bucket: 'messages', cost: 1 }],
      caps: ['connections', 'subscriptions'],
      format: { operationPath: 'method', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], ping: ['ping'], topicsPath: 'subscription', topicList: 'items' },
    },
  ],
  verification: { checked: '2026-12-01', corrections: [], crossChecks: [] },
  notes: [`Not modelled: ${Q.users}, and at most 100 post requests in flight at once across connections (the client does not match responses to requests).`, 'Post requests (method "post") are counted as messages; the page does not say whether they also spend the REST weight, so they are not priced on it.'],
};
