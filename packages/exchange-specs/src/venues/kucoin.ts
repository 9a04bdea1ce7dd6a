import type { EndpointSpec, Provenance, Source, VenueSpec } from '../venue-spec.js';
import { KUCOIN_429_RULES, kucoinUsageHeaders } from './kucoin-rules.js';

/*
 * The pools are quoted from KuCoin's rate-limit page; every endpoint's pool and weight from its own
 * documentation page ("Extra API Info": API-RATE-LIMIT-POOL, API-RATE-LIMIT-WEIGHT), the same values
 * KuCoin's universal SDK carries per endpoint (Kucoin/kucoin-universal-sdk @78c90c7, spec/rest/api).
 * Read 2026-12-01.
 */

const RETRIEVED = '2026-12-01';

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

const spotTiers = { vip0: 4000, vip1: 6000, vip2: 8000, vip3: 10000, vip4: 13000, vip5: 16000, vip6: 20000, vip7: 23000, vip8: 26000, vip9: 30000, vip10: 33000, vip11: 36000, vip12: 40000 };
const mgmtTiers = { vip0: 2000, vip1: 2000, vip2: 4000, vip3: 5000, vip4: 6000, vip5: 7000, vip6: 8000, vip7: 10000, vip8: 12000, vip9: 14000, vip10: 16000, vip11: 18000, vip12: 20000 };
const tiers = (t: Record<string, number>) => Object.fromEntries(Object.entries(t).map(([k, limit]) => [k, { limit }]));

type Pool = 'spot' | 'management' | 'public';
const POOL_NAME: Readonly<Record<Pool, string>> = { spot: 'SPOT', management: 'MANAGEMENT', public: 'PUBLIC' };

/** One endpoint: id, method, path, pool, weight, its documentation page (`api-<n>`), and whether KuCoin marks it deprecated. */
type Row = readonly [id: string, method: EndpointSpec['method'], path: string, pool: Pool, weight: number, page: number, deprecated?: true];

const ROWS: readonly Row[] = [
  ['hf-add-order', 'POST', '/api/v1/hf/orders', 'spot', 1, 3470188],
  ['hf-add-order-sync', 'POST', '/api/v1/hf/orders/sync', 'spot', 1, 3470170],
  ['hf-batch-orders', 'POST', '/api/v1/hf/orders/multi', 'spot', 1, 3470168],
  ['hf-batch-orders-sync', 'POST', '/api/v1/hf/orders/multi/sync', 'spot', 1, 3470169],
  ['hf-modify-order', 'POST', '/api/v1/hf/orders/alter', 'spot', 1, 3470171],
  ['hf-cancel-order', 'DELETE', '/api/v1/hf/orders/{orderId}', 'spot', 1, 3470174],
  ['hf-cancel-order-sync', 'DELETE', '/api/v1/hf/orders/sync/{orderId}', 'spot', 1, 3470185],
  ['hf-cancel-by-client-oid', 'DELETE', '/api/v1/hf/orders/client-order/{clientOid}', 'spot', 1, 3470184],
  ['hf-cancel-by-client-oid-sync', 'DELETE', '/api/v1/hf/orders/sync/client-order/{clientOid}', 'spot', 1, 3470186],
  ['hf-cancel-all-by-symbol', 'DELETE', '/api/v1/hf/orders', 'spot', 2, 3470175],
  ['hf-cancel-all', 'DELETE', '/api/v1/hf/orders/cancelAll', 'spot', 30, 3470176],
  ['hf-open-orders', 'GET', '/api/v1/hf/orders/active', 'spot', 2, 3470178],
  ['hf-closed-orders', 'GET', '/api/v1/hf/orders/done', 'spot', 2, 3470179],
  ['hf-order', 'GET', '/api/v1/hf/orders/{orderId}', 'spot', 2, 3470181],
  ['hf-order-by-client-oid', 'GET', '/api/v1/hf/orders/client-order/{clientOid}', 'spot', 2, 3470182],
  ['hf-fills', 'GET', '/api/v1/hf/fills', 'spot', 2, 3470180],
  ['add-order', 'POST', '/api/v1/orders', 'spot', 2, 3470333, true],
  ['cancel-all-orders', 'DELETE', '/api/v1/orders', 'spot', 20, 3470345, true],
  ['list-orders', 'GET', '/api/v1/orders', 'spot', 2, 3470346, true],
  ['fills', 'GET', '/api/v1/fills', 'spot', 10, 3470350, true],
  ['accounts', 'GET', '/api/v1/accounts', 'management', 5, 3470125],
  ['account', 'GET', '/api/v1/accounts/{accountId}', 'management', 5, 3470126],
  ['full-orderbook', 'GET', '/api/v3/market/orderbook/level2', 'spot', 3, 3470164],
  ['all-tickers', 'GET', '/api/v1/market/allTickers', 'public', 15, 3470167],
  ['ticker', 'GET', '/api/v1/market/orderbook/level1', 'public', 2, 3470160],
  ['stats', 'GET', '/api/v1/market/stats', 'public', 15, 3470161],
  ['level2-20', 'GET', '/api/v1/market/orderbook/level2_20', 'public', 2, 3470165],
  ['level2-100', 'GET', '/api/v1/market/orderbook/level2_100', 'public', 2, 3470165],
  ['trade-histories', 'GET', '/api/v1/market/histories', 'public', 3, 3470162],
  ['candles', 'GET', '/api/v1/market/candles', 'public', 3, 3470163],
  ['symbols', 'GET', '/api/v2/symbols', 'public', 4, 3470154],
  ['timestamp', 'GET', '/api/v1/timestamp', 'public', 3, 3470156],
  ['bullet-public', 'POST', '/api/v1/bullet-public', 'public', 10, 3470294],
  ['bullet-private', 'POST', '/api/v1/bullet-private', 'spot', 10, 3470295],
];

