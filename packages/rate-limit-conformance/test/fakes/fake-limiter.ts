import { createHash } from 'node:crypto';
import type {
  BucketCheck,
  BucketKey,
  BucketSnapshot,
  Capabilities,
  CheckOptions,
  Decision,
  ErrorResult,
  Limit,
  PenaltyHold,
  RateLimiter,
  RateLimitErrorCode,
  SideEffectResult,
  TimerHandle,
  WaitOptions,
} from '@core/rate-limit-contract';
import type { ManualClock } from '../../src/manual-clock.js';
import { ReferenceModel, mergeChecks, normalizeLimit, type ModelCheck } from '../../src/reference-model.js';
import type { ConformanceSubject } from '../../src/subject.js';
import { badBudget, badChecks, badCost, badKey, isKey } from './validate.js';

/** Deliberate defects, each breaking one rule of SPEC.md (for the suite's self-test). */
export interface FakeFlaws {
  /** Prices every request at 1 (breaks RL-A1). */
  readonly priceAtOne?: boolean;
  /** Spends the cost of a refused probe (breaks RL-A3). */
  readonly spendOnRefusedProbe?: boolean;
  /** Lets idle accrual pile up above capacity (breaks RL-A4). */
  readonly bankAccrual?: boolean;
  /** Charges a booking only at its send time, so cheap traffic spends it first (breaks RL-W2). */
  readonly chargeAtSendTime?: boolean;
  /** Debits the buckets that could pay when a multi-bucket check is refused (breaks RL-M1). */
  readonly partialMultiDebit?: boolean;
  /** Answers ok when its store is unreachable (breaks RL-F1). */
  readonly okWhenStoreFails?: boolean;
  /** Claims to be distributed, but its peer keeps buckets of its own (breaks RL-W2 and RL-A6 across processes). */
  readonly unsharedPeer?: boolean;
}

const CAPABILITIES: Capabilities = {
  distributed: true,
  injectableClock: true,
  bookings: true,
  abortSignal: true,
  fractionalCosts: true,
  snapshot: true,
  sync: true,
  penalize: true,
  crossVenueChecks: true,
};

function error(code: RateLimitErrorCode, message: string, retryAfterMs?: number): ErrorResult {
  return { kind: 'error', error: retryAfterMs === undefined ? { code, message } : { code, message, retryAfterMs } };
}

const DONE: SideEffectResult = { kind: 'ok' };
const STORE_DOWN: ErrorResult = error('backend_unavailable', 'the store cannot be reached');

/** What limiters sharing one "store" share: the buckets, and whether the store can be reached. */
export class FakeStore {
  readonly model = new ReferenceModel();
  /** The store is unreachable (a fault hook of the subject). */
  broken = false;
  /** Records kept while the store is unreachable (bounded) and how many were dropped. */
  readonly buffered: { key: BucketKey; cost: number; limit: Limit }[] = [];
  dropped = 0;

  /** Makes the store reachable again and replays the buffered records. */
  repair(now: number): void {
    this.broken = false;
    for (const r of this.buffered.splice(0)) this.model.record(r.key, r.cost, r.limit, now);
  }

  /** The names the buckets are stored under: venue, hashed credential, axis (RL-K3). */
  keyNames(now: number): string[] {
    return this.model.snapshot(now).map((b) => [b.key.venue, hashCredential(b.key.credential), b.key.axis].join(':'));
  }
}

function hashCredential(credential: string | null): string | null {
  return credential === null ? null : createHash('sha256').update(credential).digest('hex');
}

interface Waiter {
  timer: TimerHandle;
  finish(decision: Decision): void;
}

/**
 * A small in-memory limiter built on the reference model: the suite's correct fake (no flaws) and
 * its broken fakes (one flaw each).
 */
