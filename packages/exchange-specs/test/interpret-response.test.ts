import { describe, expect, it } from 'vitest';
import {
  getVenueSpec,
  interpretResponse,
  validateSpec,
  type Identity,
  type InterpretOptions,
  type VenueRequest,
  type VenueResponse,
  type VenueSpec,
} from '../src/index.js';
import { keyId, publicId } from './helpers.js';

/** The arithmetic below is pinned with explicit options (round numbers); the defaults have their own test. */
// Pins the token-bucket derivation (for limiters without window limits); window limits are tested on their own.
const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0, windowLimits: false } as const;

function feedback(venue: string, request: VenueRequest, response: Partial<VenueResponse>, identity: Identity = publicId, options: InterpretOptions = PINNED) {
  return interpretResponse(getVenueSpec(venue), request, { status: 200, headers: {}, body: {}, ...response }, identity, options);
}

const minuteStart = Date.UTC(2026, 10, 30, 12, 0, 0);
const date = (ms: number) => new Date(ms).toUTCString();

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
    expect(feedback('binance-spot', depth, { headers }, publicId, { own }).syncs[0]?.countedOwnCost).toBe(5 + 5 + 5 + 5);
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

describe('okx', () => {
  const order: VenueRequest = { method: 'POST', path: '/api/v5/trade/order', body: { instId: 'BTC-USDT' } };
  it('50011 inside an HTTP 200 body is rate limited: the instrument and sub-account buckets are held', () => {
    const fb = feedback('okx', order, { status: 200, body: { code: '50011', msg: 'Rate limit reached', data: [] } }, keyId);
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['trade/order:BTC-USDT', 'subaccount-orders']);
  });
  it('50061 holds the sub-account bucket only', () => {
    const fb = feedback('okx', order, { body: { code: '50061' } }, keyId);
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['subaccount-orders']);
  });
  it('a batch whose orders were refused one by one with sCode 50011 is rate limited', () => {
    const fb = feedback(
      'okx',
      { method: 'POST', path: '/api/v5/trade/batch-orders', body: [{ instId: 'A' }] },
      { body: { code: '1', data: [{ sCode: '50011' }] } },
      keyId,
    );
    expect(fb.verdict).toBe('rate_limited');
  });
  it('code 0 is ok', () => {
    expect(feedback('okx', order, { body: { code: '0', data: [{ sCode: '0' }] } }, keyId)).toMatchObject({ verdict: 'ok', counted: true, penalties: [] });
  });
});

