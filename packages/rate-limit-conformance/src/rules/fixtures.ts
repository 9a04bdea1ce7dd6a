import type { BucketCheck, BucketKey, Capabilities, Decision, Limit, PeekDecision, RateLimiter, SyncOptions, WaitOptions } from '@core/rate-limit-contract';
import { expectDone, expectOkNow, fail } from '../expect.js';
import type { ManualClock } from '../manual-clock.js';

/** capacity 10, refill 10/s: one token per 100 ms, a full refill in 1000 ms. */
export const TEN_PER_SECOND: Limit = { capacity: 10, refillPerSec: 10 };
/** capacity 5, refill 5/s: one token per 200 ms. */
export const FIVE_PER_SECOND: Limit = { capacity: 5, refillPerSec: 5 };
/**
 * A window limit (RL-V1): 10 in any window of 1000 ms, sends arriving up to 50 ms late, so at most 10
 * in any 1050 ms of send times.
 */
export const TEN_PER_WINDOW: Limit = { perWindow: 10, windowMs: 1000, jitterMs: 50 };

/** A bucket key (credential `cred-a` on venue `alpha` unless said otherwise). */
export function key(options: { venue?: string; credential?: string | null; axis?: string } = {}): BucketKey {
  const base = { venue: options.venue ?? 'alpha', credential: options.credential === undefined ? 'cred-a' : options.credential };
  return options.axis === undefined ? base : { ...base, axis: options.axis };
}

/** A sync on {@link TEN_PER_WINDOW} that must be applied. */
export async function synced(limiter: RateLimiter, k: BucketKey, used: number, options: SyncOptions | undefined, what: string): Promise<void> {
  expectDone(await limiter.sync(k, TEN_PER_WINDOW, used, options), what);
}

/** Spends `cost` now on a bucket, failing unless it is admitted at once. */
export async function spend(limiter: RateLimiter, k: BucketKey, limit: Limit, cost: number, what = 'spend'): Promise<void> {
  expectOkNow(await limiter.checkRate(k, limit, cost), `${what} (cost ${cost})`);
}

/**
 * Cost 0 on `k` is admitted at once by every admission method (RL-A2), alone and beside a cost on a fresh bucket,
 * and changes nothing: `borrowed` stays `before`.
 */
export async function expectZeroCostAdmitted(
  limiter: RateLimiter,
  clock: ManualClock,
  k: BucketKey,
  limit: Limit,
  before: number,
  what: string,
): Promise<void> {
  const now = clock.now();
  const zero = { key: k, limit, cost: 0 };
  const beside = { key: { ...k, axis: `${k.axis ?? 'request'}-beside` }, limit: TEN_PER_SECOND, cost: 1 };
  expectOkNow(await limiter.checkRate(k, limit, 0), `${what}: checkRate of cost 0`, now);
  expectOkNow(await limiter.checkRate(k, limit, 0, { maxWaitMs: 1000 }), `${what}: checkRate of cost 0 with a budget`, now);
  expectOkNow(await limiter.peek([zero]), `${what}: peek of cost 0`, now);
  expectOkNow(await limiter.peek([zero, beside]), `${what}: peek of cost 0 beside cost 1 on a fresh bucket`, now);
  expectOkNow(await limiter.checkRates([zero, beside], { maxWaitMs: 1000 }), `${what}: checkRates of cost 0 beside cost 1 on a fresh bucket`, now);
  const borrowed = await limiter.borrowed(k);
  if (typeof borrowed !== 'number' || !(Math.abs(borrowed - before) <= 1e-6 * Math.max(1, before))) {
    fail(`${what}: borrowed ${JSON.stringify(borrowed)} after the costs of 0, expected ${before}`);
  }
}

/** A promise whose outcome can be looked at without awaiting it. */
export interface Tracked<T> {
  readonly promise: Promise<T>;
  readonly done: boolean;
  readonly value: T | undefined;
  readonly error: unknown;
  /** Real milliseconds {@link settled} waits for it. */
  readonly timeoutMs: number;
}

/** Wraps a promise so a test can see whether it settled yet. */
export function track<T>(promise: Promise<T>, timeoutMs = 5_000): Tracked<T> {
  const state: { done: boolean; value: T | undefined; error: unknown } = { done: false, value: undefined, error: undefined };
  const tracked = {
    promise,
    timeoutMs,
    get done() {
      return state.done;
    },
    get value() {
      return state.value;
    },
    get error() {
      return state.error;
    },
  };
  promise.then(
    (v) => {
      state.done = true;
      state.value = v;
    },
    (e: unknown) => {
      state.done = true;
      state.error = e;
    },
  );
  return tracked;
}

/**
 * Starts `waitForCapacity` and returns once it has either settled or started its timer on the
 * manual clock (an implementation may need a round trip to book first).
 */
export async function startWait(limiter: RateLimiter, clock: ManualClock, checks: readonly BucketCheck[], options?: WaitOptions): Promise<Tracked<Decision>> {
  const before = clock.timersCreated;
  const waiter = track(limiter.waitForCapacity(checks, options), clock.realTimeoutMs);
  const started = Date.now();
  while (!waiter.done && clock.timersCreated <= before) {
    if (Date.now() - started > clock.realTimeoutMs) {
      fail(`waitForCapacity neither settled nor started a timer on the injected clock within ${clock.realTimeoutMs} ms of real time`);
    }
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
  }
  return waiter;
}

/**
 * `waitForCapacity` where the answer must come at once (an error, or ok now): fails, instead of hanging
 * on the manual clock, when the implementation starts a timer and waits.
 */
