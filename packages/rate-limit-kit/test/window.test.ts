import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  AT_OTHERS,
  AT_SUM,
  LEDGER_HEADER,
  WINDOW_SLOTS,
  defineWindow,
  emptyLedger,
  pruneWindow,
  slotOf,
  windowBorrowed,
  windowCharge,
  windowChargeNow,
  windowExpiry,
  windowPenalize,
  windowRecord,
  windowSendTime,
  windowCounted,
  windowSync,
} from '../src/window.js';

// 100 per 1 s with 50 ms of jitter: slots of 7.8125 ms, runs of M = ceil(1050 / 7.8125) + 1 = 136 slots.
const d = defineWindow(100, 1000, 50);
const T0 = 1_000_000;

function fill(n: number, at = T0): number[] {
  let e = emptyLedger();
  for (let i = 0; i < n; i++) e = windowCharge(e, d, 1, at, at);
  return e;
}

describe('slot ledger: geometry', () => {
  it('slots of windowMs / 128, runs of ceil(span / g) + 1 slots', () => {
    expect(d.g).toBe(1000 / WINDOW_SLOTS);
    expect(d.M).toBe(136);
    expect(defineWindow(10, 1000, 0).M).toBe(WINDOW_SLOTS + 1);
  });
});

describe('slot ledger: admission', () => {
  it('admits perWindow at once, then waits until the first slot leaves every run', () => {
    const e = fill(100);
    expect(windowSendTime(fill(99), d, 1, T0)).toBe(T0);
    const t = windowSendTime(e, d, 1, T0 + 1);
    expect(t).toBe((slotOf(T0, d) + d.M) * d.g);
    // never sooner than one span after the burst: every interval (T - span, T] stays within perWindow
    expect(t).toBeGreaterThanOrEqual(T0 + d.span);
  });

  it('a burst late in its slot: the next send still waits a whole span of send times', () => {
    const late = T0 + 0.95 * d.g;
    const t = windowSendTime(fill(100, late), d, 1, late);
    expect(t).toBeGreaterThanOrEqual(late + d.span);
  });

  it('a cost above the line never fits', () => {
    expect(windowSendTime(emptyLedger(), d, 100.000001, T0)).toBe(Infinity);
    expect(windowSendTime(emptyLedger(), d, 60, T0, 50)).toBe(Infinity);
  });

  it('a class line: a bulk call stops at 80 while a critical one fills to 100', () => {
    const e = fill(80);
    expect(windowSendTime(e, d, 1, T0, 80)).toBeGreaterThan(T0);
    expect(windowSendTime(e, d, 1, T0, 100)).toBe(T0);
  });

  it('a booking ahead: a later cheap call goes earlier only where its runs have room beside it', () => {
    let e = fill(100);
    const booked = windowSendTime(e, d, 1, T0);
    e = windowCharge(e, d, 1, booked, T0);
    // the booking's runs hold it, so the next waits one more slot past the burst's departure at the least
    expect(windowSendTime(e, d, 1, T0)).toBeGreaterThanOrEqual(booked);
  });

  it('keeps only the slots that can still count, and their sum', () => {
    let e = emptyLedger();
    for (let i = 0; i < 200; i++) e = windowCharge(e, d, 1, T0 + i * 20, T0 + i * 20);
    const later = pruneWindow(e, d, T0 + 200 * 20);
    expect((later.length - LEDGER_HEADER) / 2).toBeLessThanOrEqual(d.M);
    let sum = 0;
    for (let i = LEDGER_HEADER + 1; i < later.length; i += 2) sum += later[i] as number;
    expect(later[AT_SUM]).toBeCloseTo(sum, 9);
  });
});

describe('slot ledger: records, penalties, borrowed', () => {
  it('a record counts now, even beyond the limit, and later sends wait it out', () => {
    const e = windowRecord(emptyLedger(), d, 150, T0);
    expect(windowBorrowed(e, d, T0)).toBe(150);
    expect(windowSendTime(e, d, 1, T0)).toBe((slotOf(T0, d) + d.M) * d.g);
  });

  it('a penalty admits nothing before its end, and the next send goes a span after it', () => {
    const e = windowPenalize(emptyLedger(), d, T0 + 5000, T0);
    expect(windowSendTime(e, d, 1, T0)).toBeGreaterThanOrEqual(T0 + 5000 + d.span);
    expect(windowBorrowed(e, d, T0)).toBe(100);
  });

  it('counted is the window ending now: sends and records, not what left it, not bookings ahead, not others', () => {
    let e = emptyLedger();
    e = windowCharge(e, d, 30, T0 - 1500, T0 - 1500); // left the window ending at T0
    e = windowCharge(e, d, 20, T0 - 900, T0);
    e = windowRecord(e, d, 5, T0);
    e = windowCharge(e, d, 40, T0 + 400, T0); // booked ahead
    const synced = windowSync(e, d, 70, T0, T0 - 10, 0, undefined);
    expect(windowCounted(synced, d, T0)).toBe(25);
    expect(windowBorrowed(synced, d, T0)).toBeGreaterThan(25);
    expect(windowCounted(synced, d, T0 + 950)).toBe(45);
    expect(windowCounted(synced, d, T0 + 1050)).toBe(40);
    expect(windowCounted(emptyLedger(), d, T0)).toBe(0);
  });

  it('an empty ledger is idle; one send keeps it until its slot leaves every run', () => {
    expect(windowExpiry(emptyLedger(), d)).toBe(-Infinity);
    expect(windowExpiry(fill(1), d)).toBe((slotOf(T0, d) + d.M) * d.g);
  });
});

