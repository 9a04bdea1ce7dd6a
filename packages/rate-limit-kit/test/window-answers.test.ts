import { describe, expect, it } from 'vitest';
import { ANSWER, MAX_WINDOW_ENTRIES, defineWindow, windowCharge, windowSync } from '../src/index.js';

// RL-V5's answer records: a send marked answered with its fixed window's end is taken as counted by a
// later report of that window that says more. 10 per 1000 ms, 50 ms of jitter; times in ms.
const d = defineWindow(10, 1000, 50);
const END: [number, number] = [1900, 2000];

/** What others spent, as the sync kept it: the reported entries' cost. */
function others(entries: readonly number[]): number {
  let sum = 0;
  for (let i = 0; i < entries.length; i += 4) if (entries[i + 3] === 1) sum += entries[i + 2] as number;
  return sum;
}

describe('answer records (windowSync)', () => {
  it('keeps the marked send’s usage and window end, and a later report of that window saying more takes the send', () => {
    const sent = windowCharge(windowCharge([], d, 1, 1000, 1000), d, 1, 1020, 1020);
    const b = windowSync(sent, [], d, 3, 1030, 1020, undefined, 1, 1, END);
    expect(b.answers).toEqual([1020, 1030, 1, 3, 1900, 2000]);
    expect(b.answers.length).toBe(ANSWER);
    // A (sent at 1000, before B's mark) reports 5 of the same window: B counted before it
    expect(others(windowSync(b.entries, b.answers, d, 5, 1040, 1000, undefined, 1, undefined, [1950, 2050]).entries)).toBe(3);
    // the next window, no end, or a count no higher: B may be on its way
    expect(others(windowSync(b.entries, b.answers, d, 5, 1040, 1000, undefined, 1, undefined, [2900, 3000]).entries)).toBe(4);
    expect(others(windowSync(b.entries, b.answers, d, 5, 1040, 1000, undefined, 1, undefined, undefined).entries)).toBe(4);
    expect(others(windowSync(b.entries, b.answers, d, 3, 1040, 1000, undefined, 1, undefined, END).entries)).toBe(2);
  });

  it('uses a record only when one entry and one record share its send time, mark and cost', () => {
    // two sends at 1020 of cost 1, both marked at 1030 (one clock reading): the records cannot be told apart
    let e = windowCharge(windowCharge(windowCharge([], d, 1, 1000, 1000), d, 1, 1020, 1020), d, 1, 1020, 1020);
    const first = windowSync(e, [], d, 3, 1030, 1020, undefined, 1, 1, END);
    const second = windowSync(first.entries, first.answers, d, 4, 1030, 1020, undefined, 1, 1, END);
    expect(second.answers.length).toBe(2 * ANSWER);
    // both counted before A (3 and 4 < 6), but the pair is ambiguous: neither is taken
    expect(others(windowSync(second.entries, second.answers, d, 6, 1040, 1000, undefined, 1, undefined, END).entries)).toBe(5);
    // one record for two entries of the same send time, mark and cost (the other's record lost): none taken
    e = second.entries;
    expect(others(windowSync(e, second.answers.slice(0, ANSWER), d, 6, 1040, 1000, undefined, 1, undefined, END).entries)).toBe(5);
  });

  it('drops the records of sends that left the window, and keeps none for a window end known only to a quarter window', () => {
    const sent = windowCharge([], d, 1, 1020, 1020);
    const b = windowSync(sent, [], d, 3, 1030, 1020, undefined, 1, 1, [1750, 2000]);
    expect(b.answers).toEqual([]);
    const c = windowSync(sent, [], d, 3, 1030, 1020, undefined, 1, 1, END);
    expect(windowSync(c.entries, c.answers, d, 0, 1020 + 1050, undefined, undefined, 0, undefined, undefined).answers).toEqual([]);
    expect(windowSync(c.entries, c.answers, d, 0, 1020 + 1049, undefined, undefined, 0, undefined, undefined).answers).toEqual(c.answers);
  });
});

