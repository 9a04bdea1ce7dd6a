import type { Priority, Reserve } from '@core/rate-limit-contract';
import { requestParams } from './request-params.js';
import type { VenueRequest } from './venue-io.js';
import type { EndpointSpec, VenueSpec } from './venue-spec.js';

/**
 * The reserve a request carries unless the caller gives one (the contract's `Reserve`, RL-Q4): bulk
 * calls (market data, history, balance refreshes a caller marks `'bulk'`) keep 20 % of every bucket
 * free for normal and critical ones; normal calls keep nothing, so a client that marks nothing paces
 * exactly as before classes. Give `{ normal: 0.1 }` to keep a tenth of every bucket for critical calls
 * against normal traffic too. Lower classes lose only that much burst; their rate stays the venue's.
 */
export const DEFAULT_VENUE_RESERVE: Required<Reserve> = Object.freeze({ normal: 0, bulk: 0.2 });

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
    endpoints: ['CancelOrder', 'CancelAll'],
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
    endpoints: ['spot-cancel-order', 'spot-batch-cancel-order', 'spot-cancel-symbol-order', 'mix-cancel-order', 'mix-batch-cancel-orders', 'mix-cancel-all-orders', 'mix-close-positions'],
    params: [{ endpoints: ['mix-place-order'], param: 'reduceOnly', values: ['YES'] }],
  },
  kucoin: {
    endpoints: ['hf-cancel-order', 'hf-cancel-order-sync', 'hf-cancel-by-client-oid', 'hf-cancel-by-client-oid-sync', 'hf-cancel-all-by-symbol', 'hf-cancel-all', 'cancel-all-orders'],
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
