import type {
  BucketCheck,
  BucketKey,
  BucketSnapshot,
  Capabilities,
  CheckOptions,
  Decision,
  ErrorResult,
  Limit,
  PeekDecision,
  PeekOptions,
  PenaltyHold,
  RateLimiter,
  SideEffectResult,
  SyncOptions,
  TimerHandle,
  WaitDecision,
  WaitOptions,
} from '@core/rate-limit-contract';
import type { ManualClock } from '../../src/manual-clock.js';
import { formatNumber, isWindow, type ModelCheck, type ModelLimit } from '../../src/model-arithmetic.js';
import type { ModelBooking, ReferenceModel } from '../../src/reference-model.js';
import { longRunRate } from '../../src/window-log.js';
import {
  CLOSED,
  DONE,
  STORE_DOWN,
  classesRefused,
  error,
  notSupported,
  readAdmission,
  refusal,
  type Admission,
  type AdmissionContext,
} from './fake-admission.js';
import { type FakeStore, hashCredential, type FakeFlaws } from './fake-store.js';
import {
  callHasWindow,
  checksNameReserve,
  looksLikeWindow,
  readAmount,
  readBudget,
  readClass,
  readHold,
  readKey,
  readLimit,
  readOptions,
  readSignal,
  readSyncOptions,
  type Refused,
} from './validate.js';

export type { FakeFlaws } from './fake-store.js';

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
  windowLimits: true,
  priorities: true,
};

