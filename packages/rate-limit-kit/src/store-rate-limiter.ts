import type {
  BucketCheck,
  BucketKey,
  BucketSnapshot,
  Capabilities,
  Decision,
  ErrorResult,
  Limit,
  PeekDecision,
  PenaltyHold,
  RateLimiter,
  SideEffectResult,
  WaitDecision,
  WaitOptions,
  CheckOptions,
  PeekOptions,
  SyncOptions,
} from '@core/rate-limit-contract';
import { type Caller, internalResult, shapeDecision } from './answer-shape.js';
import { CallBuilder, type CallParts } from './call-builder.js';
import {
  bucketCall,
  type FrontDoor,
  namesAnyWindowLimit,
  namesWindowLimit,
  penalizeCall,
  recordCall,
  resetAllCall,
  resetVenueCall,
  snapshotCall,
  syncCall,
} from './front-door-calls.js';
import { quickBooking, quickClass, type QuickAnswer, type QuickStore } from './quick-store.js';
import { DefinitionTable, type Definition } from './definition-table.js';
import { roundUpWait } from './gcra.js';
import { KeyResolver } from './key-resolver.js';
import type { LimiterObserver, ObservedOperation } from './limiter-observer.js';
import type { Admission, AdmitMode, LimiterStore } from './limiter-store.js';
import { CLOSED, errorResult, notSupported, abortedError } from './messages.js';
import {
  checkError,
  checksError,
  checksNameReserve,
  DEFAULT_RESERVE,
  DEFAULT_WAIT_BUDGET_MS,
  isAborted,
  namesClass,
  readOptions,
  type ReadOptions,
  readReserve,
  type ReserveShares,
} from './read-arguments.js';
import { WaiterSet } from './waiter-set.js';
import { observeWait, waitAnswer } from './wait-answer.js';
import { readLimiterOptions, type StoreRateLimiterOptions } from './store-rate-limiter-options.js';

export type { StoreRateLimiterOptions } from './store-rate-limiter-options.js';

const CLASS_OPTIONS = 'a priority or reserve';

const P_CLOSED: Promise<ErrorResult> = Promise.resolve(CLOSED);

/**
 * The shared front door of every rate limiter: a complete `RateLimiter` over a {@link LimiterStore}
 * (the private half, where the buckets live). It reads every argument once and inside a guard
 * (unreadable input is `invalid_parameters`, RL-F2), validates and normalizes it (RL-K2, RL-L1..RL-L3,
 * RL-A2, RL-M2, RL-M3, RL-W6), hashes credentials (RL-K3), answers `closed`, `not_supported` and
 * `internal` the same way for every store, shapes decisions (`ok` means "send now", a booking is
 * `booked` with its exact wait, RL-W1; a delay's wait is rounded up, RL-A3), writes the messages, and
 * runs the waiters of `waitForCapacity` (RL-W5..RL-W7). Stores never see invalid input.
 *
 * @example
 * ```ts
 * const limiter = new StoreRateLimiter(myStore, { credentialSecret: process.env.RL_SECRET });
 * const d = await limiter.checkRate({ venue: 'okx', credential: null }, { requests: 20, periodMs: 2000 }, 1);
 * ```
 */
export class StoreRateLimiter implements RateLimiter {
  readonly specificationVersion = 'v1' as const;
  readonly capabilities: Capabilities;
  /** The private half. */
  protected readonly store: LimiterStore;
  readonly #keys: KeyResolver;
  readonly #defs: DefinitionTable;
  readonly #call: CallBuilder;
  readonly #parts: CallParts;
  readonly #waiters: WaiterSet;
  readonly #sync: boolean;
  /** `capabilities.windowLimits`: where false, a window limit answers not_supported. */
  readonly #windows: boolean;
  /** `capabilities.priorities`: where not true, a priority or reserve answers not_supported. */
  readonly #classes: boolean;
  readonly #reserve: ReserveShares;
  /** The options of a call that gives none. */
  readonly #plain: ReadOptions;
  /**
   * The store's quick admission, for calls of the quick path's class (normal, nothing kept free): a synchronous
   * store that offers it, with window limits and classes (no capability to refuse first), and a normal class
   * that keeps nothing free by default.
   */
  readonly #quick: QuickStore | undefined;
  readonly #out: QuickAnswer = { now: 0, slow: undefined };
  /** What the feedback and inspection calls read (front-door-calls.ts). */
  readonly #door: FrontDoor;
  #closed = false;
  #observer: LimiterObserver | undefined;

