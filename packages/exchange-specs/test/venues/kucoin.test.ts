import { describe, expect, it } from 'vitest';
import { bucketForTier, getVenueSpec, interpretResponse } from '../../src/index.js';
import { costs } from '../helpers.js';

const spec = getVenueSpec('kucoin');
const key = { credential: 'uid-1' } as const;

function limit(id: string, tier?: string): number {
  const b = bucketForTier(spec.buckets.find((x) => x.id === id)!, tier);
  return b.algorithm === 'token-bucket' ? b.capacity : b.limit;
}

describe('kucoin: endpoint weights as KuCoin documents them (API-RATE-LIMIT-WEIGHT)', () => {
  it('the partial order book weighs 2 for 20 and for 100 levels', () => {
    expect(costs('kucoin', { method: 'GET', path: '/api/v1/market/orderbook/level2_100', query: { symbol: 'BTC-USDT' } })).toEqual({ public: 2 });
    expect(costs('kucoin', { method: 'GET', path: '/api/v1/market/orderbook/level2_20', query: { symbol: 'BTC-USDT' } })).toEqual({ public: 2 });
  });

  it('prices the HF order endpoints, the private full order book and cancel-all', () => {
    expect(costs('kucoin', { method: 'DELETE', path: '/api/v1/hf/orders/cancelAll' }, key)).toEqual({ spot: 30 });
    expect(costs('kucoin', { method: 'DELETE', path: '/api/v1/hf/orders/6543', query: { symbol: 'BTC-USDT' } }, key)).toEqual({ spot: 1 });
    expect(costs('kucoin', { method: 'POST', path: '/api/v1/hf/orders/alter' }, key)).toEqual({ spot: 1 });
    expect(costs('kucoin', { method: 'GET', path: '/api/v1/hf/orders/done', query: { symbol: 'BTC-USDT' } }, key)).toEqual({ spot: 2 });
    expect(costs('kucoin', { method: 'GET', path: '/api/v3/market/orderbook/level2', query: { symbol: 'BTC-USDT' } }, key)).toEqual({ spot: 3 });
  });

  it("pins every endpoint's pool and weight", () => {
    const table = Object.fromEntries(
      spec.endpoints.map((e) => [`${e.method} ${e.path}`, `${e.costs[0]?.bucket} ${e.costs[0]?.cost.kind === 'constant' ? e.costs[0].cost.value : '?'}`]),
    );
    expect(table).toEqual({
      'POST /api/v1/hf/orders': 'spot 1',
      'POST /api/v1/hf/orders/sync': 'spot 1',
      'POST /api/v1/hf/orders/multi': 'spot 1',
      'POST /api/v1/hf/orders/multi/sync': 'spot 1',
      'POST /api/v1/hf/orders/alter': 'spot 1',
      'DELETE /api/v1/hf/orders/{orderId}': 'spot 1',
      'DELETE /api/v1/hf/orders/sync/{orderId}': 'spot 1',
      'DELETE /api/v1/hf/orders/client-order/{clientOid}': 'spot 1',
      'DELETE /api/v1/hf/orders/sync/client-order/{clientOid}': 'spot 1',
      'DELETE /api/v1/hf/orders': 'spot 2',
      'DELETE /api/v1/hf/orders/cancelAll': 'spot 30',
      'GET /api/v1/hf/orders/active': 'spot 2',
      'GET /api/v1/hf/orders/done': 'spot 2',
      'GET /api/v1/hf/orders/{orderId}': 'spot 2',
      'GET /api/v1/hf/orders/client-order/{clientOid}': 'spot 2',
      'GET /api/v1/hf/fills': 'spot 2',
      'POST /api/v1/orders': 'spot 2',
      'DELETE /api/v1/orders': 'spot 20',
      'GET /api/v1/orders': 'spot 2',
      'GET /api/v1/fills': 'spot 10',
      'GET /api/v1/accounts': 'management 5',
      'GET /api/v1/accounts/{accountId}': 'management 5',
      'GET /api/v3/market/orderbook/level2': 'spot 3',
      'GET /api/v1/market/allTickers': 'public 15',
      'GET /api/v1/market/orderbook/level1': 'public 2',
      'GET /api/v1/market/stats': 'public 15',
      'GET /api/v1/market/orderbook/level2_20': 'public 2',
      'GET /api/v1/market/orderbook/level2_100': 'public 2',
      'GET /api/v1/market/histories': 'public 3',
      'GET /api/v1/market/candles': 'public 3',
      'GET /api/v2/symbols': 'public 4',
      'GET /api/v1/timestamp': 'public 3',
      'POST /api/v1/bullet-public': 'public 10',
      'POST /api/v1/bullet-private': 'spot 10',
      'GET /api/v3/currencies': 'public 3',
      'GET /api/v3/margin/symbols': 'public 3',
      'GET /api/v1/isolated/symbols': 'public 3',
      'GET /api/v1/hf/accounts/opened': 'spot 30',
    });
  });
});

describe('kucoin: resource pools per VIP level', () => {
  it('Spot, Management and Public quotas per 30 s', () => {
    const levels = Array.from({ length: 13 }, (_, i) => `vip${i}`);
    expect(levels.map((t) => limit('spot', t))).toEqual([4000, 6000, 8000, 10000, 13000, 16000, 20000, 23000, 26000, 30000, 33000, 36000, 40000]);
    expect(levels.map((t) => limit('management', t))).toEqual([2000, 2000, 4000, 5000, 6000, 7000, 8000, 10000, 12000, 14000, 16000, 18000, 20000]);
    expect(levels.map((t) => limit('public', t))).toEqual(Array.from({ length: 13 }, () => 2000));
    expect(spec.buckets.map((b) => [b.id, b.scope, b.algorithm, b.algorithm === 'token-bucket' ? 0 : b.windowMs])).toEqual([
      ['spot', 'uid', 'fixed-window-anchored', 30_000],
      ['management', 'uid', 'fixed-window-anchored', 30_000],
      ['public', 'ip', 'fixed-window-anchored', 30_000],
    ]);
  });

  it('429000 without the gw-ratelimit headers is documented overload: not counted', () => {
    const rule = spec.errors?.find((r) => r.id === 'overloaded');
    expect(rule?.provenance.confidence).toBe('documented');
    const fb = interpretResponse(spec, { method: 'POST', path: '/api/v1/hf/orders' }, { status: 429, headers: {}, body: { code: '429000' } }, key);
    expect(fb).toMatchObject({ verdict: 'overloaded', counted: false });
  });

  it('quotes every number and records the check', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    for (const e of spec.endpoints) {
      const fromSdk = e.provenance.source.startsWith('sdk-');
      expect(e.provenance.quote).toMatch(
        fromSdk
          ? /^"x-api-rate-limit-pool": "(Spot|Management|Public)", … "x-api-rate-limit-weight": \d+$/
          : /^API-RATE-LIMIT-POOL \| (SPOT|MANAGEMENT|PUBLIC) \| API-RATE-LIMIT-WEIGHT \| \d+$/,
      );
    }
  });
});
