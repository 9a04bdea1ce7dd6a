import type { RateLimitError } from './errors.js';

/**
 * Admitted. The cost has been charged (RL-A1) and the caller may send from `sendAtMs` on.
 *
 * @remarks RL-W1: when the call booked for later, `waitMs > 0` and the caller must not send before
 * `sendAtMs` (the limiter's clock) or, equivalently, before `waitMs` has passed since the answer.
 * Nothing else is needed before sending. `waitForCapacity` resolves only at the send time, so its
 * `waitMs` is measured from the call, not from the resolution.
 */
export interface OkDecision {
  readonly kind: 'ok';
  /** Milliseconds from the decision until the caller may send; 0 when it may send now. */
  readonly waitMs: number;
  /** The send time in the limiter's clock (milliseconds). */
  readonly sendAtMs: number;
}

/**
 * Not admitted now; nothing changed (RL-A3, RL-W3).
 *
 * @remarks `retryAfterMs` is the exact wait, rounded up to whole milliseconds, at least 1. For a
 * multi-bucket call it is the largest wait among its buckets (RL-M4).
 */
export interface DelayDecision {
  readonly kind: 'delay';
  readonly retryAfterMs: number;
}

/** Refused with a typed error; see {@link RateLimitError} for the codes. */
export interface ErrorDecision {
  readonly kind: 'error';
  readonly error: RateLimitError;
}

/**
 * The answer of every admission method: ok, delay, or a typed error (RL-F1). Admission methods
 * never throw or reject.
 *
 * @example
 * ```ts
 * const d = await limiter.checkRate(key, { requests: 10 }, 1);
 * switch (d.kind) {
 *   case 'ok': break;                    // send (after d.waitMs if it booked)
 *   case 'delay': break;                 // retry after d.retryAfterMs
 *   case 'error': throw new Error(d.error.code);
 * }
 * ```
 */
export type Decision = OkDecision | DelayDecision | ErrorDecision;
