import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

const RETRIEVED = '2026-12-01';

const Q = {
  scope: 'Rate limits are applied per sub-account. Each sub-account has its own independent rate limit.',
  nonMatching: 'Cost per Request: 500 credits. Maximum Credits: 50,000 credits. Refill Rate: Credits are refilled at a rate that allows up to 20 requests per second (10,000 credits per second). Burst Capacity: Allows up to 100 requests at once, considering the maximum credit pool.',
  unlisted: 'All requests not listed below are treated as non-matching engine requests.',
  tiers: [
    'Tier 1 | Over USD 25 million | 30 requests/second | 100 requests (burst) | Suitable for high-volume traders, allowing up to 100 requests in a rapid burst or a steady rate of 30 requests per second.',
    'Tier 2 | Over USD 5 million | 20 requests/second | 50 requests (burst) | Designed for medium-volume traders, permitting up to 50 requests in a burst or 20 requests per second.',
    'Tier 3 | Over USD 1 million | 10 requests/second | 30 requests (burst) | Appropriate for active traders, enabling up to 30 requests in a burst or 10 requests per second.',
    'Tier 4 | Up to USD 1 million | 5 requests/second | 20 requests (burst) | For regular traders, allowing up to 20 requests in a burst or a steady rate of 5 requests per second.',
  ].join(' ; '),
  matchingList:
    'All requests not listed below are treated as non-matching engine requests. private/buy, private/sell, private/edit, private/edit_by_label, private/cancel, private/cancel_by_label, private/cancel_all, private/cancel_all_by_instrument, private/cancel_all_by_currency, private/cancel_all_by_kind_or_type, private/close_position, private/verify_block_trade, private/execute_block_trade, private/move_positions, private/mass_quote, private/cancel_quotes, private/add_block_rfq_quote, private/edit_block_rfq_quote, private/cancel_block_rfq_quote, private/cancel_all_block_rfq_quotes',
  publicIp: 'Public, non-authorized API requests are rate-limited on a per-IP basis—they do not draw from the sub-account-level credit pool. If an IP exceeds its public request allowance, subsequent calls may be temporarily rejected or the connection disconnected to protect platform stability.',
  getInstruments: 'public/get_instruments | 10,000 | 500,000 | 1 request/second | 50 requests',
  transactionLog: 'private/get_transaction_log | 10,000 | 80,000 | 1 request/second | 8 requests',
  movePositions: 'private/move_positions | 100,000 | 600,000 | 6 requests/minute | 6 requests',
  moveWeekly: 'In addition to the per-minute rate limit, there is a limit of 100 move_position uses per week (168 hours).',
  tooMany: 'If a request arrives when no credits remain, we immediately send a too_many_requests (code 10028) or similar error and terminate the session. After a disconnect, you must wait for credits to replenish and then re-establish a new connection before sending additional requests.',
} as const;

const doc = (quote: string): Provenance => ({ source: 'limits', confidence: 'documented', quote });

const nonMatching: CostRule = { bucket: 'non-matching', cost: { kind: 'constant', value: 500 }, provenance: doc(Q.nonMatching) };
const matching: CostRule = { bucket: 'matching', cost: { kind: 'constant', value: 1 }, provenance: doc(Q.tiers) };
/** Deribit states no figure for an IP's public allowance: the non-matching defaults are assumed. */
const PUBLIC_IP: Provenance = {
  source: 'limits',
  confidence: 'uncertain',
  quote: Q.publicIp,
  deviations: [
    { value: 500, reason: 'conservative', text: 'Deribit states no figure for the public allowance per IP: each request is charged the 500 credits of a non-matching request ("Cost per Request: 500 credits")' },
    { value: 50_000, reason: 'conservative', text: 'no public pool size is stated: the non-matching pool\'s "Maximum Credits: 50,000 credits" (burst 100) is assumed' },
    { value: 10_000, reason: 'conservative', text: 'no public refill is stated: the non-matching refill of "10,000 credits per second" (20/s) is assumed' },
  ],
};
const publicCredits: CostRule = { bucket: 'public', cost: { kind: 'constant', value: 500 }, provenance: PUBLIC_IP };

/** The matching-engine methods (every other method is non-matching). */
const MATCHING = [
  'buy',
  'sell',
  'edit',
  'edit_by_label',
  'cancel',
  'cancel_by_label',
  'cancel_all',
  'cancel_all_by_instrument',
  'cancel_all_by_currency',
  'cancel_all_by_kind_or_type',
  'close_position',
  'verify_block_trade',
  'execute_block_trade',
  'mass_quote',
  'cancel_quotes',
  'add_block_rfq_quote',
  'edit_block_rfq_quote',
  'cancel_block_rfq_quote',
  'cancel_all_block_rfq_quotes',
] as const;

const METHODS = ['GET', 'POST'] as const;

