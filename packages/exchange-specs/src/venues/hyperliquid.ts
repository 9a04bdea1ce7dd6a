import type { CostRule, Provenance, VenueSpec } from '../venue-spec.js';

const RETRIEVED = '2026-12-01';

const Q = {
  ip: 'The following rate limits apply per IP address: REST requests share an aggregated weight limit of 1200 per minute.',
  exchange: 'All documented exchange API requests have a weight of 1 + floor(batch_length / 40). For example, unbatched actions have weight 1 and a batched order request of length 79 has weight 2. Here, batch_length is the length of the array in the action, e.g. the number of orders in a batched order action.',
  info: 'The following info requests have weight 2: l2Book, allMids, clearinghouseState, orderStatus, spotClearinghouseState, exchangeStatus. The following info requests have weight 60: userRole. All other documented info requests have weight 20.',
  perItems20:
    'The following info endpoints have an additional rate limit weight per 20 items returned in the response: recentTrades, historicalOrders, userFills, userFillsByTime, fundingHistory, userFunding, nonUserFundingUpdates, twapHistory, userTwapSliceFills, userTwapSliceFillsByTime, delegatorHistory, delegatorRewards, validatorStats.',
  perItems60: 'The candleSnapshot info endpoint has an additional rate limit weight per 60 items returned in the response.',
  explorer: 'All explorer API requests have a weight of 40. blockList has an additional rate limit of 1 per block. Note that older blocks which have not been recently queried may be weighted more heavily.',
  address:
    'The rate limiting logic allows 1 request per 1 USDC traded cumulatively since address inception. For example, with an order value of 100 USDC, this requires a fill rate of 1%. Each address starts with an initial buffer of 10000 requests. When rate limited, an address is allowed one request every 10 seconds.',
} as const;

const doc = (quote: string): Provenance => ({ source: 'limits', confidence: 'documented', quote });

const perItems20 = ['recentTrades', 'historicalOrders', 'userFills', 'userFillsByTime', 'fundingHistory', 'userFunding', 'nonUserFundingUpdates', 'twapHistory', 'userTwapSliceFills', 'userTwapSliceFillsByTime', 'delegatorHistory', 'delegatorRewards', 'validatorStats'];

/** `1 + floor(batch_length / 40)` for an action whose list is `list`. */
function batched(type: string, list: string): CostRule {
  return { bucket: 'ip-weight', when: { param: 'action.type', in: [type] }, cost: { kind: 'count', param: `action.${list}`, base: 1, per: 1, every: 40, maxItems: 1000 } };
}

