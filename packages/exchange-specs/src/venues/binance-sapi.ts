import type { Provenance, VenueSpec } from '../venue-spec.js';
import { binancePricedElsewhere } from './binance-paths.js';
import { SAPI_PAGE_SOURCES, sapiEndpoints } from './binance-sapi-endpoints.js';

function doc(source: string, quote: string): Provenance {
  return { source, confidence: 'documented', quote };
}

/** The /sapi rules as Binance's current developer pages state them (a table comparing /api and /sapi). */
const RULES = {
  scope: '| How limits apply | IP and UID limits are independent | Each endpoint is marked as IP- or UID-limited, with its own weight |',
  limit: '| Limit | All endpoints share 6,000 per minute per IP | Each IP-limited endpoint has an independent 12,000 per minute; each UID-limited endpoint an independent 180,000 per minute |',
  refusal: '| Exceeding the limit | 429, escalating to an automated IP ban (418) if you keep sending | always 429 — the 418 IP-ban escalation does not apply |',
  backOff: 'When you receive a 429, back off rather than continuing to send requests.',
  ban: 'IP bans (/api/* only) - Repeatedly violating rate limits, or failing to back off after 429s, results in an automated IP ban (HTTP 418). - IP bans are tracked and scale in duration for repeat offenders, from 2 minutes to 3 days.',
} as const;

/**
 * Binance `/sapi` (wallet, sub-accounts, margin, Simple Earn) on `api.binance.com`: every endpoint
 * has its own limit, per IP or per UID as its page marks it.
 */
