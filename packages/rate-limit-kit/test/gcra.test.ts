import { describe, expect, it } from 'vitest';
import {
  HORIZON_MS,
  MAX_AMOUNT,
  NO_HOLD,
  addUp,
  admits,
  borrowedAt,
  chargeAt,
  defineBucket,
  foldPending,
  freshState,
  isIdle,
  isUnpayable,
  penalizeUntil,
  recordCost,
  redefine,
  roundUpWait,
  sendTime,
  syncBorrowed,
  tokensAt,
  type BucketDefinition,
} from '../src/gcra.js';
import { planAdmission, type AdmissionPlan } from '../src/plan.js';

const def = (capacity: number, refillPerSec: number): BucketDefinition => defineBucket({ capacity, refillPerSec });

type Outcome =
  | { kind: 'ok'; sendAt: number; states: number[] }
  | { kind: 'delay'; waitMs: number; states: number[] }
  | { kind: 'unpayable'; bucket: number; states: number[] };

/**
 * One admission over buckets with the core's own functions, as a limiter composes them: states on the
 * clock here, planned and charged relative to now (gcra.ts, "Times relative to now").
 */
function admit(buckets: { state: number; def: BucketDefinition; cost: number }[], now: number, budgetMs?: number): Outcome {
  const plan: AdmissionPlan = { sendAt: 0, unpayable: -1 };
  const states = buckets.map((b) => b.state);
  const rel = (x: number, d: BucketDefinition): number => (d.quota ? x : x - now);
  const back = (x: number, d: BucketDefinition): number => (d.quota ? x : x + now);
  planAdmission(
    plan,
    buckets.length,
    buckets.map((b) => rel(b.state, b.def)),
    buckets.map((b) => b.def),
    buckets.map((b) => b.cost),
    now,
  );
  if (plan.unpayable >= 0) return { kind: 'unpayable', bucket: plan.unpayable, states };
  if (!admits(plan.sendAt, now, budgetMs)) return { kind: 'delay', waitMs: plan.sendAt - now, states };
  return {
    kind: 'ok',
    sendAt: plan.sendAt,
    states: buckets.map((b) => (b.cost === 0 ? b.state : back(chargeAt(rel(b.state, b.def), b.def, b.cost, plan.sendAt - now), b.def))),
  };
}

/** Admits `cost` as a probe at `now`; returns the new state or the rounded delay. */
function probe(state: number, d: BucketDefinition, cost: number, now: number): { ok: true; state: number } | { ok: false; delay: number } {
  const out = admit([{ state, def: d, cost }], now);
  if (out.kind === 'ok') return { ok: true, state: out.states[0] as number };
  if (out.kind === 'delay') return { ok: false, delay: roundUpWait(out.waitMs) };
  throw new Error('unpayable');
}

/** Spends `n` probes of `cost` at `now`, asserting each is admitted. */
function spend(state: number, d: BucketDefinition, cost: number, n: number, now: number): number {
  for (let i = 0; i < n; i++) {
    const r = probe(state, d, cost, now);
    if (!r.ok) throw new Error(`probe ${i} refused with delay ${r.delay}`);
    state = r.state;
  }
  return state;
}

/** How many probes of `cost` a fresh bucket admits at one instant (stops at 1000). */
function burst(d: BucketDefinition, cost: number): number {
  let s = freshState(d);
  for (let i = 0; i < 1000; i++) {
    const out = admit([{ state: s, def: d, cost }], 0);
    if (out.kind !== 'ok') return i;
    s = out.states[0] as number;
  }
  return 1000;
}

