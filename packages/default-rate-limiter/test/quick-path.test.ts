import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '@core/rate-limit-conformance';
import type { BucketCheck, BucketKey, Limit } from '@core/rate-limit-contract';
import { KeyResolver, StoreRateLimiter } from '@core/rate-limit-kit';
import { MemoryStore } from '../src/memory-store.js';

// The front door answers calls without options through the store's quick admission (admitQuick,
// admitQuickOne) instead of admit(..., 'probe', undefined, 1, 0). This pins the two together: the same
// random calls through a limiter that takes the quick path and one whose store hides it answer alike
// and leave every bucket in the same state, window entries included.

const KEYS: BucketKey[] = [
  { venue: 'binance', credential: 'k1', axis: 'orders' },
  { venue: 'binance', credential: null, axis: 'ip' },
  { venue: 'okx', credential: 'k2' },
];
const LIMITS: Limit[] = [
  { capacity: 5, refillPerSec: 2 },
  { requests: 3, periodMs: 1000 },
  { capacity: 4, refillPerSec: 0 },
  { perWindow: 4, windowMs: 1000, jitterMs: 50 },
  { perWindow: 6, windowMs: 500 },
];

type Op =
  | { op: 'one'; key: number; limit: number; cost: number; sync: boolean }
  | { op: 'many'; checks: { key: number; limit: number; cost: number }[] }
  | { op: 'book'; key: number; limit: number; cost: number; priority: 'critical' | 'normal' | 'bulk' }
  | { op: 'record'; key: number; cost: number }
  | { op: 'penalize'; key: number; forMs: number }
  | { op: 'advance'; ms: number };

const cost = fc.constantFrom(0, 0.5, 1, 2, 3, 7);
const key = fc.nat({ max: KEYS.length - 1 });
const limit = fc.nat({ max: LIMITS.length - 1 });
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ op: fc.constant('one' as const), key, limit, cost, sync: fc.boolean() }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('many' as const), checks: fc.array(fc.record({ key, limit, cost }), { minLength: 1, maxLength: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      op: fc.constant('book' as const),
      key,
      limit,
      cost,
      priority: fc.constantFrom('critical' as const, 'normal' as const, 'bulk' as const),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('record' as const), key, cost }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('penalize' as const), key, forMs: fc.nat({ max: 2000 }) }) },
  { weight: 3, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(0, 1, 10, 100, 333, 1000) }) },
);

/** A store that offers no quick admission: the front door then takes the general path for every call. */
function withoutQuick(store: MemoryStore): MemoryStore {
  return new Proxy(store, {
    get(target, p) {
      if (p === 'admitQuick' || p === 'admitQuickOne') return undefined;
      const v = Reflect.get(target, p, target);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

class Side {
  readonly store: MemoryStore;
  readonly limiter: StoreRateLimiter;
  constructor(clock: ManualClock, quick: boolean) {
    this.store = new MemoryStore({ clock, sweepEvery: 5, sweepBatch: 3, maxPending: 100, idleGraceMs: 0 });
    this.limiter = new StoreRateLimiter(quick ? this.store : withoutQuick(this.store));
  }
  sync(k: BucketKey, l: Limit, c: number): unknown {
    return (this.limiter as unknown as { checkRateSync(k: BucketKey, l: Limit, c: number): unknown }).checkRateSync(k, l, c);
  }
}

async function apply(s: Side, o: Op): Promise<unknown> {
  switch (o.op) {
    case 'one': {
      const k = KEYS[o.key] as BucketKey;
      const l = LIMITS[o.limit] as Limit;
      return o.sync ? s.sync(k, l, o.cost) : await s.limiter.checkRate(k, l, o.cost);
    }
    case 'many':
      return await s.limiter.checkRates(o.checks.map((c): BucketCheck => ({ key: KEYS[c.key] as BucketKey, limit: LIMITS[c.limit] as Limit, cost: c.cost })));
    case 'book':
      return await s.limiter.checkRate(KEYS[o.key] as BucketKey, LIMITS[o.limit] as Limit, o.cost, { maxWaitMs: 5000, priority: o.priority });
    case 'record':
      s.limiter.record(KEYS[o.key] as BucketKey, o.cost);
      return 'recorded';
    case 'penalize':
      return await s.limiter.penalize(KEYS[o.key] as BucketKey, { forMs: o.forMs });
    case 'advance':
      return 'advanced';
  }
}

describe('the quick admission', () => {
  it('answers and writes exactly as the general path', async () => {
    const ids = KEYS.map((k) => (new KeyResolver().resolve(k) as { id: string }).id);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 40 }), async (ops) => {
        const clock = new ManualClock(1_000_000);
        const quick = new Side(clock, true);
        const general = new Side(clock, false);
        for (const [step, o] of ops.entries()) {
          if (o.op === 'advance') await clock.advance(o.ms);
          const a = await apply(quick, o);
          const b = await apply(general, o);
          expect(a, `step ${step} ${JSON.stringify(o)}`).toEqual(b);
          for (const id of ids) expect(quick.store.inspect(id), `step ${step} bucket ${id}`).toEqual(general.store.inspect(id));
        }
        await quick.limiter.close();
        await general.limiter.close();
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('merges a full window list as the general path does', async () => {
    const ids = KEYS.map((k) => (new KeyResolver().resolve(k) as { id: string }).id);
    const window = fc.record({ perWindow: fc.constantFrom(150, 1000), windowMs: fc.constantFrom(2000, 10_000), jitterMs: fc.constantFrom(0, 30) });
    const step = fc.oneof(
      { weight: 8, arbitrary: fc.record({ ms: fc.constantFrom(0, 0.5, 3, 7, 20), cost: fc.constantFrom(1, 2), bulk: fc.constant(false) }) },
      { weight: 1, arbitrary: fc.record({ ms: fc.constantFrom(0, 3), cost: fc.constant(1), bulk: fc.constant(true) }) },
    );
    await fc.assert(
      fc.asyncProperty(window, fc.array(step, { minLength: 150, maxLength: 400 }), async (limit, steps) => {
        const clock = new ManualClock(1_000_000);
        const quick = new Side(clock, true);
        const general = new Side(clock, false);
        const k = KEYS[0] as BucketKey;
        for (const [i, st] of steps.entries()) {
          await clock.advance(st.ms);
          const o = st.bulk ? { priority: 'bulk' as const } : undefined;
          const a = o === undefined ? await quick.limiter.checkRate(k, limit, st.cost) : await quick.limiter.checkRate(k, limit, st.cost, o);
          const b = o === undefined ? await general.limiter.checkRate(k, limit, st.cost) : await general.limiter.checkRate(k, limit, st.cost, o);
          expect(a, `step ${i}`).toEqual(b);
          expect(quick.store.inspect(ids[0] as string), `step ${i}`).toEqual(general.store.inspect(ids[0] as string));
        }
        await quick.limiter.close();
        await general.limiter.close();
      }),
      { numRuns: 25 },
    );
  }, 60_000);
});
