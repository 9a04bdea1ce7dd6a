import type { EndpointSpec, VenueSpec } from '../venue-spec.js';

const prov = { source: 'limits', confidence: 'uncertain' } as const;
const priv = { bucket: 'private', cost: { kind: 'constant', value: 1 } } as const;
const pub = { bucket: 'public', cost: { kind: 'constant', value: 1 } } as const;

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth']): EndpointSpec {
  return { id, method, path, auth, costs: [auth === 'public' ? pub : priv], provenance: prov };
}

/** Coinbase Advanced Trade REST (`/api/v3/brokerage`). */
export const coinbase: VenueSpec = {
  id: 'coinbase',
  venue: 'Coinbase',
  product: 'Advanced Trade REST API',
  origin: 'hand-authored',
  ccxtIds: ['coinbase'],
  sources: {
    limits: { url: 'https://docs.cdp.coinbase.com/coinbase-app/advanced-trade-apis/rest-api', retrieved: '2026-11', note: 'sources disagree: 30 req/s per user private and 10 req/s per IP public (rate-limit page, ccxt); a 10,000/hour figure also circulates' },
  },
  buckets: [
    { id: 'private', scope: 'key', algorithm: 'sliding-window', limit: 30, windowMs: 1000, provenance: prov, description: 'private endpoints per user' },
    { id: 'public', scope: 'ip', algorithm: 'sliding-window', limit: 10, windowMs: 1000, provenance: prov, description: 'public endpoints per IP' },
  ],
  endpoints: [
    ep('accounts', 'GET', '/api/v3/brokerage/accounts', 'private'),
    ep('account', 'GET', '/api/v3/brokerage/accounts/{uuid}', 'private'),
    ep('create-order', 'POST', '/api/v3/brokerage/orders', 'private'),
    ep('cancel-orders', 'POST', '/api/v3/brokerage/orders/batch_cancel', 'private'),
    ep('edit-order', 'POST', '/api/v3/brokerage/orders/edit', 'private'),
    ep('list-orders', 'GET', '/api/v3/brokerage/orders/historical/batch', 'private'),
    ep('list-fills', 'GET', '/api/v3/brokerage/orders/historical/fills', 'private'),
    ep('get-order', 'GET', '/api/v3/brokerage/orders/historical/{order_id}', 'private'),
    ep('products', 'GET', '/api/v3/brokerage/products', 'private'),
    ep('product', 'GET', '/api/v3/brokerage/products/{product_id}', 'private'),
    ep('best-bid-ask', 'GET', '/api/v3/brokerage/best_bid_ask', 'private'),
    ep('product-book', 'GET', '/api/v3/brokerage/product_book', 'private'),
    ep('candles', 'GET', '/api/v3/brokerage/products/{product_id}/candles', 'private'),
    ep('market-products', 'GET', '/api/v3/brokerage/market/products', 'public'),
    ep('market-product', 'GET', '/api/v3/brokerage/market/products/{product_id}', 'public'),
    ep('market-book', 'GET', '/api/v3/brokerage/market/product_book', 'public'),
    ep('market-candles', 'GET', '/api/v3/brokerage/market/products/{product_id}/candles', 'public'),
    ep('market-ticker', 'GET', '/api/v3/brokerage/market/products/{product_id}/ticker', 'public'),
    ep('time', 'GET', '/api/v3/brokerage/time', 'public'),
  ],
  fallback: { costs: [priv], publicCosts: [pub], provenance: prov },
  errors: [
    {
      id: 'rate-limit-exceeded', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged',
      wait: [{ from: 'header', header: 'retry-after', unit: 's' }, { from: 'fixed', ms: 1000 }], provenance: prov, note: 'rate_limit_exceeded / resource_exhausted',
    },
  ],
  notes: ['Coinbase Exchange (api.exchange.coinbase.com) is a different API with token buckets per profile; not modelled here.'],
};
