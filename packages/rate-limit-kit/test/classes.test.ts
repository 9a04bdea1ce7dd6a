/**
 * The class arithmetic (src/classes.ts) against an exact simulation of one token bucket: every charge
 * kept as (send time, cost), the level at every instant computed from them. After every step the level
 * never passes the capacity at any instant from now on (RL-A6 for the sum of all classes), `x` and the
 * class state's peak bound every later level, and a class-k charge never lifts any later level above
 * its line (the reserve, RL-Q4).
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  BULK,
  CRITICAL,
  NORMAL,
  classCharge,
  classRaise,
  classSendTime,
  defineBucket,
  lineOf,
  penalizeUntil,
  recordCost,
  settleClasses,
  type ClassCharged,
  type ClassState,
} from '../src/index.js';

const DEF = defineBucket({ capacity: 10, refillPerSec: 10 }); // T = 100 ms, tau = 1000 ms
const FREE = [0, 0.1, 0.2];

/** The exact level (tokens) just after each charge at or after `now`, and at `now`: the most it holds from now on. */
function levels(charges: readonly [number, number][], now: number): { at: number; level: number }[] {
  const sorted = [...charges].sort((a, b) => a[0] - b[0]);
  const out: { at: number; level: number }[] = [];
  let level = 0;
  let t = -Infinity;
  let atNow = false;
  for (const [s, c] of sorted) {
    if (!atNow && s > now) {
      level = Math.max(0, level - (now - t) / DEF.msPerToken);
      t = now;
      out.push({ at: now, level });
      atNow = true;
    }
    level = Math.max(0, level - (s - t) / DEF.msPerToken) + c;
    t = s;
    if (s >= now) out.push({ at: s, level });
  }
  if (!atNow) out.push({ at: now, level: Math.max(0, level - (now - t) / DEF.msPerToken) });
  return out;
}

type Step =
  | { op: 'admit'; cls: number; cost: number; budget: number }
  | { op: 'record'; cost: number }
  | { op: 'penalize'; ms: number }
  | { op: 'advance'; ms: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      op: fc.constant('admit' as const),
      cls: fc.constantFrom(CRITICAL, NORMAL, BULK),
      cost: fc.constantFrom(0.5, 1, 2, 3.5, 8, 12),
      budget: fc.constantFrom(0, 500, 5000),
    }),
  },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('record' as const), cost: fc.constantFrom(0.5, 3) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('penalize' as const), ms: fc.constantFrom(50, 700) }) },
  { weight: 4, arbitrary: fc.record({ op: fc.constant('advance' as const), ms: fc.constantFrom(1, 33, 100, 250, 1200) }) },
);

describe('class arithmetic', () => {
  it('keeps every later level within the capacity (the sum of all classes), within the charging class line, and under x and the peak', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 60 }), (steps) => {
        let now = 1000;
        let x = -Infinity;
        let cs: ClassState | undefined;
        const charges: [number, number][] = [];
        /** Admissions only: RL-A6 bounds what is admitted (records and penalties may run into debt). */
        const admitted: [number, number][] = [];
        const out: ClassCharged = { x: 0, cs: undefined };
        let held = -Infinity;
        for (const st of steps) {
          cs = settleClasses(cs, x, now);
          if (st.op === 'advance') {
            now += st.ms;
            continue;
          }
          if (st.op === 'record') {
            const y = recordCost(x, DEF, st.cost, now);
            cs = classRaise(cs, DEF, x, y, false);
            x = y;
            charges.push([now, st.cost]);
          } else if (st.op === 'penalize') {
            // a penalty: nothing before the hold's end (checked at each admission), x only raised
            const y = penalizeUntil(x, DEF, now + st.ms, now);
            cs = classRaise(cs, DEF, x, y, true);
            x = y;
            held = Math.max(held, now + st.ms);
          } else {
            const line = lineOf(DEF, FREE[st.cls] as number, st.cost);
            const s = classSendTime(x, cs, DEF, line, st.cls, st.cost, now);
            if (s > now && !(s - now <= st.budget)) continue;
            expect(s, 'nothing is admitted before a hold ends').toBeGreaterThanOrEqual(held);
            classCharge(out, x, cs, DEF, st.cls, st.cost, s, now);
            const before = levels(charges, now);
            charges.push([s, Math.min(st.cost, DEF.capacity)]); // a cost above capacity leaves the bucket full (RL-A5)
            admitted.push([s, Math.min(st.cost, DEF.capacity)]);
            x = out.x;
            cs = out.cs;
            // the charge never lifts a level from its send time on above its class's line (or, for a cost
            // above the line, above the larger of the capacity and the cost: RL-A5)
            const lineTokens = line / DEF.msPerToken;
            const after = levels(charges, now);
            for (const { at, level } of after) {
              if (at < s) continue;
              const was = before.filter((b) => b.at <= at).reduce((m, b) => Math.max(m, b.level), 0);
              if (level > was + 1e-9) expect(level, `level at ${at} after class ${st.cls} cost ${st.cost} at ${s}`).toBeLessThanOrEqual(lineTokens + 1e-6);
            }
          }
          for (const { at, level } of levels(admitted, now)) expect(level, `admitted level at ${at} (now ${now})`).toBeLessThanOrEqual(DEF.capacity + 1e-6);
          const ls = levels(charges, now);
          for (const { at, level } of ls) {
            expect(level, `x bounds the level at ${at}`).toBeLessThanOrEqual(Math.max(0, x - at) / DEF.msPerToken + 1e-6);
            if (cs !== undefined) {
              const peak = Math.max(cs[4] as number, cs[5] as number) / DEF.msPerToken;
              expect(level, `the peak bounds the level at ${at}`).toBeLessThanOrEqual(peak + 1e-6);
            }
          }
        }
      }),
      { numRuns: 3000 },
    );
  });

  it('a critical cost goes at once beside bulk bookings that fill the bucket far ahead (RL-Q1)', () => {
    let x = -Infinity;
    let cs: ClassState | undefined;
    const out: ClassCharged = { x: 0, cs: undefined };
    const now = 1000;
    const bulk = lineOf(DEF, 0.2, 1);
    for (let i = 0; i < 50; i++) {
      const s = classSendTime(x, cs, DEF, bulk, BULK, 1, now);
      classCharge(out, x, cs, DEF, BULK, 1, s, now);
      x = out.x;
      cs = out.cs;
    }
    expect(x - now).toBeGreaterThan(4000); // bookings 4 s ahead
    expect(classSendTime(x, cs, DEF, lineOf(DEF, 0, 2), CRITICAL, 2, now)).toBe(now);
    expect(classSendTime(x, cs, DEF, lineOf(DEF, 0.1, 1), NORMAL, 1, now)).toBe(now);
    expect(classSendTime(x, cs, DEF, lineOf(DEF, 0.2, 0.5), BULK, 0.5, now)).toBeGreaterThan(now);
    // a penalty (RL-R3) shuts the way at once, also for critical, though x already lay past its end
    const y = penalizeUntil(x, DEF, now + 100, now);
    expect(y).toBe(x);
    const held = classRaise(cs, DEF, x, y, true);
    expect(classSendTime(y, held, DEF, lineOf(DEF, 0, 0.5), CRITICAL, 0.5, now)).toBeGreaterThanOrEqual(now + 100);
  });
});
