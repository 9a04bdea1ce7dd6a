import type { BucketSpec, CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/*
 * HTX USDT-margined contracts REST (api.hbdm.com, linear-swap-api): every number is quoted from the
 * USDT-margined contracts pages of HTX's API documentation ("API Rate Limit Illustration", each
 * endpoint's "Interface permission" and "Rate Limit" lines, error codes, FAQ), read 2026-12-01 from a
 * verbatim copy of the pages (rosssaunders/coincise@c836b49, docs/htx/usdtm/, captured from
 * htx.com/en-us/opend/newApiPages on 2025-06-15).
 */

const RETRIEVED = '2026-12-01';
const COPY = 'read from a verbatim copy of the pages (rosssaunders/coincise@c836b49, docs/htx/usdtm, captured 2025-06-15)';
const DOCS = 'https://www.htx.com/en-us/opend/newApiPages/';

const Q = {
  private: 'Generally, the private interface rate limit of API key is at most 144 times every 3 seconds for each UID (Trade Interface: at most 72 times every 3 seconds. Read Interface: at most 72 times every 3 seconds) (this rate limit is shared by all the altcoins contracts delivered by different date).',
  uid: "Yes. The ratelimit of interface with private key is based on the UID, not the API key. The master and sub accounts are separately ratelimited and don't affect each other.",
  reference:
    'For public interface used to get information of index, price limit, settlement, delivery, open positions and so on, the rate limit is 240 times every 3 second at most for each IP (this 240 times every 3 second public interface rate limit is shared by all the requests from that IP of non-marketing information, like above).',
  market:
    'For public interface to get market data such as Get Kline data, Get Market Data Overview, Get Contract Information,Get market in-depth data, Get premium index Kline, Get real-time forecast capital rate kline, Get basis data, Get the last Trade of a Contract and so on： （1）For restful interfaces, products, (future, coin margined swap, usdt margined Contracts)800 times/second for one IP at most',
  separate: 'Future, Coin Margined Swap,Option Swap and USDT Margined Contracts are using separate API rate limits.',
  lever: 'Rate Limit: 1 time per 3 seconds. | The interface limits the number of requests to 1 time per 3 seconds.',
  strategy: 'Rate Limit: 5 times per second.',
  elements: 'Rate Limit: 20 times/2s',
  assetMode: 'Rate Limit: 1 requests per 10 seconds',
  v5: 'Rate Limit: 144 requests per UID per 3 seconds. This limit is shared across all trading interfaces (72 requests/3 seconds) and query interfaces (72 requests/3 seconds) for all symbols and contracts with different expiry dates for a given UID.',
  headers:
    'Both read and trade interfaces will return the ratelimit info.You can refer to the following fields of "header" from api response. | ratelimit-limit: the upper limit of requests per time, unit: times | ratelimit-interval: reset interval (reset the number of request), unit: ms | ratelimit-remaining: the left available request number for this round, unit: times | ratelimit-reset: upper limit of reset time used to reset request number, unit: ms',
  exceeded:
    '1032 | The number of access exceeded the limit. | 1032 means that your request exceeds the ratelimit. The coin margined swap, future and USDT margined Contracts limit the rate separately. Please check the ratelimit in the api ratelimit instructions, and you can print the current ratelimit in the header of the API response to check whether the ratelimit is exceeded. It is recommended to increase the request interval delay to avoid exceeding the ratelimit.',
  disabled:
    '1084 | Your contract API is disabled, please try again after {0} (GMT+8). | If the order cancellation ratio is greater than 99%, the user will be prohibited for 5 minutes from placing orders via certain API order price types | A 30-minute API order placement prohibition will be triggered if the user was prohibited for 3 times within an hour | recovery-time: recovery timestamp, whose unit is millisecond, showing the end time of prohibition, or the access retrieval timestamp;',
  busy: '1004 | System busy. Please try again later. | please be patient, and do not place or cancel order repeatedly during the process to avoid repeated orders and additional pressure on system performance.',
} as const;

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });
const one = { kind: 'constant', value: 1 } as const;
const ROLLING = "The window's kind is not documented: a rolling window is assumed (the strictest reading).";

