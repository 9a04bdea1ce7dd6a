import type { Clock, TimerHandle } from '@core/rate-limit-contract';

/**
 * A clock the test sets by hand, in epoch milliseconds (the emulator aligns windows to the epoch).
 * The emulator never sets timers, so this clock needs none.
 */
export class ManualEpochClock implements Clock {
  constructor(public nowMs: number) {}
  now(): number {
    return this.nowMs;
  }
  setTimer(): TimerHandle {
    throw new Error('the emulator sets no timers');
  }
  advance(ms: number): void {
    this.nowMs += ms;
  }
}
