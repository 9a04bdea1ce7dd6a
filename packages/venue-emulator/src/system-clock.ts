import type { Clock, TimerHandle } from '@core/rate-limit-contract';

/**
 * The emulator's default clock: wall-clock epoch milliseconds (`Date.now()`), since venues align
 * their windows to the clock (a Binance minute starts at :00) and stamp `Date` headers with it.
 */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimer(fn: () => void, ms: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, Math.min(ms, 2_147_483_647)));
    t.unref();
    return { cancel: () => clearTimeout(t), unref: () => t.unref() };
  },
};
