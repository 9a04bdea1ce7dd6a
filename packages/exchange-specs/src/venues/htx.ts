import type { BucketSpec, EndpointSpec, VenueSpec } from '../venue-spec.js';

const doc = { source: 'spot', confidence: 'documented' } as const;
const one = { kind: 'constant', value: 1 } as const;

function uid(id: string, limit: number): BucketSpec {
  return { id, scope: 'uid', algorithm: 'sliding-window', limit, windowMs: 2000, provenance: doc };
}

function ep(id: string, method: EndpointSpec['method'], path: string, bucket: string, auth: EndpointSpec['auth'] = 'private'): EndpointSpec {
  return { id, method, path, auth, costs: [{ bucket, cost: one }], provenance: doc };
}

/** HTX (Huobi) spot REST (`api.huobi.pro`): per-endpoint limits per UID. */
export const htx: VenueSpec = {
  id: 'htx',
  venue: 'HTX',
  product: 'spot REST API',
  origin: 'hand-authored',
  ccxtIds: ['htx'],
  sources: {
    spot: { url: 'https://www.htx.com/en-us/opend/newApiPages/?id=7ec4a4da-7773-11ed-9966-0242ac110003', retrieved: '2026-11', note: 'spot API: access and rate limit rules; per-endpoint limits' },
    rules: { url: 'https://huobiapi.github.io/docs/spot/v1/en/#rate-limiting-rule', retrieved: '2026-11-30', note: 'public market data up to 800 requests/s per IP (through a third-party summary)' },
  },
  buckets: [
    uid('place', 100),
    uid('batch-orders', 50),
    uid('submitcancel', 100),
    uid('batchcancel', 50),
    uid('cancel-all', 1),
    uid('open-orders', 50),
    { id: 'market', scope: 'ip', algorithm: 'sliding-window', limit: 800, windowMs: 1000, provenance: { source: 'rules', confidence: 'uncertain' }, description: 'public market data per IP' },
    { id: 'kline', scope: 'ip', algorithm: 'sliding-window', limit: 4500, windowMs: 300_000, provenance: { source: 'spot', confidence: 'uncertain' }, description: 'kline history per IP' },
  ],
  endpoints: [
    ep('place', 'POST', '/v1/order/orders/place', 'place'),
    ep('batch-orders', 'POST', '/v1/order/batch-orders', 'batch-orders'),
    ep('submitcancel', 'POST', '/v1/order/orders/{order-id}/submitcancel', 'submitcancel'),
    ep('batchcancel', 'POST', '/v1/order/orders/batchcancel', 'batchcancel'),
    ep('cancel-all', 'POST', '/v1/order/orders/batchCancelOpenOrders', 'cancel-all'),
    ep('open-orders', 'GET', '/v1/order/openOrders', 'open-orders'),
    { id: 'kline', method: 'GET', path: '/market/history/kline', auth: 'public', costs: [{ bucket: 'market', cost: one }, { bucket: 'kline', cost: one }], provenance: doc },
    ep('merged', 'GET', '/market/detail/merged', 'market', 'public'),
    ep('tickers', 'GET', '/market/tickers', 'market', 'public'),
    ep('depth', 'GET', '/market/depth', 'market', 'public'),
    ep('trade', 'GET', '/market/trade', 'market', 'public'),
  ],
  feedback: [
    {
      header: 'x-hb-ratelimit-requests-remain', meaning: 'remaining', resetHeader: 'x-hb-ratelimit-requests-expire', resetUnit: 'epoch-ms',
      buckets: ['place', 'batch-orders', 'submitcancel', 'batchcancel', 'cancel-all', 'open-orders'], provenance: doc,
    },
  ],
  errors: [
    {
      id: 'exceed-frequency', body: [{ path: 'err-code', equals: ['base-request-exceed-frequency-limit', 'rate-too-many-requests'] }], verdict: 'rate_limited', counted: true,
      penalize: 'charged', wait: [{ from: 'header', header: 'x-hb-ratelimit-requests-expire', unit: 'epoch-ms' }, { from: 'fixed', ms: 2000 }], provenance: doc,
    },
    { id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged', wait: [{ from: 'fixed', ms: 2000 }], provenance: doc },
  ],
  notes: ['Contracts (api.hbdm.com: 72 / 3 s per UID, headers ratelimit-*) are a separate product, not modelled here.'],
};
