import type { BucketKey, Clock, RateLimiter } from '@core/rate-limit-contract';
import { bucketKeyId as keyId } from '@core/exchange-specs';
import { PacedFetchError } from './paced-fetch-error.js';
import { abortReason } from './sleep.js';

/** One deferred charge to hold: its key, cost and the most this process may hold in flight on the key. */
export interface HeldCharge {
  readonly key: BucketKey;
  readonly cost: number;
  readonly bound: number;
}

/**
 * The deferred cost in flight per bucket key, in this process: a request takes its deferred charges
 * here before its admission and gives them back once its answer (or error, or abort) is settled, so
 * that what can still be charged after the fact never exceeds the bound on any key. All paced fetches
 * on one limiter object share one ledger (see {@link ledgerOf}): a bucket of the IP is one key whatever
 * the credential.
 */
export class InFlightLedger {
  readonly #held = new Map<string, number>();
  readonly #waiters = new Set<() => void>();

  /** The deferred cost held on a key now. */
  held(key: BucketKey): number {
    return this.#held.get(keyId(key)) ?? 0;
  }

  /**
   * Takes every charge at once, waiting (without polling: woken by each release) while any of them would
   * exceed its bound, until `deadlineMs` on `clock` (then `rate_limit_timeout`) or the signal aborts.
   *
   * @returns the release, to call exactly once when the request's answer is settled.
   */
  async acquire(charges: readonly HeldCharge[], clock: Clock, deadlineMs: number, signal: AbortSignal | undefined, what: string): Promise<() => void> {
    for (;;) {
      if (signal?.aborted === true) throw abortReason(signal);
      if (charges.every((c) => this.held(c.key) + c.cost <= c.bound * (1 + 1e-9))) {
        for (const c of charges) this.#held.set(keyId(c.key), this.held(c.key) + c.cost);
        let released = false;
        return () => {
          if (released) return;
          released = true;
          for (const c of charges) {
            const left = this.held(c.key) - c.cost;
            if (left > 1e-9) this.#held.set(keyId(c.key), left);
            else this.#held.delete(keyId(c.key));
          }
          for (const w of [...this.#waiters]) w();
        };
      }
      const left = deadlineMs - clock.now();
      if (left <= 0) {
        throw new PacedFetchError('rate_limit_timeout', `${what} not sent: its deferred charges waited for room in flight beyond the budget`);
      }
      await new Promise<void>((resolve, reject) => {
        const done = (): void => {
          this.#waiters.delete(done);
          timer.cancel();
          signal?.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          this.#waiters.delete(done);
          timer.cancel();
          reject(abortReason(signal));
        };
        const timer = clock.setTimer(done, left);
        this.#waiters.add(done);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
    }
  }
}

const ledgers = new WeakMap<RateLimiter, InFlightLedger>();

/** The ledger of a limiter object in this process (created on first use). */
export function ledgerOf(limiter: RateLimiter): InFlightLedger {
  let l = ledgers.get(limiter);
  if (l === undefined) {
    l = new InFlightLedger();
    ledgers.set(limiter, l);
  }
  return l;
}
