import type { BucketKey, Decision, ErrorResult, Limit, PeekDecision, RateLimiter, WaitDecision } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectDone, expectEqual, expectError, expectOkNow, expectTrue, fail, show } from '../expect.js';
import { TEN_PER_SECOND, key, landed, spend } from './fixtures.js';

/** A finite cost whose wait at refill 1 overflows to infinity in milliseconds. */
const HUGE = 1e308;
/** capacity 10, refill 1/s: one token per second. */
const ONE_PER_SECOND: Limit = { capacity: 10, refillPerSec: 1 };
/** A clock reading of the size of epoch milliseconds (November 2023), where a float's last bit is worth 0.24 µs. */
const EPOCH_SIZED_MS = 1.7e12;
/** capacity 1, refill 3/s: a token every 1000/3 ms, a span no float sum near {@link EPOCH_SIZED_MS} hits exactly. */
const ONE_PER_THIRD: Limit = { capacity: 1, refillPerSec: 3 };
/** capacity 1, refill 10 000/s: a bucket of a tenth of a millisecond, its tolerance 1e-10 ms. */
const TENTH_OF_A_MS: Limit = { capacity: 1, refillPerSec: 10_000 };
/** The largest wait that can still be represented (RL-A7). */
const HORIZON_MS = 1e15;
/** An axis name that cannot be mistaken for another word of a message. */
const AXIS = 'huge-costs';

/**
 * Fails unless the answer is `cost_unpayable` for a wait that cannot be represented: a message that
 * says so and names the bucket's venue and axis (never a fixed quota, never `internal`), and the
 * bucket's path in the call when given (RL-A7).
 */
function expectUnrepresentable(result: Decision | PeekDecision | WaitDecision, bucket: BucketKey, path: string | undefined, what: string): void {
  const e = expectError(result, 'cost_unpayable', what);
  const { message } = e.error;
  expectTrue(!/fixed quota|refill 0|never refills/i.test(message), `${what}: the message speaks of a fixed quota for a bucket that refills: ${show(message)}`);
  expectTrue(/represent/i.test(message), `${what}: the message does not say the wait cannot be represented: ${show(message)}`);
  expectTrue(
    message.includes(bucket.venue) && message.includes(bucket.axis ?? 'request'),
    `${what}: the message does not name the bucket's venue and axis: ${show(message)}`,
  );
  if (path !== undefined) expectEqual(e.error.path, path, `${what}: error.path`);
}

/**
 * Fails unless the bucket admits nothing: probes answer `delay` with a huge wait or
 * `cost_unpayable`, a wait times out or is `cost_unpayable`, and borrowed is at least the capacity.
 */
async function expectAdmitsNothing(limiter: RateLimiter, k: BucketKey, limit: Limit, capacity: number, what: string): Promise<void> {
  const refused = (d: Decision | PeekDecision | WaitDecision | ErrorResult, call: string, delayKind: 'delay' | 'rate_limit_timeout'): void => {
    if (d.kind === 'delay' && delayKind === 'delay') {
      expectTrue(d.retryAfterMs >= 1e12, `${what}: ${call} answered a delay of ${d.retryAfterMs} ms; the bucket should be held for ages`);
      return;
    }
    if (d.kind === 'error' && (d.error.code === 'cost_unpayable' || d.error.code === delayKind)) return;
    fail(`${what}: ${call} answered ${show(d)}; expected ${delayKind === 'delay' ? 'a huge delay' : 'rate_limit_timeout'} or cost_unpayable`);
  };
  refused(await limiter.checkRate(k, limit, 1), 'a probe of cost 1', 'delay');
  refused(await limiter.peek([{ key: k, limit, cost: 1 }]), 'peek of cost 1', 'delay');
  refused(await limiter.checkRate(k, limit, 1, { maxWaitMs: 60_000 }), 'a booking of cost 1 with a minute of budget', 'delay');
  refused(
    await limiter.waitForCapacity([{ key: k, limit, cost: 1 }], { maxWaitMs: 60_000 }),
    'waitForCapacity of cost 1 with a minute of budget',
    'rate_limit_timeout',
  );
  const borrowed = await limiter.borrowed(k);
  expectTrue(typeof borrowed === 'number' && borrowed >= capacity, `${what}: borrowed ${show(borrowed)}, expected at least the capacity ${capacity}`);
}

