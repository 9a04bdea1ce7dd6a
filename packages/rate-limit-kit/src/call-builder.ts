import type { Definition } from './definition-table.js';
import type { DefinitionTable } from './definition-table.js';
import type { KeyResolver, ResolvedKey } from './key-resolver.js';
import { DEFAULT_RESERVE, MAX_CHECKS, readReserve, shareOf, type ReserveShares } from './read-arguments.js';

/** The merged buckets of one call (the scratch arrays, or a copy of them for an asynchronous store). */
export interface CallParts {
  readonly keys: readonly ResolvedKey[];
  /** `null` for an unlimited bucket (dropped before a store sees the call). */
  readonly defs: readonly (Definition | null)[];
  readonly costs: readonly number[];
  /** Where each bucket first occurred in the caller's list. */
  readonly first: readonly number[];
  /** The share each bucket's class leaves free (RL-Q6); read only when `perBucket` is set. */
  readonly frees: readonly number[];
  /** Whether a check named its own reserve, so the buckets' shares may differ (else the call's share holds for all). */
  readonly perBucket: boolean;
}

/**
 * Turns a caller's checks into the buckets of one call, in scratch arrays reused from call to call (no
 * allocation on the hot path): keys resolved and hashed (RL-K2, RL-K3), limits interned (RL-L1),
 * repeated keys merged at their combined cost (RL-M2), two definitions of one key refused (RL-M3), and
 * unlimited buckets (RL-L2) and zero costs (RL-A2) dropped. Anything invalid or unreadable makes the
 * call answer -1; the front door then asks `checkError`/`checksError` for the message.
 */
export class CallBuilder {
  readonly #k: ResolvedKey[] = [];
  readonly #d: (Definition | null)[] = [];
  readonly #c: number[] = [];
  readonly #first: number[] = [];
  readonly #f: number[] = [];
  readonly #byId = new Map<string, number>();
  /** The scratch arrays (valid until the next call). */
  readonly parts: { keys: ResolvedKey[]; defs: (Definition | null)[]; costs: number[]; first: number[]; frees: number[]; perBucket: boolean } = {
    keys: this.#k,
    defs: this.#d,
    costs: this.#c,
    first: this.#first,
    frees: this.#f,
    perBucket: false,
  };

  constructor(
    readonly keys: KeyResolver,
    readonly defs: DefinitionTable,
  ) {}

  /** Fills scratch slot 0 from one check: 1, 0 (unlimited or cost 0: nothing to charge), or -1 (invalid). */
  one(key: unknown, limit: unknown, cost: unknown): number {
    const k = this.keys.resolve(key);
    const d = this.defs.resolve(limit);
    if (k === undefined || d === undefined || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) return -1;
    if (d === null || cost === 0) return 0; // RL-L2, RL-A2
    this.put(k, d, cost);
    return 1;
  }

  /** Fills scratch slot 0 with one bucket already resolved (a limited definition, a cost above 0). */
  put(k: ResolvedKey, d: Definition, cost: number): void {
    this.#k[0] = k;
    this.#d[0] = d;
    this.#c[0] = cost;
    this.#first[0] = 0;
    this.parts.perBucket = false;
  }

  /**
   * Fills the scratch arrays from a list of checks, merging repeated keys at their combined cost
   * (RL-M2), refusing one key with two definitions (RL-M3), and dropping unlimited buckets and zero
   * costs; with the call's class `cls` and its reserve `shares`, the share each bucket leaves free under
   * its checks' own reserves (RL-Q6: a repeated key keeps the largest). Returns how many buckets remain,
   * or -1 when anything is invalid or unreadable.
   */
  many(checks: unknown, cls = 1, shares: ReserveShares = DEFAULT_RESERVE): number {
    try {
      if (!Array.isArray(checks)) return -1;
      const len = checks.length;
      if (len === 0 || len > MAX_CHECKS) return -1;
      const keys = this.#k;
      const defs = this.#d;
      const costs = this.#c;
      const first = this.#first;
      const frees = this.#f;
      const callFree = shareOf(cls, shares);
      let perBucket = false;
      const byId = len > 8 ? this.#byId : undefined;
      byId?.clear();
      let n = 0;
      for (let i = 0; i < len; i++) {
        const c: unknown = checks[i];
        if (typeof c !== 'object' || c === null) return -1;
        const { key, limit, cost, reserve } = c as { key?: unknown; limit?: unknown; cost?: unknown; reserve?: unknown };
        const k = this.keys.resolve(key);
        const d = this.defs.resolve(limit);
        if (k === undefined || d === undefined || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) return -1;
        let free = callFree;
        if (reserve !== undefined) {
          const r = readReserve(reserve, shares, 'reserve');
          if ('code' in r) return -1;
          free = shareOf(cls, r);
          perBucket = true;
        }
        let j: number;
        if (byId === undefined) {
          j = 0;
          while (j < n && (keys[j] as ResolvedKey).id !== k.id) j++;
        } else {
          j = byId.get(k.id) ?? n;
        }
        if (j < n) {
          if (defs[j] !== d) return -1;
          costs[j] = (costs[j] as number) + cost;
          if (free > (frees[j] as number)) frees[j] = free;
        } else {
          keys[n] = k;
          defs[n] = d;
          costs[n] = cost;
          first[n] = i;
          frees[n] = free;
          byId?.set(k.id, n);
          n++;
        }
      }
      let m = 0;
      for (let i = 0; i < n; i++) {
        if (defs[i] === null || costs[i] === 0) continue;
        if (m !== i) {
          keys[m] = keys[i] as ResolvedKey;
          defs[m] = defs[i] as Definition;
          costs[m] = costs[i] as number;
          first[m] = first[i] as number;
          frees[m] = frees[i] as number;
        }
        m++;
      }
      this.parts.perBucket = perBucket;
      return m;
    } catch {
      return -1;
    }
  }

  /** A copy of the first `n` merged buckets (an asynchronous store answers after the scratch moved on). */
  copy(n: number): CallParts {
    return {
      keys: this.#k.slice(0, n),
      defs: this.#d.slice(0, n),
      costs: this.#c.slice(0, n),
      first: this.#first.slice(0, n),
      frees: this.#f.slice(0, n),
      perBucket: this.parts.perBucket,
    };
  }
}