/** Hyperliquid REST (`api.hyperliquid.xyz`): one weight budget per IP; `/info` priced by request type. */
export const hyperliquid: VenueSpec = {
  id: 'hyperliquid',
  venue: 'Hyperliquid',
  product: 'REST API (/info, /exchange, /explorer)',
  markets: ['spot', 'perpetual'],
  origin: 'hand-authored',
  ccxtIds: ['hyperliquid'],
  sources: {
    limits: { url: 'https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits', retrieved: RETRIEVED, note: 'the GitBook page "Rate limits and user limits", read as its markdown' },
  },
  buckets: [
    {
      id: 'ip-weight',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 1200,
      windowMs: 60_000,
      provenance: doc(Q.ip),
      description: 'REST weight per IP per minute (the window algorithm is undocumented: sliding is the strictest reading)',
    },
  ],
  endpoints: [
    {
      id: 'info',
      method: 'POST',
      path: '/info',
      auth: 'public',
      provenance: doc(Q.info),
      note: 'body.type selects the weight; some types add 1 per 20 (candleSnapshot: per 60) returned items (a started group counts whole, the safe reading), settled after the response',
      costs: [
        { bucket: 'ip-weight', cost: { kind: 'lookup', param: 'type', values: { l2Book: 2, allMids: 2, clearinghouseState: 2, orderStatus: 2, spotClearinghouseState: 2, exchangeStatus: 2, userRole: 60 }, otherwise: 20 }, provenance: doc(Q.info) },
        { bucket: 'ip-weight', when: { param: 'type', in: perItems20 }, cost: { kind: 'response', path: '', per: 1, every: 20 }, provenance: doc(Q.perItems20) },
        { bucket: 'ip-weight', when: { param: 'type', in: ['candleSnapshot'] }, cost: { kind: 'response', path: '', per: 1, every: 60 }, provenance: doc(Q.perItems60) },
      ],
    },
    {
      id: 'exchange',
      method: 'POST',
      path: '/exchange',
      auth: 'public',
      provenance: doc(Q.exchange),
      note: 'signed actions (the signature, not an API key, authenticates): 1 + floor(batch_length / 40)',
      costs: [batched('order', 'orders'), batched('cancel', 'cancels'), batched('cancelByCloid', 'cancels'), batched('batchModify', 'modifies'), { bucket: 'ip-weight', when: { param: 'action.type', notIn: ['order', 'cancel', 'cancelByCloid', 'batchModify'] }, cost: { kind: 'constant', value: 1 } }],
    },
    {
      id: 'explorer',
      method: 'POST',
      path: '/explorer',
      auth: 'public',
      provenance: { source: 'limits', confidence: 'uncertain', quote: Q.explorer },
      note: 'explorer requests (rpc.hyperliquid.xyz/explorer) weigh 40; blockList\'s extra "1 per block" and the heavier weight of old blocks are not quantified by Hyperliquid and not modelled',
      costs: [{ bucket: 'ip-weight', cost: { kind: 'constant', value: 40 } }],
    },
  ],
  errors: [
    {
      id: 'address-limit',
      body: [{ path: 'response', startsWith: 'Too many cumulative requests sent' }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['ip-weight'],
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: { source: 'limits', confidence: 'uncertain', quote: Q.address },
      note: 'the per-address (volume-based) limit: the message is the one ccxt 4.5.84 recognizes, not a documented one; the documented pace when limited is one request every 10 s. The IP weight is held, as the address has no bucket of its own here.',
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['ip-weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 10_000 },
      ],
      provenance: { source: 'limits', confidence: 'uncertain', quote: Q.ip, deviations: [{ value: 10000, reason: 'conservative', text: "Hyperliquid documents no status, header or wait for an IP over its weight: without Retry-After the IP weight is held 10 s, the spec's default" }] },
      note: 'Hyperliquid documents no status, header or wait for an IP over its weight: a 429 holds the IP weight for its Retry-After, else 10 s.',
    },
  ],
  verification: {
    checked: RETRIEVED,
    corrections: [],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 hyperliquid.js',
        what: 'info candleSnapshot weight',
        ours: '20, plus 1 per 60 candles returned',
        theirs: '4',
        verdict: 'Hyperliquid lists candleSnapshot among "all other documented info requests" (20) with an extra weight per 60 items',
      },
      { other: 'ccxt 4.5.84 hyperliquid.js', what: 'info userRole weight', ours: '60', theirs: '20 (not in byType)', verdict: 'Hyperliquid: "The following info requests have weight 60: userRole"' },
      {
        other: 'ccxt 4.5.84 hyperliquid.js',
        what: 'exchange batch weight; info extra weight per returned items',
        ours: '1 + floor(batch_length / 40); +1 per 20 (or 60) items',
        theirs: 'exchange 1 whatever the batch; no per-item weight',
        verdict: "both are in Hyperliquid's rate-limit page; ccxt undercounts large batches and long histories",
      },
      {
        other: 'hummingbot hyperliquid/hyperliquid_constants.py, hyperliquid_perpetual/hyperliquid_perpetual_constants.py',
        what: 'weight of an info request',
        ours: '20 (2 for l2Book, allMids, clearinghouseState, orderStatus, spotClearinghouseState, exchangeStatus; 60 for userRole)',
        theirs: '1 per request on a 1200-per-minute limit',
        verdict: 'Hyperliquid weighs info requests 2, 20 or 60; Hummingbot counts requests and can send 10 to 20 times the documented weight',
      },
    ],
  },
  notes: [
    `Per address, actions are also limited by cumulative volume: ${Q.address} Cancels have a larger cap, min(limit + 100000, limit * 2). Not a static bucket: read it with info type userRateLimit.`,
    'A batched request of n orders or cancels is one request for the IP weight but n requests for the per-address limit.',
    'An action without action.type cannot be priced and is refused (missing parameter).',
  ],
};
