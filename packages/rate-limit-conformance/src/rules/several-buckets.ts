import type { BucketCheck, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectError, expectOkNow } from '../expect.js';
import { FIVE_PER_SECOND, TEN_PER_SECOND, key, spend } from './fixtures.js';

const ip = key({ credential: null, axis: 'ip' });
const orders = key({ axis: 'orders' });

export const SEVERAL_BUCKETS: readonly ConformanceTest[] = [
  test('RL-M1', 'one bucket short: nothing is debited anywhere', ['injectableClock'], async ({ limiter }) => {
    await spend(limiter, orders, FIVE_PER_SECOND, 5);
    expectDelay(
      await limiter.checkRates([
        { key: ip, limit: TEN_PER_SECOND, cost: 3 },
        { key: orders, limit: FIVE_PER_SECOND, cost: 1 },
      ]),
      200,
      'ip 3 + orders 1 with orders drained',
    );
    expectBorrowed(await limiter.borrowed(ip), 0, 'the ip bucket');
    expectBorrowed(await limiter.borrowed(orders), 5, 'the orders bucket');
    expectDelay(
      await limiter.checkRates([
        { key: orders, limit: FIVE_PER_SECOND, cost: 1 },
        { key: ip, limit: TEN_PER_SECOND, cost: 10 },
      ]),
      200,
      'the same with the short bucket first',
    );
    expectBorrowed(await limiter.borrowed(ip), 0, 'the ip bucket after the second refusal');
    await spend(limiter, ip, TEN_PER_SECOND, 10, 'the whole ip bucket');
  }),
  test('RL-M1', 'every bucket can pay: all are debited in one step', ['injectableClock'], async ({ limiter }) => {
    expectOkNow(
      await limiter.checkRates([
        { key: ip, limit: TEN_PER_SECOND, cost: 3 },
        { key: orders, limit: FIVE_PER_SECOND, cost: 2 },
      ]),
      'ip 3 + orders 2',
    );
    expectBorrowed(await limiter.borrowed(ip), 3, 'the ip bucket');
    expectBorrowed(await limiter.borrowed(orders), 2, 'the orders bucket');
  }),
  test('RL-M2', 'repeated keys are charged once at their combined cost', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    expectOkNow(
      await limiter.checkRates([
        { key: k, limit: TEN_PER_SECOND, cost: 3 },
        { key: k, limit: TEN_PER_SECOND, cost: 2 },
      ]),
      '[k 3, k 2]',
    );
    expectBorrowed(await limiter.borrowed(k), 5, 'borrowed after [k 3, k 2]');
    expectDelay(
      await limiter.checkRates([
        { key: k, limit: TEN_PER_SECOND, cost: 3 },
        { key: k, limit: TEN_PER_SECOND, cost: 3 },
      ]),
      100,
      '[k 3, k 3] with 5 left',
    );
    const small: Limit = { capacity: 4, refillPerSec: 4 };
    const s = key({ axis: 'small' });
    expectDelay(
      await limiter.checkRates([
        { key: s, limit: small, cost: 3 },
        { key: key({ axis: 'other' }), limit: small, cost: 1 },
        { key: { ...s, axis: 'small' }, limit: small, cost: 2 },
      ]),
      250,
      '[s 3, other 1, s 2] on capacity 4',
    );
    expectBorrowed(await limiter.borrowed(s), 0, 'the repeated bucket after the refusal');
    expectBorrowed(await limiter.borrowed(key({ axis: 'other' })), 0, 'the other bucket after the refusal');
  }),
  test('RL-M2', 'a key without an axis and the same key with axis "request" are one bucket in one call', ['injectableClock'], async ({ limiter }) => {
    const bare = key();
    expectDelay(
      await limiter.checkRates([
        { key: bare, limit: FIVE_PER_SECOND, cost: 3 },
        { key: key({ axis: 'request' }), limit: FIVE_PER_SECOND, cost: 3 },
      ]),
      200,
      '3 + 3 on capacity 5',
    );
    expectOkNow(
      await limiter.checkRates([
        { key: bare, limit: FIVE_PER_SECOND, cost: 3 },
        { key: key({ axis: 'request' }), limit: FIVE_PER_SECOND, cost: 2 },
      ]),
      '3 + 2 on capacity 5',
    );
    expectBorrowed(await limiter.borrowed(bare), 5, 'borrowed');
  }),
  test('RL-M3', 'two definitions of one key in one call are invalid_parameters, nothing spent', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    expectError(
      await limiter.checkRates([
        { key: ip, limit: TEN_PER_SECOND, cost: 1 },
        { key: k, limit: { capacity: 1, refillPerSec: 1 }, cost: 1 },
        { key: k, limit: { capacity: 5, refillPerSec: 1 }, cost: 1 },
      ]),
      'invalid_parameters',
      'capacity 1 and capacity 5 for one key',
    );
    expectError(
      await limiter.waitForCapacity(
        [
          { key: k, limit: TEN_PER_SECOND, cost: 1 },
          { key: k, limit: FIVE_PER_SECOND, cost: 1 },
        ],
        { maxWaitMs: 1000 },
      ),
      'invalid_parameters',
      'waitForCapacity with two definitions',
    );
    expectBorrowed(await limiter.borrowed(k), 0, 'the key');
    expectBorrowed(await limiter.borrowed(ip), 0, 'the other bucket of the call');
    expectOkNow(
      await limiter.checkRates([
        { key: k, limit: { requests: 5 }, cost: 1 },
        { key: k, limit: FIVE_PER_SECOND, cost: 1 },
      ]),
      'two spellings of one definition',
    );
  }),
  test('RL-M4', 'the wait of a multi-bucket call is the largest among its buckets', ['injectableClock'], async ({ limiter }) => {
    await spend(limiter, ip, TEN_PER_SECOND, 10);
    await spend(limiter, orders, FIVE_PER_SECOND, 5);
    expectDelay(
      await limiter.checkRates([
        { key: ip, limit: TEN_PER_SECOND, cost: 3 },
        { key: orders, limit: FIVE_PER_SECOND, cost: 3 },
      ]),
      600,
      'ip waits 300, orders 600',
    );
    expectDelay(
      await limiter.checkRates([
        { key: orders, limit: FIVE_PER_SECOND, cost: 1 },
        { key: ip, limit: TEN_PER_SECOND, cost: 7 },
      ]),
      700,
      'orders waits 200, ip 700',
    );
  }),
  test('RL-M4', 'a fast and a slow bucket with a 1000 ms budget: the slow wait is answered, nothing booked', ['injectableClock'], async ({ limiter }) => {
    const fast = key({ axis: 'fast' });
    const slow = key({ axis: 'slow' });
    const fastLimit: Limit = { capacity: 1, refillPerSec: 50 };
    const slowLimit: Limit = { capacity: 1, refillPerSec: 0.001 };
    await spend(limiter, fast, fastLimit, 1);
    await spend(limiter, slow, slowLimit, 1);
    const checks = [
      { key: fast, limit: fastLimit, cost: 1 },
      { key: slow, limit: slowLimit, cost: 1 },
    ];
    expectDelay(await limiter.checkRates(checks, { maxWaitMs: 1000 }), 1_000_000, 'checkRates');
    const e = expectError(await limiter.waitForCapacity(checks, { maxWaitMs: 1000 }), 'rate_limit_timeout', 'waitForCapacity');
    expectDelay({ kind: 'delay', retryAfterMs: e.error.retryAfterMs ?? -1 }, 1_000_000, 'waitForCapacity retryAfterMs');
    expectBorrowed(await limiter.borrowed(fast), 1, 'the fast bucket');
    expectBorrowed(await limiter.borrowed(slow), 1, 'the slow bucket');
  }),
  test('RL-M5', 'a multi-bucket booking charges every bucket as of the common send time', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    await spend(limiter, a, TEN_PER_SECOND, 10);
    const t0 = clock.now();
    expectBooked(
      await limiter.checkRates(
        [
          { key: a, limit: TEN_PER_SECOND, cost: 5 },
          { key: b, limit: TEN_PER_SECOND, cost: 10 },
        ],
        { maxWaitMs: 1000 },
      ),
      t0,
      500,
      'a 5 (bottleneck, 500 ms) + b 10',
    );
    expectDelay(await limiter.checkRate(b, TEN_PER_SECOND, 1), 600, 'cost 1 on b: b is empty at the send time, then refills');
    await clock.advance(600);
    await spend(limiter, b, TEN_PER_SECOND, 1, 'cost 1 on b 100 ms after the send time');
    expectDelay(await limiter.checkRate(b, TEN_PER_SECOND, 1), 100, 'the next cost 1 on b');
  }),
  test(
    'RL-M6',
    'an empty list, a non-array or a check without its cost is invalid_parameters, and nothing is charged',
    ['injectableClock'],
    async ({ limiter }) => {
      const k = key({ axis: 'list' });
      await spend(limiter, k, TEN_PER_SECOND, 3);
      const valid = { key: k, limit: TEN_PER_SECOND, cost: 1 };
      const lists: [string, unknown][] = [
        ['an empty list', []],
        ['a string', 'checks'],
        ['an array-like object', { length: 1, 0: valid }],
        ['a list holding null', [null]],
        ['a list holding a number', [5]],
        ['a check without its cost', [{ key: k, limit: TEN_PER_SECOND }]],
        ['a valid check, then one without its cost', [valid, { key: k, limit: TEN_PER_SECOND }]],
      ];
      for (const [what, checks] of lists) {
        const list = checks as BucketCheck[];
        expectError(await limiter.checkRates(list), 'invalid_parameters', `checkRates with ${what}`);
        expectError(await limiter.checkRates(list, { maxWaitMs: 1000 }), 'invalid_parameters', `checkRates with a budget and ${what}`);
        expectError(await limiter.peek(list), 'invalid_parameters', `peek with ${what}`);
        expectError(await limiter.waitForCapacity(list, { maxWaitMs: 1000 }), 'invalid_parameters', `waitForCapacity with ${what}`);
      }
      expectError(await limiter.checkRate(k, TEN_PER_SECOND, 1, 'soon' as never), 'invalid_parameters', "checkRate with options 'soon'");
      expectError(await limiter.checkRates([valid], 'soon' as never), 'invalid_parameters', "checkRates with options 'soon'");
      expectError(await limiter.waitForCapacity([valid], 'soon' as never), 'invalid_parameters', "waitForCapacity with options 'soon'");
      expectBorrowed(await limiter.borrowed(k), 3, 'the bucket after the refused calls');
    },
  ),
];
