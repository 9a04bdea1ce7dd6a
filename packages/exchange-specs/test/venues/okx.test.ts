import { describe, expect, it } from 'vitest';
import { bucketForTier, bucketLimit, getVenueSpec, resolveRequest, type Identity, type VenueRequest } from '../../src/index.js';
import { costs, errorCode } from '../helpers.js';

const spec = getVenueSpec('okx');
const key: Identity = { credential: 'sub-1' };
const post = (path: string, body: unknown): VenueRequest => ({ method: 'POST', path, body });

/** The venue's limit of a bucket for a tier (what the spec says OKX allows). */
function venueLimit(id: string, tier?: string): number {
  const b = bucketForTier(spec.buckets.find((x) => x.id === id)!, tier);
  return b.algorithm === 'token-bucket' ? b.capacity : b.limit;
}

describe('okx: the sub-account order limit and its fill-ratio tiers', () => {
  it('labels the tiers as OKX does: Tier 1 is 1,000 orders per 2 s, Tier 8 is 10,000', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8].map((n) => venueLimit('subaccount-orders', `tier-${n}`))).toEqual([1000, 1250, 1500, 1750, 2000, 2500, 3000, 10000]);
  });

  it('defaults to Tier 1, where every new sub-account starts', () => {
    expect(spec.defaultTier).toBe('tier-1');
    const r = resolveRequest(spec, post('/api/v5/trade/order', { instId: 'BTC-USDT-SWAP' }), key);
    const check = r.ok ? r.checks.find((c) => c.key.axis === 'subaccount-orders') : undefined;
    const bucket = spec.buckets.find((b) => b.id === 'subaccount-orders')!;
    expect(check?.limit).toEqual(bucketLimit(spec, bucket, 'tier-1'));
    expect(check?.limit).not.toEqual(bucketLimit(spec, bucket, 'tier-2'));
  });

  it('refuses the old, off-by-one tier names', () => {
    expect(errorCode('okx', post('/api/v5/trade/order', { instId: 'BTC-USDT' }), { credential: 'k', tier: 'fill-ratio-1' })).toBe('unknown_tier');
  });
});

describe('okx: a batch of one order counts on the single-order limit', () => {
  it('place: a one-order batch charges trade/order, not trade/batch-orders', () => {
    expect(costs('okx', post('/api/v5/trade/batch-orders', [{ instId: 'BTC-USDT', side: 'buy' }]), key)).toEqual({
      'trade/order:BTC-USDT': 1,
      'subaccount-orders': 1,
    });
  });
  it('place: two orders charge the batch limit, one unit per order on each instrument', () => {
    expect(costs('okx', post('/api/v5/trade/batch-orders', [{ instId: 'BTC-USDT' }, { instId: 'ETH-USDT' }]), key)).toEqual({
      'trade/batch-orders:BTC-USDT': 1,
      'trade/batch-orders:ETH-USDT': 1,
      'subaccount-orders': 2,
    });
  });
  it('cancel and amend: a one-order batch charges the single cancel and amend limits', () => {
    expect(costs('okx', post('/api/v5/trade/cancel-batch-orders', JSON.stringify([{ instId: 'BTC-USDT', ordId: '1' }])), key)).toEqual({
      'trade/cancel-order:BTC-USDT': 1,
    });
    expect(costs('okx', post('/api/v5/trade/amend-batch-orders', [{ instId: 'BTC-USDT', ordId: '1', newSz: '2' }]), key)).toEqual({
      'trade/amend-order:BTC-USDT': 1,
      'subaccount-orders': 1,
    });
    expect(costs('okx', post('/api/v5/trade/cancel-batch-orders', [{ instId: 'BTC-USDT' }, { instId: 'BTC-USDT' }]), key)).toEqual({
      'trade/cancel-batch-orders:BTC-USDT': 2,
    });
  });
  it("refuses a batch of more than 20 orders (OKX's maximum) rather than under-sizing the burst", () => {
    const orders = Array.from({ length: 21 }, () => ({ instId: 'BTC-USDT' }));
    expect(errorCode('okx', post('/api/v5/trade/batch-orders', orders), key)).toBe('invalid_parameter');
    expect(costs('okx', post('/api/v5/trade/batch-orders', orders.slice(0, 20)), key)['trade/batch-orders:BTC-USDT']).toBe(20);
  });
});

