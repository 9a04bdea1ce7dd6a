import type { Reserve } from '@core/rate-limit-contract';
import type { LimiterObserver } from './limiter-observer.js';

/** Options of the front door every store gets. */
export interface StoreRateLimiterOptions {
  /** Keys the credential hash (HMAC-SHA-256) so hashes cannot be checked against guessed keys (RL-K3). */
  readonly credentialSecret?: string;
  /** Unref waiters' timers so a pending wait never holds the process open. Default `false`. */
  readonly unrefTimers?: boolean;
  /** Told of every admission's answer (metrics); see {@link LimiterObserver}. Default none. */
  readonly observer?: LimiterObserver;
  /**
   * The share of each bucket a lower class leaves free for higher ones when a call names no reserve
   * (RL-Q4); default `{ normal: 0, bulk: 0.2 }`. Only for a store with `capabilities.priorities`.
   */
  readonly reserve?: Reserve;
}

/** The options every store's front door reads first; throws a TypeError on a bad one. */
export function readLimiterOptions(options: StoreRateLimiterOptions): { readonly secret: string | undefined; readonly unrefTimers: boolean } {
  const secret = options.credentialSecret;
  if (secret !== undefined && (typeof secret !== 'string' || secret.length === 0)) {
    throw new TypeError('credentialSecret must be a non-empty string when given');
  }
  if (options.unrefTimers !== undefined && typeof options.unrefTimers !== 'boolean') throw new TypeError('unrefTimers must be a boolean');
  return { secret, unrefTimers: options.unrefTimers ?? false };
}