export const binanceSapi: VenueSpec = {
  id: 'binance-sapi',
  venue: 'Binance',
  product: 'SAPI REST API (/sapi: wallet, sub-accounts, margin, Simple Earn)',
  markets: ['wallet', 'margin'],
  origin: 'hand-authored',
  sources: {
    limits: {
      url: 'https://developers.binance.com/zh-CN/docs/products/caas/basics/4.rate-limits',
      retrieved: '2026-12-01',
      note: 'Binance developer docs, "Rate limits" (CAAS and OMS Toolkit, whose endpoints are all /sapi/*): the table "/api/* and /sapi/* differ", in English under this path; read from a stored copy',
    },
    legacyLimits: {
      url: 'https://binance-docs.github.io/apidocs/spot/en/#limits',
      retrieved: '2026-12-01',
      note: 'Binance\'s former spot API documentation, "/sapi/ Limit Introduction" (the site now leads to developers.binance.com), which says what the usage headers count; its wording read from verbatim copies of the page',
    },
    marginErrors: { url: 'https://developers.binance.com/docs/margin_trading/error-code', retrieved: '2026-12-01', note: 'Margin Trading "Error Codes"; read from a stored copy' },
    apiFaq: {
      url: 'https://www.binance.com/en/support/faq/detail/360004492232',
      retrieved: '2026-12-01',
      note: 'Binance support FAQ "Frequently Asked Questions on API" (last updated 15 November 2024); the nearest statement of a WAF ban\'s length',
    },
    ...SAPI_PAGE_SOURCES,
  },
  buckets: [
    {
      id: 'ip_weight',
      scope: 'ip',
      partition: { kind: 'endpoint' },
      algorithm: 'sliding-window',
      limit: 12_000,
      windowMs: 60_000,
      provenance: doc('limits', `${RULES.scope} … ${RULES.limit}`),
      description: 'the IP weight of each IP-limited /sapi endpoint, on its own: one bucket per endpoint (method and path) and IP. How the minute is counted is not documented for /sapi: it is modelled as a rolling minute, the strictest reading (a usage header is then taken to stay a whole minute)',
    },
    {
      id: 'uid_weight',
      scope: 'uid',
      partition: { kind: 'endpoint' },
      algorithm: 'sliding-window',
      limit: 180_000,
      windowMs: 60_000,
      provenance: doc('limits', `${RULES.scope} … ${RULES.limit}`),
      description: 'the UID weight of each UID-limited /sapi endpoint, on its own: one bucket per endpoint and account (every key of the account shares it); a rolling minute, as for the IP weight',
    },
  ],
  endpoints: sapiEndpoints,
  feedback: [
    {
      header: 'x-sapi-used-ip-weight-1m',
      meaning: 'used',
      buckets: ['ip_weight'],
      provenance: doc('legacyLimits', 'Responses from endpoints with IP limits contain the header X-SAPI-USED-IP-WEIGHT-1M, defining the weight used by the current IP.'),
    },
    {
      header: 'x-sapi-used-uid-weight-1m',
      meaning: 'used',
      buckets: ['uid_weight'],
      provenance: doc('legacyLimits', 'Responses from endpoints with UID limits contain the header X-SAPI-USED-UID-WEIGHT-1M, defining the weight used by the current UID.'),
    },
  ],
  errors: [
    {
      id: 'too-many-orders-day',
      status: [429],
      body: [
        { path: 'code', equals: [-1015] },
        { path: 'msg', contains: 'DAY' },
      ],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'window-end', windowMs: 86_400_000 },
      ],
      provenance: {
        ...doc('marginErrors', '-1015 TOO_MANY_ORDERS Too many new orders. Too many new orders; current limit is %s orders per %s.'),
        deviations: [{ value: 86400000, reason: 'conservative', text: 'The message names its interval only as "%s"; this rule reads the margin account\'s daily order count: without Retry-After the endpoint is held to the end of the day (00:00 UTC), when the count resets' }],
      },
      note: "a margin order refused by the account's daily order count (its number is not documented, GET /sapi/v1/margin/rateLimit/order states it): the endpoint is held until 00:00 UTC unless Retry-After says otherwise",
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 60_000 },
      ],
      provenance: { ...doc('limits', `${RULES.refusal} … ${RULES.backOff}`), deviations: [{ value: 60000, reason: 'conservative', text: "The quote says to back off, with no duration: without Retry-After the endpoint's buckets are held one whole minute, the window of the /sapi limits" }] },
      note: "each endpoint has its own limit, so the endpoint's own buckets are held (every /sapi endpoint the request was charged on), without Retry-After for one whole minute, the window of the limits",
    },
    {
      id: 'ip-ban',
      status: [418],
      verdict: 'banned',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 120_000 },
      ],
      provenance: { source: 'limits', confidence: 'uncertain', quote: RULES.ban },
      note: 'Binance says the 418 escalation does not apply to /sapi; should one come anyway (the IP banned for its /api traffic), the endpoint is held for Retry-After, else the shortest ban (2 minutes)',
    },
    {
      id: 'waf',
      status: [403],
      verdict: 'banned',
      counted: true,
      penalize: 'charged',
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 300_000 },
      ],
      provenance: { source: 'apiFaq', confidence: 'observed', quote: "Web Application Firewall limitations will only be applied by IP. Usually, a WAF ban will have a duration of 5 minutes. However, if the server has interpreted a user's request as malicious, it may be extended." },
      note: 'HTTP 403 is the WAF limit of api.binance.com: the endpoint is held for the usual 5 minutes unless Retry-After says otherwise',
    },
    {
      id: 'server-busy',
      body: [{ path: 'code', equals: [-1008] }],
      verdict: 'overloaded',
      counted: true,
      provenance: doc('marginErrors', '-1008 SERVER_BUSY Spot server is currently overloaded with other requests. Please try again in a few minutes.'),
      note: 'whether it counts is not documented: counted (the safe reading); "a few minutes" names no duration, so nothing is held',
    },
  ],
  pricedElsewhere: binancePricedElsewhere('binance-sapi'),
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 binance.js (sapi)',
        what: 'the /sapi limits',
        ours: '12,000 IP weight per minute per IP-limited endpoint, 180,000 UID weight per minute per UID-limited endpoint, each on its own',
        theirs: 'one limiter for every request of the exchange instance (cost 0.1 per IP weight, 0.006667 per UID weight at 20 units/s: 12,000 IP weight a minute for all /sapi and /api traffic together)',
        verdict: 'Binance: "Each IP-limited endpoint has an independent 12,000 per minute"; ccxt is stricter overall and does not tell IP from UID limits',
      },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'GET /sapi/v1/capital/withdraw/history weight', ours: '18,000 UID', theirs: 'cost 2 (20 IP or 300 UID weight)', verdict: 'the page says Weight(UID): 18000; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'POST /sapi/v1/capital/withdraw/apply weight', ours: '900 UID', theirs: 'cost 4.0002 (600 UID)', verdict: 'the page says Weight(UID): 900; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'POST /sapi/v1/margin/order with sideEffectType MARGIN_BUY or AUTO_BORROW_REPAY', ours: '1500 UID', theirs: 'cost 0.040002 (6 UID) whatever the side effect', verdict: 'the page: 6, or 1500 when the order borrows; ccxt under-charges borrowing orders' },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'DELETE /sapi/v1/margin/order weight', ours: '10 IP', theirs: 'cost 0.006667 (1 UID)', verdict: 'the page says Weight(IP): 10; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'POST /sapi/v1/sub-account/universalTransfer', ours: '1 IP and 360 UID', theirs: 'cost 0.1 (1 IP)', verdict: 'the page marks both limits; ccxt leaves out the UID weight' },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'POST /sapi/v1/margin/borrow-repay weight', ours: '1500 UID', theirs: 'cost 20.001 (3000 UID)', verdict: "both official SDKs carry the page's Weight(UID): 1500; ccxt keeps an older, higher number" },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'POST /sapi/v1/asset/transfer weight', ours: '300 UID', theirs: 'cost 6.0003 (900 UID)', verdict: 'the page said 900 until August 2026 (binance-connector-js of 2026-07-24 still does); binance-connector-python carries 300 since 2026-08-07: the current page' },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'GET /sapi/v1/capital/withdraw/address/list weight', ours: '10 IP', theirs: 'cost 10 (100 IP)', verdict: 'the page says Weight(IP): 10; ccxt over-charges' },
      { other: 'ccxt 4.5.84 binance.js (sapi)', what: 'POST /sapi/v1/sub-account/margin/transfer weight', ours: '1 IP', theirs: 'cost 4.0002 (40 IP or 600 UID)', verdict: 'the page says Weight(IP): 1; ccxt over-charges' },
      {
        other: 'ccxt 4.5.84 binance.js (sapi)',
        what: 'GET /sapi/v1/sub-account/transaction-statistics, GET /sapi/v1/margin/next-hourly-interest-rate, GET /sapi/v1/margin/exchange-small-liability',
        ours: '60 IP, 100 IP, 100 IP',
        theirs: 'costs priced as UID weight (0.40002, 0.6667, 0.6667)',
        verdict: 'the pages mark them IP-limited',
      },
      { other: 'binance-connector-js a9de9a9 (2026-07-24)', what: 'POST /sapi/v1/asset/transfer weight', ours: '300 UID', theirs: '900 UID', verdict: 'binance-connector-python 29da329 (2026-08-21), generated from the newer page, says 300' },
    ],
  },
  notes: [
    'Paths under /sapi/ on api.binance.com: a user who says `binance` gets Binance spot (`binance-spot`, /api/v3), which refuses a /sapi path and names this spec; price /sapi requests with `binance-sapi` (a second paced fetch with venue `binance-sapi`).',
    'Each endpoint is its own bucket per IP or per UID (`ip_weight:GET /sapi/v1/capital/config/getall`); the /sapi limits are independent of the /api/v3 REQUEST_WEIGHT and ORDERS limits.',
    'The usage headers are documented as "the weight used by the current IP" (or UID), not per endpoint: they are applied to the endpoint\'s own bucket, which only ever raises its count, so the reading is safe whether they count the endpoint or every /sapi endpoint of the IP.',
    'Margin orders have their own order-count limits (GET /sapi/v1/margin/rateLimit/order states them) whose numbers are not documented: not modelled; a -1015 refusal holds the endpoint.',
    'Endpoints not listed (other /sapi products: convert, loans, mining, pay...) are refused (unknown_endpoint), never priced at a guessed weight. POST /sapi/v1/margin/max-leverage (UID 3000 and 1 a minute per IP) is not listed.',
    "Hummingbot's Binance connectors call no /sapi endpoint: nothing to compare.",
  ],
};
