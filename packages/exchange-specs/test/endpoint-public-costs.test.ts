import { describe, expect, it } from 'vitest';
import { bucketMaxCost, resolveRequest, validateSpec, type VenueSpec } from '../src/index.js';

/** A spec whose public endpoint charges an authenticated call to the account and an anonymous one to the IP. */
const spec: VenueSpec = {
  id: 'test-public-costs',
  venue: 'Test',
  product: 'public costs',
  origin: 'hand-authored',
  sources: { s: { url: 'https://example.com/limits', retrieved: '2026-12-01' } },
  buckets: [
    { id: 'ip', scope: 'ip', algorithm: 'sliding-window', limit: 100, windowMs: 1000, provenance: { source: 's', confidence: 'documented' } },
    { id: 'account', scope: 'key', algorithm: 'sliding-window', limit: 100, windowMs: 1000, provenance: { source: 's', confidence: 'documented' } },
  ],
  endpoints: [
    {
      id: 'ticker',
      method: 'GET',
      path: '/ticker',
      auth: 'public',
      costs: [{ bucket: 'account', cost: { kind: 'constant', value: 2 } }],
      publicCosts: [{ bucket: 'ip', cost: { kind: 'constant', value: 7 } }],
      provenance: { source: 's', confidence: 'documented' },
    },
  ],
};

describe('EndpointSpec.publicCosts', () => {
  it('prices a request without a credential by publicCosts, one with a credential by costs', () => {
    const anon = resolveRequest(spec, { method: 'GET', path: '/ticker' }, { credential: null });
    const keyed = resolveRequest(spec, { method: 'GET', path: '/ticker' }, { credential: 'k' });
    expect(anon.ok && anon.charges.map((c) => [c.bucket, c.cost])).toEqual([['ip', 7]]);
    expect(keyed.ok && keyed.charges.map((c) => [c.bucket, c.cost])).toEqual([['account', 2]]);
  });

  it('sizes a bucket by its publicCosts too', () => {
    expect(bucketMaxCost(spec, 'ip')).toBe(7);
  });

  it('validates publicCosts, and refuses them on a private endpoint', () => {
    expect(validateSpec(spec).ok).toBe(true);
    const unknownBucket = { ...spec, endpoints: [{ ...spec.endpoints[0]!, publicCosts: [{ bucket: 'nope', cost: { kind: 'constant', value: 1 } }] }] };
    const r1 = validateSpec(unknownBucket);
    expect(r1.ok ? [] : r1.errors.map((e) => e.path)).toEqual(['endpoints[0].publicCosts[0].bucket']);
    const onPrivate = { ...spec, endpoints: [{ ...spec.endpoints[0]!, auth: 'private' }] };
    const r2 = validateSpec(onPrivate);
    expect(r2.ok ? [] : r2.errors.map((e) => e.path)).toEqual(['endpoints[0].publicCosts']);
  });
});
