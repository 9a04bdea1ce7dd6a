import { describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';

const spec = getVenueSpec('bitfinex');
const anon: Identity = { credential: null };
const keyA: Identity = { credential: 'key-a' };
const keyB: Identity = { credential: 'key-b' };

function charges(request: VenueRequest, identity: Identity = anon) {
  const r = resolveRequest(spec, request, identity);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.charges;
}

function limitOf(id: string): number {
  const b = spec.buckets.find((x) => x.id === id);
  if (b === undefined || b.algorithm === 'token-bucket') throw new Error(`no window bucket ${id}`);
  return b.limit;
}

function feedback(request: VenueRequest, response: Partial<VenueResponse>, identity: Identity = anon) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, identity);
}

describe('bitfinex (verified 2026-12-01)', () => {
  it('carries a verification and a quote on every provenance', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('pins the per-endpoint limits of the reference pages, per IP per minute', () => {
    expect(limitOf('book')).toBe(240);
    expect(limitOf('ticker')).toBe(90);
    expect(limitOf('trades')).toBe(15);
    expect(limitOf('candles')).toBe(30);
    expect(limitOf('platform-status')).toBe(30);
    expect(limitOf('tickers')).toBe(30);
    for (const b of spec.buckets) expect(b.algorithm === 'token-bucket' ? 0 : b.windowMs).toBe(60_000);
  });

  it('counts private endpoints per IP: two API keys behind one IP share the 88 per minute', () => {
    const submit: VenueRequest = { method: 'POST', path: '/v2/auth/w/order/submit' };
    const a = charges(submit, keyA);
    const b = charges(submit, keyB);
    expect(a).toEqual([{ key: { venue: 'bitfinex', credential: null, axis: 'order-submit' }, bucket: 'order-submit', cost: 1, charge: 'always' }]);
    expect(b[0]?.key).toEqual(a[0]?.key);
    for (const id of ['wallets', 'orders', 'order-submit', 'order-cancel']) {
      expect(spec.buckets.find((x) => x.id === id)?.scope).toBe('ip');
      // No page states these limits: 88, below ccxt's 88.9 per minute, not the 90 at the top of the general range.
      expect(limitOf(id), id).toBe(88);
    }
  });

  it('["error", 11010, "ratelimit: error"] blocks the whole IP for 60 s: every bucket is held', () => {
    const fb = feedback({ method: 'GET', path: '/v2/book/tBTCUSD/P0' }, { status: 429, body: ['error', 11010, 'ratelimit: error'] });
    expect(fb.verdict).toBe('rate_limited');
    const held = fb.penalties.map((p) => p.key.axis);
    expect(held).toEqual(expect.arrayContaining(['book', 'ticker', 'trades', 'order-submit', 'order-cancel', 'other']));
    expect(held).toHaveLength(spec.buckets.length);
    for (const p of fb.penalties) expect(p).toMatchObject({ key: { credential: null }, hold: { forMs: 60_000 } });
  });

  it('{"error": "ERR_RATE_LIMIT"} on a private endpoint holds the public endpoints too', () => {
    const fb = feedback({ method: 'POST', path: '/v2/auth/w/order/submit' }, { status: 429, body: { error: 'ERR_RATE_LIMIT' } }, keyA);
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(expect.arrayContaining(['order-submit', 'book', 'ticker']));
  });

  it('admits an unlisted endpoint on one shared bucket of 10 per minute per IP (the bottom of the documented range)', () => {
    expect(charges({ method: 'POST', path: '/v2/auth/r/positions' }, keyA)).toEqual([
      { key: { venue: 'bitfinex', credential: null, axis: 'other' }, bucket: 'other', cost: 1, charge: 'always' },
    ]);
    expect(charges({ method: 'GET', path: '/v2/stats1/pos.size:1m:tBTCUSD:long/hist' })[0]?.bucket).toBe('other');
    expect(limitOf('other')).toBe(10);
  });
});
