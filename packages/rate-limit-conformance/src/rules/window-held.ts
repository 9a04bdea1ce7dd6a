import type { BucketCheck, BucketKey, Limit, PeekOptions, RateLimiter, RecordOptions, WaitOptions } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectEqual, expectError, expectOkNow, expectTrue, show } from '../expect.js';
import { TEN_PER_WINDOW, expectPending, key, landed, settled, spend, startWait } from './fixtures.js';

// A booked send asked about where it is held, just before it goes out (RL-V8). Times below are from the
// start of each test.

/** One in any window of 1000 ms, sends arriving up to 50 ms late: one in any 1050 ms of send times. */
const ONE_PER_WINDOW: Limit = { perWindow: 1, windowMs: 1000, jitterMs: 50 };

const HELD = ['injectableClock', 'windowLimits', 'bookings', 'heldPeeks'] as const;

/** The send admitted at `admittedAtMs` reached the venue at some time up to `latestMs` (RL-V7). */
function late(admittedAtMs: number, latestMs: number): RecordOptions {
  return { admittedAtMs, sent: { earliestMs: admittedAtMs, latestMs } };
}

/** A peek at the send of `cost` on `k` held at `heldAtMs`. */
function heldPeek(
  limiter: RateLimiter,
  k: BucketKey,
  limit: Limit,
  cost: number,
  heldAtMs: number,
  options: PeekOptions = {},
): ReturnType<RateLimiter['peek']> {
  return limiter.peek([{ key: k, limit, cost }], { ...options, heldAtMs });
}

/**
 * Send A at 0 ms, send B booked behind it at 1050 ms; B still fits where it is held. Then `mover` says A
 * reached the venue as late as 200 ms (its answer was that slow): B at 1050 ms no longer fits.
 */
async function movedOntoBooking(
  booking: RateLimiter,
  mover: RateLimiter,
  k: BucketKey,
  clock: { now(): number; advance(ms: number): Promise<void> },
): Promise<void> {
  const t0 = clock.now();
  await spend(booking, k, ONE_PER_WINDOW, 1, 'send A at 0 ms');
  const b = expectBooked(await booking.checkRate(k, ONE_PER_WINDOW, 1, { maxWaitMs: 5_000 }), t0, 1050, 'send B booked one span after A');
  expectOkNow(await heldPeek(booking, k, ONE_PER_WINDOW, 1, b.sendAtMs), 'B held at 1050 ms still fits');
  // a caller's copy of the send time may be off by a rounding: B is asked about where the store holds it
  expectOkNow(await heldPeek(booking, k, ONE_PER_WINDOW, 1, b.sendAtMs + 0.0005), 'B held at 1050.0005 ms (a rounding off) still fits');
  await clock.advance(200);
  mover.record(k, 1, ONE_PER_WINDOW, late(t0, t0 + 200));
  await landed();
  // read through the mover first: its record is in the store before this answer comes back
  expectBorrowed(await mover.borrowed(k), 2, 'A moved, and B');
  // A now counts until 1250 ms: B at 1050 ms would be the second send in a window; a new admission goes
  // after B (at 2100 ms), B still counted
  expectDelay(await heldPeek(booking, k, ONE_PER_WINDOW, 1, b.sendAtMs), 1900, 'B held at 1050 ms, A moved up to 200 ms');
  expectBorrowed(await booking.borrowed(k), 2, 'the peek changed nothing: A and B still counted');
  await clock.advance(850);
  expectDelay(await heldPeek(booking, k, ONE_PER_WINDOW, 1, b.sendAtMs), 1050, "at B's send time, 1050 ms");
}

