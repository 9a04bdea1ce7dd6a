import { describe, expect, it } from 'vitest';
import { costCounted, earliestAnsweredIn, type WindowEnd } from '@core/exchange-specs';
import { OwnSendLog, type OwnSend } from '../src/own-send-log.js';
import { random } from './seeded-random.js';

const WINDOW_MS = 10_000;

/**
 * Sends as paced fetches log them: answers in order, send times before their answers by a random trip (some slow),
 * costs of 1 to 5, window ends of fixed 10 s windows known to within a few ms (a share `missing` without one, a
 * share `wide` known only to within two windows).
 */
function sends(seed: number, n: number, missing = 0.1, wide = 0.05): OwnSend[] {
  const next = random(seed);
  const out: OwnSend[] = [];
  let now = 1_000_000;
  for (let i = 0; i < n; i++) {
    now += Math.floor(next() * 40);
    const trip = next() < 0.05 ? Math.floor(next() * 3_000) : Math.floor(next() * 20);
    const sentAtMs = now - trip;
    const end = Math.ceil((sentAtMs + 1) / WINDOW_MS) * WINDOW_MS;
    const kind = next();
    const windowEnd: WindowEnd | undefined =
      kind < missing
        ? undefined
        : kind < missing + wide
          ? { earliestMs: end - WINDOW_MS, latestMs: end + WINDOW_MS }
          : { earliestMs: end - 3, latestMs: end + 4 };
    out.push({
      sentAtMs,
      answeredAtMs: now,
      answerSeq: 2 * i + 1,
      cost: 1 + Math.floor(next() * 5),
      ...(windowEnd === undefined ? {} : { windowEnd }),
    });
  }
  return out;
}

