import { describe, expect, it } from 'vitest';
import { createBucketModel, type BucketSpec } from '../src/index.js';

const provenance = { source: 's', confidence: 'documented' } as const;

describe('createBucketModel', () => {
  it('fixed window aligned to the clock: the count resets at each multiple of the window', () => {
    const m = createBucketModel({ id: 'w', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 3, windowMs: 10_000, provenance });
    expect(m.consume(9_000, 3)).toEqual({ admitted: true, used: 3, remaining: 0, resetAtMs: 10_000 });
    expect(m.consume(9_999, 1).admitted).toBe(false);
    expect(m.consume(10_000, 3)).toEqual({ admitted: true, used: 3, remaining: 0, resetAtMs: 20_000 });
  });

  it('fixed window anchored at the first request', () => {
    const m = createBucketModel({ id: 'w', scope: 'uid', algorithm: 'fixed-window-anchored', limit: 2, windowMs: 30_000, provenance });
    expect(m.consume(5_000, 2)).toMatchObject({ admitted: true, resetAtMs: 35_000 });
    expect(m.consume(34_999, 1).admitted).toBe(false);
    expect(m.consume(35_000, 1)).toMatchObject({ admitted: true, used: 1, resetAtMs: 65_000 });
  });

  it('sliding window: admitted while the last window holds room', () => {
    const m = createBucketModel({ id: 's', scope: 'uid', algorithm: 'sliding-window', limit: 2, windowMs: 1000, provenance });
    expect(m.consume(0, 1).admitted).toBe(true);
    expect(m.consume(500, 1).admitted).toBe(true);
    expect(m.consume(999, 1).admitted).toBe(false);
    expect(m.consume(1000, 1)).toMatchObject({ admitted: true, used: 2, resetAtMs: 1500 });
  });

  it('decaying counter (token bucket): counter + cost must stay within capacity', () => {
    const m = createBucketModel({ id: 't', scope: 'key', algorithm: 'token-bucket', capacity: 15, refillPerSec: 0.5, provenance });
    expect(m.consume(0, 15).admitted).toBe(true);
    expect(m.consume(1000, 1).admitted).toBe(false);
    expect(m.consume(2000, 1)).toMatchObject({ admitted: true, used: 15 });
  });

  it('a limit value overrides the window limit (a tier)', () => {
    const m = createBucketModel({ id: 'w', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 1, windowMs: 1000, provenance } satisfies BucketSpec, 5);
    expect(m.consume(0, 5).admitted).toBe(true);
  });
});
