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

  it('forgets, in batches, the dates more than two minutes older than the newest: never more than about 240 kept', () => {
    const log = sendLogOf({} as RateLimiter);
    for (let s = 0; s <= 400; s++) noteDate(log, 'v', s * 1000, s * 1000 + 5);
    expect(answeredSinceOf(log, 'v', 0)).toBeGreaterThanOrEqual(400_000 - 240_000);
    expect(log.dated.get('v')?.size).toBeLessThanOrEqual(241);
    // the last two minutes are all there
    expect(answeredSinceOf(log, 'v', 280_000)).toBe(280_005);
  });
});