  constructor(store: LimiterStore, options: StoreRateLimiterOptions = {}) {
    const { secret, unrefTimers } = readLimiterOptions(options);
    this.store = store;
    this.capabilities = store.capabilities;
    this.#call = new CallBuilder(new KeyResolver(secret), new DefinitionTable());
    this.#keys = this.#call.keys;
    this.#defs = this.#call.defs;
    this.#parts = this.#call.parts;
    this.#waiters = new WaiterSet(store.timers, unrefTimers);
    this.#sync = store.synchronous;
    this.#windows = store.capabilities.windowLimits;
    this.#classes = store.capabilities.priorities === true;
    if (options.reserve !== undefined && !this.#classes) throw new TypeError('reserve needs a store with capabilities.priorities');
    const r = readReserve(options.reserve, DEFAULT_RESERVE, 'reserve');
    if ('code' in r) throw new TypeError(r.message);
    this.#reserve = r;
    this.#plain = readOptions(undefined, false, r) as ReadOptions;
    const quick = typeof (store as Partial<QuickStore>).admitQuick === 'function' && store.synchronous && this.#windows && this.#classes && r.normal === 0;
    this.#quick = quick ? (store as LimiterStore & QuickStore) : undefined;
    this.#observer = options.observer;
    this.#door = { store, capabilities: this.capabilities, keys: this.#keys, defs: this.#defs, windows: this.#windows, isClosed: () => this.#closed };
  }

  /** Attaches an observer of admissions (metrics), replacing any other; `undefined` detaches it. */
  setObserver(observer: LimiterObserver | undefined): void {
    this.#observer = observer;
  }

  /** Whether `close()` was called. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Waiters between their booking and their send time. */
  get pendingWaiters(): number {
    return this.#waiters.size;
  }

  // ---------------------------------------------------------------- admission

  checkRate(key: BucketKey, limit: Limit, cost: number, options?: CheckOptions): Promise<Decision> {
    if (this.#closed) return P_CLOSED;
    if (options === undefined && this.#quick !== undefined) return Promise.resolve(this.#quickOne(key, limit, cost));
    try {
      if (!this.#windows && namesWindowLimit(limit)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
      if (!this.#classes && namesClass(options)) return Promise.resolve(notSupported(CLASS_OPTIONS, 'priorities'));
      const o = options === undefined ? this.#plain : readOptions(options, false, this.#reserve);
      if ('code' in o) return Promise.resolve(errorResult(o));
      if (o.budget !== undefined && !this.capabilities.bookings) return Promise.resolve(notSupported('a booking (maxWaitMs)', 'bookings'));
      const n = this.#call.one(key, limit, cost);
      if (n < 0) return Promise.resolve(errorResult(checkError(key, limit, cost, '')));
      if (n === 0) return Promise.resolve({ kind: 'ok', sendAtMs: this.store.now() });
      return this.#admit(1, o.budget === undefined ? 'probe' : 'book', o.budget, 'checkRate', o.cls, o.free);
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  /**
   * `checkRate` without a budget, answered synchronously: only for a synchronous store (the in-process
   * fast path). Throws a TypeError on an asynchronous store.
   */
  protected checkRateSync(key: BucketKey, limit: Limit, cost: number): Decision {
    if (!this.#sync) throw new TypeError('checkRateSync needs a synchronous store');
    if (this.#closed) return CLOSED;
    if (this.#quick !== undefined) return this.#quickOne(key, limit, cost);
    try {
      if (!this.#windows && namesWindowLimit(limit)) return notSupported('a window limit', 'windowLimits');
      const n = this.#call.one(key, limit, cost);
      if (n < 0) return errorResult(checkError(key, limit, cost, ''));
      if (n === 0) return { kind: 'ok', sendAtMs: this.store.now() };
      const p = this.#parts;
      const a = this.store.admit(1, p.keys, p.defs as Definition[], p.costs, 'probe', undefined, 1, this.#reserve.normal) as Admission;
      return this.#seen('checkRate', 1, p, shapeDecision(a, 'checkRate', p));
    } catch (e) {
      return internalResult(e);
    }
  }

  checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision> {
    if (this.#closed) return P_CLOSED;
    if (options === undefined && this.#quick !== undefined) return Promise.resolve(this.#quickMany(checks));
    try {
      if (!this.#windows && namesAnyWindowLimit(checks)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
      if (!this.#classes && (namesClass(options) || checksNameReserve(checks))) return Promise.resolve(notSupported(CLASS_OPTIONS, 'priorities'));
      const o = options === undefined ? this.#plain : readOptions(options, false, this.#reserve);
      if ('code' in o) return Promise.resolve(errorResult(o));
      if (o.budget !== undefined && !this.capabilities.bookings) return Promise.resolve(notSupported('a booking (maxWaitMs)', 'bookings'));
      const n = this.#call.many(checks, o.cls, o.shares);
      if (n < 0) return Promise.resolve(errorResult(checksError(checks, this.#keys, o.shares)));
      if (n === 0) return Promise.resolve({ kind: 'ok', sendAtMs: this.store.now() });
      if (o.budget === undefined && this.#quick !== undefined && quickClass(o.cls, o.free, this.#parts, n))
        return Promise.resolve(this.#quickAdmit(n, 'checkRates'));
      return this.#admit(n, o.budget === undefined ? 'probe' : 'book', o.budget, 'checkRates', o.cls, this.#free(o.free));
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  peek(checks: readonly BucketCheck[], options?: PeekOptions): Promise<PeekDecision> {
    if (this.#closed) return P_CLOSED;
    try {
      if (!this.#windows && namesAnyWindowLimit(checks)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
      if (!this.#classes && (namesClass(options) || checksNameReserve(checks))) return Promise.resolve(notSupported(CLASS_OPTIONS, 'priorities'));
      const o = readOptions(options, false, this.#reserve, false);
      if ('code' in o) return Promise.resolve(errorResult(o));
      const n = this.#call.many(checks, o.cls, o.shares);
      if (n < 0) return Promise.resolve(errorResult(checksError(checks, this.#keys, o.shares)));
      if (n === 0) return Promise.resolve({ kind: 'ok', sendAtMs: this.store.now() });
      return this.#admit(n, 'peek', undefined, 'peek', o.cls, this.#free(o.free)) as Promise<PeekDecision>;
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  waitForCapacity(checks: readonly BucketCheck[], options?: WaitOptions): Promise<WaitDecision> {
    if (this.#closed) return P_CLOSED;
    try {
      if (!this.capabilities.bookings) return Promise.resolve(notSupported('waitForCapacity', 'bookings'));
      if (!this.#windows && namesAnyWindowLimit(checks)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
      if (!this.#classes && (namesClass(options) || checksNameReserve(checks))) return Promise.resolve(notSupported(CLASS_OPTIONS, 'priorities'));
      const o = readOptions(options, true, this.#reserve);
      if ('code' in o) return Promise.resolve(errorResult(o));
      if (o.signal !== undefined && !this.capabilities.abortSignal) return Promise.resolve(notSupported('an AbortSignal', 'abortSignal'));
      const budget = o.budget ?? DEFAULT_WAIT_BUDGET_MS;
      const signal = o.signal;
      const n = this.#call.many(checks, o.cls, o.shares);
      if (n < 0) return Promise.resolve(errorResult(checksError(checks, this.#keys, o.shares)));
      if (isAborted(signal)) return Promise.resolve(errorResult(abortedError('none')));
      if (n === 0) return Promise.resolve({ kind: 'ok', sendAtMs: this.store.now() });
      const a =
        (this.#quick !== undefined && quickClass(o.cls, o.free, this.#parts, n) ? quickBooking(this.#quick, n, this.#parts, this.#out) : undefined) ??
        this.store.admit(n, this.#parts.keys, this.#parts.defs as Definition[], this.#parts.costs, 'book', budget, o.cls, this.#free(o.free));
      if (!(a instanceof Promise)) return this.#waited(n, this.#waitFor(a, budget, signal, this.#parts));
      const parts = this.#call.copy(n);
      return this.#waited(
        n,
        a.then((x) => this.#waitFor(x, budget, signal, parts), internalResult),
        parts,
      );
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  // ---------------------------------------------------------------- feedback and inspection (front-door-calls.ts)

  record(key: BucketKey, cost: number, limit?: Limit): void {
    recordCall(this.#door, key, cost, limit);
  }

  sync(key: BucketKey, limit: Limit, minBorrowed: number, options?: SyncOptions): Promise<SideEffectResult> {
    return syncCall(this.#door, key, limit, minBorrowed, options);
  }

  penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    return penalizeCall(this.#door, key, hold);
  }

  borrowed(key: BucketKey): Promise<number | ErrorResult> {
    return bucketCall<number>(this.#door, key, 'borrowed');
  }

  reset(key: BucketKey): Promise<SideEffectResult> {
    return bucketCall<SideEffectResult>(this.#door, key, 'reset');
  }

  resetVenue(venue: string): Promise<SideEffectResult> {
    return resetVenueCall(this.#door, venue);
  }

  resetAll(): Promise<SideEffectResult> {
    return resetAllCall(this.#door);
  }

  snapshot(): Promise<readonly BucketSnapshot[] | ErrorResult> {
    return snapshotCall(this.#door);
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#waiters.closeAll();
    try {
      await this.store.close();
    } catch {
      // closing is best effort: the limiter is closed either way
    }
  }

  // ---------------------------------------------------------------- internals

  /**
   * `checkRate` without options on a quick store: the same checks and answers as the general path (the
   * store's capabilities leave nothing to refuse first), with no options read, no class arithmetic and
   * no answer object of the store's.
   */
  #quickOne(key: BucketKey, limit: Limit, cost: number): Decision {
    try {
      const k = this.#keys.resolve(key);
      const d = this.#defs.resolve(limit);
      if (k === undefined || d === undefined || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity)
        return errorResult(checkError(key, limit, cost, ''));
      if (d === null || cost === 0) return { kind: 'ok', sendAtMs: this.store.now() }; // RL-L2, RL-A2
      const out = this.#out;
      const w = (this.#quick as QuickStore).admitQuickOne(k, d, cost, out);
      let r: Decision;
      if (w === 0) r = { kind: 'ok', sendAtMs: out.now };
      else if (w > 0) r = { kind: 'delay', retryAfterMs: roundUpWait(w) };
      else {
        // the store's general path answered: shape it from the scratch arrays, as a call over them would
        this.#call.put(k, d, cost);
        return this.#quickShape(1, 'checkRate', out);
      }
      if (this.#observer === undefined) return r;
      this.#call.put(k, d, cost);
      return this.#seen('checkRate', 1, this.#parts, r);
    } catch (e) {
      return internalResult(e);
    }
  }

  /** `checkRates` without options on a quick store (see {@link StoreRateLimiter.#quickOne}). */
  #quickMany(checks: readonly BucketCheck[]): Decision {
    try {
      const n = this.#call.many(checks, 1, this.#reserve);
      if (n < 0) return errorResult(checksError(checks, this.#keys, this.#reserve));
      if (n === 0) return { kind: 'ok', sendAtMs: this.store.now() };
      // a check that names its own reserve keeps a share free: the general path
      const p = this.#parts;
      if (p.perBucket) {
        const a = this.store.admit(n, p.keys, p.defs as Definition[], p.costs, 'probe', undefined, 1, p.frees) as Admission;
        return this.#seen('checkRates', n, p, shapeDecision(a, 'checkRates', p));
      }
      return this.#quickAdmit(n, 'checkRates');
    } catch (e) {
      return internalResult(e);
    }
  }

  /** The quick store's admission of the `n` buckets in the scratch arrays, shaped and observed. */
  #quickAdmit(n: number, caller: Caller): Decision {
    const out = this.#out;
    const parts = this.#parts;
    const w = (this.#quick as QuickStore).admitQuick(n, parts.keys, parts.defs as Definition[], parts.costs, out);
    if (!(w >= 0)) return this.#quickShape(n, caller, out);
    const d: Decision = w === 0 ? { kind: 'ok', sendAtMs: out.now } : { kind: 'delay', retryAfterMs: roundUpWait(w) };
    return this.#observer === undefined ? d : this.#seen(caller, n, parts, d);
  }

  /** The decision of an admission the quick store's general path answered (`out.slow`), observed. */
  #quickShape(n: number, caller: Caller, out: QuickAnswer): Decision {
    const a = out.slow as Admission;
    out.slow = undefined;
    return this.#seen(caller, n, this.#parts, shapeDecision(a, caller, this.#parts));
  }

  /** The shares of the call's buckets as the store takes them: one number, or the per-bucket list when a check named its own reserve (RL-Q6). */
  #free(callFree: number): number | readonly number[] {
    return this.#parts.perBucket ? this.#parts.frees : callFree;
  }

  #admit(n: number, mode: AdmitMode, budget: number | undefined, caller: Caller, cls: number, free: number | readonly number[]): Promise<Decision> {
    const a = this.store.admit(n, this.#parts.keys, this.#parts.defs as Definition[], this.#parts.costs, mode, budget, cls, free);
    if (!(a instanceof Promise)) return Promise.resolve(this.#seen(caller, n, this.#parts, shapeDecision(a, caller, this.#parts)));
    const parts = this.#call.copy(n);
    return a.then((x) => this.#seen(caller, n, parts, shapeDecision(x, caller, parts)), internalResult);
  }

  /** Tells the observer (if any) of an answer; never lets it change the answer. */
  #seen<D extends Decision>(operation: ObservedOperation, n: number, parts: CallParts, d: D): D {
    const o = this.#observer;
    if (o !== undefined) {
      try {
        o.admission(operation, n, parts.keys, d, undefined);
      } catch {
        // an observer never changes an answer
      }
    }
    return d;
  }

  /** Tells the observer (if any) of a wait's answer and how long it took; `parts` must outlive the call. */
  #waited(n: number, p: Promise<WaitDecision>, parts?: CallParts): Promise<WaitDecision> {
    const o = this.#observer;
    return o === undefined ? p : observeWait(o, this.store, n, parts?.keys ?? this.#parts.keys.slice(0, n), p);
  }

  #waitFor(a: Admission, budget: number, signal: AbortSignal | undefined, parts: CallParts): Promise<WaitDecision> {
    return waitAnswer(this.store, this.#waiters, () => this.#closed, a, budget, signal, parts);
  }
}
