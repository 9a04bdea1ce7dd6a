import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBorrowed } from '../expect.js';
import { TEN_PER_WINDOW, key, spend, synced } from './fixtures.js';

// The edges of what a sync (RL-V5) takes as this deployment's, on 10 per 1000 ms with 50 ms of jitter. A send the
// limiter must not take as counted lies just inside an edge, by less than any slot of a sixteenth of the window: a
// limiter counting in slots leaves it out as surely as an exact log, and one that rounds an edge the wrong way by
// even one slot takes it. A send it must take lies one slot (`windowMs / K`, `capabilities.windowSlots`; 1 ms for an
// exact log) beyond `jitterMs` before the reporting request: whatever the slots' grid, the slot holding it ends by
// `sentAtMs − jitterMs`.

const SYNC = ['injectableClock', 'windowLimits', 'sync'] as const;
/** TEN_PER_WINDOW's window and jitter allowance, ms. */
const WINDOW_MS = 1000;
const JITTER_MS = 50;

export const WINDOW_SYNC_EDGES: readonly ConformanceTest[] = [
  test('RL-V5', 'a send one slot and jitterMs before the reporting request is taken as counted', [...SYNC], async ({ limiter, clock, capabilities }) => {
    const k = key({ axis: 'one-slot-before-the-edge' });
    const K = capabilities.windowSlots;
    const slot = K === undefined ? 1 : WINDOW_MS / K;
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
    await clock.advance(JITTER_MS + slot);
    await spend(limiter, k, TEN_PER_WINDOW, 1, `the reporting request a slot after 50 ms (${slot} ms)`);
    await clock.advance(5);
    // the 4 sent at 0 ms reached the venue by 50 ms, before the reporting request left: 1 of the 5 was others'
    await synced(limiter, k, 5, { sentAtMs: t0 + JITTER_MS + slot }, 'sync 5 answering the reporting request');
    expectBorrowed(await limiter.borrowed(k), 6, 'our 5 and the 1 others spent (leaving the 4 out as uncounted: 10)');
  }),
  test('RL-V5', 'a send made 45 ms before the reporting request, within jitterMs by 5 ms, is not taken as counted', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'in-flight-by-5-ms' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 3, 'cost 3 at 0 ms');
    await clock.advance(45);
    await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 45 ms');
    await clock.advance(10);
    // the 3 sent at 0 ms may reach the venue as late as 50 ms, after the reporting request did: all 4 are others'
    await synced(limiter, k, 4, { sentAtMs: t0 + 45 }, 'sync 4 answering the request sent at 45 ms');
    expectBorrowed(await limiter.borrowed(k), 8, 'our 4 and the 4 reported (taking the 3 as counted would leave 1: 5)');
  }),
  test('RL-V5', 'a send as old as the window when the venue may have counted the report is not taken as counted', [...SYNC], async ({ limiter, clock }) => {
    const k = key({ axis: 'at-the-window-start' });
    const t0 = clock.now();
    await spend(limiter, k, TEN_PER_WINDOW, 4, 'cost 4 at 0 ms');
    await clock.advance(995);
    await spend(limiter, k, TEN_PER_WINDOW, 1, 'the reporting request at 995 ms');
    await clock.advance(5);
    // counted by 1000 ms at the latest, in the 1000 ms before: the 4 sent at 0 ms may lie just outside it, so the 5
    // reported may all be others'
    await synced(limiter, k, 5, { sentAtMs: t0 + 995 }, 'sync 5 at 1000 ms answering the request sent at 995 ms');
    expectBorrowed(await limiter.borrowed(k), 10, 'our 5 and the 5 reported (taking the 4 as counted would leave 1: 6)');
  }),
];
