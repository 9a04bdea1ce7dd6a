import type { Clock, TimerHandle } from '@core/rate-limit-contract';

/** The default clock: `performance.timeOrigin + performance.now()` and `setTimeout`. */
export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  setTimer(fn: () => void, ms: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, Math.min(ms, 2_147_483_647)));
    return { cancel: () => clearTimeout(t), unref: () => t.unref() };
  },
};
