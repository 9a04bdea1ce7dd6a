import type { Capabilities } from './capabilities.js';
import type { RateLimitError } from './errors.js';
import type { Decision, PeekDecision, WaitDecision } from './decision.js';
import type { BucketKey } from './key.js';
import type { Limit } from './limit.js';
import type { Priority, Reserve } from './priority.js';
import type { BucketSnapshot } from './snapshot.js';
import type { SpecificationVersion } from './version.js';

/**
 * One bucket's part of a request: which bucket, how it is defined, and what the request costs there.
 *
 * @remarks RL-A1 (cost honoured exactly), RL-A2 (cost finite and >= 0; 0 is admitted and changes
 * nothing), RL-M2 (repeated keys in one call are charged once at their combined cost), RL-M3 (two
 * different definitions of one key in one call are `invalid_parameters`), RL-Q6 (a check's own reserve;
 * repeated keys keep the largest share any of their checks leaves free).
 */
export interface BucketCheck {
  readonly key: BucketKey;
  readonly limit: Limit;
  readonly cost: number;
  /**
   * This bucket's reserve in this call, in place of the call's (RL-Q6): the shares lower classes leave
   * free on this bucket only, so one call can keep a fifth of a shared IP bucket for cancels while
   * spending a bucket no critical request uses to its end. A share left out takes the call's (then the
   * limiter's). Validated like the call's (`checks[i].reserve.bulk`); where `capabilities.priorities`
   * is not `true` a check naming one answers `not_supported`.
   */
  readonly reserve?: Reserve;
}

/** Options of {@link RateLimiter.checkRate} and {@link RateLimiter.checkRates}. */
export interface CheckOptions {
  /**
   * The caller's wait budget in milliseconds. Without it the call is a probe: admitted now (`ok`)
   * or answered `delay`, changing nothing (RL-A3). With it, a wait that fits the budget books the
   * cost for the send time and answers `booked` (RL-W1); a wait beyond it books nothing and answers
   * `delay` with the required wait (RL-W3). Must be finite and > 0.
   */
  readonly maxWaitMs?: number;
  /**
   * The call's class (RL-Q1..RL-Q5); default `'normal'`. Where `capabilities.priorities` is not `true`
   * the call answers `not_supported`.
   */
  readonly priority?: Priority;
  /** The share of each bucket the call's class leaves free for higher classes; default the limiter's (RL-Q4). */
  readonly reserve?: Reserve;
}

/** Options of {@link RateLimiter.peek}: the class whose admission is asked about (RL-Q1..RL-Q5). */
export interface PeekOptions {
  readonly priority?: Priority;
  readonly reserve?: Reserve;
}

/** Options of {@link RateLimiter.waitForCapacity}. */
export interface WaitOptions {
  /** The wait budget in milliseconds; default 10 000; finite and > 0 (RL-W6). */
  readonly maxWaitMs?: number;
  /** Gives up the wait; the booking is returned when nothing was charged after it (RL-W5). */
  readonly signal?: AbortSignal;
  /** The call's class (RL-Q1..RL-Q5); default `'normal'`; `not_supported` without `capabilities.priorities`. */
  readonly priority?: Priority;
  /** The share of each bucket the call's class leaves free for higher classes; default the limiter's (RL-Q4). */
  readonly reserve?: Reserve;
}

/**
 * Options of {@link RateLimiter.sync}: what the caller knows of the report, on a window limit (RL-V5).
 * Token buckets ignore them.
 *
 * @remarks The venue counted `used` in its window when it counted the request sent at `sentAtMs`, by
 * `c = min(sentAtMs + jitterMs, now)` at the latest. Others' use is `used` less the larger of two lower
 * bounds of this deployment's part: the limiter's count (its sends surely inside that window and
 * `jitterMs` or more before `sentAtMs`, every process's) plus `outsideOwnCost`, and `countedOwnCost`. It
 * counts as sent at `c − jitterMs`; a newer report replaces one the venue counted before its request was sent.
 */
export interface SyncOptions {
  /**
   * When the request whose response reported the usage was sent (the limiter's clock, e.g. the
   * `sendAtMs` of its admission). Without it, or with a time after now, the report is taken as sent now
   * and none of this deployment's sends is taken as counted. A finite number.
   */
  readonly sentAtMs?: number;
  /**
   * The cost of this caller's own sends it knows the venue counted in the reported window: the
   * reporting request itself when the count includes it, and its earlier requests whose answers
   * reported a lower count of the same fixed window (a fixed window's count only rises). A lower bound,
   * like the limiter's own plus `outsideOwnCost`: the larger of the two is taken, never the sum. Ignored without `sentAtMs`.
   * Default 0; a finite number of 0 or more.
   */
  readonly countedOwnCost?: number;
  /**
   * The part of `countedOwnCost` sent outside the send times the limiter counts itself: after
   * `sentAtMs − jitterMs` (the reporting request, when `jitterMs > 0`), or, with a `windowEnd`, before
   * `windowEnd.latestMs − windowMs`. The limiter adds it to its own count, whose sends it cannot
   * include: with several processes on one store, their sends and this caller's recent ones are then both
   * taken as counted. A send in both would count twice and let the limiter admit what the venue refuses.
   * Ignored without `sentAtMs`. Default 0; a finite number of 0 or more.
   */
  readonly outsideOwnCost?: number;
  /**
   * The venue's window is a fixed one and ends between `earliestMs` and `latestMs` (the limiter's clock),
   * read from its reset header or the clock alignment. Narrower than a quarter of `windowMs`, it says
   * the window is fixed: what reached the venue before the window began is forgotten now, and, from its
   * end on, what reached it before that end; a report of a window that ended before the latest reported
   * one began is ignored. Wider, it is ignored. `earliestMs` is the caller's word: an end earlier than
   * the venue's lets the limiter admit what the venue refuses. Two finite numbers, `latestMs >= earliestMs`.
   */
  readonly windowEnd?: { readonly earliestMs: number; readonly latestMs: number };
}

