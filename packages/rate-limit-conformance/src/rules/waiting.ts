import type { Decision, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import {
  expectBooked,
  expectDone,
  expectBorrowed,
  expectDelay,
  expectEqual,
  expectError,
  expectOk,
  expectOkNow,
  expectPlainNumbers,
  expectTrue,
  show,
} from '../expect.js';
import { TEN_PER_SECOND, expectPending, key, settled, spend, startWait } from './fixtures.js';

const _ONE_PER_SECOND: Limit = { capacity: 1, refillPerSec: 1 };

export const WAITING: readonly ConformanceTest[] = [
  test('RL-W1', 'a wait within the budget books the cost now and names the send time', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    const t0 = clock.now();
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 3, { maxWaitMs: 1000 }), t0, 300, 'a booking of cost 3');
    expectBorrowed(await limiter.borrowed(k), 13, 'borrowed with the booking');
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 400, 'a probe behind the booking');
    expectBooked(await limiter.checkRates([{ key: k, limit: TEN_PER_SECOND, cost: 2 }], { maxWaitMs: 1000 }), t0, 500, 'a second booking through checkRates');
  }),
  test('RL-W1', "a booking's waitMs is exact, never rounded, and its kind is never ok", ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    const third: Limit = { capacity: 10, refillPerSec: 3 };
    await spend(limiter, k, third, 10);
    const t0 = clock.now();
    expectBooked(await limiter.checkRate(k, third, 1, { maxWaitMs: 1000 }), t0, 1000 / 3, 'a booking of 1 at 3/s (333.33… ms)');
    expectBooked(await limiter.checkRates([{ key: k, limit: third, cost: 1 }], { maxWaitMs: 1000 }), t0, 2000 / 3, 'a second booking of 1 (666.66… ms)');
    expectDelay(await limiter.checkRate(k, third, 1), 1000, 'a probe behind both bookings: whole ms, rounded up');
  }),
  test('RL-W2', 'a heavy waiter is never starved by cheap traffic', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    const t0 = clock.now();
    const heavy = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 8 }], { maxWaitMs: 2000 });
    let cheapAdmitted = 0;
    for (let i = 0; i < 40; i++) {
      await clock.advance(20);
      const d = await limiter.checkRate(k, TEN_PER_SECOND, 1);
      if (d.kind === 'ok') cheapAdmitted++;
      else if (d.kind === 'delay') expectEqual(d.retryAfterMs, t0 + 900 - clock.now(), `cheap probe at +${clock.now() - t0} ms: retryAfterMs`);
    }
    expectTrue(cheapAdmitted === 0, `${cheapAdmitted} cheap calls were admitted ahead of the heavy booking`);
    const d = expectOk(await settled(heavy, 'the heavy waiter'), 'the heavy waiter');
    expectEqual(d.sendAtMs, t0 + 800, 'the heavy waiter: sendAtMs');
  }),
  test('RL-W2', 'later bookings queue behind earlier ones, cheap or heavy', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    const t0 = clock.now();
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 5, { maxWaitMs: 5000 }), t0, 500, 'the first booking (cost 5)');
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 1, { maxWaitMs: 5000 }), t0, 600, 'a cheap booking after it');
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 8, { maxWaitMs: 5000 }), t0, 1400, 'a heavy booking after both');
    await clock.advance(500);
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 1000, 'a probe at the first send time');
  }),
  test(
    'RL-W2',
    'a booking made through one limiter holds for another sharing the store',
    ['injectableClock', 'bookings', 'distributed', 'peer'],
    async ({ limiter, clock, peer }) => {
      const other = await peer();
      const k = key();
      await spend(limiter, k, TEN_PER_SECOND, 10);
      const t0 = clock.now();
      const heavy = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 8 }], { maxWaitMs: 2000 });
      expectDelay(await other.checkRate(k, TEN_PER_SECOND, 1), 900, 'a cheap probe through the other limiter');
      expectBooked(await other.checkRate(k, TEN_PER_SECOND, 2, { maxWaitMs: 2000 }), t0, 1000, 'a booking through the other limiter');
      await clock.advance(800);
      expectOk(await settled(heavy, 'the heavy waiter'), 'the heavy waiter');
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 300, 'a probe behind both bookings');
    },
  ),
  test('RL-W3', 'a wait beyond the budget books nothing and answers the required wait', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 5, { maxWaitMs: 100 }), 500, 'cost 5 with a 100 ms budget');
    expectDelay(await limiter.checkRates([{ key: k, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 499 }), 500, 'checkRates with a 499 ms budget');
    expectBorrowed(await limiter.borrowed(k), 10, 'borrowed after the refusals');
    await clock.advance(100);
    await spend(limiter, k, TEN_PER_SECOND, 1, 'cost 1 after 100 ms');
  }),
  test('RL-W4', 'booking never lets anyone burst above capacity', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    const t0 = clock.now();
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 10, { maxWaitMs: 2000 }), t0, 1000, 'a booking of the whole capacity');
    await clock.advance(1000);
    expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, "cost 1 at the booking's send time");
    await clock.advance(5000);
    let admitted = 0;
    for (let i = 0; i < 15; i++) if ((await limiter.checkRate(k, TEN_PER_SECOND, 1)).kind === 'ok') admitted++;
    expectEqual(admitted, 10, 'cost-1 probes admitted after the bucket refilled');
  }),
  test(
    'RL-W5',
    'an aborted waiter returns its booking when nothing was charged after it',
    ['injectableClock', 'bookings', 'abortSignal'],
    async ({ limiter, clock }) => {
      const k = key();
      await spend(limiter, k, TEN_PER_SECOND, 10);
      const controller = new AbortController();
      const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000, signal: controller.signal });
      expectPending(waiter, 'the waiter before its send time');
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed with the booking');
      await clock.advance(200);
      controller.abort();
      expectError(await settled(waiter, 'the aborted waiter'), 'aborted', 'the aborted waiter');
      expectBorrowed(await limiter.borrowed(k), 8, 'borrowed once the booking is returned');
      await clock.advance(300);
      await spend(limiter, k, TEN_PER_SECOND, 5, 'cost 5 at the abandoned send time');
    },
  ),
  test(
    'RL-W5',
    'an aborted waiter forfeits its slot when a later booking was charged after it',
    ['injectableClock', 'bookings', 'abortSignal'],
    async ({ limiter, clock }) => {
      const k = key();
      await spend(limiter, k, TEN_PER_SECOND, 10);
      const t0 = clock.now();
      const controller = new AbortController();
      const first = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000, signal: controller.signal });
      expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 5, { maxWaitMs: 2000 }), t0, 1000, 'a second booking behind the waiter');
      controller.abort();
      expectError(await settled(first, 'the aborted waiter'), 'aborted', 'the aborted waiter');
      await clock.advance(500);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 600, 'cost 1 at the forfeited send time');
    },
  ),
  test(
    'RL-W5',
    'an aborted waiter stays forfeited when the later booking written after it was returned first',
    ['injectableClock', 'bookings', 'abortSignal'],
    async ({ limiter, clock }) => {
      const k = key();
      await spend(limiter, k, TEN_PER_SECOND, 10);
      const firstAbort = new AbortController();
      const first = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000, signal: firstAbort.signal });
      const secondAbort = new AbortController();
      const second = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 3 }], { maxWaitMs: 2000, signal: secondAbort.signal });
      expectBorrowed(await limiter.borrowed(k), 18, 'borrowed with both bookings');
      secondAbort.abort();
      expectError(await settled(second, 'the later waiter'), 'aborted', 'the later waiter');
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed once the later booking is returned');
      // the return of the later booking is a write after the first one: returning the first now would put back a
      // state older than that write
      firstAbort.abort();
      expectError(await settled(first, 'the earlier waiter'), 'aborted', 'the earlier waiter');
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed after the earlier waiter forfeited its slot');
    },
  ),
  test(
    'RL-W5',
    'an aborted waiter forfeits its slot when a sync that changed nothing was written after it',
    ['injectableClock', 'bookings', 'abortSignal', 'sync'],
    async ({ limiter, clock }) => {
      const k = key();
      await spend(limiter, k, TEN_PER_SECOND, 10);
      const controller = new AbortController();
      const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000, signal: controller.signal });
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed with the booking');
      // the venue reports 12 in use: below the 15 the booking left, so the sync changes nothing
      expectDone(await limiter.sync(k, TEN_PER_SECOND, 12), 'sync 12 behind the booking');
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed after the sync that changed nothing');
      controller.abort();
      expectError(await settled(waiter, 'the aborted waiter'), 'aborted', 'the aborted waiter');
      // returning the booking would drop borrowed to 10, under the floor of 12 the venue reported (RL-R2)
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed once the booking is forfeited');
      await clock.advance(500);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, 'cost 1 at the forfeited send time');
    },
  ),
  test(
    'RL-W5',
    'an aborted waiter forfeits its slot when a penalty that changed nothing was written after it',
    ['injectableClock', 'bookings', 'abortSignal', 'penalize'],
    async ({ limiter, clock }) => {
      const k = key();
      await spend(limiter, k, TEN_PER_SECOND, 10);
      const controller = new AbortController();
      const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000, signal: controller.signal });
      // a hold for 300 ms leaves the bucket empty at 300 ms (tat 1300 ms): under the booking's 1500 ms
      expectDone(await limiter.penalize(k, { forMs: 300 }), 'a 300 ms penalty behind the booking');
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed after the penalty that changed nothing');
      controller.abort();
      expectError(await settled(waiter, 'the aborted waiter'), 'aborted', 'the aborted waiter');
      // returning the booking would let cost 1 through at 300 ms, when the penalty says empty (RL-R3)
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed once the booking is forfeited');
      await clock.advance(300);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 300, 'cost 1 when the penalty ends, behind the forfeited slot');
    },
  ),
  test(
    'RL-W5',
    'an aborted multi-bucket waiter returns its booking on every bucket',
    ['injectableClock', 'bookings', 'abortSignal'],
    async ({ limiter, clock }) => {
      const a = key({ axis: 'a' });
      const b = key({ axis: 'b' });
      await spend(limiter, a, TEN_PER_SECOND, 10);
      const controller = new AbortController();
      const waiter = await startWait(
        limiter,
        clock,
        [
          { key: a, limit: TEN_PER_SECOND, cost: 3 },
          { key: b, limit: TEN_PER_SECOND, cost: 4 },
        ],
        { maxWaitMs: 2000, signal: controller.signal },
      );
      // b pays its 4 as of the common send time, 300 ms from now (RL-M5): borrowed now reads 3 + 4.
      expectBorrowed(await limiter.borrowed(b), 7, 'bucket b with the booking');
      controller.abort();
      expectError(await settled(waiter, 'the aborted waiter'), 'aborted', 'the aborted waiter');
      expectBorrowed(await limiter.borrowed(a), 10, 'bucket a once the booking is returned');
      expectBorrowed(await limiter.borrowed(b), 0, 'bucket b once the booking is returned');
    },
  ),
  test(
    'RL-W5',
    'the aborted answer says whether the booking was returned or forfeited',
    ['injectableClock', 'bookings', 'abortSignal'],
    async ({ limiter, clock }) => {
      const kept = key({ axis: 'kept' });
      await spend(limiter, kept, TEN_PER_SECOND, 10);
      const first = new AbortController();
      const returned = await startWait(limiter, clock, [{ key: kept, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000, signal: first.signal });
      first.abort();
      const r = expectError(await settled(returned, 'a waiter with nothing charged after it'), 'aborted', 'a waiter with nothing charged after it').error
        .message;
      expectTrue(/return/i.test(r), `the aborted answer of a returned booking does not say so: ${show(r)}`);
      const lost = key({ axis: 'lost' });
      await spend(limiter, lost, TEN_PER_SECOND, 10);
      const second = new AbortController();
      const forfeited = await startWait(limiter, clock, [{ key: lost, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000, signal: second.signal });
      expectBooked(await limiter.checkRate(lost, TEN_PER_SECOND, 1, { maxWaitMs: 2000 }), clock.now(), 600, 'a booking behind the waiter');
      second.abort();
      const f = expectError(await settled(forfeited, 'a waiter with a booking after it'), 'aborted', 'a waiter with a booking after it').error.message;
      expectTrue(/forfeit/i.test(f), `the aborted answer of a forfeited booking does not say so: ${show(f)}`);
      expectTrue(f !== r, `the aborted answers of a returned and a forfeited booking are alike: ${show(f)}`);
    },
  ),
  test('RL-W6', 'waitForCapacity resolves ok at once when there is room', [], async ({ limiter }) => {
    expectOkNow(await limiter.waitForCapacity([{ key: key(), limit: TEN_PER_SECOND, cost: 3 }], { maxWaitMs: 1000 }), 'a wait with room');
    expectOkNow(await limiter.waitForCapacity([{ key: key(), limit: TEN_PER_SECOND, cost: 3 }]), 'a wait with room and the default budget');
  }),
  test('RL-W6', 'waitForCapacity resolves ok at, not before, the send time', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    const t0 = clock.now();
    const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 3 }], { maxWaitMs: 1000 });
    await clock.advance(299);
    expectPending(waiter, 'the waiter 1 ms before its send time');
    await clock.advance(1);
    const d = expectOk(await settled(waiter, 'the waiter at its send time'), 'the waiter');
    expectEqual(d.sendAtMs, t0 + 300, 'sendAtMs');
  }),
  test('RL-W6', 'a wait beyond the budget resolves rate_limit_timeout naming the wait, nothing spent', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    const slow: Limit = { capacity: 1, refillPerSec: 0.001 };
    await spend(limiter, k, slow, 1);
    const timers = clock.pendingTimers;
    const e = expectError(
      await limiter.waitForCapacity([{ key: k, limit: slow, cost: 1 }], { maxWaitMs: 1000 }),
      'rate_limit_timeout',
      'a wait of 1 000 000 ms with a 1000 ms budget',
    );
    expectEqual(e.error.retryAfterMs, 1_000_000, 'retryAfterMs of the timeout');
    expectEqual(clock.pendingTimers, timers, 'pending timers after the timeout');
    expectBorrowed(await limiter.borrowed(k), 1, 'borrowed after the timeout');
  }),
  test('RL-W6', "a timeout's message shows plain numbers", ['injectableClock'], async ({ limiter }) => {
    const slow = key({ credential: null, axis: 'slow' });
    const perThousandSeconds: Limit = { capacity: 1, refillPerSec: 0.001 };
    await spend(limiter, slow, perThousandSeconds, 1);
    const noisyBudget = 9999.99951171875; // what a budget left after a fractional clock reading looks like
    const e = expectError(
      await limiter.waitForCapacity([{ key: slow, limit: perThousandSeconds, cost: 1 }], { maxWaitMs: noisyBudget }),
      'rate_limit_timeout',
      'a wait of 1 000 000 ms',
    );
    expectPlainNumbers(e.error.message, 1e-6, 'the timeout against a budget of 9999.99951171875 ms');
    const third = key({ credential: null, axis: 'third' });
    const threePerSecond: Limit = { capacity: 1, refillPerSec: 3 };
    await spend(limiter, third, threePerSecond, 1);
    const t = expectError(
      await limiter.waitForCapacity([{ key: third, limit: threePerSecond, cost: 1 }], { maxWaitMs: 100 }),
      'rate_limit_timeout',
      'a wait of 333.33… ms',
    );
    expectEqual(t.error.retryAfterMs, 334, 'retryAfterMs of a wait of 333.33… ms');
    expectPlainNumbers(t.error.message, 1e-6, 'the timeout of a wait of 333.33… ms');
  }),
  test('RL-W6', 'two waiters with budgets 40 and 1000 ms get rate_limit_timeout and ok', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    const limit: Limit = { capacity: 1, refillPerSec: 20 };
    await spend(limiter, k, limit, 1);
    const short = await startWait(limiter, clock, [{ key: k, limit, cost: 1 }], { maxWaitMs: 40 });
    const long = await startWait(limiter, clock, [{ key: k, limit, cost: 1 }], { maxWaitMs: 1000 });
    await clock.advance(50);
    expectError(await settled(short, 'the 40 ms waiter'), 'rate_limit_timeout', 'the 40 ms waiter');
    expectOk(await settled(long, 'the 1000 ms waiter'), 'the 1000 ms waiter');
  }),
  test('RL-W6', 'the budget defaults to 10 000 ms', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const fits = key({ axis: 'fits' });
    const per10s: Limit = { requests: 1, periodMs: 10_000 };
    await spend(limiter, fits, per10s, 1);
    const waiter = await startWait(limiter, clock, [{ key: fits, limit: per10s, cost: 1 }]);
    expectPending(waiter, 'a wait of exactly 10 000 ms');
    const over = key({ axis: 'over' });
    const per10001: Limit = { requests: 1, periodMs: 10_001 };
    await spend(limiter, over, per10001, 1);
    const e = expectError(await limiter.waitForCapacity([{ key: over, limit: per10001, cost: 1 }]), 'rate_limit_timeout', 'a wait of 10 001 ms');
    expectEqual(e.error.retryAfterMs, 10_001, 'retryAfterMs');
    await clock.advance(10_000);
    expectOk(await settled(waiter, 'the 10 000 ms waiter'), 'the 10 000 ms waiter');
  }),
  test('RL-W6', 'the budget must be a positive finite number', [], async ({ limiter }) => {
    const k = key();
    for (const maxWaitMs of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '100' as unknown as number]) {
      expectError(
        await limiter.waitForCapacity([{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { maxWaitMs }),
        'invalid_parameters',
        `waitForCapacity maxWaitMs ${show(maxWaitMs)}`,
      );
      expectError(await limiter.checkRate(k, TEN_PER_SECOND, 1, { maxWaitMs }), 'invalid_parameters', `checkRate maxWaitMs ${show(maxWaitMs)}`);
    }
    expectBorrowed(await limiter.borrowed(k), 0, 'borrowed after the refused budgets');
  }),
  test('RL-W6', 'an aborted signal resolves aborted and spends nothing', ['injectableClock', 'abortSignal'], async ({ limiter }) => {
    const k = key();
    const signal = AbortSignal.abort();
    expectError(
      await limiter.waitForCapacity([{ key: k, limit: TEN_PER_SECOND, cost: 3 }], { maxWaitMs: 1000, signal }),
      'aborted',
      'a wait with an aborted signal',
    );
    expectBorrowed(await limiter.borrowed(k), 0, 'borrowed after the aborted wait');
    expectError(
      await limiter.waitForCapacity([{ key: k, limit: TEN_PER_SECOND, cost: 3 }], { maxWaitMs: 1000, signal: 'stop' as unknown as AbortSignal }),
      'invalid_parameters',
      'a signal that is not an AbortSignal',
    );
  }),
  test('RL-W7', 'a waiter starts at most one timer and never polls', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    const before = clock.timersCreated;
    const waiter = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 5 }], { maxWaitMs: 2000 });
    for (let i = 0; i < 10; i++) await clock.advance(50);
    expectOk(await settled(waiter, 'the waiter'), 'the waiter');
    const started = clock.timersCreated - before;
    expectTrue(started <= 1, `one waiter started ${started} timers on the injected clock (at most one, never a polling loop)`);
    expectEqual(clock.pendingTimers, 0, 'pending timers once the waiter resolved');
  }),
  test('RL-W7', 'after close() no timer is pending and every wait resolves closed', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    const waiters = [];
    for (let i = 0; i < 3; i++) waiters.push(await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 2 }], { maxWaitMs: 5000 }));
    expectTrue(clock.pendingTimers <= 3, `three waiters keep ${clock.pendingTimers} timers pending`);
    await limiter.close();
    for (const [i, waiter] of waiters.entries()) expectError(await settled(waiter, `waiter ${i + 1}`), 'closed', `waiter ${i + 1} after close()`);
    expectEqual(clock.pendingTimers, 0, 'pending timers after close()');
    const later: Decision = await limiter.checkRate(k, TEN_PER_SECOND, 1);
    expectError(later, 'closed', 'checkRate after close()');
  }),
];
