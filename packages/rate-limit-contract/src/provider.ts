import type { RateLimitError } from './errors.js';

/** Options of {@link ProviderRateLimiter.check}. */
export interface ProviderCheckOptions {
  /** The credential the provider's bucket belongs to; `null` or absent for the public pool. */
  readonly credential?: string | null;
}

/** Options of {@link ProviderRateLimiter.acquire}. */
export interface ProviderAcquireOptions extends ProviderCheckOptions {
  /** How long to wait for room; default 30 000 ms. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * The host-level answer of `check` (RL-P1): room now, rate limited for `retryAfterMs`, or an error
 * meaning "do not proceed" (RL-P2).
 */
export type ProviderCheckResult =
  | { readonly kind: 'ok' }
  | { readonly kind: 'rate_limited'; readonly retryAfterMs: number }
  | { readonly kind: 'error'; readonly error: RateLimitError };

/** The host-level answer of `penalize` (RL-P5). */
export type ProviderPenaltyResult = { readonly kind: 'ok' } | { readonly kind: 'error'; readonly error: RateLimitError };

/** The host-level answer of `acquire` (RL-P3). */
export type ProviderAcquireResult = { readonly kind: 'ok' } | { readonly kind: 'error'; readonly error: RateLimitError };

/**
 * The provider-level contract that exchange adapters call (dp_exchange_core's behaviour). A host
 * chooses its implementation through configuration; any bucket-level {@link RateLimiter} can be
 * offered behind it.
 *
 * @remarks RL-P1..RL-P6. `check` and `acquire` do not consume; `record` fills the bucket; an HTTP
 * client wrapper records every request it sends on the adapter's behalf (RL-P6).
 *
 * @example
 * ```ts
 * const room = await provider.acquire('webull', 1, { timeoutMs: 5_000 });
 * if (room.kind === 'ok') { await send(); provider.record('webull', 1); }
 * ```
 */
export interface ProviderRateLimiter {
  /**
   * Is there room for `weight` now? Does not consume.
   *
   * @remarks RL-P1 (the weight is honoured), RL-P2 (an implementation that cannot tell answers
   * error, never ok).
   */
  check(provider: string, weight: number, options?: ProviderCheckOptions): Promise<ProviderCheckResult>;
  /**
   * Waits until there is room for `weight`. Does not consume.
   *
   * @remarks RL-P3: ok, error `rate_limit_timeout`, or another error.
   */
  acquire(provider: string, weight: number, options?: ProviderAcquireOptions): Promise<ProviderAcquireResult>;
  /**
   * Reports `weight` that was sent. Cannot fail and never delays the request.
   *
   * @remarks RL-P4.
   */
  record(provider: string, weight: number, options?: ProviderCheckOptions): void;
  /**
   * Holds the provider closed for `retryAfterMs`; never shortens a hold.
   *
   * @returns ok when the hold is in force, or a typed error saying why it was not applied (a
   * malformed argument, an unreachable store): a penalty is never ignored silently.
   * @remarks RL-P5.
   */
  penalize(provider: string, retryAfterMs: number, options?: ProviderCheckOptions): Promise<ProviderPenaltyResult>;
}