export const WINDOW_HELD: readonly ConformanceTest[] = [
  test(
    'RL-V8',
    'a booked send fits where it is held until a send before it is moved onto its window: then delay, with the wait of a new admission',
    [...HELD],
    async ({ limiter, clock }) => {
      await movedOntoBooking(limiter, limiter, key({ axis: 'held-moved' }), clock);
    },
  ),
  test(
    'RL-V8',
    'a peek under another window definition asks the live entries as they would be under it (RL-L5), and changes nothing',
    [...HELD],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'held-redefined' });
      const t0 = clock.now();
      await spend(limiter, k, ONE_PER_WINDOW, 1, 'send A at 0 ms');
      const b = expectBooked(await limiter.checkRate(k, ONE_PER_WINDOW, 1, { maxWaitMs: 5_000 }), t0, 1050, 'send B booked one span after A');
      // one per 1200 ms: A counts until 1250 ms, so B at 1050 ms would be the second in a window; a new send
      // fits once B (held, still counted) leaves, at 2300 ms
      const longer: Limit = { perWindow: 1, windowMs: 1200, jitterMs: 50 };
      expectDelay(await heldPeek(limiter, k, longer, 1, b.sendAtMs), 2300, 'B asked about under 1 per 1200 ms');
      expectOkNow(await heldPeek(limiter, k, ONE_PER_WINDOW, 1, b.sendAtMs), 'B asked about under its own definition still fits', clock.now());
    },
  ),
  test(
    'RL-V8',
    'a send the store does not hold where asked (another time, another cost) answers ok: nothing to tell',
    [...HELD],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'held-unmatched' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
      const b = expectBooked(await limiter.checkRate(k, TEN_PER_WINDOW, 7, { maxWaitMs: 5_000 }), t0, 1050, 'cost 7 booked at 1050 ms');
      await clock.advance(300);
      limiter.record(k, 4, TEN_PER_WINDOW, late(t0, t0 + 300));
      await landed();
      expectDelay(await heldPeek(limiter, k, TEN_PER_WINDOW, 7, b.sendAtMs), undefined, 'the 7 held at 1050 ms, the 4 moved up to 300 ms');
      expectOkNow(await heldPeek(limiter, k, TEN_PER_WINDOW, 6, b.sendAtMs), 'a cost of 6 at 1050 ms: no such send is held');
      expectOkNow(await heldPeek(limiter, k, TEN_PER_WINDOW, 7, b.sendAtMs + 5), 'the 7 at 1055 ms: no such send is held');
    },
  ),
  test(
    'RL-V8',
    'the limit itself is asked, whatever the class and reserve, and token buckets among the checks are not asked',
    [...HELD, 'priorities'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'held-window' });
      const tokens = key({ axis: 'held-tokens' });
      const slow: Limit = { capacity: 1, refillPerSec: 0.001 };
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
      await spend(limiter, tokens, slow, 1, 'the token bucket spent');
      const checks: BucketCheck[] = [
        { key: k, limit: TEN_PER_WINDOW, cost: 6 },
        { key: tokens, limit: slow, cost: 1 },
      ];
      // the 6 fits beside the 4 only to the limit: bulk (its line at 8) could not have booked it, and the
      // token bucket has nothing left
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 6), 'cost 6 at 0 ms, to the limit');
      expectOkNow(
        await limiter.peek(checks, { heldAtMs: t0, priority: 'bulk', reserve: { bulk: 0.2 } }),
        'the 6 held at 0 ms, asked as bulk beside an empty token bucket',
      );
    },
  ),
  test(
    'RL-V8',
    'sends overtaken and booked again give up their entries where they were held: each goes where a new booking fits beside the others',
    [...HELD],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'held-rebooked' });
      const t0 = clock.now();
      await spend(limiter, k, TEN_PER_WINDOW, 10, 'A: the whole window at 0 ms');
      const b = expectBooked(await limiter.checkRate(k, TEN_PER_WINDOW, 7, { maxWaitMs: 5_000 }), t0, 1050, 'B: cost 7 booked at 1050 ms');
      const c = expectBooked(await limiter.checkRate(k, TEN_PER_WINDOW, 3, { maxWaitMs: 5_000 }), t0, 1050, 'C: cost 3 booked beside B');
      await clock.advance(200);
      limiter.record(k, 10, TEN_PER_WINDOW, late(t0, t0 + 200));
      await landed();
      expectDelay(await heldPeek(limiter, k, TEN_PER_WINDOW, 7, b.sendAtMs), undefined, 'B held at 1050 ms, A moved up to 200 ms');
      expectDelay(await heldPeek(limiter, k, TEN_PER_WINDOW, 3, c.sendAtMs), undefined, 'C held at 1050 ms, A moved up to 200 ms');
      const waits = [];
      for (const [what, cost, heldAtMs] of [
        ['B', 7, b.sendAtMs],
        ['C', 3, c.sendAtMs],
      ] as const) {
        waits.push({ what, waiter: await startWait(limiter, clock, [{ key: k, limit: TEN_PER_WINDOW, cost }], { heldAtMs, maxWaitMs: 5_000 }) });
      }
      // B's and C's entries at 1050 ms given up: both fit at 1250 ms, when A leaves (10 in all there); kept, they
      // would count 10 more until 2100 ms and push both past it
      expectBorrowed(await limiter.borrowed(k), 10, 'A until 1250 ms, then B and C: nothing counted twice');
      await clock.advance(1049);
      for (const w of waits) expectPending(w.waiter, `${w.what} booked again: not before 1250 ms`);
      await clock.advance(1);
      for (const w of waits) expectOkNow(await settled(w.waiter, `${w.what} at 1250 ms`), `${w.what} booked again goes at 1250 ms`, t0 + 1250);
    },
  ),
  test('RL-V8', 'a wait that booked says so on its ok (booked: true); one admitted at once does not', [...HELD], async ({ limiter, clock }) => {
    const k = key({ axis: 'held-marked' });
    const checks: BucketCheck[] = [{ key: k, limit: ONE_PER_WINDOW, cost: 1 }];
    const t0 = clock.now();
    const first = await settled(await startWait(limiter, clock, checks), 'the first send, at once');
    expectOkNow(first, 'the first send, at once', t0);
    expectTrue(!('booked' in first) || first.booked === undefined, `admitted at once: not booked (got ${show(first)})`);
    const second = await startWait(limiter, clock, checks, { maxWaitMs: 5_000 });
    await clock.advance(1050);
    const d = expectOkNow(await settled(second, 'the second send, booked one span later'), 'the second send at 1050 ms', t0 + 1050);
    expectEqual(d.booked, true, 'booked one span later: booked');
  }),
  test('RL-V8', 'heldAtMs must be a finite number, on a peek and on a wait', [...HELD], async ({ limiter }) => {
    const checks: BucketCheck[] = [{ key: key({ axis: 'held-invalid' }), limit: TEN_PER_WINDOW, cost: 1 }];
    for (const heldAtMs of [Number.NaN, Number.POSITIVE_INFINITY, '5', null] as unknown[]) {
      for (const [what, d] of [
        ['peek', await limiter.peek(checks, { heldAtMs } as PeekOptions)],
        ['waitForCapacity', await limiter.waitForCapacity(checks, { heldAtMs } as WaitOptions)],
      ] as const) {
        const e = expectError(d, 'invalid_parameters', `${what} with heldAtMs ${show(heldAtMs)}`);
        expectEqual(e.error.path, 'options.heldAtMs', `${what} with heldAtMs ${show(heldAtMs)}: the path names the option`);
      }
    }
  }),
  test(
    'RL-V8',
    'a send another limiter sharing the store moved onto a booking is seen by a peek at it',
    [...HELD, 'distributed', 'peer'],
    async ({ limiter, clock, peer }) => {
      await movedOntoBooking(limiter, await peer(), key({ axis: 'held-shared' }), clock);
    },
  ),
  test('RL-V8', 'a limiter without held peeks answers not_supported to a peek or a wait naming heldAtMs', ['noHeldPeeks'], async ({ limiter }) => {
    const checks: BucketCheck[] = [{ key: key({ axis: 'held-unsupported' }), limit: { capacity: 10, refillPerSec: 10 }, cost: 1 }];
    expectError(await limiter.peek(checks, { heldAtMs: 0 }), 'not_supported', 'a peek with heldAtMs');
    expectError(await limiter.waitForCapacity(checks, { heldAtMs: 0 }), 'not_supported', 'a wait with heldAtMs');
  }),
];
