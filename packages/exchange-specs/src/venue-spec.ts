/**
 * The schema of a venue's documented rate limits. A {@link VenueSpec} is plain data (TypeScript data
 * modules in `src/venues/`, JSON in `src/generated/`), checked at load by `validateSpec`.
 */

import type { Source, Provenance, Verification } from './provenance.js';

export type { Confidence, Source, Provenance, Deviation, Correction, CrossCheck, Verification } from './provenance.js';

/**
 * Who a bucket belongs to. `ip`: the caller's IP (the public pool, credential `null`); `uid`: the
 * account (every key of it); `key`: one API key; `subaccount`: one sub-account.
 */
export type Scope = 'ip' | 'uid' | 'key' | 'subaccount';

/**
 * How a venue counts:
 * - `fixed-window-aligned`: `limit` per `windowMs`, windows aligned to the clock (epoch multiples,
 *   e.g. each minute at :00; a day at 00:00 UTC).
 * - `fixed-window-anchored`: `limit` per `windowMs`, a window opens at the first request after the
 *   previous one closed.
 * - `sliding-window`: at most `limit` in any `windowMs` ending now (a rolling window).
 * - `token-bucket`: a token bucket / decaying counter of `capacity` refilled (decayed) at
 *   `refillPerSec`.
 */
export type BucketAlgorithm = 'fixed-window-aligned' | 'fixed-window-anchored' | 'sliding-window' | 'token-bucket';

/** The window algorithms. */
export type WindowAlgorithm = Exclude<BucketAlgorithm, 'token-bucket'>;

/**
 * How a bucket is split into independent buckets (the key's axis gets `:<value>` appended).
 * - `endpoint`: one bucket per endpoint (the endpoint's id).
 * - `param`: one bucket per value of a request parameter (e.g. `instId`, `category`); when the
 *   body is a list (a batch), its items are grouped by that field, as for `items` of `''`.
 * - `items`: a list parameter's items are grouped by one of their fields, each group charged to
 *   its own bucket (OKX batch orders per instrument).
 *
 * `pattern` (for `param` and `items`): a regular expression with one capture group; a value it
 * matches is partitioned by the captured text instead of the whole value, a value it does not
 * match by the whole value (OKX limits options per instrument family, the `instId` without its
 * expiry, strike and type, and every other instrument per `instId`).
 */
export type Partition =
  | { readonly kind: 'endpoint' }
  | { readonly kind: 'param'; readonly param: string; readonly pattern?: string }
  | { readonly kind: 'items'; readonly list: string; readonly field: string; readonly pattern?: string };

interface BucketBase {
  /** Unique within the venue; becomes the key's axis (plus the partition value). */
  readonly id: string;
  readonly scope: Scope;
  readonly partition?: Partition;
  readonly description?: string;
  readonly provenance: Provenance;
}

/** A window bucket: at most `limit` of cost per `windowMs` (see {@link BucketAlgorithm}). */
export interface WindowBucketSpec extends BucketBase {
  readonly algorithm: WindowAlgorithm;
  readonly limit: number;
  readonly windowMs: number;
  /** Limits by tier name (VIP level, fill-ratio tier...), replacing `limit` for that tier. */
  readonly tiers?: Readonly<Record<string, { readonly limit: number }>>;
}

/** A token bucket / decaying counter of `capacity`, refilled at `refillPerSec`. */
export interface TokenBucketSpec extends BucketBase {
  readonly algorithm: 'token-bucket';
  readonly capacity: number;
  readonly refillPerSec: number;
  /** Values by tier name, replacing `capacity` and `refillPerSec` for that tier. */
  readonly tiers?: Readonly<Record<string, { readonly capacity: number; readonly refillPerSec: number }>>;
}

/** One bucket of a venue. */
export type BucketSpec = WindowBucketSpec | TokenBucketSpec;

/**
 * A request's cost on one bucket.
 * - `constant`: always `value`.
 * - `table`: by the value of `param` (`measure: 'value'`, a number) or the number of its items
 *   (`measure: 'count'`, a list or JSON array string): the first row with `upTo >= x` gives the
 *   cost, `above` beyond the last row. When the parameter is absent, `absent` is the cost; without
 *   `absent` (and without `defaultValue`, the venue's documented default) it is an error.
 * - `presence`: `present` when `param` is given, `absent` otherwise (each a number or a nested cost).
 * - `count`: `base + per * floor(n / every)` where n is the number of items of the list `param`
 *   (`every` defaults to 1); a missing list is an error.
 * - `lookup`: by the parameter's value as text (`values`), else `otherwise`; an absent parameter,
 *   or an unlisted value without `otherwise`, is an error (Hyperliquid info request `type`).
 * - `response`: settled after the response: `per * ceil(n / every)` where n is the number of
 *   items of the array at `path` in the response body (`''` = the body itself).
 */
