import { bucketId } from './bucket-id.js';
import { hashCredential } from './hash-credential.js';
import { normalizeKey } from './normalize-key.js';

/**
 * A valid key as a limiter uses it: venue, hashed credential (RL-K3) and axis (RL-K2 filled in), and
 * `id`, one string that is equal for two keys exactly when they name the same bucket.
 */
export interface ResolvedKey {
  readonly venue: string;
  /** The credential's one-way hash, or `null` for the public pool. */
  readonly credentialHash: string | null;
  readonly axis: string;
  /** The bucket's identity (see `bucketId`); never holds a raw credential. */
  readonly id: string;
  /**
   * A slot the store may use to remember its own handle for this bucket (a table slot, a Redis key
   * name). It is per key object and per limiter; a store must verify a remembered handle before use.
   */
  memo: unknown;
}

interface Entry {
  readonly venue: unknown;
  readonly credential: unknown;
  readonly axis: unknown;
  readonly resolved: ResolvedKey;
}

const HASH_CACHE_LIMIT = 10_000;

/**
 * Hangs a limiter's cache entry on a caller's object under a private symbol (non-enumerable, so JSON,
 * spreading and `Object.keys` never see it). Returns false for objects that cannot take it (frozen,
 * sealed, arrays, proxies that refuse), which use a WeakMap instead.
 */
export function attach(target: object, symbol: symbol, entry: unknown): boolean {
  try {
    if (Array.isArray(target) || !Object.isExtensible(target)) return false;
    Object.defineProperty(target, symbol, { value: entry, writable: true, configurable: true, enumerable: false });
    return true;
  } catch {
    return false;
  }
}

/**
 * Resolves callers' key objects to {@link ResolvedKey}s, caching the result on the object (verified
 * against the object's current fields on every use, so a mutated key is never misread) and the
 * credential hashes by credential (bounded). One resolver per limiter.
 *
 * @example
 * ```ts
 * const keys = new KeyResolver();
 * keys.resolve({ venue: 'okx', credential: null }); // { venue: 'okx', credentialHash: null, axis: 'request', id: '3:okx-request', memo: undefined }
 * ```
 */
export class KeyResolver {
  readonly #secret: string | undefined;
  readonly #symbol = Symbol('rate-limit-key');
  readonly #weak = new WeakMap<object, Entry>();
  readonly #hashes = new Map<string, string>();

  /** @param secret - keys the credential hash (HMAC-SHA-256), as every process sharing the buckets must. */
  constructor(secret?: string) {
    this.#secret = secret;
  }

  /**
   * The resolved key, or `undefined` when the key is invalid or cannot be read (ask `normalizeKey` for the
   * error). Never throws.
   */
  resolve(key: unknown): ResolvedKey | undefined {
    if (typeof key !== 'object' || key === null) return undefined;
    try {
      const k = key as { venue?: unknown; credential?: unknown; axis?: unknown; [sym: symbol]: unknown };
      const e = (k[this.#symbol] as Entry | undefined) ?? this.#weak.get(key);
      if (e !== undefined && e.venue === k.venue && e.credential === k.credential && e.axis === k.axis) return e.resolved;
      const r = normalizeKey(key);
      if (!r.ok) return undefined;
      const n = r.value;
      const credentialHash = n.credential === null ? null : this.hash(n.credential);
      const resolved: ResolvedKey = { venue: n.venue, credentialHash, axis: n.axis, id: bucketId(n.venue, credentialHash, n.axis), memo: undefined };
      const entry: Entry = { venue: n.venue, credential: n.credential, axis: k.axis, resolved };
      if (!attach(key, this.#symbol, entry)) this.#weak.set(key, entry);
      return resolved;
    } catch {
      return undefined;
    }
  }

  /** The credential's hash (RL-K3), cached. */
  hash(credential: string): string {
    let h = this.#hashes.get(credential);
    if (h === undefined) {
      h = hashCredential(credential, this.#secret);
      if (this.#hashes.size >= HASH_CACHE_LIMIT) this.#hashes.clear();
      this.#hashes.set(credential, h);
    }
    return h;
  }
}