describe('bybit', () => {
  const create: VenueRequest = { method: 'POST', path: '/v5/order/create', body: { category: 'linear' } };
  it('syncs the endpoint bucket from X-Bapi-Limit-Status and X-Bapi-Limit', () => {
    const fb = feedback(
      'bybit',
      create,
      { headers: { 'x-bapi-limit-status': '5', 'x-bapi-limit': '10', 'x-bapi-limit-reset-timestamp': '1700000000500' } },
      keyId,
    );
    // remaining 5 of 10, rolling 1 s: C 1 + 8·1 − 5 + 0.1·10 = 5.
    expect(fb.syncs).toEqual([
      { key: { venue: 'bybit', credential: 'test-key-1', axis: 'order/create' }, limit: { capacity: 1, refillPerSec: 8 }, minBorrowed: 5 },
    ]);
  });
  it("with the caller's own usage, a sliding window asks only for what other clients spent (bound 2), never more than bound 1", () => {
    const headers = { 'x-bapi-limit-status': '5', 'x-bapi-limit': '10' };
    const own = (mine: number) => ({ nowMs: 1_000_000, sentAtMs: 999_990, usage: () => mine });
    // 5 used, this request (1) and 4 earlier ones ours: nobody else, nothing to hold
    expect(feedback('bybit', create, { headers }, keyId, { ...PINNED, own: own(4) }).syncs[0]?.minBorrowed).toBe(0);
    // 2 of the 5 are someone else's: C + 2 = 3, below bound 1 (5)
    expect(feedback('bybit', create, { headers }, keyId, { ...PINNED, own: own(2) }).syncs[0]?.minBorrowed).toBe(3);
    // nothing known to be ours: bound 1
    expect(feedback('bybit', create, { headers }, keyId, { ...PINNED, own: own(0) }).syncs[0]?.minBorrowed).toBe(5);
    // the venue reports a smaller limit (8) than the safe parameters assume: bound 2 does not hold; bound 1 = 5 + 1 + 8 − 7.2
    const smaller = feedback('bybit', create, { headers: { 'x-bapi-limit-status': '3', 'x-bapi-limit': '8' } }, keyId, { ...PINNED, own: own(4) });
    expect(smaller.syncs[0]?.minBorrowed).toBeCloseTo(5 + 1 + 8 - 8 * 0.9, 9);
  });
  it("on a window limit, the venue counted the request before its answer came: an answer faster than the jitter allowance bounds the window's start more tightly", () => {
    const headers = { 'x-bapi-limit-status': '5', 'x-bapi-limit': '10' };
    const elapsed = (answerMs: number) =>
      feedback('bybit', create, { headers }, keyId, { own: { nowMs: 1_000_000 + answerMs, sentAtMs: 1_000_000, usage: () => 0 } }).syncs[0]?.windowElapsedMs;
    // rolling 1 s, 100 ms of jitter: counted within 100 ms of the send, and before the answer came back
    expect(elapsed(6)).toBe(994);
    expect(elapsed(40)).toBe(960);
    expect(elapsed(100)).toBe(900);
    expect(elapsed(250)).toBe(900);
    // an answer time before the send time is a clock that cannot be trusted: the jitter allowance alone
    expect(elapsed(-5)).toBe(900);
    // without the caller's send time, the jitter allowance alone
    expect(feedback('bybit', create, { headers }, keyId, {}).syncs[0]?.windowElapsedMs).toBe(900);
  });
  it('403 is an IP ban of at least 10 minutes', () => {
    const fb = feedback('bybit', create, { status: 403, body: 'access too frequent' }, keyId);
    expect(fb.verdict).toBe('banned');
    expect(fb.penalties).toEqual([{ key: { venue: 'bybit', credential: null, axis: 'ip' }, hold: { forMs: 600_000 } }]);
  });
  it('retCode 10006 waits until X-Bapi-Limit-Reset-Timestamp (read against Date)', () => {
    const now = Date.UTC(2026, 10, 30, 12, 0, 0);
    const fb = feedback(
      'bybit',
      create,
      { headers: { date: date(now), 'x-bapi-limit-reset-timestamp': String(now + 750) }, body: { retCode: 10006, retMsg: 'Too many visits!' } },
      keyId,
    );
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.retryAfterMs).toBe(750);
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['order/create', 'ip']);
  });
});

describe('kucoin', () => {
  const order: VenueRequest = { method: 'POST', path: '/api/v1/hf/orders' };
  it('syncs the pool from gw-ratelimit-* with the reset it reports', () => {
    // remaining 1000 of 4000, 10 s left: C 360 + 108·10 − 1000 + 400 = 840.
    const fb = feedback('kucoin', order, { headers: { 'gw-ratelimit-limit': '4000', 'gw-ratelimit-remaining': '1000', 'gw-ratelimit-reset': '10000' } }, keyId);
    expect(fb.syncs).toEqual([
      { key: { venue: 'kucoin', credential: 'test-key-1', axis: 'spot' }, limit: { capacity: 360, refillPerSec: 108 }, minBorrowed: 840 },
    ]);
  });
  it('429000 with the rate-limit headers waits for the reset', () => {
    const fb = feedback(
      'kucoin',
      order,
      { status: 429, headers: { 'gw-ratelimit-limit': '4000', 'gw-ratelimit-remaining': '0', 'gw-ratelimit-reset': '12345' }, body: { code: '429000' } },
      keyId,
    );
    expect(fb).toMatchObject({ verdict: 'rate_limited', counted: true, retryAfterMs: 12345 });
    expect(fb.penalties).toEqual([{ key: { venue: 'kucoin', credential: 'test-key-1', axis: 'spot' }, hold: { forMs: 12345 } }]);
  });
  it('429000 without them is overload, not counted, nothing held', () => {
    const fb = feedback('kucoin', order, { status: 429, body: { code: '429000', msg: 'Too many requests' } }, keyId);
    expect(fb).toMatchObject({ verdict: 'overloaded', counted: false, penalties: [] });
  });
});

