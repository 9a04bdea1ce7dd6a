import type { Decision, ErrorResult, RateLimitError } from '@core/rate-limit-contract';
import type { CallParts } from './call-builder.js';
import type { Definition } from './definition-table.js';
import { roundUpWait } from './gcra.js';
import type { ResolvedKey } from './key-resolver.js';
import type { Admission, MaybePromise } from './limiter-store.js';
import { errorResult, internalError, unpayableError } from './messages.js';

/**
 * How the front door (`StoreRateLimiter`) turns a store's answers into the contract's: decisions (`ok` means
 * "send now", a booking is `booked` with its exact wait, RL-W1; a delay's wait is rounded up, RL-A3), and a
 * bucket's failure named in the caller's terms.
 */

/** Which part of a call an answer is shaped for. */
export type Caller = 'checkRate' | 'checkRates' | 'peek';

/** An unexpected exception as the answer `internal`. */
export function internalResult(e: unknown): ErrorResult {
  return errorResult(internalError(e));
}

/** Resolves a store's answer, never rejecting (RL-F1). */
export function settle<T>(value: MaybePromise<T>): Promise<T | ErrorResult> {
  return value instanceof Promise ? value.catch(internalResult) : Promise.resolve(value);
}

/** The decision of `checkRate`, `checkRates` or `peek` from a store's admission. */
export function shapeDecision(a: Admission, caller: Caller, parts: CallParts): Decision {
  switch (a.status) {
    case 'admitted':
      if (a.sendAt <= a.now || caller === 'peek') return { kind: 'ok', sendAtMs: a.now };
      return { kind: 'booked', sendAtMs: a.sendAt, waitMs: a.sendAt - a.now };
    case 'wait':
      return { kind: 'delay', retryAfterMs: roundUpWait(a.waitMs) };
    case 'unpayable':
      return errorResult(unpayableOf(a, caller, parts));
    case 'failed':
      return errorResult(failureOf(a, caller, parts));
  }
}

/** A store's failure, a bucket's named in the caller's terms. */
export function failureOf(a: Admission & { status: 'failed' }, caller: Caller, parts: CallParts): RateLimitError {
  if (a.index === undefined || a.error.path === undefined) return a.error;
  const at = caller === 'checkRate' ? '' : `checks[${parts.first[a.index] as number}].`;
  return { ...a.error, path: `${at}${a.error.path}`, message: `${at}${a.error.message}` };
}

/** A cost that can never be paid (RL-L4, RL-V3), the bucket named in the caller's terms. */
export function unpayableOf(a: Admission & { status: 'unpayable' }, caller: Caller, parts: CallParts): RateLimitError {
  const key = parts.keys[a.index] as ResolvedKey;
  const def = parts.defs[a.index] as Definition;
  const path = caller === 'checkRate' ? 'cost' : `checks[${parts.first[a.index] as number}]`;
  return unpayableError(path, key, parts.costs[a.index] as number, def.capacity, def.refillPerSec, a.reason, a.left, def.window?.windowMs);
}
