// Over 400 lines with a reason: the front door is every method of the contract in one class, each guarded
// the same way (closed, capabilities, guarded reads, typed errors); what they share (validation, the call
// builder, messages, waiters, observers) is in files of its own.
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
  RateLimitError,
  SideEffectResult,
  WaitDecision,
  WaitOptions,
  CheckOptions,
  PeekOptions,
  Reserve,
  SyncOptions,
} from '@core/rate-limit-contract';
import { CallBuilder, type CallParts } from './call-builder.js';
import { DefinitionTable, type Definition } from './definition-table.js';
import { roundUpWait } from './gcra.js';
import { KeyResolver, type ResolvedKey } from './key-resolver.js';
import type { LimiterObserver, ObservedOperation } from './limiter-observer.js';
import type { Admission, AdmitMode, LimiterStore, MaybePromise } from './limiter-store.js';
import { CLOSED, errorResult, internalError, notSupported, timeoutError, abortedError, unpayableError } from './messages.js';
import { normalizeKey } from './normalize-key.js';
import { normalizeLimit } from './normalize-limit.js';
import {
  checkError,
  checksError,
  checksNameReserve,
  DEFAULT_RESERVE,
  DEFAULT_WAIT_BUDGET_MS,
  isAborted,
  namesClass,
  readHold,
  readOptions,
  type ReadOptions,
  readReserve,
  readSyncOptions,
  type ReserveShares,
} from './read-arguments.js';
import { validateCost } from './validate-number.js';
import { validateVenue } from './normalize-key.js';
import { WaiterSet } from './waiter-set.js';

/** Options of the front door every store gets. */
export interface StoreRateLimiterOptions {
  /** Keys the credential hash (HMAC-SHA-256) so hashes cannot be checked against guessed keys (RL-K3). */
  readonly credentialSecret?: string;
  /** Unref waiters' timers so a pending wait never holds the process open. Default `false`. */
  readonly unrefTimers?: boolean;
  /** Told of every admission's answer (metrics); see {@link LimiterObserver}. Default none. */
  readonly observer?: LimiterObserver;
  /**
   * The share of each bucket a lower class leaves free for higher ones when a call names no reserve
   * (RL-Q4); default `{ normal: 0, bulk: 0.2 }`. Only for a store with `capabilities.priorities`.
   */
  readonly reserve?: Reserve;
}

const CLASS_OPTIONS = 'a priority or reserve';

/** Where a quick store leaves the time of its decision, or the admission its general path answered. */
interface QuickAnswer {
  now: number;
  slow: Admission | undefined;
}

/**
 * What a synchronous store may offer besides {@link LimiterStore}: the commonest admission answered
 * without the general path's answer objects. `admitQuick(n, keys, defs, costs, out)` must decide and
 * write exactly as `admit(n, keys, defs, costs, 'probe', undefined, 1, 0)` would: it answers 0 when
 * admitted now (`out.now` the decision's time), the wait when the call must wait (nothing changed), or
 * NaN when `out.slow` holds the admission.
 */
interface QuickStore {
  admitQuick(n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], out: QuickAnswer): number;
  /** `admitQuick` of one bucket, given as its key, definition and cost (`out.slow` needs the call's scratch arrays filled). */
  admitQuickOne(key: ResolvedKey, def: Definition, cost: number, out: QuickAnswer): number;
}

/** Which part of a call an answer is shaped for. */
type Caller = 'checkRate' | 'checkRates' | 'peek';

const P_CLOSED: Promise<ErrorResult> = Promise.resolve(CLOSED);

function internalResult(e: unknown): ErrorResult {
  return errorResult(internalError(e));
}

