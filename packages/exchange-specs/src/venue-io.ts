import type { Priority, Reserve, BucketCheck, BucketKey, Limit, PenaltyHold } from '@core/rate-limit-contract';
import type { EndpointSpec } from './venue-spec.js';

/**
 * Who sends a request: an API key (or `null` for a public call), optionally the account's tier
 * (a key of the buckets' `tiers`) and uid. Buckets of scope `uid` use `uid` when given (all keys
 * of one account share them), the credential otherwise.
 */
export interface Identity {
  readonly credential: string | null;
  readonly tier?: string;
  readonly uid?: string;
}

/** A request to a venue: the path without host or query string. */
export interface VenueRequest {
  readonly method: string;
  readonly path: string;
  /**
   * The URL's host (`api.kucoin.com`), optional: it picks between endpoints a spec lists on
   * several hosts with the same path (see `EndpointSpec.host`); without it the costliest is charged.
   */
  readonly host?: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

/** A venue's response. Header names are lower-case. */
export interface VenueResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  /**
   * Optional, for speed: whether the body's text holds `text` (as it came, before parsing). A rule that reads a
   * body field whose name the text does not hold (and which holds no escape, `\`) then leaves the body unparsed: an
   * order book's JSON is most of an answer, and the error rules of a venue that answers errors with any status
   * read a field of every answer. Called on the response (`response.bodyHolds(text)`).
   */
  readonly bodyHolds?: (text: string) => boolean;
}

/** Error codes of {@link resolveRequest}. */
export type ResolveErrorCode = 'unknown_endpoint' | 'missing_parameter' | 'invalid_parameter' | 'credential_required' | 'unknown_tier' | 'invalid_spec';

/** The result of `resolveRequest`. */
/**
 * What the venue itself counts for a request on one bucket (a venue emulator charges its models
 * with these; a limiter admits `checks`).
 */
export interface VenueCharge {
  readonly key: BucketKey;
  /** The bucket's id in the spec (the key's axis without its partition value). */
  readonly bucket: string;
  readonly cost: number;
  /** When the venue counts it: `always`, only when the request succeeds, or only when it fails. */
  readonly charge: 'always' | 'success' | 'failure';
}

/**
 * A charge admitted without reserving it (the `deferred` option of `resolveRequest`): the venue applies
 * it only on an outcome (`charge`, Binance's order weight on `failure`). Hold `cost` in an in-flight
 * ledger of the key (at most `inFlight` in flight, across every process sharing the limiter's buckets)
 * from before the admission until the answer, and `limiter.record(key, cost, limit)` it when
 * `interpretResponse`'s `deferred` says the venue applied it.
 */
export interface DeferredCharge {
  readonly key: BucketKey;
  /** The bucket's id in the spec. */
  readonly bucket: string;
  /** What the venue charges when the outcome matches. */
  readonly cost: number;
  readonly charge: 'success' | 'failure';
  /** The limit the key's checks carry (to record with). */
  readonly limit: Limit;
  /** The most deferred cost that may be in flight on the key (the bucket's `inFlightShare`). */
  readonly inFlight: number;
}

export type ResolveResult =
  | {
      readonly ok: true;
      readonly endpoint: EndpointSpec | null;
      /**
       * What the limiter admits: one check per key, the buckets' safe limits (a deferred charge only at
       * its gate cost, a millionth of it: see `DEFERRED_GATE_FRACTION`).
       */
      readonly checks: readonly BucketCheck[];
      /** What the venue counts per key and charge mode (equal to the checks' costs except on `spaced` buckets and deferred charges). */
      readonly charges: readonly VenueCharge[];
      /** The charges admitted without reserving them (empty without the `deferred` option). */
      readonly deferred: readonly DeferredCharge[];
      /**
       * The request's class by nature (RL-Q1): `'critical'` for the cancels, cancel-all, position closes
       * and reduce-only orders its venue's entry in `CRITICAL_REQUESTS` names, else `'normal'`.
       */
      readonly priority: Priority;
      /** The share of each bucket lower classes leave free (the `reserve` option, default `DEFAULT_VENUE_RESERVE`). */
      readonly reserve: Required<Reserve>;
    }
  | { readonly ok: false; readonly error: ResolveError };

/** Why `resolveRequest` could not price a request. */
export interface ResolveError {
  readonly code: ResolveErrorCode;
  readonly message: string;
  /**
   * With `unknown_endpoint`: the id of the spec that prices the path, when the spec knows one
   * (`VenueSpec.pricedElsewhere`: Binance `/sapi/...` sent to `binance-spot` is `binance-sapi`).
   */
  readonly pricedBy?: string;
}

/** When a fixed window ends, as far as a response tells (the caller's clock, epoch ms). */
export interface WindowEnd {
  readonly earliestMs: number;
  readonly latestMs: number;
}

/**
 * A usage report to apply with `limiter.sync(key, limit, minBorrowed, options)` (RL-R2). On a window limit
 * (RL-V5) `minBorrowed` is what the venue counted in its window, and `windowElapsedMs` how long, at the
 * least, that window had been counting when the reporting request was sent: pass
 * `{ sentAtMs, windowEnd, countedOwnCost }` with the reporting request's send time (the limiter's clock,
 * e.g. its admission's `sendAtMs`). `windowEnd`: a fixed window's end, as closely as the answer tells it
 * (a loose one still bounds when the window began); `countedOwnCost`: what the caller knows the venue
 * counted of its own sends in that window (the reporting request, its sends answered before it that the
 * window holds, those answered meanwhile that reported less of the same fixed window); `outsideOwnCost`: the
 * part of it sent outside the send times the limiter counts itself (RL-V5).
 */
export interface FeedbackSync {
  readonly key: BucketKey;
  readonly limit: Limit;
  readonly minBorrowed: number;
  readonly windowElapsedMs?: number;
  readonly windowEnd?: WindowEnd;
  readonly countedOwnCost?: number;
  readonly outsideOwnCost?: number;
}

/** A hold to apply with `limiter.penalize(key, hold)` (RL-R3). */
export interface FeedbackPenalty {
  readonly key: BucketKey;
  readonly hold: PenaltyHold;
}

/** What the limiter should do after a response (the result of `interpretResponse`). */
export interface Feedback {
  /** Whether the request counted against the venue's quota. */
  readonly counted: boolean;
  readonly verdict: 'ok' | 'rate_limited' | 'banned' | 'overloaded' | 'error';
  /** The id of the error rule that matched, if any. */
  readonly rule?: string;
  readonly syncs: readonly FeedbackSync[];
  readonly penalties: readonly FeedbackPenalty[];
  /** The venue's wait, when it gave one (or the rule's documented wait). */
  readonly retryAfterMs?: number;
  /** Costs settled after the response (response-size costs): record them. */
  readonly extraChecks?: readonly BucketCheck[];
  /**
   * With the `deferred` option: the deferred charges the venue applied to this request (its outcome was
   * theirs, and the answer counted): `limiter.record` each. Absent when none applied.
   */
  readonly deferred?: readonly BucketCheck[];
}
