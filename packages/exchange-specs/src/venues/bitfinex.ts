import type { BucketSpec, EndpointSpec, VenueSpec } from '../venue-spec.js';

const doc = { source: 'limits', confidence: 'documented' } as const;

function perMinute(id: string, limit: number, scope: 'ip' | 'key' = 'ip'): BucketSpec {
  return { id, scope, algorithm: 'sliding-window', limit, windowMs: 60_000, provenance: doc };
}

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth']): EndpointSpec {
  return { id, method, path, auth, costs: [{ bucket: id, cost: { kind: 'constant', value: 1 } }], provenance: doc };
}

/** Bitfinex API v2 REST: each endpoint its own per-minute limit; a breach blocks the IP on it for up to 60 s. */
export const bitfinex: VenueSpec = {
  id: 'bitfinex',
  venue: 'Bitfinex',
  product: 'API v2 REST',
  markets: ['spot', 'margin'],
  origin: 'hand-authored',
  ccxtIds: ['bitfinex'],
  sources: {
    limits: { url: 'https://docs.bitfinex.com/docs/requirements-and-limitations', retrieved: '2026-11', note: 'and the "Ratelimit" line of each endpoint page' },
    v1: { url: 'https://docs.bitfinex.com/v1', retrieved: '2026-11-30', note: 'an IP over 10-90 requests per minute on one endpoint is blocked on it for 10-60 s' },
  },
  buckets: [
    perMinute('platform-status', 30),
    perMinute('ticker', 90),
    perMinute('tickers', 30),
    perMinute('trades', 15),
    perMinute('book', 240),
    perMinute('candles', 30),
    perMinute('wallets', 90, 'key'),
    perMinute('orders', 90, 'key'),
    perMinute('order-submit', 90, 'key'),
    perMinute('order-cancel', 90, 'key'),
  ],
  endpoints: [
    ep('platform-status', 'GET', '/v2/platform/status', 'public'),
    ep('ticker', 'GET', '/v2/ticker/{symbol}', 'public'),
    ep('tickers', 'GET', '/v2/tickers', 'public'),
    ep('trades', 'GET', '/v2/trades/{symbol}/hist', 'public'),
    ep('book', 'GET', '/v2/book/{symbol}/{precision}', 'public'),
    ep('candles', 'GET', '/v2/candles/{candle}/{section}', 'public'),
    ep('wallets', 'POST', '/v2/auth/r/wallets', 'private'),
    ep('orders', 'POST', '/v2/auth/r/orders', 'private'),
    ep('order-submit', 'POST', '/v2/auth/w/order/submit', 'private'),
    ep('order-cancel', 'POST', '/v2/auth/w/order/cancel', 'private'),
  ],
  errors: [
    {
      id: 'ratelimit', body: [{ path: '0', equals: ['error'] }, { path: '1', equals: [11010] }], verdict: 'rate_limited', counted: true,
      penalize: 'charged', wait: [{ from: 'fixed', ms: 60_000 }], provenance: doc, note: '["error", 11010, "ratelimit: error"]: the IP is blocked on the endpoint for 10 to 60 s',
    },
    {
      id: 'err-rate-limit', body: [{ path: 'error', equals: ['ERR_RATE_LIMIT'] }], verdict: 'rate_limited', counted: true,
      penalize: 'charged', wait: [{ from: 'fixed', ms: 60_000 }], provenance: { source: 'v1', confidence: 'documented' }, note: '{"error": "ERR_RATE_LIMIT"} (the v1 wording of the same block)',
    },
    { id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged', wait: [{ from: 'fixed', ms: 60_000 }], provenance: doc },
  ],
};
