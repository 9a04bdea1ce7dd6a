// interpretResponse on the other venues: each one's usage headers and refusals.
import { describe, expect, it } from 'vitest';
import type { VenueRequest } from '../src/index.js';
import { keyId } from './helpers.js';
import { date, feedback, PINNED } from './interpret-feedback.js';

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
