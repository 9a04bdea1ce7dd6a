import { describe, expect, it } from 'vitest';
import type { BucketKey, NormalizedLimit } from '@core/rate-limit-contract';
import { HORIZON_MS, MAX_AMOUNT, addUp, formatNumber, mergeChecks, normalizeLimit, normalizeModelLimit, toleranceOf } from '../src/model-arithmetic.js';
import { ReferenceModel, type ModelOutcome } from '../src/reference-model.js';
import { EXACT_WINDOWS, afterSync, earliestFit, type ModelWindow, type WindowState } from '../src/window-log.js';

// The reference model against the numbers MODEL.md and the rulebook give, so the suite's oracle is
// pinned independently of any implementation.

const NOW = 1_000_000;
const ip: BucketKey = { venue: 'binance', credential: null, axis: 'ip' };

function check(
  model: ReferenceModel,
  key: BucketKey,
  limit: NormalizedLimit | { requests: number; periodMs: number } | ModelWindow,
  cost: number,
  now: number,
  maxWaitMs?: number,
): ModelOutcome {
  const merged = mergeChecks([{ key, limit, cost }]);
  if ('invalid' in merged) throw new Error(merged.invalid);
  return model.check(merged, now, maxWaitMs);
}

describe('the reference model', () => {
  it('compares with a tolerance relative to the bucket: sub-unit quotas admit exactly 10 and 5 (RL-A7)', () => {
    for (const [capacity, admits] of [
      [1e-9, 10],
      [5e-10, 5],
    ] as const) {
      const model = new ReferenceModel();
      const kinds = Array.from({ length: 30 }, () => check(model, ip, { capacity, refillPerSec: 0 }, 1e-10, NOW).kind);
      expect(kinds.filter((k) => k === 'ok').length).toBe(admits);
      expect(kinds[admits]).toBe('unpayable');
    }
    expect(toleranceOf({ capacity: 10, refillPerSec: 1 })).toBeCloseTo(1e-5, 15); // 1e-9 · tau, tau = 10 000 ms
    expect(toleranceOf({ capacity: 1e-9, refillPerSec: 0 })).toBeCloseTo(1e-18, 30);
  });

  it('refuses a send time beyond the horizon as unrepresentable, never as a fixed quota (RL-A7)', () => {
    const model = new ReferenceModel();
    const huge = check(model, ip, { capacity: 10, refillPerSec: 1 }, 1e308, NOW);
    expect(huge).toMatchObject({ kind: 'unpayable', path: 'checks[0]' });
    expect(huge.kind === 'unpayable' && huge.message).toMatch(/cannot be represented/);
    expect(huge.kind === 'unpayable' && huge.message).not.toMatch(/fixed quota/);
    expect(check(model, ip, { capacity: 10, refillPerSec: 1 }, 2e12, NOW).kind).toBe('unpayable');
    expect(check(model, ip, { capacity: 10, refillPerSec: 1 }, 1e11, NOW)).toMatchObject({ kind: 'wait', retryAfterMs: 99_999_999_990_000 });
  });

  it('clamps huge records, syncs and penalties to the horizon, and a quota to 1e300 (RL-R1, RL-R2, RL-R3)', () => {
    const limit = { capacity: 10, refillPerSec: 1 };
    const model = new ReferenceModel();
    model.record({ ...ip, axis: 'r' }, 1e308, limit, NOW);
    model.sync({ ...ip, axis: 's' }, limit, 1e308, NOW);
    check(model, { ...ip, axis: 'p' }, limit, 1, NOW);
    model.penalize({ ...ip, axis: 'p' }, NOW + 1e17, NOW);
    for (const axis of ['r', 's', 'p']) expect(model.bucket({ ...ip, axis })?.tat).toBe(HORIZON_MS);
    expect(model.bucket({ ...ip, axis: 'p' })?.hold).toBe(NOW + HORIZON_MS);
    expect(model.borrowed({ ...ip, axis: 'r' }, NOW)).toBe(HORIZON_MS / 1000);
    model.record({ ...ip, axis: 'q' }, 1e308, { capacity: 10, refillPerSec: 0 }, NOW);
    model.record({ ...ip, axis: 'q' }, 1e308, { capacity: 10, refillPerSec: 0 }, NOW);
    expect(model.borrowed({ ...ip, axis: 'q' }, NOW)).toBe(MAX_AMOUNT);
  });

  it('keeps a hold through a redefinition and a sync: booked at 5100 ms (RL-R3)', () => {
    const slow = { capacity: 10, refillPerSec: 1 };
    const fast = { capacity: 10, refillPerSec: 10 };
    const model = new ReferenceModel();
    check(model, ip, slow, 1, NOW);
    model.penalize(ip, NOW + 5000, NOW);
    expect(check(model, ip, fast, 1, NOW)).toMatchObject({ kind: 'wait', retryAfterMs: 5100 });
    expect(check(model, ip, fast, 1, NOW, 10_000)).toMatchObject({ kind: 'ok', sendAtMs: NOW + 5100, waitMs: 5100 });
    const synced = new ReferenceModel();
    check(synced, ip, slow, 1, NOW);
    synced.penalize(ip, NOW + 5000, NOW);
    synced.sync(ip, fast, 0, NOW);
    expect(check(synced, ip, fast, 1, NOW)).toMatchObject({ kind: 'wait', retryAfterMs: 5100 });
    const quota = new ReferenceModel();
    check(quota, ip, slow, 1, NOW);
    quota.penalize(ip, NOW + 5000, NOW);
    expect(check(quota, ip, { capacity: 100, refillPerSec: 0 }, 1, NOW).kind).toBe('unpayable');
  });

  it("starts a bucket held before its first definition empty at the hold's end, debt after (RL-R3)", () => {
    const model = new ReferenceModel();
    model.penalize(ip, NOW + 500, NOW);
    expect(check(model, ip, { requests: 6000, periodMs: 60_000 }, 6000, NOW + 2000)).toMatchObject({ kind: 'wait', retryAfterMs: 58_500 });
    const debt = new ReferenceModel();
    debt.penalize(ip, NOW + 1000, NOW);
    debt.record(ip, 5, undefined, NOW);
    expect(check(debt, ip, { capacity: 10, refillPerSec: 10 }, 1, NOW)).toMatchObject({ kind: 'wait', retryAfterMs: 1600 });
  });

  it('rounds a charge up when float rounding made it fall short', () => {
    expect(0.7 + 0.1 - 0.7).toBeLessThan(0.1);
    expect(addUp(0.7, 0.1) - 0.7).toBeGreaterThanOrEqual(0.1);
    expect(addUp(1, 0.1)).toBe(1.1);
    expect(addUp(NOW, 3e-11)).toBeGreaterThan(NOW);
  });

  it('refuses a missing limit; only an explicit null is unlimited (RL-L2)', () => {
    expect(normalizeLimit(undefined)).toBe('invalid');
    expect(normalizeLimit(null)).toBe(null);
    expect(mergeChecks([{ key: ip, limit: undefined as unknown as null, cost: 1 }])).toMatchObject({ path: 'checks[0].limit' });
  });

  it('formats numbers for messages: 12 significant digits, a residue within tolerance as 0', () => {
    expect(formatNumber(9999.99951171875)).toBe('9999.99951172');
    expect(formatNumber(1.3234889800848443e-23, 1e-18)).toBe('0');
    expect(formatNumber(1e-10)).toBe('1e-10');
    expect(formatNumber(1e15)).toBe('1000000000000000');
  });
});

