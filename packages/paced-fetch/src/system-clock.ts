import type { Clock, TimerHandle } from '@core/rate-limit-contract';

/** The default clock: `performance.timeOrigin + performance.now()` and `setTimeout`. */
const origin = performance.timeOrigin;
// (read once: on Node the global `performance` is a getter)
const perf = performance;

export const systemClock: Clock = {
  now: () => origin + perf.now(),
  setTimer(fn: () => void, ms: number): TimerHandle {
    const t = setTimeout(fn, Math.max(0, Math.min(ms, 2_147_483_647)));
    return { cancel: () => clearTimeout(t), unref: () => t.unref() };
  },
};