describe('merging (RL-V6)', () => {
  it('merges critical sends only among themselves, so a lower class’s line never counts them', () => {
    // 6000 per minute: 300 sends, one in three critical, more than the list keeps
    const big = defineWindow(6000, 60_000, 100);
    let e: number[] = [];
    for (let i = 0; i < 300; i++) e = windowCharge(e, big, 1, 1000 + 10 * i, 1000 + 10 * i, i % 3 === 0 ? 0 : 2);
    expect(e.length).toBe(MAX_WINDOW_ENTRIES * 4);
    let critical = 0;
    let total = 0;
    for (let i = 0; i < e.length; i += 4) {
      total += e[i + 2] as number;
      if (e[i + 3] === 4) critical += e[i + 2] as number;
    }
    expect(total).toBe(300);
    expect(critical).toBe(100);
  });
});

describe('merging a gate (RL-V6)', () => {
  it('merges a critical cost too small to matter (a deferred charge’s gate) into its neighbours, leaving the room to the other sends', () => {
    // 640 sends 10 ms apart, every 16th a critical gate (a millionth of a charge): 40 gates, 150 ms apart
    const big = defineWindow(6000, 60_000, 100);
    let e: number[] = [];
    for (let i = 0; i < 640; i++) e = windowCharge(e, big, i % 16 === 0 ? 1e-6 : 10, 1000 + 10 * i, 1000 + 10 * i, i % 16 === 0 ? 0 : 2);
    let criticalEntries = 0;
    let widest = 0;
    for (let i = 0; i < e.length; i += 4) {
      if (e[i + 3] === 4) criticalEntries++;
      else widest = Math.max(widest, (e[i + 1] as number) - (e[i] as number));
    }
    // the gates go into the entries beside them and the other sends keep the list: kept apart, the gates
    // held 40 of the 128 entries and the other sends merged up to 130 ms wide
    expect(criticalEntries).toBeLessThanOrEqual(2);
    expect(widest).toBeLessThanOrEqual(90);
  });

  it('merges a critical gate with a normal gate beside it: neither costs the lines anything to speak of', () => {
    // 640 sends 10 ms apart; in every 16, a critical gate between two normal gates (orders and cancels on
    // a weight charged only on failure), the rest bulk
    const big = defineWindow(6000, 60_000, 100);
    let e: number[] = [];
    for (let i = 0; i < 640; i++) {
      const gate = i % 16 <= 2;
      e = windowCharge(e, big, gate ? 1e-6 : 10, 1000 + 10 * i, 1000 + 10 * i, i % 16 === 1 ? 0 : gate ? 1 : 2);
    }
    let criticalEntries = 0;
    for (let i = 0; i < e.length; i += 4) if (e[i + 3] === 4) criticalEntries++;
    expect(criticalEntries).toBeLessThanOrEqual(2);
  });

  it('merges critical gates with the normal gates beside them as freely as with each other', () => {
    // only gates: orders (normal) and cancels (critical) alternating on a weight charged only on failure;
    // merged at the span times the critical share (half of each pair's millionths), the cancels' gates
    // kept 64 entries apart and the merges went 140 ms wide
    const big = defineWindow(6000, 60_000, 100);
    let e: number[] = [];
    for (let i = 0; i < 640; i++) e = windowCharge(e, big, 1e-6, 1000 + 10 * i, 1000 + 10 * i, i % 2 === 0 ? 0 : 1);
    let criticalEntries = 0;
    let widest = 0;
    for (let i = 0; i < e.length; i += 4) {
      if (e[i + 3] === 4) criticalEntries++;
      widest = Math.max(widest, (e[i + 1] as number) - (e[i] as number));
    }
    expect(criticalEntries).toBeLessThanOrEqual(16);
    expect(widest).toBeLessThanOrEqual(90);
  });
});