/**
 * How an endpoint is limited: `trade`/`read` (the private pools), `lever` (trade, plus 1 per 3 s of
 * its own), `strategy-trade`/`strategy-read` (the pool, plus 5 per second of its own), `reference`
 * (240 per 3 s per IP), `market` (800 per second per IP), `elements` (20 per 2 s per IP),
 * `asset-mode` (trade, plus 1 per 10 s of its own).
 */
type Kind = 'trade' | 'read' | 'lever' | 'strategy-trade' | 'strategy-read' | 'reference' | 'market' | 'elements' | 'asset-mode';

/** One endpoint: id, method, path (after the host), how it is limited. */
type Row = readonly [id: string, method: EndpointSpec['method'], path: string, kind: Kind];

const S = '/linear-swap-api';
const ROWS: readonly Row[] = [
  // Trading (Trade pool).
  ['order', 'POST', `${S}/v1/swap_order`, 'trade'],
  ['cross-order', 'POST', `${S}/v1/swap_cross_order`, 'trade'],
  ['batchorder', 'POST', `${S}/v1/swap_batchorder`, 'trade'],
  ['cross-batchorder', 'POST', `${S}/v1/swap_cross_batchorder`, 'trade'],
  ['cancel', 'POST', `${S}/v1/swap_cancel`, 'trade'],
  ['cross-cancel', 'POST', `${S}/v1/swap_cross_cancel`, 'trade'],
  ['cancelall', 'POST', `${S}/v1/swap_cancelall`, 'trade'],
  ['cross-cancelall', 'POST', `${S}/v1/swap_cross_cancelall`, 'trade'],
  ['lightning-close', 'POST', `${S}/v1/swap_lightning_close_position`, 'trade'],
  ['cross-lightning-close', 'POST', `${S}/v1/swap_cross_lightning_close_position`, 'trade'],
  ['switch-position-mode', 'POST', `${S}/v1/swap_switch_position_mode`, 'trade'],
  ['cross-switch-position-mode', 'POST', `${S}/v1/swap_cross_switch_position_mode`, 'trade'],
  ['switch-lever-rate', 'POST', `${S}/v1/swap_switch_lever_rate`, 'lever'],
  ['cross-switch-lever-rate', 'POST', `${S}/v1/swap_cross_switch_lever_rate`, 'lever'],
  ['trigger-order', 'POST', `${S}/v1/swap_trigger_order`, 'strategy-trade'],
  ['cross-trigger-order', 'POST', `${S}/v1/swap_cross_trigger_order`, 'strategy-trade'],
  ['trigger-cancel', 'POST', `${S}/v1/swap_trigger_cancel`, 'strategy-trade'],
  ['cross-trigger-cancel', 'POST', `${S}/v1/swap_cross_trigger_cancel`, 'strategy-trade'],
  ['trigger-cancelall', 'POST', `${S}/v1/swap_trigger_cancelall`, 'strategy-trade'],
  ['cross-trigger-cancelall', 'POST', `${S}/v1/swap_cross_trigger_cancelall`, 'strategy-trade'],
  ['tpsl-order', 'POST', `${S}/v1/swap_tpsl_order`, 'strategy-trade'],
  ['cross-tpsl-order', 'POST', `${S}/v1/swap_cross_tpsl_order`, 'strategy-trade'],
  ['tpsl-cancel', 'POST', `${S}/v1/swap_tpsl_cancel`, 'strategy-trade'],
  ['cross-tpsl-cancel', 'POST', `${S}/v1/swap_cross_tpsl_cancel`, 'strategy-trade'],
  ['tpsl-cancelall', 'POST', `${S}/v1/swap_tpsl_cancelall`, 'strategy-trade'],
  ['cross-tpsl-cancelall', 'POST', `${S}/v1/swap_cross_tpsl_cancelall`, 'strategy-trade'],
  ['track-order', 'POST', `${S}/v1/swap_track_order`, 'strategy-trade'],
  ['cross-track-order', 'POST', `${S}/v1/swap_cross_track_order`, 'strategy-trade'],
  ['track-cancel', 'POST', `${S}/v1/swap_track_cancel`, 'strategy-trade'],
  ['cross-track-cancel', 'POST', `${S}/v1/swap_cross_track_cancel`, 'strategy-trade'],
  ['track-cancelall', 'POST', `${S}/v1/swap_track_cancelall`, 'strategy-trade'],
  ['cross-track-cancelall', 'POST', `${S}/v1/swap_cross_track_cancelall`, 'strategy-trade'],
  ['fix-position-margin-change', 'POST', `${S}/v3/fix_position_margin_change`, 'trade'],
  ['transfer-inner', 'POST', `${S}/v1/swap_transfer_inner`, 'trade'],
  ['master-sub-transfer', 'POST', `${S}/v1/swap_master_sub_transfer`, 'trade'],
  // The v5 API of USDT-margined contracts (same pools).
  ['v5-order', 'POST', '/v5/trade/order', 'trade'],
  ['v5-batch-orders', 'POST', '/v5/trade/batch_orders', 'trade'],
  ['v5-cancel-order', 'POST', '/v5/trade/cancel_order', 'trade'],
  ['v5-cancel-batch-orders', 'POST', '/v5/trade/cancel_batch_orders', 'trade'],
  ['v5-cancel-all-orders', 'POST', '/v5/trade/cancel_all_orders', 'trade'],
  ['v5-close-position', 'POST', '/v5/trade/position', 'trade'],
  ['v5-close-all-positions', 'POST', '/v5/trade/position_all', 'trade'],
  ['v5-set-lever', 'POST', '/v5/position/lever', 'trade'],
  ['v5-set-position-mode', 'POST', '/v5/position/mode', 'trade'],
  ['v5-set-fee-deduction-currency', 'POST', '/v5/account/fee_deduction_currency', 'trade'],
  ['v5-set-asset-mode', 'POST', '/v5/account/asset_mode', 'asset-mode'],
  ['v5-order-info', 'GET', '/v5/trade/order', 'read'],
  ['v5-order-details', 'GET', '/v5/trade/order/details', 'read'],
  ['v5-order-history', 'GET', '/v5/trade/order/history', 'read'],
  ['v5-open-orders', 'GET', '/v5/trade/order/opens', 'read'],
  ['v5-open-positions', 'GET', '/v5/trade/position/opens', 'read'],
  ['v5-balance', 'GET', '/v5/account/balance', 'read'],
  ['v5-asset-mode', 'GET', '/v5/account/asset_mode', 'read'],
  ['v5-lever', 'GET', '/v5/position/lever', 'read'],
  ['v5-position-mode', 'GET', '/v5/position/mode', 'read'],
  ['v5-risk-limit', 'GET', '/v5/market/risk/limit', 'read'],
  ['v5-assets-deduction-currency', 'GET', '/v5/market/assets_deduction_currency', 'read'],
  ['v5-multi-assets-margin', 'GET', '/v5/market/multi_assets_margin', 'read'],
  // Orders, fills, account and positions (Read pool).
  ['order-info', 'POST', `${S}/v1/swap_order_info`, 'read'],
  ['cross-order-info', 'POST', `${S}/v1/swap_cross_order_info`, 'read'],
  ['order-detail', 'POST', `${S}/v1/swap_order_detail`, 'read'],
  ['cross-order-detail', 'POST', `${S}/v1/swap_cross_order_detail`, 'read'],
  ['openorders', 'POST', `${S}/v1/swap_openorders`, 'read'],
  ['cross-openorders', 'POST', `${S}/v1/swap_cross_openorders`, 'read'],
  ['hisorders', 'POST', `${S}/v3/swap_hisorders`, 'read'],
  ['cross-hisorders', 'POST', `${S}/v3/swap_cross_hisorders`, 'read'],
  ['hisorders-exact', 'POST', `${S}/v3/swap_hisorders_exact`, 'read'],
  ['cross-hisorders-exact', 'POST', `${S}/v3/swap_cross_hisorders_exact`, 'read'],
  ['matchresults', 'POST', `${S}/v3/swap_matchresults`, 'read'],
  ['cross-matchresults', 'POST', `${S}/v3/swap_cross_matchresults`, 'read'],
  ['matchresults-exact', 'POST', `${S}/v3/swap_matchresults_exact`, 'read'],
  ['cross-matchresults-exact', 'POST', `${S}/v3/swap_cross_matchresults_exact`, 'read'],
  ['trigger-openorders', 'POST', `${S}/v1/swap_trigger_openorders`, 'strategy-read'],
  ['cross-trigger-openorders', 'POST', `${S}/v1/swap_cross_trigger_openorders`, 'read'],
  ['trigger-hisorders', 'POST', `${S}/v1/swap_trigger_hisorders`, 'read'],
  ['cross-trigger-hisorders', 'POST', `${S}/v1/swap_cross_trigger_hisorders`, 'read'],
  ['tpsl-openorders', 'POST', `${S}/v1/swap_tpsl_openorders`, 'read'],
  ['cross-tpsl-openorders', 'POST', `${S}/v1/swap_cross_tpsl_openorders`, 'read'],
  ['account-info', 'POST', `${S}/v1/swap_account_info`, 'read'],
  ['cross-account-info', 'POST', `${S}/v1/swap_cross_account_info`, 'read'],
  ['position-info', 'POST', `${S}/v1/swap_position_info`, 'read'],
  ['cross-position-info', 'POST', `${S}/v1/swap_cross_position_info`, 'read'],
  ['account-position-info', 'POST', `${S}/v1/swap_account_position_info`, 'read'],
  ['cross-account-position-info', 'POST', `${S}/v1/swap_cross_account_position_info`, 'read'],
  ['balance-valuation', 'POST', `${S}/v1/swap_balance_valuation`, 'read'],
  ['unified-account-info', 'GET', `${S}/v3/unified_account_info`, 'read'],
  ['available-level-rate', 'POST', `${S}/v1/swap_available_level_rate`, 'read'],
  ['cross-available-level-rate', 'POST', `${S}/v1/swap_cross_available_level_rate`, 'read'],
  ['position-side', 'GET', `${S}/v1/swap_position_side`, 'read'],
  ['cross-position-side', 'GET', `${S}/v1/swap_cross_position_side`, 'read'],
  ['fee', 'POST', `${S}/v1/swap_fee`, 'read'],
  ['order-limit', 'POST', `${S}/v1/swap_order_limit`, 'read'],
  ['financial-record', 'POST', `${S}/v3/swap_financial_record`, 'read'],
  ['financial-record-exact', 'POST', `${S}/v3/swap_financial_record_exact`, 'read'],
  ['api-trading-status', 'GET', `${S}/v1/swap_api_trading_status`, 'read'],
  ['master-sub-transfer-record', 'POST', `${S}/v1/swap_master_sub_transfer_record`, 'read'],
  // Reference data (240 per 3 s per IP).
  ['contract-info', 'GET', `${S}/v1/swap_contract_info`, 'reference'],
  ['index', 'GET', `${S}/v1/swap_index`, 'reference'],
  ['price-limit', 'GET', `${S}/v1/swap_price_limit`, 'reference'],
  ['open-interest', 'GET', `${S}/v1/swap_open_interest`, 'reference'],
  ['funding-rate', 'GET', `${S}/v1/swap_funding_rate`, 'reference'],
  ['batch-funding-rate', 'GET', `${S}/v1/swap_batch_funding_rate`, 'reference'],
  ['historical-funding-rate', 'GET', `${S}/v1/swap_historical_funding_rate`, 'reference'],
  ['liquidation-orders', 'GET', `${S}/v3/swap_liquidation_orders`, 'reference'],
  ['settlement-records', 'GET', `${S}/v1/swap_settlement_records`, 'reference'],
  ['api-state', 'GET', `${S}/v1/swap_api_state`, 'reference'],
  ['ladder-margin', 'GET', `${S}/v1/swap_ladder_margin`, 'reference'],
  ['cross-ladder-margin', 'GET', `${S}/v1/swap_cross_ladder_margin`, 'reference'],
  ['adjustfactor', 'GET', `${S}/v1/swap_adjustfactor`, 'reference'],
  ['cross-adjustfactor', 'GET', `${S}/v1/swap_cross_adjustfactor`, 'reference'],
  ['estimated-settlement-price', 'GET', `${S}/v1/swap_estimated_settlement_price`, 'reference'],
  ['timestamp', 'GET', '/api/v1/timestamp', 'reference'],
  ['query-elements', 'GET', `${S}/v1/swap_query_elements`, 'elements'],
  // Market data (800 per second per IP).
  ['depth', 'GET', '/linear-swap-ex/market/depth', 'market'],
  ['bbo', 'GET', '/linear-swap-ex/market/bbo', 'market'],
  ['kline', 'GET', '/linear-swap-ex/market/history/kline', 'market'],
  ['merged', 'GET', '/linear-swap-ex/market/detail/merged', 'market'],
  ['batch-merged', 'GET', '/linear-swap-ex/market/detail/batch_merged', 'market'],
  ['batch-merged-v2', 'GET', '/v2/linear-swap-ex/market/detail/batch_merged', 'market'],
  ['trade', 'GET', '/linear-swap-ex/market/trade', 'market'],
  ['history-trade', 'GET', '/linear-swap-ex/market/history/trade', 'market'],
  ['his-open-interest', 'GET', `${S}/v1/swap_his_open_interest`, 'market'],
  ['mark-price-kline', 'GET', '/index/market/history/linear_swap_mark_price_kline', 'market'],
  ['premium-index-kline', 'GET', '/index/market/history/linear_swap_premium_index_kline', 'market'],
  ['estimated-rate-kline', 'GET', '/index/market/history/linear_swap_estimated_rate_kline', 'market'],
  ['basis', 'GET', '/index/market/history/linear_swap_basis', 'market'],
];