describe('kraken', () => {
  it('EAPI:Rate limit exceeded in an HTTP 200 body holds the key counter', () => {
    const fb = feedback('kraken', { method: 'POST', path: '/0/private/Balance' }, { body: { error: ['EAPI:Rate limit exceeded'], result: {} } }, keyId);
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.penalties.map((p) => p.key)).toEqual([{ venue: 'kraken', credential: 'test-key-1', axis: 'rest-counter' }]);
  });
  it('EOrder:Rate limit exceeded holds the pair counter and the key bound of every pair counter', () => {
    const fb = feedback(
      'kraken',
      { method: 'POST', path: '/0/private/AddOrder', body: 'pair=XBTUSD' },
      { body: { error: ['EOrder:Rate limit exceeded'] } },
      keyId,
    );
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['trading:XBTUSD', 'trading-key']);
  });
  it('EGeneral:Temporary lockout is a ban; an empty error list is ok', () => {
    expect(feedback('kraken', { method: 'POST', path: '/0/private/Balance' }, { body: { error: ['EGeneral:Temporary lockout'] } }, keyId).verdict).toBe(
      'banned',
    );
    expect(feedback('kraken', { method: 'POST', path: '/0/private/Balance' }, { body: { error: [], result: {} } }, keyId).verdict).toBe('ok');
  });
});

describe('gate', () => {
  it("syncs from X-Gate-RateLimit-* and holds 10 s on 429 (the reset timestamp's unit is not documented)", () => {
    const now = Date.UTC(2026, 10, 30, 12, 0, 0);
    const req: VenueRequest = { method: 'POST', path: '/api/v4/spot/orders', body: { currency_pair: 'BTC_USDT' } };
    const ok = feedback(
      'gate',
      req,
      {
        headers: {
          'x-gate-ratelimit-requests-remain': '9',
          'x-gate-ratelimit-limit': '10',
          'x-gate-ratelimit-reset-timestamp': String(now + 1000),
          date: date(now),
        },
      },
      keyId,
    );
    expect(ok.syncs.map((s) => s.key.axis)).toEqual(['spot-order:BTC_USDT']);
    const limited = feedback(
      'gate',
      req,
      { status: 429, headers: { 'x-gate-ratelimit-reset-timestamp': String(now + 400), date: date(now) }, body: { label: 'TOO_MANY_REQUESTS' } },
      keyId,
    );
    expect(limited).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 10_000 });
  });
});

describe('htx', () => {
  it('syncs from X-HB-RateLimit-Requests-Remain and reads the error code in the body', () => {
    const req: VenueRequest = { method: 'POST', path: '/v1/order/orders/place' };
    expect(feedback('htx', req, { headers: { 'x-hb-ratelimit-requests-remain': '99' } }, keyId).syncs.map((s) => s.key.axis)).toEqual(['place']);
    const fb = feedback('htx', req, { body: { status: 'error', 'err-code': 'base-request-exceed-frequency-limit' } }, keyId);
    expect(fb.verdict).toBe('rate_limited');
  });
});

describe('bitfinex', () => {
  it('["error", 11010, "ratelimit: error"] holds every bucket of the IP for 60 s', () => {
    const fb = feedback('bitfinex', { method: 'GET', path: '/v2/book/tBTCUSD/P0' }, { body: ['error', 11010, 'ratelimit: error'] });
    expect(fb.penalties).toContainEqual({ key: { venue: 'bitfinex', credential: null, axis: 'book' }, hold: { forMs: 60_000 } });
    expect(fb.penalties.map((p) => p.key.axis)).toContain('ticker');
  });
});

