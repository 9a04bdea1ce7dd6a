export { createPacedFetch } from './create-paced-fetch.js';
export type { PacedFetch, PacedFetchOptions, RetryOptions, AttemptEvent, DeferredChargesOptions } from './create-paced-fetch.js';
export type { LiveLimitsSetting } from './live-limits.js';
export { PacedFetchError, isPacedFetchError } from './paced-fetch-error.js';
export type { PacedFetchErrorCode } from './paced-fetch-error.js';
export { withWindowPacing, paceAxis, DEFAULT_WINDOW_BURST } from './window-pacing.js';
