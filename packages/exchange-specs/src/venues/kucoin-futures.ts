import type { BucketSpec, EndpointSpec, Provenance, Source, VenueSpec } from '../venue-spec.js';
import { KUCOIN_429_RULES, kucoinUsageHeaders } from './kucoin-rules.js';

/*
 * KuCoin futures REST (api-futures.kucoin.com). The pools are quoted from KuCoin's rate-limit page;
 * every endpoint's pool and weight from KuCoin's own API specification (Kucoin/kucoin-universal-sdk
 * @78c90c7, spec/rest/api/openapi-*.json: `x-api-rate-limit-pool`, `x-api-rate-limit-weight`, and
 * `x-api-doc`, the endpoint's documentation page). Read 2026-12-01.
 */

const RETRIEVED = '2026-12-01';
const SDK_COMMIT = '78c90c77d749e4e57d61e99b7c04f090150e08d2';

const POOL_TABLE =
  'Level | Spot (include Margin) | Futures | Management | Earn | CopyTrading | Public | ' +
  'VIP0 | 4000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP1 | 6000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP2 | 8000/30s | 4000/30s | 4000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP3 | 10000/30s | 5000/30s | 5000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP4 | 13000/30s | 6000/30s | 6000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP5 | 16000/30s | 7000/30s | 7000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP6 | 20000/30s | 8000/30s | 8000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP7 | 23000/30s | 10000/30s | 10000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP8 | 26000/30s | 12000/30s | 12000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP9 | 30000/30s | 14000/30s | 14000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP10 | 33000/30s | 16000/30s | 16000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP11 | 36000/30s | 18000/30s | 18000/30s | 2000/30s | 2000/30s | 2000/30s | ' +
  'VIP12 | 40000/30s | 20000/30s | 20000/30s | 2000/30s | 2000/30s | 2000/30s';
const WINDOW = "When a user requests any API, the weight of this interface will be deducted and updated every 30s (starting from the arrival time of the user's first request).";
const SCOPE_PUBLIC = 'It is based on IP rate limitation.';
const SCOPE_PRIVATE = 'With the exception of Public resource pool endpoints, all other resource pools are based on UID';

const FUTURES_TIERS: Readonly<Record<string, number>> = { vip0: 2000, vip1: 2000, vip2: 4000, vip3: 5000, vip4: 6000, vip5: 7000, vip6: 8000, vip7: 10000, vip8: 12000, vip9: 14000, vip10: 16000, vip11: 18000, vip12: 20000 };

type Pool = 'futures' | 'copy-trading' | 'public';
/** The pool names as KuCoin's specification spells them. */
const POOL_NAME: Readonly<Record<Pool, string>> = { futures: 'Futures', 'copy-trading': 'CopyTrading', public: 'Public' };
type SdkFile = 'order' | 'positions' | 'market' | 'fundingfees' | 'account' | 'subaccount' | 'fee' | 'copytrading';
const SDK_PATH: Readonly<Record<SdkFile, string>> = {
  order: 'openapi-futures-order.json',
  positions: 'openapi-futures-positions.json',
  market: 'openapi-futures-market.json',
  fundingfees: 'openapi-futures-fundingfees.json',
  account: 'openapi-account-account.json',
  subaccount: 'openapi-account-subaccount.json',
  fee: 'openapi-account-fee.json',
  copytrading: 'openapi-copytrading-futures.json',
};

/**
 * One endpoint: id, method, path, pool, weight, its specification file, its documentation page
 * (`api-<n>`), and whether KuCoin marks it deprecated (`x-abandon: abandon`).
 */
type Row = readonly [id: string, method: EndpointSpec['method'], path: string, pool: Pool, weight: number, file: SdkFile, page: number, deprecated?: true];

