import type { Priority, Reserve } from '@core/rate-limit-contract';
import { maxCost } from './evaluate-cost.js';
import { requestParams } from './request-params.js';
import type { VenueRequest } from './venue-io.js';
import type { EndpointSpec, VenueSpec } from './venue-spec.js';

/**
 * The reserve of a bucket that critical requests by nature share with other traffic, when the caller
 * gives none (the contract's `Reserve`, RL-Q4, RL-Q6): bulk calls (market data, history, balance
 * refreshes a caller marks `'bulk'`) keep 20 % of such a token bucket free for normal and critical ones;
 * normal calls keep nothing, so a client that marks nothing paces exactly as before classes. On a token
 * bucket that costs a lower class only burst: its rate stays the venue's.
 */
export const DEFAULT_VENUE_RESERVE: Required<Reserve> = Object.freeze({ normal: 0, bulk: 0.2 });

/**
 * The same for a bucket enforced as a window limit: bulk keeps 5 % of each window free. On a window the
 * reserve is not burst but rate (what higher classes leave unused in a window is lost to everyone), so
 * the default keeps room for a stream of cancels, not a fifth of the limit.
 */
export const DEFAULT_WINDOW_RESERVE: Required<Reserve> = Object.freeze({ normal: 0, bulk: 0.05 });

/**
 * The same for a window limit where every charge of a critical request by nature is one the venue applies
 * only on an outcome and is admitted as a deferred charge (Binance spot's cancels, whose weight is charged
 * only when they fail): bulk keeps 1.5 % of each window. Such a request needs only its gate at admission
 * (a millionth of its cost); what it may be charged later is already kept by the bucket's in-flight share
 * (`inFlightShare`), which lowers every class's limit. The 1.5 % is for what a usage report counts twice
 * for a while: own sends still on their way when the venue counted it (a paced window sends no more at
 * once than it keeps free), taken as others' spending.
 */
export const DEFAULT_GATED_WINDOW_RESERVE: Required<Reserve> = Object.freeze({ normal: 0, bulk: 0.015 });

/** No reserve: a bucket no critical request by nature is charged on is spent by every class to its end. */
export const NO_RESERVE: Required<Reserve> = Object.freeze({ normal: 0, bulk: 0 });

const CRITICAL_BUCKETS = new WeakMap<VenueSpec, ReadonlySet<string>>();
const CRITICAL_OUTCOME_COST = new WeakMap<VenueSpec, ReadonlyMap<string, number>>();

/**
 * The buckets a critical request by nature ({@link CRITICAL_REQUESTS}) of a spec can be charged on: the
 * cost rules of its critical endpoints (public and private) and the spec's global rules.
 */
export function criticalBuckets(spec: VenueSpec): ReadonlySet<string> {
  let set = CRITICAL_BUCKETS.get(spec);
  if (set !== undefined) return set;
  const out = new Set<string>();
  // per bucket: the largest critical cost charged only on an outcome, or Infinity when one is charged always
  const outcome = new Map<string, number>();
  const table = CRITICAL_REQUESTS[spec.id];
  if (table !== undefined) {
    const ids = new Set([...table.endpoints, ...(table.params ?? []).flatMap((p) => p.endpoints)]);
    for (const e of spec.endpoints) {
      if (!ids.has(e.id)) continue;
      for (const r of [...e.costs, ...(e.publicCosts ?? []), ...(spec.global ?? [])]) {
        out.add(r.bucket);
        const cost = (r.charge ?? 'always') === 'always' ? Infinity : maxCost(r.cost);
        outcome.set(r.bucket, Math.max(outcome.get(r.bucket) ?? 0, cost));
      }
    }
  }
  set = out;
  CRITICAL_BUCKETS.set(spec, set);
  CRITICAL_OUTCOME_COST.set(spec, outcome);
  return set;
}

/**
 * The reserve a bucket carries in its checks when the caller gives none (RL-Q6): {@link DEFAULT_VENUE_RESERVE}
 * on a token bucket and {@link DEFAULT_WINDOW_RESERVE} on a window limit where critical requests by
 * nature are charged, {@link NO_RESERVE} elsewhere (a bucket only market data spends keeps nothing free).
 * On a window limit whose critical charges are all applied only on an outcome and no larger than
 * `deferredBound` (the bucket's in-flight bound of deferred charges, `inFlightBound`; 0 when charges are
 * not deferred), {@link DEFAULT_GATED_WINDOW_RESERVE}: those requests are admitted at their gate.
 */
export function bucketReserve(spec: VenueSpec, bucketId: string, window: boolean, deferredBound = 0): Required<Reserve> {
  if (!criticalBuckets(spec).has(bucketId)) return NO_RESERVE;
  if (!window) return DEFAULT_VENUE_RESERVE;
  const outcome = CRITICAL_OUTCOME_COST.get(spec)?.get(bucketId) ?? Infinity;
  return deferredBound > 0 && outcome <= deferredBound ? DEFAULT_GATED_WINDOW_RESERVE : DEFAULT_WINDOW_RESERVE;
}

