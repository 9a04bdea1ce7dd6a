import { describe, expect, it } from 'vitest';
import {
  bucketMaxCost,
  CCXT_CAPACITY_HEADROOM,
  getVenueSpec,
  handAuthoredSpecs,
  listVenues,
  resolveRequest,
  safeLimit,
  specFromCcxt,
  validateSpec,
  type VenueSpec,
} from '../src/index.js';

describe('every spec validates', () => {
  it.each(handAuthoredSpecs.map((s) => [s.id, s] as const))('hand-authored %s', (_id, spec) => {
    const r = validateSpec(spec);
    expect(r.ok ? [] : r.errors).toEqual([]);
  });

  it('every ccxt-derived spec loads, validates and names ccxt 4.5.84', () => {
    const generated = listVenues().filter((v) => v.origin === 'ccxt-derived');
    expect(generated.length).toBeGreaterThan(80);
    for (const v of generated) {
      const spec = getVenueSpec(v.id);
      expect(spec.origin).toBe('ccxt-derived');
      expect(spec.ccxtVersion).toBe('4.5.84');
      expect(spec.buckets.every((b) => b.provenance.confidence === 'ccxt-derived')).toBe(true);
    }
  });
});

describe('hand-authored specs are consistent', () => {
  it.each(handAuthoredSpecs.map((s) => [s.id, s] as const))('%s: no single cost exceeds its bucket, every source is used', (_id, spec) => {
    for (const b of spec.buckets) {
      const max = bucketMaxCost(spec, b.id);
      expect(max, `${b.id}`).toBeLessThanOrEqual(b.algorithm === 'token-bucket' ? b.capacity : b.limit);
    }
    const used = new Set<string>(
      JSON.stringify(spec)
        .match(/"source":"[^"]+"/g)
        ?.map((m) => m.slice(10, -1)) ?? [],
    );
    expect(Object.keys(spec.sources).filter((s) => !used.has(s))).toEqual([]);
  });
});

describe('registry', () => {
  it('hand-authored specs win over ccxt-derived ones with the same id', () => {
    for (const id of ['okx', 'bybit', 'kucoin', 'kraken', 'hyperliquid']) expect(getVenueSpec(id).origin).toBe('hand-authored');
    expect(listVenues().filter((v) => v.id === 'okx')).toEqual([{ id: 'okx', origin: 'hand-authored', evidence: 'documented', aliases: [] }]);
    expect(listVenues().filter((v) => v.ccxtId === 'okx')).toEqual([
      { id: 'ccxt:okx', origin: 'ccxt-derived', evidence: 'estimated from ccxt', aliases: [], ccxtId: 'okx' },
    ]);
  });

  it('an unknown venue is a clear error', () => {
    expect(() => getVenueSpec('no-such-venue')).toThrow(/unknown venue "no-such-venue"; known venues: binance-spot/);
  });
});