const ROWS: readonly Row[] = [
  // Orders (Futures pool).
  ['add-order', 'POST', '/api/v1/orders', 'futures', 2, 'order', 3470235],
  ['add-order-test', 'POST', '/api/v1/orders/test', 'futures', 2, 'order', 3470238],
  ['batch-add-orders', 'POST', '/api/v1/orders/multi', 'futures', 20, 'order', 3470236],
  ['add-tpsl-order', 'POST', '/api/v1/st-orders', 'futures', 2, 'order', 3470237],
  ['cancel-order', 'DELETE', '/api/v1/orders/{orderId}', 'futures', 1, 'order', 3470239],
  ['cancel-order-by-client-oid', 'DELETE', '/api/v1/orders/client-order/{clientOid}', 'futures', 1, 'order', 3470240],
  ['batch-cancel-orders', 'DELETE', '/api/v1/orders/multi-cancel', 'futures', 20, 'order', 3470241],
  ['cancel-all-orders', 'DELETE', '/api/v3/orders', 'futures', 10, 'order', 3470242],
  ['cancel-all-orders-v1', 'DELETE', '/api/v1/orders', 'futures', 800, 'order', 3470362, true],
  ['cancel-all-stop-orders', 'DELETE', '/api/v1/stopOrders', 'futures', 15, 'order', 3470243],
  ['order-list', 'GET', '/api/v1/orders', 'futures', 2, 'order', 3470244],
  ['order', 'GET', '/api/v1/orders/{orderId}', 'futures', 5, 'order', 3470245],
  ['order-by-client-oid', 'GET', '/api/v1/orders/byClientOid', 'futures', 5, 'order', 3470352],
  ['recent-closed-orders', 'GET', '/api/v1/recentDoneOrders', 'futures', 5, 'order', 3470246],
  ['stop-order-list', 'GET', '/api/v1/stopOrders', 'futures', 6, 'order', 3470247],
  ['open-order-value', 'GET', '/api/v1/openOrderStatistics', 'futures', 10, 'order', 3470250],
  ['fills', 'GET', '/api/v1/fills', 'futures', 5, 'order', 3470248],
  // Positions, leverage, margin (Futures pool).
  ['margin-mode', 'GET', '/api/v2/position/getMarginMode', 'futures', 2, 'positions', 3470259],
  ['change-margin-mode', 'POST', '/api/v2/position/changeMarginMode', 'futures', 2, 'positions', 3470262],
  ['batch-change-margin-mode', 'POST', '/api/v2/position/batchChangeMarginMode', 'futures', 2, 'positions', 3472403],
  ['max-open-size', 'GET', '/api/v2/getMaxOpenSize', 'futures', 2, 'positions', 3470251],
  ['position', 'GET', '/api/v1/position', 'futures', 2, 'positions', 3470252],
  ['positions', 'GET', '/api/v1/positions', 'futures', 2, 'positions', 3470253],
  ['history-positions', 'GET', '/api/v1/history-positions', 'futures', 2, 'positions', 3470254],
  ['max-withdraw-margin', 'GET', '/api/v1/margin/maxWithdrawMargin', 'futures', 10, 'positions', 3470258],
  ['cross-leverage', 'GET', '/api/v2/getCrossUserLeverage', 'futures', 2, 'positions', 3470260],
  ['change-cross-leverage', 'POST', '/api/v2/changeCrossUserLeverage', 'futures', 2, 'positions', 3470261],
  ['add-isolated-margin', 'POST', '/api/v1/position/margin/deposit-margin', 'futures', 4, 'positions', 3470257],
  ['remove-isolated-margin', 'POST', '/api/v1/margin/withdrawMargin', 'futures', 10, 'positions', 3470256],
  ['cross-risk-limit', 'GET', '/api/v2/batchGetCrossOrderLimit', 'futures', 2, 'positions', 3472655],
  ['change-risk-limit-level', 'POST', '/api/v1/position/risk-limit-level/change', 'futures', 5, 'positions', 3470264],
  ['auto-deposit-status', 'POST', '/api/v1/position/margin/auto-deposit-status', 'futures', 4, 'positions', 3470255, true],
  ['isolated-risk-limit', 'GET', '/api/v1/contracts/risk-limit/{symbol}', 'public', 5, 'positions', 3470263],
  // Funding fees.
  ['private-funding-history', 'GET', '/api/v1/funding-history', 'futures', 5, 'fundingfees', 3470267],
  ['current-funding-rate', 'GET', '/api/v1/funding-rate/{symbol}/current', 'public', 2, 'fundingfees', 3470265],
  ['public-funding-history', 'GET', '/api/v1/contract/funding-rates', 'public', 5, 'fundingfees', 3470266],
  // Account (Futures pool).
  ['account-overview', 'GET', '/api/v1/account-overview', 'futures', 5, 'account', 3470129],
  ['account-ledgers', 'GET', '/api/v1/transaction-history', 'futures', 2, 'account', 3470124],
  ['sub-account-balances', 'GET', '/api/v1/account-overview-all', 'futures', 6, 'subaccount', 3470134],
  ['trade-fees', 'GET', '/api/v1/trade-fees', 'futures', 3, 'fee', 3470151],
  ['bullet-private', 'POST', '/api/v1/bullet-private', 'futures', 10, 'market', 3470296],
  // Market data (Public pool, per IP).
  ['symbol', 'GET', '/api/v1/contracts/{symbol}', 'public', 3, 'market', 3470221],
  ['symbols', 'GET', '/api/v1/contracts/active', 'public', 3, 'market', 3470220],
  ['ticker', 'GET', '/api/v1/ticker', 'public', 2, 'market', 3470222],
  ['all-tickers', 'GET', '/api/v1/allTickers', 'public', 5, 'market', 3470223],
  ['full-orderbook', 'GET', '/api/v1/level2/snapshot', 'public', 3, 'market', 3470224],
  ['part-orderbook', 'GET', '/api/v1/level2/depth{size}', 'public', 5, 'market', 3470225],
  ['trade-history', 'GET', '/api/v1/trade/history', 'public', 5, 'market', 3470232],
  ['klines', 'GET', '/api/v1/kline/query', 'public', 3, 'market', 3470234],
  ['mark-price', 'GET', '/api/v1/mark-price/{symbol}/current', 'public', 3, 'market', 3470233],
  ['index-price', 'GET', '/api/v1/index/query', 'public', 2, 'market', 3470231],
  ['interest-rate', 'GET', '/api/v1/interest/query', 'public', 5, 'market', 3470226],
  ['premium-index', 'GET', '/api/v1/premium/query', 'public', 3, 'market', 3470227],
  ['server-time', 'GET', '/api/v1/timestamp', 'public', 2, 'market', 3470229],
  ['service-status', 'GET', '/api/v1/status', 'public', 4, 'market', 3470230],
  ['bullet-public', 'POST', '/api/v1/bullet-public', 'public', 10, 'market', 3470297],
  // Copy trading (CopyTrading pool).
  ['copy-add-order', 'POST', '/api/v1/copy-trade/futures/orders', 'copy-trading', 2, 'copytrading', 3470363],
  ['copy-add-order-test', 'POST', '/api/v1/copy-trade/futures/orders/test', 'copy-trading', 2, 'copytrading', 3470618],
  ['copy-add-tpsl-order', 'POST', '/api/v1/copy-trade/futures/st-orders', 'copy-trading', 2, 'copytrading', 3470619],
  ['copy-cancel-order', 'DELETE', '/api/v1/copy-trade/futures/orders', 'copy-trading', 1, 'copytrading', 3470620],
  ['copy-cancel-order-by-client-oid', 'DELETE', '/api/v1/copy-trade/futures/orders/client-order', 'copy-trading', 1, 'copytrading', 3470621],
  ['copy-max-open-size', 'GET', '/api/v1/copy-trade/futures/get-max-open-size', 'copy-trading', 4, 'copytrading', 3470612],
  ['copy-max-withdraw-margin', 'GET', '/api/v1/copy-trade/futures/position/margin/max-withdraw-margin', 'copy-trading', 10, 'copytrading', 3470616],
  ['copy-add-isolated-margin', 'POST', '/api/v1/copy-trade/futures/position/margin/deposit-margin', 'copy-trading', 4, 'copytrading', 3470614],
  ['copy-remove-isolated-margin', 'POST', '/api/v1/copy-trade/futures/position/margin/withdraw-margin', 'copy-trading', 10, 'copytrading', 3470615],
  ['copy-change-risk-limit-level', 'POST', '/api/v1/copy-trade/futures/position/risk-limit-level/change', 'copy-trading', 2, 'copytrading', 3470613],
  ['copy-auto-deposit-status', 'POST', '/api/v1/copy-trade/futures/position/margin/auto-deposit-status', 'copy-trading', 4, 'copytrading', 3470617],
];