/** A request parameter whose value makes an order risk-reducing (reduce-only, close-position). */
export interface CriticalParam {
  /** Endpoint ids of the spec the parameter applies to. */
  readonly endpoints: readonly string[];
  /** The parameter's name (query, form or JSON body; a dotted path into the body, see `requestParams`). */
  readonly param: string;
  /** The values (compared as text, case-insensitively) that make the request critical. */
  readonly values: readonly string[];
}

/** Which requests of a venue are critical by nature: cancels, cancel-all, position closes, reduce-only orders. */
export interface CriticalRequests {
  /** Endpoint ids that are critical whatever their parameters (cancels, cancel-all, position closes). */
  readonly endpoints: readonly string[];
  /** Orders that are critical when a parameter says they only reduce a position. */
  readonly params?: readonly CriticalParam[];
}

const BINANCE_FUTURES: CriticalRequests = {
  endpoints: ['cancelOrder', 'cancelBatch', 'cancelAll', 'countdownCancelAll'],
  params: [
    { endpoints: ['newOrder'], param: 'reduceOnly', values: ['true'] },
    { endpoints: ['newOrder'], param: 'closePosition', values: ['true'] },
  ],
};

/**
 * The requests each venue's spec marks critical by nature, by endpoint id (a test checks that every id
 * names an endpoint of its spec). The parameters are the venues' own order fields for reduce-only and
 * close-position orders.
 */
export const CRITICAL_REQUESTS: Readonly<Record<string, CriticalRequests>> = Object.freeze({
  'binance-spot': { endpoints: ['cancelOrder', 'cancelOpenOrders', 'cancelOrderList'] },
  'binance-usdm': BINANCE_FUTURES,
  'binance-coinm': BINANCE_FUTURES,
  bybit: {
    endpoints: ['order-cancel', 'order-cancel-all', 'order-cancel-batch'],
    params: [
      { endpoints: ['order-create'], param: 'reduceOnly', values: ['true'] },
      { endpoints: ['order-create'], param: 'closeOnTrigger', values: ['true'] },
    ],
  },
  okx: {
    endpoints: ['cancel-order', 'cancel-batch-orders'],
    params: [{ endpoints: ['place-order'], param: 'reduceOnly', values: ['true'] }],
  },
  kraken: {
    endpoints: ['CancelOrder', 'CancelOrderBatch', 'CancelAll'],
    params: [{ endpoints: ['AddOrder'], param: 'reduce_only', values: ['true'] }],
  },
  'kraken-futures': { endpoints: ['cancelorder', 'cancelallorders', 'cancelallordersafter'] },
  coinbase: { endpoints: ['cancel-orders', 'close-position'] },
  deribit: {
    endpoints: [
      'private/cancel',
      'post:private/cancel',
      'private/cancel_by_label',
      'post:private/cancel_by_label',
      'private/cancel_all',
      'post:private/cancel_all',
      'private/cancel_all_by_instrument',
      'post:private/cancel_all_by_instrument',
      'private/cancel_all_by_currency',
      'post:private/cancel_all_by_currency',
      'private/cancel_all_by_kind_or_type',
      'post:private/cancel_all_by_kind_or_type',
      'private/close_position',
      'post:private/close_position',
    ],
    params: [{ endpoints: ['private/buy', 'post:private/buy', 'private/sell', 'post:private/sell'], param: 'reduce_only', values: ['true'] }],
  },
  bitget: {
    endpoints: [
      'spot-cancel-order',
      'spot-batch-cancel-order',
      'spot-cancel-symbol-order',
      'mix-cancel-order',
      'mix-batch-cancel-orders',
      'mix-cancel-all-orders',
      'mix-close-positions',
    ],
    params: [{ endpoints: ['mix-place-order'], param: 'reduceOnly', values: ['YES'] }],
  },
  kucoin: {
    endpoints: [
      'hf-cancel-order',
      'hf-cancel-order-sync',
      'hf-cancel-by-client-oid',
      'hf-cancel-by-client-oid-sync',
      'hf-cancel-all-by-symbol',
      'hf-cancel-all',
      'cancel-all-orders',
    ],
  },
});

function asText(v: unknown): string | undefined {
  return typeof v === 'string' || typeof v === 'boolean' || typeof v === 'number' ? String(v).toLowerCase() : undefined;
}

/**
 * The class a request has by nature on its venue: `'critical'` for the cancels, cancel-all, position
 * closes and reduce-only orders the venue's entry in {@link CRITICAL_REQUESTS} names, `'normal'`
 * otherwise (a caller marks its own bulk traffic).
 *
 * @example
 * ```ts
 * requestPriority(getVenueSpec('binance-spot'), endpoint, { method: 'DELETE', path: '/api/v3/order' }); // 'critical'
 * ```
 */
export function requestPriority(spec: VenueSpec, endpoint: EndpointSpec | null, request: VenueRequest): Priority {
  const table = CRITICAL_REQUESTS[spec.id];
  if (table === undefined || endpoint === null) return 'normal';
  if (table.endpoints.includes(endpoint.id)) return 'critical';
  if (table.params !== undefined) {
    const params = requestParams(request, {});
    for (const p of table.params) {
      if (!p.endpoints.includes(endpoint.id)) continue;
      const v = asText(params.get(p.param));
      if (v !== undefined && p.values.some((x) => x.toLowerCase() === v)) return 'critical';
    }
  }
  return 'normal';
}
