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

type Pool = 'unified' | 'public';

/** One endpoint: id, method, path, pool, weight (ccxt's and JKorf/Kucoin.Net's, which agree). */
type Row = readonly [id: string, method: EndpointSpec['method'], path: string, pool: Pool, weight: number];

const UA = '/api/ua/v1';
const ROWS: readonly Row[] = [
  ['place-order', 'POST', `${UA}/{accountMode}/order/place`, 'unified', 1],
  ['place-batch', 'POST', `${UA}/{accountMode}/order/place-batch`, 'unified', 4],
  ['cancel-order', 'POST', `${UA}/{accountMode}/order/cancel`, 'unified', 1],
  ['cancel-batch', 'POST', `${UA}/{accountMode}/order/cancel-batch`, 'unified', 4],
  ['cancel-all', 'POST', `${UA}/{accountMode}/order/cancel-all`, 'unified', 20],
  ['order-detail', 'GET', `${UA}/{accountMode}/order/detail`, 'unified', 4],
  ['open-orders', 'GET', `${UA}/{accountMode}/order/open-list`, 'unified', 4],
  ['order-history', 'GET', `${UA}/{accountMode}/order/history`, 'unified', 4],
  ['executions', 'GET', `${UA}/{accountMode}/order/execution`, 'unified', 4],
  ['open-positions', 'GET', `${UA}/{accountMode}/position/open-list`, 'unified', 3],
  ['position-history', 'GET', `${UA}/position/history`, 'unified', 2],
  ['set-dcp', 'POST', `${UA}/dcp/set`, 'unified', 2],
  ['get-dcp', 'GET', `${UA}/dcp/query`, 'unified', 2],
  ['ticker', 'GET', `${UA}/market/ticker`, 'public', 15],
  ['klines', 'GET', `${UA}/market/kline`, 'public', 3],
  ['trades', 'GET', `${UA}/market/trade`, 'public', 3],
  ['instruments', 'GET', `${UA}/market/instrument`, 'public', 4],
  ['funding-rate', 'GET', `${UA}/market/funding-rate`, 'public', 2],
];

const weightProvenance: Provenance = { source: 'rateLimit', confidence: 'uncertain', quote: WEIGHTS };

function ep([id, method, path, pool, weight]: Row): EndpointSpec {
  const costs = pool === 'unified' ? [{ bucket: 'unified', cost: { kind: 'constant', value: weight } } as const, { bucket: 'unified-30s', cost: { kind: 'constant', value: weight } } as const] : [{ bucket: 'public', cost: { kind: 'constant', value: weight } } as const];
  return {
    id,
    method,
    path,
    auth: pool === 'public' ? 'public' : 'private',
    costs,
    provenance: weightProvenance,
    note: `weight ${weight}: KuCoin's page for this endpoint could not be read; ccxt 4.5.84 (cost ${weight * 2} on its 4000-per-30 s scale) and JKorf/Kucoin.Net (weight ${weight}) agree`,
  };
}

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
      description: `Unified Account pool per UID, 200 per 3 s at VIP0 raised per VIP level (tiers vip0 to vip12), as one version of the page states. ${anchored}.`,
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
  feedback: [kucoinUsageHeaders(['unified', 'public'])],
  errors: [...KUCOIN_429_RULES],
  verification: {
    checked: RETRIEVED,
    corrections: [],
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
    'How to select: a unified (UTA) account uses this spec (`kucoin-unified`); a classic account uses `kucoin` (spot and margin) and `kucoin-futures` (futures). KuCoin\'s Place Order page (docs-new/rest/ua/place-order) states that "UTA quotas are independent from Classic Account quotas" (of open orders) and gives the request address https://api.kucoin.com/api/ua/v1/{accountMode}/order/place?tradeType=...',
    'VIP level: pass tier `vip0` to `vip12` (the default is vip0, the lowest).',
    'Every weight is uncertain (see the endpoint notes); the account, transfer and leverage endpoints of the unified API, whose pool is not established, are not listed and do not resolve.',
  ],
};
