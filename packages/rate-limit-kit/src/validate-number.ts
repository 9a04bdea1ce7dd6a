import { describeValue } from './describe-value.js';
import { invalid, ok, type Result } from './result.js';

/**
 * Validates a cost: a finite number >= 0 (RL-A2). Fractions are normal.
 *
 * @returns the cost, or `invalid_parameters` naming the bad value at `path`.
 * @example
 * ```ts
 * validateCost(-1, 'cost'); // { ok: false, error: { code: 'invalid_parameters', path: 'cost', ... } }
 * ```
 */
export function validateCost(cost: unknown, path = 'cost'): Result<number> {
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) {
    return invalid(path, `must be a finite number >= 0 (got ${describeValue(cost)})`);
  }
  return ok(cost);
}

/**
 * Validates a wait budget (`maxWaitMs`, a timeout): a finite number > 0 (RL-W6).
 *
 * @returns the budget, or `invalid_parameters` naming the bad value at `path`.
 */
export function validateWaitBudget(budget: unknown, path = 'maxWaitMs'): Result<number> {
  if (typeof budget !== 'number' || !Number.isFinite(budget) || budget <= 0) {
    return invalid(path, `must be a finite number > 0 (got ${describeValue(budget)})`);
  }
  return ok(budget);
}

/**
 * Validates an AbortSignal option: `undefined` or an object with a boolean `aborted` and
 * `addEventListener`/`removeEventListener` methods.
 */
export function validateSignal(signal: unknown, path = 'signal'): Result<AbortSignal | undefined> {
  if (signal === undefined) return ok(undefined);
  try {
    return checkSignal(signal, path);
  } catch {
    return invalid(path, 'could not be read (a getter or proxy threw)');
  }
}

function checkSignal(signal: unknown, path: string): Result<AbortSignal | undefined> {
  if (
    typeof signal !== 'object' ||
    signal === null ||
    typeof (signal as AbortSignal).aborted !== 'boolean' ||
    typeof (signal as AbortSignal).addEventListener !== 'function' ||
    typeof (signal as AbortSignal).removeEventListener !== 'function'
  ) {
    return invalid(path, `must be an AbortSignal or undefined (got ${describeValue(signal)})`);
  }
  return ok(signal as AbortSignal);
}
