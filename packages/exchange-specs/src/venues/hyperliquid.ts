import type { CostRule, VenueSpec } from '../venue-spec.js';

const doc = { source: 'limits', confidence: 'documented' } as const;
const perItems20 = ['recentTrades', 'historicalOrders', 'userFills', 'userFillsByTime', 'fundingHistory', 'userFunding', 'nonUserFundingUpdates', 'twapHistory', 'userTwapSliceFills', 'userTwapSliceFillsByTime', 'delegatorHistory', 'delegatorRewards', 'validatorStats'];

/** `1 + floor(batch_length / 40)` for an action whose list is `list`. */
function batched(type: string, list: string): CostRule {
  return { bucket: 'ip-weight', when: { param: 'action.type', in: [type] }, cost: { kind: 'count', param: `action.${list}`, base: 1, per: 1, every: 40, maxItems: 1000 } };
}

/** Hyperliquid REST (`api.hyperliquid.xyz`): one weight budget per IP; `/info` priced by request type. */
export const hyperliquid: VenueSpec = {
  id: 'hyperliquid',
  venue: 'Hyperliquid',
  product: 'REST API (/info, /exchange)',
  markets: ['spot', 'perpetual'],
  origin: 'hand-authored',
  ccxtIds: ['hyperliquid'],
  sources: {
    limits: { url: 'https://hyperliquid.gitbook.io/hyperliquid-docs/for-developers/api/rate-limits-and-user-limits', retrieved: '2026-11-30' },
  },
  buckets: [
    { id: 'ip-weight', scope: 'ip', algorithm: 'sliding-window', limit: 1200, windowMs: 60_000, provenance: doc, description: 'REST weight per IP per minute (window algorithm undocumented: sliding is the strictest reading)' },
  ],
  endpoints: [
    {
      id: 'info', method: 'POST', path: '/info', auth: 'public', provenance: doc,
      note: 'body.type selects the weight; some types add 1 per 20 (candleSnapshot: per 60) returned items, settled after the response',
      costs: [
        { bucket: 'ip-weight', cost: { kind: 'lookup', param: 'type', values: { l2Book: 2, allMids: 2, clearinghouseState: 2, orderStatus: 2, spotClearinghouseState: 2, exchangeStatus: 2, userRole: 60 }, otherwise: 20 } },
        { bucket: 'ip-weight', when: { param: 'type', in: perItems20 }, cost: { kind: 'response', path: '', per: 1, every: 20 } },
        { bucket: 'ip-weight', when: { param: 'type', in: ['candleSnapshot'] }, cost: { kind: 'response', path: '', per: 1, every: 60 } },
      ],
    },
    {
      id: 'exchange', method: 'POST', path: '/exchange', auth: 'public', provenance: doc,
      note: 'signed actions (the signature, not an API key, authenticates): 1 + floor(batch_length / 40)',
      costs: [
        batched('order', 'orders'),
        batched('cancel', 'cancels'),
        batched('cancelByCloid', 'cancels'),
        batched('batchModify', 'modifies'),
        { bucket: 'ip-weight', when: { param: 'action.type', notIn: ['order', 'cancel', 'cancelByCloid', 'batchModify'] }, cost: { kind: 'constant', value: 1 } },
      ],
    },
  ],
  errors: [
    {
      id: 'too-many-requests', status: [429], verdict: 'rate_limited', counted: true, penalize: ['ip-weight'],
      wait: [{ from: 'header', header: 'retry-after', unit: 's' }, { from: 'fixed', ms: 10_000 }], provenance: { source: 'limits', confidence: 'uncertain' },
    },
  ],
  notes: [
    'Per address, actions are also limited by cumulative volume (1 request per 1 USDC traded plus a 10,000 buffer; 1 per 10 s when exhausted): not a static bucket, read it with info type userRateLimit.',
    'An action without action.type cannot be priced and is refused (missing parameter).',
  ],
};