const pageSource = (page: number): string => `api-${page}`;

/**
 * Endpoints ccxt calls that the spec priced nowhere before 2026-12-07, read that day from KuCoin's universal
 * SDK (spec/rest/api at @78c90c7, the OpenAPI files KuCoin generates its SDKs from; each names its page): id,
 * path, pool, weight, SDK file, the page the SDK names.
 */
const FROM_SDK: readonly (readonly [string, string, Pool, number, string, number])[] = [
  ['currencies', '/api/v3/currencies', 'public', 3, 'spot-market', 3470152],
  ['margin-symbols', '/api/v3/margin/symbols', 'public', 3, 'margin-market', 3470189],
  ['isolated-symbols', '/api/v1/isolated/symbols', 'public', 3, 'margin-market', 3470194],
  ['hf-accounts-opened', '/api/v1/hf/accounts/opened', 'spot', 30, 'account-account', 3470120],
];
const SDK_COMMIT = '78c90c77d749e4e57d61e99b7c04f090150e08d2';
const SDK_POOL: Readonly<Record<Pool, string>> = { spot: 'Spot', management: 'Management', public: 'Public' };

function sdkEp([id, path, pool, weight, file]: (typeof FROM_SDK)[number]): EndpointSpec {
  const quote = `"x-api-rate-limit-pool": "${SDK_POOL[pool]}", … "x-api-rate-limit-weight": ${weight}`;
  return { id, method: 'GET', path, auth: pool === 'public' ? 'public' : 'private', provenance: { source: `sdk-${id}`, confidence: 'documented', quote }, costs: [{ bucket: pool, cost: { kind: 'constant', value: weight } }] };
}

const sdkSources: Record<string, Source> = Object.fromEntries(
  FROM_SDK.map(([id, path, , , file, page]) => [
    `sdk-${id}`,
    {
      url: `https://github.com/Kucoin/kucoin-universal-sdk/blob/${SDK_COMMIT}/spec/rest/api/openapi-${file}.json`,
      retrieved: '2026-12-07',
      note: `KuCoin's universal SDK OpenAPI description, operation GET ${path} ("x-api-doc": "https://www.kucoin.com/docs-new/api-${page}")`,
    },
  ]),
);

function ep([id, method, path, pool, weight, page, deprecated]: Row): EndpointSpec {
  const provenance: Provenance = { source: pageSource(page), confidence: 'documented', quote: `API-RATE-LIMIT-POOL | ${POOL_NAME[pool]} | API-RATE-LIMIT-WEIGHT | ${weight}` };
  return {
    id,
    method,
    path,
    auth: pool === 'public' ? 'public' : 'private',
    provenance,
    costs: [{ bucket: pool, cost: { kind: 'constant', value: weight } }],
    ...(deprecated === true ? { note: 'KuCoin marks this endpoint deprecated (the classic, non-HF spot API)' } : {}),
  };
}

