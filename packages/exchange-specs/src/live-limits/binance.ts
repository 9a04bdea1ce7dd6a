import { LiveLimitsError } from './live-limits-error.js';
import type { FieldDocumentation, LiveLimitSource, LiveStatement, ParseContext, StatedLimit } from './live-limit-source.js';
import { array, at, keys, nonNegativeInteger, object, oneOf, positiveInteger } from './strict-json.js';

/**
 * Binance publishes its current limits in `rateLimits` entries `{ rateLimitType, interval,
 * intervalNum, limit }`: the exchange-wide ones in `exchangeInfo`, the account's order-count limits
 * (with the current `count`) in `rateLimit/order`. Each entry is mapped onto a bucket by its type and
 * window (`interval` × `intervalNum`): an entry whose type and window the spec does not model is
 * refused (`unmapped_limit`), never guessed.
 */

const SPOT_DOCS = 'https://github.com/binance/binance-spot-api-docs/blob/a5e0bc3ddc0fd7e6bb696849323b74423fa3a54d';
const READ = '2026-12-01';

/** The interval units Binance names, in milliseconds. */
const INTERVAL_MS = { SECOND: 1000, MINUTE: 60_000, HOUR: 3_600_000, DAY: 86_400_000 } as const;
type Interval = keyof typeof INTERVAL_MS;
const INTERVALS = Object.keys(INTERVAL_MS) as Interval[];
const TYPES = ['REQUEST_WEIGHT', 'ORDERS', 'RAW_REQUESTS'] as const;
type RateLimitType = (typeof TYPES)[number];

/** A rate limiter of Binance's and the bucket that models it. */
export interface BinanceLimitMapping {
  readonly rateLimitType: RateLimitType;
  /** `interval` × `intervalNum` in milliseconds. */
  readonly windowMs: number;
  /** The bucket id in the spec. */
  readonly bucket: string;
}

/** Binance spot: which bucket of `binance-spot` models each rate limiter `exchangeInfo` and `rateLimit/order` state. */
export const BINANCE_SPOT_LIMITS: readonly BinanceLimitMapping[] = [
  { rateLimitType: 'REQUEST_WEIGHT', windowMs: 60_000, bucket: 'request_weight' },
  { rateLimitType: 'RAW_REQUESTS', windowMs: 300_000, bucket: 'raw_requests' },
  { rateLimitType: 'ORDERS', windowMs: 10_000, bucket: 'orders_10s' },
  { rateLimitType: 'ORDERS', windowMs: 86_400_000, bucket: 'orders_1d' },
];

/** Binance USDⓈ-M futures: which bucket of `binance-usdm` models each rate limiter it states. */
export const BINANCE_USDM_LIMITS: readonly BinanceLimitMapping[] = [
  { rateLimitType: 'REQUEST_WEIGHT', windowMs: 60_000, bucket: 'request_weight' },
  { rateLimitType: 'ORDERS', windowMs: 10_000, bucket: 'orders_10s' },
  { rateLimitType: 'ORDERS', windowMs: 60_000, bucket: 'orders_1m' },
];

/** The window of an interval, e.g. `MINUTE` × 5 = 300 000 ms. */
export function binanceWindowMs(interval: Interval, intervalNum: number): number {
  return INTERVAL_MS[interval] * intervalNum;
}

interface EntryRules {
  readonly mapping: readonly BinanceLimitMapping[];
  /** `rateLimit/order` lists only ORDERS. */
  readonly onlyType?: RateLimitType;
  /** Whether entries carry the current `count`. */
  readonly count: 'required' | 'optional' | 'absent';
}