const PRIVATE_QUOTE = (permission: 'Trade' | 'Read') => `Interface permission: ${permission} | Rate Limit: ${Q.private}`;

function rulesOf(kind: Kind): { costs: CostRule[]; provenance: Provenance; auth: EndpointSpec['auth']; note?: string } {
  switch (kind) {
    case 'trade':
      return { auth: 'private', costs: [{ bucket: 'trade', cost: one }], provenance: doc('private', PRIVATE_QUOTE('Trade')) };
    case 'read':
      return { auth: 'private', costs: [{ bucket: 'read', cost: one }], provenance: doc('private', PRIVATE_QUOTE('Read')) };
    case 'lever':
      return {
        auth: 'private',
        provenance: doc('private', `Interface permission: Trade | ${Q.lever}`),
        costs: [
          { bucket: 'trade', cost: one, provenance: { source: 'private', confidence: 'uncertain', quote: PRIVATE_QUOTE('Trade') } },
          { bucket: 'switch-lever-rate', cost: one },
        ],
        note: 'its own 1 per 3 s, and (the page states only that limit) one request of the Trade pool, the safe reading',
      };
    case 'strategy-trade':
    case 'strategy-read': {
      const pool = kind === 'strategy-trade' ? 'trade' : 'read';
      const permission = kind === 'strategy-trade' ? 'Trade' : 'Read';
      return {
        auth: 'private',
        provenance: doc('private', `Interface permission: ${permission} | ${Q.strategy}`),
        costs: [
          { bucket: pool, cost: one, provenance: { source: 'private', confidence: 'uncertain', quote: PRIVATE_QUOTE(permission) } },
          { bucket: 'strategy-endpoint', cost: one },
        ],
        note: `its own 5 per second, and (the page states only that limit) one request of the ${permission} pool, the safe reading`,
      };
    }
    case 'asset-mode':
      return {
        auth: 'private',
        provenance: doc('private', `Interface permission: Trade | ${Q.assetMode}`),
        costs: [
          { bucket: 'trade', cost: one, provenance: { source: 'private', confidence: 'uncertain', quote: PRIVATE_QUOTE('Trade') } },
          { bucket: 'set-asset-mode', cost: one },
        ],
        note: 'its own 1 per 10 s, and (the page states only that limit) one request of the Trade pool, the safe reading',
      };
    case 'reference':
      return { auth: 'public', costs: [{ bucket: 'public-reference', cost: one }], provenance: doc('public', `Interface permission: Read | Rate Limit: ${Q.reference}`) };
    case 'market':
      return { auth: 'public', costs: [{ bucket: 'market-data', cost: one }], provenance: doc('public', `Interface permission: Read | Rate Limit: ${Q.market}`) };
    case 'elements':
      return { auth: 'public', costs: [{ bucket: 'query-elements', cost: one }], provenance: doc('public', `Interface permission: Read | ${Q.elements}`) };
  }
}

