/**
 * A source of time and timers. Implementations take one by injection so tests drive time by hand
 * (a manual clock) and never sleep.
 *
 * @remarks RL-W7: waiting uses at most one timer per waiter; `unref` lets a limiter keep timers
 * from holding the process open.
 *
 * @example
 * ```ts
 * const systemClock: Clock = {
 *   now: () => performance.timeOrigin + performance.now(),
 *   setTimer: (fn, ms) => { const t = setTimeout(fn, ms); return { cancel: () => clearTimeout(t), unref: () => t.unref() }; },
 * };
 * ```
 */
export interface Clock {
  /** The current time in milliseconds (any fixed origin; fractions allowed). */
  now(): number;
  /** Calls `fn` once after `ms` milliseconds of this clock. */
  setTimer(fn: () => void, ms: number): TimerHandle;
}

/** A timer started by {@link Clock.setTimer}. */
export interface TimerHandle {
  /** Stops the timer; calling it after the timer fired does nothing. */
  cancel(): void;
  /** Lets the process exit while the timer is pending (no-op for manual clocks). */
  unref?(): void;
}
