import type { Clock, TimerHandle } from '@core/rate-limit-contract';

interface PendingTimer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/**
 * A clock that moves only when a test moves it. Timers fire in time order (then in creation order)
 * during {@link ManualClock.advance}.
 *
 * @example
 * ```ts
 * const clock = new ManualClock(0);
 * const limiter = createDefaultRateLimiter({ clock });
 * const pending = limiter.waitForCapacity(checks, { maxWaitMs: 1000 });
 * await clock.whenTimers(1);
 * await clock.advance(250);
 * await pending;
 * ```
 */
export class ManualClock implements Clock {
  #now: number;
  #nextId = 1;
  #timers: PendingTimer[] = [];
  #created = 0;
  /**
   * How long, in real milliseconds, the suite's helpers wait for an implementation to react (start
   * a timer, settle a promise) before they fail. Set from the suite's `realTimeoutMs` option.
   */
  realTimeoutMs = 5_000;

  constructor(startMs = 1_000_000) {
    this.#now = startMs;
  }

  now(): number {
    return this.#now;
  }

  setTimer(fn: () => void, ms: number): TimerHandle {
    const delay = Number.isFinite(ms) ? Math.max(0, ms) : Number.POSITIVE_INFINITY;
    const timer: PendingTimer = { id: this.#nextId++, at: this.#now + delay, fn };
    this.#created++;
    this.#timers.push(timer);
    return {
      cancel: () => {
        this.#timers = this.#timers.filter((t) => t.id !== timer.id);
      },
      unref: () => {},
    };
  }

  /** How many timers are waiting to fire. */
  get pendingTimers(): number {
    return this.#timers.length;
  }

  /** How many timers were ever started on this clock (RL-W7: a waiter starts at most one). */
  get timersCreated(): number {
    return this.#created;
  }

  /**
   * Moves time forward by `ms`, firing every timer that falls due on the way, in order, and
   * letting promise callbacks and I/O run after each one.
   */
  async advance(ms: number): Promise<void> {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`advance(${ms}): expected a finite ms >= 0`);
    const target = this.#now + ms;
    for (;;) {
      const due = this.#nextDue(target);
      if (due === undefined) break;
      this.#timers = this.#timers.filter((t) => t.id !== due.id);
      this.#now = Math.max(this.#now, due.at);
      due.fn();
      await settle();
    }
    this.#now = target;
    await settle();
  }

  /** Sets the time without firing timers: for state arithmetic tests only. */
  set(ms: number): void {
    this.#now = ms;
  }

  /**
   * Resolves once at least `count` timers are pending (for implementations whose booking takes a
   * round trip before the waiter's timer exists). Rejects after `timeoutMs` of real time.
   */
  async whenTimers(count = 1, timeoutMs = this.realTimeoutMs): Promise<void> {
    const started = Date.now();
    while (this.#timers.length < count) {
      if (Date.now() - started > timeoutMs) {
        throw new Error(`whenTimers(${count}): only ${this.#timers.length} timer(s) after ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
    }
  }

  /**
   * Resolves once at least `total` timers were ever started on this clock (robust to timers that
   * fire or are replaced meanwhile). Rejects after `timeoutMs` of real time.
   */
  async whenTimersCreated(total: number, timeoutMs = this.realTimeoutMs): Promise<void> {
    const started = Date.now();
    while (this.#created < total) {
      if (Date.now() - started > timeoutMs) {
        throw new Error(`whenTimersCreated(${total}): only ${this.#created} timer(s) after ${timeoutMs} ms`);
      }
      await new Promise<void>((resolve) => setTimeout(resolve, 1));
    }
  }

  #nextDue(target: number): PendingTimer | undefined {
    let best: PendingTimer | undefined;
    for (const t of this.#timers) {
      if (t.at > target) continue;
      if (best === undefined || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t;
    }
    return best;
  }
}

/** Lets pending promise callbacks and I/O callbacks run. */
export async function settle(): Promise<void> {
  await new Promise<void>((resolve) => setImmediate(resolve));
}
