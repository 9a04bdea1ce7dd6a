import type { BucketSpec, EndpointSpec, VenueSpec } from '../venue-spec.js';

const overview = { source: 'overview', confidence: 'documented' } as const;
const rest = { source: 'rest', confidence: 'documented' } as const;
const uncertain = { source: 'rest', confidence: 'uncertain' } as const;

/**
 * OKX does not document its window algorithm; a sliding window is the strictest reading and the
 * safe limits are the same for every window algorithm.
 */
function bucket(id: string, scope: 'ip' | 'uid', limit: number, windowMs: number, partition?: BucketSpec['partition'], confidence: 'documented' | 'uncertain' = 'documented'): BucketSpec {
  return {
    id, scope, algorithm: 'sliding-window', limit, windowMs,
    provenance: confidence === 'documented' ? rest : uncertain,
    ...(partition === undefined ? {} : { partition }),
  };
}

const instId = { kind: 'param', param: 'instId' } as const;
const perOrder = { kind: 'items', list: '', field: 'instId' } as const;
const one = { kind: 'constant', value: 1 } as const;
const orders = (maxItems: number) => ({ kind: 'count', param: '', base: 0, per: 1, maxItems }) as const;

function endpoint(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth'], costs: EndpointSpec['costs'], note?: string): EndpointSpec {
  return { id, method, path, auth, costs, provenance: rest, ...(note === undefined ? {} : { note }) };
}

