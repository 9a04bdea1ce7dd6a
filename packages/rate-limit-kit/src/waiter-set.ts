import type { Clock, TimerHandle, WaitDecision } from '@core/rate-limit-contract';
import { abortedError, CLOSED, internalError } from './messages.js';
import type { MaybePromise } from './limiter-store.js';

interface Waiter {
  /** When the waiter may go, in the timers' clock. */
  readonly target: number;
  /** The send time answered, in the limiter's clock. */
  readonly sendAtMs: number;
  readonly signal: AbortSignal | undefined;
  readonly cancel: () => MaybePromise<boolean>;
  readonly resolve: (d: WaitDecision) => void;
  timer: TimerHandle | undefined;
  onAbort: (() => void) | undefined;
  settled: boolean;
}

/**
 * The callers of `waitForCapacity` between their booking and their send time (RL-W6, RL-W7): one timer
 * per waiter (re-armed for the rest when a timer fires early, never polling), settled exactly once, an
 * abort returning the booking through the store (RL-W5), and every waiter settled `closed` on close.
 *
 * @example
 * ```ts
 * const waiters = new WaiterSet(clock, false);
 * const decision = await waiters.wait(clock.now() + 300, sendAtMs, signal, () => store.cancel(booking));
 * ```
 */
export class WaiterSet {
  readonly #timers: Clock;
  readonly #unref: boolean;
  readonly #waiters = new Set<Waiter>();

  /**
   * @param timers - the clock the timers run on.
   * @param unref - unref each timer so a pending wait never holds the process open.
   */
  constructor(timers: Clock, unref: boolean) {
    this.#timers = timers;
    this.#unref = unref;
  }

  /** Waiters pending now. */
  get size(): number {
    return this.#waiters.size;
  }

  /**
   * Resolves `ok` once the timers' clock reaches `target` (never before), or `aborted` when `signal`
   * fires first (after `cancel` answered whether the booking was returned), or `closed`.
   */
  wait(target: number, sendAtMs: number, signal: AbortSignal | undefined, cancel: () => MaybePromise<boolean>): Promise<WaitDecision> {
    return new Promise<WaitDecision>((resolve) => {
      const waiter: Waiter = { target, sendAtMs, signal, cancel, resolve, timer: undefined, onAbort: undefined, settled: false };
      this.#waiters.add(waiter);
      try {
        if (signal !== undefined) {
          waiter.onAbort = () => this.#abort(waiter);
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        this.#arm(waiter, this.#timers.now());
      } catch (e) {
        // Never reject (RL-F1); the booking stays charged: forfeiting is always safe.
        this.#settle(waiter, { kind: 'error', error: internalError(e) });
      }
    });
  }

  /** Settles every pending waiter with `closed` and cancels its timer (RL-W7). */
  closeAll(): void {
    for (const w of [...this.#waiters]) this.#settle(w, CLOSED);
  }

  #arm(waiter: Waiter, now: number): void {
    let ms = waiter.target - now;
    // a timer at now + ms must not land before the target through float rounding
    while (now + ms < waiter.target) ms += Math.max(1e-9, ms * 1e-12);
    const timer = this.#timers.setTimer(() => this.#fire(waiter), ms);
    if (this.#unref) timer.unref?.();
    waiter.timer = timer;
  }

  #fire(waiter: Waiter): void {
    if (waiter.settled) return;
    waiter.timer = undefined;
    try {
      const now = this.#timers.now();
      if (now < waiter.target) {
        this.#arm(waiter, now); // a timer fired early: wait out the rest, never send before the send time
        return;
      }
    } catch (e) {
      this.#settle(waiter, { kind: 'error', error: internalError(e) });
      return;
    }
    this.#settle(waiter, { kind: 'ok', sendAtMs: waiter.sendAtMs });
  }

  #abort(waiter: Waiter): void {
    if (waiter.settled) return;
    waiter.timer?.cancel();
    waiter.timer = undefined;
    const finish = (returned: boolean): void => this.#settle(waiter, { kind: 'error', error: abortedError(returned ? 'returned' : 'forfeited') });
    let r: MaybePromise<boolean>;
    try {
      r = waiter.cancel();
    } catch {
      finish(false);
      return;
    }
    if (typeof r === 'boolean') finish(r);
    else r.then(finish, () => finish(false));
  }

  #settle(waiter: Waiter, decision: WaitDecision): void {
    if (waiter.settled) return;
    waiter.settled = true;
    this.#waiters.delete(waiter);
    try {
      waiter.timer?.cancel();
      waiter.timer = undefined;
      if (waiter.signal !== undefined && waiter.onAbort !== undefined) waiter.signal.removeEventListener('abort', waiter.onAbort);
    } catch {
      // a signal whose removeEventListener throws cannot keep the waiter from settling
    } finally {
      waiter.resolve(decision);
    }
  }
}
