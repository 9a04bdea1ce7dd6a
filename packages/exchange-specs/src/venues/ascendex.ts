import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/**
 * AscendEX Pro API REST: the one REST limit AscendEX documents, 8 requests per minute on the balance
 * snapshot and balance/order-fill detail endpoints (cash, margin and futures). Its documentation
 * (cash/margin and futures v2) states no other REST limit, no per-IP or per-account request budget,
 * no rate-limit error code and no usage header, so no other endpoint is priced: they resolve to
 * `unknown_endpoint` rather than to numbers the venue never published.
 */

const RETRIEVED = '2026-12-01';
const LIMIT = 'Please note we enforce rate limit 8 / minute. Data query for most recent 7 days is supported.';

/** The limit counts calls: each call is one of the 8 per minute. */
const PER_CALL = [{ value: 1, reason: 'formula', text: 'the page limits calls to "8 / minute": each call counts one' }] as const;
const cashProv: Provenance = { source: 'cash', confidence: 'uncertain', quote: LIMIT, deviations: PER_CALL };
const futuresProv: Provenance = { source: 'futures', confidence: 'uncertain', quote: LIMIT, deviations: PER_CALL };

function ep(path: string, provenance: Provenance): EndpointSpec {
  const costs: readonly CostRule[] = [
    { bucket: 'balance-detail-ip', cost: { kind: 'constant', value: 1 } },
    { bucket: 'balance-detail-account', cost: { kind: 'constant', value: 1 } },
  ];
  return { id: `GET ${path}`, method: 'GET', path, auth: 'private', costs, provenance };
}

const SCOPE = 'AscendEX names no scope and does not say whether the endpoints share it';

/** AscendEX Pro API (cash, margin, futures v2): balance snapshot and detail only. */
export const ascendex: VenueSpec = {
  id: 'ascendex',
  venue: 'AscendEX',
  product: 'Pro API REST: balance snapshot and balance/order-fill detail only (the only REST limit AscendEX documents)',
  markets: ['spot', 'margin', 'perpetual'],
  origin: 'hand-authored',
  ccxtIds: ['ascendex'],
  sources: {
    cash: {
      url: 'https://ascendex.github.io/ascendex-pro-api/#balance-snapshot-and-update-detail',
      retrieved: RETRIEVED,
      note: 'cash/margin Pro API documentation, "Balance Snapshot And Update Detail"; read from the documentation repository ascendex/ascendex-pro-api (gh-pages 6776af2, 2025-10-29; source master 049ef7b, source/includes/_rest_prv_bal_detail.md). Its other pages, "Error Message" included, state no REST rate limit.',
    },
    futures: {
      url: 'https://ascendex.github.io/ascendex-futures-pro-api-v2/#balance-snapshot-and-update-detail',
      retrieved: RETRIEVED,
      note: 'futures Pro API v2 documentation, same sentence; read from ascendex/ascendex-futures-pro-api-v2 (master 615dc41, 2022-08-16, source/includes/_rest_prv_bal_detail.md)',
    },
  },
  buckets: [
    {
      id: 'balance-detail-ip',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 8,
      windowMs: 60_000,
      provenance: cashProv,
      description: `the balance snapshot and detail endpoints together, per IP. ${SCOPE}: they are counted together, and per IP and per account at once (both buckets), the strictest reading. The window's kind is not documented: a rolling window is assumed.`,
    },
    {
      id: 'balance-detail-account',
      scope: 'uid',
      algorithm: 'sliding-window',
      limit: 8,
      windowMs: 60_000,
      provenance: cashProv,
      description: `the balance snapshot and detail endpoints together, per account (pass the account as \`uid\`). ${SCOPE}: see balance-detail-ip.`,
    },
  ],
  endpoints: [
    ep('/api/pro/data/v1/cash/balance/snapshot', cashProv),
    ep('/api/pro/data/v1/margin/balance/snapshot', cashProv),
    ep('/api/pro/data/v1/cash/balance/history', cashProv),
    ep('/api/pro/data/v1/margin/balance/history', cashProv),
    ep('/api/pro/data/v1/futures/balance/snapshot', futuresProv),
    ep('/api/pro/data/v1/futures/balance/history', futuresProv),
  ],
  errors: [
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
      provenance: cashProv,
      note: 'AscendEX documents no rate-limit refusal (its error table has no such code). An HTTP 429 is still read as one: a Retry-After when present, else the minute of the documented limit.',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      {
        other: 'ccxt 4.5.0 ascendex.js (AscendEX is no longer in ccxt 4.5.84: delisted, ccxt pull request 29079)',
        what: 'balance snapshot and detail',
        ours: '8 per minute',
        theirs: 'rateLimit 400 ms, cost 1 on every endpoint: 150 per minute',
        verdict: 'ccxt admits 18.75 times more than documented: the documentation is shipped',
      },
      { other: 'hummingbot ascend_ex/ascend_ex_constants.py (removed 2026-07-17, commit 048c4c1: "AscendEx: exchange has closed down"; read at its parent)', what: 'data/v1/cash/balance/history', ours: '8 per minute', theirs: 'BALANCE_HISTORY_PATH_URL limit=8, time_interval=60', verdict: 'agree' },
      {
        other: 'hummingbot ascend_ex/ascend_ex_constants.py',
        what: 'every other endpoint',
        ours: 'not priced (AscendEX documents no limit)',
        theirs: '"All" 100 per s; cash/order, order/batch, order/open, order/status 50 per s; balance, ticker, depth, trades 100 per s; cash/order/hist/current 60 per minute',
        verdict: "Hummingbot's numbers have no source in AscendEX's documentation; not shipped",
      },
    ],
  },
  notes: [
    'Status: Hummingbot removed its AscendEX connector on 2026-07-17 ("AscendEx: exchange has closed down") and ccxt delisted the exchange (no ascendex in ccxt 4.5.84); withdrawal delays were reported in June 2026. The API may no longer be served.',
    'Not priced, because AscendEX documents no limit for them: market data, orders (place, cancel, cancel-all, batch), open orders, order status and history, balances, positions, wallet. They resolve to unknown_endpoint.',
    'AscendEX documents WebSocket message thresholds (GET /api/pro/v2/risk-limit-info: per-minute levels after which messages are ignored for 15 minutes, then the IP is banned for 15 minutes); they are not REST limits and are not modelled.',
  ],
};
