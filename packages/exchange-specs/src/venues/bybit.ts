import type { BucketSpec, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

const ipDoc = { source: 'ip', confidence: 'documented' } as const;
const perEndpoint = { source: 'endpoints', confidence: 'documented' } as const;
const vip = { source: 'vip', confidence: 'documented' } as const;
const category = { kind: 'param', param: 'category' } as const;
const one = { kind: 'constant', value: 1 } as const;

/**
 * A UID bucket of one endpoint, per category, on Bybit's rolling one-second window. Where
 * categories differ (order/create: 10/s futures and options, 20/s spot) the spec keeps the
 * smallest, so spot is paced at the futures rate (safe, not exact).
 */
function uid(id: string, limit: number, tiers?: Record<string, { limit: number }>, provenance: Provenance = perEndpoint, windowMs = 1000): BucketSpec {
  return { id, scope: 'uid', algorithm: 'sliding-window', limit, windowMs, partition: category, provenance, ...(tiers === undefined ? {} : { tiers }) };
}

const orderTiers = { vip1: { limit: 20 }, vip2: { limit: 30 }, vip3: { limit: 40 }, vip4: { limit: 40 }, vip5: { limit: 40 }, 'vip-supreme': { limit: 40 } };

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth'], costs: EndpointSpec['costs']): EndpointSpec {
  return { id, method, path, auth, costs, provenance: perEndpoint };
}

const batch = (bucket: string) => ({ bucket, cost: { kind: 'count', param: 'request', base: 0, per: 1, maxItems: 10 } }) as const;

