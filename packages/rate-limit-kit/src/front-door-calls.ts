import type {
  BucketKey,
  BucketSnapshot,
  Capabilities,
  ErrorResult,
  Limit,
  PenaltyHold,
  RateLimitError,
  SideEffectResult,
  SyncOptions,
} from '@core/rate-limit-contract';
import { internalResult, settle } from './answer-shape.js';
import type { Definition, DefinitionTable } from './definition-table.js';
import type { KeyResolver } from './key-resolver.js';
import type { LimiterStore } from './limiter-store.js';
import { CLOSED, errorResult, notSupported } from './messages.js';
import { normalizeKey, validateVenue } from './normalize-key.js';
import { normalizeLimit } from './normalize-limit.js';
import { readHold, readSyncOptions } from './read-arguments.js';
import { validateCost } from './validate-number.js';

/**
 * The front door's feedback and inspection calls (`record`, `sync`, `penalize`, `borrowed`, `reset`,
 * `resetVenue`, `resetAll`, `snapshot`): each reads its arguments once and inside a guard (RL-F2), answers
 * `closed` and `not_supported` the same way for every store, and never rejects (RL-F1). `StoreRateLimiter`
 * hands them its state.
 */
export interface FrontDoor {
  readonly store: LimiterStore;
  readonly capabilities: Capabilities;
  readonly keys: KeyResolver;
  readonly defs: DefinitionTable;
  /** `capabilities.windowLimits`: where false, a window limit answers not_supported. */
  readonly windows: boolean;
  /** Whether the limiter is closed (read on every call). */
  readonly isClosed: () => boolean;
}

const P_CLOSED: Promise<ErrorResult> = Promise.resolve(CLOSED);

/**
 * Whether a limit, as the caller passed it, is a window limit: read before anything else, so that a
 * limiter without window limits answers `not_supported` whatever the other arguments (RL-F2). Anything
 * unreadable is not (its reading fails later, as `invalid_parameters`).
 */
export function namesWindowLimit(limit: unknown): boolean {
  try {
    return typeof limit === 'object' && limit !== null && 'perWindow' in limit;
  } catch {
    return false;
  }
}

/** Whether any check, as the caller passed it, has a window limit (see {@link namesWindowLimit}). */
export function namesAnyWindowLimit(checks: unknown): boolean {
  try {
    if (!Array.isArray(checks)) return false;
    for (const c of checks as unknown[]) if (typeof c === 'object' && c !== null && namesWindowLimit((c as { limit?: unknown }).limit)) return true;
    return false;
  } catch {
    return false;
  }
}

/** Why a key that the resolver refused is invalid. */
export function keyError(key: unknown): RateLimitError {
  const r = normalizeKey(key, 'key');
  return r.ok ? { code: 'invalid_parameters', message: 'key: could not be read consistently (a getter or proxy)', path: 'key' } : r.error;
}

function limitError(limit: unknown): RateLimitError {
  const r = normalizeLimit(limit, 'limit');
  return r.ok ? { code: 'invalid_parameters', message: 'limit: could not be read consistently (a getter or proxy)', path: 'limit' } : r.error;
}

export function recordCall(door: FrontDoor, key: BucketKey, cost: number, limit: Limit | undefined): void {
  const store = door.store;
  try {
    if (door.isClosed() || (!door.windows && namesWindowLimit(limit))) return store.dropRecord();
    const k = door.keys.resolve(key);
    if (k === undefined || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) return store.dropRecord();
    // the limit is optional here (a live bucket keeps its definition); an explicit null is unlimited (RL-L2)
    let def: Definition | undefined;
    if (limit !== undefined) {
      const d = door.defs.resolve(limit);
      if (d === null) return;
      if (d === undefined) return store.dropRecord(); // a malformed call changes nothing (RL-F2)
      def = d;
    }
    if (cost === 0) return;
    store.record(k, cost, def);
  } catch {
    try {
      store.dropRecord();
    } catch {
      // record never throws (RL-R1)
    }
  }
}

export function syncCall(door: FrontDoor, key: BucketKey, limit: Limit, minBorrowed: number, options: SyncOptions | undefined): Promise<SideEffectResult> {
  if (!door.capabilities.sync) return Promise.resolve(notSupported('sync', 'sync'));
  if (door.isClosed()) return P_CLOSED;
  try {
    if (!door.windows && namesWindowLimit(limit)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
    const k = door.keys.resolve(key);
    if (k === undefined) return Promise.resolve(errorResult(keyError(key)));
    const d = door.defs.resolve(limit);
    if (d === undefined) return Promise.resolve(errorResult(limitError(limit)));
    const m = validateCost(minBorrowed, 'minBorrowed');
    if (!m.ok) return Promise.resolve(errorResult(m.error));
    const o = readSyncOptions(options);
    if ('code' in o) return Promise.resolve(errorResult(o));
    if (d === null) return Promise.resolve({ kind: 'ok' });
    return settle(door.store.sync(k, d, m.value, o));
  } catch (e) {
    return Promise.resolve(internalResult(e));
  }
}

export function penalizeCall(door: FrontDoor, key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
  if (!door.capabilities.penalize) return Promise.resolve(notSupported('penalize', 'penalize'));
  if (door.isClosed()) return P_CLOSED;
  try {
    const k = door.keys.resolve(key);
    if (k === undefined) return Promise.resolve(errorResult(keyError(key)));
    const h = readHold(hold);
    if ('code' in h) return Promise.resolve(errorResult(h));
    return settle(door.store.penalize(k, h));
  } catch (e) {
    return Promise.resolve(internalResult(e));
  }
}

/** `borrowed(key)` and `reset(key)`: one bucket, read or forgotten. */
export function bucketCall<T>(door: FrontDoor, key: BucketKey, call: 'borrowed' | 'reset'): Promise<T | ErrorResult> {
  if (door.isClosed()) return P_CLOSED;
  try {
    const k = door.keys.resolve(key);
    if (k === undefined) return Promise.resolve(errorResult(keyError(key)));
    return settle((call === 'borrowed' ? door.store.borrowed(k) : door.store.reset(k)) as T | Promise<T>);
  } catch (e) {
    return Promise.resolve(internalResult(e));
  }
}

export function resetVenueCall(door: FrontDoor, venue: string): Promise<SideEffectResult> {
  if (door.isClosed()) return P_CLOSED;
  try {
    const v = validateVenue(venue, 'venue');
    if (!v.ok) return Promise.resolve(errorResult(v.error));
    return settle(door.store.resetVenue(v.value));
  } catch (e) {
    return Promise.resolve(internalResult(e));
  }
}

export function resetAllCall(door: FrontDoor): Promise<SideEffectResult> {
  if (door.isClosed()) return P_CLOSED;
  try {
    return settle(door.store.resetAll());
  } catch (e) {
    return Promise.resolve(internalResult(e));
  }
}

export function snapshotCall(door: FrontDoor): Promise<readonly BucketSnapshot[] | ErrorResult> {
  if (!door.capabilities.snapshot) return Promise.resolve(notSupported('snapshot', 'snapshot'));
  if (door.isClosed()) return P_CLOSED;
  try {
    return settle(door.store.snapshot());
  } catch (e) {
    return Promise.resolve(internalResult(e));
  }
}