const sdkQuote = (pool: Pool, weight: number, page: number): string => `x-api-rate-limit-pool: ${POOL_NAME[pool]} | x-api-rate-limit-weight: ${weight} | x-api-doc: https://www.kucoin.com/docs-new/api-${page}`;

function ep([id, method, path, pool, weight, file, page, deprecated]: Row): EndpointSpec {
  const provenance: Provenance = { source: `sdk-${file}`, confidence: 'documented', quote: sdkQuote(pool, weight, page) };
  const notes = [...(deprecated === true ? ['KuCoin marks this endpoint deprecated (x-abandon: abandon)'] : []), ...(pool === 'public' && id === 'isolated-risk-limit' ? ['a signed endpoint KuCoin charges to the Public pool (per IP)'] : [])];
  return {
    id,
    method,
    path,
    auth: pool === 'public' && id !== 'isolated-risk-limit' ? 'public' : 'private',
    provenance,
    costs: [{ bucket: pool, cost: { kind: 'constant', value: weight } }],
    ...(notes.length === 0 ? {} : { note: notes.join('; ') }),
  };
}

/** GET /api/v1/recentFills: KuCoin's specification names its pool (Futures) but no weight. */
const RECENT_FILLS: EndpointSpec = {
  id: 'recent-fills',
  method: 'GET',
  path: '/api/v1/recentFills',
  auth: 'private',
  costs: [{ bucket: 'futures', cost: { kind: 'constant', value: 5 } }],
  provenance: {
    source: 'sdk-order',
    confidence: 'uncertain',
    quote: 'x-api-rate-limit-pool: Futures | x-api-doc: https://www.kucoin.com/docs-new/api-3470249',
    deviations: [{ value: 5, reason: 'conservative', text: 'KuCoin states the pool but no weight: 5, the weight of GET /api/v1/fills, is charged (ccxt charges 3)' }],
  },
  note: 'KuCoin states the pool but no weight for this endpoint: 5, the weight of GET /api/v1/fills, is charged (ccxt charges 3)',
};

