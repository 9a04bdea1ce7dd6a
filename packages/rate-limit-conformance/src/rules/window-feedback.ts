import type { BucketCheck, Decision, Limit } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectDone, expectEqual, expectError, expectOkNow, fail } from '../expect.js';
import { TEN_PER_SECOND, TEN_PER_WINDOW, answeredAtOnce, expectBookedWithin, expectDelayWithin, key, landed, slackOf, spend } from './fixtures.js';

const WINDOWS = ['injectableClock', 'windowLimits'] as const;

export const WINDOW_FEEDBACK: readonly ConformanceTest[] = [
  test(
    'RL-V4',
    'a full window keeps the token bucket of the same call untouched, and an empty token bucket the window',
    [...WINDOWS],
    async ({ limiter, capabilities }) => {
      const window = key({ axis: 'window' });
      const token = key({ axis: 'token' });
      await spend(limiter, window, TEN_PER_WINDOW, 10, 'a full window');
      expectDelayWithin(
        await limiter.checkRates([
          { key: token, limit: TEN_PER_SECOND, cost: 1 },
          { key: window, limit: TEN_PER_WINDOW, cost: 1 },
        ]),
        1050,
        slackOf(capabilities, TEN_PER_WINDOW),
        'token 1 + window 1 with the window full',
      );
      expectBorrowed(await limiter.borrowed(token), 0, 'the token bucket of the refused call');
      const emptyWindow = key({ axis: 'empty-window' });
      const drained = key({ axis: 'drained' });
      await spend(limiter, drained, TEN_PER_SECOND, 10, 'a drained token bucket');
      expectDelay(
        await limiter.checkRates([
          { key: emptyWindow, limit: TEN_PER_WINDOW, cost: 1 },
          { key: drained, limit: TEN_PER_SECOND, cost: 1 },
        ]),
        100,
        'window 1 + token 1 with the token bucket drained',
      );
      expectBorrowed(await limiter.borrowed(emptyWindow), 0, 'the window of the refused call');
    },
  ),
  test(
    'RL-V4',
    'one common send time, the earliest at which every bucket can pay, and every bucket charged as of it',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const a = key({ axis: 'a' });
      const b = key({ axis: 'b' });
      const d = key({ axis: 'd' });
      const t = key({ axis: 't' });
      const A: Limit = { perWindow: 1, windowMs: 1000 };
      const B: Limit = { perWindow: 1, windowMs: 500 };
      const D: Limit = { requests: 1, periodMs: 1200 };
      const t0 = clock.now();
      await spend(limiter, a, A, 1, 'a: its one send at 0 ms (room again one window later)');
      await spend(limiter, d, D, 1, 'd: its one token at 0 ms (the next at 1200 ms)');
      // d is the slowest: the window b is charged as of 1200 ms, not now
      expectBooked(
        await limiter.checkRates(
          [
            { key: b, limit: B, cost: 1 },
            { key: d, limit: D, cost: 1 },
          ],
          { maxWaitMs: 5000 },
        ),
        t0,
        1200,
        'b + d: booked when d can pay',
      );
      // b is free now, but its booking at 1200 ms closes the times whose windows hold it: a + b fit together only once it leaves
      expectOkNow(await limiter.peek([{ key: b, limit: B, cost: 1 }]), 'peek b alone', t0);
      expectDelayWithin(await limiter.peek([{ key: a, limit: A, cost: 1 }]), 1000, slackOf(capabilities, A), 'peek a alone');
      const abt: BucketCheck[] = [
        { key: a, limit: A, cost: 1 },
        { key: b, limit: B, cost: 1 },
        { key: t, limit: TEN_PER_SECOND, cost: 4 },
      ];
      const wait = expectDelayWithin(await limiter.checkRates(abt), 1700, slackOf(capabilities, B), 'a + b + t: the earliest time both windows fit');
      expectBorrowed(await limiter.borrowed(t), 0, 'the token bucket of the refused probe');
      const booked = await limiter.checkRates(abt, { maxWaitMs: 5000 });
      if (booked.kind !== 'booked') fail(`a + b + t with a budget: ${JSON.stringify(booked)}`);
      expectEqual(Math.ceil(booked.waitMs - 1e-9), wait, 'a + b + t booked at the time the probe was told');
      await clock.advance(booked.sendAtMs - clock.now());
      // t paid its 4 as of the send time: 6 tokens then, not the 10 a bucket charged at 0 ms would have again
      expectDelay(await limiter.checkRate(t, TEN_PER_SECOND, 7), 100, 't: cost 7 at the send time');
      await spend(limiter, t, TEN_PER_SECOND, 6, 't: cost 6 at the send time');
      expectDelayWithin(await limiter.peek([{ key: a, limit: A, cost: 1 }]), 1000, slackOf(capabilities, A), 'a at the send time: charged then');
      expectDelayWithin(await limiter.peek([{ key: b, limit: B, cost: 1 }]), 500, slackOf(capabilities, B), 'b at the send time: charged then');
    },
  ),
  test(
    'RL-V4',
    'a send time one window limit moved is checked again against the others until none moves it',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const a = key({ axis: 'a' });
      const b = key({ axis: 'b' });
      const c = key({ axis: 'c' });
      const A: Limit = { perWindow: 10, windowMs: 128 };
      const B: Limit = { perWindow: 1, windowMs: 1000 };
      const C: Limit = { capacity: 1, refillPerSec: 1 };
      const t0 = clock.now();
      await spend(limiter, c, C, 1, 'c: its one token at 0 ms (the next at 1000 ms)');
      expectBooked(
        await limiter.checkRates(
          [
            { key: a, limit: A, cost: 10 },
            { key: c, limit: C, cost: 1 },
          ],
          { maxWaitMs: 2000 },
        ),
        t0,
        1000,
        'a 10 + c 1: booked when c can pay, filling a at 1000 ms',
      );
      await spend(limiter, b, B, 1, 'b: its one send at 0 ms (room again one window later)');
      // a has room now, but b pushes the send to about 1000 ms, where a's booking fills every window: a + b
      // fit together only once that booking left a's window, 1128 ms
      const slack = slackOf(capabilities, A);
      const ab: BucketCheck[] = [
        { key: a, limit: A, cost: 1 },
        { key: b, limit: B, cost: 1 },
      ];
      expectDelayWithin(await limiter.checkRates(ab), 1128, slack, 'a 1 + b 1: the probe');
      expectDelayWithin(await limiter.peek(ab), 1128, slack, 'a 1 + b 1: peek');
      expectBookedWithin(await limiter.checkRates(ab, { maxWaitMs: 5000 }), t0, 1128, slack, 'a 1 + b 1: the booking');
    },
  ),
  test(
    'RL-V4',
    'a probe over window limits alone checks the send time one of them moved again against the others',
    [...WINDOWS, 'bookings'],
    async ({ limiter, clock, capabilities }) => {
      const a = key({ axis: 'windows-a' });
      const b = key({ axis: 'windows-b' });
      const c = key({ axis: 'windows-c' });
      const A: Limit = { perWindow: 10, windowMs: 128 };
      const B: Limit = { perWindow: 1, windowMs: 1000 };
      await spend(limiter, c, B, 1, 'c: its one send at 0 ms (room again one window later)');
      const booked = await limiter.checkRates(
        [
          { key: a, limit: A, cost: 10 },
          { key: c, limit: B, cost: 1 },
        ],
        { maxWaitMs: 2000 },
      );
      const t0 = clock.now();
      const slack = slackOf(capabilities, B) + slackOf(capabilities, A);
      const at = expectBookedWithin(booked, t0, 1000, slack, 'a 10 + c 1: booked when c has room, filling a then');
      await spend(limiter, b, B, 1, 'b: its one send at 0 ms (room again one window later)');
      // a has room now, b from about 1000 ms, where a's booking fills a's windows for 128 ms: a + b fit together
      // only once that booking left a's window
      const ab: BucketCheck[] = [
        { key: a, limit: A, cost: 1 },
        { key: b, limit: B, cost: 1 },
      ];
      const wait = expectDelayWithin(await limiter.checkRates(ab), at + 128, slack, 'a 1 + b 1: the probe');
      await clock.advance(wait);
      expectOkNow(await limiter.checkRates(ab), 'a 1 + b 1 at the time the probe was told', clock.now());
    },
  ),
  test('RL-V4', 'all or nothing: when one bucket can never pay, no bucket of the call is charged', [...WINDOWS], async ({ limiter }) => {
    const token = key({ axis: 'token' });
    const window = key({ axis: 'window' });
    const e = expectError(
      await limiter.checkRates([
        { key: token, limit: TEN_PER_SECOND, cost: 3 },
        { key: window, limit: TEN_PER_WINDOW, cost: 11 },
      ]),
      'cost_unpayable',
      'token 3 + window 11',
    );
    expectEqual(e.error.path, 'checks[1]', 'error.path');
    const quota = key({ axis: 'quota' });
    const q = expectError(
      await limiter.checkRates([
        { key: window, limit: TEN_PER_WINDOW, cost: 3 },
        { key: quota, limit: { capacity: 2, refillPerSec: 0 }, cost: 3 },
      ]),
      'cost_unpayable',
      'window 3 + quota 3 of 2',
    );
    expectEqual(q.error.path, 'checks[1]', 'error.path');
    expectBorrowed(await limiter.borrowed(token), 0, 'the token bucket');
    expectBorrowed(await limiter.borrowed(window), 0, 'the window');
    expectBorrowed(await limiter.borrowed(quota), 0, 'the quota');
  }),
  test(
    'RL-V2',
    'a record counts its cost as sent now, even beyond the limit, and later sends wait it out',
    [...WINDOWS],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'recorded' });
      await spend(limiter, k, TEN_PER_WINDOW, 3);
      limiter.record(k, 12, TEN_PER_WINDOW);
      await landed();
      expectBorrowed(await limiter.borrowed(k), 15, 'borrowed after 3 sent and 12 recorded');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, slack, 'cost 1 behind the record');
      const fresh = key({ axis: 'recorded-first' });
      limiter.record(fresh, 4, TEN_PER_WINDOW);
      await landed();
      expectBorrowed(await limiter.borrowed(fresh), 4, 'a window bucket created by a record');
      await spend(limiter, fresh, TEN_PER_WINDOW, 6, 'the 6 left');
      expectDelayWithin(await limiter.checkRate(fresh, TEN_PER_WINDOW, 1), 1050, slack, 'cost 1 after record 4 + 6');
      const live = key({ axis: 'recorded-live' });
      await spend(limiter, live, TEN_PER_WINDOW, 2);
      limiter.record(live, 5);
      await landed();
      expectBorrowed(await limiter.borrowed(live), 7, 'a record without a limit on a live window');
      expectDelayWithin(await limiter.checkRate(live, TEN_PER_WINDOW, 4), 1050, slack, 'cost 4 after 2 sent and 5 recorded');
      await clock.advance(Math.ceil(1050 + slack));
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 'cost 10 once the record left the window', clock.now());
      const later = key({ axis: 'recorded-later' });
      await spend(limiter, later, TEN_PER_WINDOW, 5, 'cost 5 at 0 ms');
      await clock.advance(600);
      limiter.record(later, 5, TEN_PER_WINDOW);
      await landed();
      // the record counts from when it was made, not from the sends before it
      expectDelayWithin(await limiter.checkRate(later, TEN_PER_WINDOW, 6), 1050, slack, 'cost 6 600 ms later: room once the record leaves');
    },
  ),
  test(
    'RL-V2',
    'a penalty admits nothing before its end and counts the window full then: the next send one window plus the jitter after the end',
    [...WINDOWS, 'penalize'],
    async ({ limiter, clock, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'penalized' });
      await spend(limiter, k, TEN_PER_WINDOW, 2);
      expectDone(await limiter.penalize(k, { forMs: 500 }), 'penalize for 500 ms');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1550, slack, 'cost 1 under the hold: one span after its end');
      await clock.advance(500);
      const wait = expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1), 1050, slack, 'cost 1 when the hold ends');
      await clock.advance(wait);
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 10), 'cost 10 one span after the end', clock.now());
      const longer = key({ axis: 'penalized-twice' });
      await spend(limiter, longer, TEN_PER_WINDOW, 1);
      expectDone(await limiter.penalize(longer, { forMs: 2000 }), 'penalize for 2000 ms');
      expectDone(await limiter.penalize(longer, { forMs: 500 }), 'penalize for 500 ms');
      expectDelayWithin(await limiter.checkRate(longer, TEN_PER_WINDOW, 1), 3050, slack, 'cost 1 under the longer hold (never shortened)');
      const unseen = key({ axis: 'penalized-first' });
      expectDone(await limiter.penalize(unseen, { forMs: 1000 }), 'penalize a bucket never defined');
      expectDelayWithin(await limiter.checkRate(unseen, TEN_PER_WINDOW, 1), 2050, slack, 'its first check as a window limit');
    },
  ),
  test(
    'RL-R3',
    'a hold survives a change between a token bucket and a window limit, both ways',
    [...WINDOWS, 'penalize'],
    async ({ limiter, capabilities }) => {
      const toWindow = key({ credential: null, axis: 'held-to-window' });
      await spend(limiter, toWindow, TEN_PER_SECOND, 1);
      expectDone(await limiter.penalize(toWindow, { forMs: 1000 }), 'penalize the token bucket for 1000 ms');
      expectDelayWithin(
        await limiter.checkRate(toWindow, TEN_PER_WINDOW, 1),
        2050,
        slackOf(capabilities, TEN_PER_WINDOW),
        'cost 1 under a window limit: one span after the hold ends',
      );
      const toToken = key({ credential: null, axis: 'held-to-token' });
      await spend(limiter, toToken, TEN_PER_WINDOW, 1);
      expectDone(await limiter.penalize(toToken, { forMs: 1000 }), 'penalize the window for 1000 ms');
      expectDelay(await limiter.checkRate(toToken, TEN_PER_SECOND, 1), 1100, 'cost 1 under a token bucket: empty when the hold ends, a token 100 ms later');
    },
  ),
  test(
    'RL-F2',
    'a limiter without window limits answers not_supported to every call with a window limit, whatever the other arguments',
    ['noWindowLimits'],
    async ({ limiter, clock }) => {
      const k = key({ axis: 'window' });
      const token = key({ axis: 'token' });
      const w = TEN_PER_WINDOW;
      const signal = new AbortController().signal;
      const calls: [string, () => Promise<unknown>][] = [
        ['checkRate cost 1', () => limiter.checkRate(k, w, 1)],
        ['checkRate cost 0', () => limiter.checkRate(k, w, 0)],
        ['checkRate cost 11', () => limiter.checkRate(k, w, 11)],
        ['checkRate cost -1', () => limiter.checkRate(k, w, -1)],
        ['checkRate with a budget', () => limiter.checkRate(k, w, 1, { maxWaitMs: 1000 })],
        [
          'checkRates with a token bucket first',
          () =>
            limiter.checkRates([
              { key: token, limit: TEN_PER_SECOND, cost: 1 },
              { key: k, limit: w, cost: 1 },
            ]),
        ],
        [
          'checkRates with an unlimited bucket',
          () =>
            limiter.checkRates(
              [
                { key: token, limit: null, cost: 1 },
                { key: k, limit: { perWindow: 5, windowMs: 200 }, cost: 2 },
              ],
              { maxWaitMs: 500 },
            ),
        ],
        ['peek', () => limiter.peek([{ key: k, limit: w, cost: 1 }])],
        [
          'peek with a token bucket',
          () =>
            limiter.peek([
              { key: k, limit: w, cost: 3 },
              { key: token, limit: TEN_PER_SECOND, cost: 1 },
            ]),
        ],
        ['waitForCapacity', () => answeredAtOnce(limiter, clock, [{ key: k, limit: w, cost: 1 }], { maxWaitMs: 1000 }, 'waitForCapacity')],
        [
          'waitForCapacity with a signal and a token bucket',
          () =>
            answeredAtOnce(
              limiter,
              clock,
              [
                { key: token, limit: TEN_PER_SECOND, cost: 1 },
                { key: k, limit: w, cost: 1 },
              ],
              { signal },
              'waitForCapacity',
            ),
        ],
        ['waitForCapacity with a budget of -5', () => answeredAtOnce(limiter, clock, [{ key: k, limit: w, cost: 1 }], { maxWaitMs: -5 }, 'waitForCapacity')],
        ['sync', () => limiter.sync(k, w, 3)],
        ['sync with sentAtMs', () => limiter.sync(k, w, 3, { sentAtMs: 1 })],
        ['sync with every report option', () => limiter.sync(k, w, 3, { sentAtMs: 1, countedOwnCost: 1, windowEnd: { earliestMs: 990, latestMs: 1000 } })],
        ['sync of -1', () => limiter.sync(k, w, -1)],
      ];
      for (const [what, call] of calls) expectError((await call()) as Decision, 'not_supported', `${what} with a window limit`);
      try {
        limiter.record(k, 3, w);
      } catch (error) {
        fail(`record with a window limit threw: ${String(error)} (RL-R1: it never throws)`);
      }
      await landed();
      expectBorrowed(await limiter.borrowed(k), 0, 'the window bucket after the calls (a record with a window limit changes nothing)');
      expectBorrowed(await limiter.borrowed(token), 0, 'the token bucket named in those calls');
    },
  ),
];
