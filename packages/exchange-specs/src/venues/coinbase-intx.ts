import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/**
 * Coinbase International Exchange (INTX) REST (`api.international.coinbase.com/api/v1`). Coinbase
 * documents one REST number, 40 requests per second per API key, an account-wide message ceiling
 * (4,000 per second, FIX included) and a 429 whose message names 100 requests per second; nothing
 * per endpoint, per portfolio or for unauthenticated calls.
 */

const one = { kind: 'constant', value: 1 } as const;
const RETRIEVED = '2026-12-01';

const Q = {
  scope: 'Coinbase International Exchange enforces API rate limits at the individual API key level and at the account level.',
  key: 'REST API Rate Limits | Requests per second per API Key: 40',
  account: 'General Maximums | Maximum messages per second per account: 4000',
  refusal: 'REST Errors | HTTP Code: 429 | Message: Rate limit exceeded - Server allows 100 requests per second',
} as const;

const perKey: Provenance = { source: 'limits', confidence: 'documented', quote: `${Q.scope} | ${Q.key}` };
const perAccount: Provenance = { source: 'limits', confidence: 'uncertain', quote: `${Q.scope} | ${Q.account}` };
const perIp: Provenance = { source: 'limits', confidence: 'uncertain', quote: Q.refusal };
/** Calls without a key per IP per second: Coinbase states no number for them. */
const PUBLIC_PER_SECOND = 10;
const publicIp: Provenance = {
  source: 'limits',
  confidence: 'uncertain',
  quote: Q.key,
  deviations: [
    {
      value: PUBLIC_PER_SECOND,
      reason: 'conservative',
      text: 'Coinbase states no number for calls without a key; its one REST number is 40 per API key: 10 per IP, the pace ccxt gives every INTX call (rateLimit 100 ms, "10 requests per second")',
    },
  ],
};

const PRIVATE: readonly CostRule[] = [
  { bucket: 'key', cost: one, provenance: perKey },
  { bucket: 'account', cost: one, provenance: perAccount },
  { bucket: 'ip', cost: one, provenance: perIp },
];
const PUBLIC: readonly CostRule[] = [
  { bucket: 'public', cost: one, provenance: publicIp },
  { bucket: 'ip', cost: one, provenance: perIp },
];

/** Public market data (no key), by path after `/api/v1`. */
const PUBLIC_PATHS = '/assets; /assets/{asset}; /assets/{asset}/networks; /instruments; /instruments/{instrument}; /instruments/{instrument}/quote; /instruments/{instrument}/funding; /instruments/{instrument}/candles; /instruments/volumes/daily; /position-offsets; /fee-rate-tiers';

/** Signed endpoints: orders, portfolios, transfers, index data. */
const PRIVATE_PATHS = `
GET /orders; POST /orders; DELETE /orders; GET /orders/{id}; PUT /orders/{id}; DELETE /orders/{id};
GET /portfolios; POST /portfolios; GET /portfolios/{portfolio}; PUT /portfolios/{portfolio}; PATCH /portfolios/{portfolio};
GET /portfolios/{portfolio}/detail; GET /portfolios/{portfolio}/summary; GET /portfolios/{portfolio}/balances; GET /portfolios/{portfolio}/balances/{asset};
GET /portfolios/{portfolio}/positions; GET /portfolios/{portfolio}/positions/{instrument}; GET /portfolios/{portfolio}/fills; GET /portfolios/fills;
GET /portfolios/fee-rates; POST /portfolios/margin; POST /portfolios/transfer; POST /portfolios/transfer-position;
GET /portfolios/{portfolio}/loans; GET /portfolios/{portfolio}/position-limits; GET /portfolios/{portfolio}/margin-call-status;
GET /transfers; GET /transfers/{transfer_uuid}; POST /transfers/withdraw; POST /transfers/address; POST /transfers/withdraw/counterparty;
POST /transfers/create-counterparty-id; POST /transfers/validate-counterparty-id;
GET /index/{index}/composition; GET /index/{index}/composition-history; GET /index/{index}/price; GET /index/{index}/candles`;

function endpoints(text: string, auth: EndpointSpec['auth']): EndpointSpec[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const [method, path] = auth === 'public' ? ['GET', s] : s.split(' ');
      const full = `/api/v1${path ?? ''}`;
      return { id: `${method ?? 'GET'} ${full}`, method: (method ?? 'GET') as EndpointSpec['method'], path: full, auth, costs: auth === 'public' ? PUBLIC : PRIVATE, provenance: auth === 'public' ? publicIp : perKey };
    });
}