const sdkSources: Record<string, Source> = Object.fromEntries(
  (Object.entries(SDK_PATH) as [SdkFile, string][]).map(([file, path]) => [
    `sdk-${file}`,
    {
      url: `https://github.com/Kucoin/kucoin-universal-sdk/blob/${SDK_COMMIT}/spec/rest/api/${path}`,
      retrieved: RETRIEVED,
      note: "KuCoin's API specification (the universal SDK is generated from it): each endpoint's x-api-rate-limit-pool, x-api-rate-limit-weight and x-api-doc (its page at kucoin.com/docs-new)",
    } satisfies Source,
  ]),
);

const tiers = (t: Readonly<Record<string, number>>) => Object.fromEntries(Object.entries(t).map(([k, limit]) => [k, { limit }]));

const poolBucket = (id: Pool, limit: number, description: string, extra: Partial<BucketSpec> = {}): BucketSpec =>
  ({
    id,
    scope: id === 'public' ? 'ip' : 'uid',
    algorithm: 'fixed-window-anchored',
    limit,
    windowMs: 30_000,
    provenance: { source: 'rateLimit', confidence: 'documented', quote: `${POOL_TABLE} | ${WINDOW} | ${id === 'public' ? SCOPE_PUBLIC : SCOPE_PRIVATE}` },
    description,
    ...extra,
  }) as BucketSpec;