export type CostExpr =
  | { readonly kind: 'constant'; readonly value: number }
  | {
      readonly kind: 'table';
      readonly param: string;
      readonly measure?: 'value' | 'count';
      readonly rows: readonly { readonly upTo: number; readonly cost: number }[];
      readonly above?: number;
      readonly absent?: number | CostExpr;
      readonly defaultValue?: number;
    }
  | {
      readonly kind: 'presence';
      readonly param: string;
      readonly present: number | CostExpr;
      readonly absent: number | CostExpr;
    }
  | {
      readonly kind: 'count';
      readonly param: string;
      readonly base: number;
      readonly per: number;
      readonly every?: number;
      /** The venue's maximum list length, used to size the safe capacity. */
      readonly maxItems?: number;
    }
  | {
      readonly kind: 'lookup';
      readonly param: string;
      readonly values: Readonly<Record<string, number>>;
      readonly otherwise?: number;
    }
  | { readonly kind: 'response'; readonly path: string; readonly per: number; readonly every?: number };

/**
 * What a request costs on one bucket, and when it is charged. `charge` says what the venue
 * counts: `always` (default), `success` only, or `failure` only. Admission reserves the cost (a
 * limiter cannot know the outcome in advance) unless the request is resolved with `deferred`: a
 * charge on an outcome is then admitted without reserving it, within the bucket's in-flight bound,
 * and `interpretResponse` says (`deferred`) when the venue applied it, to be recorded.
 */
export interface CostRule {
  readonly bucket: string;
  readonly cost: CostExpr;
  /**
   * The rule applies only when the parameter is present and its value (as text; a JSON boolean as
   * `true`/`false`) is in `in` / not in `notIn` (Hyperliquid's `/info` costs by request `type`), and, with `items`, when it is a
   * list whose number of items is within `min`..`max` (OKX charges a batch of one order to the
   * single-order limit). When an endpoint has cost rules and none applies, the request is refused
   * (never free).
   */
  readonly when?: {
    readonly param: string;
    readonly in?: readonly string[];
    readonly notIn?: readonly string[];
    readonly items?: { readonly min?: number; readonly max?: number };
  };
  readonly charge?: 'always' | 'success' | 'failure';
  readonly provenance?: Provenance;
}

/** One endpoint: a method and a path template (`{name}` matches one path segment). */
export interface EndpointSpec {
  /** Unique within the venue; used by `endpoint` partitions. */
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  readonly path: string;
  /**
   * The host the endpoint is served from (lower-case, e.g. `api-futures.kucoin.com`), when a spec
   * spans several hosts that serve the same path at different costs. A request naming a host the
   * spec knows matches only that host's endpoints (and those without a host); a request without a
   * host, or naming a host the spec does not know, is priced as the costliest match.
   */
  readonly host?: string;
  readonly auth: 'public' | 'private';
  readonly costs: readonly CostRule[];
  /**
   * For a public endpoint whose requests without a credential are charged differently (Deribit:
   * an anonymous call draws on the IP's allowance, an authenticated one on the sub-account's
   * credits): the rules used when the identity has no credential, instead of {@link costs}.
   */
  readonly publicCosts?: readonly CostRule[];
  readonly provenance: Provenance;
  readonly note?: string;
}

/**
 * A response header that reports a bucket's usage. The rule applies to every listed bucket the
 * request was charged on (the first such bucket when the header names one bucket).
 * - `used`: the header is the amount used in the current window.
 * - `remaining`: the header is the amount left; `limitHeader` (when present) gives the venue's limit.
 * `resetHeader` tells when the window ends, in `resetUnit`: `ms-from-now`, `s-from-now`,
 * `epoch-ms` or `epoch-s` (epoch values are read against the response's `date` header).
 */
export interface FeedbackRule {
  /** Lower-case header name. */
  readonly header: string;
  readonly meaning: 'used' | 'remaining';
  readonly buckets: readonly string[];
  readonly limitHeader?: string;
  readonly resetHeader?: string;
  readonly resetUnit?: 'ms-from-now' | 's-from-now' | 'epoch-ms' | 'epoch-s';
  readonly provenance: Provenance;
}

/**
 * A condition on a response body: the value at `path` (dot-separated; array indices allowed; `''`
 * is the whole body, a text body included), or, when it is an array, any of its elements, equals
 * one of `equals` (compared as strings), starts with `startsWith`, or contains `contains` (ignoring
 * case: Bybit's "403, access too frequent" page).
 */
export interface BodyMatch {
  readonly path: string;
  readonly equals?: readonly (string | number)[];
  readonly startsWith?: string;
  /**
   * The value (as text) contains this text, ignoring case: for messages whose variable part comes
   * first, such as Binance's `Too many new orders; current limit is 160000 orders per DAY.`, or
   * Bybit's "403, access too frequent" page.
   */
  readonly contains?: string;
}

/** The unit of a wait read from a response: a duration (`s`, `ms`) or a time (`epoch-s`, `epoch-ms`). */
export type WaitUnit = 's' | 'ms' | 'epoch-s' | 'epoch-ms';

