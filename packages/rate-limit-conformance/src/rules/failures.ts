import type { BucketCheck, BucketKey, Decision, Limit, RateLimiter } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { ERROR_CODES, expectBorrowed, expectError, expectOkNow, expectTrue, fail, show } from '../expect.js';
import { TEN_PER_SECOND, key, spend } from './fixtures.js';

type Call = readonly [string, (l: RateLimiter) => Promise<unknown>];

const longName = 'v'.repeat(300);
const badKeys: unknown[] = [
  null,
  undefined,
  'alpha',
  {},
  { venue: '', credential: null },
  { venue: 5, credential: null },
  { venue: longName, credential: null },
  { venue: 'alpha', credential: '' },
  { venue: 'alpha', credential: 42 },
  { venue: 'alpha', credential: null, axis: '' },
  { venue: 'alpha', credential: null, axis: 7 },
];

/** Calls of every admission method with malformed input. */
function garbageCalls(): Call[] {
  const calls: Call[] = [];
  for (const k of badKeys) {
    calls.push([`checkRate key ${show(k)}`, (l) => l.checkRate(k as BucketKey, TEN_PER_SECOND, 1)]);
    calls.push([`waitForCapacity key ${show(k)}`, (l) => l.waitForCapacity([{ key: k as BucketKey, limit: TEN_PER_SECOND, cost: 1 }], { maxWaitMs: 100 })]);
  }
  const badChecks: unknown[] = [null, undefined, 'checks', [], [null], [{}], [{ key: key(), limit: TEN_PER_SECOND }], { length: 1 }];
  for (const checks of badChecks) {
    calls.push([`checkRates ${show(checks)}`, (l) => l.checkRates(checks as BucketCheck[])]);
    calls.push([`waitForCapacity ${show(checks)}`, (l) => l.waitForCapacity(checks as BucketCheck[], { maxWaitMs: 100 })]);
    calls.push([`peek ${show(checks)}`, (l) => l.peek(checks as BucketCheck[])]);
  }
  calls.push(['checkRate options "soon"', (l) => l.checkRate(key(), TEN_PER_SECOND, 1, 'soon' as never)]);
  calls.push(['checkRates options maxWaitMs -1', (l) => l.checkRates([{ key: key(), limit: TEN_PER_SECOND, cost: 1 }], { maxWaitMs: -1 })]);
  calls.push(['checkRate limit { capacity: "10" }', (l) => l.checkRate(key(), { capacity: '10', refillPerSec: 1 } as unknown as Limit, 1)]);
  return calls;
}

export const FAILURES: readonly ConformanceTest[] = [
  test('RL-F1', 'no admission method throws or rejects; malformed calls answer typed errors', [], async ({ limiter }) => {
    for (const [what, call] of garbageCalls()) {
      let result: unknown;
      try {
        result = await call(limiter);
      } catch (error) {
        fail(`${what} threw or rejected: ${String(error)}`);
      }
      const d = result as Decision;
      expectTrue(d?.kind === 'error', `${what}: expected a typed error, got ${show(result)}`);
      expectTrue(ERROR_CODES.includes(d.error.code), `${what}: unknown error code ${show(d.error.code)}`);
      expectTrue(d.error.code === 'invalid_parameters', `${what}: expected invalid_parameters, got ${d.error.code}`);
    }
  }),
  test('RL-F1', 'an unreachable store answers backend_unavailable, never ok', ['faultHooks'], async ({ limiter, subject }) => {
    const k = key();
    const checks = [{ key: k, limit: TEN_PER_SECOND, cost: 1 }];
    await subject.breakStore?.();
    expectError(await limiter.checkRate(k, TEN_PER_SECOND, 1), 'backend_unavailable', 'checkRate');
    expectError(await limiter.checkRate(k, TEN_PER_SECOND, 1, { maxWaitMs: 1000 }), 'backend_unavailable', 'checkRate with a budget');
    expectError(await limiter.checkRates([...checks, { key: key({ axis: 'ip' }), limit: TEN_PER_SECOND, cost: 1 }]), 'backend_unavailable', 'checkRates');
    expectError(await limiter.waitForCapacity(checks, { maxWaitMs: 1000 }), 'backend_unavailable', 'waitForCapacity');
    expectError(await limiter.peek(checks), 'backend_unavailable', 'peek');
    const borrowed = await limiter.borrowed(k);
    expectTrue(typeof borrowed !== 'number', `borrowed answered ${show(borrowed)} while the store was unreachable (never a guess)`);
    await subject.repairStore?.();
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 1), 'checkRate once the store is back');
  }),
  test('RL-F2', 'bad input never corrupts state or other buckets, and the limiter keeps serving', ['injectableClock'], async ({ limiter }) => {
    const a = key({ axis: 'a' });
    const b = key({ credential: null, axis: 'b' });
    await spend(limiter, a, TEN_PER_SECOND, 4);
    await spend(limiter, b, TEN_PER_SECOND, 7);
    for (const [, call] of garbageCalls()) {
      try {
        await call(limiter);
      } catch {
        // RL-F1 reports throwing; this test is about state.
      }
    }
    for (const bad of [-3, Number.NaN, Number.POSITIVE_INFINITY]) {
      await limiter.checkRates([{ key: a, limit: TEN_PER_SECOND, cost: 1 }, { key: b, limit: TEN_PER_SECOND, cost: bad }]);
      await limiter.checkRate(a, { capacity: bad, refillPerSec: 1 }, 1);
    }
    expectBorrowed(await limiter.borrowed(a), 4, 'bucket a');
    expectBorrowed(await limiter.borrowed(b), 7, 'bucket b');
    await spend(limiter, a, TEN_PER_SECOND, 6, 'bucket a serves');
    await spend(limiter, b, TEN_PER_SECOND, 3, 'bucket b serves');
    await spend(limiter, key({ venue: 'fresh' }), TEN_PER_SECOND, 10, 'a fresh bucket');
  }),
];