/**
 * When a penalty hold ends: an absolute time in the limiter's clock, or a duration from now.
 *
 * @remarks RL-R3. A duration suits a venue's `Retry-After`, since a caller does not know a shared
 * store's clock.
 */
export type PenaltyHold = { readonly untilMs: number } | { readonly forMs: number };

/**
 * The bucket-level rate limiter: every implementation (in-process, Redis, a third party's) keeps
 * the rules of this package's RULEBOOK.md behind this interface and proves it with
 * `@core/rate-limit-conformance`.
 *
 * @remarks The model (RULEBOOK.md and MODEL.md): a token bucket with continuous refill, capped at
 * capacity, a fresh bucket full. RL-A6 (safety): for any interleaving of calls from any number of
 * callers and processes, while one definition is in force and no reset intervenes, the cost
 * admitted in any interval [a, b] (booked sends at their send times) is at most
 * `max(capacity, largest single cost in [a, b]) + refill·(b − a)`.
 *
 * @example
 * ```ts
 * const d = await limiter.waitForCapacity([
 *   { key: { venue: 'binance', credential: null, axis: 'ip' }, limit: { requests: 6000, periodMs: 60_000 }, cost: 20 },
 *   { key: { venue: 'binance', credential: apiKey, axis: 'orders_10s' }, limit: { requests: 100, periodMs: 10_000 }, cost: 1 },
 * ], { maxWaitMs: 2_000 });
 * if (d.kind === 'ok') await send();
 * ```
 */
export interface RateLimiter {
  /** The contract version this implementation speaks. */
  readonly specificationVersion: SpecificationVersion;
  /** What this implementation offers; fixed at construction. */
  readonly capabilities: Capabilities;

  /**
   * Checks one bucket, and debits the cost when admitted.
   *
   * @param key - the bucket.
   * @param limit - its definition; `null` is unlimited, a missing limit is `invalid_parameters` (RL-L2).
   * @param cost - finite, >= 0 (RL-A2).
   * @param options - `maxWaitMs` turns the probe into a booking (RL-W1).
   * @returns ok (charged, send now), booked (charged, send at `sendAtMs`), delay (nothing changed)
   * or a typed error; never rejects (RL-F1).
   * @remarks RL-A1..RL-A5, RL-L1..RL-L5, RL-W1..RL-W4, RL-F1, RL-F2.
   * @example
   * ```ts
   * const d = await limiter.checkRate({ venue: 'okx', credential: key }, { capacity: 1, refillPerSec: 9.09 }, 1);
   * ```
   */
  checkRate(key: BucketKey, limit: Limit, cost: number, options?: CheckOptions): Promise<Decision>;

  /**
   * Checks several buckets atomically: ok only when every bucket can pay, all debited in one step;
   * otherwise nothing is debited anywhere (RL-M1).
   *
   * @param checks - one or more bucket checks (an empty list is `invalid_parameters`).
   * @param options - `maxWaitMs` books every bucket as of the common send time (RL-M5).
   * @returns ok, booked, delay with the largest wait among the buckets (RL-M4), or a typed error.
   * @remarks RL-M1..RL-M5, RL-A3, RL-W1..RL-W4, RL-F1.
   * @example
   * ```ts
   * await limiter.checkRates([{ key: ip, limit: ipLimit, cost: 5 }, { key: uid, limit: uidLimit, cost: 1 }]);
   * ```
   */
  checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision>;

  /**
   * Books the checks and resolves at (not before) the send time.
   *
   * @param checks - one or more bucket checks.
   * @param options - `maxWaitMs` (default 10 000) and an optional AbortSignal.
   * @returns ok at the send time; error `rate_limit_timeout` naming the required wait when it
   * exceeds the budget (nothing spent); error `aborted` when the signal fires (the booking is
   * returned when nothing was charged after it, RL-W5); or another typed error.
   * @remarks RL-W1..RL-W7, RL-M1..RL-M5, RL-F1.
   * @example
   * ```ts
   * const d = await limiter.waitForCapacity([{ key, limit, cost: 1 }], { maxWaitMs: 5_000, signal });
   * ```
   */
  waitForCapacity(checks: readonly BucketCheck[], options?: WaitOptions): Promise<WaitDecision>;

