// interpretResponse on the Binance specs: usage headers, 429/418 answers and their waits.
import { describe, expect, it } from 'vitest';
import type { VenueRequest } from '../src/index.js';
import { keyId, publicId } from './helpers.js';
import { date, feedback, minuteStart } from './interpret-feedback.js';

describe('binance-spot', () => {
  const depth: VenueRequest = { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT' } };

  it('syncs the weight bucket to X-MBX-USED-WEIGHT-1M, using the Date header for the time left in the minute', () => {
    // 20 s into the minute, 3000 used: room 3000; C 540 + 81·40 s − 3000 + 600 = 1380.
    const fb = feedback('binance-spot', depth, { headers: { 'x-mbx-used-weight-1m': '3000', date: date(minuteStart + 20_000) } });
    expect(fb.verdict).toBe('ok');
    expect(fb.counted).toBe(true);
    expect(fb.syncs).toEqual([
      { key: { venue: 'binance-spot', credential: null, axis: 'request_weight' }, limit: { capacity: 540, refillPerSec: 81 }, minBorrowed: 1380 },
    ]);
  });

  it('on a window limit, reports what the venue counted and how long its window had been counting at the least', () => {
    const fb = feedback('binance-spot', depth, { headers: { 'x-mbx-used-weight-1m': '3000', date: date(minuteStart + 20_000) } }, publicId, {});
    // 20 s into the minute by the Date header; the request may have reached the venue 100 ms after it was sent
    expect(fb.syncs).toEqual([
      {
        key: { venue: 'binance-spot', credential: null, axis: 'request_weight' },
        limit: { perWindow: 6000, windowMs: 60_000, jitterMs: 100 },
        minBorrowed: 3000,
        windowElapsedMs: 19_900,
      },
    ]);
    // the Date header is floored to the second: 59.5 s into the minute reads 59 s, still this window
    const late = feedback('binance-spot', depth, { headers: { 'x-mbx-used-weight-1m': '3000', date: date(minuteStart + 59_500) } }, publicId, {});
    expect(late.syncs[0]?.windowElapsedMs).toBe(58_900);
    // without a Date header nothing is known of the fixed window's start: none of our sends is taken as counted
    const blind = feedback('binance-spot', depth, { headers: { 'x-mbx-used-weight-1m': '3000' } }, publicId, {});
    expect(blind.syncs).toEqual([
      {
        key: { venue: 'binance-spot', credential: null, axis: 'request_weight' },
        limit: { perWindow: 6000, windowMs: 60_000, jitterMs: 100 },
        minBorrowed: 3000,
        windowElapsedMs: -100,
      },
    ]);
  });

  it("an own send whose answer reported the same window bounds its start by that answer, tighter than the Date header's second", () => {
    const headers = { 'x-mbx-used-weight-1m': '3000', date: date(minuteStart + 20_000) };
    const sentAtMs = minuteStart + 20_500;
    const thisWindow = { earliestMs: minuteStart + 59_000, latestMs: minuteStart + 60_100 };
    const answered = [
      // answered 103 ms into the minute, reporting this minute: the window began by then
      { sentAtMs: minuteStart + 100, answeredAtMs: minuteStart + 103, cost: 2, windowEnd: thisWindow },
      // sent after that: the store takes it by its time, nothing to certify
      { sentAtMs: minuteStart + 300, answeredAtMs: minuteStart + 302, cost: 3, windowEnd: thisWindow },
      // the last minute's: bounds nothing
      { sentAtMs: minuteStart - 40, answeredAtMs: minuteStart - 38, cost: 4, windowEnd: { earliestMs: minuteStart - 1000, latestMs: minuteStart + 100 } },
    ];
    const own = { nowMs: sentAtMs + 5, sentAtMs, usage: () => 0, answered: () => answered };
    const fb = feedback('binance-spot', depth, { headers }, publicId, { own });
    // by the Date header alone the window began by 505 ms (20 s less the 5 ms the answer took, before 20.5 s); by the answer, by 103 ms
    expect(fb.syncs[0]?.windowElapsedMs).toBe(20_500 - 103);
    // the reporting request's weight 5, the send made before the window's latest start whose answer reported this
    // window, and the one after it (the caller says all it knows; the store takes the larger of its count and this)
    expect(fb.syncs[0]?.countedOwnCost).toBe(5 + 2 + 3);
    // without answer times: the Date header's bound, and both sends before it certified
    const blind = feedback('binance-spot', depth, { headers }, publicId, { own: { ...own, answered: () => answered.map(({ answeredAtMs: _, ...u }) => u) } });
    expect(blind.syncs[0]?.windowElapsedMs).toBe(19_995);
    expect(blind.syncs[0]?.countedOwnCost).toBe(5 + 2 + 3);
  });

  it('a clock-aligned window began by the earliest answer dated at or after its start, whichever request it answered', () => {
    const headers = { 'x-mbx-used-weight-1m': '3000', date: date(minuteStart + 20_000) };
    const sentAtMs = minuteStart + 20_500;
    const own = { nowMs: sentAtMs + 5, sentAtMs, usage: () => 0, answered: () => [] };
    // the Date header's second alone: the window began by 505 ms into the minute
    expect(feedback('binance-spot', depth, { headers }, publicId, { own }).syncs[0]?.windowElapsedMs).toBe(19_995);
    // an answer to any request, dated in this minute, arrived 40 ms into it: the minute had begun by then
    const dated = (venueMs: number): number | undefined => (venueMs <= minuteStart ? minuteStart + 40 : undefined);
    const fb = feedback('binance-spot', depth, { headers }, publicId, { own: { ...own, answeredSince: dated } });
    expect(fb.syncs[0]?.windowElapsedMs).toBe(20_500 - 40);
    // answers dated only before the minute bound nothing
    const before = feedback('binance-spot', depth, { headers }, publicId, { own: { ...own, answeredSince: () => undefined } });
    expect(before.syncs[0]?.windowElapsedMs).toBe(19_995);
  });

  it("a clock-aligned window began after any request whose answer was dated before its start was sent: the window's end known from below within a round trip (RL-V9)", () => {
    const headers = { 'x-mbx-used-weight-1m': '3000', date: date(minuteStart + 20_000) };
    const sentAtMs = minuteStart + 20_500;
    const own = { nowMs: sentAtMs + 5, sentAtMs, usage: () => 0, answered: () => [] };
    // the Date header's second alone: the minute ends between 40.5 s (20 s into it at the earliest, 1 s before the Date's second ends) and 40.505 s later
    const alone = feedback('binance-spot', depth, { headers }, publicId, { own }).syncs[0]?.windowEnd;
    expect(alone).toEqual({ earliestMs: sentAtMs + 39_000, latestMs: sentAtMs + 5 + 40_000 });
    // a request sent 30 ms before the minute began was answered with a Date of the minute before: the minute began after it
    const sentBefore = (venueMs: number): number | undefined => (venueMs >= minuteStart ? minuteStart - 30 : undefined);
    const fb = feedback('binance-spot', depth, { headers }, publicId, { own: { ...own, sentBefore } });
    expect(fb.syncs[0]?.windowEnd).toEqual({ earliestMs: minuteStart - 30 + 60_000, latestMs: sentAtMs + 5 + 40_000 });
    // a bound weaker than the Date header's changes nothing
    const weak = feedback('binance-spot', depth, { headers }, publicId, { own: { ...own, sentBefore: () => minuteStart - 5_000 } });
    expect(weak.syncs[0]?.windowEnd).toEqual(alone);
  });

  it('certifies the sends answered while the report was on its way whose own answers reported less of the same window', () => {
    const headers = { 'x-mbx-used-weight-1m': '3000', date: date(minuteStart + 20_000) };
    const sentAtMs = minuteStart + 20_500;
    const thisWindow = { earliestMs: minuteStart + 59_000, latestMs: minuteStart + 60_100 };
    const meanwhile = [
      // sent 2 ms before the report and counted before it (2995 < 3000): the store cannot take it by its time
      { sentAtMs: sentAtMs - 2, answeredAtMs: sentAtMs + 3, cost: 5, windowEnd: thisWindow, reportedUsed: 2995 },
      // sent after the report but counted before it (it overtook it on the way)
      { sentAtMs: sentAtMs + 1, answeredAtMs: sentAtMs + 4, cost: 5, windowEnd: thisWindow, reportedUsed: 2990 },
      // counted after the report (it reported more): not in the report
      { sentAtMs: sentAtMs - 1, answeredAtMs: sentAtMs + 4, cost: 5, windowEnd: thisWindow, reportedUsed: 3005 },
      // the same count is not less: not certified
      { sentAtMs: sentAtMs - 1, answeredAtMs: sentAtMs + 4, cost: 5, windowEnd: thisWindow, reportedUsed: 3000 },
      // the last minute's window: its count says nothing of this one
      {
        sentAtMs: sentAtMs - 3,
        answeredAtMs: sentAtMs + 4,
        cost: 5,
        windowEnd: { earliestMs: minuteStart - 1000, latestMs: minuteStart + 100 },
        reportedUsed: 10,
      },
      // no known window end: nothing to compare
      { sentAtMs: sentAtMs - 3, answeredAtMs: sentAtMs + 4, cost: 5, reportedUsed: 10 },
      // sent well inside the window and counted before it: the store may take it by its time too, and the larger of the two counts is taken
      { sentAtMs: minuteStart + 11_000, answeredAtMs: sentAtMs + 4, cost: 5, windowEnd: thisWindow, reportedUsed: 2980 },
    ];
    const own = { nowMs: sentAtMs + 5, sentAtMs, usage: () => 0, answered: () => [], answeredMeanwhile: () => meanwhile };
    const sync = feedback('binance-spot', depth, { headers }, publicId, { own }).syncs[0];
    expect(sync?.countedOwnCost).toBe(5 + 5 + 5 + 5);
    // the part sent outside the times the store counts itself (from the window's latest start to jitterMs before the
    // report): the report and the two sent about it, not the one sent well inside the window, which the store counts
    expect(sync?.outsideOwnCost).toBe(5 + 5 + 5);
    // without them: the report's own weight only
    expect(feedback('binance-spot', depth, { headers }, publicId, { own: { ...own, answeredMeanwhile: () => [] } }).syncs[0]?.countedOwnCost).toBe(5);
    // a report that tells no window end (no Date header) compares nothing
    expect(feedback('binance-spot', depth, { headers: { 'x-mbx-used-weight-1m': '3000' } }, publicId, { own }).syncs[0]?.countedOwnCost).toBe(5);
  });

  it('assumes a whole minute is left without a Date header (conservative)', () => {
    const fb = feedback('binance-spot', depth, { headers: { 'x-mbx-used-weight-1m': '3000' } });
    expect(fb.syncs[0]?.minBorrowed).toBe(3000);
  });

  it('syncs nothing when usage leaves room for everything the limiter could admit', () => {
    const fb = feedback('binance-spot', depth, { headers: { 'x-mbx-used-weight-1m': '5', date: date(minuteStart + 1000) } });
    expect(fb.syncs[0]?.minBorrowed).toBe(0);
  });

  it('syncs the order counts from X-MBX-ORDER-COUNT-10S and -1D on orders', () => {
    const fb = feedback(
      'binance-spot',
      { method: 'POST', path: '/api/v3/order' },
      { headers: { 'x-mbx-order-count-10s': '50', 'x-mbx-order-count-1d': '10' } },
      keyId,
    );
    const axes = fb.syncs.map((s) => [s.key.axis, s.key.credential, s.minBorrowed]);
    expect(axes).toContainEqual(['orders_10s', 'test-key-1', 50]);
    expect(axes).toContainEqual(['orders_1d', 'test-key-1', 10]);
  });

  it('429 holds the weight bucket for Retry-After', () => {
    const fb = feedback('binance-spot', depth, {
      status: 429,
      headers: { 'retry-after': '7' },
      body: {
        code: -1003,
        msg: 'Too much request weight used; current limit is 6000 request weight per 1 MINUTE. Please use WebSocket Streams for live updates to avoid polling the API.',
      },
    });
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.retryAfterMs).toBe(7000);
    expect(fb.penalties).toEqual([{ key: { venue: 'binance-spot', credential: null, axis: 'request_weight' }, hold: { forMs: 7000 } }]);
  });

  it('418 is a ban on the IP buckets, for Retry-After', () => {
    const fb = feedback('binance-spot', depth, { status: 418, headers: { 'retry-after': '180' } });
    expect(fb.verdict).toBe('banned');
    expect(fb.penalties.map((p) => [p.key.axis, p.hold])).toEqual([
      ['request_weight', { forMs: 180_000 }],
      ['raw_requests', { forMs: 180_000 }],
    ]);
  });

  it('418 without Retry-After holds for the documented minimum of 2 minutes', () => {
    expect(feedback('binance-spot', depth, { status: 418 }).retryAfterMs).toBe(120_000);
  });

  it('429 with -1015 holds the order bucket of the credential', () => {
    const fb = feedback(
      'binance-spot',
      { method: 'POST', path: '/api/v3/order' },
      { status: 429, headers: { 'retry-after': '3' }, body: { code: -1015 } },
      keyId,
    );
    expect(fb.rule).toBe('too-many-orders');
    expect(fb.penalties).toEqual([{ key: { venue: 'binance-spot', credential: 'test-key-1', axis: 'orders_10s' }, hold: { forMs: 3000 } }]);
  });

  it('reads the weight header even for a request it cannot resolve', () => {
    const fb = feedback('binance-spot', { method: 'GET', path: '/api/v3/unknown' }, { headers: { 'x-mbx-used-weight-1m': '6000' } });
    expect(fb.syncs[0]?.key.axis).toBe('request_weight');
  });
});

describe('binance-usdm', () => {
  it('503 -1008 is overload and not counted', () => {
    const fb = feedback(
      'binance-usdm',
      { method: 'GET', path: '/fapi/v1/depth', query: { symbol: 'X' } },
      { status: 503, body: { code: -1008, msg: 'Request throttled by system-level protection.' } },
    );
    expect(fb).toMatchObject({ verdict: 'overloaded', counted: false });
    expect(fb.penalties).toEqual([]);
  });
  it('syncs X-MBX-ORDER-COUNT-1M', () => {
    const fb = feedback('binance-usdm', { method: 'POST', path: '/fapi/v1/order' }, { headers: { 'x-mbx-order-count-1m': '1000' } }, keyId);
    expect(fb.syncs.map((s) => s.key.axis)).toEqual(['orders_1m']);
  });
});
