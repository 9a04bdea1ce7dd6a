import { describe, expect, it } from 'vitest';
import { bucketForTier, getVenueSpec, interpretResponse, resolveRequest, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';
import { costs, errorCode } from '../helpers.js';

const spec = getVenueSpec('bybit');
const key: Identity = { credential: 'uid-1' };
const create = (category: string): VenueRequest => ({ method: 'POST', path: '/v5/order/create', body: { category, symbol: 'BTCUSDT' } });
const batch = (path: string, category: string, n: number): VenueRequest => ({
  method: 'POST',
  path,
  body: { category, request: Array.from({ length: n }, () => ({ symbol: 'BTCUSDT' })) },
});

function limit(id: string, tier?: string): number {
  const b = bucketForTier(spec.buckets.find((x) => x.id === id)!, tier);
  return b.algorithm === 'token-bucket' ? b.capacity : b.limit;
}

/** What the venue counts (`charges`), by bucket: on spaced buckets the limiter admits every request at the largest cost. */
function counted(request: VenueRequest): Record<string, number> {
  const r = resolveRequest(spec, request, key);
  if (!r.ok) throw new Error(r.error.message);
  return Object.fromEntries(r.charges.map((c) => [c.bucket, c.cost]));
}

function feedback(response: Partial<VenueResponse>, request: VenueRequest = create('linear')) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, key);
}

describe('bybit: HTTP 403 has three documented causes; only the IP rate limit is a 10-minute ban', () => {
  it('"403, access too frequent" bans the IP for 10 minutes', () => {
    const fb = feedback({ status: 403, body: 'access too frequent' });
    expect(fb.verdict).toBe('banned');
    expect(fb.penalties).toEqual([{ key: { venue: 'bybit', credential: null, axis: 'ip' }, hold: { forMs: 600_000 } }]);
    expect(
      feedback({ status: 403, headers: { 'content-type': 'text/html' }, body: '<html><body>403 Forbidden: Access too frequent.</body></html>' }).verdict,
    ).toBe('banned');
  });

  it('a 403 for a GET with an empty JSON body, or from a U.S. IP, is an error that holds nothing', () => {
    const emptyBodyGet = feedback({ status: 403, body: '' }, { method: 'GET', path: '/v5/market/tickers', query: { category: 'spot' }, body: '{}' });
    expect(emptyBodyGet).toMatchObject({ verdict: 'error', penalties: [] });
    expect(emptyBodyGet.retryAfterMs).toBeUndefined();
    const usIp = feedback({
      status: 403,
      headers: { 'content-type': 'text/html' },
      body: '<h1>403 ERROR</h1><h2>The request could not be satisfied.</h2>The Amazon CloudFront distribution is configured to block access from your country.',
    });
    expect(usIp).toMatchObject({ verdict: 'error', penalties: [] });
    expect(feedback({ status: 403, body: { retCode: 10009, retMsg: 'Service Restricted: Access is currently unavailable for your region.' } })).toMatchObject({
      verdict: 'error',
      penalties: [],
    });
  });
});

describe('bybit: per-product trading limits', () => {
  it('linear and inverse share one Futures limit (one table cell, one business type)', () => {
    expect(costs('bybit', create('linear'), key)).toEqual({ 'order/create': 1, ip: 1 });
    expect(costs('bybit', create('inverse'), key)).toEqual({ 'order/create': 1, ip: 1 });
    expect(costs('bybit', create('option'), key)).toEqual({ 'order/create/option': 1, ip: 1 });
    expect(errorCode('bybit', { method: 'POST', path: '/v5/order/create', body: { symbol: 'BTCUSDT' } }, key)).toBe('missing_parameter');
  });

  it('spot create and cancel allow 20/s by default, 25/30/40 at VIP 1/2/3', () => {
    expect(limit('order/create/spot')).toBe(20);
    expect(limit('order/cancel/spot')).toBe(20);
    expect(['vip1', 'vip2', 'vip3', 'vip5', 'vip-supreme'].map((t) => limit('order/create/spot', t))).toEqual([25, 30, 40, 40, 40]);
  });

  it('futures and option create 10/s by default, 20/40/60 at VIP 1/2/3', () => {
    expect([undefined, 'vip1', 'vip2', 'vip3', 'vip4'].map((t) => limit('order/create', t))).toEqual([10, 20, 40, 60, 60]);
    expect([undefined, 'vip1', 'vip2', 'vip3'].map((t) => limit('order/create/option', t))).toEqual([10, 20, 40, 60]);
  });

  it('spot amend stays 10/s and option cancel-all 1/s at every level; futures and spot cancel-all are 10/s and 20/s', () => {
    expect([undefined, 'vip1', 'vip3'].map((t) => limit('order/amend/spot', t))).toEqual([10, 10, 10]);
    expect([undefined, 'vip2'].map((t) => limit('order/cancel-all/option', t))).toEqual([1, 1]);
    expect(limit('order/cancel-all')).toBe(10);
    expect(limit('order/cancel-all/spot')).toBe(20);
  });

  it('read endpoints are one limit across categories', () => {
    const realtime = (category: string): VenueRequest => ({ method: 'GET', path: '/v5/order/realtime', query: { category } });
    expect(costs('bybit', realtime('linear'), key)).toEqual({ 'order/realtime': 1, ip: 1 });
    expect(costs('bybit', realtime('spot'), key)).toEqual({ 'order/realtime': 1, ip: 1 });
    expect(limit('account/wallet-balance')).toBe(50);
    expect(limit('account/fee-rate')).toBe(5);
    expect(limit('ip')).toBe(600);
  });
});