describe('slot ledger: reports', () => {
  it("others' use is what the venue counted less this deployment's sends surely counted", () => {
    // 30 sent 2 s ago (surely counted in a rolling window of 1 s? no: they left it), 40 sent 500 ms ago
    let e = emptyLedger();
    e = windowCharge(e, d, 40, T0 - 500, T0 - 500);
    const synced = windowSync(e, d, 70, T0, T0 - 10, 0, undefined);
    expect(synced[AT_OTHERS]).toBe(30);
    expect(windowBorrowed(synced, d, T0)).toBe(70);
  });

  it("the caller's count and the store's are lower bounds: the larger is taken, never the sum", () => {
    let e = emptyLedger();
    e = windowCharge(e, d, 40, T0 - 500, T0 - 500);
    expect(windowSync(e, d, 70, T0, T0 - 10, 50, undefined)[AT_OTHERS]).toBe(20);
    expect(windowSync(e, d, 70, T0, T0 - 10, 10, undefined)[AT_OTHERS]).toBe(30);
  });

  it('a newer report replaces one the venue counted before its request was sent; an overlapping one keeps the larger', () => {
    let e = windowSync(emptyLedger(), d, 30, T0, T0 - 5, 0, undefined);
    expect(e[AT_OTHERS]).toBe(30);
    e = windowSync(e, d, 10, T0 + 400, T0 + 390, 0, undefined);
    expect(e[AT_OTHERS]).toBe(10);
    e = windowSync(e, d, 5, T0 + 401, T0 + 395, 0, undefined);
    expect(e[AT_OTHERS]).toBe(10);
  });

  it("a fixed window's report forgets what reached the venue before it began, and its end forgets the rest", () => {
    const fixed = defineWindow(100, 10_000, 50);
    let e = emptyLedger();
    for (let i = 0; i < 100; i++) e = windowCharge(e, fixed, 1, T0 + 9_000, T0 + 9_000);
    // the window [T0, T0 + 10 s) is full; the venue's answer says it ends at T0 + 10 s
    e = windowSync(e, fixed, 100, T0 + 9_100, T0 + 9_000, 100, [T0 + 10_000, T0 + 10_000]);
    expect(windowSendTime(e, fixed, 1, T0 + 9_100)).toBe(T0 + 10_000);
    // a stale report of that window, answered after it ended, changes nothing
    const rolled = windowCharge(e, fixed, 1, T0 + 10_000, T0 + 10_000);
    const stale = windowSync(rolled, fixed, 100, T0 + 10_040, T0 + 9_000, 0, [T0 + 10_000, T0 + 10_000]);
    expect(windowSendTime(stale, fixed, 99, T0 + 10_040)).toBe(T0 + 10_040);
  });
});

describe('slot ledger: RL-V1 over random interleavings', () => {
  it('never more than perWindow in any interval of windowMs + jitterMs of send times', () => {
    const op = fc.oneof(
      {
        weight: 6,
        arbitrary: fc.record({
          kind: fc.constant('send' as const),
          cost: fc.double({ min: 0.5, max: 40, noNaN: true }),
          dt: fc.double({ min: 0, max: 60, noNaN: true }),
          budget: fc.integer({ min: 0, max: 4000 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('record' as const),
          cost: fc.double({ min: 0, max: 30, noNaN: true }),
          dt: fc.double({ min: 0, max: 400, noNaN: true }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('sync' as const),
          used: fc.double({ min: 0, max: 120, noNaN: true }),
          dt: fc.double({ min: 0, max: 400, noNaN: true }),
          own: fc.double({ min: 0, max: 100, noNaN: true }),
        }),
      },
    );
    fc.assert(
      fc.property(fc.double({ min: 0, max: 20, noNaN: true }), fc.array(op, { minLength: 20, maxLength: 150 }), (offset, ops) => {
        let e = emptyLedger();
        let now = T0 + offset;
        const sends: { t: number; cost: number }[] = [];
        for (const o of ops) {
          now += o.dt;
          if (o.kind === 'send') {
            const t = windowSendTime(e, d, o.cost, now);
            if (t - now <= o.budget) {
              e = windowCharge(e, d, o.cost, t, now);
              sends.push({ t, cost: o.cost });
            }
          } else if (o.kind === 'record') e = windowRecord(e, d, o.cost, now);
          else e = windowSync(e, d, o.used, now, now - 30, o.own, undefined);
        }
        // admitted cost in every interval (T - span, T], T at each send time (where the count rises)
        for (const a of sends) {
          let inside = 0;
          for (const b of sends) if (b.t > a.t - d.span && b.t <= a.t) inside += b.cost;
          if (inside > d.perWindow + d.eps) return false;
        }
        return true;
      }),
      { numRuns: 300 },
    );
  });
});

describe('slot ledger: a charge sent now, in place', () => {
  it('writes exactly what windowCharge writes, over random sends, records and reports', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ dt: fc.double({ min: 0, max: 300, noNaN: true }), cost: fc.double({ min: 0.1, max: 20, noNaN: true }), sync: fc.boolean() }), {
          maxLength: 60,
        }),
        (steps) => {
          let e = emptyLedger();
          let now = T0;
          for (const st of steps) {
            now += st.dt;
            if (st.sync) e = windowSync(e, d, 30, now, now - 10, 0, [now + 400, now + 400]);
            const expected = windowCharge(e, d, st.cost, now, now);
            e = windowChargeNow(e.slice(), d, st.cost, now);
            if (JSON.stringify(e) !== JSON.stringify(expected)) return false;
          }
          return true;
        },
      ),
      { numRuns: 200 },
    );
  });
});