function readEntries(entries: readonly unknown[], path: string, rules: EntryRules, context: ParseContext): LiveStatement {
  const { source } = context;
  const limits: StatedLimit[] = [];
  entries.forEach((raw, i) => {
    const field = at(path, i);
    const e = object(source, raw, field);
    const counted = rules.count === 'required' ? ['count'] : [];
    keys(source, e, field, ['rateLimitType', 'interval', 'intervalNum', 'limit', ...counted], rules.count === 'optional' ? ['count'] : []);
    const type = oneOf(source, e['rateLimitType'], at(field, 'rateLimitType'), rules.onlyType === undefined ? TYPES : [rules.onlyType]);
    const interval = oneOf(source, e['interval'], at(field, 'interval'), INTERVALS);
    const intervalNum = positiveInteger(source, e['intervalNum'], at(field, 'intervalNum'));
    const limit = positiveInteger(source, e['limit'], at(field, 'limit'));
    if ('count' in e) nonNegativeInteger(source, e['count'], at(field, 'count'));
    const windowMs = binanceWindowMs(interval, intervalNum);
    const row = rules.mapping.find((m) => m.rateLimitType === type && m.windowMs === windowMs);
    if (row === undefined) {
      throw new LiveLimitsError('unmapped_limit', source, `${context.spec.id} models no ${type} limit per ${intervalNum} ${interval} (${windowMs} ms)`, field);
    }
    limits.push({ bucket: row.bucket, windowMs, limit, field, statement: JSON.stringify({ rateLimitType: type, interval, intervalNum, limit }) });
  });
  return { limits };
}

const spotExchangeInfoDocs: readonly FieldDocumentation[] = [
  {
    field: 'rateLimits',
    url: `${SPOT_DOCS}/rest-api.md#general-info-on-limits`,
    retrieved: READ,
    quote:
      "The `/api/v3/exchangeInfo` `rateLimits` array contains objects related to the exchange's `RAW_REQUESTS`, `REQUEST_WEIGHT`, and `ORDERS` rate limits. These are further defined in the `ENUM definitions` section under `Rate limiters (rateLimitType)`.",
  },
  {
    field: 'rateLimits',
    url: `${SPOT_DOCS}/rest-api.md#exchange-information`,
    retrieved: READ,
    quote: '// These are defined in the `ENUM definitions` section under `Rate Limiters (rateLimitType)`. // All limits are optional',
  },
  {
    field: 'rateLimits[].rateLimitType, .interval, .intervalNum, .limit',
    url: `${SPOT_DOCS}/enums.md#rate-limiters-ratelimittype`,
    retrieved: READ,
    quote:
      '* REQUEST_WEIGHT { "rateLimitType": "REQUEST_WEIGHT", "interval": "MINUTE", "intervalNum": 1, "limit": 6000 } * ORDERS { "rateLimitType": "ORDERS", "interval": "SECOND", "intervalNum": 1, "limit": 10 } * RAW_REQUESTS { "rateLimitType": "RAW_REQUESTS", "interval": "MINUTE", "intervalNum": 5, "limit": 61000 }',
  },
  {
    field: 'rateLimits[].interval',
    url: `${SPOT_DOCS}/enums.md#rate-limit-intervals-interval`,
    retrieved: READ,
    quote: '## Rate limit intervals (interval) * SECOND * MINUTE * DAY',
  },
  {
    field: 'rateLimits[].interval',
    url: `${SPOT_DOCS}/rest-api.md#general-info-on-limits`,
    retrieved: READ,
    quote: 'The following `intervalLetter` values for headers: * SECOND => S * MINUTE => M * HOUR => H * DAY => D',
  },
  {
    field: 'rateLimits[].intervalNum',
    url: `${SPOT_DOCS}/rest-api.md#general-info-on-limits`,
    retrieved: READ,
    quote: '`intervalNum` describes the amount of the interval. For example, `intervalNum` 5 with `intervalLetter` M means "Every 5 minutes".',
  },
];

const spotOrderCountDocs: readonly FieldDocumentation[] = [
  {
    field: '(body)',
    url: `${SPOT_DOCS}/rest-api.md#query-unfilled-order-count`,
    retrieved: READ,
    quote: "GET /api/v3/rateLimit/order Displays the user's unfilled order count for all intervals. **Weight:** 40",
  },
  {
    field: '[].rateLimitType, .interval, .intervalNum, .limit, .count',
    url: `${SPOT_DOCS}/rest-api.md#query-unfilled-order-count`,
    retrieved: READ,
    quote:
      '[ { "rateLimitType": "ORDERS", "interval": "SECOND", "intervalNum": 10, "limit": 50, "count": 0 }, { "rateLimitType": "ORDERS", "interval": "DAY", "intervalNum": 1, "limit": 160000, "count": 0 } ]',
  },
  {
    field: '[]',
    url: `${SPOT_DOCS}/rest-api.md#unfilled-order-count`,
    retrieved: READ,
    quote: '**The number of unfilled orders is tracked for each account.**',
  },
];

