import type { RateLimiter } from '@core/rate-limit-contract';

/**
 * What the paced fetches on one limiter object in this process know of their own sends, per bucket key:
 * a bucket of the IP is sent on by every credential's fetch, and a usage header reports all of them, so
 * each fetch must know the others' answered sends (`seq` orders sends and answers as they happened).
 */
export interface SharedSendLog<T> {
  readonly sends: Map<string, T[]>;
  seq: number;
}

const logs = new WeakMap<RateLimiter, SharedSendLog<unknown>>();

/** The send log of a limiter object in this process (created on first use). */
export function sendLogOf<T>(limiter: RateLimiter): SharedSendLog<T> {
  let l = logs.get(limiter);
  if (l === undefined) {
    l = { sends: new Map(), seq: 0 };
    logs.set(limiter, l);
  }
  return l as SharedSendLog<T>;
}
