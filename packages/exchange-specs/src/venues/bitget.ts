import type { BucketSpec, EndpointSpec, Provenance, Source, VenueSpec } from '../venue-spec.js';

/**
 * Bitget API v2 REST: an overall limit per IP, and a limit per endpoint stated on each endpoint's
 * page ("Frequency limit: 10 times/1s (UID)"). Each endpoint here has its own bucket, named like it.
 */

const one = { kind: 'constant', value: 1 } as const;
const RETRIEVED = '2026-12-01';
const COPY = 'read from a verbatim copy of the page taken 2025-11-30 (rosssaunders/coincise@47b0437, docs/bitget)';
const DOC = 'https://www.bitget.com/api-doc/';

/** One endpoint with its own bucket: `limit` per second, per UID or per IP. */
interface Row {
  readonly id: string;
  readonly method: EndpointSpec['method'];
  readonly path: string;
  readonly auth: EndpointSpec['auth'];
  readonly limit: number;
  readonly scope: 'ip' | 'uid';
  /** The endpoint's page, under https://www.bitget.com/api-doc/. */
  readonly page: string;
  /** The page's frequency-limit line, verbatim. */
  readonly quote: string;
  /** The limit for copy-trading traders, when the page states one (tier `copy-trader`). */
  readonly copyTrader?: number;
  /** Why the number or its scope is uncertain (the page is then quoted as is). */
  readonly uncertain?: string;
}

