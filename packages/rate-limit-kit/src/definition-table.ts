import { defineBucket, type BucketDefinition } from './gcra.js';
import { attach } from './key-resolver.js';
import { normalizeLimit } from './normalize-limit.js';

/**
 * A limit as a limiter uses it: the arithmetic's {@link BucketDefinition}, interned (equal limits share
 * one object and one `index`), with the numbers as text exactly as a store writes them.
 */
export interface Definition extends BucketDefinition {
  /** The same for equal definitions of one limiter (0, 1, 2, …). */
  readonly index: number;
  /** `capacity` as JavaScript's shortest round-trip text (what a store writes and parses back exactly). */
  readonly capacityText: string;
  /** `refillPerSec` likewise. */
  readonly refillText: string;
}

/** The resolution of an explicit `null` limit: unlimited (RL-L2). */
export const UNLIMITED = null;

interface Entry {
  readonly capacity: unknown;
  readonly refillPerSec: unknown;
  readonly requests: unknown;
  readonly periodMs: unknown;
  readonly def: Definition;
}

/**
 * Resolves callers' limit objects to interned {@link Definition}s, caching the result on the object
 * (verified on every use). One table per limiter.
 *
 * @example
 * ```ts
 * const defs = new DefinitionTable();
 * defs.resolve({ requests: 10 }) === defs.resolve({ capacity: 10, refillPerSec: 10 }); // true
 * ```
 */
export class DefinitionTable {
  readonly #symbol = Symbol('rate-limit-definition');
  readonly #weak = new WeakMap<object, Entry>();
  readonly #interned = new Map<string, Definition>();
  readonly #all: Definition[] = [];

  /**
   * The definition, {@link UNLIMITED} (`null`) for an explicit `null`, or `undefined` when the limit is
   * missing, invalid or unreadable (ask `normalizeLimit` for the error). Never throws.
   */
  resolve(limit: unknown): Definition | null | undefined {
    if (limit === null) return UNLIMITED;
    if (typeof limit !== 'object') return undefined;
    try {
      const l = limit as { capacity?: unknown; refillPerSec?: unknown; requests?: unknown; periodMs?: unknown; [sym: symbol]: unknown };
      const e = (l[this.#symbol] as Entry | undefined) ?? this.#weak.get(limit);
      if (e !== undefined && e.capacity === l.capacity && e.refillPerSec === l.refillPerSec && e.requests === l.requests && e.periodMs === l.periodMs) {
        return e.def;
      }
      const r = normalizeLimit(limit);
      if (!r.ok || r.value === null) return undefined;
      const def = this.intern(r.value.capacity, r.value.refillPerSec);
      const entry: Entry = { capacity: l.capacity, refillPerSec: l.refillPerSec, requests: l.requests, periodMs: l.periodMs, def };
      if (!attach(limit, this.#symbol, entry)) this.#weak.set(limit, entry);
      return def;
    } catch {
      return undefined;
    }
  }

  /** The interned definition of a valid limit (capacity > 0, refill >= 0, both finite). */
  intern(capacity: number, refillPerSec: number): Definition {
    const capacityText = String(capacity);
    const refillText = String(refillPerSec);
    const name = `${capacityText},${refillText}`;
    let def = this.#interned.get(name);
    if (def === undefined) {
      def = { ...defineBucket({ capacity, refillPerSec }), index: this.#all.length, capacityText, refillText };
      this.#interned.set(name, def);
      this.#all.push(def);
    }
    return def;
  }

  /** The definition with this `index`. */
  at(index: number): Definition {
    return this.#all[index] as Definition;
  }
}
