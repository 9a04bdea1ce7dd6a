import { describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { answeredSinceOf, noteDate, sendLogOf, sentBeforeOf } from '../src/shared-log.js';

describe("the dates of a venue's answers (what bounds a clock-aligned window's start)", () => {
  it("answers when the venue's clock had passed a time: the earliest arrival of an answer dated at or after it", () => {
    const log = sendLogOf({} as RateLimiter);
    noteDate(log, 'binance-spot', 60_000, 60_450);
    noteDate(log, 'binance-spot', 60_000, 60_020); // an earlier arrival of the same second
    noteDate(log, 'binance-spot', 61_000, 61_010);
    noteDate(log, 'binance-spot', 59_000, 59_990);
    noteDate(log, 'okx', 60_000, 60_001);
    expect(answeredSinceOf(log, 'binance-spot', 60_000)).toBe(60_020);
    expect(answeredSinceOf(log, 'binance-spot', 60_500)).toBe(61_010);
    expect(answeredSinceOf(log, 'binance-spot', 62_000)).toBeUndefined();
    expect(answeredSinceOf(log, 'kraken', 0)).toBeUndefined();
  });

  it("answers the latest send whose answer was dated at least a second before a time: the venue's clock reached that time after it", () => {
    const log = sendLogOf({} as RateLimiter);
    noteDate(log, 'binance-spot', 59_000, 59_990, 59_960);
    noteDate(log, 'binance-spot', 59_000, 59_995, 59_970); // a later send answered in the same second
    noteDate(log, 'binance-spot', 59_000, 59_999, 59_940); // an earlier one, answered later
    noteDate(log, 'binance-spot', 60_000, 60_020, 59_985); // dated 60 s: the venue's clock may have passed 60 s before it
    noteDate(log, 'binance-spot', 61_000, 61_010); // no send time noted
    noteDate(log, 'okx', 59_000, 59_999, 59_998);
    expect(sentBeforeOf(log, 'binance-spot', 60_000)).toBe(59_970);
    expect(sentBeforeOf(log, 'binance-spot', 61_000)).toBe(59_985);
    expect(sentBeforeOf(log, 'binance-spot', 62_000)).toBe(59_985);
    expect(sentBeforeOf(log, 'binance-spot', 59_500)).toBeUndefined();
    expect(sentBeforeOf(log, 'kraken', 60_000)).toBeUndefined();
  });

  it('answers as reading every date does while dates come, improve and are forgotten (its answers are kept until a date they read changes)', () => {
    const log = sendLogOf({} as RateLimiter);
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const naiveSince = (venueMs: number): number | undefined => {
      let first: number | undefined;
      for (const [t, at] of log.dated.get('v') ?? []) if (t >= venueMs && (first === undefined || at < first)) first = at;
      return first;
    };
    const naiveBefore = (venueMs: number): number | undefined => {
      let latest: number | undefined;
      for (const [t, s] of log.datedSends.get('v') ?? []) if (t + 1000 <= venueMs && (latest === undefined || s > latest)) latest = s;
      return latest;
    };
    for (let i = 0; i < 3_000; i++) {
      // mostly the current second, sometimes an earlier one (a slow answer), the clock moving on by a second now and then
      const second = Math.floor(i / 10) - (next(10) === 0 ? next(5) : 0);
      noteDate(log, 'v', second * 1000, second * 1000 + next(900), second * 1000 - next(500));
      for (const venueMs of [Math.floor(i / 600) * 60_000, Math.floor(i / 100) * 10_000, (second - next(3)) * 1000]) {
        expect(answeredSinceOf(log, 'v', venueMs)).toBe(naiveSince(venueMs));
        expect(sentBeforeOf(log, 'v', venueMs)).toBe(naiveBefore(venueMs));
      }
    }
  });

  it('forgets, in batches, the dates more than two minutes older than the newest: never more than about 240 kept', () => {
    const log = sendLogOf({} as RateLimiter);
    for (let s = 0; s <= 400; s++) noteDate(log, 'v', s * 1000, s * 1000 + 5);
    expect(answeredSinceOf(log, 'v', 0)).toBeGreaterThanOrEqual(400_000 - 240_000);
    expect(log.dated.get('v')?.size).toBeLessThanOrEqual(241);
    // the last two minutes are all there
    expect(answeredSinceOf(log, 'v', 280_000)).toBe(280_005);
  });
});