/** Bybit API v5 REST. */
export const bybit: VenueSpec = {
  id: 'bybit',
  venue: 'Bybit',
  product: 'API v5 REST (unified account)',
  origin: 'hand-authored',
  ccxtIds: ['bybit'],
  sources: {
    ip: { url: 'https://bybit-exchange.github.io/docs/v5/rate-limit', retrieved: '2026-11-30' },
    vip: { url: 'https://bybit-exchange.github.io/docs/v5/rate-limit/rules-for-vips', retrieved: '2026-11-30' },
    endpoints: { url: 'https://bybit-exchange.github.io/docs/v5/rate-limit', retrieved: '2026-11', note: 'per-endpoint UID limits table (bybit-exchange/docs @072c197 docs/v5/rate-limit)' },
    errors: { url: 'https://bybit-exchange.github.io/docs/v5/error', retrieved: '2026-11' },
  },
  buckets: [
    { id: 'ip', scope: 'ip', algorithm: 'sliding-window', limit: 600, windowMs: 5000, provenance: ipDoc, description: 'every HTTP request to api.bybit.com per IP, in any 5-second window' },
    uid('order/create', 10, orderTiers, vip),
    uid('order/amend', 10, orderTiers, vip),
    uid('order/cancel', 10, orderTiers, vip),
    uid('order/cancel-all', 1, undefined, { source: 'endpoints', confidence: 'documented' }),
    uid('order/create-batch', 10, undefined, { source: 'endpoints', confidence: 'uncertain' }),
    uid('order/amend-batch', 10, undefined, { source: 'endpoints', confidence: 'uncertain' }),
    uid('order/cancel-batch', 10, undefined, { source: 'endpoints', confidence: 'uncertain' }),
    uid('order/realtime', 50),
    uid('order/history', 50),
    uid('execution/list', 50),
    uid('position/list', 50),
    { id: 'account/wallet-balance', scope: 'uid', algorithm: 'sliding-window', limit: 50, windowMs: 1000, provenance: { source: 'endpoints', confidence: 'uncertain' } },
    uid('account/fee-rate', 5),
  ],
  global: [{ bucket: 'ip', cost: one }],
  endpoints: [
    ep('order-create', 'POST', '/v5/order/create', 'private', [{ bucket: 'order/create', cost: one }]),
    ep('order-amend', 'POST', '/v5/order/amend', 'private', [{ bucket: 'order/amend', cost: one }]),
    ep('order-cancel', 'POST', '/v5/order/cancel', 'private', [{ bucket: 'order/cancel', cost: one }]),
    ep('order-cancel-all', 'POST', '/v5/order/cancel-all', 'private', [{ bucket: 'order/cancel-all', cost: one }]),
    ep('order-create-batch', 'POST', '/v5/order/create-batch', 'private', [batch('order/create-batch')]),
    ep('order-amend-batch', 'POST', '/v5/order/amend-batch', 'private', [batch('order/amend-batch')]),
    ep('order-cancel-batch', 'POST', '/v5/order/cancel-batch', 'private', [batch('order/cancel-batch')]),
    ep('order-realtime', 'GET', '/v5/order/realtime', 'private', [{ bucket: 'order/realtime', cost: one }]),
    ep('order-history', 'GET', '/v5/order/history', 'private', [{ bucket: 'order/history', cost: one }]),
    ep('execution-list', 'GET', '/v5/execution/list', 'private', [{ bucket: 'execution/list', cost: one }]),
    ep('position-list', 'GET', '/v5/position/list', 'private', [{ bucket: 'position/list', cost: one }]),
    ep('wallet-balance', 'GET', '/v5/account/wallet-balance', 'private', [{ bucket: 'account/wallet-balance', cost: one }]),
    ep('fee-rate', 'GET', '/v5/account/fee-rate', 'private', [{ bucket: 'account/fee-rate', cost: one }]),
    ep('market-time', 'GET', '/v5/market/time', 'public', []),
    ep('market-kline', 'GET', '/v5/market/kline', 'public', []),
    ep('market-orderbook', 'GET', '/v5/market/orderbook', 'public', []),
    ep('market-tickers', 'GET', '/v5/market/tickers', 'public', []),
    ep('market-recent-trade', 'GET', '/v5/market/recent-trade', 'public', []),
    ep('market-instruments', 'GET', '/v5/market/instruments-info', 'public', []),
  ],
  feedback: [
    {
      header: 'x-bapi-limit-status', meaning: 'remaining', limitHeader: 'x-bapi-limit',
      resetHeader: 'x-bapi-limit-reset-timestamp', resetUnit: 'epoch-ms',
      buckets: ['order/create', 'order/amend', 'order/cancel', 'order/cancel-all', 'order/create-batch', 'order/amend-batch', 'order/cancel-batch', 'order/realtime', 'order/history', 'execution/list', 'position/list', 'account/wallet-balance', 'account/fee-rate'],
      provenance: ipDoc,
    },
  ],
  errors: [
    {
      id: 'ip-ban', status: [403], verdict: 'banned', counted: true, penalize: ['ip'], wait: [{ from: 'fixed', ms: 600_000 }],
      provenance: ipDoc, note: '"403, access too frequent": stop every session and wait at least 10 minutes',
    },
    {
      id: 'too-many-visits', body: [{ path: 'retCode', equals: [10006] }], verdict: 'rate_limited', counted: true, penalize: 'charged',
      wait: [{ from: 'header', header: 'x-bapi-limit-reset-timestamp', unit: 'epoch-ms' }, { from: 'fixed', ms: 1000 }],
      provenance: ipDoc, note: 'retCode 10006 "Too many visits!" in an HTTP 200 body',
    },
    {
      id: 'system-protection', body: [{ path: 'retCode', equals: [10429] }], verdict: 'rate_limited', counted: true, penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }], provenance: { source: 'errors', confidence: 'uncertain' },
    },
    { id: 'http-429', status: [429], verdict: 'rate_limited', counted: true, penalize: 'charged', wait: [{ from: 'fixed', ms: 1000 }], provenance: { source: 'errors', confidence: 'uncertain' } },
  ],
  notes: [
    'Batch endpoints take the orders in body.request (1-10 each; linear/option up to 20 is not modelled) and consume one unit per order.',
    'Limits differ per category; the spec keeps the smallest per tier (see bucket descriptions).',
  ],
};
