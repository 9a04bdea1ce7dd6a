// Kraken's AmendOrder, CancelOrder and CancelOrderBatch name orders, not a pair, while the trading engine
// counts per pair: they are charged at their worst case by order age on `trading-key`, the key's bound of
// every pair counter, which every order transaction is charged on too. The simulation checks the claim that
// makes this sound: whatever pair and age the orders have, a client that keeps `trading-key` under the
// threshold never takes a pair's counter (as Kraken's Spot Trading Limits guide describes it) past it.
import { describe, expect, it } from 'vitest';
import { bucketForTier, getVenueSpec, resolveRequest, type VenueRequest } from '../../src/index.js';
import { rng } from '../helpers.js';

const spec = getVenueSpec('kraken');
const priv = (name: string, body: unknown): VenueRequest => ({ method: 'POST', path: `/0/private/${name}`, body });

function resolved(request: VenueRequest, tier?: string) {
  const r = resolveRequest(spec, request, { credential: 'key-1', ...(tier === undefined ? {} : { tier }) });
  if (!r.ok) return r.error.code;
  return Object.fromEntries(r.charges.map((c) => [c.key.axis, c.cost]));
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => `O${i}`);

describe('kraken: order transactions that name no pair', () => {
  it('AmendOrder and CancelOrder resolve without a pair parameter (Kraken takes none)', () => {
    expect(resolved(priv('AmendOrder', { txid: 'O1', order_qty: '1' }))).toEqual({ ip: 1, 'trading-key': 4, 'rest-counter': 1 });
    expect(resolved(priv('CancelOrder', { txid: 'O1' }))).toEqual({ ip: 1, 'trading-key': 8 });
    expect(resolved(priv('CancelOrder', { cl_ord_id: 'c1' }))).toEqual({ ip: 1, 'trading-key': 8 });
  });

  it('CancelOrderBatch: 8 per id (worst case by age), refused beyond 7 ids (56 of the lowest threshold, 60)', () => {
    expect(resolved(priv('CancelOrderBatch', { orders: ids(2) }))).toEqual({ ip: 1, 'trading-key': 16, 'rest-counter': 1 });
    expect(resolved(priv('CancelOrderBatch', { cl_ord_ids: ids(7) }))).toEqual({ ip: 1, 'trading-key': 56, 'rest-counter': 1 });
    // Kraken accepts a batch past the threshold, then refuses the pair until it decays: split instead.
    expect(resolved(priv('CancelOrderBatch', { orders: ids(8) }))).toBe('invalid_parameter');
    expect(resolved(priv('CancelOrderBatch', { cl_ord_ids: ids(8) }), 'pro')).toBe('invalid_parameter');
    expect(resolved(priv('CancelOrderBatch', { orders: ids(2), cl_ord_ids: ids(2) }), 'pro')).toBe('invalid_parameter');
    expect(resolved(priv('CancelOrderBatch', {}))).toBe('missing_parameter');
  });

  it('every order transaction of a pair is charged on trading-key as on its pair counter', () => {
    for (const [name, body] of [
      ['AddOrder', { pair: 'XBTUSD' }],
      ['EditOrder', { pair: 'XBTUSD', txid: 'O1' }],
      ['AddOrderBatch', { pair: 'XBTUSD', orders: [{}, {}, {}] }],
    ] as const) {
      const r = resolved(priv(name, body));
      expect(typeof r === 'string' ? r : r['trading-key'], name).toBe(typeof r === 'string' ? 'x' : r['trading:XBTUSD']);
    }
    const key = spec.buckets.find((b) => b.id === 'trading-key')!;
    const pairs = spec.buckets.find((b) => b.id === 'trading')!;
    const sized = (x: ReturnType<typeof bucketForTier>) => (x.algorithm === 'token-bucket' ? [x.capacity, x.refillPerSec] : []);
    for (const tier of ['starter', 'intermediate', 'pro']) expect(sized(bucketForTier(key, tier)), tier).toEqual(sized(bucketForTier(pairs, tier)));
    expect([key.scope, key.partition]).toEqual([pairs.scope, undefined]);
  });
});

