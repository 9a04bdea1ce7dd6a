/**
 * Counts of open connections and subscribed topics per cap and scope (IP, account), shared by every
 * paced WebSocket of this process that uses the same registry (by default, one per process). A
 * count is reserved before a connection is attempted or a subscribe message is sent, so two clients
 * of one process cannot both take the last place, and given back when the connection closes or the
 * topics are unsubscribed.
 *
 * Caps are counted in this process only: processes that share buckets through Redis do not share
 * these counts (a cap is a count at one moment, which the rate-limiter contract has no operation
 * for). Give each process its share of a cap when several run (`share`).
 */
export class CapRegistry {
  readonly #counts = new Map<string, number>();
  readonly #share: number;

  /**
   * @param options - `share`: the fraction of every cap this registry may use (default 1), for
   * processes that divide an IP's or account's caps between them (4 processes: 0.25 each).
   * @throws RangeError when `share` is not in (0, 1].
   */
  constructor(options: { readonly share?: number } = {}) {
    const share = options.share ?? 1;
    if (!(share > 0 && share <= 1)) throw new RangeError(`CapRegistry: share must be in (0, 1], got ${String(share)}`);
    this.#share = share;
  }

  /** The part of a cap of `limit` this registry may use: `floor(limit · share)`. */
  allowance(limit: number): number {
    return Math.floor(limit * this.#share + 1e-9);
  }

  /** The count under `key`. */
  count(key: string): number {
    return this.#counts.get(key) ?? 0;
  }

  /** Adds `n` under `key` when the result stays within this registry's share of `limit`; returns whether it did. */
  reserve(key: string, n: number, limit: number): boolean {
    const now = this.count(key);
    if (now + n > this.allowance(limit)) return false;
    this.#counts.set(key, now + n);
    return true;
  }

  /** Gives back `n` under `key` (never below 0). */
  release(key: string, n: number): void {
    const next = Math.max(0, this.count(key) - n);
    if (next === 0) this.#counts.delete(key);
    else this.#counts.set(key, next);
  }
}

/** The registry every paced WebSocket of this process uses unless given its own. */
export const processCapRegistry = new CapRegistry();