describe('validation errors name the bad field', () => {
  const base = handAuthoredSpecs[0] as VenueSpec;
  const broken = (patch: (s: Record<string, unknown>) => void): unknown => {
    const copy = JSON.parse(JSON.stringify(base)) as Record<string, unknown>;
    patch(copy);
    return copy;
  };
  const errors = (data: unknown) => {
    const r = validateSpec(data);
    return r.ok ? [] : r.errors;
  };

  it('a non-object', () => {
    expect(errors(42)).toEqual([{ path: '', message: 'expected an object, got 42' }]);
  });
  it('a negative window', () => {
    expect(errors(broken((s) => ((s['buckets'] as Record<string, unknown>[])[0]!['windowMs'] = -1)))).toEqual([
      { path: 'buckets[0].windowMs', message: 'expected a number > 0, got -1' },
    ]);
  });
  it('an unknown bucket in a cost rule', () => {
    expect(errors(broken((s) => ((s['endpoints'] as { costs: Record<string, unknown>[] }[])[0]!.costs[0]!['bucket'] = 'nope')))).toEqual([
      { path: 'endpoints[0].costs[0].bucket', message: 'unknown bucket "nope"' },
    ]);
  });
  it('an unknown algorithm, source and confidence', () => {
    const e = errors(
      broken((s) => {
        const b = (s['buckets'] as Record<string, unknown>[])[1]!;
        b['algorithm'] = 'leaky';
        b['provenance'] = { source: 'nowhere', confidence: 'vibes', quote: 'a quote' };
      }),
    );
    expect(e.map((x) => x.path)).toEqual(['buckets[1].provenance.source', 'buckets[1].provenance.confidence', 'buckets[1].algorithm']);
  });
  it('a bad retrieved date and an upper-case header', () => {
    const e = errors(
      broken((s) => {
        (s['sources'] as Record<string, Record<string, unknown>>)['limits']!['retrieved'] = 'last week';
        (s['feedback'] as Record<string, unknown>[])[0]!['header'] = 'X-MBX-USED-WEIGHT-1M';
      }),
    );
    expect(e.map((x) => x.path)).toEqual(['sources.limits.retrieved', 'feedback[0].header']);
  });
  it('a misspelt field', () => {
    const e = errors(
      broken((s) => {
        const b = (s['buckets'] as Record<string, unknown>[])[0]!;
        b['windowMS'] = b['windowMs'];
        delete b['windowMs'];
      }),
    );
    expect(e).toEqual([
      { path: 'buckets[0].windowMS', message: 'unknown field "windowMS"' },
      { path: 'buckets[0].windowMs', message: 'expected a finite number, got nothing' },
    ]);
  });
  it('a duplicate bucket id and a table out of order', () => {
    const e = errors(
      broken((s) => {
        const buckets = s['buckets'] as Record<string, unknown>[];
        buckets[1]!['id'] = buckets[0]!['id'];
        const depth = (s['endpoints'] as { id: string; costs: { cost: { rows: { upTo: number }[] } }[] }[]).find((x) => x.id === 'depth')!;
        depth.costs[0]!.cost.rows[1]!.upTo = 50;
      }),
    );
    expect(e.map((x) => x.path)).toContain('buckets[1].id');
    expect(e.map((x) => x.path)).toContain('endpoints[3].costs[0].cost.rows[1].upTo');
  });
});

describe('a bucket that can never admit a cost charged to it', () => {
  const provenance = { source: 'ccxt', confidence: 'ccxt-derived' } as const;
  const file = {
    id: 'tiny',
    name: 'Tiny',
    ccxtVersion: '4.5.84',
    generated: '2026-11-30',
    rateLimitMs: 100,
    defaultCost: 1,
    semantics: 'Exchange',
    hosts: ['api.tiny.example'],
    sections: [
      {
        section: 'public',
        host: 0,
        prefix: '/v1',
        auth: 'public',
        endpoints: [
          ['GET', 'heavy', 5],
          ['GET', 'light', 0.5],
        ],
      },
    ],
    unresolved: [],
  };

  it('the ccxt mapping sizes the bucket at the largest cost plus 10 % and 100 ms of refill, so every request can be admitted', () => {
    const r = validateSpec(specFromCcxt(file));
    expect(r.ok ? [] : r.errors).toEqual([]);
    const spec = r.ok ? r.spec : undefined;
    const bucket = spec?.buckets[0];
    expect(bucket?.algorithm === 'token-bucket' ? bucket.capacity : undefined).toBe(Math.ceil(5 * CCXT_CAPACITY_HEADROOM + 1)); // 5 · 1.1 + 10/s · 0.1 s
    // the limiter's safe capacity (margin, jitter) still covers the heaviest request
    const safe = bucket === undefined ? undefined : safeLimit(bucket);
    expect(safe?.capacity).toBeGreaterThanOrEqual(5);
    expect(resolveRequest(spec!, { method: 'GET', path: '/v1/heavy' }, { credential: null })).toMatchObject({ ok: true, checks: [{ cost: 5 }] });
  });

  it('every generated ccxt spec admits its heaviest cost at once', () => {
    for (const v of listVenues().filter((x) => x.origin === 'ccxt-derived')) {
      const spec = getVenueSpec(v.id);
      const b = spec.buckets[0]!;
      expect(b.algorithm === 'token-bucket' ? safeLimit(b, { maxCost: bucketMaxCost(spec, b.id) }).capacity : 0, v.id).toBeGreaterThanOrEqual(
        bucketMaxCost(spec, b.id),
      );
    }
  });

  it('validation refuses it with the path and the cost (capacity 1, cost 5: ccxt debt semantics)', () => {
    const spec = specFromCcxt(file) as VenueSpec;
    const broken = { ...spec, buckets: [{ id: 'ccxt', scope: 'ip', algorithm: 'token-bucket', capacity: 1, refillPerSec: 10, provenance }] };
    const r = validateSpec(broken);
    expect(r.ok).toBe(false);
    expect(r.ok ? [] : r.errors).toContainEqual({ path: 'buckets[0].capacity', message: expect.stringContaining('can never admit the cost of 5') as string });
  });
});