const USDM_GENERAL = 'https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info';

const usdmExchangeInfoDocs: readonly FieldDocumentation[] = [
  {
    field: 'rateLimits',
    url: `${USDM_GENERAL}#limits`,
    retrieved: READ,
    quote:
      "The `/fapi/v1/exchangeInfo` `rateLimits` array contains objects related to the exchange's `RAW_REQUEST`, `REQUEST_WEIGHT`, and `ORDER` rate limits. These are further defined in the `ENUM definitions` section under `Rate limiters (rateLimitType)`.",
  },
  {
    field: 'rateLimits[].interval, .intervalNum, .limit, .rateLimitType',
    url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Exchange-Information',
    retrieved: READ,
    quote:
      '"rateLimits": [ { "interval": "MINUTE", "intervalNum": 1, "limit": 2400, "rateLimitType": "REQUEST_WEIGHT" }, { "interval": "MINUTE", "intervalNum": 1, "limit": 1200, "rateLimitType": "ORDERS" } ]',
  },
];

const usdmOrderCountDocs: readonly FieldDocumentation[] = [
  {
    field: '[].rateLimitType, .interval, .intervalNum, .limit',
    url: 'https://developers.binance.com/docs/zh-CN/derivatives/usds-margined-futures/account/rest-api/Query-Rate-Limit',
    retrieved: READ,
    quote:
      '查询用户下单限频 (USER_DATA) GET /fapi/v1/rateLimit/order 请求权重 1 响应示例 [ { "rateLimitType": "ORDERS", "interval": "SECOND", "intervalNum": 10, "limit": 10000, }, { "rateLimitType": "ORDERS", "interval": "MINUTE", "intervalNum": 1, "limit": 20000, } ]',
  },
];

function exchangeInfo(venue: string, path: string, mapping: readonly BinanceLimitMapping[], documentation: readonly FieldDocumentation[]): LiveLimitSource {
  return {
    id: 'exchangeInfo',
    venue,
    method: 'GET',
    path,
    auth: 'public',
    documentation,
    parse(body, context) {
      const o = object(context.source, body, '');
      if (!('rateLimits' in o)) throw new LiveLimitsError('malformed', context.source, 'missing', 'rateLimits');
      return readEntries(array(context.source, o['rateLimits'], 'rateLimits'), 'rateLimits', { mapping, count: 'absent' }, context);
    },
  };
}

function orderCount(
  venue: string,
  path: string,
  mapping: readonly BinanceLimitMapping[],
  count: 'required' | 'optional',
  documentation: readonly FieldDocumentation[],
): LiveLimitSource {
  return {
    id: 'rateLimit/order',
    venue,
    method: 'GET',
    path,
    auth: 'private',
    documentation,
    parse(body, context) {
      return readEntries(array(context.source, body, ''), '', { mapping, onlyType: 'ORDERS', count }, context);
    },
  };
}

/**
 * Binance spot's sources: `GET /api/v3/exchangeInfo` (public, weight 20: the exchange's limits) and
 * `GET /api/v3/rateLimit/order` (signed, weight 40: the account's order-count limits, which replace
 * exchangeInfo's ORDERS numbers when both are read).
 */
export const binanceSpotSources: readonly LiveLimitSource[] = [
  exchangeInfo('binance-spot', '/api/v3/exchangeInfo', BINANCE_SPOT_LIMITS, spotExchangeInfoDocs),
  orderCount('binance-spot', '/api/v3/rateLimit/order', BINANCE_SPOT_LIMITS, 'required', spotOrderCountDocs),
];

/**
 * Binance USDⓈ-M futures' sources: `GET /fapi/v1/exchangeInfo` (public, weight 1) and
 * `GET /fapi/v1/rateLimit/order` (signed, weight 1; its documented example carries no `count`).
 */
export const binanceUsdmSources: readonly LiveLimitSource[] = [
  exchangeInfo('binance-usdm', '/fapi/v1/exchangeInfo', BINANCE_USDM_LIMITS, usdmExchangeInfoDocs),
  orderCount('binance-usdm', '/fapi/v1/rateLimit/order', BINANCE_USDM_LIMITS, 'optional', usdmOrderCountDocs),
];
