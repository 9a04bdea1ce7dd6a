import { describe, expect, it } from 'vitest';
import type { PenaltyHold } from '@core/rate-limit-contract';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';
import { charged } from './venue-limits.js';

const spec = getVenueSpec('binance-sapi');
const account: Identity = { credential: 'key-1', uid: 'account-1' };
const forMs = (hold: PenaltyHold) => ('forMs' in hold ? hold.forMs : Number.NaN);

function feedback(request: VenueRequest, response: Partial<VenueResponse>, identity: Identity = account) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, identity);
}

const getall: VenueRequest = { method: 'GET', path: '/sapi/v1/capital/config/getall' };
const withdraw: VenueRequest = { method: 'POST', path: '/sapi/v1/capital/withdraw/apply', query: { coin: 'USDT', address: 'x', amount: '10' } };

describe('binance-sapi: every number carries the documentation sentence it comes from', () => {
  it('validates with a quote on every provenance, checked 2026-12-01; covers the wallet and margin markets', () => {
    const r = validateSpec(spec);
    expect(r.ok ? [] : r.errors).toEqual([]);
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(spec.markets).toEqual(['wallet', 'margin']);
    for (const e of spec.endpoints) expect(e.path.startsWith('/sapi/'), e.id).toBe(true);
  });

  it('each IP-limited endpoint has its own 12,000 per minute per IP, each UID-limited endpoint its own 180,000 per minute per account', () => {
    const ip = spec.buckets.find((b) => b.id === 'ip_weight');
    const uid = spec.buckets.find((b) => b.id === 'uid_weight');
    expect(ip).toMatchObject({ scope: 'ip', limit: 12_000, windowMs: 60_000, partition: { kind: 'endpoint' } });
    expect(uid).toMatchObject({ scope: 'uid', limit: 180_000, windowMs: 60_000, partition: { kind: 'endpoint' } });
  });
});