describe('gcra: the one bucket arithmetic (MODEL.md)', () => {
  it('a fresh bucket is full: tokens = capacity, borrowed 0, idle', () => {
    const d = def(10, 10);
    const s = freshState(d);
    expect(tokensAt(s, d, 0)).toBe(10);
    expect(borrowedAt(s, d, 0)).toBe(0);
    expect(isIdle(s, NO_HOLD, d, 0)).toBe(true);
  });

  it('requests 5 per 1000 ms: five ok, then a delay in (0, 1000]', () => {
    const d = def(5, 5);
    const s = spend(freshState(d), d, 1, 5, 0);
    const r = probe(s, d, 1, 0);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.delay).toBe(200);
  });

  it('10 per second: 8 then 2 admitted, the 11th delayed 100 ms', () => {
    const d = def(10, 10);
    let s = probe(freshState(d), d, 8, 0);
    expect(s.ok).toBe(true);
    if (!s.ok) return;
    s = probe(s.state, d, 2, 0);
    expect(s.ok).toBe(true);
    if (!s.ok) return;
    expect(probe(s.state, d, 1, 0)).toEqual({ ok: false, delay: 100 });
  });

  it('RL-A3 a refused probe returns the states unchanged', () => {
    const d = def(5, 5);
    const s = spend(freshState(d), d, 1, 5, 0);
    const out = admit([{ state: s, def: d, cost: 3 }], 0);
    expect(out.kind).toBe('delay');
    expect(out.states[0]).toBe(s);
  });

  it('RL-A5 capacity 5 refill 5, cost 10: the probe is refused, nothing spent; the wait from full is (cost − capacity)/refill', () => {
    const d = def(5, 5);
    const out = admit([{ state: freshState(d), def: d, cost: 10 }], 0);
    expect(out).toEqual({ kind: 'delay', waitMs: 1000, states: [freshState(d)] });
  });

  it('RL-A5 a booking above capacity leaves the bucket at zero at its send time', () => {
    const d = def(5, 5);
    const out = admit([{ state: freshState(d), def: d, cost: 10 }], 0, 2000);
    expect(out.kind).toBe('ok');
    if (out.kind !== 'ok') return;
    expect(out.sendAt).toBe(1000);
    const s = out.states[0] as number;
    expect(tokensAt(s, d, 1000)).toBeCloseTo(0, 9);
    expect(tokensAt(s, d, 1200)).toBeCloseTo(1, 9);
  });

  it('RL-A4 burst is capped at capacity after any idle time', () => {
    const d = def(3, 1);
    const s = spend(freshState(d), d, 1, 3, 1_000_000);
    expect(probe(s, d, 1, 1_000_000).ok).toBe(false);
    const later = spend(s, d, 1, 3, 9_000_000);
    expect(probe(later, d, 1, 9_000_000).ok).toBe(false);
  });

  it('okx capacity 1 refill 9.09: ok, then a delay in (0, 200]; 1/9.0909… ms answers 110, not 111', () => {
    const d = def(1, 9.09);
    const s = spend(freshState(d), d, 1, 1, 0);
    const r = probe(s, d, 1, 0);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.delay).toBeGreaterThan(0);
    if (!r.ok) expect(r.delay).toBeLessThanOrEqual(200);
    const exact = def(1, 1000 / 110);
    const s2 = spend(freshState(exact), exact, 1, 1, 0);
    expect(probe(s2, exact, 1, 0)).toEqual({ ok: false, delay: 110 });
  });

  it('fractional costs are honoured exactly (Binance sapi 0.1)', () => {
    const d = def(1, 1);
    const s = spend(freshState(d), d, 0.1, 10, 0);
    expect(borrowedAt(s, d, 0)).toBeCloseTo(1, 9);
    expect(probe(s, d, 0.1, 0)).toEqual({ ok: false, delay: 100 });
  });

  it('RL-M4 RL-M5 several buckets: the common send time is the largest, each charged as of it', () => {
    const fast = def(1, 50); // T = 20 ms
    const slow = def(1, 2); // T = 500 ms
    const fastState = 20; // empty until 20
    const slowState = 500; // empty until 500
    const out = admit(
      [
        { state: fastState, def: fast, cost: 1 },
        { state: slowState, def: slow, cost: 1 },
      ],
      0,
      1000,
    );
    expect(out.kind).toBe('ok');
    if (out.kind !== 'ok') return;
    expect(out.sendAt).toBe(500);
    // the fast bucket is charged as of 500, not 20: it is full again at 520, not 40
    expect(out.states[0]).toBe(520);
    expect(out.states[1]).toBe(1000);
  });

  it('RL-M4 without a budget the multi-bucket delay is the largest wait', () => {
    const out = admit(
      [
        { state: 20, def: def(1, 50), cost: 1 },
        { state: 500, def: def(1, 2), cost: 1 },
      ],
      0,
    );
    expect(out.kind).toBe('delay');
    if (out.kind === 'delay') expect(out.waitMs).toBe(500);
  });

  it('RL-M1 one bucket short: no state changes anywhere', () => {
    const a = def(10, 10);
    const b = def(2, 1);
    const states = [freshState(a), spend(freshState(b), b, 2, 1, 0)];
    const out = admit(
      [
        { state: states[0] as number, def: a, cost: 1 },
        { state: states[1] as number, def: b, cost: 1 },
      ],
      0,
    );
    expect(out.kind).toBe('delay');
    expect(out.states).toEqual(states);
  });

  it('RL-W3 a wait beyond the budget books nothing', () => {
    const d = def(1, 20);
    const out = admit([{ state: freshState(d), def: d, cost: 15 }], 0, 200);
    expect(out.kind).toBe('delay');
    if (out.kind === 'delay') expect(out.waitMs).toBe(700);
    expect(admit([{ state: freshState(d), def: d, cost: 15 }], 0, 2000).kind).toBe('ok');
  });

  it('RL-L4 refill 0 is a fixed quota: 3 + 5 borrowed 8; a cost that does not fit is unpayable, never a delay', () => {
    const d = def(100, 0);
    expect(d.quota).toBe(true);
    let s = freshState(d);
    s = spend(s, d, 3, 1, 0);
    s = spend(s, d, 5, 1, 0);
    expect(borrowedAt(s, d, 123_456)).toBe(8);
    expect(admit([{ state: s, def: d, cost: 92 }], 0).kind).toBe('ok');
    const out = admit([{ state: s, def: d, cost: 93 }], 0, 1e12);
    expect(out).toEqual({ kind: 'unpayable', bucket: 0, states: [s] });
    expect(sendTime(s, d, 93, 0)).toBe(Infinity);
  });

  it('RL-A2 cost 0 is admitted and changes nothing', () => {
    const d = def(2, 1);
    const s = spend(freshState(d), d, 1, 2, 0);
    const out = admit([{ state: s, def: d, cost: 0 }], 0);
    expect(out).toEqual({ kind: 'ok', sendAt: 0, states: [s] });
  });

  it('RL-R1 record drives the bucket into debt that later callers wait out', () => {
    const d = def(10, 10);
    const s = recordCost(freshState(d), d, 15, 0);
    expect(borrowedAt(s, d, 0)).toBe(15);
    expect(tokensAt(s, d, 0)).toBe(-5);
    expect(probe(s, d, 1, 0)).toEqual({ ok: false, delay: 600 });
  });

  it('RL-R2 sync raises borrowed to what the venue reports and never lowers it', () => {
    const d = def(10, 10);
    let s = syncBorrowed(freshState(d), d, 7, 0);
    expect(borrowedAt(s, d, 0)).toBeCloseTo(7, 9);
    s = syncBorrowed(s, d, 3, 0);
    expect(borrowedAt(s, d, 0)).toBeCloseTo(7, 9);
  });

  it('RL-R3 penalize: nothing before the hold ends, empty then, never shortened', () => {
    const d = def(10, 10);
    let s = penalizeUntil(freshState(d), d, 5000, 0);
    expect(probe(s, d, 1, 4999).ok).toBe(false);
    expect(tokensAt(s, d, 5000)).toBeCloseTo(0, 9);
    s = penalizeUntil(s, d, 1000, 0);
    expect(tokensAt(s, d, 5000)).toBeCloseTo(0, 9);
    expect(probe(s, d, 1, 5100).ok).toBe(true);
  });

  it('RL-L5 a new definition keeps the amount borrowed', () => {
    const from = def(10, 10);
    const to = def(100, 1);
    const s = spend(freshState(from), from, 1, 6, 0);
    const converted = redefine(s, NO_HOLD, from, to, 0);
    expect(borrowedAt(converted, to, 0)).toBeCloseTo(6, 9);
    expect(redefine(freshState(from), NO_HOLD, from, to, 0)).toBe(freshState(to));
    const quota = def(50, 0);
    expect(borrowedAt(redefine(s, NO_HOLD, from, quota, 0), quota, 0)).toBeCloseTo(6, 9);
  });

  it('waits are rounded up after subtracting 1e-9, at least 1', () => {
    expect(roundUpWait(110.00000000000001)).toBe(110);
    expect(roundUpWait(110.2)).toBe(111);
    expect(roundUpWait(0.0001)).toBe(1);
  });

  it('floating point: a bucket spent to exactly zero by tenths is admitted within eps', () => {
    const d = def(0.3, 0.3);
    const s = spend(freshState(d), d, 0.1, 3, 0);
    expect(probe(s, d, 0.1, 0).ok).toBe(false);
  });
  it('RL-A7 the tolerance is relative: capacity 1e-9 admits ten costs of 1e-10, capacity 5e-10 five (refill 0 and refilling)', () => {
    expect(burst(def(1e-9, 0), 1e-10)).toBe(10);
    expect(burst(def(5e-10, 0), 1e-10)).toBe(5);
    expect(burst(def(1e-9, 1e-9), 1e-10)).toBe(10);
    expect(burst(def(5e-10, 5e-10), 1e-10)).toBe(5);
    // a bucket scaled down admits what the bucket of capacity 1 admits
    expect(burst(def(1, 0), 0.1)).toBe(10);
    expect(burst(def(1, 1), 0.1)).toBe(10);
  });

  it('RL-A7 a wait beyond the horizon cannot be represented: unpayable, for a refilling bucket too', () => {
    const d = def(10, 1);
    expect(isUnpayable(sendTime(freshState(d), d, 1e308, 0), 0)).toBe(true);
    expect(admit([{ state: freshState(d), def: d, cost: 1e308 }], 0, 1e300)).toMatchObject({ kind: 'unpayable', bucket: 0 });
    const far = (HORIZON_MS / 1000) * 0.5; // a wait of half the horizon is answered
    expect(admit([{ state: freshState(d), def: d, cost: far }], 0).kind).toBe('delay');
  });

  it('RL-R1 RL-R2 RL-R3 huge finite values are clamped to the horizon, never infinite', () => {
    const d = def(10, 1);
    const now = 5_000;
    expect(recordCost(freshState(d), d, 1e308, now)).toBe(now + HORIZON_MS);
    expect(syncBorrowed(freshState(d), d, 1e308, now)).toBe(now + HORIZON_MS);
    expect(penalizeUntil(freshState(d), d, 1e300, now)).toBe(addUp(now + HORIZON_MS, d.tau));
    const q = def(10, 0);
    expect(recordCost(0, q, 1e308, now)).toBe(MAX_AMOUNT);
    expect(syncBorrowed(0, q, 1e308, now)).toBe(MAX_AMOUNT);
    for (const x of [recordCost(freshState(d), d, 1e308, now), syncBorrowed(freshState(d), d, 1e308, now)]) {
      expect(Number.isFinite(x)).toBe(true);
      expect(probe(x, d, 1, now).ok).toBe(false);
    }
  });

  it('RL-R3 a hold survives a redefinition: nothing before its end, empty then under the new definition', () => {
    const slow = def(10, 1);
    const fast = def(10, 10);
    let x = spend(freshState(slow), slow, 1, 1, 0);
    x = penalizeUntil(x, slow, 5000, 0);
    const hold = 5000;
    const converted = redefine(x, hold, slow, fast, 0);
    expect(probe(converted, fast, 1, 4999).ok).toBe(false);
    expect(tokensAt(converted, fast, 5000)).toBeCloseTo(0, 9);
    expect(probe(converted, fast, 1, 5100).ok).toBe(true);
    // a quota redefined during a hold is used up
    const q = def(5, 0);
    expect(borrowedAt(redefine(x, hold, slow, q, 0), q, 0)).toBeGreaterThanOrEqual(5);
    // after the hold, a redefinition converts only what is borrowed
    expect(borrowedAt(redefine(x, hold, slow, fast, 20_000), fast, 20_000)).toBe(0);
  });

  it('RL-R3 a hold on an undefined bucket: its first definition starts empty as of the hold end, the debt on top', () => {
    const d = def(6000, 100); // 6000 per minute
    // held until 500, first defined 2 s after the penalty: empty at 500, 150 refilled since
    const x = foldPending(0, 500, d, 2000);
    const r = probe(x, d, 6000, 2000);
    expect(r).toEqual({ ok: false, delay: 58_500 });
    const withDebt = foldPending(100, 500, d, 2000);
    expect(borrowedAt(withDebt, d, 2000)).toBeCloseTo(5850 + 100, 6);
    expect(foldPending(3, NO_HOLD, d, 0)).toBeCloseTo(30, 9);
    const q = def(5, 0);
    expect(foldPending(0, 500, q, 2500)).toBe(5);
    expect(foldPending(2, NO_HOLD, q, 0)).toBe(2);
  });

  it('charges never fall short of their cost through float rounding', () => {
    const d = def(1, 3); // T = 333.33… ms
    let x = 1.7e12;
    for (let i = 0; i < 1000; i++) {
      const before = Math.max(x, 1.7e12);
      x = chargeAt(x, d, 1 / 3, 1.7e12);
      expect(x - before).toBeGreaterThanOrEqual((1 / 3) * d.msPerToken);
    }
    expect(addUp(1.7e12, 0.1) - 1.7e12).toBeGreaterThanOrEqual(0.1);
  });

  it('a held bucket is not idle; a full one without a hold is', () => {
    const d = def(10, 10);
    expect(isIdle(freshState(d), 5000, d, 0)).toBe(false);
    expect(isIdle(freshState(d), 5000, d, 6000)).toBe(true);
  });
});