describe('the own-send log (blocks with summaries)', () => {
  it('answers the folds of a usage report exactly as reading every send does', { timeout: 60_000 }, () => {
    // every send with a narrow window end, a few wide ones, and some missing too: blocks taken whole and in part
    for (const [seed, missing, wide] of [
      [1, 0, 0],
      [2, 0, 0.05],
      [3, 0.02, 0],
      [4, 0.1, 0.05],
    ] as const) {
      const all = sends(seed, 2_000, missing, wide);
      const log = new OwnSendLog();
      for (const s of all) log.push(s);
      const next = random(seed + 100);
      for (let q = 0; q < 300; q++) {
        const at = all[Math.floor(next() * all.length)] as OwnSend;
        const beforeSeq = at.answerSeq + (next() < 0.5 ? 1 : 0);
        const before = all.filter((s) => s.answerSeq < beforeSeq);
        const endAt = Math.ceil(at.answeredAtMs / WINDOW_MS) * WINDOW_MS;
        const end: WindowEnd = { earliestMs: endAt - 2, latestMs: endAt + 2 };
        // a window's start anywhere in the last window, or in the last few seconds (inside blocks of the same window)
        const latestStart = at.answeredAtMs - Math.floor(next() * (q % 2 === 0 ? WINDOW_MS : 3_000));
        const query = log.query(beforeSeq);
        expect(query.earliestAnsweredIn(end, WINDOW_MS)).toBe(earliestAnsweredIn(before, end, WINDOW_MS));
        expect(query.costCounted(latestStart, end, WINDOW_MS)).toBe(costCounted(before, latestStart, end, WINDOW_MS));
        expect(query.costCounted(latestStart, undefined, WINDOW_MS)).toBe(costCounted(before, latestStart, undefined, WINDOW_MS));
        // leaving out the send times a limiter counts itself: from a window's latest start to jitterMs before the report
        const skip = [latestStart + Math.floor(next() * 3_000), at.sentAtMs - Math.floor(next() * 100)] as const;
        expect(query.costCounted(latestStart, end, WINDOW_MS, skip)).toBe(costCounted(before, latestStart, end, WINDOW_MS, skip));
        expect(query.costCounted(latestStart, undefined, WINDOW_MS, skip)).toBe(costCounted(before, latestStart, undefined, WINDOW_MS, skip));
        expect([...log.answered(beforeSeq)]).toEqual(before);
        expect(log.answeredAfter(beforeSeq)).toEqual(all.filter((s) => s.answerSeq > beforeSeq));
        const since = at.sentAtMs - Math.floor(next() * WINDOW_MS);
        const until = at.answeredAtMs + Math.floor(next() * 50);
        const naive = all.filter((s) => s.sentAtMs > since && s.answeredAtMs < until).reduce((a, s) => a + s.cost, 0);
        expect(log.usage(since, until)).toBe(naive);
      }
    }
  });

  it('answers as reading every send does over many groups of blocks, after forgetting part of the first group', { timeout: 60_000 }, () => {
    // 40 000 sends: five groups of blocks; forgetting the first 5 000 or so leaves the first group's summary stale
    for (const [seed, missing, wide] of [
      [11, 0, 0],
      [12, 0.01, 0.01],
    ] as const)
      checkGroups(sends(seed, 40_000, missing, wide), seed);
  });

  function checkGroups(all: readonly OwnSend[], seed: number): void {
    const log = new OwnSendLog();
    for (const s of all) log.push(s);
    const cutoff = (all[5_000] as OwnSend).sentAtMs;
    log.forget(cutoff);
    let first = 0;
    while ((all[first] as OwnSend).sentAtMs <= cutoff) first++;
    const kept = all.slice(first);
    expect(log.size).toBe(kept.length);
    const next = random(seed + 100);
    for (let q = 0; q < 60; q++) {
      const at = kept[Math.floor(next() * kept.length)] as OwnSend;
      const beforeSeq = at.answerSeq + (next() < 0.5 ? 1 : 0);
      const before = kept.filter((s) => s.answerSeq < beforeSeq);
      const endAt = Math.ceil(at.answeredAtMs / WINDOW_MS) * WINDOW_MS;
      const end: WindowEnd = { earliestMs: endAt - 2, latestMs: endAt + 2 };
      const latestStart = at.answeredAtMs - Math.floor(next() * (q % 2 === 0 ? WINDOW_MS : 3_000));
      const query = log.query(beforeSeq);
      expect(query.earliestAnsweredIn(end, WINDOW_MS)).toBe(earliestAnsweredIn(before, end, WINDOW_MS));
      // a window as long as the memory: every group reports it
      expect(query.earliestAnsweredIn({ earliestMs: 0, latestMs: Number.MAX_SAFE_INTEGER }, Number.MAX_SAFE_INTEGER)).toBe(
        earliestAnsweredIn(before, { earliestMs: 0, latestMs: Number.MAX_SAFE_INTEGER }, Number.MAX_SAFE_INTEGER),
      );
      expect(query.costCounted(latestStart, end, WINDOW_MS)).toBe(costCounted(before, latestStart, end, WINDOW_MS));
      expect(query.costCounted(latestStart, undefined, WINDOW_MS)).toBe(costCounted(before, latestStart, undefined, WINDOW_MS));
      const skip = [Number.NEGATIVE_INFINITY, at.sentAtMs - Math.floor(next() * 100)] as const;
      expect(query.costCounted(latestStart, end, WINDOW_MS, skip)).toBe(costCounted(before, latestStart, end, WINDOW_MS, skip));
      const since = at.sentAtMs - Math.floor(next() * 10 * WINDOW_MS);
      const until = at.answeredAtMs + Math.floor(next() * 50);
      expect(log.usage(since, until)).toBe(kept.filter((s) => s.sentAtMs > since && s.answeredAtMs < until).reduce((a, s) => a + s.cost, 0));
    }
    expect([...log.answered(Number.POSITIVE_INFINITY)]).toEqual(kept);
  }

  it('forgets the sends from the oldest on while they were sent at or before the cutoff, and answers for the rest only', () => {
    const all = sends(7, 1_000);
    const log = new OwnSendLog();
    for (const s of all) log.push(s);
    const cutoff = (all[600] as OwnSend).sentAtMs;
    log.forget(cutoff);
    // the first send after the cutoff stops the forgetting (a slow one sent earlier stays, as in a list)
    let first = 0;
    while ((all[first] as OwnSend).sentAtMs <= cutoff) first++;
    const kept = all.slice(first);
    expect(log.size).toBe(kept.length);
    expect([...log.answered(Number.POSITIVE_INFINITY)]).toEqual(kept);
    const end: WindowEnd = { earliestMs: 0, latestMs: Number.MAX_SAFE_INTEGER };
    expect(log.query(Number.POSITIVE_INFINITY).costCounted(0, end, Number.MAX_SAFE_INTEGER)).toBe(kept.reduce((a, s) => a + s.cost, 0));
    expect(log.usage(0, Number.POSITIVE_INFINITY)).toBe(kept.reduce((a, s) => a + s.cost, 0));
    log.forget(Number.POSITIVE_INFINITY);
    expect(log.size).toBe(0);
    expect(log.query(Number.POSITIVE_INFINITY).earliestAnsweredIn(end, Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });
});
