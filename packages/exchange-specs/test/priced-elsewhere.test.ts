import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveRequest, validateSpec, type VenueSpec } from '../src/index.js';

const spot = getVenueSpec('binance-spot');
const errors = (data: unknown): string[] => {
  const r = validateSpec(data);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
};

describe('pricedElsewhere: paths of the venue another spec prices', () => {
  it('a path under a listed prefix is refused naming the spec, even when the spec has a default price', () => {
    const withFallback: VenueSpec = {
      ...spot,
      fallback: {
        costs: [{ bucket: 'request_weight', cost: { kind: 'constant', value: 1 } }],
        provenance: { source: 'limits', confidence: 'uncertain', quote: 'x' },
      },
    };
    const r = resolveRequest(withFallback, { method: 'GET', path: '/sapi/v1/system/status' }, { credential: null });
    expect(r.ok ? 'priced' : [r.error.code, r.error.pricedBy]).toEqual(['unknown_endpoint', 'binance-sapi']);
    // any other unknown path still gets the default
    expect(resolveRequest(withFallback, { method: 'GET', path: '/api/v3/somethingNew' }, { credential: null }).ok).toBe(true);
  });

  it("the spec's own endpoints are priced as before", () => {
    expect(resolveRequest(spot, { method: 'GET', path: '/api/v3/ping' }, { credential: null }).ok).toBe(true);
  });

  it('is validated: a prefix starts with "/", names a spec other than itself, and has no other field', () => {
    expect(errors({ ...spot, pricedElsewhere: [{ prefix: 'sapi/', spec: 'binance-sapi' }] })).toEqual([
      'pricedElsewhere[0].prefix: expected a path prefix starting with "/", got "sapi/"',
    ]);
    expect(errors({ ...spot, pricedElsewhere: [{ prefix: '/api/', spec: 'binance-spot' }] })).toEqual([
      'pricedElsewhere[0].spec: a spec cannot send its own paths to itself',
    ]);
    expect(errors({ ...spot, pricedElsewhere: [{ prefix: '/x/', spec: 'y', host: 'z' }] })).toEqual(['pricedElsewhere[0].host: unknown field "host"']);
    expect(errors({ ...spot, pricedElsewhere: [{ prefix: '/x/' }] })).toEqual([
      expect.stringContaining('pricedElsewhere[0].spec: expected a non-empty string') as string,
    ]);
  });
});
