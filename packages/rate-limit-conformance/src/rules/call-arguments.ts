import type { BucketCheck, BucketKey, Limit, RateLimiter, SyncOptions } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { ERROR_CODES, expectBorrowed, expectDelay, expectDone, expectError, expectOkNow, expectTrue, show } from '../expect.js';
import { expectFieldPath } from './call-forms.js';
import {
  FIVE_PER_SECOND,
  TEN_PER_SECOND,
  TEN_PER_WINDOW,
  UNREADABLE_TEXT,
  key,
  landed,
  settled,
  signalWithThrowingListener,
  spend,
  startWait,
  throwingGetter,
} from './fixtures.js';

/**
 * The arguments of every call, read alike wherever they arrive: a limit with a budget as without one, a long list
 * of checks as a short one, the feedback and inspection calls' keys as the admissions' keys, and input that reads
 * differently from one read to the next. A limiter may read each on a path of its own (a quicker one for a short
 * list, another for a call with options); these examples pin each path where a limiter could get only one right.
 */

const BUDGET = { maxWaitMs: 1000 };
/** More checks than a limiter might merge by a linear search (one merging by a map from there on must agree). */
const MANY_CHECKS = 10;
/** Where the repeated bucket sits in the long list: not first, so a lookup that answers its index must be read right. */
const REPEAT_AT = [2, MANY_CHECKS - 1] as const;

/** A key whose venue reads `''` the first time and `'alpha'` after: a getter that answers differently on each read. */
function fickleKey(axis: string): BucketKey {
  let reads = 0;
  return {
    get venue() {
      return reads++ === 0 ? '' : 'alpha';
    },
    credential: 'cred-a',
    axis,
  } as BucketKey;
}

/** A limit whose capacity reads 0 the first time and 10 after. */
function fickleLimit(): Limit {
  let reads = 0;
  return {
    get capacity() {
      return reads++ === 0 ? 0 : 10;
    },
    refillPerSec: 10,
  } as Limit;
}