/** OKX API v5 REST. Public endpoints per IP; private per User ID (each sub-account its own); trading per User ID + instrument. */
export const okx: VenueSpec = {
  id: 'okx',
  venue: 'OKX',
  product: 'API v5 REST (trading, account, market data)',
  origin: 'hand-authored',
  ccxtIds: ['okx'],
  sources: {
    overview: { url: 'https://www.okx.com/docs-v5/en/#overview-rate-limits', retrieved: '2026-11-30' },
    rest: { url: 'https://www.okx.com/docs-v5/en/#order-book-trading-trade', retrieved: '2026-11', note: 'per-endpoint "Rate Limit" and "Rate limit rule" lines' },
    subaccount: { url: 'https://www.okx.com/help/fill-ratio-sub-account-rate-limit', retrieved: '2026-11-30' },
    errors: { url: 'https://www.okx.com/docs-v5/en/#error-code-rest-api', retrieved: '2026-11-30' },
  },
  buckets: [
    bucket('trade/order', 'uid', 60, 2000, instId),
    bucket('trade/batch-orders', 'uid', 300, 2000, perOrder),
    bucket('trade/cancel-order', 'uid', 60, 2000, instId),
    bucket('trade/cancel-batch-orders', 'uid', 300, 2000, perOrder),
    bucket('trade/amend-order', 'uid', 60, 2000, instId),
    bucket('trade/amend-batch-orders', 'uid', 300, 2000, perOrder),
    bucket('trade/order-get', 'uid', 60, 2000, instId),
    bucket('trade/orders-pending', 'uid', 60, 2000),
    bucket('trade/orders-history', 'uid', 40, 2000),
    bucket('trade/fills', 'uid', 60, 2000),
    bucket('trade/account-rate-limit', 'uid', 1, 1000),
    {
      id: 'subaccount-orders', scope: 'subaccount', algorithm: 'sliding-window', limit: 1000, windowMs: 2000,
      provenance: { source: 'subaccount', confidence: 'documented' },
      description: 'new and amended orders per sub-account (each order of a batch counts); VIP5+ fill-ratio tiers raise it, recomputed daily 08:00 UTC',
      tiers: { 'fill-ratio-1': { limit: 1250 }, 'fill-ratio-2': { limit: 1500 }, 'fill-ratio-3': { limit: 1750 }, 'fill-ratio-4': { limit: 2000 }, 'fill-ratio-5': { limit: 2500 }, 'fill-ratio-6': { limit: 3000 }, 'fill-ratio-7': { limit: 10000 } },
    },
    bucket('account/balance', 'uid', 10, 2000),
    bucket('account/positions', 'uid', 10, 2000),
    bucket('account/config', 'uid', 5, 2000),
    bucket('market/books', 'ip', 40, 2000),
    bucket('market/tickers', 'ip', 20, 2000, undefined, 'uncertain'),
    bucket('market/ticker', 'ip', 20, 2000),
    bucket('market/candles', 'ip', 40, 2000),
    bucket('market/trades', 'ip', 100, 2000),
    bucket('public/instruments', 'ip', 20, 2000, { kind: 'param', param: 'instType' }),
    bucket('public/time', 'ip', 10, 2000),
    bucket('system/status', 'ip', 1, 5000),
  ],
  endpoints: [
    endpoint('place-order', 'POST', '/api/v5/trade/order', 'private', [{ bucket: 'trade/order', cost: one }, { bucket: 'subaccount-orders', cost: one }]),
    endpoint('batch-orders', 'POST', '/api/v5/trade/batch-orders', 'private', [{ bucket: 'trade/batch-orders', cost: orders(20) }, { bucket: 'subaccount-orders', cost: orders(20) }],
      'the body is the list of orders (at most 20); each order counts on its instrument. OKX charges a one-order batch to place-order instead: this reserves it on batch-orders'),
    endpoint('cancel-order', 'POST', '/api/v5/trade/cancel-order', 'private', [{ bucket: 'trade/cancel-order', cost: one }]),
    endpoint('cancel-batch-orders', 'POST', '/api/v5/trade/cancel-batch-orders', 'private', [{ bucket: 'trade/cancel-batch-orders', cost: orders(20) }]),
    endpoint('amend-order', 'POST', '/api/v5/trade/amend-order', 'private', [{ bucket: 'trade/amend-order', cost: one }, { bucket: 'subaccount-orders', cost: one }]),
    endpoint('amend-batch-orders', 'POST', '/api/v5/trade/amend-batch-orders', 'private', [{ bucket: 'trade/amend-batch-orders', cost: orders(20) }, { bucket: 'subaccount-orders', cost: orders(20) }]),
    endpoint('get-order', 'GET', '/api/v5/trade/order', 'private', [{ bucket: 'trade/order-get', cost: one }]),
    endpoint('orders-pending', 'GET', '/api/v5/trade/orders-pending', 'private', [{ bucket: 'trade/orders-pending', cost: one }]),
    endpoint('orders-history', 'GET', '/api/v5/trade/orders-history', 'private', [{ bucket: 'trade/orders-history', cost: one }]),
    endpoint('fills', 'GET', '/api/v5/trade/fills', 'private', [{ bucket: 'trade/fills', cost: one }]),
    endpoint('account-rate-limit', 'GET', '/api/v5/trade/account-rate-limit', 'private', [{ bucket: 'trade/account-rate-limit', cost: one }]),
    endpoint('balance', 'GET', '/api/v5/account/balance', 'private', [{ bucket: 'account/balance', cost: one }]),
    endpoint('positions', 'GET', '/api/v5/account/positions', 'private', [{ bucket: 'account/positions', cost: one }]),
    endpoint('config', 'GET', '/api/v5/account/config', 'private', [{ bucket: 'account/config', cost: one }]),
    endpoint('books', 'GET', '/api/v5/market/books', 'public', [{ bucket: 'market/books', cost: one }]),
    endpoint('tickers', 'GET', '/api/v5/market/tickers', 'public', [{ bucket: 'market/tickers', cost: one }]),
    endpoint('ticker', 'GET', '/api/v5/market/ticker', 'public', [{ bucket: 'market/ticker', cost: one }]),
    endpoint('candles', 'GET', '/api/v5/market/candles', 'public', [{ bucket: 'market/candles', cost: one }]),
    endpoint('trades', 'GET', '/api/v5/market/trades', 'public', [{ bucket: 'market/trades', cost: one }]),
    endpoint('instruments', 'GET', '/api/v5/public/instruments', 'public', [{ bucket: 'public/instruments', cost: one }]),
    endpoint('time', 'GET', '/api/v5/public/time', 'public', [{ bucket: 'public/time', cost: one }]),
    endpoint('status', 'GET', '/api/v5/system/status', 'public', [{ bucket: 'system/status', cost: one }]),
  ],
  errors: [
    {
      id: 'subaccount-limit', body: [{ path: 'code', equals: ['50061'] }], verdict: 'rate_limited', counted: true,
      penalize: ['subaccount-orders'], wait: [{ from: 'fixed', ms: 2000 }], provenance: { source: 'errors', confidence: 'documented' },
      note: 'sub-account order rate limit exceeded; no wait is given: one 2 s window',
    },
    {
      id: 'rate-limit', body: [{ path: 'code', equals: ['50011'] }], verdict: 'rate_limited', counted: true,
      penalize: 'charged', wait: [{ from: 'fixed', ms: 2000 }], provenance: { source: 'errors', confidence: 'documented' },
      note: 'code 50011 arrives in an HTTP 200 body or with HTTP 429; no wait is given: one 2 s window',
    },
    {
      id: 'batch-item-rate-limit', body: [{ path: 'data.sCode', equals: ['50011'] }], verdict: 'rate_limited', counted: true,
      penalize: 'charged', wait: [{ from: 'fixed', ms: 2000 }], provenance: { source: 'errors', confidence: 'uncertain' },
      note: 'a batch whose orders were refused one by one with sCode 50011',
    },
    { id: 'busy', body: [{ path: 'code', equals: ['50013'] }], verdict: 'overloaded', counted: true, wait: [{ from: 'fixed', ms: 1000 }], provenance: { source: 'errors', confidence: 'documented' } },
    { id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged', wait: [{ from: 'fixed', ms: 2000 }], provenance: overview },
  ],
  notes: [
    'REST and WebSocket share the limits; options trade endpoints are limited per instrument family (not modelled: pass instId).',
    'OKX sends no usage headers; GET /api/v5/trade/account-rate-limit reports the sub-account limit and fill ratio.',
  ],
};
