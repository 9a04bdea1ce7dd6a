import { describe, expect, it } from 'vitest';
import type { BucketKey, NormalizedLimit } from '@core/rate-limit-contract';
import { HORIZON_MS, MAX_AMOUNT, addUp, formatNumber, mergeChecks, normalizeLimit, normalizeModelLimit, toleranceOf } from '../src/model-arithmetic.js';
import { ReferenceModel, type ModelOutcome } from '../src/reference-model.js';
import { MAX_WINDOW_ENTRIES, afterSync, countAt, earliestFit, withEntry, type ModelWindow, type WindowEntry, type WindowEntryKind } from '../src/window-log.js';

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
    for (const axis of ['r', 's', 'p']) expect(model.bucket({ ...ip, axis })?.tat).toBe(NOW + HORIZON_MS);
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
  const send = (at: number, cost: number, kind: WindowEntryKind = 'own'): WindowEntry => ({ from: at, to: at, cost, kind });

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

  it('finds the earliest fitting time among the times entries stop counting, bookings ahead included (RL-V2)', () => {
    const log = [send(NOW, 6), send(NOW + 1050, 8)];
    expect(earliestFit(log, w, 2, NOW + 500)).toBe(NOW + 500);
    expect(earliestFit(log, w, 3, NOW + 500)).toBe(NOW + 2100);
    expect(earliestFit(log, w, 11, NOW)).toBe(Number.POSITIVE_INFINITY);
  });

  it('merges past 128 entries without ever counting less at any time (RL-V6)', () => {
    let log: WindowEntry[] = [];
    const plain: WindowEntry[] = [];
    for (let i = 0; i < 400; i++) {
      const e = send(NOW + i * 7 + (i % 3), 1 + (i % 4), i % 5 === 0 ? 'reported' : 'own');
      log = withEntry(log, e, w, NOW + i * 7);
      plain.push(e);
      expect(log.length).toBeLessThanOrEqual(MAX_WINDOW_ENTRIES);
    }
    for (let T = NOW - 10; T < NOW + 4000; T += 3) expect(countAt(log, 1050, T)).toBeGreaterThanOrEqual(countAt(plain, 1050, T));
    const latest = Math.max(...plain.map((e) => e.to));
    expect(countAt(log, 1050, latest + 1050)).toBe(0);
  });

  it('merges what a sync can still tell apart last: the sends of the last 2 · jitterMs, and, once a report marked a fixed window’s start, sends on both sides of an aligned window’s start (RL-V6)', () => {
    // a start entry at 999 000 ms (a report's countedSinceMs), then 128 sends 5 ms apart from 999 400 ms:
    // the window start at 1 000 000 lies among them
    const at = (i: number) => NOW - 600 + i * 5;
    let log: WindowEntry[] = [{ from: NOW - 1000, to: NOW - 1000, cost: 0, kind: 'start' }];
    for (let i = 0; i < MAX_WINDOW_ENTRIES - 1; i++) log = withEntry(log, send(at(i), 1), w, at(i));
    const now = at(MAX_WINDOW_ENTRIES - 1);
    const merged = withEntry(log, send(now, 1), w, now);
    expect(merged).toHaveLength(MAX_WINDOW_ENTRIES);
    const wide = merged.filter((e) => e.to > e.from);
    expect(wide).toHaveLength(1);
    const [m] = wide;
    // not among the last 100 ms, nor across 1 000 000 ms
    expect(m!.to).toBeLessThanOrEqual(now - 2 * w.jitterMs);
    expect(Math.floor(m!.from / w.windowMs)).toBe(Math.floor(m!.to / w.windowMs));
    // the earliest pair of the shortest: the first two sends
    expect(m).toEqual({ from: at(0), to: at(1), cost: 2, kind: 'own' });
    // 5 ms apart but 3 ms across 1 000 000 ms: without a start entry (a rolling window, or no report of a
    // fixed one yet) that pair is the shortest and merges; with one, the earliest pair of the others
    const around = [...Array.from({ length: 64 }, (_, i) => NOW - 2 - 5 * (63 - i)), ...Array.from({ length: 65 }, (_, i) => NOW + 1 + 5 * i)];
    expect(around[around.length - 1]! - 2 * w.jitterMs).toBeGreaterThan(NOW + 1);
    const fill = (first: WindowEntry[], times: readonly number[]): WindowEntry[] => times.reduce((l, t) => withEntry(l, send(t, 1), w, t), first);
    expect(fill([], around).filter((e) => e.to > e.from)).toEqual([{ from: NOW - 2, to: NOW + 1, cost: 2, kind: 'own' }]);
    const withStart = fill([{ from: NOW - 1000, to: NOW - 1000, cost: 0, kind: 'start' }], around.slice(1));
    expect(withStart.filter((e) => e.to > e.from)).toEqual([{ from: NOW - 312, to: NOW - 307, cost: 2, kind: 'own' }]);
    // bookings ahead merge with their close neighbours as before they are sent
    let booked: WindowEntry[] = [];
    for (let i = 0; i < MAX_WINDOW_ENTRIES - 4; i++) booked = withEntry(booked, send(NOW + 200 + i * 10, 1), w, NOW + 200 + i * 10);
    const later = NOW + 200 + MAX_WINDOW_ENTRIES * 10 + 500;
    for (let i = 0; i < 5; i++) booked = withEntry(booked, send(later + 1000 + i, 1), w, later);
    expect(booked.filter((e) => e.to > e.from)).toEqual([{ from: later + 1000, to: later + 1001, cost: 2, kind: 'own' }]);
    // with only recent sends and pairs across a window's start, the shortest of all is merged all the same
    let recent: WindowEntry[] = [];
    for (let i = 0; i <= MAX_WINDOW_ENTRIES; i++) recent = withEntry(recent, send(NOW - 20 + i * 0.1, 1), w, NOW - 20);
    expect(recent).toHaveLength(MAX_WINDOW_ENTRIES);
    expect(recent.reduce((sum, e) => sum + e.cost, 0)).toBe(MAX_WINDOW_ENTRIES + 1);
  });

  it('counts as ours only the sends after the latest window start and at least jitterMs before the reporting request (RL-V5)', () => {
    const sentAtMs = NOW + 1000;
    // synced jitterMs after the send: latest window start sentAt + jitter − window = NOW + 50 (not after it: NOW + 50); arrived by sentAt − jitter = NOW + 950 (not: NOW + 951)
    const log = [send(NOW + 50, 2), send(NOW + 51, 3), send(NOW + 950, 4), send(NOW + 951, 5)];
    const after = afterSync(log, w, 20, NOW + 1050, { sentAtMs });
    expect(after.filter((e) => e.kind === 'reported')).toEqual([{ from: sentAtMs, to: sentAtMs, cost: 20 - 3 - 4, kind: 'reported' }]);
    // a second report of the same send time: one entry at the larger cost
    expect(afterSync(after, w, 12, NOW + 1050, { sentAtMs })).toEqual(after);
    // the caller's certified cost counts besides them; a later countedSinceMs takes fewer
    expect(afterSync(log, w, 20, NOW + 1050, { sentAtMs, countedOwnCost: 1.5 }).find((e) => e.kind === 'reported')?.cost).toBe(20 - 3 - 4 - 1.5);
    expect(afterSync(log, w, 20, NOW + 1050, { sentAtMs, countedSinceMs: NOW + 51 }).find((e) => e.kind === 'reported')?.cost).toBe(20 - 4);
    // synced as the answer came, at the send time itself: the window began by NOW, the send at NOW + 50 is ours too
    expect(afterSync(log, w, 20, NOW + 1000, { sentAtMs }).find((e) => e.kind === 'reported')?.cost).toBe(20 - 2 - 3 - 4);
    // synced 20 ms after it: by NOW + 20
    expect(afterSync(log, w, 20, NOW + 1020, { sentAtMs }).find((e) => e.kind === 'reported')?.cost).toBe(20 - 2 - 3 - 4);
    expect(afterSync([send(NOW + 20, 2), ...log.slice(1)], w, 20, NOW + 1020, { sentAtMs }).find((e) => e.kind === 'reported')?.cost).toBe(20 - 3 - 4);
    // without a send time nothing is ours, the certified cost is ignored, and the report sits at now
    expect(afterSync(log, w, 20, NOW + 1050, { countedOwnCost: 5 }).filter((e) => e.kind === 'reported')).toEqual([
      { from: NOW + 1050, to: NOW + 1050, cost: 20, kind: 'reported' },
    ]);
  });

  it('drops a report the venue counted before the reporting request was sent; keeps one it may have counted later beside the new one, as what each adds over those counting longer; penalties untouched (RL-V5)', () => {
    const log = [send(NOW, 1), send(NOW + 100, 6, 'reported'), { from: NOW + 120, to: NOW + 200, cost: 10, kind: 'penalty' as const }];
    const reported = (at: number, cost: number) => ({ from: at, to: at, cost, kind: 'reported' as const });
    // sent 50 ms after the earlier report's position: it replaces it, even with nothing of its own to report
    expect(afterSync(log, w, 1, NOW + 160, { sentAtMs: NOW + 150 })).toEqual([send(NOW, 1), log[2]]);
    // sent 49 ms after it: both kept (this one at 110: counted by 160, less the jitter); a window counts the larger of those counting in it
    expect(afterSync(log, w, 4, NOW + 160, { sentAtMs: NOW + 149 })).toEqual([send(NOW, 1), reported(NOW + 100, 3), reported(NOW + 110, 3), log[2]]);
    // a larger later report leaves the earlier one nothing to add
    expect(afterSync(log, w, 9, NOW + 160, { sentAtMs: NOW + 149 })).toEqual([send(NOW, 1), reported(NOW + 110, 8), log[2]]);
    // answered 5 ms after its send: at the answer less the jitter, so the next report sent after that answer replaces it
    const fast = afterSync([send(NOW, 1)], w, 5, NOW + 205, { sentAtMs: NOW + 200 });
    expect(fast).toEqual([send(NOW, 1), reported(NOW + 155, 4)]);
    expect(afterSync(fast, w, 3, NOW + 215, { sentAtMs: NOW + 210 })).toEqual([send(NOW, 1), reported(NOW + 165, 2)]);
    // without a send time nothing is replaced: the earlier report counts as long as it did, the new one at now, never lowered
    expect(afterSync(log, w, 1, NOW + 160)).toEqual([send(NOW, 1), reported(NOW + 100, 5), log[2], reported(NOW + 160, 1)]);
    expect(afterSync(log, w, 0, NOW + 160)).toEqual(log);
  });

  it('a report leaves when a report sent after the venue counted it comes, though the reports between overlapped it (RL-V5)', () => {
    const reported = (at: number, cost: number) => ({ from: at, to: at, cost, kind: 'reported' as const });
    let log = [send(NOW, 1), send(NOW + 30, 1)];
    log = afterSync(log, w, 5, NOW + 40, { sentAtMs: NOW }); // A: 5 others, counted by 40
    log = [...log, send(NOW + 60, 1)];
    log = afterSync(log, w, 4, NOW + 70, { sentAtMs: NOW + 30 }); // B, sent before A was answered: both kept
    expect(log.filter((e) => e.kind === 'reported')).toEqual([reported(NOW - 10, 1), reported(NOW + 20, 4)]);
    log = afterSync(log, w, 3, NOW + 90, { sentAtMs: NOW + 60 }); // C, sent after A was counted, before B was answered
    expect(log.filter((e) => e.kind === 'reported')).toEqual([reported(NOW + 20, 2), reported(NOW + 40, 2)]);
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
