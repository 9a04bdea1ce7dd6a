import type { Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectError, expectOkNow, expectTrue, show } from '../expect.js';
import { FIVE_PER_SECOND, TEN_PER_SECOND, expectZeroCostAdmitted, key, landed, spend } from './fixtures.js';

export const ADMISSION: readonly ConformanceTest[] = [
  test('RL-A1', 'an admission debits exactly its cost', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 10), 'cost 10 on a full bucket of 10');
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after cost 10');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 on the drained bucket');
  }),
  test('RL-A1', 'the cost is honoured exactly, never priced as 1', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 7);
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 4), 100, 'cost 4 with 3 tokens left');
    await spend(limiter, k, TEN_PER_SECOND, 3, 'cost 3 with 3 tokens left');
    const other = key({ axis: 'ten-at-once' });
    expectOkNow(await limiter.checkRate(other, TEN_PER_SECOND, 10), 'cost 10 on a full bucket');
    expectDelay(await limiter.checkRate(other, TEN_PER_SECOND, 10), 1000, 'cost 10 right after');
  }),
  test('RL-A1', '10 per second: 8 then 2 are admitted, the 11th is delayed; 2 per second: ok, ok, delay', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, { requests: 10, periodMs: 1000 }, 8);
    await spend(limiter, k, { requests: 10, periodMs: 1000 }, 2);
    expectDelay(await limiter.checkRate(k, { requests: 10, periodMs: 1000 }, 1), 100, 'the 11th');
    const two = key({ axis: 'two' });
    await spend(limiter, two, { requests: 2 }, 1);
    await spend(limiter, two, { requests: 2 }, 1);
    expectDelay(await limiter.checkRate(two, { requests: 2 }, 1), 500, 'the 3rd of 2 per second');
  }),
  test('RL-A1', 'fractional costs are honoured exactly', ['injectableClock', 'fractionalCosts'], async ({ limiter }) => {
    const k = key({ venue: 'binance', credential: null, axis: 'sapi_ip' });
    const limit: Limit = { capacity: 1, refillPerSec: 1 };
    for (let i = 0; i < 4; i++) expectOkNow(await limiter.checkRate(k, limit, 0.25), `0.25 #${i + 1}`);
    expectBorrowed(await limiter.borrowed(k), 1, 'borrowed after 4 × 0.25');
    expectDelay(await limiter.checkRate(k, limit, 0.25), 250, 'a fifth 0.25');
    expectDelay(await limiter.checkRate(k, limit, 0.1), 100, 'a 0.1');
  }),
  test('RL-A2', 'a negative, NaN or infinite cost is invalid_parameters and changes nothing', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 4);
    for (const cost of [-1, -0.5, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, '1' as unknown as number, undefined as unknown as number]) {
      expectError(await limiter.checkRate(k, TEN_PER_SECOND, cost), 'invalid_parameters', `checkRate cost ${show(cost)}`);
      expectError(
        await limiter.checkRates([
          { key: key({ axis: 'other' }), limit: TEN_PER_SECOND, cost: 2 },
          { key: k, limit: TEN_PER_SECOND, cost },
        ]),
        'invalid_parameters',
        `checkRates cost ${show(cost)}`,
      );
      expectError(
        await limiter.waitForCapacity([{ key: k, limit: TEN_PER_SECOND, cost }], { maxWaitMs: 5000 }),
        'invalid_parameters',
        `waitForCapacity cost ${show(cost)}`,
      );
    }
    expectBorrowed(await limiter.borrowed(k), 4, 'borrowed after the refused costs');
    expectBorrowed(await limiter.borrowed(key({ axis: 'other' })), 0, 'the valid bucket of a refused checkRates');
    await spend(limiter, k, TEN_PER_SECOND, 6, 'the 6 left');
  }),
  test('RL-A2', 'cost 0 is admitted and changes nothing', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 0), 'cost 0 on a fresh bucket');
    expectBorrowed(await limiter.borrowed(k), 0, 'borrowed after cost 0');
    await spend(limiter, k, TEN_PER_SECOND, 10);
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 0), 'cost 0 on a drained bucket');
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after cost 0 on the drained bucket');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 on the drained bucket');
  }),
  test('RL-A2', 'cost 0 is admitted at once on a fixed quota in debt', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key({ axis: 'quota-in-debt' });
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    limiter.record(k, 15, quota);
    await landed();
    await expectZeroCostAdmitted(limiter, clock, k, quota, 15, 'a quota of 10 with 15 recorded');
  }),
  test('RL-A3', 'a refused probe changes nothing', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    for (let i = 0; i < 5; i++) expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 5), 500, `probe cost 5 #${i + 1}`);
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after the refused probes');
    await clock.advance(500);
    await spend(limiter, k, TEN_PER_SECOND, 5, 'cost 5 once 500 ms passed');
  }),
  test('RL-A3', 'a refused probe banks no accrual above capacity', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key({ venue: 'okx' });
    const limit: Limit = { capacity: 1, refillPerSec: 1 };
    await clock.advance(600_000);
    expectDelay(await limiter.checkRate(k, limit, 1000), 999_000, 'a probe of cost 1000 on capacity 1');
    await spend(limiter, k, limit, 1, 'cost 1 after the refused probe');
    expectDelay(await limiter.checkRate(k, limit, 1), 1000, 'a second cost 1');
  }),
  test('RL-A3', 'the wait is exact, rounded up to whole ms and at least 1', ['injectableClock'], async ({ limiter, clock }) => {
    const third = key({ axis: 'third' });
    const limit: Limit = { capacity: 10, refillPerSec: 3 };
    await spend(limiter, third, limit, 10);
    expectDelay(await limiter.checkRate(third, limit, 1), 334, '1 token at 3/s (333.33 ms)');
    await clock.advance(333);
    expectDelay(await limiter.checkRate(third, limit, 1), 1, '0.33 ms short');
    const noisy = key({ axis: 'noisy' });
    const per61: Limit = { requests: 1, periodMs: 61 };
    await spend(limiter, noisy, per61, 1);
    expectDelay(await limiter.checkRate(noisy, per61, 1), 61, '1 per 61 ms (1000/(1000/61) is 61.00000000000001 in floats)');
  }),
  test('RL-A3', 'a refused multi-bucket probe rewrites no definition', ['injectableClock'], async ({ limiter, clock }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    await spend(limiter, a, TEN_PER_SECOND, 5);
    await spend(limiter, b, TEN_PER_SECOND, 10);
    const faster: Limit = { capacity: 100, refillPerSec: 100 };
    expectDelay(
      await limiter.checkRates([
        { key: a, limit: faster, cost: 1 },
        { key: b, limit: TEN_PER_SECOND, cost: 1 },
      ]),
      100,
      'a refused call that redefines bucket a',
    );
    await clock.advance(100);
    expectBorrowed(await limiter.borrowed(a), 4, 'bucket a 100 ms later, still refilling at 10/s');
  }),
  test('RL-A4', 'burst is capped at capacity after any idle time', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, FIVE_PER_SECOND, 1);
    for (const idle of [1_000, 60_000, 3_600_000]) {
      await clock.advance(idle);
      let admitted = 0;
      for (let i = 0; i < 20; i++) {
        const d = await limiter.checkRate(k, FIVE_PER_SECOND, 1);
        if (d.kind === 'ok') admitted++;
      }
      expectTrue(admitted === 5, `after ${idle} ms idle, ${admitted} of cost 1 were admitted at once on capacity 5`);
      expectDelay(await limiter.checkRate(k, FIVE_PER_SECOND, 1), 200, `the next after ${idle} ms idle`);
    }
  }),
  test('RL-A5', 'a probe above capacity waits (cost − capacity)/refill and is never exempt', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    expectDelay(await limiter.checkRate(k, FIVE_PER_SECOND, 8), 600, 'cost 8 on a full bucket of 5 at 5/s');
    await clock.advance(600);
    expectDelay(await limiter.checkRate(k, FIVE_PER_SECOND, 8), 600, 'cost 8 again: a refused probe banks nothing');
    expectBorrowed(await limiter.borrowed(k), 0, 'borrowed after the refused probes');
  }),
  test(
    'RL-A5',
    'a booking above capacity sends once the whole cost accrued and leaves the bucket at zero',
    ['injectableClock', 'bookings'],
    async ({ limiter, clock }) => {
      const k = key();
      const t0 = clock.now();
      expectBooked(await limiter.checkRate(k, FIVE_PER_SECOND, 8, { maxWaitMs: 1000 }), t0, 600, 'a booking of cost 8');
      await clock.advance(600);
      expectBorrowed(await limiter.borrowed(k), 5, 'borrowed at the send time (empty)');
      expectDelay(await limiter.checkRate(k, FIVE_PER_SECOND, 1), 200, 'cost 1 at the send time');
    },
  ),
  test('RL-A6', 'fifty concurrent probes admit exactly the capacity', ['injectableClock'], async ({ limiter }) => {
    const k = key();
    const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.checkRate(k, TEN_PER_SECOND, 1)));
    const admitted = decisions.filter((d) => d.kind === 'ok').length;
    expectTrue(admitted === 10, `${admitted} of 50 concurrent probes were admitted on capacity 10`);
    expectTrue(
      decisions.every((d) => d.kind === 'ok' || d.kind === 'delay'),
      `unexpected answers: ${show(decisions.filter((d) => d.kind === 'error'))}`,
    );
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after the burst');
  }),
];