describe('binance-sapi: per-endpoint weights, IP or UID as each page marks it', () => {
  it('GET /sapi/v1/capital/config/getall weighs 10 on its own IP bucket', () => {
    expect(charged('binance-sapi', getall, account)).toEqual({
      ip_weight: { axis: 'ip_weight:GET /sapi/v1/capital/config/getall', credential: null, scope: 'ip', cost: 10, limit: 12_000, windowMs: 60_000 },
    });
  });

  it('two IP-limited endpoints are two independent buckets', () => {
    const a = charged('binance-sapi', getall, account)['ip_weight']?.axis;
    const b = charged('binance-sapi', { method: 'GET', path: '/sapi/v1/capital/deposit/hisrec' }, account)['ip_weight']?.axis;
    expect(a).not.toBe(b);
    expect(b).toBe('ip_weight:GET /sapi/v1/capital/deposit/hisrec');
  });

  it('withdrawals weigh 900 on their own UID bucket, shared by every key of the account', () => {
    expect(charged('binance-sapi', withdraw, account)['uid_weight']).toEqual({
      axis: 'uid_weight:POST /sapi/v1/capital/withdraw/apply',
      credential: 'account-1',
      scope: 'uid',
      cost: 900,
      limit: 180_000,
      windowMs: 60_000,
    });
    expect(charged('binance-sapi', withdraw, { credential: 'key-2', uid: 'account-1' })['uid_weight']?.credential).toBe('account-1');
  });

  it('the weights bots pay most: deposits, transfers, sub-accounts, margin, Simple Earn, account status', () => {
    const w = (method: VenueRequest['method'], path: string, query: Record<string, string> = {}) => {
      const c = charged('binance-sapi', { method, path, query }, account);
      return Object.fromEntries(Object.entries(c).map(([k, v]) => [k, v.cost]));
    };
    expect(w('GET', '/sapi/v1/capital/deposit/hisrec')).toEqual({ ip_weight: 1 });
    expect(w('GET', '/sapi/v1/capital/deposit/address', { coin: 'BTC' })).toEqual({ ip_weight: 10 });
    expect(w('GET', '/sapi/v1/asset/transfer')).toEqual({ ip_weight: 1 });
    expect(w('POST', '/sapi/v1/asset/transfer')).toEqual({ uid_weight: 300 });
    expect(w('GET', '/sapi/v1/accountSnapshot', { type: 'SPOT' })).toEqual({ ip_weight: 2400 });
    expect(w('GET', '/sapi/v1/account/status')).toEqual({ ip_weight: 1 });
    expect(w('GET', '/sapi/v1/account/apiRestrictions')).toEqual({ ip_weight: 1 });
    expect(w('GET', '/sapi/v1/sub-account/list')).toEqual({ ip_weight: 1 });
    expect(w('GET', '/sapi/v3/sub-account/assets', { email: 'a@b' })).toEqual({ uid_weight: 60 });
    expect(w('GET', '/sapi/v1/margin/account')).toEqual({ ip_weight: 10 });
    expect(w('POST', '/sapi/v1/margin/borrow-repay')).toEqual({ uid_weight: 1500 });
    expect(w('GET', '/sapi/v1/margin/allOrders', { symbol: 'BTCUSDT' })).toEqual({ ip_weight: 200 });
    expect(w('DELETE', '/sapi/v1/margin/order', { symbol: 'BTCUSDT' })).toEqual({ ip_weight: 10 });
    expect(w('POST', '/sapi/v1/simple-earn/flexible/subscribe')).toEqual({ ip_weight: 1 });
    expect(w('GET', '/sapi/v1/simple-earn/flexible/position')).toEqual({ ip_weight: 150 });
  });

  it('a margin order weighs 6, or 1500 when it borrows (sideEffectType MARGIN_BUY or AUTO_BORROW_REPAY)', () => {
    const m = (query: Record<string, string>) =>
      charged('binance-sapi', { method: 'POST', path: '/sapi/v1/margin/order', query: { symbol: 'BTCUSDT', ...query } }, account)['uid_weight']?.cost;
    expect([
      m({}),
      m({ sideEffectType: 'NO_SIDE_EFFECT' }),
      m({ sideEffectType: 'AUTO_REPAY' }),
      m({ sideEffectType: 'MARGIN_BUY' }),
      m({ sideEffectType: 'AUTO_BORROW_REPAY' }),
    ]).toEqual([6, 6, 6, 1500, 1500]);
  });

  it('fee data by coin or symbol: 1 with it, 5 (cross) or 10 (isolated) without', () => {
    const w = (path: string, query: Record<string, string>) => charged('binance-sapi', { method: 'GET', path, query }, account)['ip_weight']?.cost;
    expect([w('/sapi/v1/margin/crossMarginData', { coin: 'BTC' }), w('/sapi/v1/margin/crossMarginData', {})]).toEqual([1, 5]);
    expect([w('/sapi/v1/margin/isolatedMarginData', { symbol: 'BTCUSDT' }), w('/sapi/v1/margin/isolatedMarginData', {})]).toEqual([1, 10]);
  });

  it('a sub-account universal transfer is charged on its own IP bucket (1) and its own UID bucket (360)', () => {
    const c = charged('binance-sapi', { method: 'POST', path: '/sapi/v1/sub-account/universalTransfer' }, account);
    expect([c['ip_weight']?.cost, c['uid_weight']?.cost]).toEqual([1, 360]);
  });

  it('withdraw history: 18,000 on its UID bucket, 10 a minute (the safe reading of "10 requests per second")', () => {
    expect(charged('binance-sapi', { method: 'GET', path: '/sapi/v1/capital/withdraw/history' }, account)['uid_weight']?.cost).toBe(18_000);
    expect(spec.endpoints.find((e) => e.path === '/sapi/v1/capital/withdraw/history')?.provenance.confidence).toBe('uncertain');
  });

  it('margin open orders without a symbol (one count per symbol trading) are refused, never priced at 10', () => {
    const r = resolveRequest(spec, { method: 'GET', path: '/sapi/v1/margin/openOrders' }, account);
    expect(r.ok ? 'resolved' : r.error.code).toBe('missing_parameter');
    expect(charged('binance-sapi', { method: 'GET', path: '/sapi/v1/margin/openOrders', query: { symbol: 'BTCUSDT' } }, account)['ip_weight']?.cost).toBe(10);
  });

  it('an unlisted /sapi endpoint is refused, never priced at a guessed weight', () => {
    const r = resolveRequest(spec, { method: 'POST', path: '/sapi/v1/convert/getQuote' }, account);
    expect(r.ok ? 'resolved' : r.error.code).toBe('unknown_endpoint');
  });
});

