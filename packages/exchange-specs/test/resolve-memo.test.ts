import { describe, expect, it } from 'vitest';
import { bucketLimit, getVenueSpec, resolveCharges, resolveRequest, type VenueRequest, type VenueSpec } from '../src/index.js';

const spec = getVenueSpec('binance-spot');
const weight = spec.buckets.find((b) => b.id === 'request_weight');
const depth = (): VenueRequest => ({ method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '100' } });
const identity = { credential: 'k' };

function weightLimit(r: ReturnType<typeof resolveCharges>): unknown {
  return r.ok ? r.charges.find((c) => c.bucket.id === 'request_weight')?.limit : undefined;
}

describe('a request priced once for its answer (resolveRequest, then interpretResponse on the same request)', () => {
  it('answers the same charges for the same request object, spec, identity and options', () => {
    const request = depth();
    const first = resolveCharges(spec, request, identity, { margin: 0.1 });
    expect(resolveCharges(spec, request, identity, { margin: 0.1 })).toBe(first);
    // other options (a usage report's) do not change the charges
    expect(resolveCharges(spec, request, identity, { margin: 0.1, classes: true })).toBe(first);
  });

  it('resolves again for other options, another identity or another spec, never answering a stale price', () => {
    const request = depth();
    const narrow = resolveCharges(spec, request, identity, { margin: 0.1, windowLimits: false });
    const wide = resolveCharges(spec, request, identity, { margin: 0.5, windowLimits: false });
    expect(weightLimit(wide)).not.toEqual(weightLimit(narrow));
    const other = resolveCharges(spec, request, { credential: 'other' }, { margin: 0.5, windowLimits: false });
    expect(other).not.toBe(wide);
    const halved: VenueSpec = { ...spec, buckets: spec.buckets.map((b) => (b.id === 'request_weight' && 'limit' in b ? { ...b, limit: b.limit / 2 } : b)) };
    const cheaper = resolveCharges(halved, request, identity, { margin: 0.5, windowLimits: false });
    expect(weightLimit(cheaper)).not.toEqual(weightLimit(wide));
    expect(weightLimit(resolveCharges(spec, request, identity, { margin: 0.1, windowLimits: false }))).toEqual(weightLimit(narrow));
  });

  it("derives a bucket's limit once per tier and options, and another for other options", () => {
    if (weight === undefined) throw new Error('binance-spot has a request_weight bucket');
    const a = bucketLimit(spec, weight, undefined, { margin: 0.1 });
    expect(bucketLimit(spec, weight, undefined, { margin: 0.1 })).toBe(a);
    expect(bucketLimit(spec, weight, undefined, { margin: 0.1, windowLimits: false })).not.toEqual(a);
    expect(bucketLimit(spec, weight, undefined, { margin: 0.2, windowLimits: false })).not.toEqual(
      bucketLimit(spec, weight, undefined, { margin: 0.1, windowLimits: false }),
    );
  });
});

describe('a request priced once per shape (the same endpoint, and the same values where the price reads)', () => {
  const okx = getVenueSpec('okx');
  const order = (instId: string, ts: string): VenueRequest => ({
    method: 'POST',
    path: '/api/v5/trade/order',
    body: JSON.stringify({ instId, tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '1', px: '1', clOrdId: ts }),
  });

  it('two requests that differ only where the price does not read share one price', () => {
    const a = resolveRequest(spec, { ...depth(), query: { symbol: 'BTCUSDT', limit: '100', timestamp: '1' } }, identity);
    const b = resolveRequest(spec, { ...depth(), query: { symbol: 'ETHUSDT', limit: '100', timestamp: '2' } }, identity);
    expect(a.ok && b.ok).toBe(true);
    if (!a.ok || !b.ok) return;
    expect(b.checks).toBe(a.checks);
    expect(b.charges).toBe(a.charges);
    expect(resolveCharges(spec, { ...depth(), query: { symbol: 'XRPUSDT', limit: '100' } }, identity)).toBe(
      resolveCharges(spec, { ...depth(), query: { symbol: 'BTCUSDT', limit: '100' } }, identity),
    );
  });

  it('a value the price reads prices again: a depth limit, a partition value, an identity', () => {
    const small = resolveRequest(spec, depth(), identity);
    const large = resolveRequest(spec, { ...depth(), query: { symbol: 'BTCUSDT', limit: '5000' } }, identity);
    if (!small.ok || !large.ok) throw new Error('both depths are priced');
    expect(large.checks).not.toBe(small.checks);
    expect(large.checks.map((c) => c.cost)).not.toEqual(small.checks.map((c) => c.cost));
    expect(resolveRequest(spec, depth(), identity)).toMatchObject({ checks: small.checks });
    const other = resolveRequest(spec, depth(), { credential: 'other' });
    if (!other.ok) throw new Error('priced');
    expect(other.checks).not.toBe(small.checks);
    // OKX's order limit is one bucket per instrument: each instrument its own checks, the same instrument the same
    const btc = resolveRequest(okx, order('BTC-USDT', '1'), identity);
    const eth = resolveRequest(okx, order('ETH-USDT', '2'), identity);
    if (!btc.ok || !eth.ok) throw new Error('OKX orders are priced');
    expect(eth.checks.map((c) => c.key.axis)).not.toEqual(btc.checks.map((c) => c.key.axis));
    const again = resolveRequest(okx, order('BTC-USDT', '3'), identity);
    expect(again.ok && again.checks).toBe(btc.checks);
  });

  it('a request whose price reads a list is priced anew every time (its items may be read one by one)', () => {
    const batch = (ids: string[]): VenueRequest => ({
      method: 'POST',
      path: '/api/v5/trade/batch-orders',
      body: JSON.stringify(ids.map((instId) => ({ instId, tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '1', px: '1' }))),
    });
    const a = resolveCharges(okx, batch(['BTC-USDT', 'ETH-USDT']), identity);
    const b = resolveCharges(okx, batch(['BTC-USDT', 'ETH-USDT']), identity);
    if (!a.ok || !b.ok) throw new Error('OKX batches are priced');
    expect(b).not.toBe(a);
    const priced = (r: typeof a): unknown => r.charges.map((c) => ({ key: c.key, cost: c.cost, venueCost: c.venueCost }));
    expect(priced(b)).toEqual(priced(a));
    expect(a.charges.filter((c) => c.key.axis?.includes('BTC-USDT')).length).toBeGreaterThan(0);
  });
});