interface Waiter {
  timer: TimerHandle;
  finish(decision: WaitDecision): void;
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
    this.capabilities = Object.freeze({ ...CAPABILITIES, ...(flaws.priorityIgnoredSilently ? { priorities: false } : {}), ...capabilities });
    this.#store = store;
    this.#model = store.model;
    this.#clock = clock;
    this.#flaws = flaws;
  }

  async checkRate(key: BucketKey, limit: Limit, cost: number, options?: CheckOptions): Promise<Decision> {
    return this.checkRates([{ key, limit, cost }], options);
  }

  async checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision> {
    if (!this.#closed && this.#windowsRefused(checks)) return notSupported('windowLimits', 'a window limit');
    const input = this.#admissionInput(checks, options);
    if ('kind' in input) return input;
    if (this.#store.broken) return this.#unreachable();
    const { merged, maxWaitMs, cls, free } = input;
    const now = this.#clock.now();
    if (this.#flaws.bankAccrual && merged.length === 1 && maxWaitMs === undefined) return this.#banked(merged[0]!, now);
    if (this.#flaws.criticalSkipsCheck && cls === 0) {
      for (const c of merged) this.#model.record(c.key, c.cost, c.limit, now);
      return { kind: 'ok', sendAtMs: now };
    }
    const outcome = this.#model.check(merged, now, maxWaitMs, false, cls, free);
    switch (outcome.kind) {
      case 'invalid':
      case 'unpayable':
        return refusal(outcome);
      case 'wait':
        if (this.#flaws.spendOnRefusedProbe) for (const c of merged) this.#model.record(c.key, c.cost, c.limit, now);
        if (this.#flaws.partialMultiDebit) for (const c of merged) this.#model.check([c], now);
        return { kind: 'delay', retryAfterMs: outcome.retryAfterMs };
      case 'ok':
        if (outcome.waitMs <= 0) return { kind: 'ok', sendAtMs: now };
        if (this.#flaws.chargeAtSendTime) {
          this.#model.cancel(outcome.booking);
          this.#clock.setTimer(() => {
            for (const c of merged) this.#model.record(c.key, c.cost, c.limit, this.#clock.now());
          }, outcome.waitMs);
        }
        if (this.#flaws.okForBooking) return { kind: 'ok', sendAtMs: outcome.sendAtMs, waitMs: outcome.waitMs } as unknown as Decision;
        return { kind: 'booked', sendAtMs: outcome.sendAtMs, waitMs: outcome.waitMs };
    }
  }

  async peek(checks: readonly BucketCheck[], options?: PeekOptions): Promise<PeekDecision> {
    if (!this.#closed && this.#windowsRefused(checks)) return notSupported('windowLimits', 'a window limit');
    if (!this.#closed && classesRefused(this.#context(), options)) return notSupported('priorities', 'a priority or reserve');
    const input = this.#admissionInput(
      checks,
      options === undefined
        ? undefined
        : { ...(options.priority === undefined ? {} : { priority: options.priority }), ...(options.reserve === undefined ? {} : { reserve: options.reserve }) },
    );
    if ('kind' in input) return input;
    if (this.#store.broken) return this.#unreachable();
    const now = this.#clock.now();
    const outcome = this.#model.check(input.merged, now, undefined, true, input.cls, input.free);
    if (outcome.kind === 'ok') return { kind: 'ok', sendAtMs: now };
    if (outcome.kind === 'wait') return { kind: 'delay', retryAfterMs: outcome.retryAfterMs };
    return refusal(outcome);
  }

  async waitForCapacity(checks: readonly BucketCheck[], options?: WaitOptions): Promise<WaitDecision> {
    if (this.#closed) return CLOSED;
    if (this.#windowsRefused(checks)) return notSupported('windowLimits', 'a window limit');
    if (
      classesRefused(this.#context(), options) ||
      (this.capabilities.priorities !== true && !this.#flaws.priorityIgnoredSilently && checksNameReserve(checks))
    )
      return notSupported('priorities', 'a priority or reserve');
    const opts = readOptions(options);
    if (!opts.ok) return this.#refused(opts);
    const budget = readBudget(opts.value);
    if (!budget.ok) return this.#refused(budget);
    const maxWaitMs = budget.value ?? 10_000;
    const sg = readSignal(opts.value);
    if (!sg.ok) return this.#refused(sg);
    const cl = readClass(this.capabilities.priorities === true ? opts.value : undefined);
    if (!cl.ok) return this.#refused(cl);
    const input = this.#admissionInput(
      checks,
      cl.value.cls === 1 && opts.value?.['reserve'] === undefined
        ? undefined
        : {
            ...(opts.value?.['priority'] === undefined ? {} : { priority: opts.value['priority'] as 'bulk' }),
            ...(opts.value?.['reserve'] === undefined ? {} : { reserve: opts.value['reserve'] as object }),
          },
    );
    if ('kind' in input) return input;
    if (sg.value.aborted) return error('aborted', 'the signal was aborted before the wait started; nothing was booked');
    if (this.#store.broken) return this.#unreachable();
    const { merged } = input;
    const signal = sg.value.signal;
    const now = this.#clock.now();
    if (this.#flaws.criticalSkipsCheck && input.cls === 0) {
      for (const c of merged) this.#model.record(c.key, c.cost, c.limit, now);
      return { kind: 'ok', sendAtMs: now };
    }
    const outcome = this.#model.check(merged, now, maxWaitMs, false, input.cls, input.free);
    if (outcome.kind === 'invalid' || outcome.kind === 'unpayable') return refusal(outcome);
    if (outcome.kind === 'wait') {
      return error('rate_limit_timeout', `the wait of ${outcome.retryAfterMs} ms exceeds the budget of ${formatNumber(maxWaitMs)} ms; nothing was booked`, {
        retryAfterMs: outcome.retryAfterMs,
      });
    }
    if (outcome.waitMs <= 0) return { kind: 'ok', sendAtMs: now };
    if (this.#flaws.chargeAtSendTime) return this.#chargeLater(merged, outcome.waitMs);
    return this.#waitFor(outcome.sendAtMs, outcome.waitMs, outcome.booking, signal);
  }

  record(key: BucketKey, cost: number, limit?: Limit): void {
    try {
      const k = readKey(key, 'key');
      const c = readAmount(cost, 'cost');
      const l = limit === undefined ? undefined : readLimit(limit, 'limit');
      if (this.#closed || !k.ok || !c.ok || (l !== undefined && !l.ok) || (!this.capabilities.windowLimits && looksLikeWindow(limit))) {
        this.#store.dropped++;
        return;
      }
      const definition = l?.ok === true && l.value !== null ? this.#shaped(l.value) : l?.ok === true ? null : undefined;
      if (this.#store.broken) {
        if (this.#store.buffered.length >= 1000) this.#store.dropped++;
        else this.#store.buffered.push({ key: k.value, cost: c.value, limit: definition });
        return;
      }
      this.#model.record(k.value, c.value, definition, this.#clock.now());
    } catch {
      this.#store.dropped++;
    }
  }

  async sync(key: BucketKey, limit: Limit, minBorrowed: number, options?: SyncOptions): Promise<SideEffectResult> {
    if (!this.capabilities.sync) return notSupported('sync');
    if (!this.#closed && !this.capabilities.windowLimits && looksLikeWindow(limit)) return notSupported('windowLimits', 'a window limit');
    const k = readKey(key, 'key');
    if (!k.ok) return this.#refused(k);
    const l = readLimit(limit, 'limit', this.#flaws.missingLimitUnlimited);
    if (!l.ok) return this.#refused(l);
    const m = readAmount(minBorrowed, 'minBorrowed');
    if (!m.ok) return this.#refused(m);
    const report = readSyncOptions(options);
    if (!report.ok) return this.#refused(report);
    if (this.#closed) return CLOSED;
    if (this.#store.broken) return STORE_DOWN;
    if (l.value !== null) this.#model.sync(k.value, this.#shaped(l.value), m.value, this.#clock.now(), report.value);
    return DONE;
  }

  async penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    if (!this.capabilities.penalize) return notSupported('penalize');
    const k = readKey(key, 'key');
    if (!k.ok) return this.#refused(k);
    const until = readHold(hold, this.#clock.now());
    if (!until.ok) return this.#refused(until);
    if (this.#closed) return CLOSED;
    if (this.#store.broken) return STORE_DOWN;
    this.#model.penalize(k.value, until.value, this.#clock.now());
    return DONE;
  }

  async borrowed(key: BucketKey): Promise<number | ErrorResult> {
    const k = readKey(key, 'key');
    if (!k.ok) return this.#refused(k);
    if (this.#store.broken) return this.#flaws.okWhenStoreFails ? 0 : STORE_DOWN;
    return this.#model.borrowed(k.value, this.#clock.now());
  }

  async reset(key: BucketKey): Promise<SideEffectResult> {
    const k = readKey(key, 'key');
    if (!k.ok) return this.#refused(k);
    if (this.#store.broken) return STORE_DOWN;
    this.#model.reset(k.value);
    return DONE;
  }

  async resetVenue(venue: string): Promise<SideEffectResult> {
    if (typeof venue !== 'string' || venue.length === 0) return error('invalid_parameters', 'venue must be a non-empty string', { path: 'venue' });
    if (this.#store.broken) return STORE_DOWN;
    this.#model.resetVenue(venue);
    return DONE;
  }

  async resetAll(): Promise<SideEffectResult> {
    if (this.#store.broken) return STORE_DOWN;
    this.#model.resetAll();
    return DONE;
  }

  async snapshot(): Promise<readonly BucketSnapshot[] | ErrorResult> {
    if (!this.capabilities.snapshot) return notSupported('snapshot');
    if (this.#store.broken) return STORE_DOWN;
    return this.#model.snapshot(this.#clock.now()).map((b) => {
      const entry: BucketSnapshot = {
        venue: b.key.venue,
        credentialHash: hashCredential(b.key.credential),
        axis: b.key.axis,
        capacity: b.limit.capacity,
        refillPerSec: b.limit.refillPerSec,
        tokens: b.tokens,
        borrowed: b.borrowed,
        ...(b.windowMs === undefined ? {} : { windowMs: b.windowMs }),
      };
      return b.heldUntilMs === undefined ? entry : { ...entry, heldUntilMs: b.heldUntilMs };
    });
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const waiter of [...this.#waiters]) waiter.finish(error('closed', 'the limiter was closed while waiting'));
  }

  /** Reads and merges the checks and options of an admission, or answers why not. */
  #admissionInput(checks: readonly BucketCheck[], options: CheckOptions | undefined): Admission | ErrorResult {
    if (this.#closed) return CLOSED;
    return readAdmission(this.#context(), checks, options);
  }

  /** What reading an admission needs of this fake. */
  #context(): AdmissionContext {
    return { capabilities: this.capabilities, flaws: this.#flaws, shaped: (l, scale) => this.#shaped(l, scale), refused: (r) => this.#refused(r) };
  }

  /** A limiter without window limits answers not_supported to a call that gives one, whatever the rest of it (RL-F2). */
  #windowsRefused(checks: unknown): boolean {
    return !this.capabilities.windowLimits && callHasWindow(checks);
  }

  /** A definition as this fake keeps it: the window-as-token-bucket flaw keeps a window limit as its long-run rate. */
  #shaped(limit: ModelLimit, scale = 1): ModelLimit {
    const l = this.#flaws.windowAsTokenBucket && isWindow(limit) ? longRunRate(limit) : limit;
    // the reserve-cuts-rate flaw: a lower class's bucket scaled down whole, refill included
    if (scale !== 1 && !isWindow(l)) return { capacity: l.capacity * scale, refillPerSec: l.refillPerSec * scale };
    return l;
  }

  #refused(refused: Refused): ErrorResult {
    if (refused.unreadable && this.#flaws.internalForUnreadable) return error('internal', 'unexpected failure while reading the input');
    return error('invalid_parameters', refused.why, { path: refused.path });
  }

  #unreachable(): Decision & PeekDecision & WaitDecision {
    if (this.#flaws.okWhenStoreFails) return { kind: 'ok', sendAtMs: this.#clock.now() };
    return STORE_DOWN;
  }

  /** Holds the booking until its send time; an abort returns it, or forfeits it when something was charged after it (RL-W5). */
  #waitFor(sendAtMs: number, waitMs: number, booking: ModelBooking, signal: AbortSignal | undefined): Promise<WaitDecision> {
    return new Promise<WaitDecision>((resolve) => {
      const onAbort = (): void => {
        const { returned, forfeited } = this.#model.cancel(booking);
        const fate =
          forfeited === 0
            ? 'the booking was returned'
            : returned === 0
              ? 'the booking was forfeited (something was charged to the bucket after it)'
              : `the booking was returned on ${returned} bucket(s) and forfeited on ${forfeited} (something was charged after it)`;
        waiter.finish(error('aborted', `the wait was aborted before its send time; ${fate}`));
      };
      const waiter: Waiter = {
        timer: this.#clock.setTimer(() => waiter.finish({ kind: 'ok', sendAtMs }), waitMs),
        finish: (decision) => {
          waiter.timer.cancel();
          signal?.removeEventListener('abort', onAbort);
          this.#waiters.delete(waiter);
          resolve(decision);
        },
      };
      waiter.timer.unref?.();
      this.#waiters.add(waiter);
      try {
        signal?.addEventListener('abort', onAbort, { once: true });
      } catch {
        waiter.finish(error('internal', 'the signal could not take a listener; the booking stays charged')); // never reject (RL-F1)
      }
    });
  }

  /** The charge-at-send-time flaw: nothing is booked, the waiter re-checks when its time comes. */
  #chargeLater(merged: readonly ModelCheck[], waitMs: number): Promise<WaitDecision> {
    return new Promise<WaitDecision>((resolve) => {
      const retry = (): void => {
        const again = this.#model.check(merged, this.#clock.now());
        if (again.kind === 'ok') resolve({ kind: 'ok', sendAtMs: this.#clock.now() });
        else if (again.kind === 'wait') this.#clock.setTimer(retry, again.waitMs);
        else resolve(error('internal', 'unexpected'));
      };
      this.#clock.setTimer(retry, waitMs);
    });
  }

  /** The banking flaw: tokens accrue without a cap while the bucket is idle. */
  #banked(check: ModelCheck, now: number): Decision {
    if (isWindow(check.limit)) {
      const outcome = this.#model.check([check], now);
      return outcome.kind === 'ok'
        ? { kind: 'ok', sendAtMs: now }
        : outcome.kind === 'wait'
          ? { kind: 'delay', retryAfterMs: outcome.retryAfterMs }
          : refusal(outcome);
    }
    const state = this.#bank.get(check.id) ?? { tokens: check.limit.capacity, at: now };
    const tokens = state.tokens + ((now - state.at) * check.limit.refillPerSec) / 1000;
    if (tokens >= check.cost) {
      this.#bank.set(check.id, { tokens: tokens - check.cost, at: now });
      return { kind: 'ok', sendAtMs: now };
    }
    this.#bank.set(check.id, { tokens, at: now });
    return { kind: 'delay', retryAfterMs: Math.max(1, Math.ceil(((check.cost - tokens) * 1000) / check.limit.refillPerSec)) };
  }
}