describe('deribit', () => {
  it('too_many_requests (10028) holds the charged credit bucket', () => {
    const fb = feedback(
      'deribit',
      { method: 'GET', path: '/api/v2/private/buy' },
      { status: 429, body: { error: { code: 10028, message: 'too_many_requests' } } },
      keyId,
    );
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['matching']);
  });
});

describe('hyperliquid', () => {
  it('settles response-size costs after the response: +1 per 20 trades', () => {
    const fb = feedback(
      'hyperliquid',
      { method: 'POST', path: '/info', body: { type: 'recentTrades', coin: 'BTC' } },
      { body: Array.from({ length: 45 }, () => ({})) },
    );
    expect(fb.extraChecks?.map((c) => [c.key.axis, c.cost])).toEqual([['ip-weight', 3]]);
    const l2 = feedback('hyperliquid', { method: 'POST', path: '/info', body: { type: 'l2Book', coin: 'BTC' } }, { body: { levels: [] } });
    expect(l2.extraChecks).toBeUndefined();
  });
  it('429 holds the IP weight', () => {
    expect(feedback('hyperliquid', { method: 'POST', path: '/info', body: { type: 'meta' } }, { status: 429 }).penalties.map((p) => p.key.axis)).toEqual([
      'ip-weight',
    ]);
  });
});

describe('coinbase, bitget, bitstamp', () => {
  it('429 holds the charged buckets', () => {
    expect(feedback('coinbase', { method: 'POST', path: '/api/v3/brokerage/orders' }, { status: 429 }, keyId).penalties.map((p) => p.key.axis)).toEqual([
      'private',
      'private-hourly',
    ]);
    expect(feedback('bitget', { method: 'POST', path: '/api/v2/spot/trade/place-order' }, { status: 429 }, keyId).penalties.map((p) => p.key.axis)).toEqual([
      'spot-place-order',
      'ip',
    ]);
    expect(feedback('bitstamp', { method: 'GET', path: '/api/v2/ticker/btcusd/' }, { status: 400, body: { code: '400.002' } }).verdict).toBe('rate_limited');
  });
  it('an unmatched 4xx is an error that counted', () => {
    expect(feedback('coinbase', { method: 'POST', path: '/api/v3/brokerage/orders' }, { status: 400 }, keyId)).toMatchObject({
      verdict: 'error',
      counted: true,
    });
  });
});

