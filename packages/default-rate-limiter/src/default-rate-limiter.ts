import type { BucketKey, Clock, Decision, Limit, Reserve } from '@core/rate-limit-contract';
import { describeValue, StoreRateLimiter, systemClock } from '@core/rate-limit-kit';
import { MemoryStore } from './memory-store.js';

/** Options of {@link createDefaultRateLimiter}. */
export interface DefaultRateLimiterOptions {
  /** The limiter's clock; tests inject a manual clock. Default the kit's `systemClock`. */
  readonly clock?: Clock;
  /** Keys the credential hash (HMAC-SHA-256) so hashes cannot be checked against guessed keys (RL-K3). */
  readonly credentialSecret?: string;
  /** Operations between two steps of the idle-bucket sweep. Default 256. */
  readonly idleSweepEvery?: number;
  /** Slots a sweep step examines. Default 512 (two per operation at the default period). */
  readonly idleSweepBatch?: number;
  /** Most penalties and recorded debts kept for buckets not defined yet. Default 10 000. */
  readonly maxPending?: number;
  /**
   * How long a bucket stays stored after it became idle (full again) before the sweep may evict
   * it, in ms. Default 1000. An idle bucket behaves exactly like an absent one, so this only trades
   * memory for fewer re-insertions of busy keys.
   */
  readonly idleGraceMs?: number;
  /**
   * Unref waiters' timers so a pending wait never holds the process open. Default `false`: a script
   * that awaits `waitForCapacity` must not exit before its send time. `close()` cancels every timer
   * either way (RL-W7).
   */
  readonly unrefTimers?: boolean;
  /**
   * The share of each bucket a lower class leaves free for higher ones when a call names no reserve
   * (RL-Q4): `normal` spends a bucket up to `capacity · (1 − normal)`, `bulk` up to
   * `capacity · (1 − bulk)`, `critical` all of it. Default `{ normal: 0, bulk: 0.2 }`: callers that name
   * no class keep every earlier rule's numbers, and bulk traffic always leaves a fifth of every bucket
   * to normal and critical calls.
   */
  readonly reserve?: Reserve;
}

/** Counters of a {@link DefaultRateLimiter}. */
export interface DefaultRateLimiterStats {
  /** Buckets stored now (live, or idle and not swept yet). */
  readonly buckets: number;
  /** Penalties and debts waiting for their bucket's first definition. */
  readonly pending: number;
  /** Waiters between their booking and their send time. */
  readonly waiters: number;
  /** `record` calls dropped because the key, cost or limit was invalid, or the limiter was closed. */
  readonly recordsDropped: number;
  /** Pending penalties or debts dropped because more than `maxPending` were waiting. */
  readonly pendingDropped: number;
  /** Idle buckets evicted by the sweep. */
  readonly evicted: number;
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new TypeError(`createDefaultRateLimiter: ${name} must be a positive integer (got ${describeValue(value)})`);
  }
  return value;
}

function storeOf(options: DefaultRateLimiterOptions): MemoryStore {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`createDefaultRateLimiter: options must be an object (got ${describeValue(options)})`);
  }
  const clock = options.clock ?? systemClock;
  if (typeof clock !== 'object' || clock === null || typeof clock.now !== 'function' || typeof clock.setTimer !== 'function') {
    throw new TypeError('createDefaultRateLimiter: clock must have now() and setTimer(fn, ms)');
  }
  if (options.credentialSecret !== undefined && (typeof options.credentialSecret !== 'string' || options.credentialSecret.length === 0)) {
    throw new TypeError('createDefaultRateLimiter: credentialSecret must be a non-empty string when given');
  }
  if (options.unrefTimers !== undefined && typeof options.unrefTimers !== 'boolean') {
    throw new TypeError(`createDefaultRateLimiter: unrefTimers must be a boolean (got ${describeValue(options.unrefTimers)})`);
  }
  const grace = options.idleGraceMs ?? 1000;
  if (typeof grace !== 'number' || !Number.isFinite(grace) || grace < 0) {
    throw new TypeError(`createDefaultRateLimiter: idleGraceMs must be a finite number >= 0 (got ${describeValue(grace)})`);
  }
  return new MemoryStore({
    clock,
    sweepEvery: positiveInteger(options.idleSweepEvery, 'idleSweepEvery', 256),
    sweepBatch: positiveInteger(options.idleSweepBatch, 'idleSweepBatch', 512),
    maxPending: positiveInteger(options.maxPending, 'maxPending', 10_000),
    idleGraceMs: grace,
  });
}

/**
 * The in-process rate limiter: every rule of the contract in one process, on an injectable clock.
 * The kit's front door over a {@link MemoryStore}; build it with {@link createDefaultRateLimiter}.
 */
export class DefaultRateLimiter extends StoreRateLimiter {
  constructor(options: DefaultRateLimiterOptions = {}) {
    super(storeOf(options), {
      ...(options.credentialSecret === undefined ? {} : { credentialSecret: options.credentialSecret }),
      ...(options.unrefTimers === undefined ? {} : { unrefTimers: options.unrefTimers }),
      ...(options.reserve === undefined ? {} : { reserve: options.reserve }),
    });
  }

  get #memory(): MemoryStore {
    return this.store as MemoryStore;
  }

  /**
   * The synchronous fast path of a single-bucket probe: the same decision `checkRate(key, limit,
   * cost)` would resolve to, without a promise.
   *
   * @example
   * ```ts
   * if (limiter.tryAcquireSync(key, { requests: 10 }, 1).kind === 'ok') send();
   * ```
   */
  tryAcquireSync(key: BucketKey, limit: Limit, cost: number): Decision {
    return this.checkRateSync(key, limit, cost);
  }

  /**
   * The names under which this limiter stores buckets and pending penalties (its bucket ids: venue,
   * credential hash, axis). No name holds a raw credential (RL-K3).
   */
  storageKeys(): string[] {
    return this.#memory.storageKeys();
  }

  /** Counters for monitoring (dropped records, evictions, sizes). */
  stats(): DefaultRateLimiterStats {
    const m = this.#memory;
    return {
      buckets: m.size,
      pending: m.pendingCount,
      waiters: this.pendingWaiters,
      recordsDropped: m.recordsDropped,
      pendingDropped: m.pendingDropped,
      evicted: m.evicted,
    };
  }

  /**
   * Evicts every idle bucket now (the amortized sweep does this a little at a time) and gives unused
   * table memory back. Returns how many buckets were evicted.
   */
  sweep(): number {
    return this.#memory.sweepAll();
  }
}

/**
 * Builds the in-process rate limiter.
 *
 * @param options - clock, credential secret and sweep tuning; all optional.
 * @returns a {@link DefaultRateLimiter} implementing the contract's `RateLimiter` (version `v1`).
 * @throws TypeError when an option is malformed (construction is not an admission method).
 * @example
 * ```ts
 * const limiter = createDefaultRateLimiter();
 * const d = await limiter.checkRate({ venue: 'okx', credential: null }, { requests: 20, periodMs: 2000 }, 1);
 * ```
 */
export function createDefaultRateLimiter(options?: DefaultRateLimiterOptions): DefaultRateLimiter {
  return new DefaultRateLimiter(options);
}
