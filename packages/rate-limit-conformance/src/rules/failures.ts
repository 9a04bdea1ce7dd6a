import type { BucketCheck, BucketKey, Decision, Limit, PenaltyHold, RateLimiter, RateLimitErrorCode } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { ERROR_CODES, expectBorrowed, expectError, expectOkNow, expectTrue, fail, show } from '../expect.js';
import { OPTIONAL_OPERATIONS } from '../requirement.js';
import { TEN_PER_SECOND, UNREADABLE_TEXT, key, landed, signalWithThrowingAborted, spend, throwingGetter, unreadable } from './fixtures.js';

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

/** A call of every method with input that cannot be read, and the operation it belongs to. */
function unreadableCalls(): readonly (readonly [string, 'sync' | 'penalize' | 'snapshot' | undefined, (l: RateLimiter) => Promise<unknown>])[] {
  const k = key({ axis: 'read' });
  const valid: BucketCheck[] = [{ key: k, limit: TEN_PER_SECOND, cost: 1 }];
  const throwingCost = throwingGetter('cost', { key: k, limit: TEN_PER_SECOND }) as unknown as BucketCheck;
  return [
    ['checkRate with an unreadable key', undefined, (l) => l.checkRate(unreadable<BucketKey>(), TEN_PER_SECOND, 1)],
    ['checkRate with an unreadable limit', undefined, (l) => l.checkRate(k, unreadable({ capacity: 10, refillPerSec: 10 }), 1)],
    ['checkRate with an unreadable options object', undefined, (l) => l.checkRate(k, TEN_PER_SECOND, 1, unreadable({}))],
    ['checkRate with a maxWaitMs getter that throws', undefined, (l) => l.checkRate(k, TEN_PER_SECOND, 1, throwingGetter('maxWaitMs'))],
    ['checkRates with an unreadable list', undefined, (l) => l.checkRates(unreadable<BucketCheck[]>([]))],
    ['checkRates with an unreadable check', undefined, (l) => l.checkRates([unreadable<BucketCheck>()])],
    ['checkRates with a cost getter that throws', undefined, (l) => l.checkRates([throwingCost])],
    ['checkRates with a maxWaitMs getter that throws', undefined, (l) => l.checkRates(valid, throwingGetter('maxWaitMs'))],
    ['peek with an unreadable list', undefined, (l) => l.peek(unreadable<BucketCheck[]>([]))],
    ['peek with an unreadable check', undefined, (l) => l.peek([unreadable<BucketCheck>()])],
    ['waitForCapacity with an unreadable list', undefined, (l) => l.waitForCapacity(unreadable<BucketCheck[]>([]), { maxWaitMs: 100 })],
    ['waitForCapacity with a maxWaitMs getter that throws', undefined, (l) => l.waitForCapacity(valid, throwingGetter('maxWaitMs'))],
    ['waitForCapacity with a signal getter that throws', undefined, (l) => l.waitForCapacity(valid, throwingGetter('signal', { maxWaitMs: 100 }))],
    [
      'waitForCapacity with a signal whose aborted getter throws',
      undefined,
      (l) => l.waitForCapacity(valid, { maxWaitMs: 100, signal: signalWithThrowingAborted() }),
    ],
    ['sync with an unreadable key', 'sync', (l) => l.sync(unreadable<BucketKey>(), TEN_PER_SECOND, 1)],
    ['sync with an unreadable limit', 'sync', (l) => l.sync(k, unreadable({ capacity: 10, refillPerSec: 10 }), 1)],
    ['penalize with an unreadable key', 'penalize', (l) => l.penalize(unreadable<BucketKey>(), { forMs: 100 })],
    ['penalize with an unreadable hold', 'penalize', (l) => l.penalize(k, unreadable<PenaltyHold>({ forMs: 100 }))],
    ['penalize with a forMs getter that throws', 'penalize', (l) => l.penalize(k, throwingGetter('forMs') as PenaltyHold)],
    ['borrowed with an unreadable key', undefined, (l) => l.borrowed(unreadable<BucketKey>())],
    ['reset with an unreadable key', undefined, (l) => l.reset(unreadable<BucketKey>())],
    ['resetVenue with an unreadable venue', undefined, (l) => l.resetVenue(unreadable({}) as unknown as string)],
  ];
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
      await limiter.checkRates([
        { key: a, limit: TEN_PER_SECOND, cost: 1 },
        { key: b, limit: TEN_PER_SECOND, cost: bad },
      ]);
      await limiter.checkRate(a, { capacity: bad, refillPerSec: 1 }, 1);
    }
    expectBorrowed(await limiter.borrowed(a), 4, 'bucket a');
    expectBorrowed(await limiter.borrowed(b), 7, 'bucket b');
    await spend(limiter, a, TEN_PER_SECOND, 6, 'bucket a serves');
    await spend(limiter, b, TEN_PER_SECOND, 3, 'bucket b serves');
    await spend(limiter, key({ venue: 'fresh' }), TEN_PER_SECOND, 10, 'a fresh bucket');
  }),
  test(
    'RL-F2',
    'input that cannot be read is invalid_parameters, never internal, for every method, and changes nothing',
    ['injectableClock'],
    async ({ limiter }) => {
      const k = key({ axis: 'read' });
      await spend(limiter, k, TEN_PER_SECOND, 4);
      for (const [what, operation, call] of unreadableCalls()) {
        let result: unknown;
        try {
          result = await call(limiter);
        } catch (error) {
          fail(`${what} threw or rejected: ${String(error)}`);
        }
        const expected: RateLimitErrorCode = operation !== undefined && !limiter.capabilities[operation] ? 'not_supported' : 'invalid_parameters';
        const e = expectError(result as Decision, expected, what);
        expectTrue(!show(e).includes(UNREADABLE_TEXT), `${what}: the answer repeats the thrown error's text: ${show(e)}`);
      }
      for (const [what, record] of [
        ['an unreadable key', () => limiter.record(unreadable<BucketKey>(), 1, TEN_PER_SECOND)],
        ['an unreadable limit', () => limiter.record(k, 1, unreadable({ capacity: 10, refillPerSec: 10 }))],
      ] as const) {
        try {
          record();
        } catch (error) {
          fail(`record with ${what} threw: ${String(error)} (RL-R1: it never throws)`);
        }
      }
      await landed();
      expectBorrowed(await limiter.borrowed(k), 4, 'the bucket after the unreadable calls');
      await spend(limiter, k, TEN_PER_SECOND, 6, 'the bucket still serves');
    },
  ),
  test('RL-F2', 'an operation whose capability is false answers not_supported, whatever its arguments', ['missingOperation'], async ({ limiter }) => {
    const k = key();
    const calls: Record<(typeof OPTIONAL_OPERATIONS)[number], readonly [string, () => Promise<unknown>][]> = {
      sync: [
        ['sync with valid arguments', () => limiter.sync(k, TEN_PER_SECOND, 3)],
        ['sync with minBorrowed -1', () => limiter.sync(k, TEN_PER_SECOND, -1)],
        ['sync with a missing limit', () => limiter.sync(k, undefined as unknown as Limit, 3)],
        ['sync with an unreadable key', () => limiter.sync(unreadable<BucketKey>(), TEN_PER_SECOND, 3)],
      ],
      penalize: [
        ['penalize with a valid hold', () => limiter.penalize(k, { forMs: 1000 })],
        ['penalize for NaN ms', () => limiter.penalize(k, { forMs: Number.NaN })],
        ['penalize with an unreadable hold', () => limiter.penalize(k, unreadable<PenaltyHold>({ forMs: 1000 }))],
      ],
      snapshot: [['snapshot', () => limiter.snapshot()]],
    };
    let checked = 0;
    for (const operation of OPTIONAL_OPERATIONS) {
      if (limiter.capabilities[operation]) continue;
      for (const [what, call] of calls[operation]) {
        expectError((await call()) as Decision, 'not_supported', `${what} (capabilities.${operation} is false)`);
        checked++;
      }
    }
    expectTrue(checked > 0, 'no operation was checked');
    expectBorrowed(await limiter.borrowed(k), 0, 'the bucket after the calls that are not supported');
  }),
];
