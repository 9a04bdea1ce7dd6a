import { describe, expect, it } from 'vitest';
import { RecordBuffer, type PendingRecord } from '../src/record-buffer.js';

const rec = (i: number): PendingRecord => ({ keys: [`k${i}`, `m${i}`], args: [String(i)] });

describe('RecordBuffer (RL-R1: bounded, counted)', () => {
  it('keeps the newest records when full and counts the dropped oldest', () => {
    const b = new RecordBuffer(3);
    for (let i = 0; i < 5; i++) b.push(rec(i));
    expect(b.stats()).toEqual({ buffered: 3, bufferedTotal: 5, flushed: 0, dropped: 2 });
    expect(b.take(10).map((r) => r.keys[0])).toEqual(['k2', 'k3', 'k4']);
  });

  it('records taken for a flush stay counted as buffered until applied, refused or put back', () => {
    const b = new RecordBuffer(10);
    for (let i = 0; i < 4; i++) b.push(rec(i));
    const batch = b.take(3);
    expect(b.stats().buffered).toBe(4);
    b.countFlushed(1);
    b.countFlushDropped(1);
    b.unshift([batch[2] as PendingRecord]);
    expect(b.stats()).toEqual({ buffered: 2, bufferedTotal: 4, flushed: 1, dropped: 1 });
    expect(b.take(10).map((r) => r.keys[0])).toEqual(['k2', 'k3']);
  });

  it('a buffer of size 0 drops every record it is given', () => {
    const b = new RecordBuffer(0);
    b.push(rec(1));
    expect(b.stats()).toEqual({ buffered: 0, bufferedTotal: 1, flushed: 0, dropped: 1 });
  });
});
