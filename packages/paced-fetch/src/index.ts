export { createPacedFetch } from './create-paced-fetch.js';
export type { PacedFetch, PacedFetchOptions, RetryOptions, AttemptEvent, DeferredChargesOptions } from './paced-fetch-options.js';
export type { LiveLimitsSetting } from './live-limits.js';
export { PacedFetchError, isPacedFetchError } from './paced-fetch-error.js';
export type { PacedFetchErrorCode } from './paced-fetch-error.js';
export { withWindowPacing, paceAxis, DEFAULT_WINDOW_BURST } from './window-pacing.js';
// Small pieces the paced WebSocket client shares with this one.
export { sleep, abortReason } from './sleep.js';
export { systemClock } from './system-clock.js';
export { createTurns, type Turns } from './turns.js';
export { waitUntilClear } from './overtaken.js';
