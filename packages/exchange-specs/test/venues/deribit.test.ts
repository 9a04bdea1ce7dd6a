import { describe, expect, it } from 'vitest';
import {
  bucketForTier,
  bucketLimit,
  getVenueSpec,
  interpretResponse,
  resolveRequest,
  validateSpec,
  type Identity,
  type VenueRequest,
} from '../../src/index.js';

const spec = getVenueSpec('deribit');
const anon: Identity = { credential: null };
const sub: Identity = { credential: 'sub-1' };

/** The venue's charges of a request as `bucket -> cost` (what Deribit counts). */
function charged(request: VenueRequest, identity: Identity = sub): Record<string, number> {
  const r = resolveRequest(spec, request, identity);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return Object.fromEntries(r.charges.map((c) => [c.bucket, c.cost]));
}

function bucket(id: string, tier?: string) {
  const b = spec.buckets.find((x) => x.id === id);
  if (b === undefined) throw new Error(`no bucket ${id}`);
  return bucketForTier(b, tier ?? spec.defaultTier);
}

describe('deribit (verified 2026-12-01)', () => {
  it('carries a verification and a quote on every provenance', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('pins the non-matching credits: 500 a request from 50,000 refilled at 10,000/s, per sub-account', () => {
    expect(charged({ method: 'GET', path: '/api/v2/private/get_positions' })).toEqual({ 'non-matching': 500 });
    expect(bucket('non-matching')).toMatchObject({ scope: 'subaccount', algorithm: 'token-bucket', capacity: 50_000, refillPerSec: 10_000 });
  });

  it('pins the matching-engine tier table, tier 4 (5/s, burst 20) by default', () => {
    expect(bucket('matching')).toMatchObject({ capacity: 20, refillPerSec: 5 });
    expect(bucket('matching', 'tier1')).toMatchObject({ capacity: 100, refillPerSec: 30 });
    expect(bucket('matching', 'tier2')).toMatchObject({ capacity: 50, refillPerSec: 20 });
    expect(bucket('matching', 'tier3')).toMatchObject({ capacity: 30, refillPerSec: 10 });
    // What a tier-2 user is paced at: the safe limit derived from 50 + 20/s.
    const r = resolveRequest(spec, { method: 'GET', path: '/api/v2/private/buy' }, { credential: 'sub-1', tier: 'tier2' });
    expect(r.ok).toBe(true);
    const safe = bucketLimit(spec, spec.buckets.find((b) => b.id === 'matching')!, 'tier2');
    if (!('refillPerSec' in safe)) throw new Error('a venue token bucket is enforced as a token bucket');
    expect(safe.refillPerSec).toBeGreaterThan(5);
    expect(safe.refillPerSec).toBeLessThanOrEqual(20);
  });

  it('charges every documented matching-engine method on the matching-engine limit, not the credits', () => {
    for (const m of [
      'buy',
      'edit_by_label',
      'cancel_by_label',
      'cancel_all_by_currency',
      'cancel_all_by_kind_or_type',
      'execute_block_trade',
      'verify_block_trade',
      'mass_quote',
      'add_block_rfq_quote',
      'cancel_all_block_rfq_quotes',
    ]) {
      expect(charged({ method: 'GET', path: `/api/v2/private/${m}` }), m).toEqual({ matching: 1 });
    }
  });

  it('prices the POST form like the GET form', () => {
    expect(charged({ method: 'POST', path: '/api/v2/private/buy', body: { instrument_name: 'BTC-PERPETUAL', amount: 10 } })).toEqual({ matching: 1 });
    expect(charged({ method: 'POST', path: '/api/v2/private/get_account_summary' })).toEqual({ 'non-matching': 500 });
  });

  it('public/get_instruments has its own pool: 10,000 credits of 500,000 (1/s, burst 50)', () => {
    expect(charged({ method: 'GET', path: '/api/v2/public/get_instruments', query: { currency: 'BTC' } }, anon)).toEqual({ 'get-instruments': 10_000 });
    expect(bucket('get-instruments')).toMatchObject({ capacity: 500_000, refillPerSec: 10_000 });
  });

  it('private/get_transaction_log has its own pool: 10,000 credits of 80,000 (1/s, burst 8)', () => {
    expect(charged({ method: 'GET', path: '/api/v2/private/get_transaction_log' })).toEqual({ 'transaction-log': 10_000 });
    expect(bucket('transaction-log')).toMatchObject({ scope: 'subaccount', capacity: 80_000, refillPerSec: 10_000 });
  });

  it('private/move_positions: matching engine, 100,000 of 600,000 credits (6 per minute) and 1 of 100 per 168 hours', () => {
    expect(charged({ method: 'GET', path: '/api/v2/private/move_positions' })).toEqual({ matching: 1, 'move-positions': 100_000, 'move-positions-week': 1 });
    expect(bucket('move-positions')).toMatchObject({ capacity: 600_000, refillPerSec: 10_000 });
    expect(bucket('move-positions-week')).toMatchObject({ limit: 100, windowMs: 168 * 3_600_000 });
  });

  it('an authenticated public call draws on the sub-account credits; an anonymous one on the IP allowance only', () => {
    expect(charged({ method: 'GET', path: '/api/v2/public/ticker', query: { instrument_name: 'BTC-PERPETUAL' } }, sub)).toEqual({
      public: 500,
      'non-matching': 500,
    });
    expect(charged({ method: 'GET', path: '/api/v2/public/get_index_price' }, sub)).toEqual({ public: 500, 'non-matching': 500 });
    expect(charged({ method: 'GET', path: '/api/v2/public/get_index_price' }, anon)).toEqual({ public: 500 });
  });

  it('too_many_requests (10028) is a rate limit that holds the charged buckets', () => {
    const fb = interpretResponse(
      spec,
      { method: 'GET', path: '/api/v2/private/cancel_by_label' },
      { status: 429, headers: {}, body: { error: { code: 10028, message: 'too_many_requests' } } },
      sub,
    );
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['matching']);
  });
});
