import { describe, expect, it } from 'vitest';
import {
  admit,
  borrowedAt,
  cancelBooking,
  chargeAt,
  defineBucket,
  freshState,
  isIdle,
  penalizeUntil,
  recordCost,
  redefine,
  roundUpWait,
  sendTime,
  syncBorrowed,
  tokensAt,
  type BucketDefinition,
} from '../src/gcra.js';

const def = (capacity: number, refillPerSec: number): BucketDefinition => defineBucket({ capacity, refillPerSec });

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

describe('gcra: the pure bucket arithmetic (docs/model.md)', () => {
  it('a fresh bucket is full: tokens = capacity, borrowed 0, idle', () => {
    const d = def(10, 10);
    const s = freshState(d);
    expect(tokensAt(s, d, 0)).toBe(10);
    expect(borrowedAt(s, d, 0)).toBe(0);
    expect(isIdle(s, d, 0)).toBe(true);
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
    let s = penalizeUntil(freshState(d), d, 5000);
    expect(probe(s, d, 1, 4999).ok).toBe(false);
    expect(tokensAt(s, d, 5000)).toBeCloseTo(0, 9);
    s = penalizeUntil(s, d, 1000);
    expect(tokensAt(s, d, 5000)).toBeCloseTo(0, 9);
    expect(probe(s, d, 1, 5100).ok).toBe(true);
  });

  it('RL-L5 a new definition keeps the amount borrowed', () => {
    const from = def(10, 10);
    const to = def(100, 1);
    const s = spend(freshState(from), from, 1, 6, 0);
    const converted = redefine(s, from, to, 0);
    expect(borrowedAt(converted, to, 0)).toBeCloseTo(6, 9);
    expect(redefine(freshState(from), from, to, 0)).toBe(freshState(to));
    const quota = def(50, 0);
    expect(borrowedAt(redefine(s, from, quota, 0), quota, 0)).toBeCloseTo(6, 9);
  });

  it('RL-W5 cancel returns the booking only when nothing was charged after it', () => {
    const d = def(1, 1);
    const before = 1000;
    const written = chargeAt(before, d, 1, 1000);
    expect(cancelBooking(written, written, before)).toBe(before);
    const later = chargeAt(written, d, 1, 2000);
    expect(cancelBooking(later, written, before)).toBe(later);
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
});
