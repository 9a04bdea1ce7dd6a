import type {
  BucketCheck,
  BucketKey,
  BucketSnapshot,
  Capabilities,
  CheckOptions,
  Clock,
  Decision,
  ErrorResult,
  Limit,
  PeekDecision,
  PenaltyHold,
  RateLimiter,
  RateLimitError,
  SideEffectResult,
  TimerHandle,
  WaitDecision,
  WaitOptions,
} from '@core/rate-limit-contract';
import { bucketId, decodeBucketId, venuePrefix } from './bucket-id.js';
import { BucketTable } from './bucket-table.js';
import { describeValue } from './describe-value.js';
import {
  borrowedAt,
  cancelBooking,
  chargeAt,
  defineBucket,
  freshState,
  isIdle,
  penalizeUntil,
  recordCost,
  redefine,
  roundUpWait,
  sendTime,
  syncBorrowed,
  tokensAt,
  type BucketDefinition,
} from './gcra.js';
import { hashCredential } from './hash-credential.js';
import { normalizeKey, validateVenue } from './normalize-key.js';
import { normalizeLimit } from './normalize-limit.js';
import { rateLimitError, type Result } from './result.js';
import { systemClock } from './system-clock.js';
import { MAX_CHECKS, validateChecks } from './validate-checks.js';
import { validateCost, validateSignal, validateWaitBudget } from './validate-number.js';

/** Options of {@link createDefaultRateLimiter}. */
export interface DefaultRateLimiterOptions {
  /** The limiter's clock; tests inject a manual clock. Default {@link systemClock}. */
  readonly clock?: Clock;
  /** Keys the credential hash (HMAC-SHA-256) so hashes cannot be checked against guessed keys (RL-K3). */
  readonly credentialSecret?: string;
  /** Operations between two steps of the idle-bucket sweep. Default 256. */
  readonly idleSweepEvery?: number;
  /** Slots a sweep step examines. Default 512 (two per operation at the default period). */
  readonly idleSweepBatch?: number;
  /** Most penalties and recorded debts kept for buckets not defined yet. Default 10 000. */
  readonly maxPending?: number;
  /**
   * How long a bucket stays stored after it became idle (full again) before the sweep may evict
   * it, in ms. Default 1000. An idle bucket behaves exactly like an absent one, so this only trades
   * memory for fewer re-insertions of busy keys.
   */
  readonly idleGraceMs?: number;
  /**
   * Unref waiters' timers so a pending wait never holds the process open. Default `false`: a script
   * that awaits `waitForCapacity` must not exit before its send time. `close()` cancels every timer
   * either way (RL-W7).
   */
  readonly unrefTimers?: boolean;
}

/** Counters of a {@link DefaultRateLimiter}. */
export interface DefaultRateLimiterStats {
  /** Buckets stored now (live, or idle and not swept yet). */
  readonly buckets: number;
  /** Penalties and debts waiting for their bucket's first definition. */
  readonly pending: number;
  /** Waiters between their booking and their send time. */
  readonly waiters: number;
  /** `record` calls dropped because the key, cost or limit was invalid, or the limiter was closed. */
  readonly recordsDropped: number;
  /** Pending penalties or debts dropped because more than `maxPending` were waiting. */
  readonly pendingDropped: number;
  /** Idle buckets evicted by the sweep. */
  readonly evicted: number;
}

interface KeyEntry {
  readonly venue: unknown;
  readonly credential: unknown;
  readonly axis: unknown;
  readonly id: string;
  /** The table slot last seen for `id` (checked against the table before use), or -1. */
  slot: number;
}

interface LimitEntry {
  readonly capacity: unknown;
  readonly refillPerSec: unknown;
  readonly requests: unknown;
  readonly periodMs: unknown;
  readonly def: number;
}

interface Pending {
  holdUntil: number;
  debt: number;
}

interface Booked {
  readonly id: string;
  readonly def: number;
  readonly written: number;
  /** The stored state and definition the booking replaced (for a bucket it created: fresh, with pending holds folded in). */
  readonly replaced: number;
  readonly replacedDef: number;
  /** The booking created the bucket: a return forgets it again (and puts back the penalty or debt it folded in). */
  readonly created: boolean;
  readonly pendingBefore: Pending | undefined;
  /** Where the booking wrote; a bucket moved or forgotten since then forfeits the return. */
  readonly slot: number;
  readonly epoch: number;
  /** The slot's write counter right after the booking wrote: any later write (a charge, record, sync or penalty) forfeits the slot. */
  readonly version: number;
}

interface Waiter {
  readonly sendAt: number;
  readonly startedAt: number;
  readonly booked: readonly Booked[];
  readonly signal: AbortSignal | undefined;
  readonly resolve: (d: Decision) => void;
  timer: TimerHandle | undefined;
  onAbort: (() => void) | undefined;
}

const UNLIMITED = -2;
/** `record` called without its optional limit argument. */
const NOT_GIVEN: unique symbol = Symbol('not given');
const INVALID = -1;
const HASH_CACHE_LIMIT = 10_000;
const CLOSED_ERROR: RateLimitError = Object.freeze({ code: 'closed', message: 'the rate limiter was closed' });
const CLOSED: Decision = Object.freeze({ kind: 'error', error: CLOSED_ERROR });
const CLOSED_RESULT: ErrorResult = CLOSED as ErrorResult;
const OK_RESULT: SideEffectResult = Object.freeze({ kind: 'ok' });