function endpointOf([id, method, path, kind]: Row): EndpointSpec {
  const r = rulesOf(kind);
  return { id, method, path, auth: r.auth, costs: r.costs, provenance: r.provenance, ...(r.note === undefined ? {} : { note: r.note }) };
}

function bucket(id: string, scope: 'ip' | 'uid', limit: number, windowMs: number, provenance: Provenance, description: string, extra: Partial<BucketSpec> = {}): BucketSpec {
  return { id, scope, algorithm: 'sliding-window', limit, windowMs, provenance, description: `${description} ${ROLLING}`, ...extra } as BucketSpec;
}

/** HTX USDT-margined contracts REST (api.hbdm.com): a Trade and a Read pool per UID, reference and market data per IP. */
export const htxSwap: VenueSpec = {
  id: 'htx-swap',
  venue: 'HTX',
  product: 'USDT-margined contracts REST (api.hbdm.com, linear-swap-api): perpetual swaps and USDT-margined futures',
  markets: ['perpetual', 'delivery'],
  origin: 'hand-authored',
  sources: {
    limits: { url: DOCS, retrieved: RETRIEVED, note: `USDT-margined contracts: "API Rate Limit Illustration", "API Limitation on Order Cancellation Ratio", error codes and FAQ; ${COPY}` },
    private: { url: DOCS, retrieved: RETRIEVED, note: `USDT-margined contracts, private endpoints (linear-swap-api and v5): each page's "Interface permission" and "Rate Limit" lines; ${COPY} (private_rest_api.md, and endpoints/private/*.md for the v5 pages)` },
    public: { url: DOCS, retrieved: RETRIEVED, note: `USDT-margined contracts, public endpoints: each page's "Rate Limit" line; ${COPY} (public_rest_api.md)` },
  },
  buckets: [
    bucket('trade', 'uid', 72, 3000, doc('limits', `${Q.private} | ${Q.v5} | ${Q.uid}`), 'Trade interfaces per UID (every key of the account; each sub-account its own), all USDT-margined contracts together.'),
    bucket('read', 'uid', 72, 3000, doc('limits', `${Q.private} | ${Q.v5} | ${Q.uid}`), 'Read interfaces per UID (every key of the account; each sub-account its own), all USDT-margined contracts together.'),
    bucket('switch-lever-rate', 'uid', 1, 3000, doc('private', Q.lever), 'each leverage-switching endpoint (isolated, cross) its own, per UID.', { partition: { kind: 'endpoint' } }),
    bucket('strategy-endpoint', 'uid', 5, 1000, doc('private', Q.strategy), 'each trigger, take-profit/stop-loss and trailing order endpoint that states "5 times per second" its own, per UID.', { partition: { kind: 'endpoint' } }),
    bucket('set-asset-mode', 'uid', 1, 10_000, doc('private', `POST /v5/account/asset_mode | ${Q.assetMode}`), 'POST /v5/account/asset_mode (set the asset mode), per UID.'),
    bucket('public-reference', 'ip', 240, 3000, doc('limits', `${Q.reference} | ${Q.separate}`), 'public reference endpoints (contract info, index, price limit, funding, settlement, open interest...) per IP.'),
    bucket(
      'market-data',
      'ip',
      800,
      1000,
      doc('limits', Q.market),
      'public market data per IP. HTX counts this limit over its futures, coin-margined swaps and USDT-margined contracts together; this spec sees only the USDT-margined requests, so a process using several HTX contract APIs from one IP must leave room for the others.',
    ),
    bucket('query-elements', 'ip', 20, 2000, doc('public', `Interface permission: Read | ${Q.elements}`), 'GET /linear-swap-api/v1/swap_query_elements per IP (a public endpoint: per IP is the only reading).'),
  ],
  endpoints: ROWS.map(endpointOf),
  feedback: [
    {
      // ratelimit-reset is in ms, but the documentation does not say whether it is a countdown or a time: it is not read.
      header: 'ratelimit-remaining',
      meaning: 'remaining',
      limitHeader: 'ratelimit-limit',
      buckets: ['trade', 'read'],
      provenance: doc('limits', Q.headers),
    },
  ],
  errors: [
    {
      id: 'exceeded',
      body: [{ path: 'err_code', equals: [1032] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 3000 }],
      provenance: { ...doc('limits', Q.exceeded), deviations: [{ value: 3000, reason: 'conservative', text: 'HTX states no wait: the charged buckets are held 3 s, the window of the private limits' }] },
      note: 'in an HTTP 200 body ({"status":"error","err_code":1032,...}); HTX states no wait: the charged buckets are held for 3 s, the private window',
    },
    {
      id: 'api-disabled',
      body: [{ path: 'err_code', equals: [1084] }],
      verdict: 'rate_limited',
      counted: true,
      wait: [
        { from: 'header', header: 'recovery-time', unit: 'epoch-ms' },
        { from: 'fixed', ms: 1_800_000 },
      ],
      provenance: doc('limits', Q.disabled),
      note: 'the order-cancellation-ratio prohibition: limit, post-only, FOK and IOC orders are refused until recovery-time (5 minutes, 30 after three prohibitions in an hour); cancellations and other order types still work, so nothing is held; without the header the longest documented prohibition (30 minutes) is the wait',
    },
    {
      id: 'busy',
      body: [{ path: 'err_code', equals: [1004] }],
      verdict: 'overloaded',
      counted: true,
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...doc('limits', Q.busy), deviations: [{ value: 1000, reason: 'conservative', text: "HTX states no wait for an overload: 1 s is the spec's default; nothing is held" }] },
      note: "system overload; HTX states no wait: 1 s is this spec's default, nothing held",
    },
  ],
  verification: {
    checked: RETRIEVED,
    corrections: [],
    crossChecks: [
      {
        other: "an earlier version of HTX's USDT-margined contracts documentation (copy at udbx.com/info/324010)",
        what: 'private and reference limits',
        ours: '144 per 3 s per UID (Trade 72, Read 72); reference 240 per 3 s per IP',
        theirs: '30 per 3 s per UID for all private interfaces; 120 per 3 s per IP',
        verdict: 'the current USDT-margined pages state 144 (72 Trade + 72 Read) and 240; the older, lower figures are superseded',
      },
      {
        other: 'JKorf/HTX.Net @3300a72 (HTXExchange.cs)',
        what: 'USDT-M Trade, Read, Public Market, Public Reference',
        ours: '72 per 3 s per UID, 72 per 3 s per UID, 800 per s per IP, 240 per 3 s per IP',
        theirs: '72 per 3 s per API key and endpoint, 72 per 3 s per API key and endpoint, 800 per s per host, 240 per 1 s per host',
        verdict: 'the same numbers; HTX counts the Trade and Read pools over all endpoints of the UID ("at most 72 times every 3 seconds" for all Trade interfaces), not per endpoint, and the reference limit per 3 s',
      },
      { other: 'ccxt 4.5.84 htx.js', what: 'v5 trading and order queries (/v5/trade/order, /v5/trade/order/opens, ...)', ours: '72 per 3 s per UID (Trade pool, Read pool)', theirs: 'cost 0.41679 at rateLimit 100 ms: 24 per s (72 per 3 s)', verdict: 'agree' },
      {
        other: 'ccxt 4.5.84 htx.js',
        what: 'v5 account reads (/v5/account/balance, /v5/position/lever, /v5/position/mode...)',
        ours: '72 per 3 s per UID (Read pool)',
        theirs: 'cost 0.20834: 48 per s (144 per 3 s)',
        verdict: 'ccxt takes the total of both pools for a read endpoint alone; HTX documents 72 per 3 s for the Read interfaces: the documentation is shipped',
      },
      { other: 'ccxt 4.5.84 htx.js', what: 'POST /v5/account/asset_mode', ours: '1 per 10 s', theirs: 'cost 100: 1 per 10 s', verdict: 'agree' },
      {
        other: 'ccxt 4.5.84 htx.js',
        what: 'linear-swap-api v1/v3 endpoints and market data',
        ours: 'the documented pools (72 + 72 per 3 s per UID, 240 per 3 s and 800 per s per IP)',
        theirs: 'cost 1 at rateLimit 100 ms: 10 requests per s over every HTX API',
        verdict: 'ccxt is stricter (30 per 3 s) and does not separate the pools; the documentation is shipped',
      },
      { other: 'hummingbot', what: 'HTX contracts', ours: 'this spec', theirs: 'no HTX perpetual connector (only the spot connector htx/htx_constants.py)', verdict: 'nothing to compare' },
    ],
  },
  notes: [
    'Limits are per UID, shared by every API key of the account: users with several keys of one account must pass the same `uid` in the identity. Master and sub-accounts are limited separately.',
    'Not modelled: the order-cancellation-ratio limit itself (99 % of at least 3,000 limit/post-only/FOK/IOC orders in 10 minutes); its refusal (1084) is read.',
    'Endpoints whose pages state no limit (linear-cancel-after) or disagree with the endpoint list (swap_track_openorders: Trade on its page, Read in the list) are not listed and do not resolve.',
    "The plain name `htx` is HTX spot (spec `htx`); ccxt's htx covers every HTX product under one id, so this spec claims no ccxt id.",
  ],
};
