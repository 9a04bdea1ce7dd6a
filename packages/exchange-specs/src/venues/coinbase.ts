import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

const one = { kind: 'constant', value: 1 } as const;
const RETRIEVED = '2026-12-01';

const PER_USER = 'Advanced Trade API endpoints are throttled by user at 30 requests per second.';
const PER_IP = 'Advanced Trade API endpoints are throttled by IP at 10 requests per second.';
const PER_HOUR = 'By default, each API key or OAuth-authenticated Coinbase user is rate limited to 10,000 requests per hour.';

const perUser: Provenance = { source: 'advanced', confidence: 'documented', quote: PER_USER };
const perHour: Provenance = { source: 'app', confidence: 'uncertain', quote: PER_HOUR };
const perIp: Provenance = { source: 'advanced', confidence: 'uncertain', quote: PER_IP };

const PRIVATE: readonly CostRule[] = [
  { bucket: 'private', cost: one, provenance: perUser },
  { bucket: 'private-hourly', cost: one, provenance: perHour },
];
const PUBLIC: readonly CostRule[] = [{ bucket: 'public', cost: one, provenance: perIp }];

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth']): EndpointSpec {
  return { id, method, path, auth, costs: auth === 'public' ? PUBLIC : PRIVATE, provenance: auth === 'public' ? perIp : perUser };
}

