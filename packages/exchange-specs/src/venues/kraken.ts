import type { EndpointSpec, VenueSpec } from '../venue-spec.js';

const restDoc = { source: 'rest', confidence: 'documented' } as const;
const engineDoc = { source: 'engine', confidence: 'documented' } as const;
const pair = { kind: 'param', param: 'pair' } as const;

function priv(id: string, weight: 1 | 2): EndpointSpec {
  return { id, method: 'POST', path: `/0/private/${id}`, auth: 'private', costs: [{ bucket: 'rest-counter', cost: { kind: 'constant', value: weight } }], provenance: restDoc };
}

function pub(id: string): EndpointSpec {
  return { id, method: 'GET', path: `/0/public/${id}`, auth: 'public', costs: [{ bucket: 'public', cost: { kind: 'constant', value: 1 } }], provenance: { source: 'public', confidence: 'uncertain' } };
}

/** Kraken spot REST: a decaying call counter per API key, and the trading engine's counter per pair. */
export const kraken: VenueSpec = {
  id: 'kraken',
  venue: 'Kraken',
  product: 'spot REST API',
  origin: 'hand-authored',
  ccxtIds: ['kraken'],
  defaultTier: 'starter',
  sources: {
    rest: { url: 'https://docs.kraken.com/api/docs/guides/spot-rest-ratelimits', retrieved: '2026-11-30' },
    engine: { url: 'https://docs.kraken.com/api/docs/guides/spot-ratelimits', retrieved: '2026-11', note: 'trading engine counter per pair, shared by REST, WebSocket and FIX' },
    public: { url: 'https://support.kraken.com/articles/206548367-what-are-the-api-rate-limits', retrieved: '2026-11', note: 'public endpoints about one call per second per IP' },
  },
  buckets: [
    {
      id: 'rest-counter', scope: 'key', algorithm: 'token-bucket', capacity: 15, refillPerSec: 0.33, provenance: restDoc,
      description: 'call counter per API key: +1 per call, +2 for ledger/trade history; decays per tier',
      tiers: { starter: { capacity: 15, refillPerSec: 0.33 }, intermediate: { capacity: 20, refillPerSec: 0.5 }, pro: { capacity: 20, refillPerSec: 1 } },
    },
    {
      id: 'trading', scope: 'uid', algorithm: 'token-bucket', capacity: 60, refillPerSec: 1, partition: pair, provenance: engineDoc,
      description: 'trading engine rate counter per client per pair',
      tiers: { starter: { capacity: 60, refillPerSec: 1 }, intermediate: { capacity: 125, refillPerSec: 2.34 }, pro: { capacity: 180, refillPerSec: 3.75 } },
    },
    { id: 'public', scope: 'ip', algorithm: 'sliding-window', limit: 1, windowMs: 1000, provenance: { source: 'public', confidence: 'uncertain' } },
  ],
  endpoints: [
    priv('Balance', 1), priv('BalanceEx', 1), priv('TradeBalance', 1), priv('OpenOrders', 1), priv('ClosedOrders', 1),
    priv('QueryOrders', 1), priv('OpenPositions', 1), priv('TradeVolume', 1), priv('GetWebSocketsToken', 1),
    priv('TradesHistory', 2), priv('QueryTrades', 2), priv('Ledgers', 2), priv('QueryLedgers', 2),
    {
      id: 'AddOrder', method: 'POST', path: '/0/private/AddOrder', auth: 'private', provenance: engineDoc,
      costs: [{ bucket: 'trading', cost: { kind: 'constant', value: 1 } }],
    },
    {
      id: 'AddOrderBatch', method: 'POST', path: '/0/private/AddOrderBatch', auth: 'private', provenance: engineDoc,
      costs: [{ bucket: 'trading', cost: { kind: 'count', param: 'orders', base: 0, per: 1, maxItems: 15 } }],
    },
    {
      id: 'AmendOrder', method: 'POST', path: '/0/private/AmendOrder', auth: 'private', provenance: engineDoc,
      note: '+1, plus 3/2/1 when the order is younger than 5/10/15 s: the order age is unknown, so the worst case (4) is reserved; needs pair',
      costs: [{ bucket: 'trading', cost: { kind: 'constant', value: 4 } }],
    },
    {
      id: 'CancelOrder', method: 'POST', path: '/0/private/CancelOrder', auth: 'private', provenance: engineDoc,
      note: '8/6/5/4/2/1 when the order is younger than 5/10/15/45/90/300 s: the order age is unknown, so the worst case (8) is reserved; pass pair (query) so the pair counter can be charged',
      costs: [{ bucket: 'trading', cost: { kind: 'constant', value: 8 } }],
    },
    priv('CancelAll', 1),
    pub('Time'), pub('SystemStatus'), pub('Assets'), pub('AssetPairs'), pub('Ticker'), pub('OHLC'), pub('Depth'), pub('Trades'), pub('Spread'),
  ],
  errors: [
    {
      id: 'api-rate-limit', body: [{ path: 'error', startsWith: 'EAPI:Rate limit exceeded' }], verdict: 'rate_limited', counted: true,
      penalize: ['rest-counter'], wait: [{ from: 'fixed', ms: 15_000 }], provenance: { source: 'rest', confidence: 'uncertain' },
      note: 'HTTP 200 with error EAPI:Rate limit exceeded; Kraken gives no wait ("a few seconds"): 15 s',
    },
    {
      id: 'order-rate-limit', body: [{ path: 'error', startsWith: 'EOrder:Rate limit exceeded' }], verdict: 'rate_limited', counted: true,
      penalize: ['trading'], wait: [{ from: 'fixed', ms: 10_000 }], provenance: { source: 'engine', confidence: 'uncertain' },
    },
    {
      id: 'throttled', body: [{ path: 'error', startsWith: 'EService: Throttled' }], verdict: 'overloaded', counted: true,
      wait: [{ from: 'fixed', ms: 5000 }], provenance: { source: 'rest', confidence: 'uncertain' },
      note: 'too many concurrent requests; the message carries a UNIX time to retry after',
    },
    {
      id: 'lockout', body: [{ path: 'error', startsWith: 'EGeneral:Temporary lockout' }], verdict: 'banned', counted: true,
      penalize: ['rest-counter'], wait: [{ from: 'fixed', ms: 900_000 }], provenance: { source: 'rest', confidence: 'uncertain' },
    },
  ],
  notes: ['Private calls are POSTs with form bodies; the trading counter needs the pair (body or query).'],
};
