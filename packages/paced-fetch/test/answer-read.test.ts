import { describe, expect, it } from 'vitest';
import { AnswerRead } from '../src/answer-read.js';
import { random } from './seeded-random.js';

// bytes of every kind: ASCII, a BOM, valid multi-byte sequences, lone lead and continuation bytes
const PIECES = [
  [0x61],
  [0x62],
  [0x22],
  [0x5c],
  [0x63, 0x6f, 0x64, 0x65],
  [0xef, 0xbb, 0xbf],
  [0xc3, 0xa9],
  [0xe2, 0x82, 0xac],
  [0xc3],
  [0xa9],
  [0xf0, 0x9f],
  [0xff],
];
const PARTS = ['a', 'b', 'ab', 'ba', 'code', '"code"', '\\', 'é', '€', '\uFFFD', 'a\uFFFDb', '', 'aé'];

function bytesOf(next: () => number): Uint8Array {
  const out: number[] = [];
  const n = Math.floor(next() * 12);
  for (let i = 0; i < n; i++) out.push(...(PIECES[Math.floor(next() * PIECES.length)] as number[]));
  return Uint8Array.from(out);
}

describe('an answer read for the spec', () => {
  it("says whether the body's text holds a part exactly as the decoded text does, from an ArrayBuffer or a view", () => {
    const next = random(7);
    for (let i = 0; i < 3_000; i++) {
      const bytes = bytesOf(next);
      const text = new TextDecoder().decode(bytes);
      // a view into a larger buffer (padded with text a part could find), and a buffer of its own
      const padded = new Uint8Array(bytes.length + 4).fill(0x61);
      padded.set(bytes, 2);
      for (const raw of [padded.subarray(2, 2 + bytes.length), bytes.slice().buffer]) {
        const answer = new AnswerRead(200, {}, raw as ArrayBuffer);
        for (const part of PARTS) expect(answer.bodyHolds(part), `${JSON.stringify(text)} holds ${JSON.stringify(part)}`).toBe(text.includes(part));
      }
    }
  });

  it('parses the body once, when read, and reads it as text when it is not JSON', () => {
    const json = new AnswerRead(200, {}, new TextEncoder().encode(' {"code":-2010} ').buffer);
    expect(json.body).toEqual({ code: -2010 });
    expect(json.body).toBe(json.body);
    expect(new AnswerRead(200, {}, new TextEncoder().encode('busy').buffer).body).toBe('busy');
  });
});