/** Coinbase Advanced Trade REST (`api.coinbase.com/api/v3/brokerage`). */
export const coinbase: VenueSpec = {
  id: 'coinbase',
  venue: 'Coinbase',
  product: 'Advanced Trade REST API',
  markets: ['spot'],
  origin: 'hand-authored',
  ccxtIds: ['coinbase'],
  sources: {
    advanced: {
      url: 'https://docs.cdp.coinbase.com/advanced-trade/docs/rest-api-rate-limits',
      retrieved: RETRIEVED,
      note: 'Advanced Trade REST rate limits. The page did not render in the stored copies read on 2026-12-01: its sentences are as quoted verbatim by client libraries that link to it (e.g. the README of a Go Advanced Trade client: "Advanced Trade API endpoints are throttled by user at 30 requests per second."), and Coinbase\'s own SDK (coinbase/coinbase-advanced-py README, commit 54fb8ed, 2026-06-19) links it for the rate-limit response headers.',
    },
    app: {
      url: 'https://docs.cdp.coinbase.com/coinbase-app/api-architecture/rate-limiting',
      retrieved: RETRIEVED,
      note: 'Coinbase App API rate limiting (the documentation tree the Advanced Trade API pages belong to)',
    },
  },
  buckets: [
    {
      id: 'private',
      scope: 'uid',
      algorithm: 'sliding-window',
      limit: 30,
      windowMs: 1000,
      provenance: perUser,
      description: "private endpoints per Coinbase user: every API key of the user shares it (pass `uid`). The window's kind is not documented: a rolling window is assumed.",
    },
    {
      id: 'private-hourly',
      scope: 'uid',
      algorithm: 'sliding-window',
      limit: 10_000,
      windowMs: 3_600_000,
      provenance: perHour,
      description:
        'The Coinbase App rate-limiting page ("The Coinbase App API is rate limited ...") sets 10,000 requests per hour per key or user; the Advanced Trade pages are part of that documentation tree and do not say whether it applies to /api/v3/brokerage (ccxt and Hummingbot apply it to the v2 App API only). The two pages disagree or overlap: the safe combination (both limits, per user) is shipped.',
    },
    { id: 'public', scope: 'ip', algorithm: 'sliding-window', limit: 10, windowMs: 1000, provenance: perIp, description: "public market endpoints per IP. Sentence as quoted by client libraries citing Coinbase's page (not read verbatim on Coinbase's site); ccxt and Hummingbot use the same 10 per second." },
  ],
  endpoints: [
    ep('accounts', 'GET', '/api/v3/brokerage/accounts', 'private'),
    ep('account', 'GET', '/api/v3/brokerage/accounts/{uuid}', 'private'),
    ep('create-order', 'POST', '/api/v3/brokerage/orders', 'private'),
    ep('preview-order', 'POST', '/api/v3/brokerage/orders/preview', 'private'),
    ep('cancel-orders', 'POST', '/api/v3/brokerage/orders/batch_cancel', 'private'),
    ep('edit-order', 'POST', '/api/v3/brokerage/orders/edit', 'private'),
    ep('close-position', 'POST', '/api/v3/brokerage/orders/close_position', 'private'),
    ep('list-orders', 'GET', '/api/v3/brokerage/orders/historical/batch', 'private'),
    ep('list-fills', 'GET', '/api/v3/brokerage/orders/historical/fills', 'private'),
    ep('get-order', 'GET', '/api/v3/brokerage/orders/historical/{order_id}', 'private'),
    ep('products', 'GET', '/api/v3/brokerage/products', 'private'),
    ep('product', 'GET', '/api/v3/brokerage/products/{product_id}', 'private'),
    ep('ticker', 'GET', '/api/v3/brokerage/products/{product_id}/ticker', 'private'),
    ep('best-bid-ask', 'GET', '/api/v3/brokerage/best_bid_ask', 'private'),
    ep('product-book', 'GET', '/api/v3/brokerage/product_book', 'private'),
    ep('candles', 'GET', '/api/v3/brokerage/products/{product_id}/candles', 'private'),
    ep('transaction-summary', 'GET', '/api/v3/brokerage/transaction_summary', 'private'),
    ep('portfolios', 'GET', '/api/v3/brokerage/portfolios', 'private'),
    ep('market-products', 'GET', '/api/v3/brokerage/market/products', 'public'),
    ep('market-product', 'GET', '/api/v3/brokerage/market/products/{product_id}', 'public'),
    ep('market-book', 'GET', '/api/v3/brokerage/market/product_book', 'public'),
    ep('market-candles', 'GET', '/api/v3/brokerage/market/products/{product_id}/candles', 'public'),
    ep('market-ticker', 'GET', '/api/v3/brokerage/market/products/{product_id}/ticker', 'public'),
    ep('time', 'GET', '/api/v3/brokerage/time', 'public'),
  ],
  fallback: { costs: PRIVATE, publicCosts: PUBLIC, provenance: perUser },
  errors: [
    {
      id: 'rate-limit-exceeded',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 1000 },
      ],
      provenance: {
        source: 'app',
        confidence: 'documented',
        quote: 'If you exceed your rate limit, you’ll receive an HTTP 429 response with a rate_limit_exceeded error.',
        deviations: [{ value: 1000, reason: 'conservative', text: 'Coinbase states no wait: without Retry-After held 1 s, the window of the per-second limits' }],
      },
      note: 'body {"errors":[{"id":"rate_limit_exceeded","message":"Too many requests"}]} (ccxt also maps resource_exhausted to a 429). Coinbase states no wait: a Retry-After header is used when present, else 1 s, the window of the per-second limits.',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'private bucket scope', was: 'key (one bucket per API key)', now: "uid (one bucket per Coinbase user, shared by all of the user's keys)", source: 'advanced' },
      { what: 'private requests per hour', was: 'not modelled', now: "10,000 per hour per user (the Coinbase App page's limit, applied as the safe reading)", source: 'app' },
    ],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 coinbase.js',
        what: 'private /api/v3/brokerage endpoints',
        ours: '30 per s per user and 10,000 per hour per user',
        theirs: 'cost 1 at rateLimit 34 ms (about 29 per s); the 10,000 per hour applied to the v2 App API only (cost 10.6)',
        verdict: 'the per-second limit agrees; whether the hourly limit covers Advanced Trade is not stated by Coinbase: the safe combination is shipped',
      },
      { other: 'ccxt 4.5.84 coinbase.js', what: 'public /api/v3/brokerage/market endpoints', ours: '10 per s per IP', theirs: 'cost 3 at rateLimit 34 ms (about 9.8 per s)', verdict: 'agree' },
      {
        other: 'hummingbot coinbase_advanced_trade/coinbase_advanced_trade_constants.py',
        what: 'private and public REST limits',
        ours: '30 per s per user, 10,000 per hour per user; 10 per s per IP',
        theirs: 'MAX_PRIVATE_REST_REQUESTS_S = 30, MAX_PUBLIC_REST_REQUESTS_S = 10, MAX_SIGNIN_REQUESTS_H = 10000 for the sign-in (v2) endpoints only',
        verdict: 'per-second limits agree; the hourly limit as for ccxt',
      },
    ],
  },
  notes: [
    'The private limits are per Coinbase user ("throttled by user"): every API key of one user shares them. Users with several keys must pass the same `uid` in the identity; without it each key is keyed by its own credential and the keys together can exceed the user\'s limit.',
    "Coinbase's SDK names x-ratelimit-limit, x-ratelimit-remaining and x-ratelimit-reset response headers on private endpoints; which limit they report and the unit of the reset are not documented, so they are not read.",
    'Public /market endpoints are charged to the per-IP bucket whether or not a key is sent ("Unauthenticated requests are rate-limited more aggressively", Coinbase SDK README); whether an authenticated call to them also counts against the user\'s limit is not documented.',
    'Coinbase Exchange (api.exchange.coinbase.com) is a different API with token buckets per profile; not modelled here.',
  ],
};
