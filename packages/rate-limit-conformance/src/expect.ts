import type {
  BookedDecision,
  BucketSnapshot,
  Decision,
  DelayDecision,
  ErrorResult,
  OkDecision,
  PeekDecision,
  RateLimitErrorCode,
  SideEffectResult,
  WaitDecision,
} from '@core/rate-limit-contract';

/** Float tolerance for exact-value comparisons. */
export const TOLERANCE = 1e-6;

/** A failed expectation of the suite (runner-independent). */
export class ConformanceFailure extends Error {
  override readonly name = 'ConformanceFailure';
}

/** Shows a value in a failure message. */
export function show(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v: unknown) => (typeof v === 'number' && !Number.isFinite(v) ? String(v) : v));
  } catch {
    return String(value);
  }
}

/** Fails with `message`. */
export function fail(message: string): never {
  throw new ConformanceFailure(message);
}

/** Fails unless `condition`. */
export function expectTrue(condition: boolean, message: string): asserts condition {
  if (!condition) fail(message);
}

/** Fails unless `actual === expected`. */
export function expectEqual<T>(actual: T, expected: T, what: string): void {
  if (!Object.is(actual, expected)) fail(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

/** Fails unless `actual` is within {@link TOLERANCE} of `expected`. */
export function expectClose(actual: unknown, expected: number, what: string): void {
  if (typeof actual !== 'number' || !(Math.abs(actual - expected) <= TOLERANCE * Math.max(1, Math.abs(expected)))) {
    fail(`${what}: expected ${expected} (±${TOLERANCE}), got ${show(actual)}`);
  }
}

/** Fails unless the decision is ok: admitted now (RL-W1: `ok` always means "send now"); answers it. */
export function expectOk(decision: Decision | PeekDecision | WaitDecision, what: string): OkDecision {
  if (decision?.kind !== 'ok') fail(`${what}: expected ok, got ${show(decision)}`);
  return decision;
}

/** Fails unless the decision is ok, admitted now at the decision time `now` when given (RL-W1). */
export function expectOkNow(decision: Decision | PeekDecision | WaitDecision, what: string, now?: number): OkDecision {
  const ok = expectOk(decision, what);
  if (now !== undefined) expectClose(ok.sendAtMs, now, `${what}: sendAtMs of "send now"`);
  return ok;
}

/**
 * Fails unless the decision is booked `waitMs` after `now`: kind `booked` (never `ok`, which reads as
 * "send now"), send time `now + waitMs`, and `waitMs` exact, not rounded (RL-W1).
 */
export function expectBooked(decision: Decision, now: number, waitMs: number, what: string): BookedDecision {
  if (decision?.kind !== 'booked') fail(`${what}: expected booked (send in ${waitMs} ms), got ${show(decision)}`);
  expectClose(decision.sendAtMs, now + waitMs, `${what}: sendAtMs`);
  expectClose(decision.waitMs, waitMs, `${what}: waitMs (exact, never rounded)`);
  return decision;
}

/** Fails unless the snapshot is a list of buckets (not a typed error); answers it. */
export function expectSnapshot(snapshot: readonly BucketSnapshot[] | ErrorResult, what: string): readonly BucketSnapshot[] {
  if (!Array.isArray(snapshot)) fail(`${what}: expected a list of buckets, got ${show(snapshot)}`);
  return snapshot as readonly BucketSnapshot[];
}

/** Fails unless the decision is delay; checks the exact `retryAfterMs` when given. */
export function expectDelay(decision: Decision | PeekDecision, retryAfterMs: number | undefined, what: string): DelayDecision {
  if (decision?.kind !== 'delay') fail(`${what}: expected delay, got ${show(decision)}`);
  if (retryAfterMs !== undefined) expectEqual(decision.retryAfterMs, retryAfterMs, `${what}: retryAfterMs`);
  return decision;
}

/** Fails unless the result is a typed error with `code`. */
export function expectError(
  result: Decision | PeekDecision | WaitDecision | SideEffectResult | number | ErrorResult | readonly BucketSnapshot[] | undefined,
  code: RateLimitErrorCode,
  what: string,
): ErrorResult {
  if (typeof result !== 'object' || result === null || !('kind' in result) || result.kind !== 'error') {
    fail(`${what}: expected error ${code}, got ${show(result)}`);
  }
  expectEqual(result.error?.code, code, `${what}: error code`);
  expectTrue(typeof result.error.message === 'string' && result.error.message.length > 0, `${what}: error message is empty`);
  return result;
}

/** Fails unless a side-effect result is ok. */
export function expectDone(result: SideEffectResult, what: string): void {
  if (result?.kind !== 'ok') fail(`${what}: expected ok, got ${show(result)}`);
}

/** Fails unless `borrowed` answered a number close to `expected`. */
export function expectBorrowed(actual: number | ErrorResult, expected: number, what: string): void {
  if (typeof actual !== 'number') fail(`${what}: borrowed answered ${show(actual)}, expected ${expected}`);
  expectClose(actual, expected, what);
}

/** The numbers written in a message (decimal or exponent notation). */
function numbersIn(message: string): string[] {
  return message.match(/(?<![\w.])\d+(?:\.\d+)?(?:e[+-]?\d+)?/gi) ?? [];
}

/** Significant digits of a number as written: `1000000` has 1, `0.00125` has 3, `333.333` has 6. */
function significantDigits(written: string): number {
  const [mantissa = ''] = written.toLowerCase().split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  const digits = (whole + fraction).replace(/^0+/, '');
  return (fraction === '' ? digits.replace(/0+$/, '') : digits).length;
}

/**
 * Fails unless every number a message shows is plain (defect-free wording of RL-F1's messages): at
 * most 12 significant digits, and no float residue (a non-zero number below `residue` in size,
 * where a value within tolerance of 0 must be shown as 0).
 */
export function expectPlainNumbers(message: string, residue: number, what: string): void {
  for (const written of numbersIn(message)) {
    const value = Number(written);
    expectTrue(significantDigits(written) <= 12, `${what}: the message shows ${written} (more than 12 significant digits): ${show(message)}`);
    expectTrue(value === 0 || value >= residue, `${what}: the message shows ${written}, a float residue that should read 0: ${show(message)}`);
  }
}

/** The stable error codes of the contract. */
export const ERROR_CODES: readonly RateLimitErrorCode[] = [
  'invalid_parameters',
  'cost_unpayable',
  'rate_limit_timeout',
  'aborted',
  'backend_unavailable',
  'closed',
  'not_supported',
  'internal',
];
