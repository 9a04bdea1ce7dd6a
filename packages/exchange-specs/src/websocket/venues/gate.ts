import type { WebSocketSpec } from '../websocket-spec.js';

/*
 * Gate's WebSocket v4 documentation states no connection, message or subscription limit. The one
 * number is a Gate maintainer's answer in Gate's own WebSocket SDK repository (gateio/gatews issue
 * 25), read 2026-12-01: recommended at most 100 connections from one host.
 */

const Q = {
  answer: '1. No limit on subscriptions | 2. No limit for message sent | 3. No connections limit for now, but 100 connections at most from one host are recommended.',
} as const;

/** Gate API v4 WebSocket: spot and USDT futures. */
export const gateWebSocket: WebSocketSpec = {
  id: 'gate',
  venue: 'Gate',
  product: 'WebSocket v4 (spot, USDT futures)',
  origin: 'hand-authored',
  sources: {
    maintainer: { url: 'https://github.com/gateio/gatews/issues/25', retrieved: '2026-12-01', note: 'answer of a collaborator of gateio/gatews (Gate\'s WebSocket SDK) to "spot websocket v4 api limits", 2022-02' },
  },
  buckets: [],
  caps: [
    {
      id: 'connections',
      counts: 'connections',
      scope: 'ip',
      limit: 100,
      provenance: { source: 'maintainer', confidence: 'observed', quote: Q.answer },
      description: 'open connections per host (IP), the recommended maximum',
    },
  ],
  endpoints: [
    { id: 'spot', url: 'wss://api.gateio.ws/ws/v4/', auth: 'public', connect: { charges: [] }, messages: [], caps: ['connections'], format: { operationPath: 'event', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], topicsPath: 'payload', topicList: 'items', topicPrefixPath: 'channel' } },
    { id: 'futures-usdt', url: 'wss://fx-ws.gateio.ws/v4/ws/usdt', auth: 'public', connect: { charges: [] }, messages: [], caps: ['connections'], format: { operationPath: 'event', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], topicsPath: 'payload', topicList: 'items', topicPrefixPath: 'channel' } },
  ],
  verification: { checked: '2026-12-01', corrections: [], crossChecks: [] },
  notes: [
    'The same answer: "the server will actively close the connection if the client cannot consume the update in time" when one connection carries many subscriptions.',
    'Not modelled: order entry over the WebSocket API (spot.order_place...), whose operation is named in the channel field; the documentation read states no limit for it.',
  ],
};
