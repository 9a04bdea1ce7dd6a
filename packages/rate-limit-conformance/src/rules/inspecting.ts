import type { Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectClose, expectDelay, expectDone, expectEqual, expectSnapshot, expectTrue, show } from '../expect.js';
import { TEN_PER_SECOND, key, landed, spend } from './fixtures.js';

export const INSPECTING: readonly ConformanceTest[] = [
  test('RL-I1', 'borrowed is capacity minus tokens now, and 0 for an unknown key', ['injectableClock'], async ({ limiter, clock }) => {
    const k = key();
    expectBorrowed(await limiter.borrowed(k), 0, 'an unknown key');
    await spend(limiter, k, TEN_PER_SECOND, 4);
    expectBorrowed(await limiter.borrowed(k), 4, 'after cost 4');
    await clock.advance(250);
    expectBorrowed(await limiter.borrowed(k), 1.5, '250 ms later at 10/s');
    await clock.advance(10_000);
    expectBorrowed(await limiter.borrowed(k), 0, 'once refilled');
  }),
  test('RL-I1', 'borrowed includes bookings', ['injectableClock', 'bookings'], async ({ limiter, clock }) => {
    const k = key();
    await spend(limiter, k, TEN_PER_SECOND, 10);
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 4, { maxWaitMs: 1000 }), clock.now(), 400, 'a booking of 4');
    expectBorrowed(await limiter.borrowed(k), 14, 'drained plus a booking of 4');
  }),
  test('RL-I2', 'reset forgets one bucket', ['injectableClock'], async ({ limiter }) => {
    const a = key({ axis: 'a' });
    const b = key({ axis: 'b' });
    await spend(limiter, a, TEN_PER_SECOND, 10);
    await spend(limiter, b, TEN_PER_SECOND, 10);
    expectDone(await limiter.reset(a), 'reset(a)');
    expectBorrowed(await limiter.borrowed(a), 0, 'a after reset');
    await spend(limiter, a, TEN_PER_SECOND, 10, 'a after reset');
    expectDelay(await limiter.checkRate(b, TEN_PER_SECOND, 1), 100, 'b after reset(a)');
    expectDone(await limiter.reset(key({ axis: 'unknown' })), 'reset of an unknown key');
  }),
  test('RL-I2', 'resetVenue forgets every bucket of that venue and no other', ['injectableClock'], async ({ limiter }) => {
    const okx = [key({ venue: 'okx', credential: null }), key({ venue: 'okx', credential: 'k1' }), key({ venue: 'okx', credential: 'k2', axis: 'orders' })];
    const bybit = key({ venue: 'bybit', credential: 'k1' });
    const okxLike = key({ venue: 'okx2', credential: 'k1' });
    for (const k of [...okx, bybit, okxLike]) await spend(limiter, k, TEN_PER_SECOND, 10);
    expectDone(await limiter.resetVenue('okx'), 'resetVenue("okx")');
    for (const k of okx) expectBorrowed(await limiter.borrowed(k), 0, `${show(k)} after resetVenue("okx")`);
    expectBorrowed(await limiter.borrowed(bybit), 10, 'bybit after resetVenue("okx")');
    expectBorrowed(await limiter.borrowed(okxLike), 10, 'okx2 after resetVenue("okx")');
    expectDone(await limiter.resetVenue('kraken'), 'resetVenue of a venue with no buckets');
    expectBorrowed(await limiter.borrowed(bybit), 10, 'bybit after resetVenue("kraken")');
  }),
  test(
    'RL-I2',
    "resetVenue forgets the penalties and debts of that venue's buckets not defined yet, and no other",
    ['injectableClock', 'penalize'],
    async ({ limiter }) => {
      const held = key({ venue: 'okx', credential: 'k1', axis: 'held' });
      const owing = key({ venue: 'okx', credential: 'k1', axis: 'owing' });
      const other = key({ venue: 'okx2', credential: 'k1', axis: 'held' });
      expectDone(await limiter.penalize(held, { forMs: 5000 }), 'penalize an okx bucket not defined yet');
      expectDone(await limiter.penalize(other, { forMs: 5000 }), 'penalize an okx2 bucket not defined yet');
      limiter.record(owing, 4);
      await landed();
      expectDone(await limiter.resetVenue('okx'), 'resetVenue("okx")');
      expectBorrowed(await limiter.borrowed(owing), 0, 'the okx debt after resetVenue("okx")');
      await spend(limiter, held, TEN_PER_SECOND, 10, 'the okx bucket penalized before resetVenue("okx"), now full');
      expectDelay(await limiter.checkRate(other, TEN_PER_SECOND, 1), 5100, 'the okx2 bucket keeps its penalty');
    },
  ),
  test('RL-I2', 'resetAll forgets everything', ['injectableClock'], async ({ limiter }) => {
    const keys = [key(), key({ venue: 'beta', credential: null }), key({ axis: 'ip' })];
    for (const k of keys) await spend(limiter, k, TEN_PER_SECOND, 10);
    expectDone(await limiter.resetAll(), 'resetAll()');
    for (const k of keys) {
      expectBorrowed(await limiter.borrowed(k), 0, `${show(k)} after resetAll`);
      await spend(limiter, k, TEN_PER_SECOND, 10, `${show(k)} after resetAll`);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1), 100, `${show(k)}: cost 1 once emptied after resetAll`);
    }
  }),
  test('RL-I3', 'snapshot lists live buckets with their numbers', ['injectableClock', 'snapshot'], async ({ limiter }) => {
    const limit: Limit = { requests: 20, periodMs: 2000 };
    await spend(limiter, key(), TEN_PER_SECOND, 4);
    await spend(limiter, key({ credential: null, axis: 'ip' }), limit, 5);
    const snapshot = expectSnapshot(await limiter.snapshot(), 'snapshot');
    const mine = snapshot.find((b) => b.venue === 'alpha' && b.axis === 'request');
    const pool = snapshot.find((b) => b.venue === 'alpha' && b.axis === 'ip');
    expectTrue(mine !== undefined && pool !== undefined, `expected both buckets in ${show(snapshot)}`);
    expectEqual(mine.capacity, 10, 'capacity');
    expectClose(mine.refillPerSec, 10, 'refillPerSec');
    expectClose(mine.tokens, 6, 'tokens');
    expectClose(mine.borrowed, 4, 'borrowed');
    expectTrue(typeof mine.credentialHash === 'string', `credentialHash of a credential: ${show(mine.credentialHash)}`);
    expectEqual(pool.credentialHash, null, 'credentialHash of the public pool');
    expectEqual(pool.capacity, 20, 'pool capacity');
    expectClose(pool.refillPerSec, 10, 'pool refillPerSec');
    expectClose(pool.borrowed, 5, 'pool borrowed');
    expectClose(pool.tokens, 15, 'pool tokens');
  }),
  test('RL-I3', 'snapshot leaves out a bucket from the instant it has refilled completely', ['injectableClock', 'snapshot'], async ({ limiter, clock }) => {
    const refilled = key({ axis: 'refilled' });
    const draining = key({ axis: 'draining' });
    await spend(limiter, refilled, TEN_PER_SECOND, 4);
    await spend(limiter, draining, TEN_PER_SECOND, 10);
    // 400 ms at 10/s brings back exactly the 4 spent: the first bucket is full again, as if never used
    await clock.advance(400);
    const snapshot = expectSnapshot(await limiter.snapshot(), 'snapshot 400 ms later');
    const axes = snapshot.filter((b) => b.venue === 'alpha').map((b) => b.axis);
    expectTrue(!axes.includes('refilled'), `a bucket back to full capacity is no live bucket, yet the snapshot lists it: ${show(snapshot)}`);
    expectTrue(axes.includes('draining'), `the bucket still 6 short is missing from ${show(snapshot)}`);
  }),
  test(
    'RL-I3',
    'snapshot lists exactly the live buckets: not a reset one; a hold in force as heldUntilMs; none once the hold ended and it refilled',
    ['injectableClock', 'snapshot', 'penalize'],
    async ({ limiter, clock }) => {
      const venue = 'snapshot-live';
      const plain = key({ venue, axis: 'plain' });
      const held = key({ venue, axis: 'held' });
      const gone = key({ venue, axis: 'gone' });
      for (const k of [plain, held, gone]) await spend(limiter, k, TEN_PER_SECOND, 4);
      expectDone(await limiter.reset(gone), 'reset one of the three');
      const until = clock.now() + 1000;
      expectDone(await limiter.penalize(held, { untilMs: until }), 'penalize one until 1000 ms from now');
      const snapshot = expectSnapshot(await limiter.snapshot(), 'snapshot');
      expectTrue(
        snapshot.every((b) => typeof b === 'object' && b !== null && typeof b.venue === 'string'),
        `an entry of the snapshot is no bucket: ${show(snapshot)}`,
      );
      const mine = snapshot.filter((b) => b.venue === venue);
      expectEqual(
        mine
          .map((b) => b.axis)
          .sort()
          .join(', '),
        'held, plain',
        'the live buckets of the venue',
      );
      expectEqual(mine.find((b) => b.axis === 'held')?.heldUntilMs, until, 'heldUntilMs of the held bucket');
      expectEqual(mine.find((b) => b.axis === 'plain')?.heldUntilMs, undefined, 'heldUntilMs of a bucket not held');
      // empty when the hold ends, full 1000 ms later: as if never used
      await clock.advance(2000);
      const later = expectSnapshot(await limiter.snapshot(), 'snapshot 2000 ms later');
      expectEqual(show(later.filter((b) => b.venue === venue)), show([]), 'the venue once its buckets refilled');
    },
  ),
];
