import type { EndpointSpec, VenueSpec } from '../venue-spec.js';

const pools = { source: 'rateLimit', confidence: 'documented' } as const;
const weights = { source: 'endpoints', confidence: 'documented' } as const;
const weightsUncertain = { source: 'endpoints', confidence: 'uncertain' } as const;

const spotTiers = { vip0: 4000, vip1: 6000, vip2: 8000, vip3: 10000, vip4: 13000, vip5: 16000, vip6: 20000, vip7: 23000, vip8: 26000, vip9: 30000, vip10: 33000, vip11: 36000, vip12: 40000 };
const mgmtTiers = { vip0: 2000, vip1: 2000, vip2: 4000, vip3: 5000, vip4: 6000, vip5: 7000, vip6: 8000, vip7: 10000, vip8: 12000, vip9: 14000, vip10: 16000, vip11: 18000, vip12: 20000 };
const tiers = (t: Record<string, number>) => Object.fromEntries(Object.entries(t).map(([k, limit]) => [k, { limit }]));

function ep(id: string, method: EndpointSpec['method'], path: string, pool: 'spot' | 'management' | 'public', weight: number, sure = true): EndpointSpec {
  return { id, method, path, auth: pool === 'public' ? 'public' : 'private', costs: [{ bucket: pool, cost: { kind: 'constant', value: weight } }], provenance: sure ? weights : weightsUncertain };
}

/** KuCoin spot REST (api.kucoin.com): resource pools of weight per 30 s, anchored at the first request. */
export const kucoin: VenueSpec = {
  id: 'kucoin',
  venue: 'KuCoin',
  product: 'spot and account REST (api.kucoin.com)',
  origin: 'hand-authored',
  ccxtIds: ['kucoin'],
  defaultTier: 'vip0',
  sources: {
    rateLimit: { url: 'https://www.kucoin.com/docs-new/rate-limit', retrieved: '2026-11-30' },
    endpoints: { url: 'https://www.kucoin.com/docs-new/rest/spot-trading/orders/add-order', retrieved: '2026-11', note: 'per-endpoint "API-RATE-LIMIT-WEIGHT" and "API-RATE-LIMIT-POOL"' },
  },
  buckets: [
    { id: 'spot', scope: 'uid', algorithm: 'fixed-window-anchored', limit: 4000, windowMs: 30_000, tiers: tiers(spotTiers), provenance: pools, description: 'Spot (incl. margin) pool per UID' },
    { id: 'management', scope: 'uid', algorithm: 'fixed-window-anchored', limit: 2000, windowMs: 30_000, tiers: tiers(mgmtTiers), provenance: pools, description: 'Management pool per UID (accounts, transfers, deposits)' },
    { id: 'public', scope: 'ip', algorithm: 'fixed-window-anchored', limit: 2000, windowMs: 30_000, provenance: pools, description: 'Public pool per IP' },
  ],
  endpoints: [
    ep('hf-add-order', 'POST', '/api/v1/hf/orders', 'spot', 1),
    ep('hf-add-order-sync', 'POST', '/api/v1/hf/orders/sync', 'spot', 1),
    ep('hf-batch-orders', 'POST', '/api/v1/hf/orders/multi', 'spot', 1),
    ep('hf-cancel-order', 'DELETE', '/api/v1/hf/orders/{orderId}', 'spot', 1),
    ep('hf-cancel-by-client-oid', 'DELETE', '/api/v1/hf/orders/client-order/{clientOid}', 'spot', 1),
    ep('hf-cancel-all-by-symbol', 'DELETE', '/api/v1/hf/orders', 'spot', 2),
    ep('hf-open-orders', 'GET', '/api/v1/hf/orders/active', 'spot', 2),
    ep('hf-order', 'GET', '/api/v1/hf/orders/{orderId}', 'spot', 2),
    ep('hf-fills', 'GET', '/api/v1/hf/fills', 'spot', 2),
    ep('add-order', 'POST', '/api/v1/orders', 'spot', 2),
    ep('cancel-all-orders', 'DELETE', '/api/v1/orders', 'spot', 20),
    ep('list-orders', 'GET', '/api/v1/orders', 'spot', 2),
    ep('fills', 'GET', '/api/v1/fills', 'spot', 10),
    ep('accounts', 'GET', '/api/v1/accounts', 'management', 5),
    ep('account', 'GET', '/api/v1/accounts/{accountId}', 'management', 5),
    ep('all-tickers', 'GET', '/api/v1/market/allTickers', 'public', 15),
    ep('ticker', 'GET', '/api/v1/market/orderbook/level1', 'public', 2),
    ep('stats', 'GET', '/api/v1/market/stats', 'public', 15),
    ep('level2-20', 'GET', '/api/v1/market/orderbook/level2_20', 'public', 2),
    ep('level2-100', 'GET', '/api/v1/market/orderbook/level2_100', 'public', 4),
    ep('trade-histories', 'GET', '/api/v1/market/histories', 'public', 3),
    ep('candles', 'GET', '/api/v1/market/candles', 'public', 3),
    ep('symbols', 'GET', '/api/v2/symbols', 'public', 4),
    ep('timestamp', 'GET', '/api/v1/timestamp', 'public', 3),
    ep('bullet-public', 'POST', '/api/v1/bullet-public', 'public', 10),
    ep('bullet-private', 'POST', '/api/v1/bullet-private', 'spot', 10),
  ],
  feedback: [
    {
      header: 'gw-ratelimit-remaining', meaning: 'remaining', limitHeader: 'gw-ratelimit-limit',
      resetHeader: 'gw-ratelimit-reset', resetUnit: 'ms-from-now', buckets: ['spot', 'management', 'public'], provenance: pools,
    },
  ],
  errors: [
    {
      id: 'quota-exceeded', status: [429], body: [{ path: 'code', equals: ['429000'] }], hasHeader: 'gw-ratelimit-reset',
      verdict: 'rate_limited', counted: true, penalize: 'charged', wait: [{ from: 'header', header: 'gw-ratelimit-reset', unit: 'ms' }],
      provenance: pools, note: 'the pool is used up: wait for the reset the header names',
    },
    {
      id: 'overloaded', status: [429], body: [{ path: 'code', equals: ['429000'] }], lacksHeader: 'gw-ratelimit-reset',
      verdict: 'overloaded', counted: false, wait: [{ from: 'fixed', ms: 1000 }], provenance: { source: 'rateLimit', confidence: 'uncertain' },
      note: 'the same code without the rate-limit headers is server overload, not counted against the quota',
    },
  ],
  notes: ['Futures (api-futures.kucoin.com), Earn and CopyTrading pools are separate products, not modelled here.'],
};
