import { describe, expect, it } from 'vitest';
import { bucketLimit, getVenueSpec, resolveCharges, type VenueRequest, type VenueSpec } from '../src/index.js';

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