/** Coinbase International Exchange REST API. */
export const coinbaseIntx: VenueSpec = {
  id: 'coinbase-intx',
  venue: 'Coinbase International Exchange',
  product: 'INTX REST API v1 (perpetual futures, spot, portfolios, transfers)',
  markets: ['spot', 'perpetual', 'wallet'],
  origin: 'hand-authored',
  ccxtIds: ['coinbaseinternational'],
  sources: {
    limits: {
      url: 'https://docs.cdp.coinbase.com/international-exchange/introduction/rate-limits-overview',
      retrieved: RETRIEVED,
      note: '"International Exchange Rate Limits Overview", read from a stored copy of the page and of its markdown (rate-limits-overview.md). Error bodies: https://docs.cdp.coinbase.com/api-reference/international-exchange-api/rest-api/introduction ("The body also contains a message parameter indicating the cause."); endpoint paths as in Coinbase\'s sample SDK (coinbase-samples/intx-sdk-go@e0848ff) and ccxt 4.5.84.',
    },
  },
  buckets: [
    {
      id: 'key',
      scope: 'key',
      algorithm: 'sliding-window',
      limit: 40,
      windowMs: 1000,
      provenance: perKey,
      description: "every signed REST request, per API key. The window's kind is not documented: a rolling window is assumed.",
    },
    {
      id: 'account',
      scope: 'uid',
      algorithm: 'sliding-window',
      limit: 4000,
      windowMs: 1000,
      provenance: perAccount,
      description:
        'messages per second per account (pass the account as `uid`; every key of it shares this). Coinbase lists it among the "General Maximums" next to FIX sessions and does not say whether REST requests are among its "messages": they are counted (the safe reading). Record FIX messages on this bucket when the account also trades over FIX.',
    },
    {
      id: 'ip',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 100,
      windowMs: 1000,
      provenance: perIp,
      description: 'every REST request, per IP. The only source is the 429 message ("Server allows 100 requests per second"), which names no scope and contradicts the 40 per key; read as a per-IP ceiling over all keys and unauthenticated calls, an extra constraint that can only hold requests back.',
    },
    {
      id: 'public',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: PUBLIC_PER_SECOND,
      windowMs: 1000,
      provenance: publicIp,
      description: "unauthenticated market data, per IP. Coinbase states no number for requests without a key: 10 per second, ccxt's pace for every INTX call (the per-key 40 was applied here until 2026-12-07, faster than ccxt on no stated number).",
    },
  ],
  endpoints: [...endpoints(PUBLIC_PATHS, 'public'), ...endpoints(PRIVATE_PATHS, 'private')],
  fallback: { costs: PRIVATE, publicCosts: PUBLIC, provenance: perKey },
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
      provenance: { source: 'limits', confidence: 'documented', quote: Q.refusal },
      note: 'body {"message": "Rate limit exceeded - Server allows 100 requests per second"} (errors carry a message field). Coinbase states no wait and no Retry-After: a Retry-After is used when present, else 1 s, the window of every INTX limit. Whether a refused request counts is not documented: counted (safe).',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 coinbaseinternational.js',
        what: 'every REST endpoint',
        ours: '40 per s per key (plus 4,000 per s per account, 100 per s per IP); 10 per s per IP without a key (40 until 2026-12-07)',
        theirs: 'rateLimit 100 ms, cost 1: 10 per s per instance',
        verdict: "ccxt is 4 times stricter than the documented per-key limit, which is shipped; without a key Coinbase states no number, and ccxt's 10 per s is shipped",
      },
      {
        other: 'Coinbase INTX rate-limits page (its own 429 message)',
        what: 'REST requests per second',
        ours: '40 per key, and 100 per IP',
        theirs: Q.refusal,
        verdict: 'the page contradicts itself (40 per key in the limits, 100 in the error): the 40 per key is shipped and the 100 kept as a per-IP ceiling (uncertain)',
      },
    ],
  },
  notes: [
    'No Hummingbot connector exists for INTX (checked hummingbot/hummingbot@2bfaccc, 2026-07-30).',
    'Coinbase documents no per-portfolio limit: portfolios of one account share the key and account limits.',
    'FIX (800 messages per second per key, disconnect at 1,000; 1 session per key) and WebSocket connection attempts (10 per 30 s) are not REST and are not modelled; only the account-wide message ceiling is shared with REST here.',
    'Public endpoints are charged per IP whether or not a key is sent; Coinbase does not say whether a signed call to them also counts against the key.',
  ],
};