describe('error rules: text that contains a phrase, and waits read out of an error string', () => {
  const provenance = { source: 'doc', confidence: 'documented' } as const;
  /** A one-bucket venue with the given error rules. */
  const venue = (errors: NonNullable<VenueSpec['errors']>): VenueSpec => ({
    id: 'test-venue',
    venue: 'Test',
    product: 'REST',
    origin: 'hand-authored',
    sources: { doc: { url: 'https://example.com/limits', retrieved: '2026-12-01' } },
    buckets: [{ id: 'ip', scope: 'ip', algorithm: 'sliding-window', limit: 10, windowMs: 1000, provenance }],
    endpoints: [{ id: 'x', method: 'GET', path: '/x', auth: 'public', costs: [{ bucket: 'ip', cost: { kind: 'constant', value: 1 } }], provenance }],
    errors,
  });
  const at = Date.UTC(2026, 11, 1, 12, 0, 0);
  const respond = (spec: VenueSpec, response: Partial<VenueResponse>) =>
    interpretResponse(spec, { method: 'GET', path: '/x' }, { status: 200, headers: {}, body: {}, ...response }, publicId);

  it('contains matches a text body, or a field, ignoring case; a JSON object body is not text', () => {
    const spec = venue([
      {
        id: 'ban',
        status: [403],
        body: [{ path: '', contains: 'Access Too Frequent' }],
        verdict: 'banned',
        counted: true,
        penalize: ['ip'],
        wait: [{ from: 'fixed', ms: 600_000 }],
        provenance,
      },
    ]);
    expect(respond(spec, { status: 403, body: '<html>403: access too frequent</html>' })).toMatchObject({ verdict: 'banned', retryAfterMs: 600_000 });
    expect(respond(spec, { status: 403, body: 'forbidden' }).verdict).toBe('error');
    expect(respond(spec, { status: 403, body: { msg: 'access too frequent' } }).verdict).toBe('error');
    const field = venue([{ id: 'f', body: [{ path: 'msg', contains: 'too frequent' }], verdict: 'rate_limited', counted: true, provenance }]);
    expect(respond(field, { body: { msg: 'Requests TOO FREQUENT' } }).verdict).toBe('rate_limited');
  });

  it('a body pattern reads an epoch in seconds out of an error string (in an array) against the Date header', () => {
    const spec = venue([
      {
        id: 'throttled',
        body: [{ path: 'error', startsWith: 'EService' }],
        verdict: 'rate_limited',
        counted: true,
        penalize: ['ip'],
        wait: [
          { from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: (\\d+)' },
          { from: 'fixed', ms: 5000 },
        ],
        provenance,
      },
    ]);
    const date = new Date(at).toUTCString();
    const fb = respond(spec, { headers: { date }, body: { error: ['EGeneral:Other', `EService: Throttled: ${at / 1000 + 12}`] } });
    expect(fb.retryAfterMs).toBe(12_000);
    expect(fb.penalties).toEqual([{ key: { venue: 'test-venue', credential: null, axis: 'ip' }, hold: { forMs: 12_000 } }]);
    // a time already past: nothing left to wait
    expect(respond(spec, { headers: { date }, body: { error: [`EService: Throttled: ${at / 1000 - 5}`] } }).retryAfterMs).toBe(0);
    // no number in the message, or no Date header: the next source
    expect(respond(spec, { headers: { date }, body: { error: ['EService: Throttled'] } }).retryAfterMs).toBe(5000);
    expect(respond(spec, { body: { error: [`EService: Throttled: ${at / 1000 + 12}`] } }).retryAfterMs).toBe(5000);
  });

  it('a pattern reads a duration out of a text field; epoch-s works for headers too', () => {
    const spec = venue([
      {
        id: 'slow',
        status: [429],
        verdict: 'rate_limited',
        counted: true,
        penalize: ['ip'],
        wait: [
          { from: 'body', path: 'msg', unit: 's', pattern: 'retry in (\\d+(?:\\.\\d+)?) s' },
          { from: 'header', header: 'x-reset', unit: 'epoch-s' },
        ],
        provenance,
      },
    ]);
    expect(respond(spec, { status: 429, body: { msg: 'slow down, retry in 2.5 s' } }).retryAfterMs).toBe(2500);
    expect(
      respond(spec, { status: 429, headers: { date: new Date(at).toUTCString(), 'x-reset': String(at / 1000 + 3) }, body: { msg: 'slow down' } }).retryAfterMs,
    ).toBe(3000);
  });

  it('validation: a wait pattern must compile and capture; header waits take no pattern', () => {
    const errors = (wait: unknown) => {
      const r = validateSpec({ ...venue([]), errors: [{ id: 'e', status: [429], verdict: 'rate_limited', counted: true, wait, provenance }] });
      return r.ok ? [] : r.errors.map((e) => e.path);
    };
    expect(errors([{ from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: (\\d+)' }])).toEqual([]);
    expect(errors([{ from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: (\\d+' }])).toEqual(['errors[0].wait[0].pattern']);
    expect(errors([{ from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: \\d+' }])).toEqual(['errors[0].wait[0].pattern']);
    expect(errors([{ from: 'header', header: 'x-reset', unit: 'epoch-s', pattern: '(\\d+)' }])).toEqual(['errors[0].wait[0].pattern']);
    expect(errors([{ from: 'body', path: 'error', unit: 'minutes' }])).toEqual(['errors[0].wait[0].unit']);
    const contains = validateSpec({
      ...venue([]),
      errors: [{ id: 'e', status: [403], body: [{ path: '', contains: '' }], verdict: 'error', counted: true, provenance }],
    });
    expect(contains.ok ? [] : contains.errors.map((e) => e.path)).toEqual(['errors[0].body[0].contains']);
  });
});
