import { describe, expect, it } from 'vitest';
import { getVenueSpec, resolveRequest, resolveVenueId, validateSpec, type VenueRequest } from '../../src/index.js';
import { charged, read, refused } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'acct-1' } as const;
const TEN_S = 10_000;
const d = (name: string) => `/derivatives/api/v3/${name}`;

/** The cost a request is charged on one bucket (token buckets included). */
function cost(request: VenueRequest, bucket: string): number | undefined {
  const r = resolveRequest(getVenueSpec('kraken-futures'), request, user);
  if (!r.ok) throw new Error(r.error.message);
  return r.charges.filter((c) => c.bucket === bucket).reduce((a, c) => a + c.cost, 0) || undefined;
}

describe('kraken-futures: documented numbers', () => {
  it('is the plain ccxt name krakenfutures, carries its verification, and every provenance quotes the documentation', () => {
    expect(resolveVenueId('krakenfutures')).toBe('kraken-futures');
    const spec = getVenueSpec('kraken-futures');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('/derivatives: 500 per 10 s per account; orders cost 10, cancel-all 25', () => {
    expect(charged('kraken-futures', { method: 'POST', path: d('sendorder') }, user)).toEqual({
      derivatives: { axis: 'derivatives', credential: 'acct-1', scope: 'uid', cost: 10, limit: 500, windowMs: TEN_S },
    });
    expect(cost({ method: 'POST', path: d('editorder') }, 'derivatives')).toBe(10);
    expect(cost({ method: 'POST', path: d('cancelorder') }, 'derivatives')).toBe(10);
    expect(cost({ method: 'POST', path: d('cancelallorders') }, 'derivatives')).toBe(25);
    expect(cost({ method: 'POST', path: d('cancelallordersafter') }, 'derivatives')).toBe(25);
    expect(cost({ method: 'GET', path: d('accounts') }, 'derivatives')).toBe(2);
    expect(cost({ method: 'GET', path: d('openpositions') }, 'derivatives')).toBe(2);
    expect(cost({ method: 'GET', path: d('openorders') }, 'derivatives')).toBe(2);
    expect(cost({ method: 'POST', path: d('orders/status') }, 'derivatives')).toBe(1);
    expect(cost({ method: 'GET', path: d('leveragepreferences') }, 'derivatives')).toBe(2);
    expect(cost({ method: 'PUT', path: d('leveragepreferences') }, 'derivatives')).toBe(10);
    expect(cost({ method: 'PUT', path: d('pnlpreferences') }, 'derivatives')).toBe(10);
    expect(cost({ method: 'POST', path: d('transfer/subaccount') }, 'derivatives')).toBe(10);
    expect(cost({ method: 'PUT', path: d('subaccount/abc-123/trading-enabled') }, 'derivatives')).toBe(2);
  });

  it('fills cost 2, or 25 with lastFillTime', () => {
    expect(cost({ method: 'GET', path: d('fills') }, 'derivatives')).toBe(2);
    expect(cost({ method: 'GET', path: d('fills'), query: { lastFillTime: '2026-11-30T00:00:00.000Z' } }, 'derivatives')).toBe(25);
  });

  it('batchorder costs 9 + the number of instructions, as a form field json or a JSON body; more than 10 are refused', () => {
    const batch = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        order: 'send',
        order_tag: String(i),
        orderType: 'lmt',
        symbol: 'PF_XBTUSD',
        side: 'buy',
        size: 1,
        limitPrice: 1,
      }));
    const form = (n: number) => `json=${encodeURIComponent(JSON.stringify({ batchOrder: batch(n) }))}`;
    expect(cost({ method: 'POST', path: d('batchorder'), body: form(10) }, 'derivatives')).toBe(19);
    expect(cost({ method: 'POST', path: d('batchorder'), body: form(1) }, 'derivatives')).toBe(10);
    expect(cost({ method: 'POST', path: d('batchorder'), body: { batchOrder: batch(4) } }, 'derivatives')).toBe(13);
    expect(refused('kraken-futures', { method: 'POST', path: d('batchorder'), body: form(11) }, user)).toBe('invalid_parameter');
    expect(refused('kraken-futures', { method: 'POST', path: d('batchorder'), body: 'json=%7B%7D' }, user)).toBe('missing_parameter');
  });

  it('/history: a pool of 100 tokens replenished at 100 per 10 minutes; account-log by count (default 500)', () => {
    const h = getVenueSpec('kraken-futures').buckets.find((b) => b.id === 'history');
    expect(h).toMatchObject({ algorithm: 'token-bucket', capacity: 100, scope: 'uid' });
    expect(h?.algorithm === 'token-bucket' ? h.refillPerSec * 600 : 0).toBeCloseTo(100, 9);
    expect(cost({ method: 'GET', path: '/api/history/v2/orders' }, 'history')).toBe(1);
    expect(cost({ method: 'GET', path: '/api/history/v3/executions' }, 'history')).toBe(1);
    expect(cost({ method: 'GET', path: '/api/history/v2/triggers' }, 'history')).toBe(1);
    expect(cost({ method: 'GET', path: '/api/history/v2/accountlogcsv' }, 'history')).toBe(6);
    const log = (count?: string) =>
      cost({ method: 'GET', path: '/api/history/v3/account-log', ...(count === undefined ? {} : { query: { count } }) }, 'history');
    expect([log('25'), log('26'), log('50'), log('51'), log('1000'), log('1001'), log('5000'), log('5001'), log('100000'), log()]).toEqual([
      1, 2, 2, 3, 3, 6, 6, 10, 10, 3,
    ]);
  });

  it("public endpoints cost nothing at Kraken: only this spec's 5 per 5 s per IP", () => {
    expect(charged('kraken-futures', { method: 'GET', path: d('tickers') })).toEqual({
      public: { axis: 'public', credential: null, scope: 'ip', cost: 1, limit: 5, windowMs: 5000 },
    });
    expect(cost({ method: 'GET', path: '/api/history/v2/market/PF_XBTUSD/executions' }, 'public')).toBe(1);
    expect(cost({ method: 'GET', path: '/api/history/v2/market/PF_XBTUSD/executions' }, 'history')).toBeUndefined();
  });

  it('the 100- and 200-cost endpoints are not listed', () => {
    expect(refused('kraken-futures', { method: 'POST', path: d('withdrawal') }, user)).toBe('unknown_endpoint');
    expect(refused('kraken-futures', { method: 'GET', path: d('unwindqueue') }, user)).toBe('unknown_endpoint');
  });
});

describe('kraken-futures: responses', () => {
  it('apiLimitExceeded (HTTP 200) holds the charged budget 10 s', () => {
    const fb = read(
      'kraken-futures',
      { method: 'POST', path: d('sendorder') },
      { body: { result: 'error', serverTime: '2016-02-25T09:45:53.818Z', error: 'apiLimitExceeded' } },
      user,
    );
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'api-limit-exceeded', retryAfterMs: 10_000 });
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['derivatives']);
    const hist = read('kraken-futures', { method: 'GET', path: '/api/history/v2/orders' }, { body: { result: 'error', error: 'apiLimitExceeded' } }, user);
    expect(hist.penalties.map((p) => p.key.axis)).toEqual(['history']);
  });
});
