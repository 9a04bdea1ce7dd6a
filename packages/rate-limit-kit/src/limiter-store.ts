import type { BucketSnapshot, Capabilities, Clock, ErrorResult, RateLimitError, SideEffectResult } from '@core/rate-limit-contract';
import type { Definition } from './definition-table.js';
import type { ResolvedKey } from './key-resolver.js';

/** A value, or a promise of it: a store answers synchronously (in process) or asynchronously (a network store). */
export type MaybePromise<T> = T | Promise<T>;

/** How an admission treats a wait (see {@link LimiterStore.admit}). */
export type AdmitMode = 'probe' | 'peek' | 'book';

/** What a store answers to {@link LimiterStore.admit}. */
export type Admission =
  /**
   * Admitted: charged now (`sendAt === now`, or `sendAt <= now`) or booked for `sendAt` (mode `book`).
   * `now` is the store's time of the decision; both are in the limiter's clock (ms).
   * `booking` identifies a booking for later so it can be returned (RL-W5).
   */
  | { readonly status: 'admitted'; readonly sendAt: number; readonly now: number; readonly booking?: unknown }
  /** Not admitted (a probe or peek that must wait, or a wait beyond the budget); nothing changed. */
  | { readonly status: 'wait'; readonly waitMs: number }
  /** Bucket `index` of the call can never pay: a quota without enough left, or a wait beyond the horizon. */
  | { readonly status: 'unpayable'; readonly index: number; readonly reason: 'quota' | 'horizon' | 'window'; readonly left: number }
  /**
   * The store failed (unreachable, too late, a call its layout cannot serve): never admitted. With
   * `index`, the failure is about that bucket of the call and the error's `path` is relative to its
   * check (for example `key`); the front door names it in the caller's terms (`checks[3].key`).
   */
  | { readonly status: 'failed'; readonly error: RateLimitError; readonly index?: number };

/** What a sync's caller knows of the usage report, validated (the contract's `SyncOptions`; the limiter's clock). */
export interface SyncReport {
  readonly sentAtMs: number | undefined;
  readonly countedOwnCost: number | undefined;
  readonly outsideOwnCost?: number | undefined;
  readonly windowEnd?: { readonly earliestMs: number; readonly latestMs: number } | undefined;
}

/** A penalty hold, validated: an absolute end in the limiter's clock, or a duration from the store's now. */
export type Hold = { readonly untilMs: number } | { readonly forMs: number };

/**
 * The private half of a rate limiter: where the buckets live. The kit's front door
 * (`StoreRateLimiter`) does everything else: it reads and validates every argument, hashes
 * credentials, merges repeated keys, shapes decisions and messages, runs the waiters, and answers
 * `closed`, `not_supported` and `internal`. A store receives only resolved, valid input.
 *
 * A synchronous store answers plain values; an asynchronous one answers promises that never reject.
 * The arrays passed to {@link LimiterStore.admit} are the front door's scratch space: read them before
 * the call returns (an asynchronous store copies what it needs first).
 */
export interface LimiterStore {
  /** What the store offers (fixed); the front door answers `not_supported` for what it does not. */
  readonly capabilities: Capabilities;
  /**
   * The clock waiters' timers run on. A store whose time is elsewhere (a server's) gives a local clock:
   * the front door then waits `sendAt − max(now, store.now())` from the answer on it (the answer's `now`, or the
   * store's clock when it reads later), which can only be late, never early.
   */
  readonly timers: Clock;
  /** `true` when {@link LimiterStore.admit} answers synchronously (enables the front door's sync fast path). */
  readonly synchronous: boolean;
  /**
   * The store's time now, without a round trip (for answers that touch no bucket, and for the waits of bookings):
   * never ahead of the time the store decides by, so that a waiter timed from it is never early.
   */
  now(): number;
  /**
   * One admission over `n` distinct buckets (RL-M1..RL-M5, RL-A1..RL-A5, RL-W1, RL-W3): all charged as of
   * the common send time, or nothing written. `probe` admits only now; `peek` never writes; `book` books
   * a wait up to `budgetMs`. Costs are > 0 and definitions limited (the front door drops the others).
   * `cls` is the call's class (classes.ts: 0 critical, 1 normal, the default, 2 bulk) and `free` the share
   * of each bucket it leaves free (RL-Q1..RL-Q5; 0 by default): one number for every bucket, or, when a
   * check named its own reserve (RL-Q6), one per bucket (`free[i]` for bucket i, read during the call
   * only). A store without `capabilities.priorities` never receives other values than the defaults.
   */
  admit(
    n: number,
    keys: readonly ResolvedKey[],
    defs: readonly Definition[],
    costs: readonly number[],
    mode: AdmitMode,
    budgetMs: number | undefined,
    cls?: number,
    free?: number | readonly number[],
  ): MaybePromise<Admission>;
  /** Returns a booking when nothing was written to its buckets after it (RL-W5); answers whether it was returned. */
  cancel(booking: unknown): MaybePromise<boolean>;
  /** Debits cost sent without admission (RL-R1); never throws; counts what it cannot apply. */
  record(key: ResolvedKey, cost: number, def: Definition | undefined): void;
  /** Counts a record the front door refused (invalid input, closed). */
  dropRecord(): void;
  /** RL-R2, RL-V5; `report`: what the caller knows of the usage report (see the contract's `SyncOptions`). */
  sync(key: ResolvedKey, def: Definition, minBorrowed: number, report: SyncReport): MaybePromise<SideEffectResult>;
  penalize(key: ResolvedKey, hold: Hold): MaybePromise<SideEffectResult>;
  borrowed(key: ResolvedKey): MaybePromise<number | ErrorResult>;
  reset(key: ResolvedKey): MaybePromise<SideEffectResult>;
  resetVenue(venue: string): MaybePromise<SideEffectResult>;
  resetAll(): MaybePromise<SideEffectResult>;
  snapshot(): MaybePromise<readonly BucketSnapshot[] | ErrorResult>;
  /** Releases the store (after the front door settled every waiter with `closed`). */
  close(): MaybePromise<void>;
}