describe('the reference model of window limits', () => {
  const w: ModelWindow = { perWindow: 10, windowMs: 1000, jitterMs: 50 };
  const E = EXACT_WINDOWS;
  const sent = (...sends: [number, number][]): WindowState => sends.reduce((s, [at, cost]) => E.charge(s, w, cost, at, NOW, 1), E.empty(w));

  it('reads the window shape: jitter 0 by default, anything invalid refused, one shape at a time (RL-V1, RL-L3)', () => {
    expect(normalizeModelLimit({ perWindow: 10, windowMs: 1000 })).toEqual({ perWindow: 10, windowMs: 1000, jitterMs: 0 });
    expect(normalizeModelLimit({ perWindow: 10, windowMs: 1000, jitterMs: undefined })).toEqual({ perWindow: 10, windowMs: 1000, jitterMs: 0 });
    for (const bad of [
      { perWindow: 0, windowMs: 1000 },
      { perWindow: 10, windowMs: -1 },
      { perWindow: 10, windowMs: 1000, jitterMs: -1 },
      { perWindow: 10 },
      { perWindow: 10, windowMs: 1000, capacity: 10 },
    ]) {
      expect(normalizeModelLimit(bad)).toBe('invalid');
    }
    expect(normalizeLimit({ perWindow: 10, windowMs: 1000 })).toBe('invalid');
  });

  it('finds the earliest fitting time among the times sends leave, bookings ahead included (RL-V2)', () => {
    const s = sent([NOW, 6], [NOW + 1050, 8]);
    expect(earliestFit(s, w, 2, NOW + 500, 10)).toBe(NOW + 500);
    expect(earliestFit(s, w, 3, NOW + 500, 10)).toBe(NOW + 2100);
    expect(earliestFit(s, w, 11, NOW, 10)).toBe(Number.POSITIVE_INFINITY);
    expect(earliestFit(s, w, 1, NOW + 500, 8)).toBe(NOW + 2100);
  });

  it('takes as counted the larger of its own sure count and countedOwnCost, never their sum (RL-V5)', () => {
    const s = sent([NOW, 4], [NOW + 100, 1]);
    const others = (x: WindowState): number | undefined => x.others?.amount;
    expect(others(afterSync(s, w, 7, NOW + 110, { sentAtMs: NOW + 100 }))).toBe(3);
    expect(others(afterSync(s, w, 7, NOW + 110, { sentAtMs: NOW + 100, countedOwnCost: 5 }))).toBe(2);
    expect(others(afterSync(s, w, 7, NOW + 110, { sentAtMs: NOW + 100, countedOwnCost: 5 }, { sumsOwn: true }))).toBeUndefined();
    // a send within jitterMs before the reporting request is not surely counted
    expect(others(afterSync(s, w, 7, NOW + 110, { sentAtMs: NOW + 40 }))).toBe(7);
    // without a send time nothing is taken as counted
    expect(others(afterSync(s, w, 7, NOW + 110, { countedOwnCost: 5 }))).toBe(7);
  });

  it('replaces a report the venue counted before the new request was sent; else keeps the larger at the later time (RL-V5)', () => {
    const first = afterSync(sent([NOW, 1]), w, 6, NOW + 10, { sentAtMs: NOW });
    expect(first.others).toEqual({ amount: 6, at: NOW - 40, until: Number.POSITIVE_INFINITY });
    expect(afterSync(first, w, 2, NOW + 110, { sentAtMs: NOW + 100 }).others).toEqual({ amount: 1, at: NOW + 60, until: Number.POSITIVE_INFINITY });
    expect(afterSync(first, w, 3, NOW + 30, { sentAtMs: NOW + 5 }).others).toEqual({ amount: 6, at: NOW - 20, until: Number.POSITIVE_INFINITY });
  });

  it('forgets, on a report of a fixed window, what reached the venue before it began, and at its end what reached it before (RL-V5)', () => {
    const s = sent([NOW, 9], [NOW + 960, 1]);
    const fixed = afterSync(s, w, 0, NOW + 1010, { windowEnd: { earliestMs: NOW + 1990, latestMs: NOW + 2000 } });
    expect(fixed.sends).toEqual([{ at: NOW + 960, cost: 1, cls: 1 }]);
    expect(earliestFit(fixed, w, 10, NOW + 1010, 10)).toBe(NOW + 2000);
    const loose = afterSync(s, w, 0, NOW + 1010, { windowEnd: { earliestMs: NOW + 1750, latestMs: NOW + 2000 } });
    expect(loose.sends.length).toBe(2);
    // a report of a window that ended before the latest one began is ignored
    expect(afterSync(fixed, w, 9, NOW + 1020, { windowEnd: { earliestMs: NOW + 980, latestMs: NOW + 990 } })).toEqual(fixed);
  });

  it('keeps a penalty closed until one span after its end, whatever a report says (RL-V2, RL-V5)', () => {
    const held = E.penalize(sent([NOW, 1]), w, NOW + 500, NOW);
    const synced = E.sync(held, w, 0, NOW + 600, { windowEnd: { earliestMs: NOW + 990, latestMs: NOW + 1000 } });
    expect(E.earliest(synced, w, 1, NOW + 1100, 10, NOW + 1100)).toBe(NOW + 1550);
    expect(E.borrowed(synced, w, NOW + 1100)).toBe(10);
  });

  it('converts between a token bucket and a window limit, keeping what was borrowed (RL-L5)', () => {
    const model = new ReferenceModel();
    expect(check(model, ip, { capacity: 10, refillPerSec: 10 }, 7, NOW).kind).toBe('ok');
    expect(check(model, ip, w, 4, NOW)).toMatchObject({ kind: 'wait', retryAfterMs: 1050 });
    expect(check(model, ip, w, 3, NOW).kind).toBe('ok');
    expect(model.borrowed(ip, NOW)).toBe(10);
    expect(check(model, ip, { capacity: 10, refillPerSec: 10 }, 1, NOW + 200)).toMatchObject({ kind: 'wait', retryAfterMs: 100 });
  });
});
