import type { EndpointSpec, VenueSpec } from '../venue-spec.js';

const credits = { source: 'limits', confidence: 'documented' } as const;
const matchingProv = { source: 'limits', confidence: 'uncertain' } as const;

const nonMatching = { bucket: 'non-matching', cost: { kind: 'constant', value: 500 } } as const;
const matching = { bucket: 'matching', cost: { kind: 'constant', value: 1 } } as const;
const publicCredits = { bucket: 'public', cost: { kind: 'constant', value: 500 } } as const;

function ep(name: string, kind: 'matching' | 'private' | 'public'): EndpointSpec {
  const scope = kind === 'public' ? 'public' : 'private';
  return {
    id: `${scope}/${name}`, method: 'GET', path: `/api/v2/${scope}/${name}`, auth: kind === 'public' ? 'public' : 'private', provenance: credits,
    costs: [kind === 'matching' ? matching : kind === 'private' ? nonMatching : publicCredits],
  };
}

/** Deribit API v2 over HTTP (JSON-RPC methods as paths). Credits per sub-account, shared by WebSocket, REST and FIX. */
export const deribit: VenueSpec = {
  id: 'deribit',
  venue: 'Deribit',
  product: 'API v2 (HTTP JSON-RPC)',
  markets: ['perpetual', 'delivery', 'options'],
  origin: 'hand-authored',
  ccxtIds: ['deribit'],
  defaultTier: 'default',
  sources: {
    limits: { url: 'https://docs.deribit.com/articles/rate-limits', retrieved: '2026-11-30' },
  },
  buckets: [
    { id: 'non-matching', scope: 'subaccount', algorithm: 'token-bucket', capacity: 50_000, refillPerSec: 10_000, provenance: credits, description: 'credits per sub-account: 500 per non-matching-engine request (20/s, burst 100)' },
    {
      id: 'matching', scope: 'subaccount', algorithm: 'token-bucket', capacity: 20, refillPerSec: 5, provenance: matchingProv,
      description: 'matching-engine requests (buy, sell, edit, cancel) per sub-account; the rate depends on the 7-day volume tier',
      tiers: { default: { capacity: 20, refillPerSec: 5 }, tier1: { capacity: 100, refillPerSec: 30 } },
    },
    { id: 'public', scope: 'ip', algorithm: 'token-bucket', capacity: 50_000, refillPerSec: 10_000, provenance: { source: 'limits', confidence: 'uncertain' }, description: 'unauthenticated requests per IP, assumed to follow the non-matching credits' },
  ],
  endpoints: [
    ep('buy', 'matching'), ep('sell', 'matching'), ep('edit', 'matching'), ep('cancel', 'matching'), ep('cancel_all', 'matching'),
    ep('cancel_all_by_instrument', 'matching'), ep('close_position', 'matching'),
    ep('get_positions', 'private'), ep('get_account_summary', 'private'), ep('get_open_orders_by_instrument', 'private'),
    ep('get_order_state', 'private'), ep('get_user_trades_by_instrument', 'private'),
    ep('get_order_book', 'public'), ep('ticker', 'public'), ep('get_instruments', 'public'), ep('get_time', 'public'),
  ],
  fallback: { costs: [nonMatching], publicCosts: [publicCredits], provenance: credits },
  errors: [
    {
      id: 'too-many-requests', body: [{ path: 'error.code', equals: [10028] }], verdict: 'rate_limited', counted: true, penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }], provenance: credits, note: 'too_many_requests (10028): Deribit also ends the session',
    },
  ],
};