describe('binance-sapi: usage headers and refusals', () => {
  it("X-SAPI-USED-IP-WEIGHT-1M syncs the endpoint's own IP bucket, X-SAPI-USED-UID-WEIGHT-1M its UID bucket", () => {
    const ip = feedback(getall, { headers: { 'x-sapi-used-ip-weight-1m': '11900' } });
    expect(ip.syncs.map((s) => [s.key.axis, s.key.credential])).toEqual([['ip_weight:GET /sapi/v1/capital/config/getall', null]]);
    expect(ip.syncs[0]?.minBorrowed).toBeGreaterThan(0);
    const uid = feedback(withdraw, { headers: { 'x-sapi-used-uid-weight-1m': '179000' } });
    expect(uid.syncs.map((s) => [s.key.axis, s.key.credential])).toEqual([['uid_weight:POST /sapi/v1/capital/withdraw/apply', 'account-1']]);
  });

  it('a 429 holds only the refused endpoint: for Retry-After, else one whole minute; never read as a ban', () => {
    const fb = feedback(getall, { status: 429, body: { code: -1003, msg: 'Too much request weight used' } });
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.penalties.map((p) => [p.key.axis, forMs(p.hold)])).toEqual([['ip_weight:GET /sapi/v1/capital/config/getall', 60_000]]);
    const after = feedback(withdraw, { status: 429, headers: { 'retry-after': '7' }, body: {} });
    expect(after.penalties.map((p) => [p.key.axis, forMs(p.hold)])).toEqual([['uid_weight:POST /sapi/v1/capital/withdraw/apply', 7000]]);
  });

  it('a margin order refused by the daily order count is held until 00:00 UTC', () => {
    const order: VenueRequest = { method: 'POST', path: '/sapi/v1/margin/order', query: { symbol: 'BTCUSDT' } };
    const fb = feedback(order, {
      status: 429,
      headers: { date: 'Tue, 01 Dec 2026 23:00:00 GMT' },
      body: { code: -1015, msg: 'Too many new orders; current limit is 100000 orders per DAY.' },
    });
    expect(fb.rule).toBe('too-many-orders-day');
    expect(fb.penalties.map((p) => forMs(p.hold))).toEqual([3_600_000]);
  });
});

describe('which Binance spec prices a path', () => {
  it("getVenueSpec('binance') stays Binance spot", () => {
    expect(getVenueSpec('binance').id).toBe('binance-spot');
  });

  it('a /sapi path sent to the spot spec is refused naming binance-sapi, never given a default price', () => {
    const r = resolveRequest(getVenueSpec('binance'), getall, account);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('unknown_endpoint');
    expect(r.error.pricedBy).toBe('binance-sapi');
    expect(r.error.message).toContain('binance-sapi');
  });

  it('every Binance spec names the spec of the other path families', () => {
    const by = (venue: string, path: string) => {
      const r = resolveRequest(getVenueSpec(venue), { method: 'GET', path }, account);
      return r.ok ? 'resolved' : r.error.pricedBy;
    };
    expect(by('binance-sapi', '/api/v3/depth')).toBe('binance-spot');
    expect(by('binance-spot', '/fapi/v1/depth')).toBe('binance-usdm');
    expect(by('binance-usdm', '/dapi/v1/depth')).toBe('binance-coinm');
    expect(by('binance-coinm', '/eapi/v1/depth')).toBe('binance-options');
    expect(by('binance-options', '/sapi/v1/system/status')).toBe('binance-sapi');
  });

  it('every spec named as pricing a path exists', () => {
    for (const id of ['binance-spot', 'binance-usdm', 'binance-coinm', 'binance-options', 'binance-sapi']) {
      for (const e of getVenueSpec(id).pricedElsewhere ?? []) expect(getVenueSpec(e.spec).id, `${id} -> ${e.spec}`).toBe(e.spec);
    }
  });
});