/** KuCoin futures REST (api-futures.kucoin.com): resource pools of weight per 30 s, anchored at the first request. */
export const kucoinFutures: VenueSpec = {
  id: 'kucoin-futures',
  venue: 'KuCoin',
  product: 'futures REST (api-futures.kucoin.com): perpetual and delivery contracts, copy trading',
  markets: ['perpetual', 'delivery'],
  origin: 'hand-authored',
  ccxtIds: ['kucoinfutures'],
  defaultTier: 'vip0',
  sources: {
    rateLimit: { url: 'https://www.kucoin.com/docs-new/rate-limit', retrieved: RETRIEVED, note: 'REST rate limit: resource pools per VIP level, weight, request header, public and private endpoints; read from a verbatim copy of the page (rosssaunders/coincise@c836b49, docs/kucoin/rate_limits.md, 2025-11-09)' },
    ...sdkSources,
  },
  buckets: [
    poolBucket('futures', 2000, 'Futures pool per UID (each sub-account its own), raised per VIP level (tiers vip0 to vip12)', { tiers: tiers(FUTURES_TIERS) }),
    poolBucket('copy-trading', 2000, 'CopyTrading pool per UID, 2000 per 30 s at every VIP level'),
    poolBucket('public', 2000, 'Public pool per IP, 2000 per 30 s at every VIP level. KuCoin names one Public pool: the spot spec (`kucoin`) counts the same pool separately, so a process using both specs from one IP must leave room for the other'),
  ],
  endpoints: [...ROWS.map(ep), RECENT_FILLS],
  feedback: [kucoinUsageHeaders(['futures', 'copy-trading', 'public'])],
  errors: [...KUCOIN_429_RULES],
  verification: {
    checked: RETRIEVED,
    corrections: [],
    crossChecks: [
      { other: 'ccxt 4.5.84 kucoinfutures.js (kucoin.js futuresPublic/futuresPrivate)', what: 'POST /api/v1/orders/multi', ours: 'weight 20', theirs: 'cost 6 ("3FW")', verdict: "KuCoin's specification says x-api-rate-limit-weight 20; ccxt charges less than a sixth of it" },
      { other: 'ccxt 4.5.84 kucoinfutures.js', what: 'DELETE /api/v1/orders (cancel all, v1)', ours: 'weight 800 (deprecated; DELETE /api/v3/orders costs 10)', theirs: 'cost 20 ("10FW")', verdict: "KuCoin's specification says 800 for the v1 endpoint; ccxt's 10 is the v3 weight" },
      { other: 'ccxt 4.5.84 kucoinfutures.js', what: 'POST /api/v1/margin/withdrawMargin', ours: 'weight 10', theirs: 'cost 10 (5 futures weight; its comment says 10FW)', verdict: "KuCoin's specification says 10; ccxt charges half" },
      { other: 'ccxt 4.5.84 kucoinfutures.js', what: 'GET /api/v1/level2/depth100', ours: 'weight 5 (level2/depth{size})', theirs: 'cost 20 ("10PW")', verdict: 'KuCoin documents one endpoint level2/depth{size} at weight 5; ccxt is stricter' },
      { other: 'ccxt 4.5.84 kucoinfutures.js', what: 'GET /api/v1/contracts/risk-limit/{symbol}', ours: 'weight 5 on the Public pool', theirs: 'cost 3 (public) or 10 (private, "5FW")', verdict: "KuCoin's specification puts it in the Public pool at weight 5" },
      { other: 'ccxt 4.5.84 kucoinfutures.js', what: 'GET /api/v1/recentFills', ours: 'weight 5 (uncertain: KuCoin states none)', theirs: 'cost 6 ("3FW")', verdict: "undocumented weight; the higher of ccxt's 3 and the fills endpoint's documented 5 is charged" },
      {
        other: 'ccxt 4.5.84 kucoinfutures.js',
        what: 'the pools',
        ours: 'Futures per UID (2000 per 30 s at VIP0, tiers to 20000), Public per IP, CopyTrading per UID',
        theirs: 'one limiter at rateLimit 7.5 ms (4000 units per 30 s), futures weights doubled',
        verdict: 'the same VIP0 Futures budget on one limiter; KuCoin documents separate pools and VIP tiers',
      },
      {
        other: 'ccxt 4.5.84 kucoinfutures.js',
        what: 'POST /api/v1/orders, DELETE /api/v1/orders/{orderId}, GET /api/v1/orders, /positions, /fills, /account-overview, /ticker, /level2/snapshot, /kline/query',
        ours: 'weights 2, 1, 2, 2, 5, 5, 2, 3, 3',
        theirs: 'costs 4, 2, 4, 4, 10, 10, 4, 6, 6 (the same weights doubled)',
        verdict: 'agree',
      },
      {
        other: 'hummingbot kucoin_perpetual/kucoin_perpetual_constants.py',
        what: 'order, cancel, order status, positions and fills endpoints',
        ours: 'weights on the 30 s Futures pool',
        theirs: "per-endpoint request limits per 3 s (orders 25, cancels 35, order status 30, positions and fills 9) from KuCoin's earlier per-endpoint limits",
        verdict: "KuCoin's current documentation uses the weighted resource pools quoted here",
      },
    ],
  },
  notes: [
    'Each sub-account has its own UID pools: KuCoin states that the rate limits of a sub-account and its master account are independent.',
    'VIP level: pass tier `vip0` to `vip12` (the default is vip0, the lowest).',
    'The Public pool is per IP and shared with the spot API (spec `kucoin`), which counts it separately; so is the Management pool (transfers), whose endpoints are in the spot spec.',
    "KuCoin's unified trading account (the /api/ua/v1 endpoints on api.kucoin.com) has a pool of its own: spec `kucoin-unified`.",
    'Not modelled: GET /api/v1/trade-statistics, which KuCoin lists as a public-channel endpoint charged to the Futures (per UID) pool.',
  ],
};
