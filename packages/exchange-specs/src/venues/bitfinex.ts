import type { BucketSpec, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

const RETRIEVED = '2026-12-01';

/** Bitfinex's general rule (docs.bitfinex.com/docs/requirements-and-limitations, "Rate Limits"). */
const GENERAL =
  'For the REST API, an IP address can be rate limited if it has sent too many requests per minute. The current rate limit is between 10 and 90 requests per minute, depending on the specific REST API endpoint (i.e. /ticker). If an IP address is rate limited, the IP is blocked for 60 seconds and cannot make any requests during that time.';

const _general: Provenance = { source: 'limits', confidence: 'documented', quote: GENERAL };

/** The "Rate Limit" row of an endpoint's reference page. */
function page(source: string, quote: string, confidence: Provenance['confidence'] = 'documented'): Provenance {
  return { source, confidence, quote };
}

/** Per IP, per endpoint, per minute (the window's algorithm is undocumented: sliding is the strictest reading). */
function perMinute(id: string, limit: number, provenance: Provenance, description: string): BucketSpec {
  return { id, scope: 'ip', algorithm: 'sliding-window', limit, windowMs: 60_000, provenance, description };
}

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth'], provenance: Provenance): EndpointSpec {
  return { id, method, path, auth, costs: [{ bucket: id, cost: { kind: 'constant', value: 1 } }], provenance };
}

/** A private endpoint's limit per minute: Bitfinex's reference pages for them state none. */
const PRIVATE_LIMIT = 88;

const PRIVATE_NOTE = `Bitfinex's reference page for this endpoint states no limit. ${PRIVATE_LIMIT} per minute, just under the top of the documented 10-90 range: ccxt 4.5.84 paces these calls at 88.9 per minute (cost 2.7 at 250 ms, "use 2.7 instead of 2.66 to ensure rateLimitExceeded is not triggered"), Bitfinex.Net at 90 per endpoint, and the funding-offer cancel page states 90 for that private write ("Ratelimit: 90 req/min"). Counted per IP, as the general rule says, so several API keys behind one IP share it.`;

const privateProv: Provenance = {
  source: 'limits',
  confidence: 'uncertain',
  quote: GENERAL,
  deviations: [
    {
      value: PRIVATE_LIMIT,
      reason: 'conservative',
      text: 'the endpoint\'s page states no limit within the general 10 to 90 per minute: 88, below ccxt\'s 88.9 (its margin under 90 "to ensure rateLimitExceeded is not triggered")',
    },
  ],
};

const BUCKETS: readonly BucketSpec[] = [
  perMinute('platform-status', 30, page('platformStatus', 'Rate Limit: 30 reqs/min (requests per minute)'), 'GET /v2/platform/status per IP'),
  perMinute('ticker', 90, page('ticker', 'Rate Limit: | 90 reqs/min (requests per minute) |'), 'GET /v2/ticker/{symbol} per IP (every symbol together)'),
  perMinute(
    'tickers',
    30,
    { ...page('tickers', 'Ratelimit: 90 req/min', 'uncertain'), deviations: [{ value: 30, reason: 'conservative', text: 'the stored copy of the page says 90 per minute; later reports of the same page and Bitfinex.Net give 30: the lower figure' }] },
    "GET /v2/tickers per IP. The stored copy of Bitfinex's page says 90 per minute, but later reports of the same page and Bitfinex.Net give 30: the lower figure is kept until Bitfinex's current page can be read.",
  ),
  perMinute('trades', 15, page('trades', 'Rate Limit: | 15 reqs/min (requests per minute) |'), 'GET /v2/trades/{symbol}/hist per IP (every symbol together)'),
  perMinute('book', 240, page('book', 'Rate Limit: | 240 reqs/min (requests per minute) |'), 'GET /v2/book/{symbol}/{precision} per IP (every symbol together)'),
  perMinute('candles', 30, page('candles', 'Rate Limit: 30 reqs/min (requests per minute)'), 'GET /v2/candles/{candle}/{section} per IP (every key together); an older copy of the page said 90 per minute, the current one 30'),
  perMinute('wallets', PRIVATE_LIMIT, privateProv, `POST /v2/auth/r/wallets per IP. ${PRIVATE_NOTE}`),
  perMinute('orders', PRIVATE_LIMIT, privateProv, `POST /v2/auth/r/orders per IP. ${PRIVATE_NOTE}`),
  perMinute('order-submit', PRIVATE_LIMIT, privateProv, `POST /v2/auth/w/order/submit per IP. ${PRIVATE_NOTE}`),
  perMinute('order-cancel', PRIVATE_LIMIT, privateProv, `POST /v2/auth/w/order/cancel per IP. ${PRIVATE_NOTE}`),
  perMinute('other', 10, { source: 'limits', confidence: 'uncertain', quote: GENERAL }, 'every endpoint not listed, together: the bottom of the documented 10-90 per-endpoint range, shared so that no unlisted endpoint can exceed it whatever its own limit is'),
];