export const TOLERANCE_AND_HORIZON: readonly ConformanceTest[] = [
  test(
    'RL-A7',
    'the tolerance is relative: sub-unit quotas admit exactly what the same quota scaled up admits',
    ['injectableClock', 'fractionalCosts'],
    async ({ limiter }) => {
      // (A bucket that refills compares send times: its tolerance, 1e-9 of tau, is finer than a
      // millisecond clock's float resolution for sub-unit buckets, so quotas show the rule.)
      const cases: readonly [Limit, number, number][] = [
        [{ capacity: 1e-9, refillPerSec: 0 }, 1e-10, 10],
        [{ capacity: 5e-10, refillPerSec: 0 }, 1e-10, 5],
        [{ capacity: 10, refillPerSec: 0 }, 1, 10],
      ];
      for (const [i, [limit, cost, admits]] of cases.entries()) {
        const k = key({ credential: null, axis: `scaled-${'abc'[i]}` });
        let admitted = 0;
        const refusals: Decision[] = [];
        for (let n = 0; n < 3 * admits; n++) {
          const d = await limiter.checkRate(k, limit, cost);
          if (d.kind === 'ok') admitted++;
          else refusals.push(d);
        }
        expectEqual(admitted, admits, `cost ${cost} again and again on ${show(limit)}: admitted at once`);
        const first = refusals[0];
        if (first === undefined) fail(`cost ${cost} on ${show(limit)}: nothing was refused`);
        expectError(first, 'cost_unpayable', `cost ${cost} on the used-up ${show(limit)}`);
      }
    },
  ),
  test(
    'RL-A7',
    'a wait that cannot be represented is cost_unpayable with a true message, from every admission method',
    ['injectableClock'],
    async ({ limiter }) => {
      const k = key({ credential: null, axis: AXIS });
      const other = key({ credential: null, axis: 'orders' });
      const pair = [
        { key: other, limit: TEN_PER_SECOND, cost: 1 },
        { key: k, limit: ONE_PER_SECOND, cost: HUGE },
      ];
      expectUnrepresentable(await limiter.checkRate(k, ONE_PER_SECOND, HUGE), k, undefined, 'checkRate of cost 1e308 at refill 1/s');
      expectUnrepresentable(await limiter.checkRate(k, ONE_PER_SECOND, HUGE, { maxWaitMs: 1000 }), k, undefined, 'checkRate of cost 1e308 with a budget');
      expectUnrepresentable(await limiter.checkRates(pair), k, 'checks[1]', 'checkRates with cost 1e308 second');
      expectUnrepresentable(await limiter.checkRates(pair, { maxWaitMs: 1000 }), k, 'checks[1]', 'checkRates with cost 1e308 second and a budget');
      expectUnrepresentable(await limiter.peek(pair), k, 'checks[1]', 'peek with cost 1e308 second');
      expectUnrepresentable(await limiter.waitForCapacity(pair, { maxWaitMs: 1000 }), k, 'checks[1]', 'waitForCapacity with cost 1e308 second');
      expectBorrowed(await limiter.borrowed(k), 0, 'the bucket of the refused costs');
      expectBorrowed(await limiter.borrowed(other), 0, 'the other bucket of the refused calls');
    },
  ),
  test('RL-A7', 'a finite wait beyond 1e15 ms is cost_unpayable; up to it, a delay', ['injectableClock'], async ({ limiter }) => {
    const k = key({ credential: null, axis: AXIS });
    // from a full bucket of 10 at 1/s, cost c waits (c − 10) seconds
    expectUnrepresentable(await limiter.checkRate(k, ONE_PER_SECOND, 2e12), k, undefined, 'cost 2e12: a wait of about 2e15 ms');
    expectDelay(await limiter.checkRate(k, ONE_PER_SECOND, 1e11), 99_999_999_990_000, 'cost 1e11: a wait of about 1e14 ms');
    expectBorrowed(await limiter.borrowed(k), 0, 'the bucket after the refused probes');
  }),
  test('RL-A7', 'a wait of exactly 1e15 ms is still a delay, also while a booking lies ahead', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const fresh = key({ credential: null, axis: AXIS });
    // from a full bucket of 10 at 1/s, cost c waits (c − 10) seconds
    expectDelay(await limiter.checkRate(fresh, ONE_PER_SECOND, HORIZON_MS / 1000 + 10), HORIZON_MS, 'cost 1e12 + 10 from a full bucket');
    const booked = key({ credential: null, axis: 'booked' });
    await spend(limiter, booked, ONE_PER_SECOND, 10);
    expectBooked(await limiter.checkRate(booked, ONE_PER_SECOND, 1, { maxWaitMs: 2000 }), clock.now(), 1000, 'a booking of 1 on the drained bucket');
    // 11 borrowed (drained, and the booking): cost c waits (c + 1) seconds
    expectDelay(await limiter.checkRate(booked, ONE_PER_SECOND, HORIZON_MS / 1000 - 1), HORIZON_MS, 'cost 1e12 − 1 behind the booking');
    expectUnrepresentable(await limiter.checkRate(booked, ONE_PER_SECOND, HORIZON_MS / 1000), booked, undefined, 'cost 1e12 behind the booking');
  }),
  test('RL-A7', 'a cost short of fitting by less than the tolerance goes now, by more it waits', ['injectableClock'], async ({ limiter, clock }) => {
    const within = key({ axis: 'within' });
    const beyond = key({ axis: 'beyond' });
    await spend(limiter, within, TEN_PER_SECOND, 10);
    await spend(limiter, beyond, TEN_PER_SECOND, 10);
    // tau is 1000 ms, its tolerance 1e-6 ms: half of it short of a full refill fits, five times it does not
    await clock.advance(1000 - 5e-6);
    expectDelay(await limiter.checkRate(beyond, TEN_PER_SECOND, 10), 1, 'cost 10, 5e-6 ms short of the full refill');
    await clock.advance(5e-6 - 5e-7);
    expectOkNow(await limiter.checkRate(within, TEN_PER_SECOND, 10), 'cost 10, 5e-7 ms short of the full refill', clock.now());
  }),
  test('RL-A7', 'on an epoch-sized clock a token is back only once its whole span has passed', ['injectableClock'], async ({ limiter, clock }) => {
    clock.set(EPOCH_SIZED_MS);
    const k = key({ credential: null, axis: 'epoch-clock' });
    await spend(limiter, k, ONE_PER_THIRD, 1);
    // the clock reads 1000/3 ms later as 8e-5 ms short of it (float rounding at 1.7e12): a token 2.4e-7
    // short, far beyond the tolerance of 1e-9 token. A charge rounded down with the clock would admit it.
    await clock.advance(1000 / 3);
    expectDelay(await limiter.checkRate(k, ONE_PER_THIRD, 1), 1, 'cost 1 a float-rounded 1000/3 ms after a token was spent');
    await clock.advance(1);
    await spend(limiter, k, ONE_PER_THIRD, 1, 'cost 1 a millisecond later');
  }),
  test(
    'RL-A7',
    'on an epoch-sized clock a bucket of capacity 1e-9 that refills admits what the same bucket scaled up admits',
    ['injectableClock', 'fractionalCosts'],
    async ({ limiter, clock }) => {
      clock.set(EPOCH_SIZED_MS);
      // capacity 1e-9 at refill 3 (or 7) per second spans 3.3e-7 ms, less than the float step of the clock
      // itself (2.4e-4 ms): kept on the clock, each charge of 1e-10 rounds up to a whole step and the second
      // waits; kept relative to now (MODEL.md, "State"), ten go at once, as ten of 0.1 do on capacity 1
      for (const refillPerSec of [3, 7]) {
        const limit: Limit = { capacity: 1e-9, refillPerSec };
        const k = key({ credential: null, axis: `tiny-${refillPerSec}` });
        for (let i = 1; i <= 10; i++) expectOkNow(await limiter.checkRate(k, limit, 1e-10), `cost 1e-10, the ${i}th of 10 on ${show(limit)}`, clock.now());
        expectDelay(await limiter.checkRate(k, limit, 1e-10), 1, `the 11th cost 1e-10 on ${show(limit)}`);
      }
      await clock.advance(1);
      const again = key({ credential: null, axis: 'tiny-3' });
      for (let i = 1; i <= 10; i++)
        expectOkNow(
          await limiter.checkRate(again, { capacity: 1e-9, refillPerSec: 3 }, 1e-10),
          `cost 1e-10, the ${i}th of 10 a millisecond later`,
          clock.now(),
        );
    },
  ),
  test('RL-A3', 'a wait far below a millisecond is answered as 1 ms, never 0', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key({ credential: null, axis: 'sub-ms' });
    await spend(limiter, k, TENTH_OF_A_MS, 1);
    // 5e-10 ms short of the token's 0.1 ms: beyond the tolerance (1e-10 ms), and far below a millisecond
    await clock.advance(0.1 - 5e-10);
    expectDelay(await limiter.checkRate(k, TENTH_OF_A_MS, 1), 1, 'cost 1, 5e-10 ms before the token is back');
  }),
  test('RL-R1', 'a huge finite record is applied, clamped to what can be held, never dropped', ['injectableClock'], async ({ limiter }) => {
    const fresh = key({ credential: null, axis: AXIS });
    limiter.record(fresh, HUGE, ONE_PER_SECOND);
    const live = key({ credential: null, axis: 'live' });
    await spend(limiter, live, ONE_PER_SECOND, 1);
    limiter.record(live, HUGE);
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    const fixed = key({ credential: null, axis: 'fixed-quota' });
    limiter.record(fixed, HUGE, quota);
    await landed();
    await expectAdmitsNothing(limiter, fresh, ONE_PER_SECOND, 10, 'a fresh bucket after record 1e308');
    await expectAdmitsNothing(limiter, live, ONE_PER_SECOND, 10, 'a live bucket after record 1e308 without a limit');
    await expectAdmitsNothing(limiter, fixed, quota, 10, 'a fixed quota after record 1e308');
  }),
  test('RL-R2', 'a huge finite sync is applied and clamped, never refused', ['injectableClock', 'sync'], async ({ limiter }) => {
    const k = key({ credential: null, axis: AXIS });
    expectDone(await limiter.sync(k, ONE_PER_SECOND, HUGE), 'sync 1e308');
    await expectAdmitsNothing(limiter, k, ONE_PER_SECOND, 10, 'a bucket synced to 1e308');
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    const fixed = key({ credential: null, axis: 'fixed-quota' });
    expectDone(await limiter.sync(fixed, quota, HUGE), 'sync 1e308 on a fixed quota');
    await expectAdmitsNothing(limiter, fixed, quota, 10, 'a fixed quota synced to 1e308');
  }),
  test('RL-R3', 'a huge penalty is applied and clamped, never refused', ['injectableClock', 'penalize'], async ({ limiter }) => {
    const forMs = key({ credential: null, axis: AXIS });
    const untilMs = key({ credential: null, axis: 'until' });
    await spend(limiter, forMs, ONE_PER_SECOND, 1);
    await spend(limiter, untilMs, ONE_PER_SECOND, 1);
    expectDone(await limiter.penalize(forMs, { forMs: 1e17 }), 'penalize for 1e17 ms');
    expectDone(await limiter.penalize(untilMs, { untilMs: 1e300 }), 'penalize until 1e300');
    await expectAdmitsNothing(limiter, forMs, ONE_PER_SECOND, 10, 'a bucket held for 1e17 ms');
    await expectAdmitsNothing(limiter, untilMs, ONE_PER_SECOND, 10, 'a bucket held until 1e300');
    expectDone(await limiter.penalize(forMs, { forMs: 1000 }), 'a short penalty after the huge one');
    await expectAdmitsNothing(limiter, forMs, ONE_PER_SECOND, 10, 'the bucket after the short penalty (never shortened)');
  }),
];