/** Fails unless `answer` is a well-formed answer (RL-F1): a decision, a number (borrowed), or a typed error with a known code and a message. */
function expectWellFormed(answer: unknown, what: string): void {
  if (typeof answer === 'number') return;
  const a = answer as { kind?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  expectTrue(['ok', 'booked', 'delay', 'error'].includes(a?.kind as string), `${what}: not a decision: ${show(answer)}`);
  if (a?.kind !== 'error') return;
  expectTrue(ERROR_CODES.includes(a.error?.code as never), `${what}: an error without a known code: ${show(answer)}`);
  expectTrue(typeof a.error?.message === 'string' && a.error.message.length > 0, `${what}: an error without a message: ${show(answer)}`);
}

/** The long list: one check per fresh bucket, and `k` twice at {@link REPEAT_AT}, cost 6 each, the second under `second`. */
function longList(k: BucketKey, second: Limit): BucketCheck[] {
  const checks: BucketCheck[] = Array.from({ length: MANY_CHECKS }, (_, i) => ({ key: key({ axis: `long-${i}` }), limit: TEN_PER_SECOND, cost: 1 }));
  checks[REPEAT_AT[0]] = { key: k, limit: TEN_PER_SECOND, cost: 6 };
  checks[REPEAT_AT[1]] = { key: k, limit: second, cost: 6 };
  return checks;
}

export const CALL_ARGUMENTS: readonly ConformanceTest[] = [
  test(
    'RL-L2',
    'checkRate with a budget reads its limit as without one: null is admitted at once, recording nothing; a missing or invalid limit is refused',
    ['injectableClock', 'bookings'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'limit-with-budget' });
      await spend(limiter, k, TEN_PER_SECOND, 4);
      expectOkNow(await limiter.checkRate(k, null, 3, BUDGET), 'checkRate with limit null and a budget', clock.now());
      expectBorrowed(await limiter.borrowed(k), 4, 'the bucket after a check of it with limit null');
      for (const limit of [undefined, { capacity: 0, refillPerSec: 1 }, { capacity: 10, refillPerSec: -1 }]) {
        expectError(await limiter.checkRate(k, limit as unknown as Limit, 1, BUDGET), 'invalid_parameters', `checkRate limit ${show(limit)} with a budget`);
      }
      expectBorrowed(await limiter.borrowed(k), 4, 'the bucket after the refused limits');
    },
  ),
  test('RL-M2', `a bucket named twice in a call of ${MANY_CHECKS} checks is charged once, for the sum`, ['injectableClock'], async ({ limiter }) => {
    const k = key({ axis: 'long-repeated' });
    expectDelay(await limiter.checkRates(longList(k, TEN_PER_SECOND)), 200, 'cost 6 twice on one fresh bucket of 10 (12 from a full bucket: 200 ms)');
    expectBorrowed(await limiter.borrowed(k), 0, 'the repeated bucket after the refused probe');
    expectOkNow(await limiter.checkRates(longList(k, TEN_PER_SECOND).map((c) => ({ ...c, cost: c.cost / 2 }))), 'cost 3 twice: 6 of 10');
    expectBorrowed(await limiter.borrowed(k), 6, 'the repeated bucket, charged once for 3 + 3');
  }),
  test('RL-M3', `two definitions of one bucket in a call of ${MANY_CHECKS} checks are refused and nothing is spent`, [], async ({ limiter }) => {
    const k = key({ axis: 'long-redefined' });
    expectError(await limiter.checkRates(longList(k, FIVE_PER_SECOND)), 'invalid_parameters', 'one bucket under two limits in a long list');
    expectBorrowed(await limiter.borrowed(k), 0, 'the bucket defined twice');
    expectBorrowed(await limiter.borrowed(key({ axis: 'long-0' })), 0, 'another bucket of the refused call');
  }),
  test(
    'RL-Q6',
    'a repeated key keeps the largest share its checks leave free, also when the first check names it',
    ['injectableClock', 'priorities'],
    async ({ limiter }) => {
      const k = key({ axis: 'q6-largest-first' });
      const both: BucketCheck[] = [
        { key: k, limit: TEN_PER_SECOND, cost: 1, reserve: { normal: 0.5, bulk: 0.5 } },
        { key: k, limit: TEN_PER_SECOND, cost: 1 },
      ];
      for (let i = 0; i < 2; i++) expectOkNow(await limiter.checkRates(both), `normal call ${i + 1}: 2 under the line of 5`);
      expectDelay(await limiter.checkRates(both), 100, 'a third: 6 above the line of 5 the first check’s reserve sets');
      expectDelay(await limiter.checkRates(both, { priority: 'normal' }), 100, 'the same with options');
    },
  ),
  test(
    'RL-F2',
    'a reserve whose share cannot be read is invalid_parameters, on the call or on a check, and charges nothing',
    ['injectableClock', 'priorities'],
    async ({ limiter }) => {
      const k = key({ axis: 'unreadable-reserve' });
      const reserve = throwingGetter('normal', { bulk: 0.5 });
      expectError(await limiter.checkRate(k, TEN_PER_SECOND, 1, { reserve }), 'invalid_parameters', 'checkRate with a reserve getter that throws');
      expectError(await limiter.checkRates([{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { reserve }), 'invalid_parameters', 'checkRates, the same');
      expectError(await limiter.checkRates([{ key: k, limit: TEN_PER_SECOND, cost: 1, reserve }]), 'invalid_parameters', 'a check’s own reserve, the same');
      expectBorrowed(await limiter.borrowed(k), 0, 'the bucket of the refused calls');
    },
  ),
  test(
    'RL-V5',
    'sync options that are not an object, or cannot be read, are invalid_parameters and change nothing',
    ['injectableClock', 'sync', 'windowLimits'],
    async ({ limiter }) => {
      const k = key({ axis: 'sync-options' });
      await spend(limiter, k, TEN_PER_WINDOW, 2);
      const bad: [string, unknown][] = [
        ['options "soon"', 'soon'],
        ['options 5', 5],
        ['a sentAtMs getter that throws', throwingGetter('sentAtMs')],
        ['a windowEnd whose getter throws', { windowEnd: throwingGetter('earliestMs', { latestMs: 0 }) }],
      ];
      for (const [what, options] of bad)
        expectError(await limiter.sync(k, TEN_PER_WINDOW, 8, options as SyncOptions), 'invalid_parameters', `sync with ${what}`);
      expectBorrowed(await limiter.borrowed(k), 2, 'the window after the refused syncs');
    },
  ),
  test(
    'RL-L2',
    'record and sync with limit null record nothing on a live bucket; record drops a cost that is not a number',
    ['injectableClock', 'sync'],
    async ({ limiter }) => {
      const k = key({ axis: 'null-feedback' });
      await spend(limiter, k, TEN_PER_SECOND, 4);
      limiter.record(k, 3, null);
      expectDone(await limiter.sync(k, null, 9), 'sync with limit null');
      for (const cost of ['3', -1, Number.NaN, Number.POSITIVE_INFINITY]) limiter.record(k, cost as number, TEN_PER_SECOND);
      await landed();
      expectBorrowed(await limiter.borrowed(k), 4, 'the bucket after the feedback with limit null and the bad costs');
    },
  ),
  test('RL-K4', 'borrowed, reset, sync and penalize name a bad key field by a path to it (key.venue)', [], async ({ limiter }) => {
    const calls: [string, (l: RateLimiter, k: BucketKey) => Promise<unknown>][] = [
      ['borrowed', (l, k) => l.borrowed(k)],
      ['reset', (l, k) => l.reset(k)],
      ['sync', (l, k) => l.sync(k, TEN_PER_SECOND, 1)],
      ['penalize', (l, k) => l.penalize(k, { forMs: 100 })],
    ];
    const refused: [string, unknown][] = [
      ['key.venue', { venue: '', credential: 'cred-a' }],
      ['key.axis', { venue: 'alpha', credential: 'cred-a', axis: '' }],
      ['key.credential', { venue: 'alpha', credential: '' }],
    ];
    for (const [name, call] of calls) {
      for (const [path, k] of refused) {
        const answer = (await call(limiter, k as BucketKey)) as Parameters<typeof expectError>[0];
        if (name !== 'borrowed' && name !== 'reset' && (answer as { error?: { code?: string } }).error?.code === 'not_supported') continue;
        expectFieldPath(expectError(answer, 'invalid_parameters', `${name} with a bad ${path}`), path, `${name} with a bad ${path}`);
      }
    }
  }),
  test('RL-F1', 'a key or limit that reads differently on each read gets a well-formed answer from every call', [], async ({ limiter }) => {
    const checks = (axis: string): BucketCheck[] => [{ key: fickleKey(axis), limit: TEN_PER_SECOND, cost: 1 }];
    const calls: [string, () => Promise<unknown>][] = [
      ['checkRate', () => limiter.checkRate(fickleKey('fickle-1'), TEN_PER_SECOND, 1)],
      ['checkRate with a budget', () => limiter.checkRate(fickleKey('fickle-2'), TEN_PER_SECOND, 1, BUDGET)],
      ['checkRates', () => limiter.checkRates(checks('fickle-3'))],
      ['peek', () => limiter.peek(checks('fickle-4'))],
      ['borrowed', () => limiter.borrowed(fickleKey('fickle-5'))],
      ['reset', () => limiter.reset(fickleKey('fickle-6'))],
      ['sync', () => limiter.sync(fickleKey('fickle-7'), TEN_PER_SECOND, 1)],
      ['sync with a fickle limit', () => limiter.sync(key({ axis: 'fickle-8' }), fickleLimit(), 1)],
      ['penalize', () => limiter.penalize(fickleKey('fickle-9'), { forMs: 100 })],
    ];
    for (const [what, call] of calls) expectWellFormed(await call(), `${what} with a key or limit that reads differently each time`);
  }),
  test(
    'RL-F1',
    'a wait whose signal cannot take a listener still resolves, by its send time, to a well-formed answer',
    ['injectableClock', 'bookings', 'abortSignal'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'listener-throws' });
      await spend(limiter, k, TEN_PER_SECOND, 10);
      const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { ...BUDGET, signal: signalWithThrowingListener() });
      await clock.advance(100);
      const answer = await settled(waiter, 'the wait at its send time');
      expectWellFormed(answer, 'the wait whose signal’s addEventListener throws');
      expectTrue(!show(answer).includes(UNREADABLE_TEXT), `the answer repeats the thrown error's text: ${show(answer)}`);
    },
  ),
];
