import type { BucketSpec, EndpointSpec, VenueSpec } from '../venue-spec.js';

const doc = { source: 'limits', confidence: 'documented' } as const;
const one = { kind: 'constant', value: 1 } as const;
const pair = { kind: 'param', param: 'currency_pair' } as const;

function uid(id: string, limit: number, windowMs: number, partition?: BucketSpec['partition']): BucketSpec {
  return { id, scope: 'uid', algorithm: 'sliding-window', limit, windowMs, provenance: doc, ...(partition === undefined ? {} : { partition }) };
}

function ep(id: string, method: EndpointSpec['method'], path: string, bucket: string, cost: EndpointSpec['costs'][number]['cost'] = one): EndpointSpec {
  return { id, method, path, auth: 'private', costs: [{ bucket, cost }], provenance: doc };
}

/** Gate API v4 REST (`api.gateio.ws/api/v4`). */
export const gate: VenueSpec = {
  id: 'gate',
  venue: 'Gate',
  product: 'API v4 REST (spot, perpetual futures, wallet)',
  origin: 'hand-authored',
  ccxtIds: ['gate'],
  sources: {
    limits: { url: 'https://www.gate.com/docs/developers/apiv4/en/#frequency-limit-rule', retrieved: '2026-11' },
  },
  buckets: [
    { id: 'public-endpoint', scope: 'ip', algorithm: 'sliding-window', limit: 200, windowMs: 10_000, partition: { kind: 'endpoint' }, provenance: doc, description: 'every public endpoint: 200 / 10 s per IP' },
    uid('private-endpoint', 200, 10_000, { kind: 'endpoint' }),
    uid('spot-order', 10, 1000, pair),
    uid('spot-cancel', 200, 1000),
    uid('futures-order', 100, 1000),
    uid('futures-cancel', 200, 1000),
    uid('withdrawal', 1, 3000),
  ],
  endpoints: [
    ep('spot-create-order', 'POST', '/api/v4/spot/orders', 'spot-order'),
    {
      id: 'spot-batch-orders', method: 'POST', path: '/api/v4/spot/batch_orders', auth: 'private', provenance: { source: 'limits', confidence: 'uncertain' },
      note: 'the limit counts requests per market: a batch is assumed to count once on each market it touches',
      costs: [{ bucket: 'spot-order', cost: one }],
    },
    ep('spot-amend-order', 'PATCH', '/api/v4/spot/orders/{order_id}', 'spot-order'),
    ep('spot-cancel-order', 'DELETE', '/api/v4/spot/orders/{order_id}', 'spot-cancel'),
    ep('spot-cancel-all', 'DELETE', '/api/v4/spot/orders', 'spot-cancel'),
    ep('spot-cancel-batch', 'POST', '/api/v4/spot/cancel_batch_orders', 'spot-cancel'),
    { id: 'futures-create-order', method: 'POST', path: '/api/v4/futures/{settle}/orders', auth: 'private', costs: [{ bucket: 'futures-order', cost: one }], provenance: doc },
    { id: 'futures-amend-order', method: 'PUT', path: '/api/v4/futures/{settle}/orders/{order_id}', auth: 'private', costs: [{ bucket: 'futures-order', cost: one }], provenance: doc },
    { id: 'futures-cancel-order', method: 'DELETE', path: '/api/v4/futures/{settle}/orders/{order_id}', auth: 'private', costs: [{ bucket: 'futures-cancel', cost: one }], provenance: doc },
    { id: 'futures-cancel-all', method: 'DELETE', path: '/api/v4/futures/{settle}/orders', auth: 'private', costs: [{ bucket: 'futures-cancel', cost: one }], provenance: doc },
    ep('withdraw', 'POST', '/api/v4/withdrawals', 'withdrawal'),
  ],
  fallback: {
    costs: [{ bucket: 'private-endpoint', cost: one }],
    publicCosts: [{ bucket: 'public-endpoint', cost: one }],
    provenance: doc,
  },
  feedback: [
    {
      header: 'x-gate-ratelimit-requests-remain', meaning: 'remaining', limitHeader: 'x-gate-ratelimit-limit',
      resetHeader: 'x-gate-ratelimit-reset-timestamp', resetUnit: 'epoch-ms',
      buckets: ['public-endpoint', 'private-endpoint', 'spot-order', 'spot-cancel', 'futures-order', 'futures-cancel', 'withdrawal'], provenance: doc,
    },
  ],
  errors: [
    {
      id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged',
      wait: [{ from: 'header', header: 'x-gate-ratelimit-reset-timestamp', unit: 'epoch-ms' }, { from: 'fixed', ms: 1000 }], provenance: doc,
      note: 'label TOO_MANY_REQUESTS',
    },
  ],
  notes: ['Unlisted endpoints use the documented default: 200 / 10 s per endpoint, per IP (public) or per UID (private).'],
};