const CAPABILITIES: Capabilities = Object.freeze({
  distributed: false,
  injectableClock: true,
  bookings: true,
  abortSignal: true,
  fractionalCosts: true,
  snapshot: true,
  sync: true,
  penalize: true,
  crossVenueChecks: true,
});

function errorDecision(error: RateLimitError): Decision {
  return { kind: 'error', error };
}

function internal(e: unknown): Decision {
  const name = e instanceof Error ? e.name : typeof e;
  return { kind: 'error', error: { code: 'internal', message: `unexpected failure inside the rate limiter (${name})` } };
}

function positiveInteger(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    throw new TypeError(`createDefaultRateLimiter: ${name} must be a positive integer (got ${describeValue(value)})`);
  }
  return value;
}

/**
 * The in-process rate limiter: every rule of SPEC.md in one process, on an injectable clock.
 * Build it with {@link createDefaultRateLimiter}.
 *
 * State is one number per bucket (GCRA `tat`, see gcra.ts) in typed arrays behind one `Map`; idle
 * buckets are evicted by an amortized sweep; waiting uses one timer per waiter and no per-key timers.
 */
export class DefaultRateLimiter implements RateLimiter {
  readonly specificationVersion = 'v1' as const;
  readonly capabilities: Capabilities = CAPABILITIES;

  readonly #clock: Clock;
  readonly #secret: string | undefined;
  readonly #sweepEvery: number;
  readonly #sweepBatch: number;
  readonly #maxPending: number;
  readonly #unrefTimers: boolean;
  readonly #idleGraceMs: number;
  readonly #table = new BucketTable();
  readonly #defs: BucketDefinition[] = [];
  readonly #defIntern = new Map<string, number>();
  readonly #limitCache = new WeakMap<object, LimitEntry>();
  readonly #keyCache = new WeakMap<object, KeyEntry>();
  /** Where a key object carries this limiter's cache entry (non-enumerable; WeakMap when not extensible). */
  readonly #keySymbol = Symbol('rate-limit-bucket');
  readonly #limitSymbol = Symbol('rate-limit-definition');
  readonly #hashCache = new Map<string, string>();
  readonly #pending = new Map<string, Pending>();
  readonly #holds = new Map<string, number>();
  readonly #waiters = new Set<Waiter>();
  #closed = false;
  #ops = 0;
  #cursor = 0;
  #recordsDropped = 0;
  #pendingDropped = 0;
  #evicted = 0;
  // Scratch space of one multi-bucket call (calls never interleave: each runs to completion).
  readonly #entries: KeyEntry[] = [];
  readonly #dix: number[] = [];
  readonly #costs: number[] = [];
  readonly #slots: number[] = [];
  readonly #states: number[] = [];

  constructor(options: DefaultRateLimiterOptions = {}) {
    if (typeof options !== 'object' || options === null) {
      throw new TypeError(`createDefaultRateLimiter: options must be an object (got ${describeValue(options)})`);
    }
    const clock = options.clock ?? systemClock;
    if (typeof clock !== 'object' || clock === null || typeof clock.now !== 'function' || typeof clock.setTimer !== 'function') {
      throw new TypeError('createDefaultRateLimiter: clock must have now() and setTimer(fn, ms)');
    }
    if (options.credentialSecret !== undefined && (typeof options.credentialSecret !== 'string' || options.credentialSecret.length === 0)) {
      throw new TypeError('createDefaultRateLimiter: credentialSecret must be a non-empty string when given');
    }
    this.#clock = clock;
    this.#secret = options.credentialSecret;
    this.#sweepEvery = positiveInteger(options.idleSweepEvery, 'idleSweepEvery', 256);
    this.#sweepBatch = positiveInteger(options.idleSweepBatch, 'idleSweepBatch', 512);
    this.#maxPending = positiveInteger(options.maxPending, 'maxPending', 10_000);
    if (options.unrefTimers !== undefined && typeof options.unrefTimers !== 'boolean') {
      throw new TypeError(`createDefaultRateLimiter: unrefTimers must be a boolean (got ${describeValue(options.unrefTimers)})`);
    }
    this.#unrefTimers = options.unrefTimers ?? false;
    const grace = options.idleGraceMs ?? 1000;
    if (typeof grace !== 'number' || !Number.isFinite(grace) || grace < 0) {
      throw new TypeError(`createDefaultRateLimiter: idleGraceMs must be a finite number >= 0 (got ${describeValue(grace)})`);
    }
    this.#idleGraceMs = grace;
  }

  // ---------------------------------------------------------------- admission

