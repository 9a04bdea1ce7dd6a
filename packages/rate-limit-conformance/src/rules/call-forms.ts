import type { BucketCheck, Decision, ErrorResult } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectError, expectOkNow, expectTrue, show } from '../expect.js';
import { TEN_PER_SECOND, key, spend } from './fixtures.js';

/**
 * Each rule below holds alike whichever form of call reaches it: `checkRate` with options or without,
 * `checkRates` with options or without, `peek`, `waitForCapacity`. A limiter may answer a call without
 * options on a path of its own (a quicker one); these examples pin each form where a limiter could get
 * only one of them right.
 */

const BUDGET = { maxWaitMs: 1000 };

/**
 * A `checkRate` error names its field by a path to it (RL-K4): by checkRate's own parameters (`key.venue`, `cost`), or as
 * the one check of a `checkRates` (`checks[0].key.venue`), which a limiter that answers checkRate through checkRates gives.
 */
export function expectFieldPath(e: ErrorResult, field: string, what: string): void {
  const { path, message } = e.error;
  const paths = [field, `checks[0].${field}`];
  if (path !== undefined) expectTrue(paths.includes(path), `${what}: error.path ${show(path)} is not ${paths.map((p) => show(p)).join(' or ')}`);
  else expectTrue(message.includes(field), `${what}: the error does not name ${field}: ${show(e)}`);
}

export const CALL_FORMS: readonly ConformanceTest[] = [
  test('RL-K4', 'checkRate names a bad key field by a path to it (key.venue), with options or without', ['bookings'], async ({ limiter }) => {
    const refused: [string, unknown][] = [
      ['key.venue', { venue: '', credential: 'cred-a' }],
      ['key.axis', { venue: 'alpha', credential: 'cred-a', axis: '' }],
      ['key.credential', { venue: 'alpha', credential: '' }],
    ];
    for (const [path, k] of refused) {
      const bare = expectError(await limiter.checkRate(k as never, TEN_PER_SECOND, 1), 'invalid_parameters', `checkRate with a bad ${path}`);
      expectFieldPath(bare, path, `checkRate with a bad ${path}`);
      const withOptions = expectError(
        await limiter.checkRate(k as never, TEN_PER_SECOND, 1, BUDGET),
        'invalid_parameters',
        `checkRate with a bad ${path} and a budget`,
      );
      expectFieldPath(withOptions, path, `checkRate with a bad ${path} and a budget`);
    }
  }),
  test(
    'RL-A2',
    'a bad cost with options is invalid_parameters and charges nothing, neither its bucket nor the last call’s',
    ['injectableClock', 'bookings'],
    async ({ limiter }) => {
      const k = key({ axis: 'bad-cost' });
      const last = key({ axis: 'last-call' });
      expectOkNow(await limiter.checkRate(last, TEN_PER_SECOND, 2, BUDGET), 'cost 2 with a budget on another bucket');
      for (const cost of [-1, Number.NaN, Number.POSITIVE_INFINITY, '1' as unknown as number]) {
        const e = expectError(await limiter.checkRate(k, TEN_PER_SECOND, cost, BUDGET), 'invalid_parameters', `checkRate cost ${show(cost)} with a budget`);
        expectFieldPath(e, 'cost', `checkRate cost ${show(cost)} with a budget`);
      }
      expectBorrowed(await limiter.borrowed(k), 0, 'the bucket of the refused costs');
      expectBorrowed(await limiter.borrowed(last), 2, 'the bucket of the call before them');
    },
  ),
  test('RL-Q6', 'a check’s own reserve sets its bucket’s line in a call that gives no options', ['injectableClock', 'priorities'], async ({ limiter }) => {
    const shared = key({ axis: 'q6-plain-shared' });
    const own = key({ axis: 'q6-plain-own' });
    const both: BucketCheck[] = [
      { key: shared, limit: TEN_PER_SECOND, cost: 1, reserve: { normal: 0.5, bulk: 0.5 } },
      { key: own, limit: TEN_PER_SECOND, cost: 1 },
    ];
    for (let i = 0; i < 5; i++) expectOkNow(await limiter.checkRates(both), `normal call ${i + 1} over both buckets, no options`);
    expectDelay(await limiter.checkRates(both), 100, 'the shared bucket at the line of 5 its check’s reserve sets');
    for (let i = 0; i < 5; i++)
      expectOkNow(await limiter.checkRates([both[1] as BucketCheck]), `the other bucket alone, call ${i + 6}: the limiter’s normal share`);
    expectDelay(await limiter.checkRates([both[1] as BucketCheck]), 100, 'the other bucket full (10 of 10)');
    expectOkNow(await limiter.checkRate(shared, TEN_PER_SECOND, 5, { priority: 'critical' }), 'critical finds the half of the shared bucket kept free');
  }),
  test(
    'RL-W5',
    'a wait aborted before it starts books nothing, and its answer says no booking was returned or forfeited',
    ['injectableClock', 'bookings', 'abortSignal'],
    async ({ limiter }) => {
      const k = key();
      const e = expectError(
        await limiter.waitForCapacity([{ key: k, limit: TEN_PER_SECOND, cost: 3 }], { maxWaitMs: 1000, signal: AbortSignal.abort() }),
        'aborted',
        'a wait whose signal fired before the call',
      );
      expectTrue(!/forfeit|returned/i.test(e.error.message), `the answer of a wait that booked nothing speaks of a booking: ${show(e.error.message)}`);
      expectBorrowed(await limiter.borrowed(k), 0, 'borrowed after the aborted wait');
    },
  ),
  test('RL-W7', 'after close() every admission answers closed, with options or without', ['injectableClock', 'bookings'], async ({ limiter }) => {
    const k = key();
    const checks: BucketCheck[] = [{ key: k, limit: TEN_PER_SECOND, cost: 1 }];
    await spend(limiter, k, TEN_PER_SECOND, 1);
    await limiter.close();
    const answers: [string, unknown][] = [
      ['checkRate', await limiter.checkRate(k, TEN_PER_SECOND, 1)],
      ['checkRate with a budget', await limiter.checkRate(k, TEN_PER_SECOND, 1, BUDGET)],
      ['checkRates', await limiter.checkRates(checks)],
      ['checkRates with a budget', await limiter.checkRates(checks, BUDGET)],
      ['peek', await limiter.peek(checks)],
      ['waitForCapacity', await limiter.waitForCapacity(checks, BUDGET)],
    ];
    for (const [what, answer] of answers) expectError(answer as Decision, 'closed', `${what} after close()`);
  }),
];