const pageSources: Record<string, Source> = Object.fromEntries(ROWS.map(([, , , , , page]) => [pageSource(page), { url: `https://www.kucoin.com/docs-new/api-${page}`, retrieved: RETRIEVED, note: '"Extra API Info" table; the same pool and weight in Kucoin/kucoin-universal-sdk @78c90c7 spec/rest/api' }]));

/** KuCoin spot REST (api.kucoin.com): resource pools of weight per 30 s, anchored at the first request. */
export const kucoin: VenueSpec = {
  id: 'kucoin',
  venue: 'KuCoin',
  product: 'spot and account REST (api.kucoin.com)',
  markets: ['spot', 'margin', 'wallet'],
  origin: 'hand-authored',
  ccxtIds: ['kucoin'],
  defaultTier: 'vip0',
  sources: {
    rateLimit: { url: 'https://www.kucoin.com/docs-new/rate-limit', retrieved: RETRIEVED, note: 'REST rate limit: resource pools, weight, request header, public and private endpoints (later versions of the page add a "Unified Account" column, which concerns the unified-account endpoints only)' },
    ...pageSources,
    ...sdkSources,
  },
  buckets: [
    {
      id: 'spot',
      scope: 'uid',
      algorithm: 'fixed-window-anchored',
      limit: 4000,
      windowMs: 30_000,
      tiers: tiers(spotTiers),
      provenance: { source: 'rateLimit', confidence: 'documented', quote: `${POOL_TABLE} | ${WINDOW} | ${SCOPE_PRIVATE}` },
      description: 'Spot (including margin) pool per UID; each sub-account has its own',
    },
    {
      id: 'management',
      scope: 'uid',
      algorithm: 'fixed-window-anchored',
      limit: 2000,
      windowMs: 30_000,
      tiers: tiers(mgmtTiers),
      provenance: { source: 'rateLimit', confidence: 'documented', quote: `${POOL_TABLE} | ${WINDOW} | ${SCOPE_PRIVATE}` },
      description: 'Management pool per UID (accounts, transfers, deposits)',
    },
    {
      id: 'public',
      scope: 'ip',
      algorithm: 'fixed-window-anchored',
      limit: 2000,
      windowMs: 30_000,
      provenance: { source: 'rateLimit', confidence: 'documented', quote: `${POOL_TABLE} | ${WINDOW} | ${SCOPE_PUBLIC}` },
      description: 'Public pool per IP, 2000 per 30 s at every VIP level',
    },
  ],
  endpoints: [...ROWS.map(ep), ...FROM_SDK.map(sdkEp)],
  feedback: [kucoinUsageHeaders(['spot', 'management', 'public'])],
  errors: [...KUCOIN_429_RULES],
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'GET /api/v1/market/orderbook/level2_100 weight', was: '4', now: '2 (one documented endpoint, level2_{size}, for 20 and 100 levels)', source: pageSource(3470165) },
      { what: 'overloaded (429000 without headers) confidence', was: 'uncertain', now: 'documented: "This type of rate limit does not count toward the number of rate limits."', source: 'rateLimit' },
    ],
    crossChecks: [
      { other: 'ccxt 4.5.84 kucoin.js', what: 'GET /api/v1/market/orderbook/level2_100', ours: 'weight 2', theirs: 'cost 4', verdict: 'KuCoin documents API-RATE-LIMIT-WEIGHT 2 for level2_{size} (and its SDK carries 2); ccxt charges more' },
      {
        other: 'ccxt 4.5.84 kucoin.js',
        what: 'the pools',
        ours: 'three pools (Spot per UID, Management per UID, Public per IP), each with its own quota',
        theirs: 'one limiter at rateLimit 7.5 ms (4,000 per 30 s), the 2,000-per-30 s pools as double costs',
        verdict: 'KuCoin documents separate pools; ccxt approximates them on one limiter',
      },
      {
        other: 'hummingbot kucoin/kucoin_constants.py',
        what: 'order and fills endpoints',
        ours: 'weights on the 30 s resource pools',
        theirs: "per-endpoint request limits (45 orders per 3 s, 9 fills requests per 3 s) from KuCoin's earlier rate-limit version",
        verdict: "KuCoin's current documentation uses the weighted resource pools quoted here",
      },
    ],
  },
  notes: ['Futures (api-futures.kucoin.com), Earn, CopyTrading and unified-account pools are separate products, not modelled here.', 'Each sub-account has its own UID pools: KuCoin states that the rate limits of a sub-account and its master account are independent.'],
};
