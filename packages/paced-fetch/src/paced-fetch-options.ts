import type { BucketCheck, Clock, Priority, RateLimiter, Reserve } from '@core/rate-limit-contract';
import type { Feedback, Identity, LiveLimitsResult, VenueRequest, VenueSpec } from '@core/exchange-specs';
import type { LiveLimitsSetting } from './live-limits.js';

/** A `fetch`-compatible function that paces every request through a rate limiter. */
export type PacedFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** Retries of refused idempotent requests. */
export interface RetryOptions {
  /** Retries per call after a rate-limit refusal; default 1. */
  readonly maxRetries?: number;
  /** The longest venue wait (Retry-After) worth retrying after; default the call's `maxWaitMs`. */
  readonly maxRetryAfterMs?: number;
  /** Which requests may be sent again; default GET, HEAD and OPTIONS. */
  readonly idempotent?: (request: VenueRequest) => boolean;
}

/** A request's class and the reserve it leaves free, as the limiter's calls take them (empty: unclassed). */
export type Classed = { readonly priority?: Priority; readonly reserve?: Reserve };

/** One request that went out, reported to {@link PacedFetchOptions.onAttempt}. */
export interface AttemptEvent {
  /** The venue's spec id (`binance-spot`, `okx`, ...). */
  readonly venue: string;
  /** 0 for the first attempt of a call, 1 for its first retry... */
  readonly attempt: number;
  readonly request: VenueRequest;
  /** The checks the admission charged (each attempt is admitted and charged on its own). */
  readonly checks: readonly BucketCheck[];
  /** How long the attempt waited for its send time, ms. */
  readonly waitedMs: number;
  /** The class it was admitted in (RL-Q1): the caller's, or the spec's by nature; `undefined` where the limiter has no classes. */
  readonly priority: Priority | undefined;
  readonly status: number;
  /** What the venue's answer means for the limiter (already applied). */
  readonly feedback: Feedback;
  /** Whether another attempt follows. */
  readonly willRetry: boolean;
  /** Feedback the limiter could not apply (a sync or penalty that answered an error). */
  readonly feedbackErrors: readonly string[];
  /** How many of the feedback's syncs and penalties the limiter applied (answered ok). */
  readonly feedbackApplied: { readonly syncs: number; readonly penalties: number };
}

/** How charges a venue applies only on an outcome are admitted (see {@link PacedFetchOptions.deferredCharges}). */
export interface DeferredChargesOptions {
  /** The share of such a bucket's venue limit that may be in flight as deferred charges (exchange-specs' `inFlightShare`); default 0.02. */
  readonly inFlightShare?: number;
  /**
   * How many processes send on the same buckets through the limiter's shared store: each holds at most
   * `inFlightShare / processes` of a bucket in flight. Required on a distributed limiter (without it
   * deferred charges are reserved there); default 1 on an in-process one.
   */
  readonly processes?: number;
}

