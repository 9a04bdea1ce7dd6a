import type { RateLimitError } from './errors.js';

/**
 * Admitted now: the cost has been charged (RL-A1) and the caller may send at once.
 *
 * @remarks `ok` always means "send now". A call that booked capacity for later answers
 * {@link BookedDecision} instead (RL-W1), so a caller that tests only `kind === 'ok'` never sends
 * early. `waitForCapacity` resolves `ok` at (not before) the send time of its booking (RL-W6).
 */
export interface OkDecision {
  readonly kind: 'ok';
  /** The time of the decision (for `waitForCapacity`: the send time) in the limiter's clock, in milliseconds. */
  readonly sendAtMs: number;
}

/**
 * Booked for later: the cost has been charged against the bucket's future (RL-W1) and the caller
 * must not send before `sendAtMs`.
 *
 * @remarks RL-W1. `waitMs` is exact: `sendAtMs` minus the time of the decision, never rounded (only a
 * delay's `retryAfterMs` is rounded). Nothing else is needed before sending; sending earlier is a bug.
 * Only `checkRate` and `checkRates` with `maxWaitMs` answer it.
 */
export interface BookedDecision {
  readonly kind: 'booked';
  /** The send time in the limiter's clock (milliseconds). */
  readonly sendAtMs: number;
  /** Milliseconds from the decision until the send time; always > 0 and exact. */
  readonly waitMs: number;
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
 * The answer of `checkRate` and `checkRates`: ok (send now), booked (send at `sendAtMs`), delay, or
 * a typed error (RL-F1). Admission methods never throw or reject.
 *
 * @example
 * ```ts
 * const d = await limiter.checkRate(key, { requests: 10 }, 1, { maxWaitMs: 2_000 });
 * switch (d.kind) {
 *   case 'ok': await send(); break;                                   // now
 *   case 'booked': await sleep(d.waitMs); await send(); break;        // charged; not before sendAtMs
 *   case 'delay': break;                                              // retry after d.retryAfterMs
 *   case 'error': throw new Error(d.error.code);
 * }
 * ```
 */
export type Decision = OkDecision | BookedDecision | DelayDecision | ErrorDecision;

/** The answer of `waitForCapacity`: ok at the send time, or a typed error (RL-W6). */
export type WaitDecision = OkDecision | ErrorDecision;

/** The answer of `peek`: ok (a probe would be admitted now), delay, or a typed error. */
export type PeekDecision = OkDecision | DelayDecision | ErrorDecision;