/** Every bucket: a breach blocks the whole IP ("cannot make any requests"), so a block holds them all. */
const ALL = BUCKETS.map((b) => b.id);

/** Bitfinex API v2 REST: each endpoint its own per-minute limit per IP; a breach blocks the IP for 60 s. */
export const bitfinex: VenueSpec = {
  id: 'bitfinex',
  venue: 'Bitfinex',
  product: 'API v2 REST',
  markets: ['spot', 'margin'],
  origin: 'hand-authored',
  ccxtIds: ['bitfinex'],
  sources: {
    limits: {
      url: 'https://docs.bitfinex.com/docs/requirements-and-limitations',
      retrieved: RETRIEVED,
      note: 'the "Rate Limits" section, read through verbatim quotations of it (the stored copy of the page ends before that section)',
    },
    v1: { url: 'https://docs.bitfinex.com/v1', retrieved: RETRIEVED, note: 'the v1 introduction, for the ERR_RATE_LIMIT wording' },
    platformStatus: { url: 'https://docs.bitfinex.com/reference/rest-public-platform-status', retrieved: RETRIEVED },
    ticker: { url: 'https://docs.bitfinex.com/reference/rest-public-ticker', retrieved: RETRIEVED },
    tickers: { url: 'https://docs.bitfinex.com/reference/rest-public-tickers', retrieved: RETRIEVED },
    trades: { url: 'https://docs.bitfinex.com/reference/rest-public-trades', retrieved: RETRIEVED },
    book: { url: 'https://docs.bitfinex.com/reference/rest-public-book', retrieved: RETRIEVED },
    candles: { url: 'https://docs.bitfinex.com/reference/rest-public-candles', retrieved: RETRIEVED },
  },
  buckets: BUCKETS,
  endpoints: [
    ep('platform-status', 'GET', '/v2/platform/status', 'public', page('platformStatus', 'Rate Limit: 30 reqs/min (requests per minute)')),
    ep('ticker', 'GET', '/v2/ticker/{symbol}', 'public', page('ticker', 'Rate Limit: | 90 reqs/min (requests per minute) |')),
    ep('tickers', 'GET', '/v2/tickers', 'public', page('tickers', 'Ratelimit: 90 req/min', 'uncertain')),
    ep('trades', 'GET', '/v2/trades/{symbol}/hist', 'public', page('trades', 'Rate Limit: | 15 reqs/min (requests per minute) |')),
    ep('book', 'GET', '/v2/book/{symbol}/{precision}', 'public', page('book', 'Rate Limit: | 240 reqs/min (requests per minute) |')),
    ep('candles', 'GET', '/v2/candles/{candle}/{section}', 'public', page('candles', 'Rate Limit: 30 reqs/min (requests per minute)')),
    ep('wallets', 'POST', '/v2/auth/r/wallets', 'private', privateProv),
    ep('orders', 'POST', '/v2/auth/r/orders', 'private', privateProv),
    ep('order-submit', 'POST', '/v2/auth/w/order/submit', 'private', privateProv),
    ep('order-cancel', 'POST', '/v2/auth/w/order/cancel', 'private', privateProv),
  ],
  fallback: { costs: [{ bucket: 'other', cost: { kind: 'constant', value: 1 } }], provenance: { source: 'limits', confidence: 'uncertain', quote: GENERAL } },
  errors: [
    {
      id: 'ratelimit',
      body: [
        { path: '0', equals: ['error'] },
        { path: '1', equals: [11010] },
      ],
      verdict: 'rate_limited',
      counted: true,
      penalize: ALL,
      wait: [{ from: 'fixed', ms: 60_000 }],
      provenance: { source: 'limits', confidence: 'uncertain', quote: GENERAL },
      note: 'The v2 body ["error", 11010, "ratelimit: error"] appears in no Bitfinex page read (ccxt maps code 11010 to RateLimitExceeded); the 60 s block of the whole IP is documented.',
    },
    {
      id: 'err-rate-limit',
      body: [{ path: 'error', equals: ['ERR_RATE_LIMIT'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ALL,
      wait: [{ from: 'fixed', ms: 60_000 }],
      provenance: {
        source: 'v1',
        confidence: 'documented',
        quote: 'If an IP address exceeds a certain number of requests per minute (between 10 and 90) to a specific REST API endpoint e.g., /ticker, the requesting IP address will be blocked for 10-60 seconds on that endpoint and the JSON response {"error": "ERR_RATE_LIMIT"} will be returned.',
      },
      note: 'The v2 page says the block lasts 60 seconds and covers every request of the IP: the longer, wider reading is used.',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: ALL,
      wait: [{ from: 'fixed', ms: 60_000 }],
      provenance: { source: 'limits', confidence: 'uncertain', quote: GENERAL },
      note: 'Bitfinex documents no HTTP status for a breach; a 429 is treated as the documented 60 s block of the IP.',
    },
  ],
  verification: {
    checked: RETRIEVED,
    corrections: [
      {
        what: 'scope of the private endpoint limits (wallets, orders, order-submit, order-cancel)',
        was: 'per API key (two keys behind one IP got 90 per minute each)',
        now: 'per IP, as the general rule counts every REST request ("an IP address can be rate limited")',
        source: 'limits',
      },
      {
        what: 'what a rate-limit block holds',
        was: 'the bucket of the endpoint that answered',
        now: 'every bucket of the IP, for 60 s ("the IP is blocked for 60 seconds and cannot make any requests during that time")',
        source: 'limits',
      },
    ],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 bitfinex.js',
        what: 'wallets, orders, order submit and order cancel per minute',
        ours: '88 (90 until 2026-12-07)',
        theirs: 'cost 2.7 at 250 ms: 88.9, "use 2.7 instead of 2.66 to ensure rateLimitExceeded is not triggered"',
        verdict: "no Bitfinex page states these limits: the spec stays below ccxt's margined pace",
      },
      {
        other: 'ccxt 4.5.84 bitfinex.js',
        what: 'GET /v2/trades/{symbol}/hist per minute',
        ours: '15',
        theirs: 'cost 2.7 at rateLimit 250 ms, about 89 per minute',
        verdict: 'Bitfinex\'s trades page: "Rate Limit: 15 reqs/min"; ccxt would be blocked',
      },
      {
        other: 'ccxt 4.5.84 bitfinex.js',
        what: 'GET /v2/candles/... per minute',
        ours: '30',
        theirs: 'cost 2.7, about 89 per minute',
        verdict: "Bitfinex's current candles page says 30 per minute (an older copy said 90); the lower figure is kept",
      },
      {
        other: 'ccxt 4.5.84 bitfinex.js',
        what: 'GET /v2/tickers per minute',
        ours: '30',
        theirs: 'cost 2.7, about 89 per minute',
        verdict: "the stored copy of Bitfinex's tickers page says 90; later reports of the page and Bitfinex.Net say 30; 30 is kept (uncertain, the safe side)",
      },
    ],
  },
  notes: ['Public endpoints are served by api-pub.bitfinex.com, authenticated ones by api.bitfinex.com; the limits are counted per IP either way.', 'WebSocket: wss://api-pub.bitfinex.com allows 20 connections per minute and 25 channel subscriptions per connection (not modelled here).'],
};