/** Options of {@link createPacedFetch}. */
export interface PacedFetchOptions {
  /** The venue: a spec, or an id for `getVenueSpec` (`binance-spot`, `okx`, ...). */
  readonly venue: VenueSpec | string;
  /** The credential (null for public calls), and optionally the account's tier and uid. */
  readonly identity: Identity;
  /** Any implementation of the contract: in-process, Redis, a third party's. */
  readonly limiter: RateLimiter;
  /**
   * The fetch that sends; default the global `fetch`. The paced fetch reads each answer's body once (for the
   * venue's feedback) and answers a copy of it, unless the answer's `bodyUsed` is still `false` after that read
   * (its body can be read again, as `@core/ccxt-pacing`'s answers can): that one is answered as it is.
   */
  readonly fetch?: typeof fetch;
  /** Each attempt's wait budget, ms; default 10 000. */
  readonly maxWaitMs?: number;
  /** Retries of refused idempotent requests; `false` for none. Default `{ maxRetries: 1 }`. */
  readonly retry?: RetryOptions | false;
  /** The fraction of each documented limit kept unused (exchange-specs' `margin`); default 0.04. */
  readonly margin?: number;
  /** The burst as a fraction of each window's usable limit (exchange-specs' `burstFraction`); default 0.02. */
  readonly burstFraction?: number;
  /** How late a request may reach the venue after its send time, ms (exchange-specs' `jitterMs`); default 50. */
  readonly jitterMs?: number;
  /**
   * Enforce the venue's window limits as window limits (exchange-specs' `windowLimits`), counting the
   * way the venue counts; default: the limiter's `capabilities.windowLimits`.
   */
  readonly windowLimits?: boolean;
  /** The fraction of each window limit kept unused (exchange-specs' `windowMargin`); default 0. */
  readonly windowMargin?: number;
  /**
   * The share of a window limit that may go out at once (no more than the window's reserve for bulk
   * keeps free), the rest paced at the window's average rate by a pacing bucket beside it (see
   * `withWindowPacing`); default 0.05 (`DEFAULT_WINDOW_BURST`), `false` for none.
   */
  readonly windowBurst?: number | false;
  /** The clock of the send-time guard and the Retry-After waits; default the system clock. */
  readonly clock?: Clock;
  /** Called after every attempt that was sent (for metrics and progress displays). */
  readonly onAttempt?: (event: AttemptEvent) => void;
  /**
   * When a request charges both buckets of its own credential and shared ones (the IP's), wait
   * without booking while only its own buckets hold it back, then book: a booking far in the future
   * would hold the shared buckets for every other caller until then (RL-W2). Default `true`.
   */
  readonly waitUnbookedForOwnBuckets?: boolean;
  /**
   * Read the venue's published current limits before the first request (`readLiveLimits` of
   * exchange-specs): the first request waits until they are read (once, shared by concurrent first
   * requests), and every request from then on is paced by the venue's numbers instead of the stored
   * ones, in both directions. A reading that fails (refused, malformed, not sent) leaves the stored
   * spec in force and is reported to `onLiveLimits`. `true` reads from the first request's origin;
   * private sources (Binance `rateLimit/order`, Bybit, OKX, KuCoin) need `authenticate`. Default `false`.
   */
  readonly liveLimits?: boolean | LiveLimitsSetting;
  /** Called once with the outcome of the live-limits reading: the venue's numbers in force, or why the stored spec stays (exceptions it throws are ignored). */
  readonly onLiveLimits?: (result: LiveLimitsResult) => void;
  /**
   * Charges the venue applies only on an outcome (Binance spot's order and cancel weight, charged only
   * when the request fails): admitted without reserving them (exchange-specs' `deferred`), each held in
   * an in-flight ledger of its bucket from before the admission until the answer (at most
   * `inFlightShare / processes` of the venue's limit in flight; a request waits while it is full), and
   * recorded (`limiter.record`) when the answer says the venue applied it, or when the send fails without
   * an answer (the outcome is unknown). Such a bucket's limit is lowered by `inFlightShare`, so that
   * even when every request in flight fails the venue's count stays inside its limit. `false` reserves
   * them at admission. Default on, with `processes: 1`, on an in-process limiter; on a distributed one
   * only when `processes` is given.
   */
  readonly deferredCharges?: DeferredChargesOptions | false;
  /**
   * The class of this fetch's requests (RL-Q1..RL-Q5), or a function that picks it per request
   * (`undefined`: the spec's). Default: the class the venue's spec gives each request by nature
   * (exchange-specs' `requestPriority`: `'critical'` for cancels, cancel-all, position closes and
   * reduce-only orders, `'normal'` otherwise). A market-data client passes `'bulk'`. Needs a limiter
   * with `capabilities.priorities` when given; without one, requests go unclassed.
   */
  readonly priority?: Priority | ((request: VenueRequest) => Priority | undefined);
  /**
   * The share of the buckets lower classes leave free for higher ones (RL-Q4, RL-Q6). Default: each
   * bucket its own (exchange-specs' `bucketReserve`): bulk keeps 20 % of a token bucket and 5 % of a
   * window limit free where the venue's critical requests by nature (cancels, reduce-only orders) are
   * charged (1.5 % of a window where all their charges there are deferred, so they need only a gate:
   * Binance spot's IP weight), and nothing on the other buckets (a bucket only market data spends is
   * spent to its end). A
   * `Reserve` holds for every bucket; a function gives a bucket's own from its check (`undefined`: the
   * default for that bucket), for example `(c) => (c.key.axis?.startsWith('orders') ? { normal: 0.1 } : undefined)`
   * to keep room for critical orders on an account's order count. Needs a limiter with
   * `capabilities.priorities`.
   */
  readonly reserve?: Reserve | ((check: BucketCheck) => Reserve | undefined);
}