/** Kraken's table: the decaying count of an order by its age in seconds (Spot Trading Limits guide). */
const AGE_ROWS = { cancel: [8, 6, 5, 4, 2, 1], amend: [3, 2, 1, 0, 0, 0], edit: [6, 5, 4, 2, 1, 0] } as const;
const AGES = [5, 10, 15, 45, 90, 300];
const decaying = (kind: keyof typeof AGE_ROWS, age: number): number => {
  const i = AGES.findIndex((a) => age < a);
  return i < 0 ? 0 : AGE_ROWS[kind][i]!;
};

describe('kraken: keeping trading-key under the threshold keeps every pair counter under it', () => {
  it.each(['starter', 'intermediate', 'pro'])('%s: random order transactions on 4 pairs, random order ages', (tier) => {
    const b = bucketForTier(spec.buckets.find((x) => x.id === 'trading-key')!, tier);
    if (b.algorithm !== 'token-bucket') throw new Error('token bucket expected');
    const random = rng(tier.length * 7919);
    const pairs = ['XBTUSD', 'ETHUSD', 'SOLUSD', 'ADAUSD'];
    const venue = new Map(pairs.map((p) => [p, 0]));
    let level = 0;
    let admitted = 0;
    for (let step = 0; step < 4000; step++) {
      const dt = random() * 1.5;
      level = Math.max(0, level - b.refillPerSec * dt);
      for (const p of pairs) venue.set(p, Math.max(0, venue.get(p)! - b.refillPerSec * dt));
      const pair = pairs[Math.floor(random() * pairs.length)]!;
      const age = random() * 400;
      const n = 2 + Math.floor(random() * 10);
      // what the venue adds, per pair; and the request the client resolves (no pair where Kraken takes none)
      const kinds = ['AddOrder', 'AddOrderBatch', 'EditOrder', 'AmendOrder', 'CancelOrder', 'CancelOrderBatch'] as const;
      const kind = kinds[Math.floor(random() * kinds.length)]!;
      const adds = new Map<string, number>();
      const add = (p: string, x: number) => adds.set(p, (adds.get(p) ?? 0) + x);
      let request: VenueRequest;
      if (kind === 'AddOrder') add(pair, 1), (request = priv(kind, { pair }));
      else if (kind === 'AddOrderBatch')
        add(pair, Math.min(n, 15) / 2), (request = priv(kind, { pair, orders: Array.from({ length: Math.min(n, 15) }, () => ({})) }));
      else if (kind === 'EditOrder') add(pair, 1 + decaying('edit', age)), (request = priv(kind, { pair, txid: 'O1' }));
      else if (kind === 'AmendOrder') add(pair, 1 + decaying('amend', age)), (request = priv(kind, { txid: 'O1' }));
      else if (kind === 'CancelOrder') add(pair, decaying('cancel', age)), (request = priv(kind, { txid: 'O1' }));
      else {
        for (let i = 0; i < n; i++) add(pairs[Math.floor(random() * pairs.length)]!, decaying('cancel', random() * 400));
        request = priv(kind, { orders: ids(n) });
      }
      const r = resolveRequest(spec, request, { credential: 'key-1', tier });
      if (!r.ok) {
        expect(r.error.code, kind).toBe('invalid_parameter'); // a batch cancel above the threshold: split
        continue;
      }
      const cost = r.charges.filter((c) => c.key.axis === 'trading-key').reduce((s, c) => s + c.cost, 0);
      if (level + cost > b.capacity) continue; // the client waits
      level += cost;
      admitted++;
      for (const [p, x] of adds) venue.set(p, venue.get(p)! + x);
      for (const p of pairs) expect(venue.get(p)!, `${tier} step ${step} ${kind} ${p}`).toBeLessThanOrEqual(b.capacity + 1e-9);
      for (const p of pairs) expect(venue.get(p)!, `${kind} ${JSON.stringify(r.charges.map((c) => [c.key.axis, c.cost]))}`).toBeLessThanOrEqual(level + 1e-9);
    }
    expect(admitted).toBeGreaterThan(300);
  });
});
