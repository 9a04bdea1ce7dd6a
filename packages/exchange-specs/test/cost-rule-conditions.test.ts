import { describe, expect, it } from 'vitest';
import { resolveRequest, validateSpec, type CostRule, type Partition, type VenueSpec } from '../src/index.js';

const provenance = { source: 'doc', confidence: 'documented' } as const;
const one = { kind: 'constant', value: 1 } as const;
const perItem = { kind: 'count', param: '', base: 0, per: 1, maxItems: 20 } as const;

/** A venue with a single-order bucket, a batch bucket (both partitioned as given) and one batch endpoint with the given rules. */
function venue(costs: readonly CostRule[], partition: Partition = { kind: 'items', list: '', field: 'instId' }): VenueSpec {
  return {
    id: 'test-venue',
    venue: 'Test',
    product: 'REST',
    origin: 'hand-authored',
    sources: { doc: { url: 'https://example.com/limits', retrieved: '2026-12-01' } },
    buckets: [
      {
        id: 'single',
        scope: 'uid',
        algorithm: 'sliding-window',
        limit: 60,
        windowMs: 2000,
        partition:
          partition.kind === 'items'
            ? { kind: 'param', param: partition.field, ...(partition.pattern === undefined ? {} : { pattern: partition.pattern }) }
            : partition,
        provenance,
      },
      { id: 'batch', scope: 'uid', algorithm: 'sliding-window', limit: 300, windowMs: 2000, partition, provenance },
    ],
    endpoints: [
      { id: 'batch', method: 'POST', path: '/batch', auth: 'private', costs, provenance },
      { id: 'order', method: 'POST', path: '/order', auth: 'private', costs: [{ bucket: 'single', cost: one }], provenance },
    ],
  };
}

const batchRules: readonly CostRule[] = [
  { bucket: 'single', cost: one, when: { param: '', items: { min: 1, max: 1 } } },
  { bucket: 'batch', cost: perItem, when: { param: '', items: { min: 2 } } },
];

function charged(spec: VenueSpec, path: string, body: unknown): Record<string, number> | string {
  const r = resolveRequest(spec, { method: 'POST', path, body }, { credential: 'k' });
  return r.ok ? Object.fromEntries(r.charges.map((c) => [c.key.axis ?? '', c.cost])) : r.error.code;
}

describe('a cost rule conditioned on the number of items of a list', () => {
  const spec = venue(batchRules);

  it('charges a one-item batch to the single-order bucket and a larger one to the batch bucket', () => {
    expect(validateSpec(spec).ok).toBe(true);
    expect(charged(spec, '/batch', [{ instId: 'A' }])).toEqual({ 'single:A': 1 });
    expect(charged(spec, '/batch', JSON.stringify([{ instId: 'A' }, { instId: 'B' }, { instId: 'A' }]))).toEqual({ 'batch:A': 2, 'batch:B': 1 });
  });

  it('refuses a request no rule applies to (an empty batch, a body that is not a list), never prices it free', () => {
    expect(charged(spec, '/batch', [])).toBe('missing_parameter');
    expect(charged(spec, '/batch', { instId: 'A' })).toBe('missing_parameter');
  });

  it('validation: items needs min or max, whole numbers, min <= max; when needs in, notIn or items', () => {
    const paths = (when: unknown) => {
      const r = validateSpec(venue([{ bucket: 'batch', cost: perItem, when } as unknown as CostRule]));
      return r.ok ? [] : r.errors.map((e) => e.path);
    };
    expect(paths({ param: '', items: { max: 1 } })).toEqual([]);
    expect(paths({ param: '', items: {} })).toEqual(['endpoints[0].costs[0].when.items']);
    expect(paths({ param: '', items: { min: 1.5 } })).toEqual(['endpoints[0].costs[0].when.items.min']);
    expect(paths({ param: '', items: { min: 3, max: 2 } })).toEqual(['endpoints[0].costs[0].when.items']);
    expect(paths({ param: '', items: { min: 1, most: 2 } })).toEqual(['endpoints[0].costs[0].when.items.most']);
    expect(paths({ param: 'x' })).toEqual(['endpoints[0].costs[0].when']);
  });
});

describe('a partition by the part of a value a pattern captures', () => {
  const family = '^([^-]+-[^-]+)-\\d{6}-[^-]+-[CP]$';
  const spec = venue(batchRules, { kind: 'items', list: '', field: 'instId', pattern: family });

  it('groups matching values by the capture and keeps the others whole', () => {
    expect(charged(spec, '/order', { instId: 'BTC-USD-241227-50000-C' })).toEqual({ 'single:BTC-USD': 1 });
    expect(charged(spec, '/order', { instId: 'BTC-USD-241227' })).toEqual({ 'single:BTC-USD-241227': 1 });
    expect(charged(spec, '/batch', [{ instId: 'BTC-USD-241227-50000-C' }, { instId: 'BTC-USD-250328-70000-P' }, { instId: 'BTC-USDT' }])).toEqual({
      'batch:BTC-USD': 2,
      'batch:BTC-USDT': 1,
    });
  });

  it('validation: the pattern must compile and capture, and only param and items partitions take one', () => {
    const paths = (partition: unknown) => {
      const r = validateSpec(venue([{ bucket: 'batch', cost: perItem }], partition as Partition));
      return r.ok ? [] : r.errors.map((e) => e.path).filter((p) => p.startsWith('buckets[1]'));
    };
    expect(paths({ kind: 'items', list: '', field: 'instId', pattern: family })).toEqual([]);
    expect(paths({ kind: 'items', list: '', field: 'instId', pattern: '([' })).toEqual(['buckets[1].partition.pattern']);
    expect(paths({ kind: 'items', list: '', field: 'instId', pattern: '^[A-Z]+$' })).toEqual(['buckets[1].partition.pattern']);
    expect(paths({ kind: 'endpoint', pattern: '(x)' })).toEqual(['buckets[1].partition.pattern']);
  });
});

describe('a condition on a JSON boolean parameter', () => {
  it('compares true and false as text', () => {
    const spec = venue(
      [
        { bucket: 'single', cost: one, when: { param: 'flag', in: ['true'] } },
        { bucket: 'batch', cost: one },
      ],
      { kind: 'endpoint' },
    );
    expect(charged(spec, '/batch', { flag: true })).toEqual({ 'single:batch': 1, 'batch:batch': 1 });
    expect(charged(spec, '/batch', { flag: false })).toEqual({ 'batch:batch': 1 });
  });
});
