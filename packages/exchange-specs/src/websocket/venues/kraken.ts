import type { Provenance } from '../../venue-spec.js';
import type { MessageFormat, WebSocketOperationSpec, WebSocketSpec } from '../websocket-spec.js';

/*
 * Kraken spot WebSocket API v2. The connection limit is quoted from Kraken's WebSocket API
 * documentation (its introduction, as published with the API's AsyncAPI description), read
 * 2026-12-01; the trading limits shared by REST, WebSocket and FIX from the Spot Trading Limits guide.
 */

const Q = {
  cloudflare: 'Cloudflare imposes a connection/re-connection rate limit (per IP address) of approximately 150 attempts per rolling 10 minutes. If this is exceeded, the IP is banned for 10 minutes.',
  reconnect: 'Recommended reconnection behaviour is to (1) attempt reconnection instantly up to a handful of times if the websocket is dropped randomly during normal operation but (2) after maintenance or extended downtime, attempt to reconnect no more quickly than once every 5 seconds.',
  perPair: 'Each client has a rate counter **per pair**, the count starts at 0 and the count is incremented on each transaction by a given amount depending on the transaction type.',
} as const;

const engine = (quote: string): Provenance => ({ source: 'engine', confidence: 'documented', quote });

const FORMAT: MessageFormat = { operationPath: 'method', subscribe: ['subscribe'], unsubscribe: ['unsubscribe'], ping: ['ping'], topicsPath: 'params.symbol', topicList: 'items', topicPrefixPath: 'params.channel' };

const NOTE =
  "priced as its REST equivalent: add_order and edit_order on the per-pair trading counter, which the REST spec partitions by the `pair` parameter: a WebSocket order names its pair `symbol` (BTC/USD), so they are refused here (missing parameter) rather than paced on a counter that REST orders of the same pair would not share; amend_order and cancel_order, which name an order and no pair, on the key's bound of every pair counter (trading-key), as over REST";

function op(operation: string, endpoint: string): WebSocketOperationSpec {
  return { operation, endpoint, paramsPath: 'params', provenance: engine(Q.perPair), note: NOTE };
}

/** Kraken spot WebSocket API v2: public and authenticated services. */
export const krakenWebSocket: WebSocketSpec = {
  id: 'kraken',
  venue: 'Kraken',
  product: 'spot WebSocket API v2 (ws.kraken.com, ws-auth.kraken.com)',
  origin: 'hand-authored',
  sources: {
    ws: { url: 'https://docs.kraken.com/websockets/', retrieved: '2026-12-01', note: "WebSocket API introduction, as published in the API's AsyncAPI description (read from copies kept by client libraries)" },
    engine: { url: 'https://docs.kraken.com/api/docs/guides/spot-ratelimits', retrieved: '2026-12-01', note: 'Spot Trading Limits guide (shared by REST, WebSocket and FIX), version of 2026-06-09' },
  },
  buckets: [
    {
      id: 'connections',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 140,
      windowMs: 600_000,
      provenance: {
        source: 'ws',
        confidence: 'uncertain',
        quote: Q.cloudflare,
        deviations: [{ value: 140, reason: 'conservative', text: '"approximately 150" attempts per rolling 10 minutes, read on the safe side of "approximately" as 140' }],
      },
      description: '"approximately 150" attempts per rolling 10 minutes per IP, read on the safe side as 140; connections to both services together',
    },
  ],
  endpoints: [
    { id: 'public', url: 'wss://ws.kraken.com/v2', auth: 'public', connect: { charges: [{ bucket: 'connections', cost: 1 }] }, messages: [], format: FORMAT },
    {
      id: 'private',
      url: 'wss://ws-auth.kraken.com/v2',
      auth: 'private',
      connect: { charges: [{ bucket: 'connections', cost: 1 }] },
      messages: [],
      format: FORMAT,
      operations: [op('add_order', 'AddOrder'), op('amend_order', 'AmendOrder'), op('edit_order', 'EditOrder'), op('cancel_order', 'CancelOrder')],
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [{ other: 'hummingbot kraken/kraken_constants.py', what: 'connection attempts per IP', ours: '140 per 10 minutes (of "approximately 150")', theirs: '150 per 10 minutes', verdict: 'the documentation says "approximately 150": the safe side is below it' }],
  },
  notes: [Q.reconnect, 'No message rate limit per connection is documented; trading requests spend the per-pair counter of the trading engine (see the REST spec).'],
};