  /**
   * Would these checks be admitted now? Changes nothing, ever (a dry run of a probe).
   *
   * @returns ok when a probe would be admitted now, delay with the exact wait, or a typed error.
   * @remarks Used by the host contract's `check` (RL-P1), which does not consume.
   * @example
   * ```ts
   * const d = await limiter.peek([{ key, limit, cost: 10 }]);
   * ```
   */
  peek(checks: readonly BucketCheck[], options?: PeekOptions): Promise<PeekDecision>;

  /**
   * Reports cost that went out without admission (a request sent outside the limiter).
   *
   * @param key - the bucket.
   * @param cost - finite, >= 0; anything else is dropped and counted.
   * @param limit - the bucket's definition, needed when the bucket is not live yet; without it an
   * unknown bucket keeps the debt until its first definition.
   * @remarks RL-R1: always debits (possibly into debt), never throws, never rejects, never blocks;
   * where the store is unreachable it buffers (bounded) and counts what it drops. Each record is
   * applied exactly once, even when a delivery is retried after a timeout. Huge finite costs are
   * applied, clamped to what the store can hold.
   * On a window limit the cost counts as sent now (RL-V2).
   * @example
   * ```ts
   * limiter.record({ venue: 'binance', credential: null, axis: 'ip' }, 20);
   * ```
   */
  record(key: BucketKey, cost: number, limit?: Limit): void;

  /**
   * Raises the bucket's borrowed amount to at least what the venue reports.
   *
   * @param key - the bucket.
   * @param limit - its definition (required: a sync may be the first thing a bucket sees).
   * @param minBorrowed - the usage the venue reported (for example `X-MBX-USED-WEIGHT-1M`).
   * @param options - on a window limit, what the caller knows of the report: `sentAtMs`,
   * `countedOwnCost`, `windowEnd` (RL-V5); token buckets ignore them.
   * @returns a decision-like result: ok when applied, or a typed error. It never lowers usage, except
   * where a window limit's newer report (with `sentAtMs`) replaces an older one it covers (RL-V5).
   * @remarks RL-R2, RL-V5.
   * @example
   * ```ts
   * await limiter.sync(ipKey, { requests: 6000, periodMs: 60_000 }, Number(headers['x-mbx-used-weight-1m']));
   * ```
   */
  sync(key: BucketKey, limit: Limit, minBorrowed: number, options?: SyncOptions): Promise<SideEffectResult>;

  /**
   * Admits nothing on the bucket before the hold ends, and treats the bucket as empty then.
   *
   * @param key - the bucket.
   * @param hold - `{ untilMs }` in the limiter's clock or `{ forMs }` from now.
   * @remarks RL-R3: a penalty never shortens an existing one. A hold survives a new definition of
   * the bucket and a `sync`. A hold on a bucket with no definition yet is kept until its first
   * definition (in a shared store at least 24 hours after the hold ends), which starts the bucket
   * empty as of the hold's end.
   * @example
   * ```ts
   * await limiter.penalize(ipKey, { forMs: Number(retryAfterSeconds) * 1000 });
   * ```
   */
  penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult>;

  /**
   * capacity − tokens now, bookings included; 0 for an unknown key (RL-I1).
   *
   * @remarks Resolves to a typed error when the store cannot tell (never a guessed 0).
   * @example
   * ```ts
   * const used = await limiter.borrowed(key); // number or { kind: 'error', ... }
   * ```
   */
  borrowed(key: BucketKey): Promise<number | ErrorResult>;

  /** Forgets one bucket (RL-I2). */
  reset(key: BucketKey): Promise<SideEffectResult>;
  /** Forgets every bucket of a venue, all credentials and axes, and no other (RL-I2). */
  resetVenue(venue: string): Promise<SideEffectResult>;
  /** Forgets every bucket (RL-I2). */
  resetAll(): Promise<SideEffectResult>;

  /**
   * Lists live buckets for a budget panel (RL-I3), credentials hashed (RL-K3).
   *
   * @returns the buckets, or a typed error when the store cannot tell (it never rejects).
   * @example
   * ```ts
   * const buckets = await limiter.snapshot();
   * if (!('kind' in buckets)) for (const b of buckets) console.log(b.venue, b.axis, `${b.borrowed}/${b.capacity}`);
   * ```
   */
  snapshot(): Promise<readonly BucketSnapshot[] | ErrorResult>;

  /**
   * Stops the limiter: pending waits resolve with error `closed`, timers are cancelled, later
   * calls answer `closed` (RL-W7).
   */
  close(): Promise<void>;
}

/** The result of an operation that changes state but admits nothing. */
export type SideEffectResult = { readonly kind: 'ok' } | ErrorResult;

/** A typed error as a result. */
export interface ErrorResult {
  readonly kind: 'error';
  readonly error: RateLimitError;
}