  checkRate(key: BucketKey, limit: Limit, cost: number, options?: CheckOptions): Promise<Decision> {
    try {
      let budget: number | undefined;
      if (options !== undefined) {
        const b = this.#budgetOption(options, false);
        if (typeof b !== 'number' && b !== undefined) return Promise.resolve(b);
        budget = b;
      }
      return Promise.resolve(this.#checkOne(key, limit, cost, budget));
    } catch (e) {
      return Promise.resolve(internal(e));
    }
  }

  /**
   * The synchronous fast path of a single-bucket probe: the same decision `checkRate(key, limit,
   * cost)` would resolve to, without a promise.
   *
   * @example
   * ```ts
   * if (limiter.tryAcquireSync(key, { requests: 10 }, 1).kind === 'ok') send();
   * ```
   */
  tryAcquireSync(key: BucketKey, limit: Limit, cost: number): Decision {
    try {
      return this.#checkOne(key, limit, cost, undefined);
    } catch (e) {
      return internal(e);
    }
  }

  checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision> {
    try {
      let budget: number | undefined;
      if (options !== undefined) {
        const b = this.#budgetOption(options, false);
        if (typeof b !== 'number' && b !== undefined) return Promise.resolve(b);
        budget = b;
      }
      return Promise.resolve(this.#checkMany(checks, budget, false));
    } catch (e) {
      return Promise.resolve(internal(e));
    }
  }

  peek(checks: readonly BucketCheck[]): Promise<PeekDecision> {
    try {
      return Promise.resolve(this.#checkMany(checks, undefined, true) as PeekDecision);
    } catch (e) {
      return Promise.resolve(internal(e) as PeekDecision);
    }
  }

  waitForCapacity(checks: readonly BucketCheck[], options?: WaitOptions): Promise<WaitDecision> {
    try {
      return this.#wait(checks, options) as Promise<WaitDecision>;
    } catch (e) {
      return Promise.resolve(internal(e) as WaitDecision);
    }
  }

  // ---------------------------------------------------------------- feedback

  record(key: BucketKey, cost: number, limit?: Limit): void {
    try {
      // An explicit `undefined` limit is unlimited like everywhere else (RL-L2); an omitted one is "not given".
      this.#record(key, cost, arguments.length >= 3 ? (limit as Limit) : NOT_GIVEN);
    } catch {
      this.#recordsDropped++;
    }
  }

  sync(key: BucketKey, limit: Limit, minBorrowed: number): Promise<SideEffectResult> {
    try {
      return Promise.resolve(this.#sync(key, limit, minBorrowed));
    } catch (e) {
      return Promise.resolve(internal(e) as ErrorResult);
    }
  }

  penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    try {
      return Promise.resolve(this.#penalize(key, hold));
    } catch (e) {
      return Promise.resolve(internal(e) as ErrorResult);
    }
  }

  // ---------------------------------------------------------------- inspection

  borrowed(key: BucketKey): Promise<number | ErrorResult> {
    try {
      if (this.#closed) return Promise.resolve(CLOSED_RESULT);
      const id = this.#keyId(key);
      if (id === undefined) return Promise.resolve(this.#keyError(key, 'key'));
      const now = this.#clock.now();
      const slot = this.#table.find(id);
      if (slot >= 0) return Promise.resolve(borrowedAt(this.#table.state(slot), this.#defAt(slot), now));
      return Promise.resolve(this.#pending.get(id)?.debt ?? 0);
    } catch (e) {
      return Promise.resolve(internal(e) as ErrorResult);
    }
  }

  reset(key: BucketKey): Promise<SideEffectResult> {
    try {
      if (this.#closed) return Promise.resolve(CLOSED_RESULT);
      const id = this.#keyId(key);
      if (id === undefined) return Promise.resolve(this.#keyError(key, 'key'));
      const slot = this.#table.find(id);
      if (slot >= 0) this.#table.remove(slot);
      this.#pending.delete(id);
      this.#holds.delete(id);
      return Promise.resolve(OK_RESULT);
    } catch (e) {
      return Promise.resolve(internal(e) as ErrorResult);
    }
  }

  resetVenue(venue: string): Promise<SideEffectResult> {
    try {
      if (this.#closed) return Promise.resolve(CLOSED_RESULT);
      const v = validateVenue(venue, 'venue');
      if (!v.ok) return Promise.resolve({ kind: 'error', error: v.error });
      const prefix = venuePrefix(v.value);
      const table = this.#table;
      for (let slot = 0; slot < table.highWater; slot++) {
        const id = table.id(slot);
        if (id !== undefined && id.startsWith(prefix)) table.remove(slot);
      }
      for (const id of [...this.#pending.keys()]) if (id.startsWith(prefix)) this.#pending.delete(id);
      for (const id of [...this.#holds.keys()]) if (id.startsWith(prefix)) this.#holds.delete(id);
      return Promise.resolve(OK_RESULT);
    } catch (e) {
      return Promise.resolve(internal(e) as ErrorResult);
    }
  }

  resetAll(): Promise<SideEffectResult> {
    if (this.#closed) return Promise.resolve(CLOSED_RESULT);
    this.#table.clear();
    this.#pending.clear();
    this.#holds.clear();
    this.#cursor = 0;
    return Promise.resolve(OK_RESULT);
  }

  snapshot(): Promise<readonly BucketSnapshot[]> {
    if (this.#closed) return Promise.resolve([]);
    const now = this.#clock.now();
    const out: BucketSnapshot[] = [];
    const table = this.#table;
    for (let slot = 0; slot < table.highWater; slot++) {
      const id = table.id(slot);
      if (id === undefined) continue;
      const def = this.#defAt(slot);
      const state = table.state(slot);
      if (isIdle(state, def, now)) continue;
      const { venue, credentialHash, axis } = decodeBucketId(id);
      const borrowed = borrowedAt(state, def, now);
      const held = this.#holds.get(id);
      const base = { venue, credentialHash, axis, capacity: def.capacity, refillPerSec: def.refillPerSec, tokens: def.capacity - borrowed, borrowed };
      out.push(held !== undefined && held > now ? { ...base, heldUntilMs: held } : base);
    }
    return Promise.resolve(out);
  }

  /**
   * The names under which this limiter stores buckets and pending penalties (its bucket ids:
   * venue, credential hash, axis). No name holds a raw credential (RL-K3).
   */
  storageKeys(): string[] {
    const out: string[] = [];
    for (let slot = 0; slot < this.#table.highWater; slot++) {
      const id = this.#table.id(slot);
      if (id !== undefined) out.push(id);
    }
    for (const id of this.#pending.keys()) out.push(id);
    return out;
  }

  /** Counters for monitoring (dropped records, evictions, sizes). */
  stats(): DefaultRateLimiterStats {
    return {
      buckets: this.#table.size,
      pending: this.#pending.size,
      waiters: this.#waiters.size,
      recordsDropped: this.#recordsDropped,
      pendingDropped: this.#pendingDropped,
      evicted: this.#evicted,
    };
  }

  /**
   * Evicts every idle bucket now (the amortized sweep does this a little at a time) and gives
   * unused table memory back. Returns how many buckets were evicted.
   */
  sweep(): number {
    const before = this.#evicted;
    this.#sweepRange(0, this.#table.highWater, this.#clock.now());
    this.#cursor = 0;
    this.#afterFullSweep(this.#clock.now());
    return this.#evicted - before;
  }

  close(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    this.#closed = true;
    for (const w of [...this.#waiters]) this.#settle(w, CLOSED);
    this.#table.clear();
    this.#pending.clear();
    this.#holds.clear();
    return Promise.resolve();
  }

  // ---------------------------------------------------------------- internals: resolution

  #hash(credential: string): string {
    let h = this.#hashCache.get(credential);
    if (h === undefined) {
      h = hashCredential(credential, this.#secret);
      if (this.#hashCache.size >= HASH_CACHE_LIMIT) this.#hashCache.clear();
      this.#hashCache.set(credential, h);
    }
    return h;
  }

  /** The bucket id of a key, or `undefined` when the key is invalid. */
  #keyId(key: unknown): string | undefined {
    return this.#keyEntry(key)?.id;
  }

  /**
   * The cache entry of a valid key, or `undefined` when the key is invalid. The entry is verified
   * against the key's current fields on every use, so a mutated key object is never misread.
   */
  #keyEntry(key: unknown): KeyEntry | undefined {
    if (typeof key !== 'object' || key === null) return undefined;
    const k = key as { venue?: unknown; credential?: unknown; axis?: unknown; [sym: symbol]: unknown };
    const e = (k[this.#keySymbol] as KeyEntry | undefined) ?? this.#keyCache.get(key);
    if (e !== undefined && e.venue === k.venue && e.credential === k.credential && e.axis === k.axis) return e;
    const r = normalizeKey(key);
    if (!r.ok) return undefined;
    const n = r.value;
    const id = bucketId(n.venue, n.credential === null ? null : this.#hash(n.credential), n.axis);
    const entry: KeyEntry = { venue: k.venue, credential: k.credential, axis: k.axis, id, slot: -1 };
    if (!attach(key, this.#keySymbol, entry)) this.#keyCache.set(key, entry);
    return entry;
  }

  /** The slot of a key's bucket, or -1; uses the entry's remembered slot when it still holds the bucket. */
  #slotOf(e: KeyEntry): number {
    const s = e.slot;
    if (s >= 0 && this.#table.id(s) === e.id) return s;
    return (e.slot = this.#table.find(e.id));
  }

  /** The definition number of a limit, {@link UNLIMITED}, or {@link INVALID}. */
  #defIndex(limit: unknown): number {
    if (limit === null || limit === undefined) return UNLIMITED;
    if (typeof limit !== 'object') return INVALID;
    const l = limit as { capacity?: unknown; refillPerSec?: unknown; requests?: unknown; periodMs?: unknown; [sym: symbol]: unknown };
    const e = (l[this.#limitSymbol] as LimitEntry | undefined) ?? this.#limitCache.get(limit);
    if (
      e !== undefined &&
      e.capacity === l.capacity &&
      e.refillPerSec === l.refillPerSec &&
      e.requests === l.requests &&
      e.periodMs === l.periodMs
    ) {
      return e.def;
    }
    const r = normalizeLimit(limit);
    if (!r.ok) return INVALID;
    if (r.value === null) return UNLIMITED;
    const name = `${r.value.capacity}/${r.value.refillPerSec}`;
    let def = this.#defIntern.get(name);
    if (def === undefined) {
      def = this.#defs.length;
      this.#defs.push(defineBucket(r.value));
      this.#defIntern.set(name, def);
    }
    const entry: LimitEntry = { capacity: l.capacity, refillPerSec: l.refillPerSec, requests: l.requests, periodMs: l.periodMs, def };
    if (!attach(limit, this.#limitSymbol, entry)) this.#limitCache.set(limit, entry);
    return def;
  }

  #defAt(slot: number): BucketDefinition {
    return this.#defs[this.#table.def(slot)] as BucketDefinition;
  }

  /** The bucket's state under definition `d` now: converted (RL-L5) and with pending holds/debts folded in. */
  #effective(slot: number, id: string, d: number, now: number): number {
    const def = this.#defs[d] as BucketDefinition;
    if (slot >= 0) {
      const state = this.#table.state(slot);
      const old = this.#table.def(slot);
      return old === d ? state : redefine(state, this.#defs[old] as BucketDefinition, def, now);
    }
    let state = freshState(def);
    if (this.#pending.size > 0) {
      const p = this.#pending.get(id);
      if (p !== undefined) {
        if (p.holdUntil > -Infinity) state = penalizeUntil(state, def, p.holdUntil);
        if (p.debt > 0) state = recordCost(state, def, p.debt, now);
      }
    }
    return state;
  }

  #write(slot: number, id: string, state: number, d: number): number {
    if (slot >= 0) this.#table.set(slot, state, d);
    else {
      slot = this.#table.insert(id, state, d);
      if (this.#pending.size > 0) {
        const p = this.#pending.get(id);
        if (p !== undefined) {
          this.#pending.delete(id);
          if (p.holdUntil > this.#clock.now()) this.#holds.set(id, p.holdUntil);
        }
      }
    }
    return slot;
  }

  // ---------------------------------------------------------------- internals: errors

  #keyError(key: unknown, path: string): ErrorResult {
    const r = normalizeKey(key, path);
    return { kind: 'error', error: r.ok ? { code: 'internal', message: `${path}: could not be resolved` } : r.error };
  }

  /** The first error of a single check, named like the exported validators name it. */
  #singleError(key: unknown, limit: unknown, cost: unknown): Decision {
    const k = normalizeKey(key, 'key');
    if (!k.ok) return errorDecision(k.error);
    const l = normalizeLimit(limit, 'limit');
    if (!l.ok) return errorDecision(l.error);
    const c = validateCost(cost, 'cost');
    if (!c.ok) return errorDecision(c.error);
    return errorDecision({ code: 'internal', message: 'a check failed validation inconsistently' });
  }

  #manyError(checks: unknown): Decision {
    const r = validateChecks(checks, 'checks');
    if (!r.ok) return errorDecision(r.error);
    return errorDecision({ code: 'internal', message: 'checks failed validation inconsistently' });
  }

  /** `maxWaitMs` of an options object: the number, `undefined`, or an error decision. */
  #budgetOption(options: unknown, required: boolean): number | undefined | Decision {
    if (typeof options !== 'object' || options === null) {
      return errorDecision(invalidError('options', `must be an object or undefined (got ${describeValue(options)})`));
    }
    const raw = (options as { maxWaitMs?: unknown }).maxWaitMs;
    if (raw === undefined) return required ? 10_000 : undefined;
    const b = validateWaitBudget(raw, 'options.maxWaitMs');
    return b.ok ? b.value : errorDecision(b.error);
  }

  #unpayable(id: string, cost: number, state: number, def: BucketDefinition): Decision {
    const { venue, axis } = decodeBucketId(id);
    const left = Math.max(0, def.capacity - Math.max(0, state));
    return errorDecision(
      rateLimitError(
        'cost_unpayable',
        `cost ${cost} can never be paid on ${venue}/${axis}: it is a fixed quota of ${def.capacity} (refill 0) with ${left} left`,
      ),
    );
  }

  // ---------------------------------------------------------------- internals: the sweep

  #tick(now: number): void {
    if (++this.#ops < this.#sweepEvery) return;
    this.#ops = 0;
    const high = this.#table.highWater;
    if (high === 0) return;
    const start = this.#cursor < high ? this.#cursor : 0;
    const end = Math.min(high, start + this.#sweepBatch);
    this.#sweepRange(start, end, now);
    this.#cursor = end;
    if (end >= high) {
      this.#cursor = 0;
      this.#afterFullSweep(now);
    }
  }

  #sweepRange(start: number, end: number, now: number): void {
    const table = this.#table;
    const defs = this.#defs;
    const before = now - this.#idleGraceMs;
    for (let slot = start; slot < end; slot++) {
      const id = table.id(slot);
      if (id === undefined) continue;
      if (isIdle(table.state(slot), defs[table.def(slot)] as BucketDefinition, before)) {
        table.remove(slot);
        this.#evicted++;
      }
    }
  }

  #afterFullSweep(now: number): void {
    this.#table.compact();
    if (this.#holds.size > 0) for (const [id, until] of this.#holds) if (until <= now || this.#table.find(id) < 0) this.#holds.delete(id);
  }

  // ---------------------------------------------------------------- internals: admission

  #checkOne(key: BucketKey, limit: Limit, cost: number, budget: number | undefined): Decision {
    if (this.#closed) return CLOSED;
    const e = this.#keyEntry(key);
    const d = this.#defIndex(limit);
    if (e === undefined || d === INVALID || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) {
      return this.#singleError(key, limit, cost);
    }
    const now = this.#clock.now();
    if (d === UNLIMITED || cost === 0) return { kind: 'ok', sendAtMs: now }; // RL-L2, RL-A2
    this.#tick(now);
    const def = this.#defs[d] as BucketDefinition;
    const id = e.id;
    const slot = this.#slotOf(e);
    const state = this.#effective(slot, id, d, now);
    const s = sendTime(state, def, cost, now);
    if (s === Infinity) return this.#unpayable(id, cost, state, def);
    if (s > now) {
      if (budget === undefined || s - now > budget) return { kind: 'delay', retryAfterMs: roundUpWait(s - now) };
      e.slot = this.#write(slot, id, chargeAt(state, def, cost, s), d);
      return { kind: 'booked', waitMs: s - now, sendAtMs: s };
    }
    e.slot = this.#write(slot, id, chargeAt(state, def, cost, s), d);
    return { kind: 'ok', sendAtMs: now };
  }

  /** Fills the scratch arrays from the caller's checks, merging repeated keys (RL-M2). Returns the count or an error. */
  #prepare(checks: unknown): number | Decision {
    if (!Array.isArray(checks) || checks.length === 0 || checks.length > MAX_CHECKS) return this.#manyError(checks);
    const entries = this.#entries;
    const dix = this.#dix;
    const costs = this.#costs;
    let n = 0;
    for (let i = 0; i < checks.length; i++) {
      const c: unknown = checks[i];
      if (typeof c !== 'object' || c === null) return this.#manyError(checks);
      const { key, limit, cost } = c as { key?: unknown; limit?: unknown; cost?: unknown };
      const e = this.#keyEntry(key);
      const d = this.#defIndex(limit);
      if (e === undefined || d === INVALID || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) return this.#manyError(checks);
      let j = 0;
      while (j < n && (entries[j] as KeyEntry).id !== e.id) j++;
      if (j < n) {
        if (dix[j] !== d) return this.#manyError(checks);
        costs[j] = (costs[j] as number) + cost;
      } else {
        entries[n] = e;
        dix[n] = d;
        costs[n] = cost;
        n++;
      }
    }
    return n;
  }

  /**
   * The common send time of the prepared checks (RL-M4), with each bucket's slot and effective
   * state left in the scratch arrays; or an error for an unpayable quota (RL-L4).
   */
  #sendTimeOf(n: number, now: number): number | Decision {
    const entries = this.#entries;
    const dix = this.#dix;
    const costs = this.#costs;
    const slots = this.#slots;
    const states = this.#states;
    let s = now;
    for (let i = 0; i < n; i++) {
      const d = dix[i] as number;
      if (d === UNLIMITED || costs[i] === 0) continue; // RL-L2; RL-A2: cost 0 is admitted and changes nothing
      const e = entries[i] as KeyEntry;
      const id = e.id;
      const def = this.#defs[d] as BucketDefinition;
      const slot = this.#slotOf(e);
      const state = this.#effective(slot, id, d, now);
      slots[i] = slot;
      states[i] = state;
      const si = sendTime(state, def, costs[i] as number, now);
      if (si === Infinity) return this.#unpayable(id, costs[i] as number, state, def);
      if (si > s) s = si;
    }
    return s;
  }

  /** Charges every prepared bucket as of `s` (RL-M5); collects what a cancellation needs when asked. */
  #commit(n: number, s: number, booked: Booked[] | undefined): void {
    for (let i = 0; i < n; i++) {
      const d = this.#dix[i] as number;
      const cost = this.#costs[i] as number;
      if (d === UNLIMITED || cost === 0) continue;
      const e = this.#entries[i] as KeyEntry;
      const id = e.id;
      const before = this.#slots[i] as number;
      const effective = this.#states[i] as number;
      const written = chargeAt(effective, this.#defs[d] as BucketDefinition, cost, s);
      const replaced = before >= 0 ? this.#table.state(before) : effective;
      const replacedDef = before >= 0 ? this.#table.def(before) : d;
      const pending = before < 0 && booked !== undefined && this.#pending.size > 0 ? this.#pending.get(id) : undefined;
      const pendingBefore = pending === undefined ? undefined : { holdUntil: pending.holdUntil, debt: pending.debt };
      // A bucket inserted earlier in this loop cannot be this one (keys are merged), so slots stay valid.
      const slot = (e.slot = this.#write(before, id, written, d));
      if (booked !== undefined) booked.push({ id, def: d, written, replaced, replacedDef, created: before < 0, pendingBefore, slot, epoch: this.#table.epoch, version: this.#table.version(slot) });
    }
  }

  #checkMany(checks: readonly BucketCheck[], budget: number | undefined, peekOnly: boolean): Decision {
    if (this.#closed) return CLOSED;
    const n = this.#prepare(checks);
    if (typeof n !== 'number') return n;
    const now = this.#clock.now();
    if (!peekOnly) this.#tick(now);
    const s = this.#sendTimeOf(n, now);
    if (typeof s !== 'number') return s;
    if (s > now) {
      if (peekOnly || budget === undefined || s - now > budget) return { kind: 'delay', retryAfterMs: roundUpWait(s - now) };
      this.#commit(n, s, undefined);
      return { kind: 'booked', waitMs: s - now, sendAtMs: s };
    }
    if (!peekOnly) this.#commit(n, s, undefined);
    return { kind: 'ok', sendAtMs: now };
  }

  // ---------------------------------------------------------------- internals: waiting

  #wait(checks: readonly BucketCheck[], options: WaitOptions | undefined): Promise<Decision> {
    if (this.#closed) return Promise.resolve(CLOSED);
    let budget = 10_000;
    let signal: AbortSignal | undefined;
    if (options !== undefined) {
      const b = this.#budgetOption(options, true);
      if (typeof b !== 'number') return Promise.resolve(b as Decision);
      budget = b;
      let rawSignal: unknown;
      try {
        rawSignal = (options as { signal?: unknown }).signal;
      } catch {
        rawSignal = null;
      }
      const sg: Result<AbortSignal | undefined> = validateSignal(rawSignal, 'options.signal');
      if (!sg.ok) return Promise.resolve(errorDecision(sg.error));
      signal = sg.value;
    }
    const n = this.#prepare(checks);
    if (typeof n !== 'number') return Promise.resolve(n);
    if (signal?.aborted === true) {
      return Promise.resolve(errorDecision({ code: 'aborted', message: 'the signal was already aborted; nothing was booked' }));
    }
    const now = this.#clock.now();
    this.#tick(now);
    const s = this.#sendTimeOf(n, now);
    if (typeof s !== 'number') return Promise.resolve(s);
    if (s - now > budget) {
      const wait = roundUpWait(s - now);
      return Promise.resolve(
        errorDecision(rateLimitError('rate_limit_timeout', `the wait of ${wait} ms exceeds the budget of ${budget} ms; nothing was booked`, wait)),
      );
    }
    if (s <= now) {
      this.#commit(n, s, undefined);
      return Promise.resolve({ kind: 'ok', sendAtMs: now });
    }
    const booked: Booked[] = [];
    this.#commit(n, s, booked);
    return new Promise<Decision>((resolve) => {
      const waiter: Waiter = { sendAt: s, startedAt: now, booked, signal, resolve, timer: undefined, onAbort: undefined };
      this.#waiters.add(waiter);
      try {
        if (signal !== undefined) {
          waiter.onAbort = () => this.#abort(waiter);
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        this.#arm(waiter, now);
      } catch (e) {
        // Never reject (RL-F1). The booking stays charged: forfeiting is always safe.
        this.#settle(waiter, internal(e));
      }
    });
  }

  /** Starts the waiter's one timer for the rest of its wait (RL-W7). */
  #arm(waiter: Waiter, now: number): void {
    let ms = waiter.sendAt - now;
    while (now + ms < waiter.sendAt) ms += Math.max(1e-9, ms * 1e-12);
    const timer = this.#clock.setTimer(() => this.#fire(waiter), ms);
    if (this.#unrefTimers) timer.unref?.();
    waiter.timer = timer;
  }

  #fire(waiter: Waiter): void {
    if (!this.#waiters.has(waiter)) return;
    try {
      const now = this.#clock.now();
      if (now < waiter.sendAt) {
        this.#arm(waiter, now); // a system timer fired early: wait out the rest, never send before the send time
        return;
      }
    } catch (e) {
      this.#settle(waiter, internal(e));
      return;
    }
    waiter.timer = undefined;
    this.#settle(waiter, { kind: 'ok', sendAtMs: waiter.sendAt });
  }

  #abort(waiter: Waiter): void {
    if (!this.#waiters.has(waiter) || this.#closed) return;
    let returned = true;
    for (const b of waiter.booked) {
      const slot = this.#table.find(b.id);
      // RL-W5: returned only when nothing was written to the bucket after the booking (not even a
      // penalty or sync that left the number as it was: restoring would drop their effect).
      if (slot === b.slot && this.#table.epoch === b.epoch && this.#table.def(slot) === b.def && this.#table.version(slot) === b.version) {
        if (b.created) {
          // The bucket did not exist before the booking: forget it, with any penalty or debt it had folded in kept pending.
          this.#table.remove(slot);
          if (b.pendingBefore !== undefined && !this.#pending.has(b.id)) {
            const p = this.#pendingFor(b.id);
            if (p !== undefined) {
              p.holdUntil = b.pendingBefore.holdUntil;
              p.debt = b.pendingBefore.debt;
            }
          }
          this.#holds.delete(b.id);
        } else {
          this.#table.set(slot, cancelBooking(this.#table.state(slot), b.written, b.replaced), b.replacedDef);
        }
      } else returned = false;
    }
    this.#settle(
      waiter,
      errorDecision({
        code: 'aborted',
        message: returned
          ? 'the wait was aborted; its booking was returned'
          : 'the wait was aborted; its booking was forfeited where cost was charged after it',
      }),
    );
  }

  #settle(waiter: Waiter, decision: Decision): void {
    if (!this.#waiters.delete(waiter)) return;
    try {
      waiter.timer?.cancel();
      waiter.timer = undefined;
      if (waiter.signal !== undefined && waiter.onAbort !== undefined) waiter.signal.removeEventListener('abort', waiter.onAbort);
    } finally {
      waiter.resolve(decision);
    }
  }

  // ---------------------------------------------------------------- internals: feedback

  #pendingFor(id: string): Pending | undefined {
    let p = this.#pending.get(id);
    if (p !== undefined) return p;
    if (this.#pending.size >= this.#maxPending) {
      const oldest = this.#pending.keys().next();
      if (!oldest.done) this.#pending.delete(oldest.value);
      this.#pendingDropped++;
    }
    p = { holdUntil: -Infinity, debt: 0 };
    this.#pending.set(id, p);
    return p;
  }

  #record(key: BucketKey, cost: number, limit: Limit | typeof NOT_GIVEN): void {
    if (this.#closed) {
      this.#recordsDropped++;
      return;
    }
    const id = this.#keyId(key);
    if (id === undefined || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) {
      this.#recordsDropped++;
      return;
    }
    let d = limit === NOT_GIVEN ? INVALID : this.#defIndex(limit);
    if (d === INVALID && limit !== NOT_GIVEN) {
      this.#recordsDropped++; // a malformed call changes nothing (RL-F2)
      return;
    }
    if (d === UNLIMITED || (cost === 0 && d === INVALID)) return;
    const now = this.#clock.now();
    this.#tick(now);
    const slot = this.#table.find(id);
    if (d === INVALID) {
      if (slot < 0) {
        const p = this.#pendingFor(id);
        if (p !== undefined) p.debt += cost;
        return;
      }
      d = this.#table.def(slot);
    }
    const state = this.#effective(slot, id, d, now);
    this.#write(slot, id, recordCost(state, this.#defs[d] as BucketDefinition, cost, now), d);
  }

  #sync(key: BucketKey, limit: Limit, minBorrowed: number): SideEffectResult {
    if (this.#closed) return CLOSED_RESULT;
    const id = this.#keyId(key);
    if (id === undefined) return this.#keyError(key, 'key');
    const d = this.#defIndex(limit);
    if (d === INVALID) {
      const l = normalizeLimit(limit, 'limit');
      return { kind: 'error', error: l.ok ? { code: 'internal', message: 'limit: could not be resolved' } : l.error };
    }
    const m = validateCost(minBorrowed, 'minBorrowed');
    if (!m.ok) return { kind: 'error', error: m.error };
    if (d === UNLIMITED) return OK_RESULT;
    const now = this.#clock.now();
    this.#tick(now);
    const def = this.#defs[d] as BucketDefinition;
    const slot = this.#table.find(id);
    this.#write(slot, id, syncBorrowed(this.#effective(slot, id, d, now), def, m.value, now), d); // defines the bucket
    return OK_RESULT;
  }

  #penalize(key: BucketKey, hold: PenaltyHold): SideEffectResult {
    if (this.#closed) return CLOSED_RESULT;
    const id = this.#keyId(key);
    if (id === undefined) return this.#keyError(key, 'key');
    const now = this.#clock.now();
    const until = this.#holdEnd(hold, now);
    if (typeof until !== 'number') return until;
    this.#tick(now);
    const slot = this.#table.find(id);
    if (slot < 0) {
      const p = this.#pendingFor(id);
      if (p !== undefined && until > p.holdUntil) p.holdUntil = until;
      return OK_RESULT;
    }
    this.#table.setState(slot, penalizeUntil(this.#table.state(slot), this.#defAt(slot), until));
    const prior = this.#holds.get(id);
    if (until > now && (prior === undefined || until > prior)) this.#holds.set(id, until);
    return OK_RESULT;
  }

  #holdEnd(hold: unknown, now: number): number | ErrorResult {
    if (typeof hold !== 'object' || hold === null || Array.isArray(hold)) {
      return { kind: 'error', error: invalidError('hold', `must be { untilMs } or { forMs } (got ${describeValue(hold)})`) };
    }
    const { untilMs, forMs } = hold as { untilMs?: unknown; forMs?: unknown };
    if (untilMs !== undefined && forMs !== undefined) {
      return { kind: 'error', error: invalidError('hold', 'gives both untilMs and forMs: give one') };
    }
    if (untilMs !== undefined) {
      if (typeof untilMs !== 'number' || !Number.isFinite(untilMs)) {
        return { kind: 'error', error: invalidError('hold.untilMs', `must be a finite number (got ${describeValue(untilMs)})`) };
      }
      return untilMs;
    }
    if (typeof forMs !== 'number' || !Number.isFinite(forMs) || forMs < 0) {
      return { kind: 'error', error: invalidError('hold.forMs', `must be a finite number >= 0 (got ${describeValue(forMs)})`) };
    }
    return now + forMs;
  }
}

/**
 * Hangs a limiter's cache entry on a caller's key or limit object under a private symbol
 * (non-enumerable, so JSON, spreading and `Object.keys` never see it). Returns false for objects
 * that cannot take it (frozen, sealed, arrays, proxies that refuse), which use a WeakMap instead.
 */
function attach(target: object, symbol: symbol, entry: unknown): boolean {
  if (Array.isArray(target) || !Object.isExtensible(target)) return false;
  try {
    Object.defineProperty(target, symbol, { value: entry, writable: true, configurable: true, enumerable: false });
    return true;
  } catch {
    return false;
  }
}

function invalidError(path: string, message: string): RateLimitError {
  return { code: 'invalid_parameters', message: `${path}: ${message}`, path };
}

/**
 * Builds the in-process rate limiter.
 *
 * @param options - clock, credential secret and sweep tuning; all optional.
 * @returns a {@link DefaultRateLimiter} implementing the contract's `RateLimiter` (version `v1`).
 * @throws TypeError when an option is malformed (construction is not an admission method).
 * @example
 * ```ts
 * const limiter = createDefaultRateLimiter();
 * const d = await limiter.checkRate({ venue: 'okx', credential: null }, { requests: 20, periodMs: 2000 }, 1);
 * ```
 */
export function createDefaultRateLimiter(options?: DefaultRateLimiterOptions): DefaultRateLimiter {
  return new DefaultRateLimiter(options);
}