export async function answeredAtOnce(
  limiter: RateLimiter,
  clock: ManualClock,
  checks: readonly BucketCheck[],
  options: WaitOptions | undefined,
  what: string,
): Promise<Decision> {
  const timers = clock.timersCreated;
  const waiter = await startWait(limiter, clock, checks, options);
  if (!waiter.done || clock.timersCreated > timers) fail(`${what}: waitForCapacity started a timer and waits, where it must answer at once`);
  return settled(waiter, what);
}

/** Awaits a tracked waiter that must have settled by now. */
export async function settled<T>(waiter: Tracked<T>, what: string): Promise<T> {
  const started = Date.now();
  while (!waiter.done && Date.now() - started < waiter.timeoutMs) await new Promise<void>((resolve) => setTimeout(resolve, 1));
  if (!waiter.done) fail(`${what}: still pending`);
  if (waiter.error !== undefined) fail(`${what}: rejected with ${String(waiter.error)} (RL-F1: never rejects)`);
  return waiter.promise;
}

/** Fails if a tracked waiter settled. */
export function expectPending<T>(waiter: Tracked<T>, what: string): void {
  if (waiter.done) fail(`${what}: settled early with ${JSON.stringify(waiter.value ?? String(waiter.error))}`);
}

/** The text of the error an unreadable input throws: no answer may repeat it (it may hold a secret, RL-K3). */
export const UNREADABLE_TEXT = 'sk-live-unreadable-0f1e2d3c';

/**
 * A value whose every read throws (a Proxy over `target`): a key, limit, check, list of checks or
 * options object that cannot even be read (RL-F2).
 */
export function unreadable<T extends object>(target: T = {} as T): T {
  const trap = (): never => {
    throw new Error(UNREADABLE_TEXT);
  };
  return new Proxy(target, { get: trap, has: trap, ownKeys: trap, getOwnPropertyDescriptor: trap });
}

/** An object whose property `name` throws when read. */
export function throwingGetter<T extends object>(name: string, rest: T = {} as T): T {
  return Object.defineProperty({ ...rest }, name, {
    enumerable: true,
    get: () => {
      throw new Error(UNREADABLE_TEXT);
    },
  });
}

/** An AbortSignal whose `aborted` getter throws (it still passes `instanceof AbortSignal`). */
export function signalWithThrowingAborted(): AbortSignal {
  const signal = new AbortController().signal;
  return new Proxy(signal, {
    get(target, property) {
      if (property === 'aborted') throw new Error(UNREADABLE_TEXT);
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** An AbortSignal that cannot take a listener: its `addEventListener` throws (every read of it succeeds). */
export function signalWithThrowingListener(): AbortSignal {
  const signal = new AbortController().signal;
  return new Proxy(signal, {
    get(target, property) {
      if (property === 'addEventListener')
        return () => {
          throw new Error(UNREADABLE_TEXT);
        };
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/** Lets a record that is sent asynchronously (a store round trip) land before the next read. */
export async function landed(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}

/**
 * How much longer than `windowMs + jitterMs` a send may hold its room on `limit` at the implementation's
 * resolution (RL-V6): `2 · windowMs / K` for slots of `windowMs / K` (`capabilities.windowSlots`), 0 for an
 * exact log.
 */
export function slackOf(capabilities: Capabilities, limit: Limit): number {
  const k = capabilities.windowSlots;
  return k === undefined || limit === null || !('windowMs' in limit) ? 0 : (2 * limit.windowMs) / k;
}

/**
 * A `delay` whose wait lies in `[exactMs, exactMs + slackMs]` (rounded up to whole ms, as every delay is); its
 * `retryAfterMs`.
 */
export function expectDelayWithin(decision: Decision | PeekDecision, exactMs: number, slackMs: number, what: string): number {
  if (decision?.kind !== 'delay') fail(`${what}: expected a delay of ${exactMs} to ${exactMs + slackMs} ms, got ${JSON.stringify(decision)}`);
  const lo = Math.max(1, Math.ceil(exactMs - 1e-6));
  const hi = Math.max(1, Math.ceil(exactMs + slackMs + 1e-6));
  if (!(decision.retryAfterMs >= lo && decision.retryAfterMs <= hi))
    fail(
      `${what}: a delay of ${decision.retryAfterMs} ms, expected ${lo} to ${hi} ms (the exact wait ${exactMs} ms, plus up to ${slackMs} ms at the limiter's resolution)`,
    );
  return decision.retryAfterMs;
}

/** A `booked` answer whose wait lies in `[exactMs, exactMs + slackMs]`, `waitMs` exactly `sendAtMs − now`; its wait. */
export function expectBookedWithin(decision: Decision, now: number, exactMs: number, slackMs: number, what: string): number {
  if (decision?.kind !== 'booked') fail(`${what}: expected booked (send in ${exactMs} to ${exactMs + slackMs} ms), got ${JSON.stringify(decision)}`);
  const wait = decision.sendAtMs - now;
  if (!(wait >= exactMs - 1e-6 && wait <= exactMs + slackMs + 1e-6))
    fail(`${what}: booked ${wait} ms ahead, expected ${exactMs} to ${exactMs + slackMs} ms (at the limiter's resolution)`);
  if (!(Math.abs(decision.waitMs - wait) <= 1e-6)) fail(`${what}: waitMs ${decision.waitMs} is not sendAtMs − now (${wait})`);
  return wait;
}

/** The needs of every window test: exact waits on the manual clock, and window limits offered. */
export const WINDOWS = ['injectableClock', 'windowLimits'] as const;
