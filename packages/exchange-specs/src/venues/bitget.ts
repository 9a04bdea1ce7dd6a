import type { BucketSpec, EndpointSpec, VenueSpec } from '../venue-spec.js';

const doc = { source: 'limits', confidence: 'documented' } as const;
const one = { kind: 'constant', value: 1 } as const;

function perSecond(id: string, limit: number, scope: 'ip' | 'uid'): BucketSpec {
  return { id, scope, algorithm: 'sliding-window', limit, windowMs: 1000, provenance: { source: 'endpoints', confidence: 'documented' } };
}

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth'], bucket: string): EndpointSpec {
  return { id, method, path, auth, costs: [{ bucket, cost: one }], provenance: { source: 'endpoints', confidence: 'documented' } };
}

/** Bitget API v2 REST: an overall per-IP limit plus per-endpoint limits. */
export const bitget: VenueSpec = {
  id: 'bitget',
  venue: 'Bitget',
  product: 'API v2 REST (spot, mix futures)',
  origin: 'hand-authored',
  ccxtIds: ['bitget'],
  sources: {
    limits: { url: 'https://www.bitget.com/api-doc/common/quick-start', retrieved: '2026-11' },
    endpoints: { url: 'https://www.bitget.com/api-doc/spot/trade/Place-Order', retrieved: '2026-11', note: 'per-endpoint "Frequency limit" lines' },
  },
  buckets: [
    { id: 'ip', scope: 'ip', algorithm: 'sliding-window', limit: 6000, windowMs: 60_000, provenance: doc, description: 'overall per IP' },
    perSecond('spot-place-order', 10, 'uid'),
    perSecond('spot-cancel-order', 10, 'uid'),
    perSecond('spot-batch-orders', 5, 'uid'),
    perSecond('mix-place-order', 10, 'uid'),
    perSecond('mix-batch-place-order', 5, 'uid'),
    perSecond('mix-cancel-order', 10, 'uid'),
    perSecond('spot-assets', 10, 'uid'),
    perSecond('spot-tickers', 20, 'ip'),
    perSecond('spot-orderbook', 20, 'ip'),
    perSecond('spot-candles', 20, 'ip'),
  ],
  global: [{ bucket: 'ip', cost: one }],
  endpoints: [
    ep('spot-place-order', 'POST', '/api/v2/spot/trade/place-order', 'private', 'spot-place-order'),
    ep('spot-cancel-order', 'POST', '/api/v2/spot/trade/cancel-order', 'private', 'spot-cancel-order'),
    ep('spot-batch-orders', 'POST', '/api/v2/spot/trade/batch-orders', 'private', 'spot-batch-orders'),
    ep('mix-place-order', 'POST', '/api/v2/mix/order/place-order', 'private', 'mix-place-order'),
    ep('mix-batch-place-order', 'POST', '/api/v2/mix/order/batch-place-order', 'private', 'mix-batch-place-order'),
    ep('mix-cancel-order', 'POST', '/api/v2/mix/order/cancel-order', 'private', 'mix-cancel-order'),
    ep('spot-assets', 'GET', '/api/v2/spot/account/assets', 'private', 'spot-assets'),
    ep('spot-tickers', 'GET', '/api/v2/spot/market/tickers', 'public', 'spot-tickers'),
    ep('spot-orderbook', 'GET', '/api/v2/spot/market/orderbook', 'public', 'spot-orderbook'),
    ep('spot-candles', 'GET', '/api/v2/spot/market/candles', 'public', 'spot-candles'),
  ],
  errors: [
    {
      id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }], provenance: doc, note: '"Too many requests" (code 429); no usage headers are documented',
    },
  ],
  notes: ['Copy traders are limited to 1/s on order endpoints (not modelled).'],
};
