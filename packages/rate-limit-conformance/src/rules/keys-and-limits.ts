import type { BucketCheck, BucketKey, Decision, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectEqual, expectError, expectOkNow, expectPlainNumbers, expectSnapshot, expectTrue, show } from '../expect.js';
import { FIVE_PER_SECOND, TEN_PER_SECOND, key, spend } from './fixtures.js';

const SECRET = 'sk-live-9f8e7d6c5b4a3928-SECRET';

export const KEYS_AND_LIMITS: readonly ConformanceTest[] = [
  test('RL-K1', 'buckets differing in venue, credential or axis are independent', ['injectableClock'], async ({ limiter }) => {
    const base = key();
    await spend(limiter, base, TEN_PER_SECOND, 10);
    expectDelay(await limiter.checkRate(base, TEN_PER_SECOND, 1), 100, 'the drained bucket');
    const others: BucketKey[] = [key({ venue: 'beta' }), key({ credential: 'cred-b' }), key({ axis: 'ip' }), key({ axis: 'order_weight' })];
    for (const other of others) await spend(limiter, other, TEN_PER_SECOND, 10, `${show(other)} is full`);
    expectDelay(await limiter.checkRate(base, TEN_PER_SECOND, 1), 100, 'the drained bucket, after the others');
  }),
  test('RL-K1', 'the public pool is separate from every credential', ['injectableClock'], async ({ limiter }) => {
    const pool = key({ credential: null });
    await spend(limiter, pool, FIVE_PER_SECOND, 5);
    await spend(limiter, key({ credential: 'cred-a' }), FIVE_PER_SECOND, 5, 'a credential after the pool was drained');
    await spend(limiter, key({ credential: 'null' }), FIVE_PER_SECOND, 5, 'a credential spelled "null"');
    expectDelay(await limiter.checkRate(pool, FIVE_PER_SECOND, 1), 200, 'the public pool');
    expectBorrowed(await limiter.borrowed(pool), 5, 'borrowed of the pool');
  }),
  test('RL-K2', 'a key without an axis is the bucket with axis "request"', ['injectableClock'], async ({ limiter }) => {
    const bare = key();
    const request = key({ axis: 'request' });
    await spend(limiter, bare, TEN_PER_SECOND, 6);
    await spend(limiter, request, TEN_PER_SECOND, 4);
    expectDelay(await limiter.checkRate(bare, TEN_PER_SECOND, 1), 100, 'the bucket without an axis');
    expectBorrowed(await limiter.borrowed(bare), 10, 'borrowed without an axis');
    expectBorrowed(await limiter.borrowed(request), 10, 'borrowed with axis "request"');
  }),
  test('RL-K3', 'no error message or result contains the raw credential', [], async ({ limiter }) => {
    const k = key({ credential: SECRET });
    const results: unknown[] = [
      await limiter.checkRate(k, TEN_PER_SECOND, -1),
      await limiter.checkRate(k, { capacity: -1, refillPerSec: 1 }, 1),
      await limiter.checkRate(k, TEN_PER_SECOND, Number.NaN),
      await limiter.checkRates([
        { key: k, limit: TEN_PER_SECOND, cost: 1 },
        { key: k, limit: FIVE_PER_SECOND, cost: 1 },
      ]),
      await limiter.waitForCapacity([{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { maxWaitMs: -5 }),
      await limiter.checkRate({ venue: '', credential: SECRET }, TEN_PER_SECOND, 1),
      await limiter.checkRate({ venue: 'alpha', credential: SECRET, axis: '' }, TEN_PER_SECOND, 1),
      await limiter.checkRate(k, { capacity: 10, refillPerSec: 0 }, 11),
      await limiter.waitForCapacity([{ key: k, limit: { capacity: 1, refillPerSec: 0.001 }, cost: 2 }], { maxWaitMs: 10 }),
      await limiter.sync(k, TEN_PER_SECOND, -3),
      await limiter.borrowed(k),
    ];
    let errors = 0;
    for (const result of results) {
      const text =
        show(result) +
        (typeof result === 'object' && result !== null && 'error' in result ? String((result as { error: { message: unknown } }).error?.message) : '');
      expectTrue(!text.includes(SECRET), `a result shows the raw credential: ${text}`);
      if (typeof result === 'object' && result !== null && (result as Decision).kind === 'error') errors++;
    }
    expectTrue(errors >= 8, `expected at least 8 of the calls to answer typed errors, got ${errors}`);
  }),
  test('RL-K3', 'a snapshot shows only a one-way hash of the credential', ['snapshot'], async ({ limiter }) => {
    await spend(limiter, key({ credential: SECRET }), TEN_PER_SECOND, 3);
    await spend(limiter, key({ credential: `${SECRET}-2` }), TEN_PER_SECOND, 3);
    const snapshot = expectSnapshot(await limiter.snapshot(), 'snapshot');
    const text = show(snapshot);
    expectTrue(!text.includes(SECRET), `the snapshot shows the raw credential: ${text}`);
    const hashes = snapshot.filter((b) => b.venue === 'alpha').map((b) => b.credentialHash);
    expectTrue(hashes.length === 2, `expected 2 alpha buckets in the snapshot, got ${text}`);
    expectTrue(
      hashes.every((h) => typeof h === 'string' && /^[0-9a-f]{16,}$/i.test(h)),
      `credential hashes are not hex: ${show(hashes)}`,
    );
    expectTrue(hashes[0] !== hashes[1], 'two credentials share one hash');
  }),
  test('RL-K3', 'storage key names never contain the raw credential', ['storageKeys'], async ({ limiter, subject }) => {
    const k = key({ credential: SECRET });
    await limiter.checkRate(k, TEN_PER_SECOND, 3);
    await limiter.checkRate({ ...k, axis: 'orders' }, TEN_PER_SECOND, 10);
    await limiter.checkRate({ ...k, axis: 'orders' }, TEN_PER_SECOND, 5, { maxWaitMs: 1000 });
    limiter.record({ ...k, axis: 'ip' }, 4, TEN_PER_SECOND);
    await limiter.sync({ ...k, axis: 'uid' }, TEN_PER_SECOND, 2);
    await limiter.penalize({ ...k, axis: 'held' }, { forMs: 1000 });
    await new Promise<void>((resolve) => setImmediate(resolve));
    const names = await subject.storageKeys!();
    expectTrue(names.length > 0, 'storageKeys() listed nothing after five buckets were written');
    for (const name of names) expectTrue(!name.includes(SECRET), `a storage key name holds the raw credential: ${name}`);
  }),
  test(
    'RL-K4',
    'venue and axis take up to 256 characters and a credential up to 4,096; longer, empty or not strings are refused',
    ['injectableClock'],
    async ({ limiter }) => {
      const long = (n: number, c: string) => c.repeat(n);
      const accepted: [string, BucketKey][] = [
        ['a venue of 256 characters', { venue: long(256, 'v'), credential: 'cred-a' }],
        ['an axis of 256 characters', { venue: 'alpha', credential: 'cred-a', axis: long(256, 'x') }],
        ['a credential of 4,096 characters', { venue: 'alpha', credential: long(4096, 'c') }],
        ['one character each', { venue: 'v', credential: 'c', axis: 'x' }],
      ];
      for (const [what, k] of accepted) {
        await spend(limiter, k, TEN_PER_SECOND, 4, what);
        expectBorrowed(await limiter.borrowed(k), 4, what);
      }
      const good = key({ axis: 'good' });
      const secret = long(4097, 's');
      const refused: [string, string, unknown][] = [
        ['venue', 'a venue of 257 characters', { venue: long(257, 'v'), credential: 'cred-a' }],
        ['axis', 'an axis of 257 characters', { venue: 'alpha', credential: 'cred-a', axis: long(257, 'x') }],
        ['credential', 'a credential of 4,097 characters', { venue: 'alpha', credential: secret }],
        ['venue', 'an empty venue', { venue: '', credential: 'cred-a' }],
        ['axis', 'an empty axis', { venue: 'alpha', credential: 'cred-a', axis: '' }],
        ['credential', 'an empty credential', { venue: 'alpha', credential: '' }],
        ['credential', 'a credential left out', { venue: 'alpha' }],
        ['venue', 'a venue that is a number', { venue: 7, credential: 'cred-a' }],
        ['axis', 'an axis that is a number', { venue: 'alpha', credential: 'cred-a', axis: 7 }],
      ];
      for (const [field, what, k] of refused) {
        const alone = expectError(await limiter.checkRate(k as BucketKey, TEN_PER_SECOND, 1), 'invalid_parameters', `checkRate with ${what}`);
        expectTrue(
          `${alone.error.path ?? ''} ${alone.error.message}`.includes(field),
          `checkRate with ${what}: the error does not name ${field}: ${show(alone)}`,
        );
        const second = expectError(
          await limiter.checkRates([
            { key: good, limit: TEN_PER_SECOND, cost: 1 },
            { key: k as BucketKey, limit: TEN_PER_SECOND, cost: 1 },
          ]),
          'invalid_parameters',
          `checkRates with ${what} second`,
        );
        const path = `checks[1].key.${field}`;
        if (second.error.path !== undefined) expectEqual(second.error.path, path, `checkRates with ${what} second: error.path`);
        else expectTrue(second.error.message.includes(path), `checkRates with ${what} second: the error does not name ${path}: ${show(second)}`);
        const shown = JSON.stringify([alone, second]);
        expectTrue(!shown.includes(secret.slice(0, 64)), `${what}: the error shows the credential`);
      }
      expectBorrowed(await limiter.borrowed(good), 0, 'the valid bucket of the refused calls');
    },
  ),
  test('RL-L1', 'the three limit shapes are equivalent', ['injectableClock'], async ({ limiter }) => {
    const shapes: [Limit, Limit, Limit] = [{ capacity: 5, refillPerSec: 5 }, { requests: 5, periodMs: 1000 }, { requests: 5 }];
    for (const [i, shape] of shapes.entries()) {
      const k = key({ axis: `shape-${i}` });
      await spend(limiter, k, shape, 5, show(shape));
      expectDelay(await limiter.checkRate(k, shape, 1), 200, `${show(shape)} when drained`);
    }
    const mixed = key({ axis: 'mixed' });
    await spend(limiter, mixed, shapes[0], 2, 'capacity shape');
    await spend(limiter, mixed, shapes[1], 2, 'period shape on the same bucket');
    await spend(limiter, mixed, shapes[2], 1, 'requests shape on the same bucket');
    expectDelay(await limiter.checkRate(mixed, shapes[0], 1), 200, 'the bucket spent through three shapes');
  }),
  test('RL-L1', '{ requests, periodMs } refills requests per period', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    const limit: Limit = { requests: 6, periodMs: 60_000 };
    await spend(limiter, k, limit, 6);
    expectDelay(await limiter.checkRate(k, limit, 1), 10_000, 'one request of six per minute');
    await clock.advance(10_000);
    await spend(limiter, k, limit, 1, 'after 10 s');
  }),
  test('RL-L2', 'an explicit null limit admits at once and records nothing', ['injectableClock'], async ({ limiter }) => {
    const k = key({ axis: 'unlimited' });
    for (let i = 0; i < 20; i++) expectOkNow(await limiter.checkRate(k, null, 1e9), 'cost 1e9 on a null limit');
    expectOkNow(await limiter.checkRates([{ key: k, limit: null, cost: 5e9 }]), 'checkRates unlimited');
    expectOkNow(await limiter.waitForCapacity([{ key: k, limit: null, cost: 5e9 }], { maxWaitMs: 10 }), 'waitForCapacity unlimited');
    limiter.record(k, 1e6, null);
    expectBorrowed(await limiter.borrowed(k), 0, 'borrowed of an unlimited bucket');
    const limited = key({ axis: 'limited' });
    expectOkNow(
      await limiter.checkRates([
        { key: key({ axis: 'unlimited-in-a-call' }), limit: null, cost: 1e9 },
        { key: limited, limit: TEN_PER_SECOND, cost: 3 },
      ]),
      'an unlimited and a limited bucket in one call',
    );
    expectBorrowed(await limiter.borrowed(limited), 3, 'the limited bucket of that call');
    expectBorrowed(await limiter.borrowed(key({ axis: 'unlimited-in-a-call' })), 0, 'the unlimited bucket of that call');
  }),
  test('RL-L2', 'a missing limit is invalid_parameters, never unlimited, and nothing is charged', ['injectableClock'], async ({ limiter }) => {
    const k = key({ axis: 'forgotten' });
    await spend(limiter, k, TEN_PER_SECOND, 2);
    const missing = [{ key: k, cost: 1000 }] as unknown as BucketCheck[];
    expectError(await limiter.checkRates(missing), 'invalid_parameters', 'checkRates with the limit property absent');
    expectError(
      await limiter.checkRates([{ key: k, limit: undefined as unknown as Limit, cost: 1000 }]),
      'invalid_parameters',
      'checkRates with limit: undefined',
    );
    expectError(await limiter.checkRate(k, undefined as unknown as Limit, 1000), 'invalid_parameters', 'checkRate with limit undefined');
    expectError(await limiter.peek(missing), 'invalid_parameters', 'peek with the limit absent');
    expectError(await limiter.waitForCapacity(missing, { maxWaitMs: 10 }), 'invalid_parameters', 'waitForCapacity with the limit absent');
    // sync takes a limit too (an operation the limiter does not offer answers not_supported, RL-F2)
    const sync = await limiter.sync(k, undefined as unknown as Limit, 1000);
    expectError(sync, limiter.capabilities.sync ? 'invalid_parameters' : 'not_supported', 'sync with limit undefined');
    expectBorrowed(await limiter.borrowed(k), 2, 'the bucket after the refused calls');
  }),
  test('RL-L3', 'an invalid limit is refused with invalid_parameters and nothing changes', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 4);
    const bad: unknown[] = [
      { capacity: 0, refillPerSec: 1 },
      { capacity: -1, refillPerSec: 1 },
      { capacity: Number.NaN, refillPerSec: 1 },
      { capacity: Number.POSITIVE_INFINITY, refillPerSec: 1 },
      { capacity: 10, refillPerSec: -1 },
      { capacity: 10, refillPerSec: Number.NaN },
      { capacity: 10, refillPerSec: Number.POSITIVE_INFINITY },
      { requests: 10, periodMs: 0 },
      { requests: 10, periodMs: -1000 },
      { requests: 10, periodMs: Number.NaN },
      { requests: 0 },
      { requests: -3 },
      { requests: Number.POSITIVE_INFINITY },
      { rate: 10 },
      {},
      'ten per second',
      10,
    ];
    for (const limit of bad) {
      expectError(await limiter.checkRate(k, limit as Limit, 1), 'invalid_parameters', `checkRate with limit ${show(limit)}`);
      expectError(
        await limiter.checkRates([
          { key: key({ axis: 'other' }), limit: TEN_PER_SECOND, cost: 1 },
          { key: k, limit: limit as Limit, cost: 1 },
        ]),
        'invalid_parameters',
        `checkRates with limit ${show(limit)}`,
      );
      expectError(
        await limiter.waitForCapacity([{ key: k, limit: limit as Limit, cost: 1 }], { maxWaitMs: 1000 }),
        'invalid_parameters',
        `waitForCapacity with limit ${show(limit)}`,
      );
    }
    expectBorrowed(await limiter.borrowed(k), 4, 'borrowed after the refused limits');
    expectBorrowed(await limiter.borrowed(key({ axis: 'other' })), 0, 'the other bucket of a refused checkRates');
    await spend(limiter, k, TEN_PER_SECOND, 6, 'the rest of the bucket, under its own definition');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'the bucket, drained');
  }),
  test('RL-L4', 'refill 0 is a fixed quota that never refills', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    const quota: Limit = { capacity: 100, refillPerSec: 0 };
    await spend(limiter, k, quota, 3);
    await spend(limiter, k, quota, 5);
    expectBorrowed(await limiter.borrowed(k), 8, 'borrowed after 3 + 5');
    await clock.advance(3_600_000);
    expectBorrowed(await limiter.borrowed(k), 8, 'borrowed an hour later');
    await spend(limiter, k, quota, 92, 'the rest of the quota');
  }),
  test('RL-L4', 'a cost that can never be paid is refused at once with cost_unpayable, never a delay', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    await spend(limiter, k, quota, 8);
    expectError(await limiter.checkRate(k, quota, 5), 'cost_unpayable', 'probe beyond the quota');
    expectError(await limiter.checkRate(k, quota, 5, { maxWaitMs: 60_000 }), 'cost_unpayable', 'booking beyond the quota');
    const timersBefore = clock.timersCreated;
    expectError(
      await limiter.waitForCapacity([{ key: k, limit: quota, cost: 5 }], { maxWaitMs: 60_000 }),
      'cost_unpayable',
      'waitForCapacity beyond the quota',
    );
    expectTrue(clock.timersCreated === timersBefore, 'waitForCapacity started a timer for a cost that can never be paid');
    expectError(await limiter.checkRate(key({ axis: 'fresh' }), quota, 11), 'cost_unpayable', 'a cost above a fresh quota');
    expectBorrowed(await limiter.borrowed(k), 8, 'borrowed after the refusals');
    await spend(limiter, k, quota, 2, 'what is left');
  }),
  test('RL-L4', 'cost_unpayable names the bucket: its path in the call, its venue and its axis', ['injectableClock'], async ({ limiter }) => {
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    const q = key({ credential: null, axis: 'fixed-quota' });
    const other = key({ credential: null, axis: 'orders' });
    await spend(limiter, q, quota, 8);
    const pair: BucketCheck[] = [
      { key: other, limit: TEN_PER_SECOND, cost: 1 },
      { key: q, limit: quota, cost: 5 },
    ];
    const answers: [string, unknown][] = [
      ['checkRates', await limiter.checkRates(pair)],
      ['checkRates with a budget', await limiter.checkRates(pair, { maxWaitMs: 1000 })],
      ['peek', await limiter.peek(pair)],
      ['waitForCapacity', await limiter.waitForCapacity(pair, { maxWaitMs: 1000 })],
    ];
    for (const [what, answer] of answers) {
      const e = expectError(answer as Decision, 'cost_unpayable', `${what}: cost 5 with 2 left of the quota, second in the call`);
      expectEqual(e.error.path, 'checks[1]', `${what}: error.path (0-based, in the call)`);
      expectTrue(
        e.error.message.includes('alpha') && e.error.message.includes('fixed-quota'),
        `${what}: the message does not name the venue and axis: ${show(e.error.message)}`,
      );
    }
    const single = expectError(await limiter.checkRate(q, quota, 5), 'cost_unpayable', 'checkRate: cost 5 with 2 left');
    expectTrue(
      single.error.message.includes('alpha') && single.error.message.includes('fixed-quota'),
      `checkRate: the message does not name the venue and axis: ${show(single.error.message)}`,
    );
    expectBorrowed(await limiter.borrowed(other), 0, 'the other bucket of the refused calls');
  }),
  test('RL-L4', 'the message of a used-up quota shows plain numbers, a float residue as 0', ['injectableClock', 'fractionalCosts'], async ({ limiter }) => {
    const cases: readonly [Limit, number, number, number][] = [
      // ten 0.1 sum to 0.9999999999999999; a billionth of a unit in tenths of a billionth
      [{ capacity: 1, refillPerSec: 0 }, 0.1, 10, 1e-6],
      [{ capacity: 1e-9, refillPerSec: 0 }, 1e-10, 10, 1e-15],
    ];
    for (const [i, [quota, cost, count, residue]] of cases.entries()) {
      const k = key({ credential: null, axis: `residue-${'ab'[i]}` });
      for (let n = 0; n < count; n++) await spend(limiter, k, quota, cost, `${cost} #${n + 1} on ${show(quota)}`);
      const e = expectError(await limiter.checkRate(k, quota, cost), 'cost_unpayable', `cost ${cost} on the used-up ${show(quota)}`);
      expectPlainNumbers(e.error.message, residue, `the refusal on ${show(quota)}`);
    }
  }),
  test('RL-L5', 'a new definition keeps the amount already borrowed', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 6);
    const bigger: Limit = { capacity: 20, refillPerSec: 20 };
    expectDelay(await limiter.checkRate(k, bigger, 15), 50, 'cost 15 under capacity 20 with 6 borrowed');
    expectBorrowed(await limiter.borrowed(k), 6, 'borrowed after the refused probe');
    await spend(limiter, k, bigger, 14, 'the 14 left under the new definition');
    expectBorrowed(await limiter.borrowed(k), 20, 'borrowed under the new definition');
    await clock.advance(100);
    expectBorrowed(await limiter.borrowed(k), 18, 'borrowed 100 ms later at 20/s');
  }),
  test('RL-L5', 'a smaller definition keeps the debt of the larger one', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    expectDelay(await limiter.checkRate(k, FIVE_PER_SECOND, 1), 1200, 'cost 1 under capacity 5 with 10 borrowed');
  }),
  test('RL-L5', 'a fixed quota that redefines a token bucket takes over what it borrowed', ['injectableClock'], async ({ limiter }) => {
    const k = key({ axis: 'bucket-to-quota' });
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    await spend(limiter, k, TEN_PER_SECOND, 3);
    await spend(limiter, k, quota, 7, 'the 7 left of the quota that redefines the bucket');
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed under the quota: 3 carried over and 7 spent');
    expectError(await limiter.checkRate(k, quota, 1), 'cost_unpayable', 'cost 1 on the used-up quota');
  }),
];
