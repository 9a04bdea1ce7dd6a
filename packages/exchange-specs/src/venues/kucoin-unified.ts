import type { EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';
import { KUCOIN_429_RULES, kucoinUsageHeaders } from './kucoin-rules.js';

/*
 * KuCoin's unified trading account REST (the /api/ua/v1 endpoints on api.kucoin.com), which trades
 * spot, margin and futures from one account with a resource pool of its own. The pool is quoted from
 * KuCoin's rate-limit page, read 2026-12-01 from stored copies of two versions of it. KuCoin's
 * per-endpoint weights of these endpoints could not be read (their pages are not in any copy this
 * spec could consult, and KuCoin's universal SDK @78c90c7 does not cover them yet): every endpoint's
 * weight is the one ccxt 4.5.84 and JKorf/Kucoin.Net both charge, independently and identically, and
 * is marked uncertain.
 */

const RETRIEVED = '2026-12-01';
/** The date the per-endpoint weights were read from JKorf/Kucoin.Net and ccxt. */
const WEIGHTS_READ = '2026-12-07';
const KUCOIN_NET = 'https://github.com/JKorf/Kucoin.Net/blob/04e948d11ac2dc8694fbb0a4676a51050af9abde/Kucoin.Net/Clients/UnifiedApi';
const NET_NOTE = "JKorf/Kucoin.Net @04e948d (2026-08-07), a third-party client: each request definition names the limiter (KuCoin's pool) and the weight. KuCoin's own per-endpoint pages could not be read";

/** The other columns of the table, the same in both versions of the page (Spot, Futures, Management, Earn, CopyTrading, Public). */
const OTHER_COLUMNS = [
  '4000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s',
  '6000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s | 2000/30s',
  '8000/30s | 4000/30s | 4000/30s | 2000/30s | 2000/30s | 2000/30s',
  '10000/30s | 5000/30s | 5000/30s | 2000/30s | 2000/30s | 2000/30s',
  '13000/30s | 6000/30s | 6000/30s | 2000/30s | 2000/30s | 2000/30s',
  '16000/30s | 7000/30s | 7000/30s | 2000/30s | 2000/30s | 2000/30s',
  '20000/30s | 8000/30s | 8000/30s | 2000/30s | 2000/30s | 2000/30s',
  '23000/30s | 10000/30s | 10000/30s | 2000/30s | 2000/30s | 2000/30s',
  '26000/30s | 12000/30s | 12000/30s | 2000/30s | 2000/30s | 2000/30s',
  '30000/30s | 14000/30s | 14000/30s | 2000/30s | 2000/30s | 2000/30s',
  '33000/30s | 16000/30s | 16000/30s | 2000/30s | 2000/30s | 2000/30s',
  '36000/30s | 18000/30s | 18000/30s | 2000/30s | 2000/30s | 2000/30s',
  '40000/30s | 20000/30s | 20000/30s | 2000/30s | 2000/30s | 2000/30s',
];
const PER_3S = [200, 200, 400, 500, 600, 700, 800, 1000, 1200, 1400, 1600, 1800, 2000];
/** The Management column per VIP level, per 30 s. */
const MANAGEMENT = [2000, 2000, 4000, 5000, 6000, 7000, 8000, 10_000, 12_000, 14_000, 16_000, 18_000, 20_000];
/** The page's table as one version prints it: the Unified Account cell per level, then the other columns. */
const table = (unified: (i: number) => string): string => `Level | Unified Account | Spot (include Margin) | Futures | Management | Earn | CopyTrading | Public | ${OTHER_COLUMNS.map((rest, i) => `VIP${i} | ${unified(i)} | ${rest}`).join(' | ')}`;
const TABLE_3S = table((i) => `${PER_3S[i] ?? 0}/3s`);
const TABLE_30S = table((i) => `${(PER_3S[i] ?? 0) * 10}/30s`);
const WINDOW = "When a user requests any API, the weight of this interface will be deducted and updated every 30s (starting from the arrival time of the user's first request).";
const SCOPE_PRIVATE = 'With the exception of Public resource pool endpoints, all other resource pools are based on UID';
const SCOPE_PUBLIC = 'It is based on IP rate limitation.';
const WEIGHTS = 'For specific interfaces, please refer to the rate limit weight regulations under each interface.';

const LEVELS = ['vip0', 'vip1', 'vip2', 'vip3', 'vip4', 'vip5', 'vip6', 'vip7', 'vip8', 'vip9', 'vip10', 'vip11', 'vip12'] as const;
const tiersOf = (limits: readonly number[]) => Object.fromEntries(LEVELS.map((l, i) => [l, { limit: limits[i] ?? 0 }]));

type Pool = 'unified' | 'management' | 'public';

/** One endpoint: id, method, path, pool, weight (ccxt's and JKorf/Kucoin.Net's, which agree), and the client's line that states it. */
type Row = readonly [id: string, method: EndpointSpec['method'], path: string, pool: Pool, weight: number, quote: string];

const UA = '/api/ua/v1';
/** How Kucoin.Net builds the path of an endpoint whose path names the account mode. */
const MODE = '$"/api/ua/v1/{EnumConverter.GetString(accountMode).ToLower()}';
const TYPE = '?tradeType={EnumConverter.GetString(accountType)}"';
const UNIFIED_REST = 'KucoinExchange.RateLimiter.UnifiedRest';
const PUBLIC_REST = 'KucoinExchange.RateLimiter.PublicRest';
const MANAGEMENT_REST = 'KucoinExchange.RateLimiter.ManagementRest';
/** Kucoin.Net's request definition, verbatim from its path on (whitespace collapsed): path, limiter, weight. */
const net = (path: string, limiter: string, weight: number): string => `${path}, ${limiter}, ${weight}`;

const ROWS: readonly Row[] = [
  ['place-order', 'POST', `${UA}/{accountMode}/order/place`, 'unified', 1, net(`${MODE}/order/place${TYPE}`, UNIFIED_REST, 1)],
  ['place-batch', 'POST', `${UA}/{accountMode}/order/place-batch`, 'unified', 4, "'{accountMode}/order/place-batch': { 'cost': 8 },"],
  ['cancel-order', 'POST', `${UA}/{accountMode}/order/cancel`, 'unified', 1, net(`${MODE}/order/cancel${TYPE}`, UNIFIED_REST, 1)],
  ['cancel-batch', 'POST', `${UA}/{accountMode}/order/cancel-batch`, 'unified', 4, net(`${MODE}/order/cancel-batch${TYPE}`, UNIFIED_REST, 4)],
  ['cancel-all', 'POST', `${UA}/{accountMode}/order/cancel-all`, 'unified', 20, net(`${MODE}/order/cancel-all"`, UNIFIED_REST, 20)],
  ['order-detail', 'GET', `${UA}/{accountMode}/order/detail`, 'unified', 4, net(`${MODE}/order/detail"`, UNIFIED_REST, 4)],
  ['open-orders', 'GET', `${UA}/{accountMode}/order/open-list`, 'unified', 4, net(`${MODE}/order/open-list"`, UNIFIED_REST, 4)],
  ['order-history', 'GET', `${UA}/{accountMode}/order/history`, 'unified', 4, net(`${MODE}/order/history"`, UNIFIED_REST, 4)],
  ['executions', 'GET', `${UA}/{accountMode}/order/execution`, 'unified', 4, net(`${MODE}/order/execution"`, UNIFIED_REST, 4)],
  ['open-positions', 'GET', `${UA}/{accountMode}/position/open-list`, 'unified', 3, net(`${MODE}/position/open-list"`, UNIFIED_REST, 3)],
  ['position-history', 'GET', `${UA}/position/history`, 'unified', 2, net('"/api/ua/v1/position/history"', UNIFIED_REST, 2)],
  ['set-dcp', 'POST', `${UA}/dcp/set`, 'unified', 2, net('"/api/ua/v1/dcp/set"', UNIFIED_REST, 2)],
  ['get-dcp', 'GET', `${UA}/dcp/query`, 'unified', 2, net('"/api/ua/v1/dcp/query"', UNIFIED_REST, 2)],
  ['get-account-mode', 'GET', `${UA}/account/mode`, 'management', 30, net('"/api/ua/v1/account/mode"', MANAGEMENT_REST, 30)],
  ['set-account-mode', 'POST', `${UA}/account/mode`, 'management', 30, net('"/api/ua/v1/account/mode"', MANAGEMENT_REST, 30)],
  ['ticker', 'GET', `${UA}/market/ticker`, 'public', 15, net('"/api/ua/v1/market/ticker"', PUBLIC_REST, 15)],
  ['klines', 'GET', `${UA}/market/kline`, 'public', 3, net('"/api/ua/v1/market/kline"', PUBLIC_REST, 3)],
  ['trades', 'GET', `${UA}/market/trade`, 'public', 3, net('"/api/ua/v1/market/trade"', PUBLIC_REST, 3)],
  ['instruments', 'GET', `${UA}/market/instrument`, 'public', 4, net('"/api/ua/v1/market/instrument"', PUBLIC_REST, 4)],
  ['funding-rate', 'GET', `${UA}/market/funding-rate`, 'public', 2, net('"/api/ua/v1/market/funding-rate"', PUBLIC_REST, 2)],
];

/** The buckets a pool's endpoint is charged to: the Unified Account pool is modelled in both page versions' windows. */
const BUCKETS_OF: Readonly<Record<Pool, readonly string[]>> = { unified: ['unified', 'unified-30s'], management: ['management'], public: ['public'] };

/** Where a row's weight is quoted from: ccxt for Batch Place Order (which Kucoin.Net does not define), Kucoin.Net for the others. */
function weightProvenance(id: string, weight: number, quote: string): Provenance {
  if (id !== 'place-batch') return { source: pathSource(quote), confidence: 'uncertain', quote };
  return { source: 'ccxt', confidence: 'uncertain', quote, deviations: [{ value: weight, reason: 'formula', text: "ccxt states KuCoin's weights doubled (cost 2 per weight on its 4000-per-30 s scale): 8 / 2" }] };
}
const pathSource = (quote: string): string => (quote.includes('/market/') ? 'kucoinNetMarket' : quote.includes('/account/mode') ? 'kucoinNetAccount' : 'kucoinNetTrading');

function ep([id, method, path, pool, weight, quote]: Row): EndpointSpec {
  return {
    id,
    method,
    path,
    auth: pool === 'public' ? 'public' : 'private',
    costs: BUCKETS_OF[pool].map((bucket) => ({ bucket, cost: { kind: 'constant', value: weight } }) as const),
    provenance: weightProvenance(id, weight, quote),
    note:
      id === 'place-batch'
        ? `weight ${weight}: KuCoin's page for this endpoint could not be read; ccxt 4.5.84 charges cost ${weight * 2} on its 4000-per-30 s scale (JKorf/Kucoin.Net does not define the call)`
        : `weight ${weight}: KuCoin's page for this endpoint could not be read; ccxt 4.5.84 (cost ${weight * 2} on its 4000-per-30 s scale) and JKorf/Kucoin.Net (weight ${weight}) agree`,
  };
}

/** KuCoin's UTA pool since 2026-06-08: one per user, shared by the master account and its sub-accounts. */
const SHARED_POOL = "Since 2026-06-08 KuCoin counts this pool per user, master account and sub-accounts together (source utaUpgrade): pass the master account's UID as `uid` for every sub-account's key, so that they share one bucket";

const anchored = 'The Unified Account column does not say whether its window is anchored like the 30 s pools; anchored at the first request is assumed, as KuCoin states for the others';

/** KuCoin unified trading account REST (api.kucoin.com/api/ua/v1): the Unified Account pool per UID, the Public pool per IP. */
export const kucoinUnified: VenueSpec = {
  id: 'kucoin-unified',
  venue: 'KuCoin',
  product: 'unified trading account REST (api.kucoin.com/api/ua/v1): spot, margin and futures from one account',
  markets: ['spot', 'margin', 'perpetual', 'delivery'],
  origin: 'hand-authored',
  defaultTier: 'vip0',
  sources: {
    rateLimit: {
      url: 'https://www.kucoin.com/docs-new/rate-limit',
      retrieved: RETRIEVED,
      note: 'REST rate limit with the "Unified Account" column, read from stored copies of two versions of the page: one states 200/3s at VIP0 (heading "RESTful Rate Limit"), the other 2000/30s (heading "Rest Rate Limit"); both are modelled',
    },
    utaUpgrade: {
      url: 'https://www.kucoin.com/announcement/my-announcement-on-uta-api-rate-limit-rule-upgrade',
      retrieved: WEIGHTS_READ,
      note: 'KuCoin\'s announcement of 2026-05-26, "Announcement on UTA API Rate Limit Rule Upgrade", in force from 2026-06-08 08:00 UTC: "All sub-accounts will share the same user-level total rate limit pool"; newly created sub-accounts get "a default API rate limit of 10 requests per second", not counted toward the total. Read from a stored copy',
    },
    kucoinNetTrading: { url: `${KUCOIN_NET}/KucoinRestClientUnifiedApiTrading.cs`, retrieved: WEIGHTS_READ, note: NET_NOTE },
    kucoinNetMarket: { url: `${KUCOIN_NET}/KucoinRestClientUnifiedApiExchangeData.cs`, retrieved: WEIGHTS_READ, note: NET_NOTE },
    kucoinNetAccount: { url: `${KUCOIN_NET}/KucoinRestClientUnifiedApiAccount.cs`, retrieved: WEIGHTS_READ, note: NET_NOTE },
    ccxt: { url: 'https://github.com/ccxt/ccxt/blob/4.5.84/js/src/kucoin.js', retrieved: WEIGHTS_READ, note: "ccxt 4.5.84, the utaPrivate endpoints: KuCoin's weights doubled (cost 2 per weight)" },
  },
  buckets: [
    {
      id: 'unified',
      scope: 'uid',
      algorithm: 'fixed-window-anchored',
      limit: 200,
      windowMs: 3000,
      tiers: tiersOf(PER_3S),
      provenance: { source: 'rateLimit', confidence: 'documented', quote: `${TABLE_3S} | ${SCOPE_PRIVATE}` },
      description: `Unified Account pool per UID, 200 per 3 s at VIP0 raised per VIP level (tiers vip0 to vip12), as one version of the page states. ${anchored}. ${SHARED_POOL}`,
    },
    {
      id: 'unified-30s',
      scope: 'uid',
      algorithm: 'fixed-window-anchored',
      limit: 2000,
      windowMs: 30_000,
      tiers: tiersOf(PER_3S.map((n) => n * 10)),
      provenance: { source: 'rateLimit', confidence: 'documented', quote: `${TABLE_30S} | ${WINDOW} | ${SCOPE_PRIVATE}` },
      description: 'the same Unified Account pool as the other version of the page states it, 2000 per 30 s at VIP0 (the same rate, a longer window): requests are charged to both readings, so that either page version is respected.',
    },
    {
      id: 'management',
      scope: 'uid',
      algorithm: 'fixed-window-anchored',
      limit: 2000,
      windowMs: 30_000,
      tiers: tiersOf(MANAGEMENT),
      provenance: { source: 'rateLimit', confidence: 'documented', quote: `${TABLE_30S} | ${WINDOW} | ${SCOPE_PRIVATE}` },
      description: 'Management pool per UID, 2000 per 30 s at VIP0 raised per VIP level, for the account endpoints of the unified API (account mode). KuCoin names one Management pool: the spec `kucoin` counts the same pool separately, so a process using both from one account must leave room for the other',
    },
    {
      id: 'public',
      scope: 'ip',
      algorithm: 'fixed-window-anchored',
      limit: 2000,
      windowMs: 30_000,
      provenance: { source: 'rateLimit', confidence: 'documented', quote: `${TABLE_3S} | ${WINDOW} | ${SCOPE_PUBLIC}` },
      description: 'Public pool per IP, 2000 per 30 s at every VIP level. KuCoin names one Public pool: the specs `kucoin` and `kucoin-futures` count the same pool separately, so a process using several of them from one IP must leave room for the others',
    },
  ],
  endpoints: ROWS.map(ep),
  feedback: [kucoinUsageHeaders(['unified', 'management', 'public'])],
  errors: [...KUCOIN_429_RULES],
  verification: {
    checked: RETRIEVED,
    corrections: [
      {
        what: 'scope of the Unified Account pool (sub-accounts, 2026-12-07)',
        was: 'per UID: the master account and each sub-account a pool of its own',
        now: 'one pool per user since 2026-06-08 ("All sub-accounts will share the same user-level total rate limit pool"): the master account\'s UID is passed as `uid` for every sub-account',
        source: 'utaUpgrade',
      },
    ],
    crossChecks: [
      {
        other: 'JKorf/Kucoin.Net @04e948d (KucoinExchange.cs, UnifiedApi)',
        what: 'the Unified Account pool',
        ours: '200 per 3 s at VIP0 to 2000 at VIP12 (and the same per 30 s), anchored at the first request, per UID',
        theirs: '200 per 3 s at VIP0 to 2000 at VIP12, fixed after the first request, per host',
        verdict: 'the same numbers; KuCoin counts private pools per UID',
      },
      {
        other: 'ccxt 4.5.84 kucoin.js (utaPrivate, uta)',
        what: 'weights of the unified endpoints',
        ours: 'place 1, place-batch 4, cancel 1, cancel-batch 4, cancel-all 20, detail/open-list/history/execution 4, open positions 3, position history 2, DCP 2; ticker 15, kline 3, trade 3, instrument 4, funding rate 2',
        theirs: 'costs 2, 8, 2, 8, 40, 8, 6, 4, 4; 30, 6, 6, 8, 4 on a 4000-per-30 s scale (the same weights doubled)',
        verdict: "agree (with JKorf/Kucoin.Net too); KuCoin's own pages could not be read: uncertain",
      },
      { other: 'ccxt 4.5.84 kucoin.js', what: 'the pools', ours: 'a Unified Account pool of its own', theirs: 'one limiter at rateLimit 7.5 ms for every KuCoin endpoint', verdict: 'KuCoin documents a separate Unified Account pool' },
    ],
  },
  notes: [
    `Sub-accounts: ${SHARED_POOL}. A sub-account to which the master allocated a share of the quota, or a new sub-account on its default of 10 requests per second, has a smaller quota of its own that this spec does not model.`,
    'How to select: a unified (UTA) account uses this spec (`kucoin-unified`); a classic account uses `kucoin` (spot and margin) and `kucoin-futures` (futures). KuCoin\'s Place Order page (docs-new/rest/ua/place-order) states that "UTA quotas are independent from Classic Account quotas" (of open orders) and gives the request address https://api.kucoin.com/api/ua/v1/{accountMode}/order/place?tradeType=...',
    'VIP level: pass tier `vip0` to `vip12` (the default is vip0, the lowest).',
    `Every weight is uncertain: KuCoin's rate-limit page says "${WEIGHTS}", and those pages could not be read; each weight is quoted from JKorf/Kucoin.Net (ccxt for Batch Place Order), which agree with each other (see the endpoint notes). Of the account endpoints only the account mode (GET and POST /api/ua/v1/account/mode, Management pool, weight 30) is listed: the transfer and leverage endpoints are not listed and do not resolve.`,
  ],
};