/**
 * Where the wait of a penalty comes from; the first source that yields a value wins. Epoch values
 * are read against the response's `date` header (a source without one yields nothing).
 * - `header`: a response header holding a number.
 * - `body`: the value at `path` in the body; with `pattern` (a regular expression with one capture
 *   group), the number is the captured text of the first value at `path` (or element, when it is an
 *   array) the pattern matches (Kraken's `EService: Throttled: [UNIX timestamp]`).
 * - `fixed`: the venue's documented duration, or the spec's documented default when the venue
 *   states none.
 * - `window-end`: the time left in the venue's current clock-aligned window of `windowMs` (windows
 *   start at multiples of `windowMs` since the epoch, so a day ends at 00:00 UTC), read against the
 *   `date` header; without one it is the whole window (the longest it can be). It always yields, so
 *   it belongs last: it is the documented default of a venue that says "wait until the interval
 *   resets" without saying for how long.
 */
export type WaitSource =
  | { readonly from: 'header'; readonly header: string; readonly unit: WaitUnit }
  | { readonly from: 'body'; readonly path: string; readonly unit: WaitUnit; readonly pattern?: string }
  | { readonly from: 'fixed'; readonly ms: number }
  | { readonly from: 'window-end'; readonly windowMs: number };

/**
 * Recognizes an error response. All given conditions must hold; the first matching rule wins.
 * `penalize` lists bucket ids held closed for the wait (`'charged'` = every bucket the request was
 * charged on).
 */
export interface ErrorRule {
  readonly id: string;
  readonly status?: readonly number[];
  readonly body?: readonly BodyMatch[];
  /** The rule matches only when this (lower-case) header is present. */
  readonly hasHeader?: string;
  /** The rule matches only when this (lower-case) header is absent. */
  readonly lacksHeader?: string;
  readonly verdict: 'rate_limited' | 'banned' | 'overloaded' | 'error';
  /** Whether the request still counts against the quota. */
  readonly counted: boolean;
  readonly wait?: readonly WaitSource[];
  readonly penalize?: readonly string[] | 'charged';
  readonly provenance: Provenance;
  readonly note?: string;
}

/**
 * A market a spec covers, for the README's product columns: `spot`, `margin`, `perpetual` (swaps),
 * `delivery` (dated futures), `options`, `wallet` (deposits, withdrawals, transfers, sub-accounts,
 * earn).
 */
export type Market = 'spot' | 'margin' | 'perpetual' | 'delivery' | 'options' | 'wallet';

/** Paths another spec prices (see {@link VenueSpec.pricedElsewhere}). */
export interface PricedElsewhere {
  /** The start of the paths, from the first `/` (`/sapi/`). */
  readonly prefix: string;
  /** The id of the spec that prices them (`binance-sapi`). */
  readonly spec: string;
}

/** A venue's (one product's) documented limits. */
export interface VenueSpec {
  /** The venue id used as the key's `venue`, e.g. `binance-spot`. */
  readonly id: string;
  readonly venue: string;
  readonly product: string;
  /** The markets whose endpoints the spec prices (hand-authored specs; absent on ccxt estimates). */
  readonly markets?: readonly Market[];
  readonly origin: 'hand-authored' | 'ccxt-derived';
  /** For generated specs: the ccxt version they came from. */
  readonly ccxtVersion?: string;
  /**
   * For hand-authored specs: the ccxt exchange ids this spec documents (`['binance']` for Binance
   * spot). Each of these names resolves to this spec, and the ccxt-derived estimate of the same
   * exchange is listed under the explicit id `ccxt:<id>` only, so it is never picked by the plain
   * name.
   */
  readonly ccxtIds?: readonly string[];
  readonly sources: Readonly<Record<string, Source>>;
  readonly buckets: readonly BucketSpec[];
  readonly endpoints: readonly EndpointSpec[];
  /** Charged on every request of the spec (known endpoints and the fallback). */
  readonly global?: readonly CostRule[];
  /**
   * The documented default for endpoints not listed. Without it an unknown endpoint is an error.
   */
  readonly fallback?: {
    readonly costs: readonly CostRule[];
    /** For requests without a credential, when they are charged differently (per-IP public limits). */
    readonly publicCosts?: readonly CostRule[];
    readonly provenance: Provenance;
  };
  readonly feedback?: readonly FeedbackRule[];
  readonly errors?: readonly ErrorRule[];
  /**
   * `exact` (default): a request path matches a template segment by segment. `suffix`: it matches
   * when its last segments match the template (ccxt-derived specs, whose paths omit the prefixes
   * ccxt adds when signing, such as OKX's `/api/v5/`).
   */
  readonly pathMatch?: 'exact' | 'suffix';
  /** The tier used when the identity names none. */
  readonly defaultTier?: string;
  /**
   * Paths the venue serves next to this spec's that another spec prices (Binance's `/sapi/...` on
   * the spot host is `binance-sapi`). A request that matches no endpoint of this spec and whose
   * path starts with one of the prefixes is refused (`unknown_endpoint`, naming the other spec in
   * the message and in `error.pricedBy`), never priced by this spec's fallback.
   */
  readonly pricedElsewhere?: readonly PricedElsewhere[];
  /**
   * How the numbers were verified (hand-authored specs). When present, every provenance of the spec
   * carries its {@link Provenance.quote}.
   */
  readonly verification?: Verification;
  readonly notes?: readonly string[];
}