/** Resolves a store's answer, never rejecting (RL-F1). */
function settle<T>(value: MaybePromise<T>): Promise<T | ErrorResult> {
  return value instanceof Promise ? value.catch(internalResult) : Promise.resolve(value);
}

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
   * The store's quick admission, when calls without options may take it: a synchronous store that offers
   * it, with window limits and classes (no capability to refuse first) and a normal class that keeps
   * nothing free (the quick path's class).
   */
  readonly #quick: QuickStore | undefined;
  readonly #out: QuickAnswer = { now: 0, slow: undefined };
  #closed = false;
  #observer: LimiterObserver | undefined;

  constructor(store: LimiterStore, options: StoreRateLimiterOptions = {}) {
    const secret = options.credentialSecret;
    if (secret !== undefined && (typeof secret !== 'string' || secret.length === 0)) {
      throw new TypeError('credentialSecret must be a non-empty string when given');
    }
    if (options.unrefTimers !== undefined && typeof options.unrefTimers !== 'boolean') throw new TypeError('unrefTimers must be a boolean');
    this.store = store;
    this.capabilities = store.capabilities;
    this.#call = new CallBuilder(new KeyResolver(secret), new DefinitionTable());
    this.#keys = this.#call.keys;
    this.#defs = this.#call.defs;
    this.#parts = this.#call.parts;
    this.#waiters = new WaiterSet(store.timers, options.unrefTimers ?? false);
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
      if (!this.#windows && isWindowLimit(limit)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
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
      if (!this.#windows && isWindowLimit(limit)) return notSupported('a window limit', 'windowLimits');
      const n = this.#call.one(key, limit, cost);
      if (n < 0) return errorResult(checkError(key, limit, cost, ''));
      if (n === 0) return { kind: 'ok', sendAtMs: this.store.now() };
      const a = this.store.admit(
        1,
        this.#parts.keys,
        this.#parts.defs as Definition[],
        this.#parts.costs,
        'probe',
        undefined,
        1,
        this.#reserve.normal,
      ) as Admission;
      return this.#seen('checkRate', 1, this.#parts, this.#shape(a, 'checkRate', this.#parts));
    } catch (e) {
      return internalResult(e);
    }
  }

  checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision> {
    if (this.#closed) return P_CLOSED;
    if (options === undefined && this.#quick !== undefined) return Promise.resolve(this.#quickMany(checks));
    try {
      if (!this.#windows && hasWindowLimit(checks)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
      if (!this.#classes && (namesClass(options) || checksNameReserve(checks))) return Promise.resolve(notSupported(CLASS_OPTIONS, 'priorities'));
      const o = options === undefined ? this.#plain : readOptions(options, false, this.#reserve);
      if ('code' in o) return Promise.resolve(errorResult(o));
      if (o.budget !== undefined && !this.capabilities.bookings) return Promise.resolve(notSupported('a booking (maxWaitMs)', 'bookings'));
      const n = this.#call.many(checks, o.cls, o.shares);
      if (n < 0) return Promise.resolve(errorResult(checksError(checks, this.#keys, o.shares)));
      if (n === 0) return Promise.resolve({ kind: 'ok', sendAtMs: this.store.now() });
      return this.#admit(n, o.budget === undefined ? 'probe' : 'book', o.budget, 'checkRates', o.cls, this.#free(o.free));
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  peek(checks: readonly BucketCheck[], options?: PeekOptions): Promise<PeekDecision> {
    if (this.#closed) return P_CLOSED;
    try {
      if (!this.#windows && hasWindowLimit(checks)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
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
      if (!this.#windows && hasWindowLimit(checks)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
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
      const a = this.store.admit(n, this.#parts.keys, this.#parts.defs as Definition[], this.#parts.costs, 'book', budget, o.cls, this.#free(o.free));
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

  // ---------------------------------------------------------------- feedback

  record(key: BucketKey, cost: number, limit?: Limit): void {
    try {
      if (this.#closed || (!this.#windows && isWindowLimit(limit))) return this.store.dropRecord();
      const k = this.#keys.resolve(key);
      if (k === undefined || typeof cost !== 'number' || !(cost >= 0) || cost === Infinity) return this.store.dropRecord();
      // the limit is optional here (a live bucket keeps its definition); an explicit null is unlimited (RL-L2)
      let def: Definition | undefined;
      if (limit !== undefined) {
        const d = this.#defs.resolve(limit);
        if (d === null) return;
        if (d === undefined) return this.store.dropRecord(); // a malformed call changes nothing (RL-F2)
        def = d;
      }
      if (cost === 0) return;
      this.store.record(k, cost, def);
    } catch {
      try {
        this.store.dropRecord();
      } catch {
        // record never throws (RL-R1)
      }
    }
  }

  sync(key: BucketKey, limit: Limit, minBorrowed: number, options?: SyncOptions): Promise<SideEffectResult> {
    if (!this.capabilities.sync) return Promise.resolve(notSupported('sync', 'sync'));
    if (this.#closed) return P_CLOSED;
    try {
      if (!this.#windows && isWindowLimit(limit)) return Promise.resolve(notSupported('a window limit', 'windowLimits'));
      const k = this.#keys.resolve(key);
      if (k === undefined) return Promise.resolve(errorResult(this.#keyError(key)));
      const d = this.#defs.resolve(limit);
      if (d === undefined) return Promise.resolve(errorResult(this.#limitError(limit)));
      const m = validateCost(minBorrowed, 'minBorrowed');
      if (!m.ok) return Promise.resolve(errorResult(m.error));
      const o = readSyncOptions(options);
      if ('code' in o) return Promise.resolve(errorResult(o));
      if (d === null) return Promise.resolve({ kind: 'ok' });
      return settle(this.store.sync(k, d, m.value, o));
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    if (!this.capabilities.penalize) return Promise.resolve(notSupported('penalize', 'penalize'));
    if (this.#closed) return P_CLOSED;
    try {
      const k = this.#keys.resolve(key);
      if (k === undefined) return Promise.resolve(errorResult(this.#keyError(key)));
      const h = readHold(hold);
      if ('code' in h) return Promise.resolve(errorResult(h));
      return settle(this.store.penalize(k, h));
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  // ---------------------------------------------------------------- inspection

  borrowed(key: BucketKey): Promise<number | ErrorResult> {
    if (this.#closed) return P_CLOSED;
    try {
      const k = this.#keys.resolve(key);
      if (k === undefined) return Promise.resolve(errorResult(this.#keyError(key)));
      return settle(this.store.borrowed(k));
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  reset(key: BucketKey): Promise<SideEffectResult> {
    if (this.#closed) return P_CLOSED;
    try {
      const k = this.#keys.resolve(key);
      if (k === undefined) return Promise.resolve(errorResult(this.#keyError(key)));
      return settle(this.store.reset(k));
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  resetVenue(venue: string): Promise<SideEffectResult> {
    if (this.#closed) return P_CLOSED;
    try {
      const v = validateVenue(venue, 'venue');
      if (!v.ok) return Promise.resolve(errorResult(v.error));
      return settle(this.store.resetVenue(v.value));
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  resetAll(): Promise<SideEffectResult> {
    if (this.#closed) return P_CLOSED;
    try {
      return settle(this.store.resetAll());
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
  }

  snapshot(): Promise<readonly BucketSnapshot[] | ErrorResult> {
    if (!this.capabilities.snapshot) return Promise.resolve(notSupported('snapshot', 'snapshot'));
    if (this.#closed) return P_CLOSED;
    try {
      return settle(this.store.snapshot());
    } catch (e) {
      return Promise.resolve(internalResult(e));
    }
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
      if (this.#parts.perBucket) {
        const a = this.store.admit(
          n,
          this.#parts.keys,
          this.#parts.defs as Definition[],
          this.#parts.costs,
          'probe',
          undefined,
          1,
          this.#parts.frees,
        ) as Admission;
        return this.#seen('checkRates', n, this.#parts, this.#shape(a, 'checkRates', this.#parts));
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
    return this.#seen(caller, n, this.#parts, this.#shape(a, caller, this.#parts));
  }

  /** The shares of the call's buckets as the store takes them: one number, or the per-bucket list when a check named its own reserve (RL-Q6). */
  #free(callFree: number): number | readonly number[] {
    return this.#parts.perBucket ? this.#parts.frees : callFree;
  }

  #admit(n: number, mode: AdmitMode, budget: number | undefined, caller: Caller, cls: number, free: number | readonly number[]): Promise<Decision> {
    const a = this.store.admit(n, this.#parts.keys, this.#parts.defs as Definition[], this.#parts.costs, mode, budget, cls, free);
    if (!(a instanceof Promise)) return Promise.resolve(this.#seen(caller, n, this.#parts, this.#shape(a, caller, this.#parts)));
    const parts = this.#call.copy(n);
    return a.then((x) => this.#seen(caller, n, parts, this.#shape(x, caller, parts)), internalResult);
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
    if (o === undefined) return p;
    const keys = parts?.keys ?? this.#parts.keys.slice(0, n);
    const timers = this.store.timers;
    const start = timers.now();
    return p.then((d) => {
      try {
        o.admission('waitForCapacity', n, keys, d, timers.now() - start);
      } catch {
        // an observer never changes an answer
      }
      return d;
    });
  }

  /** The decision of `checkRate`, `checkRates` or `peek` from a store's admission. */
  #shape(a: Admission, caller: Caller, parts: CallParts): Decision {
    switch (a.status) {
      case 'admitted':
        if (a.sendAt <= a.now || caller === 'peek') return { kind: 'ok', sendAtMs: a.now };
        return { kind: 'booked', sendAtMs: a.sendAt, waitMs: a.sendAt - a.now };
      case 'wait':
        return { kind: 'delay', retryAfterMs: roundUpWait(a.waitMs) };
      case 'unpayable':
        return errorResult(this.#unpayable(a, caller, parts));
      case 'failed':
        return errorResult(this.#failure(a, caller, parts));
    }
  }

  /** A store's failure, a bucket's named in the caller's terms. */
  #failure(a: Admission & { status: 'failed' }, caller: Caller, parts: CallParts): RateLimitError {
    if (a.index === undefined || a.error.path === undefined) return a.error;
    const at = caller === 'checkRate' ? '' : `checks[${parts.first[a.index] as number}].`;
    return { ...a.error, path: `${at}${a.error.path}`, message: `${at}${a.error.message}` };
  }

  #waitFor(a: Admission, budget: number, signal: AbortSignal | undefined, parts: CallParts): Promise<WaitDecision> {
    switch (a.status) {
      case 'admitted': {
        const booking = a.booking;
        if (a.sendAt <= a.now) return Promise.resolve({ kind: 'ok', sendAtMs: a.now });
        if (this.#closed || isAborted(signal)) {
          // the signal fired (or the limiter closed) while the store booked: give the booking back
          const give = (returned: boolean): WaitDecision => (this.#closed ? CLOSED : errorResult(abortedError(returned ? 'returned' : 'forfeited')));
          const r = booking === undefined ? false : this.store.cancel(booking);
          return r instanceof Promise ? r.then(give, () => give(false)) : Promise.resolve(give(r));
        }
        const t = this.store.timers.now();
        const target = t === a.now ? a.sendAt : t + (a.sendAt - a.now);
        return this.#waiters.wait(target, a.sendAt, signal, () => (booking === undefined ? false : this.store.cancel(booking)));
      }
      case 'wait':
        return Promise.resolve(errorResult(timeoutError(a.waitMs, budget)));
      case 'unpayable':
        return Promise.resolve(errorResult(this.#unpayable(a, 'checkRates', parts)));
      case 'failed':
        return Promise.resolve(errorResult(this.#failure(a, 'checkRates', parts)));
    }
  }

  #unpayable(a: Admission & { status: 'unpayable' }, caller: Caller, parts: CallParts): RateLimitError {
    const key = parts.keys[a.index] as ResolvedKey;
    const def = parts.defs[a.index] as Definition;
    const path = caller === 'checkRate' ? 'cost' : `checks[${parts.first[a.index] as number}]`;
    return unpayableError(path, key, parts.costs[a.index] as number, def.capacity, def.refillPerSec, a.reason, a.left, def.window?.windowMs);
  }

  #keyError(key: unknown): RateLimitError {
    const r = normalizeKey(key, 'key');
    return r.ok ? { code: 'invalid_parameters', message: 'key: could not be read consistently (a getter or proxy)', path: 'key' } : r.error;
  }

  #limitError(limit: unknown): RateLimitError {
    const r = normalizeLimit(limit, 'limit');
    return r.ok ? { code: 'invalid_parameters', message: 'limit: could not be read consistently (a getter or proxy)', path: 'limit' } : r.error;
  }
}

/**
 * Whether a limit, as the caller passed it, is a window limit: read before anything else, so that a
 * limiter without window limits answers `not_supported` whatever the other arguments (RL-F2). Anything
 * unreadable is not (its reading fails later, as `invalid_parameters`).
 */
function isWindowLimit(limit: unknown): boolean {
  try {
    return typeof limit === 'object' && limit !== null && 'perWindow' in limit;
  } catch {
    return false;
  }
}

/** Whether any check, as the caller passed it, has a window limit (see {@link isWindowLimit}). */
function hasWindowLimit(checks: unknown): boolean {
  try {
    if (!Array.isArray(checks)) return false;
    for (const c of checks as unknown[]) if (typeof c === 'object' && c !== null && isWindowLimit((c as { limit?: unknown }).limit)) return true;
    return false;
  } catch {
    return false;
  }
}