describe('okx: scopes of the trading limits', () => {
  it('limits options per instrument family (User ID + Instrument Family), everything else per instrument', () => {
    expect(costs('okx', post('/api/v5/trade/order', { instId: 'BTC-USD-241227-50000-C' }), key)).toEqual({ 'trade/order:BTC-USD': 1, 'subaccount-orders': 1 });
    expect(costs('okx', post('/api/v5/trade/cancel-order', { instId: 'BTC-USD-241227-60000-P' }), key)).toEqual({ 'trade/cancel-order:BTC-USD': 1 });
    expect(costs('okx', post('/api/v5/trade/order', { instId: 'BTC-USD-241227' }), key)['trade/order:BTC-USD-241227']).toBe(1);
    expect(costs('okx', post('/api/v5/trade/order', { instId: 'BTC-USDT-SWAP' }), key)['trade/order:BTC-USDT-SWAP']).toBe(1);
    const batch = [{ instId: 'ETH-USD-241227-3000-C' }, { instId: 'ETH-USD-250328-4000-P' }, { instId: 'ETH-USDT' }];
    expect(costs('okx', post('/api/v5/trade/batch-orders', batch), key)).toEqual({
      'trade/batch-orders:ETH-USD': 2,
      'trade/batch-orders:ETH-USDT': 1,
      'subaccount-orders': 3,
    });
  });

  it('charges orders tagged isElpTakerAccess to their own 50 per 2 s limit per instrument', () => {
    expect(costs('okx', post('/api/v5/trade/order', { instId: 'BTC-USDT', isElpTakerAccess: true }), key)).toEqual({
      'trade/order:BTC-USDT': 1,
      'subaccount-orders': 1,
      'trade/elp-taker-orders:BTC-USDT': 1,
    });
    expect(costs('okx', post('/api/v5/trade/order', { instId: 'BTC-USDT', isElpTakerAccess: false }), key)['trade/elp-taker-orders:BTC-USDT']).toBeUndefined();
    expect(venueLimit('trade/elp-taker-orders')).toBe(50);
  });
});

describe('okx: every documented number', () => {
  it('pins each bucket to OKX\'s "Rate Limit" line', () => {
    const limits = Object.fromEntries(
      spec.buckets.map((b) => [b.id, b.algorithm === 'token-bucket' ? [b.capacity, b.refillPerSec] : [b.limit, b.windowMs, b.scope]]),
    );
    expect(limits).toEqual({
      'trade/order': [60, 2000, 'uid'],
      'trade/batch-orders': [300, 2000, 'uid'],
      'trade/cancel-order': [60, 2000, 'uid'],
      'trade/cancel-batch-orders': [300, 2000, 'uid'],
      'trade/amend-order': [60, 2000, 'uid'],
      'trade/amend-batch-orders': [300, 2000, 'uid'],
      'trade/elp-taker-orders': [50, 2000, 'uid'],
      'trade/order-get': [60, 2000, 'uid'],
      'trade/orders-pending': [60, 2000, 'uid'],
      'trade/orders-history': [40, 2000, 'uid'],
      'trade/fills': [60, 2000, 'uid'],
      'trade/account-rate-limit': [1, 1000, 'uid'],
      'subaccount-orders': [1000, 2000, 'subaccount'],
      'account/balance': [10, 2000, 'uid'],
      'account/positions': [10, 2000, 'uid'],
      'account/config': [5, 2000, 'uid'],
      'asset/currencies': [6, 1000, 'uid'],
      'market/books': [40, 2000, 'ip'],
      'market/tickers': [20, 2000, 'ip'],
      'market/ticker': [20, 2000, 'ip'],
      'market/candles': [40, 2000, 'ip'],
      'market/trades': [100, 2000, 'ip'],
      'public/instruments': [20, 2000, 'ip'],
      'public/time': [10, 2000, 'ip'],
      'system/status': [1, 5000, 'ip'],
    });
  });

  it('documents market/tickers (20 per 2 s per IP), no longer marked uncertain', () => {
    expect(spec.buckets.find((b) => b.id === 'market/tickers')?.provenance).toMatchObject({
      confidence: 'documented',
      quote: expect.stringContaining('Rate Limit: 20 requests per 2 seconds') as string,
    });
  });

  it('quotes the documentation for every number and records the check', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(spec.buckets.every((b) => (b.provenance.quote ?? '').length > 0)).toBe(true);
    expect(spec.endpoints.every((e) => (e.provenance.quote ?? '').length > 0)).toBe(true);
  });
});
