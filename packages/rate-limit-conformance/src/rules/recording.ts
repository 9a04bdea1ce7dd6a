import type { BucketKey, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed, expectDelay, expectDone, expectError, expectTrue, show } from '../expect.js';
import { TEN_PER_SECOND, key, landed, spend } from './fixtures.js';

export const RECORDING: readonly ConformanceTest[] = [
  test('RL-R1', 'record debits and may drive the bucket into debt', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 3);
    const returned: unknown = limiter.record(k, 22, TEN_PER_SECOND);
    expectTrue(returned === undefined, `record returned ${show(returned)}; it answers nothing and never blocks`);
    await landed();
    expectBorrowed(await limiter.borrowed(k), 25, 'borrowed after check 3 + record 22');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 1600, 'cost 1 while 15 in debt');
  }),
  test('RL-R1', 'record on an unknown key with its limit creates the bucket in debt', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    limiter.record(k, 5, TEN_PER_SECOND);
    await landed();
    expectBorrowed(await limiter.borrowed(k), 5, 'borrowed after record 5');
    await spend(limiter, k, TEN_PER_SECOND, 5, 'the 5 left');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 after record 5 + check 5');
  }),
  test('RL-R1', 'record without a limit debits a live bucket under its definition', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 2);
    limiter.record(k, 3);
    await landed();
    expectBorrowed(await limiter.borrowed(k), 5, 'borrowed after check 2 + record 3');
  }),
  test(
    'RL-R1',
    'a record without a limit on a bucket never defined is charged to the fixed quota that defines it',
    ['injectableClock'],
    async ({ limiter }) => {
      const k = key({ axis: 'debt-to-quota' });
      const quota: Limit = { capacity: 10, refillPerSec: 0 };
      limiter.record(k, 4);
      await landed();
      await spend(limiter, k, quota, 6, 'the 6 the recorded 4 leave of the quota');
      expectBorrowed(await limiter.borrowed(k), 10, 'borrowed: the record of 4 and the 6 spent');
      expectError(await limiter.checkRate(k, quota, 1), 'cost_unpayable', 'cost 1 on the used-up quota');
    },
  ),
  test(
    'RL-R1',
    'a record without a limit made before the first definition is charged once, not again after the bucket refilled',
    ['injectableClock'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'debt-once' });
      limiter.record(k, 4);
      await landed();
      await spend(limiter, k, TEN_PER_SECOND, 6, 'the 6 the recorded 4 leave');
      await clock.advance(1000);
      limiter.record(k, 1);
      await landed();
      expectBorrowed(await limiter.borrowed(k), 1, 'borrowed after a second record of 1, once the bucket refilled (the first 4 already charged)');
      await spend(limiter, k, TEN_PER_SECOND, 9, 'the 9 the second record leaves');
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 after record 1 + check 9');
    },
  ),
  test(
    'RL-R1',
    'records without a limit on several buckets not defined yet are each kept until that bucket is defined',
    ['injectableClock'],
    async ({ limiter }) => {
      const a = key({ axis: 'debts-a' });
      const b = key({ axis: 'debts-b' });
      limiter.record(a, 4);
      limiter.record(b, 3);
      await landed();
      expectDelay(await limiter.checkRate(a, TEN_PER_SECOND, 10), 400, 'cost 10 on the first bucket, 4 recorded');
      expectDelay(await limiter.checkRate(b, TEN_PER_SECOND, 10), 300, 'cost 10 on the second bucket, 3 recorded');
    },
  ),
  test('RL-R1', 'record never throws, whatever it is given', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 4);
    const bad: [BucketKey, number, Limit?][] = [
      [k, -1],
      [k, Number.NaN],
      [k, Number.POSITIVE_INFINITY],
      [k, 'seven' as unknown as number],
      [{ venue: '', credential: 'x' }, 1],
      [null as unknown as BucketKey, 1],
      [k, 1, { capacity: -5, refillPerSec: 1 }],
    ];
    for (const [badKey, cost, limit] of bad) {
      try {
        limiter.record(badKey, cost, limit);
      } catch (error) {
        throw new Error(`record(${show(badKey)}, ${show(cost)}, ${show(limit)}) threw ${String(error)} (RL-R1: it never throws)`);
      }
    }
    await landed();
    expectBorrowed(await limiter.borrowed(k), 4, 'borrowed after the malformed records');
    await spend(limiter, k, TEN_PER_SECOND, 6, 'the bucket still serves');
  }),
  test('RL-R1', 'record never throws while the store is unreachable', ['injectableClock', 'faultHooks'], async ({ limiter, subject }) => {
    const k = key();
    await subject.breakStore?.();
    try {
      limiter.record(k, 3, TEN_PER_SECOND);
    } catch (error) {
      throw new Error(`record threw while the store was unreachable: ${String(error)}`);
    }
    await subject.repairStore?.();
  }),
  test(
    'RL-R1',
    'a record made while the store is unreachable is applied once it is back',
    ['injectableClock', 'faultHooks'],
    async ({ limiter, subject, clock }) => {
      const k = key();
      const slow: Limit = { capacity: 10, refillPerSec: 0.001 };
      await spend(limiter, k, slow, 1);
      await subject.breakStore?.();
      limiter.record(k, 3, slow);
      await subject.repairStore?.();
      // The buffer may be flushed by a later call, a real-time timer or a timer on the injected clock:
      // keep calling and let a little manual time pass (the bucket refills 0.001 per second).
      const started = Date.now();
      for (;;) {
        await limiter.checkRate(key({ axis: 'nudge' }), TEN_PER_SECOND, 1);
        const borrowed = await limiter.borrowed(k);
        if (typeof borrowed === 'number' && borrowed >= 4 - 0.01) break;
        if (Date.now() - started > clock.realTimeoutMs) {
          throw new Error(`record of 3 made while the store was unreachable was never applied: borrowed ${show(borrowed)}, expected 4`);
        }
        await clock.advance(50);
        await new Promise<void>((resolve) => setTimeout(resolve, 5));
      }
    },
  ),
  test('RL-R1', 'records made while the store stalls are applied exactly once', ['injectableClock', 'faultHooks'], async ({ limiter, subject, clock }) => {
    const k = key({ credential: null, axis: 'stalled' });
    const quota: Limit = { capacity: 1000, refillPerSec: 0 };
    const nudge = async (): Promise<unknown> => limiter.checkRate(key({ credential: null, axis: 'nudge' }), TEN_PER_SECOND, 1);
    await spend(limiter, k, quota, 1);
    await subject.breakStore?.();
    try {
      for (let i = 0; i < 10; i++) limiter.record(k, 1, quota);
      // Calls answer backend_unavailable once the store is found unresponsive (after the
      // implementation's own timeout): meanwhile a record already sent may time out and be retried,
      // though the stalled store may still apply it.
      for (let i = 0; i < 3; i++)
        expectError(
          await limiter.checkRate(key({ credential: null, axis: 'probe' }), TEN_PER_SECOND, 1),
          'backend_unavailable',
          `a probe while the store stalls (#${i + 1})`,
        );
    } finally {
      await subject.repairStore?.();
    }
    const started = Date.now();
    for (;;) {
      await nudge();
      const borrowed = await limiter.borrowed(k);
      if (typeof borrowed === 'number' && borrowed >= 11) break;
      if (Date.now() - started > clock.realTimeoutMs)
        throw new Error(`the 10 records made while the store stalled were never applied: borrowed ${show(borrowed)}, expected 11`);
      await clock.advance(50);
      await new Promise<void>((resolve) => setTimeout(resolve, 5));
    }
    // Give a record sent twice every chance to land twice.
    for (let i = 0; i < 10; i++) {
      await nudge();
      await clock.advance(50);
      await new Promise<void>((resolve) => setTimeout(resolve, 20));
    }
    expectBorrowed(await limiter.borrowed(k), 11, 'borrowed after 1 spent and 10 records of 1 (each applied once)');
  }),
  test('RL-R2', 'sync raises a fixed quota to what the venue reports, and no further', ['injectableClock', 'sync'], async ({ limiter }) => {
    const k = key({ axis: 'quota-sync' });
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    await spend(limiter, k, quota, 2);
    expectDone(await limiter.sync(k, quota, 3), 'sync 3 used');
    expectBorrowed(await limiter.borrowed(k), 3, 'borrowed after the sync');
    expectDone(await limiter.sync(k, quota, 1), 'sync 1 used');
    expectBorrowed(await limiter.borrowed(k), 3, 'borrowed after a lower report');
    await spend(limiter, k, quota, 7, 'the rest of the quota');
  }),
  test('RL-R2', 'sync raises borrowed to what the venue reports and never lowers it', ['injectableClock', 'sync'], async ({ limiter }) => {
    const k = key({ venue: 'binance', credential: null, axis: 'ip' });
    const weight: Limit = { requests: 6000, periodMs: 60_000 };
    expectDone(await limiter.sync(k, weight, 50), 'sync 50 on an unknown bucket');
    expectBorrowed(await limiter.borrowed(k), 50, 'borrowed after sync 50');
    expectOkNowOrFail(await limiter.checkRate(k, weight, 10), 'cost 10');
    expectDone(await limiter.sync(k, weight, 20), 'sync 20');
    expectBorrowed(await limiter.borrowed(k), 60, 'borrowed after sync 20 (never lowered)');
    expectDone(await limiter.sync(k, weight, 6000), 'sync 6000');
    expectBorrowed(await limiter.borrowed(k), 6000, 'borrowed after sync 6000');
    expectDelay(await limiter.checkRate(k, weight, 1), 10, 'cost 1 with the bucket synced to empty');
    expectError(await limiter.sync(k, weight, -1), 'invalid_parameters', 'sync -1');
    expectError(await limiter.sync(k, weight, Number.NaN), 'invalid_parameters', 'sync NaN');
    expectBorrowed(await limiter.borrowed(k), 6000, 'borrowed after the refused syncs');
  }),
  test(
    'RL-R3',
    'penalize admits nothing before the hold ends and leaves the bucket empty then',
    ['injectableClock', 'penalize'],
    async ({ limiter, clock }) => {
      const k = key();
      await spend(limiter, k, TEN_PER_SECOND, 1);
      expectDone(await limiter.penalize(k, { forMs: 1000 }), 'penalize for 1000 ms');
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 1100, 'cost 1 under the hold');
      await clock.advance(1000);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 when the hold ends');
      await clock.advance(100);
      await spend(limiter, k, TEN_PER_SECOND, 1, 'cost 1 once a token accrued');
    },
  ),
  test('RL-R3', 'a penalty never shortens an existing one', ['injectableClock', 'penalize'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 1);
    expectDone(await limiter.penalize(k, { forMs: 5000 }), 'penalize for 5000 ms');
    expectDone(await limiter.penalize(k, { forMs: 1000 }), 'penalize for 1000 ms');
    expectDone(await limiter.penalize(k, { untilMs: clock.now() + 2000 }), 'penalize until +2000 ms');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 5100, 'cost 1 under the longest hold');
    expectDone(await limiter.penalize(k, { untilMs: clock.now() + 8000 }), 'penalize until +8000 ms');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 8100, 'cost 1 under the extended hold');
  }),
  test('RL-R3', 'a penalty on a bucket not yet defined holds it from its first use', ['injectableClock', 'penalize'], async ({ limiter }) => {
    const k = key({ axis: 'never-seen' });
    expectDone(await limiter.penalize(k, { forMs: 2000 }), 'penalize an unknown bucket');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 2100, 'the first check of the penalized bucket');
    expectError(await limiter.penalize(k, { forMs: Number.NaN }), 'invalid_parameters', 'penalize for NaN ms');
  }),
];

function expectOkNowOrFail(decision: Awaited<ReturnType<import('@core/rate-limit-contract').RateLimiter['checkRate']>>, what: string): void {
  expectTrue(decision.kind === 'ok', `${what}: expected ok now, got ${show(decision)}`);
}