describe('bybit: batches', () => {
  it('count one unit per order on linear, inverse and spot, at most 10 orders', () => {
    expect(counted(batch('/v5/order/create-batch', 'inverse', 4))).toEqual({ 'order/create-batch': 4, ip: 1 });
    expect(counted(batch('/v5/order/cancel-batch', 'spot', 10))).toEqual({ 'order/cancel-batch/spot': 10, ip: 1 });
    expect(errorCode('bybit', batch('/v5/order/amend-batch', 'spot', 11), key)).toBe('invalid_parameter');
    expect(limit('order/create-batch/spot')).toBe(20);
  });

  it('batch create on option counts one unit per request; batch amend and cancel on option per order (undocumented: the safe reading)', () => {
    expect(counted(batch('/v5/order/create-batch', 'option', 20))).toEqual({ 'order/create-batch/option': 1, ip: 1 });
    expect(counted(batch('/v5/order/amend-batch', 'option', 5))).toEqual({ 'order/amend-batch/option': 5, ip: 1 });
    expect(spec.endpoints.find((e) => e.id === 'order-cancel-batch')?.costs.find((c) => c.bucket === 'order/cancel-batch/option')?.provenance?.confidence).toBe(
      'uncertain',
    );
  });
});

describe('bybit: error codes', () => {
  it('retCode 10006 waits until X-Bapi-Limit-Reset-Timestamp', () => {
    const now = Date.UTC(2026, 11, 1, 12, 0, 0);
    const fb = feedback({
      headers: { date: new Date(now).toUTCString(), 'x-bapi-limit-reset-timestamp': String(now + 400) },
      body: { retCode: 10006, retMsg: 'Too many visits!' },
    });
    expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 400 });
  });

  it('recognizes the other documented rate-limit codes: 10429, 429 (server load), 170005 and 170222 (spot)', () => {
    expect(feedback({ body: { retCode: 10429 } })).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 1000 });
    expect(feedback({ body: { retCode: 429 } })).toMatchObject({ verdict: 'overloaded', retryAfterMs: 1000 });
    expect(feedback({ body: { retCode: 170005, retMsg: 'Too many new orders; current limit is 20 orders per 1s.' } }, create('spot'))).toMatchObject({
      verdict: 'rate_limited',
      retryAfterMs: 1000,
    });
    expect(feedback({ body: { retCode: 170222 } }, create('spot')).verdict).toBe('rate_limited');
    expect(feedback({ status: 429, body: '' }).verdict).toBe('rate_limited');
  });

  it('syncs the product bucket the request was charged on from X-Bapi-Limit-Status', () => {
    const fb = feedback({ headers: { 'x-bapi-limit': '20', 'x-bapi-limit-status': '3' } }, create('spot'));
    expect(fb.syncs.map((s) => s.key.axis)).toEqual(['order/create/spot']);
  });
});

describe('bybit: every number quotes the documentation', () => {
  it('records the check and quotes every bucket, endpoint and error rule', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    for (const p of [...spec.buckets, ...spec.endpoints, ...(spec.errors ?? []), ...(spec.feedback ?? [])].map((x) => x.provenance))
      expect(p.quote?.length).toBeGreaterThan(0);
  });
});
