import { defineBucket, type BucketDefinition } from './gcra.js';
import { attach } from './key-resolver.js';
import { isWindowLimit, normalizeLimit } from './normalize-limit.js';
import { defineWindow, type WindowDefinition } from './window.js';

/**
 * A limit as a limiter uses it, interned (equal limits share one object and one `index`), with its
 * numbers as text exactly as a store writes them. A token bucket's arithmetic is the
 * {@link BucketDefinition}; a window limit (RL-V1) has `window` set, and its bucket numbers describe its
 * long-run rate (`capacity` = perWindow, `perWindow` per `windowMs`) for conversions to and from token
 * buckets (RL-L5).
 */
export interface Definition extends BucketDefinition {
  /** The same for equal definitions of one limiter (0, 1, 2, …). */
  readonly index: number;
  /** The window limit's arithmetic, or `undefined` for a token bucket. */
  readonly window: WindowDefinition | undefined;
  /**
   * The definition as text, as stores write it and compare it: `capacity,refillPerSec` for a token
   * bucket, `perWindow/windowMs/jitterMs` for a window limit (JavaScript's shortest round-trip text of
   * each number, which parses back exactly).
   */
  readonly text: string;
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
      const v = r.value;
      const def = isWindowLimit(v) ? this.internWindow(v.perWindow, v.windowMs, v.jitterMs) : this.intern(v.capacity, v.refillPerSec);
      const entry: Entry = { capacity: l.capacity, refillPerSec: l.refillPerSec, requests: l.requests, periodMs: l.periodMs, def };
      if (!attach(limit, this.#symbol, entry)) this.#weak.set(limit, entry);
      return def;
    } catch {
      return undefined;
    }
  }

  /** The interned definition of a valid token bucket (capacity > 0, refill >= 0, both finite). */
  intern(capacity: number, refillPerSec: number): Definition {
    const text = `${String(capacity)},${String(refillPerSec)}`;
    let def = this.#interned.get(text);
    if (def === undefined) {
      def = { ...defineBucket({ capacity, refillPerSec }), index: this.#all.length, window: undefined, text };
      this.#interned.set(text, def);
      this.#all.push(def);
    }
    return def;
  }

  /** The interned definition of a valid window limit (perWindow, windowMs > 0, jitterMs >= 0, all finite). */
  internWindow(perWindow: number, windowMs: number, jitterMs: number): Definition {
    const text = `${String(perWindow)}/${String(windowMs)}/${String(jitterMs)}`;
    let def = this.#interned.get(text);
    if (def === undefined) {
      const rate = { ...defineBucket({ capacity: perWindow, refillPerSec: (perWindow * 1000) / windowMs }) };
      def = { ...rate, index: this.#all.length, window: defineWindow(perWindow, windowMs, jitterMs), text };
      this.#interned.set(text, def);
      this.#all.push(def);
    }
    return def;
  }

  /** The definition with this `index`. */
  at(index: number): Definition {
    return this.#all[index] as Definition;
  }
}
