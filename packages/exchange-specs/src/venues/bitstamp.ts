import type { VenueSpec } from '../venue-spec.js';

const prov = { source: 'limits', confidence: 'uncertain' } as const;
const both = [
  { bucket: 'per-second', cost: { kind: 'constant', value: 1 } },
  { bucket: 'per-10-minutes', cost: { kind: 'constant', value: 1 } },
] as const;

/** Bitstamp HTTP API v2: two limits on every request. */
export const bitstamp: VenueSpec = {
  id: 'bitstamp',
  venue: 'Bitstamp',
  product: 'HTTP API v2',
  markets: ['spot'],
  origin: 'hand-authored',
  ccxtIds: ['bitstamp'],
  sources: {
    limits: { url: 'https://www.bitstamp.net/api/#section/Request-limits', retrieved: '2026-11-30', note: '400 requests/s and a default threshold of 10,000 requests per 10 minutes (older docs and ccxt: 8000 per 10 minutes, then an IP ban); confirmed only through third-party copies' },
  },
  buckets: [
    { id: 'per-second', scope: 'ip', algorithm: 'sliding-window', limit: 400, windowMs: 1000, provenance: prov },
    { id: 'per-10-minutes', scope: 'ip', algorithm: 'sliding-window', limit: 8000, windowMs: 600_000, provenance: prov, description: 'the smaller of the two published figures (8000, 10,000)' },
  ],
  endpoints: [
    { id: 'ticker', method: 'GET', path: '/api/v2/ticker/{pair}', auth: 'public', costs: both, provenance: prov },
    { id: 'order-book', method: 'GET', path: '/api/v2/order_book/{pair}', auth: 'public', costs: both, provenance: prov },
    { id: 'transactions', method: 'GET', path: '/api/v2/transactions/{pair}', auth: 'public', costs: both, provenance: prov },
    { id: 'balance', method: 'POST', path: '/api/v2/account_balances', auth: 'private', costs: both, provenance: prov },
    { id: 'buy', method: 'POST', path: '/api/v2/buy/{pair}', auth: 'private', costs: both, provenance: prov },
    { id: 'sell', method: 'POST', path: '/api/v2/sell/{pair}', auth: 'private', costs: both, provenance: prov },
    { id: 'cancel', method: 'POST', path: '/api/v2/cancel_order', auth: 'private', costs: both, provenance: prov },
    { id: 'open-orders', method: 'POST', path: '/api/v2/open_orders/all', auth: 'private', costs: both, provenance: prov },
  ],
  fallback: { costs: both, provenance: prov },
  errors: [
    {
      id: 'request-limit', body: [{ path: 'code', equals: ['400.002', '400.067', '400.068'] }], verdict: 'rate_limited', counted: true, penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }], provenance: prov, note: '400.002 request limit; 400.067 client-level and 400.068 market-level limits',
    },
    { id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged', wait: [{ from: 'header', header: 'retry-after', unit: 's' }, { from: 'fixed', ms: 10_000 }], provenance: prov },
  ],
};
