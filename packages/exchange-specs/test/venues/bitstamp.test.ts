import { describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';

const spec = getVenueSpec('bitstamp');
const anon: Identity = { credential: null };
const key: Identity = { credential: 'key-1' };

function limitOf(id: string): { limit: number; windowMs: number } {
  const b = spec.buckets.find((x) => x.id === id);
  if (b === undefined || b.algorithm === 'token-bucket') throw new Error(`no window bucket ${id}`);
  return { limit: b.limit, windowMs: b.windowMs };
}

function feedback(request: VenueRequest, response: Partial<VenueResponse>, identity: Identity = anon) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, identity);
}

describe('bitstamp (verified 2026-12-01)', () => {
  it('carries a verification and a quote on every provenance', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('pins the documented request limits: 400 per second and 10,000 per 10 minutes', () => {
    expect(limitOf('per-second')).toEqual({ limit: 400, windowMs: 1000 });
    expect(limitOf('per-10-minutes')).toEqual({ limit: 10_000, windowMs: 600_000 });
  });

  it('charges every request once on both limits, listed or not', () => {
    for (const [request, identity] of [
      [{ method: 'GET', path: '/api/v2/trading-pairs-info/' }, anon],
      [{ method: 'POST', path: '/api/v2/buy/market/btcusd/' }, key],
    ] as const) {
      const r = resolveRequest(spec, request, identity);
      expect(r.ok && r.charges.map((c) => [c.bucket, c.cost])).toEqual([
        ['per-second', 1],
        ['per-10-minutes', 1],
      ]);
    }
  });

  it('reads the documented response_code key: 400.002, 400.067 and 400.068 are rate limits', () => {
    const ticker: VenueRequest = { method: 'GET', path: '/api/v2/ticker/btcusd/' };
    for (const code of ['400.002', '400.067', '400.068']) {
      const fb = feedback(ticker, {
        status: 400,
        body: { status: 'error', reason: 'Request rejected', response_code: code, response_explanation: 'Request rejected due to exceeded rate limit.' },
      });
      expect(fb.verdict, code).toBe('rate_limited');
      expect(fb.penalties.map((p) => p.key.axis)).toEqual(['per-second', 'per-10-minutes']);
    }
    expect(feedback(ticker, { status: 400, body: { status: 'error', response_code: '400.009' } }).verdict).toBe('error');
  });
});