/** One JSON-RPC method as an HTTP path, for GET and POST alike: a request in either form is priced the same. */
function method(scope: 'public' | 'private', name: string, costs: readonly CostRule[], provenance: Provenance, extra: { readonly publicCosts?: readonly CostRule[]; readonly note?: string } = {}): EndpointSpec[] {
  return METHODS.map((m) => ({
    id: `${m === 'GET' ? '' : 'post:'}${scope}/${name}`,
    method: m,
    path: `/api/v2/${scope}/${name}`,
    auth: scope,
    costs,
    provenance,
    ...extra,
  }));
}

/** A public method: an anonymous call draws on the IP's allowance, an authenticated one also on the sub-account's credits. */
function publicMethod(name: string): EndpointSpec[] {
  return method(
    'public',
    name,
    [publicCredits, nonMatching],
    { source: 'limits', confidence: 'uncertain', quote: Q.publicIp },
    {
      publicCosts: [publicCredits],
      note: "an authenticated call is charged the sub-account credits and, in case it was sent unsigned, the IP allowance too; the IP allowance's size is not documented (see the public bucket)",
    },
  );
}

/** Deribit API v2 over HTTP (JSON-RPC methods as paths). Credits per sub-account, whatever the interface. */
export const deribit: VenueSpec = {
  id: 'deribit',
  venue: 'Deribit',
  product: 'API v2 (HTTP JSON-RPC)',
  markets: ['perpetual', 'delivery', 'options'],
  origin: 'hand-authored',
  ccxtIds: ['deribit'],
  defaultTier: 'tier4',
  sources: {
    limits: { url: 'https://docs.deribit.com/articles/rate-limits', retrieved: RETRIEVED, note: 'the Rate Limits article (Mintlify docs), read as its markdown' },
  },
  buckets: [
    {
      id: 'non-matching',
      scope: 'subaccount',
      algorithm: 'token-bucket',
      capacity: 50_000,
      refillPerSec: 10_000,
      provenance: doc(`${Q.nonMatching} ${Q.scope}`),
      description: 'credits per sub-account, 500 per non-matching-engine request (20/s, burst 100); the web platform of the same sub-account draws on them too',
    },
    {
      id: 'matching',
      scope: 'subaccount',
      algorithm: 'token-bucket',
      capacity: 20,
      refillPerSec: 5,
      provenance: doc(`${Q.tiers} ${Q.scope}`),
      description: 'matching-engine requests per sub-account by 7-day volume tier (recalculated hourly; private/get_account_summary reports the current limits); tier4 is the default. cancel_all has its own global limit and spot pairs their own (not modelled: charged here, the stricter reading)',
      tiers: {
        tier1: { capacity: 100, refillPerSec: 30 },
        tier2: { capacity: 50, refillPerSec: 20 },
        tier3: { capacity: 30, refillPerSec: 10 },
        tier4: { capacity: 20, refillPerSec: 5 },
      },
    },
    {
      id: 'public',
      scope: 'ip',
      algorithm: 'token-bucket',
      capacity: 50_000,
      refillPerSec: 10_000,
      provenance: PUBLIC_IP,
      description: "unauthenticated requests per IP: Deribit states no figure for the IP's allowance; the non-matching defaults (20/s, burst 100) are assumed",
    },
    {
      id: 'get-instruments',
      scope: 'ip',
      algorithm: 'token-bucket',
      capacity: 500_000,
      refillPerSec: 10_000,
      provenance: doc(Q.getInstruments),
      description: 'public/get_instruments: its own pool, 10,000 credits a call (1/s, burst 50); kept once for the whole limiter (Deribit counts it per sub-account, or per IP when anonymous)',
    },
    {
      id: 'transaction-log',
      scope: 'subaccount',
      algorithm: 'token-bucket',
      capacity: 80_000,
      refillPerSec: 10_000,
      provenance: doc(Q.transactionLog),
      description: 'private/get_transaction_log: its own pool, 10,000 credits a call (1/s, burst 8)',
    },
    {
      id: 'move-positions',
      scope: 'subaccount',
      algorithm: 'token-bucket',
      capacity: 600_000,
      refillPerSec: 10_000,
      provenance: { ...doc(Q.movePositions), deviations: [{ value: 10_000, reason: 'formula', text: '6 requests a minute at 100,000 credits each: 600,000 credits per 60 s, 10,000 per second' }] },
      description: 'private/move_positions: its own pool, 100,000 credits a call (6 per minute, burst 6)',
    },
    {
      id: 'move-positions-week',
      scope: 'subaccount',
      algorithm: 'sliding-window',
      limit: 100,
      windowMs: 604_800_000,
      provenance: doc(Q.moveWeekly),
      description: 'private/move_positions: 100 uses per 168 hours (the window is a rolling one, the strictest reading)',
    },
  ],
  endpoints: [
    ...MATCHING.flatMap((name) => method('private', name, [matching], doc(Q.matchingList))),
    ...method('private', 'move_positions', [matching, { bucket: 'move-positions', cost: { kind: 'constant', value: 100_000 } }, { bucket: 'move-positions-week', cost: { kind: 'constant', value: 1 }, provenance: doc(Q.moveWeekly) }], doc(`${Q.matchingList} ${Q.movePositions}`), {
      note: 'a matching-engine request with its own credit pool and a weekly cap: charged on all three',
    }),
    ...method('private', 'get_transaction_log', [{ bucket: 'transaction-log', cost: { kind: 'constant', value: 10_000 } }], doc(Q.transactionLog)),
    ...method('private', '{method}', [nonMatching], doc(Q.unlisted)),
    ...method('public', 'get_instruments', [{ bucket: 'get-instruments', cost: { kind: 'constant', value: 10_000 } }], doc(Q.getInstruments)),
    ...publicMethod('get_order_book'),
    ...publicMethod('ticker'),
    ...publicMethod('get_time'),
    ...publicMethod('{method}'),
  ],
  fallback: { costs: [nonMatching], publicCosts: [publicCredits], provenance: doc(Q.unlisted) },
  errors: [
    {
      id: 'too-many-requests',
      body: [{ path: 'error.code', equals: [10028] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { source: 'limits', confidence: 'uncertain', quote: Q.tooMany, deviations: [{ value: 1000, reason: 'conservative', text: 'Deribit says to "wait for credits to replenish", no duration: the charged buckets are held 1 s, far more than the refill of one request\'s credits at the default rate' }] },
      note: 'too_many_requests (10028) ends the session. Deribit states no wait ("wait for credits to replenish"; at the default refill 500 credits come back in about 50 ms): the charged buckets are held for 1 s.',
    },
  ],
  verification: {
    checked: RETRIEVED,
    corrections: [
      {
        what: 'matching-engine methods other than buy, sell, edit, cancel, cancel_all, cancel_all_by_instrument and close_position',
        was: 'charged 500 non-matching credits (20/s) and nothing on the matching-engine limit',
        now: 'charged on the matching-engine limit (5/s, burst 20 at tier 4): edit_by_label, cancel_by_label, cancel_all_by_currency, cancel_all_by_kind_or_type, block trades, move_positions, mass quotes and block RFQ quotes',
        source: 'limits',
      },
      {
        what: 'POST requests (the same methods by POST)',
        was: 'unmatched, so charged as non-matching requests (a POST private/buy skipped the matching-engine limit)',
        now: 'priced like the GET form',
        source: 'limits',
      },
      { what: 'public/get_instruments', was: '500 credits on the shared pool (20/s)', now: '10,000 credits on its own pool of 500,000 (1/s, burst 50)', source: 'limits' },
      { what: 'private/get_transaction_log', was: '500 credits on the shared pool (20/s)', now: '10,000 credits on its own pool of 80,000 (1/s, burst 8)', source: 'limits' },
      { what: 'private/move_positions', was: '1 matching-engine request', now: 'also 100,000 credits on its own pool of 600,000 (6 per minute) and 1 of 100 per 168 hours', source: 'limits' },
      {
        what: 'a public method called with a credential',
        was: 'charged on the IP allowance only',
        now: 'also charged on the sub-account credits, which authorized requests draw on',
        source: 'limits',
      },
    ],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 deribit.js',
        what: 'public/get_instruments',
        ours: '1 per second, burst 50',
        theirs: 'cost 1 at rateLimit 50 ms (20 per second)',
        verdict: 'Deribit documents a dedicated pool of 500,000 credits at 10,000 a call; ccxt is 20 times too fast',
      },
      {
        other: 'ccxt 4.5.84 deribit.js',
        what: 'private/get_transaction_log',
        ours: '1 per second, burst 8',
        theirs: 'cost 1 (20 per second)',
        verdict: 'Deribit documents a dedicated pool of 80,000 credits at 10,000 a call',
      },
      {
        other: 'ccxt 4.5.84 deribit.js',
        what: 'matching-engine requests',
        ours: 'by tier: 5/s (tier 4) to 30/s (tier 1), bursts 20 to 100',
        theirs: 'cost 4 (5 per second) for every account, no burst model',
        verdict: "both start from Deribit's tier 4; ccxt has no tiers and omits cancel_all_by_kind_or_type and the block RFQ quote methods from the matching set (cost 1)",
      },
      {
        other: 'ccxt 4.5.84 deribit.js',
        what: 'private/simulate_block_trade',
        ours: 'non-matching (500 credits)',
        theirs: 'cost 4, like a matching-engine request',
        verdict: "Deribit's list of matching-engine requests does not name simulate_block_trade; ccxt is only stricter",
      },
    ],
  },
  notes: [
    'Mass quotes follow their own dedicated limits (the Mass Quotes Specifications article), not modelled: mass_quote and cancel_quotes are charged on the matching-engine limit.',
    'Per-currency matching-engine limits exist for some accounts on request (they only ever lower the limits); private/get_account_summary returns the current "limits".',
    'A JSON-RPC POST to /api/v2 with the method in the body is not priced by method: it falls to the default (non-matching credits).',
    'Subscriptions (public/subscribe, private/subscribe: 3,000 credits of a 30,000 pool) exist only over WebSocket and are not modelled.',
  ],
};
