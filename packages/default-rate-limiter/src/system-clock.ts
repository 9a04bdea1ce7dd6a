import type { Clock, TimerHandle } from '@core/rate-limit-contract';

/**
 * The default clock: `performance.timeOrigin + performance.now()` (monotonic within the process)
 * and `setTimeout` timers that never keep the process alive (RL-W7).
 */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimer(fn: () => void, ms: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, Math.min(ms, 2_147_483_647)));
    t.unref();
    return { cancel: () => clearTimeout(t), unref: () => t.unref() };
  },
};