const ROWS: readonly Row[] = [
  // Spot trading (per UID).
  { id: 'spot-place-order', method: 'POST', path: '/api/v2/spot/trade/place-order', auth: 'private', limit: 10, scope: 'uid', page: 'spot/trade/Place-Order', quote: 'Rate limit: 10 requests/second/UID Rate limit: 1 request/second/UID for copy trading traders', copyTrader: 1 },
  { id: 'spot-cancel-order', method: 'POST', path: '/api/v2/spot/trade/cancel-order', auth: 'private', limit: 10, scope: 'uid', page: 'spot/trade/Cancel-Order', quote: 'Frequency limit:10 times/1s (UID)' },
  { id: 'spot-batch-orders', method: 'POST', path: '/api/v2/spot/trade/batch-orders', auth: 'private', limit: 5, scope: 'uid', page: 'spot/trade/Batch-Place-Orders', quote: 'Frequency limit: 5 times/1s (UID)Trader frequency limit: 1 times/1s (UID)', copyTrader: 1 },
  { id: 'spot-batch-cancel-order', method: 'POST', path: '/api/v2/spot/trade/batch-cancel-order', auth: 'private', limit: 10, scope: 'uid', page: 'spot/trade/Batch-Cancel-Orders', quote: 'Frequency limit:10 times/1s (UID)' },
  { id: 'spot-cancel-symbol-order', method: 'POST', path: '/api/v2/spot/trade/cancel-symbol-order', auth: 'private', limit: 5, scope: 'uid', page: 'spot/trade/Cancel-Symbol-Orders', quote: 'Frequency limit: 5 times/1s (UID)' },
  { id: 'spot-cancel-replace-order', method: 'POST', path: '/api/v2/spot/trade/cancel-replace-order', auth: 'private', limit: 5, scope: 'uid', page: 'spot/trade/Cancel-Replace-Order', quote: 'Rate limit: 5 requests/second/UID' },
  { id: 'spot-batch-cancel-replace-order', method: 'POST', path: '/api/v2/spot/trade/batch-cancel-replace-order', auth: 'private', limit: 5, scope: 'uid', page: 'spot/trade/Batch-Cancel-Replace-Order', quote: 'Rate limit: 5 requests/second/UID' },
  { id: 'spot-unfilled-orders', method: 'GET', path: '/api/v2/spot/trade/unfilled-orders', auth: 'private', limit: 20, scope: 'uid', page: 'spot/trade/Get-Unfilled-Orders', quote: 'Frequency limit: 20 times/1s (UID)' },
  { id: 'spot-order-info', method: 'GET', path: '/api/v2/spot/trade/orderInfo', auth: 'private', limit: 20, scope: 'uid', page: 'spot/trade/Get-Order-Info', quote: 'Frequency limit: 20 times/1s (UID)' },
  { id: 'spot-history-orders', method: 'GET', path: '/api/v2/spot/trade/history-orders', auth: 'private', limit: 20, scope: 'uid', page: 'spot/trade/Get-History-Orders', quote: 'Frequency limit: 20 times/1s (UID)' },
  { id: 'spot-fills', method: 'GET', path: '/api/v2/spot/trade/fills', auth: 'private', limit: 10, scope: 'uid', page: 'spot/trade/Get-Fills', quote: 'Frequency limit:10 times/1s (UID)' },
  // Spot account and wallet (per UID).
  { id: 'spot-assets', method: 'GET', path: '/api/v2/spot/account/assets', auth: 'private', limit: 10, scope: 'uid', page: 'spot/account/Get-Account-Assets', quote: 'Frequency limit: 10 times/1s (User ID)' },
  { id: 'spot-account-info', method: 'GET', path: '/api/v2/spot/account/info', auth: 'private', limit: 1, scope: 'uid', page: 'spot/account/Get-Account-Info', quote: 'Frequency limit: 1 time/1s (User ID)' },
  { id: 'spot-bills', method: 'GET', path: '/api/v2/spot/account/bills', auth: 'private', limit: 10, scope: 'uid', page: 'spot/account/Get-Account-Bills', quote: 'Frequency limit: 10 times/1s (User ID)' },
  { id: 'spot-transfer', method: 'POST', path: '/api/v2/spot/wallet/transfer', auth: 'private', limit: 10, scope: 'uid', page: 'spot/account/Wallet-Transfer', quote: 'Rate limit: 10 requests/second/UID' },
  { id: 'spot-withdrawal', method: 'POST', path: '/api/v2/spot/wallet/withdrawal', auth: 'private', limit: 5, scope: 'uid', page: 'spot/account/Wallet-Withdrawal', quote: 'Rate limit:5 req/sec/UID' },
  // Spot market data (per IP).
  { id: 'spot-symbols', method: 'GET', path: '/api/v2/spot/public/symbols', auth: 'public', limit: 20, scope: 'ip', page: 'spot/market/Get-Symbols', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'public-time', method: 'GET', path: '/api/v2/public/time', auth: 'public', limit: 20, scope: 'ip', page: 'common/public/Get-Server-Time', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'spot-tickers', method: 'GET', path: '/api/v2/spot/market/tickers', auth: 'public', limit: 20, scope: 'ip', page: 'spot/market/Get-Tickers', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'spot-orderbook', method: 'GET', path: '/api/v2/spot/market/orderbook', auth: 'public', limit: 20, scope: 'ip', page: 'spot/market/Get-Orderbook', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'spot-merge-depth', method: 'GET', path: '/api/v2/spot/market/merge-depth', auth: 'public', limit: 20, scope: 'ip', page: 'spot/market/Merge-Orderbook', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'spot-candles', method: 'GET', path: '/api/v2/spot/market/candles', auth: 'public', limit: 20, scope: 'ip', page: 'spot/market/Get-Candle-Data', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'spot-history-candles', method: 'GET', path: '/api/v2/spot/market/history-candles', auth: 'public', limit: 20, scope: 'ip', page: 'spot/market/Get-History-Candle-Data', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'spot-market-fills', method: 'GET', path: '/api/v2/spot/market/fills', auth: 'public', limit: 10, scope: 'ip', page: 'spot/market/Get-Recent-Trades', quote: 'Frequency limit: 10 times/1s (IP)' },
  // Futures (mix) trading and account (per UID).
  { id: 'mix-place-order', method: 'POST', path: '/api/v2/mix/order/place-order', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Place-Order', quote: 'Rate limit: 10 requests/second/UID - Rate limit: 1 request/second/UID for copy trading traders', copyTrader: 1 },
  { id: 'mix-batch-place-order', method: 'POST', path: '/api/v2/mix/order/batch-place-order', auth: 'private', limit: 5, scope: 'uid', page: 'contract/trade/Batch-Order', quote: 'Rate limit: 5 requests/second/UID - Rate limit: 1 request/second/UID for copy trading traders', copyTrader: 1 },
  {
    id: 'mix-cancel-order',
    method: 'POST',
    path: '/api/v2/mix/order/cancel-order',
    auth: 'private',
    limit: 10,
    scope: 'uid',
    page: 'contract/trade/Cancel-Order',
    quote: 'Frequency limit: 10 times/1s',
    uncertain: 'the page names no scope; the other futures order endpoints are limited per UID, which is assumed here',
  },
  { id: 'mix-batch-cancel-orders', method: 'POST', path: '/api/v2/mix/order/batch-cancel-orders', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Batch-Cancel-Orders', quote: 'Speed limit is 10 times/s for average users. Frequency limit imposed according to user ID' },
  { id: 'mix-modify-order', method: 'POST', path: '/api/v2/mix/order/modify-order', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Modify-Order', quote: 'Speed limit is 10 times/s for average users. Frequency limit imposed according to user ID' },
  { id: 'mix-cancel-all-orders', method: 'POST', path: '/api/v2/mix/order/cancel-all-orders', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Cancel-All-Orders', quote: 'Rate limit: 10 req/sec/UID' },
  { id: 'mix-close-positions', method: 'POST', path: '/api/v2/mix/order/close-positions', auth: 'private', limit: 1, scope: 'uid', page: 'contract/trade/Flash-Close-Position', quote: 'Frequency limit: 1 time/1s (User ID)' },
  { id: 'mix-orders-pending', method: 'GET', path: '/api/v2/mix/order/orders-pending', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Get-Orders-Pending', quote: 'Rate limit: 10 req/sec/UID' },
  { id: 'mix-orders-history', method: 'GET', path: '/api/v2/mix/order/orders-history', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Get-Orders-History', quote: 'Rate limit: 10 req/sec/UID' },
  { id: 'mix-order-detail', method: 'GET', path: '/api/v2/mix/order/detail', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Get-Order-Details', quote: 'Frequency limit: 10 times/1s (uid)' },
  { id: 'mix-fills', method: 'GET', path: '/api/v2/mix/order/fills', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Get-Order-Fills', quote: 'Speed limit is 10 times/s for average users. Frequency limit imposed according to user ID' },
  { id: 'mix-accounts', method: 'GET', path: '/api/v2/mix/account/accounts', auth: 'private', limit: 10, scope: 'uid', page: 'contract/account/Get-Account-List', quote: 'Frequency limit: 10 times/1s (uid)' },
  { id: 'mix-account', method: 'GET', path: '/api/v2/mix/account/account', auth: 'private', limit: 10, scope: 'uid', page: 'contract/account/Get-Single-Account', quote: 'Frequency limit: 10 times/1s (uid)' },
  { id: 'mix-set-leverage', method: 'POST', path: '/api/v2/mix/account/set-leverage', auth: 'private', limit: 5, scope: 'uid', page: 'contract/account/Change-Leverage', quote: 'Frequency limit: 5 times/1s (uid)' },
  { id: 'mix-all-position', method: 'GET', path: '/api/v2/mix/position/all-position', auth: 'private', limit: 5, scope: 'uid', page: 'contract/position/get-all-position', quote: 'Rate limit: 5 requests/sec/UID' },
  { id: 'mix-single-position', method: 'GET', path: '/api/v2/mix/position/single-position', auth: 'private', limit: 10, scope: 'uid', page: 'contract/position/get-single-position', quote: 'Rate limit: 10 requests/sec/UID' },
  { id: 'mix-history-position', method: 'GET', path: '/api/v2/mix/position/history-position', auth: 'private', limit: 20, scope: 'uid', page: 'contract/position/Get-History-Position', quote: '20times/S （uid）' },
  { id: 'mix-set-margin-mode', method: 'POST', path: '/api/v2/mix/account/set-margin-mode', auth: 'private', limit: 5, scope: 'uid', page: 'contract/account/Change-Margin-Mode', quote: 'Frequency limit: 5 times/1s (uid)' },
  { id: 'mix-set-position-mode', method: 'POST', path: '/api/v2/mix/account/set-position-mode', auth: 'private', limit: 5, scope: 'uid', page: 'contract/account/Change-Hold-Mode', quote: 'Frequency limit: 5 times/1s (uid)' },
  { id: 'mix-set-margin', method: 'POST', path: '/api/v2/mix/account/set-margin', auth: 'private', limit: 5, scope: 'uid', page: 'contract/account/Change-Margin', quote: 'Rate limit: 5 req/sec/UID' },
  { id: 'mix-set-auto-margin', method: 'POST', path: '/api/v2/mix/account/set-auto-margin', auth: 'private', limit: 5, scope: 'uid', page: 'contract/account/Set-Auto-Margin', quote: 'Frequency limit: 5 times/1s (uid)' },
  { id: 'mix-bill', method: 'GET', path: '/api/v2/mix/account/bill', auth: 'private', limit: 10, scope: 'uid', page: 'contract/account/Get-Account-Bill', quote: 'Rate limit: 10 req/sec/UID' },
  { id: 'mix-open-count', method: 'GET', path: '/api/v2/mix/account/open-count', auth: 'private', limit: 10, scope: 'uid', page: 'contract/account/Est-Open-Count', quote: 'Frequency limit: 10 times/1s (uid)' },
  { id: 'mix-fill-history', method: 'GET', path: '/api/v2/mix/order/fill-history', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Get-Fill-History', quote: 'Frequency limit: 10 times/1s (uid)' },
  { id: 'mix-click-backhand', method: 'POST', path: '/api/v2/mix/order/click-backhand', auth: 'private', limit: 10, scope: 'uid', page: 'contract/trade/Reversal', quote: 'Rate limit: 10 req/sec/UID - Rate limit: 1 req/sec/UID for copy trading traders', copyTrader: 1 },
  // Futures (mix) trigger and TP/SL orders (per UID).
  { id: 'mix-place-plan-order', method: 'POST', path: '/api/v2/mix/order/place-plan-order', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/Place-Plan-Order', quote: 'Rate limit: 10 req/sec/UID' },
  { id: 'mix-modify-plan-order', method: 'POST', path: '/api/v2/mix/order/modify-plan-order', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/Modify-Plan-Order', quote: 'Speed limit is 10 times/s (UID)' },
  { id: 'mix-cancel-plan-order', method: 'POST', path: '/api/v2/mix/order/cancel-plan-order', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/Cancel-Plan-Order', quote: 'Speed limit is 10 times/s (UID)' },
  { id: 'mix-place-tpsl-order', method: 'POST', path: '/api/v2/mix/order/place-tpsl-order', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/Place-Tpsl-Order', quote: 'Speed limit is 10 times/s (UID)' },
  { id: 'mix-place-pos-tpsl', method: 'POST', path: '/api/v2/mix/order/place-pos-tpsl', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/Place-Pos-Tpsl-Order', quote: 'Speed limit is 10 times/s (UID)' },
  { id: 'mix-modify-tpsl-order', method: 'POST', path: '/api/v2/mix/order/modify-tpsl-order', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/Modify-Tpsl-Order', quote: 'Speed limit is 10 times/s (UID)' },
  { id: 'mix-orders-plan-pending', method: 'GET', path: '/api/v2/mix/order/orders-plan-pending', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/get-orders-plan-pending', quote: 'Rate limit: 10 req/sec/UID' },
  { id: 'mix-orders-plan-history', method: 'GET', path: '/api/v2/mix/order/orders-plan-history', auth: 'private', limit: 10, scope: 'uid', page: 'contract/plan/orders-plan-history', quote: 'Speed limit is 10 times/s (UID)' },
  // Futures (mix) market data (per IP).
  { id: 'mix-ticker', method: 'GET', path: '/api/v2/mix/market/ticker', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-Ticker', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-tickers', method: 'GET', path: '/api/v2/mix/market/tickers', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-All-Symbol-Ticker', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-merge-depth', method: 'GET', path: '/api/v2/mix/market/merge-depth', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-Merge-Depth', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-candles', method: 'GET', path: '/api/v2/mix/market/candles', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-Candle-Data', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-contracts', method: 'GET', path: '/api/v2/mix/market/contracts', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-All-Symbols-Contracts', quote: 'Rate Limit: 20 req/sec/IP' },
  { id: 'mix-current-fund-rate', method: 'GET', path: '/api/v2/mix/market/current-fund-rate', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-Current-Funding-Rate', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-history-fund-rate', method: 'GET', path: '/api/v2/mix/market/history-fund-rate', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-History-Funding-Rate', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-funding-time', method: 'GET', path: '/api/v2/mix/market/funding-time', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-Symbol-Next-Funding-Time', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-open-interest', method: 'GET', path: '/api/v2/mix/market/open-interest', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-Open-Interest', quote: 'Frequency limit: 20 times/1s (IP)' },
  {
    id: 'mix-symbol-price',
    method: 'GET',
    path: '/api/v2/mix/market/symbol-price',
    auth: 'public',
    limit: 20,
    scope: 'ip',
    page: 'contract/market/Get-Symbol-Price',
    quote: '20 times/s, frequency is limited according to user ID',
    uncertain: 'the page says the limit is per user ID, but the endpoint is public (unsigned): it is counted per IP, the only key an unsigned request has',
  },
  { id: 'mix-market-fills', method: 'GET', path: '/api/v2/mix/market/fills', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-Recent-Fills', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-fills-history', method: 'GET', path: '/api/v2/mix/market/fills-history', auth: 'public', limit: 10, scope: 'ip', page: 'contract/market/Get-Fills-History', quote: 'Frequency limit: 10 times/1s (IP)' },
  { id: 'mix-history-candles', method: 'GET', path: '/api/v2/mix/market/history-candles', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-History-Candle-Data', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-history-mark-candles', method: 'GET', path: '/api/v2/mix/market/history-mark-candles', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-History-Mark-Candle-Data', quote: 'Frequency limit: 20 times/1s (IP)' },
  { id: 'mix-history-index-candles', method: 'GET', path: '/api/v2/mix/market/history-index-candles', auth: 'public', limit: 20, scope: 'ip', page: 'contract/market/Get-History-Index-Candle-Data', quote: 'Frequency limit: 20 times/1s (IP)' },
];

function provenanceOf(r: Row): Provenance {
  return { source: r.id, confidence: r.uncertain === undefined ? 'documented' : 'uncertain', quote: r.quote };
}

function bucketOf(r: Row): BucketSpec {
  const who = r.scope === 'uid' ? 'per UID (every key of the account)' : 'per IP';
  return {
    id: r.id,
    scope: r.scope,
    algorithm: 'sliding-window',
    limit: r.limit,
    windowMs: 1000,
    provenance: provenanceOf(r),
    description: `${r.method} ${r.path} ${who}${r.uncertain === undefined ? '' : `; ${r.uncertain}`}. The window's kind is not documented: a rolling window is assumed.`,
    ...(r.copyTrader === undefined ? {} : { tiers: { 'copy-trader': { limit: r.copyTrader } } }),
  };
}

function endpointOf(r: Row): EndpointSpec {
  return { id: r.id, method: r.method, path: r.path, auth: r.auth, costs: [{ bucket: r.id, cost: one }], provenance: provenanceOf(r) };
}

const OVERALL: Provenance = {
  source: 'limits',
  confidence: 'documented',
  quote: 'The overall rate limit is 6000/IP/Min',
  deviations: [{ value: 1, reason: 'formula', text: 'every request counts one of the 6000 per IP per minute' }],
};
const ERRORS: Provenance = { source: 'errors', confidence: 'documented', quote: '429 | Too many requests' };

/** Bitget API v2 REST: an overall per-IP limit plus per-endpoint limits. */
export const bitget: VenueSpec = {
  id: 'bitget',
  venue: 'Bitget',
  product: 'API v2 REST (spot, mix futures)',
  markets: ['spot', 'perpetual', 'delivery'],
  origin: 'hand-authored',
  ccxtIds: ['bitget'],
  sources: {
    limits: { url: `${DOC}common/quick-start`, retrieved: RETRIEVED, note: `"Access Restriction" / frequency limit rules; ${COPY}` },
    errors: { url: `${DOC}spot/error-code/restapi`, retrieved: RETRIEVED, note: `REST API error codes; ${COPY}` },
    ...Object.fromEntries(ROWS.map((r): [string, Source] => [r.id, { url: DOC + r.page, retrieved: RETRIEVED, note: COPY }])),
  },
  buckets: [
    {
      id: 'ip',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 6000,
      windowMs: 60_000,
      provenance: OVERALL,
      description: 'every request, per IP ("The rate limit of each API interface is calculated independently; The overall rate limit is 6000/IP/Min"). A rolling window is assumed.',
    },
    ...ROWS.map(bucketOf),
  ],
  global: [{ bucket: 'ip', cost: one, provenance: OVERALL }],
  endpoints: ROWS.map(endpointOf),
  errors: [
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: {
        source: 'limits',
        confidence: 'documented',
        quote: 'Rest API will return 429 status when the access exceeds the frequency limit: the request is too frequent.',
        deviations: [{ value: 1000, reason: 'conservative', text: "Bitget states no wait and documents no usage headers: 1 s, the window of every per-endpoint limit, is the spec's default" }],
      },
      note: "Bitget states no wait and documents no usage headers: 1 s, the window of every per-endpoint limit, is this spec's default",
    },
    {
      id: 'too-many-requests-code',
      body: [{ path: 'code', equals: ['429'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { ...ERRORS, deviations: [{ value: 1000, reason: 'conservative', text: "Bitget states no wait: 1 s, the window of every per-endpoint limit, is the spec's default" }] },
      note: 'the error code 429 in the body, whatever the HTTP status; 1 s as above',
    },
    {
      id: 'cancel-too-frequent',
      body: [{ path: 'code', equals: ['45129'] }],
      verdict: 'rate_limited',
      counted: true,
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: { source: 'errors', confidence: 'documented', quote: '45129 | Cancel order is too frequent, the same orderId is only allowed to be canceled once in a second' },
      note: 'a limit per order id, not per bucket: nothing is held; the wait tells when that order may be cancelled again',
    },
    {
      id: 'too-frequent',
      body: [{ path: 'code', equals: ['13001', '40918', '70228'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 1000 }],
      provenance: {
        source: 'errors',
        confidence: 'documented',
        quote: '13001 | Withdraw is too frequent; 40918 | Traders open positions with orders too frequently; 70228 | The operation is too frequent, please try again later.',
        deviations: [{ value: 1000, reason: 'conservative', text: "Bitget states no wait: 1 s, the window of every per-endpoint limit, is the spec's default" }],
      },
      note: 'no wait is stated: 1 s as above',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'copy-trading traders on spot place-order, spot batch-orders, mix place-order and batch-place-order', was: 'not modelled (10, 5, 10, 5 per s)', now: '1 per s per UID with tier `copy-trader`', source: 'spot-place-order' },
      { what: 'error code 429 in the body (HTTP 200)', was: 'not recognized', now: 'rate limited, charged buckets held 1 s', source: 'errors' },
    ],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 bitget.js',
        what: 'POST /api/v2/spot/trade/batch-orders and /api/v2/mix/order/batch-place-order',
        ours: '5 per s per UID (1 per s for copy traders)',
        theirs: 'cost 20 at rateLimit 50 ms: 1 per s',
        verdict: 'ccxt applies the copy-trader limit to everyone; Bitget documents 5 per s for other users: the documentation is shipped',
      },
      {
        other: 'ccxt 4.5.84 bitget.js',
        what: 'overall limit',
        ours: "6000 per min per IP, plus each endpoint's own limit",
        theirs: 'rateLimit 50 ms: 20 cost units per s (1200 per min) across all endpoints',
        verdict: 'ccxt is a stricter single budget; Bitget documents independent per-endpoint limits under the 6000 per min IP limit: the documentation is shipped',
      },
      { other: 'ccxt 4.5.84 bitget.js', what: 'spot place-order, cancel-order, assets, fills; market tickers, orderbook, candles; cancel-symbol-order', ours: '10, 10, 10, 10; 20, 20, 20; 5 per s', theirs: 'cost 2, 2, 2, 2; 1, 1, 1; 4 (10, 10, 10, 10; 20, 20, 20; 5 per s)', verdict: 'agree' },
      { other: 'hummingbot bitget/bitget_constants.py', what: 'GET /api/v2/public/time', ours: '20 per s per IP', theirs: '10 per s', verdict: 'Hummingbot is stricter; Bitget documents "Frequency limit: 20 times/1s (IP)": the documentation is shipped' },
      { other: 'hummingbot bitget/bitget_constants.py', what: 'overall limit', ours: '6000 per min per IP', theirs: 'none', verdict: 'Hummingbot omits the documented overall limit' },
      { other: 'ccxt 4.5.84 bitget.js', what: 'POST /api/v2/mix/order/click-backhand', ours: '10 per s per UID (1 per s for copy traders)', theirs: 'cost 20 at rateLimit 50 ms: 1 per s', verdict: 'ccxt applies the copy-trader limit to everyone; Bitget documents 10 per s for other users: the documentation is shipped' },
      {
        other: 'ccxt 4.5.84 bitget.js',
        what: 'mix set-margin-mode, set-position-mode, set-margin; bill, fill-history, orders-plan-pending, place-plan-order, cancel-plan-order, place-tpsl-order; history-position; market fills, history-candles, open-interest, funding-time, symbol-price, history-fund-rate',
        ours: '5, 5, 5; 10, 10, 10, 10, 10, 10; 20; 20, 20, 20, 20, 20, 20 per s',
        theirs: 'cost 4, 4, 4; 2, 2, 2, 2, 2, 2; 1; 1, 1, 1, 1, 1, 1 (the same rates)',
        verdict: 'agree',
      },
      { other: 'hummingbot bitget_perpetual/bitget_perpetual_constants.py', what: 'mix open-interest, symbol-price, funding-time; set-position-mode, set-margin-mode; account bill', ours: '20, 20, 20; 5, 5; 10 per s', theirs: 'the same', verdict: 'agree' },
      {
        other: 'hummingbot bitget/bitget_constants.py and bitget_perpetual_constants.py',
        what: 'place, cancel, assets, orderInfo, fills, orderbook, symbols, tickers; mix ticker, contracts, merge-depth, set-leverage, all-position, place, cancel, detail, fills, accounts',
        ours: '10, 10, 10, 20, 10, 20, 20, 20; 20, 20, 20, 5, 5, 10, 10, 10, 10, 10 per s',
        theirs: 'the same',
        verdict: 'agree',
      },
    ],
  },
  notes: [
    'Per-UID limits are shared by every API key of the account: users with several keys of one account must pass the same `uid` in the identity.',
    'Copy-trading traders: pass tier `copy-trader` (1 request per second on the order-placing endpoints that state it).',
    'Bitget documents no usage headers. Endpoints not listed do not resolve (each endpoint has its own documented limit).',
  ],
};