export class FakeLimiter implements RateLimiter {
  readonly specificationVersion = 'v1' as const;
  readonly capabilities: Capabilities;
  readonly #store: FakeStore;
  readonly #model: ReferenceModel;
  readonly #clock: ManualClock;
  readonly #flaws: FakeFlaws;
  readonly #waiters = new Set<Waiter>();
  readonly #bank = new Map<string, { tokens: number; at: number }>();
  #closed = false;

  constructor(clock: ManualClock, store: FakeStore, flaws: FakeFlaws = {}, capabilities: Partial<Capabilities> = {}) {
    this.capabilities = Object.freeze({ ...CAPABILITIES, ...capabilities });
    this.#store = store;
    this.#model = store.model;
    this.#clock = clock;
    this.#flaws = flaws;
  }

  async checkRate(key: BucketKey, limit: Limit, cost: number, options?: CheckOptions): Promise<Decision> {
    return this.checkRates([{ key, limit, cost }], options);
  }

  async checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision> {
    const refused = this.#refuse(checks, options);
    if (refused !== undefined) return refused;
    if (this.#store.broken) return this.#unreachable();
    const merged = this.#merge(checks);
    if ('kind' in merged) return merged;
    const now = this.#clock.now();
    if (this.#flaws.bankAccrual && merged.length === 1 && options?.maxWaitMs === undefined) return this.#banked(merged[0]!, now);
    const outcome = this.#model.check(merged, now, options?.maxWaitMs);
    switch (outcome.kind) {
      case 'invalid':
        return error('invalid_parameters', outcome.message);
      case 'unpayable':
        return error('cost_unpayable', outcome.message);
      case 'wait':
        if (this.#flaws.spendOnRefusedProbe) for (const c of merged) this.#model.record(c.key, c.cost, c.limit, now);
        if (this.#flaws.partialMultiDebit) for (const c of merged) this.#model.check([c], now);
        return { kind: 'delay', retryAfterMs: outcome.retryAfterMs };
      case 'ok':
        if (this.#flaws.chargeAtSendTime && outcome.waitMs > 0) {
          this.#model.cancel(outcome.booking);
          this.#clock.setTimer(() => {
            for (const c of merged) this.#model.record(c.key, c.cost, c.limit, this.#clock.now());
          }, outcome.waitMs);
        }
        return { kind: 'ok', waitMs: outcome.waitMs, sendAtMs: outcome.sendAtMs };
    }
  }

  async peek(checks: readonly BucketCheck[]): Promise<Decision> {
    const refused = this.#refuse(checks, undefined);
    if (refused !== undefined) return refused;
    if (this.#store.broken) return this.#unreachable();
    const merged = this.#merge(checks);
    if ('kind' in merged) return merged;
    const now = this.#clock.now();
    const outcome = this.#model.check(merged, now, undefined, true);
    if (outcome.kind === 'ok') return { kind: 'ok', waitMs: 0, sendAtMs: now };
    if (outcome.kind === 'wait') return { kind: 'delay', retryAfterMs: outcome.retryAfterMs };
    return error(outcome.kind === 'unpayable' ? 'cost_unpayable' : 'invalid_parameters', outcome.message);
  }

  async waitForCapacity(checks: readonly BucketCheck[], options?: WaitOptions): Promise<Decision> {
    const maxWaitMs = options?.maxWaitMs ?? 10_000;
    const refused = this.#refuse(checks, { maxWaitMs });
    if (refused !== undefined) return refused;
    const signal = options?.signal;
    if (signal !== undefined && !(signal instanceof AbortSignal)) return error('invalid_parameters', 'signal must be an AbortSignal');
    if (signal?.aborted) return error('aborted', 'the wait was aborted before it started');
    if (this.#store.broken) return this.#unreachable();
    const merged = this.#merge(checks);
    if ('kind' in merged) return merged;
    const now = this.#clock.now();
    const outcome = this.#model.check(merged, now, maxWaitMs);
    if (outcome.kind === 'invalid') return error('invalid_parameters', outcome.message);
    if (outcome.kind === 'unpayable') return error('cost_unpayable', outcome.message);
    if (outcome.kind === 'wait') {
      return error('rate_limit_timeout', `the wait of ${outcome.retryAfterMs} ms exceeds the budget of ${maxWaitMs} ms`, outcome.retryAfterMs);
    }
    const ok: Decision = { kind: 'ok', waitMs: outcome.waitMs, sendAtMs: outcome.sendAtMs };
    if (outcome.waitMs <= 0) return ok;
    if (this.#flaws.chargeAtSendTime) {
      this.#model.cancel(outcome.booking);
      return new Promise<Decision>((resolve) => {
        const retry = (): void => {
          const again = this.#model.check(merged, this.#clock.now());
          if (again.kind === 'ok') resolve({ kind: 'ok', waitMs: this.#clock.now() - now, sendAtMs: this.#clock.now() });
          else if (again.kind === 'wait') this.#clock.setTimer(retry, again.waitMs);
          else resolve(error('internal', 'unexpected'));
        };
        this.#clock.setTimer(retry, outcome.waitMs);
      });
    }
    return new Promise<Decision>((resolve) => {
      const onAbort = (): void => {
        this.#model.cancel(outcome.booking);
        waiter.finish(error('aborted', 'the wait was aborted'));
      };
      const waiter: Waiter = {
        timer: this.#clock.setTimer(() => waiter.finish(ok), outcome.waitMs),
        finish: (decision) => {
          waiter.timer.cancel();
          signal?.removeEventListener('abort', onAbort);
          this.#waiters.delete(waiter);
          resolve(decision);
        },
      };
      waiter.timer.unref?.();
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiters.add(waiter);
    });
  }

  record(key: BucketKey, cost: number, limit?: Limit): void {
    try {
      if (this.#closed || !isKey(key) || badCost(cost, 'cost') !== undefined || normalizeLimit(limit) === 'invalid') {
        this.#store.dropped++;
        return;
      }
      if (this.#store.broken) {
        if (this.#store.buffered.length >= 1000) this.#store.dropped++;
        else this.#store.buffered.push({ key, cost, limit });
        return;
      }
      this.#model.record(key, cost, limit, this.#clock.now());
    } catch {
      this.#store.dropped++;
    }
  }

  async sync(key: BucketKey, limit: Limit, minBorrowed: number): Promise<SideEffectResult> {
    const why = badKey(key, 'key') ?? badCost(minBorrowed, 'minBorrowed');
    if (why !== undefined) return error('invalid_parameters', why);
    const normalized = normalizeLimit(limit);
    if (normalized === 'invalid') return error('invalid_parameters', 'limit is not a valid limit');
    if (this.#closed) return error('closed', 'the limiter is closed');
    if (this.#store.broken) return STORE_DOWN;
    if (normalized !== null) this.#model.sync(key, normalized, minBorrowed, this.#clock.now());
    return DONE;
  }

  async penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    const why = badKey(key, 'key');
    if (why !== undefined) return error('invalid_parameters', why);
    const until = typeof hold === 'object' && hold !== null ? ('forMs' in hold ? this.#clock.now() + hold.forMs : hold.untilMs) : Number.NaN;
    if (!Number.isFinite(until)) return error('invalid_parameters', 'hold must be { untilMs } or { forMs } with a finite number');
    if (this.#closed) return error('closed', 'the limiter is closed');
    if (this.#store.broken) return STORE_DOWN;
    this.#model.penalize(key, until);
    return DONE;
  }

  async borrowed(key: BucketKey): Promise<number | ErrorResult> {
    const why = badKey(key, 'key');
    if (why !== undefined) return error('invalid_parameters', why);
    if (this.#store.broken) return this.#flaws.okWhenStoreFails ? 0 : STORE_DOWN;
    return this.#model.borrowed(key, this.#clock.now());
  }

  async reset(key: BucketKey): Promise<SideEffectResult> {
    const why = badKey(key, 'key');
    if (why !== undefined) return error('invalid_parameters', why);
    if (this.#store.broken) return STORE_DOWN;
    this.#model.reset(key);
    return DONE;
  }

  async resetVenue(venue: string): Promise<SideEffectResult> {
    if (typeof venue !== 'string' || venue.length === 0) return error('invalid_parameters', 'venue must be a non-empty string');
    if (this.#store.broken) return STORE_DOWN;
    this.#model.resetVenue(venue);
    return DONE;
  }

  async resetAll(): Promise<SideEffectResult> {
    if (this.#store.broken) return STORE_DOWN;
    this.#model.resetAll();
    return DONE;
  }

  async snapshot(): Promise<readonly BucketSnapshot[]> {
    if (this.#store.broken) return [];
    return this.#model.snapshot(this.#clock.now()).map((b) => ({
      venue: b.key.venue,
      credentialHash: hashCredential(b.key.credential),
      axis: b.key.axis,
      capacity: b.limit.capacity,
      refillPerSec: b.limit.refillPerSec,
      tokens: b.tokens,
      borrowed: b.borrowed,
    }));
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of [...this.#waiters]) waiter.finish(error('closed', 'the limiter was closed while waiting'));
  }

  #refuse(checks: readonly BucketCheck[], options: CheckOptions | undefined): Decision | undefined {
    if (this.#closed) return error('closed', 'the limiter is closed');
    if (options !== undefined && (typeof options !== 'object' || options === null)) return error('invalid_parameters', 'options must be an object');
    const why = badChecks(checks) ?? badBudget(options?.maxWaitMs);
    return why === undefined ? undefined : error('invalid_parameters', why);
  }

  #merge(checks: readonly BucketCheck[]): readonly ModelCheck[] | ErrorResult {
    const priced = this.#flaws.priceAtOne ? checks.map((c) => ({ ...c, cost: c.cost > 0 ? 1 : 0 })) : checks;
    const merged = mergeChecks(priced);
    return 'invalid' in merged ? error('invalid_parameters', merged.invalid) : merged;
  }

  #unreachable(): Decision {
    if (this.#flaws.okWhenStoreFails) return { kind: 'ok', waitMs: 0, sendAtMs: this.#clock.now() };
    return error('backend_unavailable', 'the store cannot be reached');
  }

  /** The banking flaw: tokens accrue without a cap while the bucket is idle. */
  #banked(check: ModelCheck, now: number): Decision {
    const state = this.#bank.get(check.id) ?? { tokens: check.limit.capacity, at: now };
    const tokens = state.tokens + ((now - state.at) * check.limit.refillPerSec) / 1000;
    if (tokens >= check.cost) {
      this.#bank.set(check.id, { tokens: tokens - check.cost, at: now });
      return { kind: 'ok', waitMs: 0, sendAtMs: now };
    }
    this.#bank.set(check.id, { tokens, at: now });
    return { kind: 'delay', retryAfterMs: Math.max(1, Math.ceil(((check.cost - tokens) * 1000) / check.limit.refillPerSec)) };
  }
}

/** A conformance subject around a {@link FakeLimiter}, with fault hooks, a peer and its key names. */
export function createFakeSubject(clock: ManualClock, flaws: FakeFlaws = {}, capabilities: Partial<Capabilities> = {}): ConformanceSubject {
  const store = new FakeStore();
  return {
    limiter: new FakeLimiter(clock, store, flaws, capabilities),
    breakStore: () => {
      store.broken = true;
    },
    repairStore: () => {
      store.repair(clock.now());
    },
    peer: () => new FakeLimiter(clock, flaws.unsharedPeer ? new FakeStore() : store, flaws, capabilities),
    storageKeys: () => store.keyNames(clock.now()),
  };
}
