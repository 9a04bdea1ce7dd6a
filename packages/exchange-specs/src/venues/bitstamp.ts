import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

const RETRIEVED = '2026-12-01';

const LIMITS = 'As standard, all clients can make 400 requests per second. There is a default limit threshold of 10,000 requests per 10 minutes in place. The rate limits mentioned above can be increased upon request and the client entering a bespoke agreement with Bitstamp.';
const CODES = '400.002 | Request rejected due to exceeded rate limit. ; 400.067 | Request rejected due to exceeded client rate limit. ; 400.068 | Request rejected due to exceeded market rate limit.';
const CODE_KEY = 'Response code is a key that can be appended to an API response as response_code (string). Additionally, also explanation may or may not be included as the response_explanation (string) key, which defines further explanation to what has gone wrong when processing a request.';

const limits: Provenance = { source: 'limits', confidence: 'documented', quote: LIMITS };

const both: readonly CostRule[] = [
  { bucket: 'per-second', cost: { kind: 'constant', value: 1 } },
  { bucket: 'per-10-minutes', cost: { kind: 'constant', value: 1 } },
];

function ep(id: string, method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth']): EndpointSpec {
  return { id, method, path, auth, costs: both, provenance: limits };
}

const SCOPE = 'Bitstamp does not say what a "client" is (IP, API key or account), nor how the window is counted: the bucket is kept once for the whole limiter and as a rolling window, the strictest readings.';

/** Bitstamp HTTP API v2: two limits on every request. */
export const bitstamp: VenueSpec = {
  id: 'bitstamp',
  venue: 'Bitstamp',
  product: 'HTTP API v2',
  markets: ['spot'],
  origin: 'hand-authored',
  ccxtIds: ['bitstamp'],
  sources: {
    limits: {
      url: 'https://www.bitstamp.net/api/#section/Request-limits',
      retrieved: RETRIEVED,
      note: 'the "Request limits" section of the API reference, read from the OpenAPI description the reference is built from',
    },
    codes: { url: 'https://www.bitstamp.net/api/#section/Response-codes', retrieved: RETRIEVED, note: 'the "Response codes" table of the same reference' },
  },
  buckets: [
    { id: 'per-second', scope: 'ip', algorithm: 'sliding-window', limit: 400, windowMs: 1000, provenance: limits, description: `400 requests per second. ${SCOPE}` },
    {
      id: 'per-10-minutes',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 10_000,
      windowMs: 600_000,
      provenance: limits,
      description: `10,000 requests per 10 minutes (older documentation said 8000, followed by an IP ban). ${SCOPE}`,
    },
  ],
  endpoints: [
    ep('ticker', 'GET', '/api/v2/ticker/{pair}', 'public'),
    ep('order-book', 'GET', '/api/v2/order_book/{pair}', 'public'),
    ep('transactions', 'GET', '/api/v2/transactions/{pair}', 'public'),
    ep('trading-pairs-info', 'GET', '/api/v2/trading-pairs-info', 'public'),
    ep('balance', 'POST', '/api/v2/account_balances', 'private'),
    ep('buy', 'POST', '/api/v2/buy/{pair}', 'private'),
    ep('sell', 'POST', '/api/v2/sell/{pair}', 'private'),
    ep('cancel', 'POST', '/api/v2/cancel_order', 'private'),
    ep('open-orders', 'POST', '/api/v2/open_orders/all', 'private'),
  ],
  fallback: { costs: both, provenance: limits },
  errors: [
    {
      id: 'request-limit',
      body: [{ path: 'response_code', equals: ['400.002', '400.067', '400.068'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: { source: 'codes', confidence: 'uncertain', quote: `${CODE_KEY} ${CODES}`, deviations: [{ value: 10000, reason: 'conservative', text: "Bitstamp states no wait: the charged buckets are held 10 s, the spec's default" }] },
      note: 'Bitstamp states neither the HTTP status nor a wait: the charged buckets are held for 10 s. 400.067 (client) and 400.068 (market) name limits whose figures are not published; the market-level one is not modelled.',
    },
    {
      id: 'request-limit-code',
      body: [{ path: 'code', equals: ['400.002', '400.067', '400.068'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: { source: 'codes', confidence: 'uncertain', quote: CODES, deviations: [{ value: 10000, reason: 'conservative', text: "Bitstamp states no wait: the charged buckets are held 10 s, the spec's default" }] },
      note: 'the same codes under a "code" key, in case an endpoint answers in that shape',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 10_000 },
      ],
      provenance: { source: 'limits', confidence: 'uncertain', quote: LIMITS },
      note: 'Bitstamp documents no 429; one is held for its Retry-After, else 10 s.',
    },
  ],
  verification: {
    checked: RETRIEVED,
    corrections: [
      {
        what: 'the field of the rate-limit response codes',
        was: 'only "code" was read, so a reply carrying response_code 400.002 (the documented key) was not seen as a rate limit',
        now: 'response_code (and code) 400.002, 400.067 and 400.068',
        source: 'codes',
      },
      { what: 'per-10-minutes limit', was: '8000 (older documentation)', now: '10,000, as the API reference states today', source: 'limits' },
    ],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 bitstamp.js',
        what: 'requests per 10 minutes',
        ours: '10,000 (and 400 per second)',
        theirs: 'rateLimit 75 ms from "8000 requests per 10 minutes"',
        verdict: "ccxt follows Bitstamp's older figure; the API reference now says 10,000 per 10 minutes (Hummingbot's bitstamp_constants.py also uses 10,000 and 400 per second)",
      },
    ],
  },
  notes: ['Bitstamp raises these limits by agreement ("a bespoke agreement with Bitstamp"): an account with other limits needs its own spec.'],
};
