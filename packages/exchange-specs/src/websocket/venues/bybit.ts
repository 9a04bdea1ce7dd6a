import type { Provenance } from '../../venue-spec.js';
import type { MessageFormat, WebSocketEndpointSpec, WebSocketOperationSpec, WebSocketSpec } from '../websocket-spec.js';

/*
 * Quoted from Bybit's v5 documentation, read 2026-12-01 from its source repository
 * (bybit-exchange/docs @072c197, 2026-07-24): rate-limit.mdx ("Websocket IP limit"),
 * websocket/wss-authentication.mdx (the "Connect" page: IP limits, args limits) and
 * websocket/trade/guideline.mdx (order entry).
 */

const DOCS_AT = 'bybit-exchange/docs @072c197';
const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });
const unsure = (source: string, quote: string): Provenance => ({ source, confidence: 'uncertain', quote });

const Q = {
  connections: 'Do not establish more than 500 connections within a 5-minute window. This limit applies to all connections directed to `stream.bybit.com` as well as local site hostnames such as `stream.bybit.kz`.',
  perDomain: 'Do not build over 500 connections in 5 minutes. This is counted per WebSocket domain.',
  market: 'Do not establish more than 1,000 connections per IP for market data. The connection limits are counted separately for Spot, Linear, Inverse, and Options markets',
  args: 'Regardless of Perpetual, Futures, Options or Spot, for one public connection, you cannot have length of "args" array over 21,000 characters.',
  spotArgs: 'Spot can input up to 10 args for each subscription request sent to one connection',
  optionArgs: 'Options can input up to 2000 args for a single connection',
  tradeIp: '`10403`: exceed IP rate limit. 3000 requests per second per IP',
  batchShared: 'The account rate limit is shared between websocket and http batch orders',
  header: 'X-Bapi-Limit | string | The total rate limit of the current account for this op type',
  httpIp: 'You are allowed to send 600 requests within a 5-second window per IP by default. This limit applies to all traffic directed to `api.bybit.com`, `api.bybick.com`, and local site hostnames such as `api.bybit.kz`.',
} as const;

const FORMAT: MessageFormat = { operationPath: 'op', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], login: ['auth'], ping: ['ping'], topicsPath: 'args', topicList: 'items' };

/** A public market-data endpoint: its own 1,000-connection cap per IP, the args-length cap. */
function market(product: 'spot' | 'linear' | 'inverse' | 'option', extraCaps: readonly string[] = []): WebSocketEndpointSpec {
  return {
    id: `public-${product}`,
    url: `wss://stream.bybit.com/v5/public/${product}`,
    auth: 'public',
    connect: { charges: [{ bucket: 'connections', cost: 1 }] },
    messages: [],
    caps: [`market-connections-${product}`, 'args-length', ...extraCaps],
    format: FORMAT,
  };
}

function marketCap(product: string) {
  return { id: `market-connections-${product}`, counts: 'connections' as const, scope: 'ip' as const, limit: 1000, provenance: doc('rate', Q.market), description: `open ${product} market-data connections per IP` };
}

/** An order-entry operation priced as its REST equivalent, without the HTTP IP limit (api.bybit.com only). */
function op(operation: string, endpoint: string, batch: boolean): WebSocketOperationSpec {
  return {
    operation,
    endpoint,
    paramsPath: 'args.0',
    excludeRestBuckets: ['ip'],
    provenance: batch ? doc('trade', Q.batchShared) : unsure('trade', Q.header),
    note: batch
      ? 'shared with the REST batch endpoint, per order as on REST; the HTTP IP limit (api.bybit.com) is not spent'
      : `the response reports "the total rate limit of the current account for this op type": read as the REST endpoint's account limit, shared (the safe reading; the page says so in words for batches only). The HTTP IP limit is not spent (${Q.httpIp})`,
  };
}

/** Bybit v5 WebSocket: public market data per product, private streams, order entry. */
export const bybitWebSocket: WebSocketSpec = {
  id: 'bybit',
  venue: 'Bybit',
  product: 'v5 WebSocket (public spot, linear, inverse, option; private; order entry)',
  origin: 'hand-authored',
  sources: {
    rate: { url: 'https://bybit-exchange.github.io/docs/v5/rate-limit', retrieved: '2026-12-01', note: `${DOCS_AT} docs/v5/rate-limit/rate-limit.mdx "Websocket IP limit"` },
    connect: { url: 'https://bybit-exchange.github.io/docs/v5/ws/connect', retrieved: '2026-12-01', note: `${DOCS_AT} docs/v5/websocket/wss-authentication.mdx "IP Limits", "Public channel - Args limits"` },
    trade: { url: 'https://bybit-exchange.github.io/docs/v5/websocket/trade/guideline', retrieved: '2026-12-01', note: `${DOCS_AT} docs/v5/websocket/trade/guideline.mdx` },
  },
  buckets: [
    {
      id: 'connections',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 500,
      windowMs: 300_000,
      provenance: doc('rate', Q.connections),
      description: `connection attempts per IP to stream.bybit.com, every service together ("${Q.perDomain}": one domain, one bucket); the window's motion is not stated: sliding is the strictest reading`,
    },
    {
      id: 'trade-requests',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 3000,
      windowMs: 1000,
      provenance: doc('trade', Q.tradeIp),
      description: 'order-entry requests per IP per second (sliding: the strictest reading)',
    },
  ],
  caps: [
    marketCap('spot'),
    marketCap('linear'),
    marketCap('inverse'),
    marketCap('option'),
    {
      id: 'args-length',
      counts: 'message-bytes',
      scope: 'connection',
      limit: 21_000,
      kinds: ['subscribe', 'unsubscribe'],
      provenance: doc('connect', Q.args),
      description: 'the "args" of a public connection: every subscribe message is held to 21,000 bytes (a message is longer than its args, and a character is at least a byte: the safe reading)',
    },
    { id: 'spot-args-per-request', counts: 'topics-per-message', scope: 'connection', limit: 10, provenance: doc('connect', Q.spotArgs) },
    { id: 'option-args-per-connection', counts: 'subscriptions', scope: 'connection', limit: 2000, provenance: doc('connect', Q.optionArgs) },
  ],
  endpoints: [
    market('spot', ['spot-args-per-request']),
    market('linear'),
    market('inverse'),
    market('option', ['option-args-per-connection']),
    {
      id: 'private',
      url: 'wss://stream.bybit.com/v5/private',
      auth: 'private',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [],
      format: FORMAT,
    },
    {
      id: 'trade',
      url: 'wss://stream.bybit.com/v5/trade',
      auth: 'private',
      description: "order entry: each request spends the account's REST limit of its op type and the 3,000 per second IP limit of the trade service",
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [{ bucket: 'trade-requests', kinds: ['request'], cost: 1 }],
      format: { operationPath: 'op', login: ['auth'], ping: ['ping'] },
      operations: [op('order.create', 'order-create', false), op('order.amend', 'order-amend', false), op('order.cancel', 'order-cancel', false), op('order.create-batch', 'order-create-batch', true), op('order.amend-batch', 'order-amend-batch', true), op('order.cancel-batch', 'order-cancel-batch', true)],
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [{ other: 'hummingbot bybit/bybit_constants.py', what: 'connection attempts per IP', ours: '500 per 5 minutes', theirs: '500 "Per 5 seconds" (commented out, not in force)', verdict: 'the documentation says 5 minutes; the commented constant would over-admit 60 times' }],
  },
  notes: ['Bybit asks to send a ping every 20 seconds ("we recommend that you send the ping heartbeat packet every 20 seconds"); no message rate limit per connection is documented for the public and private streams.'],
};
