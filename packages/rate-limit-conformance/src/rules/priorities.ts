import type { BucketCheck, Decision, Limit, Priority, RateLimiter, Reserve } from '@core/rate-limit-contract';
import { property, test, type ConformanceTest } from '../conformance-test.js';
import { expectBooked, expectBorrowed, expectDelay, expectEqual, expectError, expectOk, expectOkNow, fail, show } from '../expect.js';
import { TEN_PER_SECOND, TEN_PER_WINDOW, expectDelayWithin, key, settled, slackOf, startWait } from './fixtures.js';
import { runClassSafety } from './priority-property.js';

const CLASSES = ['injectableClock', 'bookings', 'priorities'] as const;
const ONE_PER_SECOND: Limit = { capacity: 1, refillPerSec: 1 };

/** Books `n` bulk calls of cost 1 on a bucket of TEN_PER_SECOND after spending its bulk line (8) at once: bookings 100 ms apart. */
async function fillWithBulk(limiter: RateLimiter, k: ReturnType<typeof key>, now: number, n: number): Promise<void> {
  expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 8, { priority: 'bulk' }), 'bulk spends its line (8 of 10) at once');
  expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'bulk' }), 100, 'bulk beyond its line');
  for (let i = 1; i <= n; i++)
    expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 60_000 }), now, 100 * i, `bulk booking ${i}`);
}

export const PRIORITIES: readonly ConformanceTest[] = [
  test(
    'RL-Q1',
    'a critical call goes at once beside bulk bookings that fill the bucket seconds ahead; only critical traffic spends that room',
    CLASSES,
    async ({ limiter, clock }) => {
      const k = key();
      const t0 = clock.now();
      await fillWithBulk(limiter, k, t0, 30);
      expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 1.5, { priority: 'critical' }), 'a critical call of 1.5 beside 3 s of bulk bookings');
      expectOkNow(
        await limiter.waitForCapacity([{ key: k, limit: TEN_PER_SECOND, cost: 0.5 }], { priority: 'critical', maxWaitMs: 10 }),
        'a critical wait of 0.5: at once',
      );
      // the reserve (2 of 10) is spent by critical calls: the next critical call waits
      const d = await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'critical' });
      if (d.kind !== 'delay') fail(`a critical call after critical traffic spent the reserve: expected delay, got ${show(d)}`);
      expectDelay(await limiter.checkRate(k, TEN_PER_SECOND, 0.5, { priority: 'bulk' }), 3250, 'bulk behind its own bookings and the critical calls');
    },
  ),
  test('RL-Q1', 'a normal call finds what lies between its line and bulk’s, and critical what lies above normal’s', CLASSES, async ({ limiter, clock }) => {
    const k = key();
    const t0 = clock.now();
    await fillWithBulk(limiter, k, t0, 10);
    const reserve: Reserve = { normal: 0.1, bulk: 0.2 };
    expectOkNow(await limiter.checkRates([{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'normal', reserve }), 'a normal call of 1 (line 9) at once');
    expectBooked(
      await limiter.checkRate(k, TEN_PER_SECOND, 0.5, { priority: 'normal', reserve, maxWaitMs: 60_000 }),
      t0,
      1050,
      'a second normal call: behind the bookings',
    );
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'critical' }), 'a critical call of 1 (line 10) at once');
  }),
  test('RL-Q1', 'critical finds normal’s reserve beside normal bookings', CLASSES, async ({ limiter, clock }) => {
    const k = key();
    const t0 = clock.now();
    const reserve: Reserve = { normal: 0.1 };
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 9, { reserve }), 'normal spends its line (9) at once');
    for (let i = 1; i <= 10; i++)
      expectBooked(await limiter.checkRate(k, TEN_PER_SECOND, 1, { reserve, maxWaitMs: 60_000 }), t0, 100 * i, `normal booking ${i}`);
    expectOkNow(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { priority: 'critical' }), 'peek: a critical call of 1 would go at once');
    expectDelay(await limiter.peek([{ key: k, limit: TEN_PER_SECOND, cost: 1 }], { reserve }), 1100, 'peek: a normal call would wait');
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'critical' }), 'a critical call of 1');
  }),
  test(
    'RL-Q1',
    'bulk bookings made through one limiter leave the reserve to a critical call through another sharing the store',
    [...CLASSES, 'distributed', 'peer'],
    async ({ limiter, clock, peer }) => {
      const other = await peer();
      const k = key();
      await fillWithBulk(limiter, k, clock.now(), 20);
      expectOkNow(await other.checkRate(k, TEN_PER_SECOND, 2, { priority: 'critical' }), 'a critical call of 2 through the other limiter');
      const d = await other.checkRate(k, TEN_PER_SECOND, 1, { priority: 'critical' });
      if (d.kind !== 'delay') fail(`a second critical call through the other limiter: expected delay, got ${show(d)}`);
    },
  ),
  test('RL-Q2', 'the room kept for higher classes never lets a call pass a booking of its own class ahead', CLASSES, async ({ limiter, clock }) => {
    const a = key({ axis: 'weight' });
    const b = key({ axis: 'orders' });
    const t0 = clock.now();
    expectOkNow(await limiter.checkRate(b, ONE_PER_SECOND, 1), 'a normal call empties a slow bucket');
    // a bulk call over both buckets books at b's time: a's charge lies 1 s ahead, far under a's line
    expectBooked(
      await limiter.checkRates(
        [
          { key: a, limit: TEN_PER_SECOND, cost: 1 },
          { key: b, limit: ONE_PER_SECOND, cost: 1 },
        ],
        { priority: 'bulk', maxWaitMs: 5_000 },
      ),
      t0,
      1000,
      'bulk over both (b has room for the cost of 1 only when empty)',
    );
    // a later bulk call on a alone: a holds room for it at every instant ahead, yet it goes by the
    // token-bucket rule (every charge ahead counted as borrowed now), not at once
    expectBooked(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 5_000 }), t0, 400, 'a later bulk call on a');
    expectOkNow(await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'critical' }), 'a critical call goes at once');
    // a critical booking ahead holds back later critical calls the same way
    expectBooked(
      await limiter.checkRates(
        [
          { key: a, limit: TEN_PER_SECOND, cost: 1 },
          { key: b, limit: ONE_PER_SECOND, cost: 1 },
        ],
        { priority: 'critical', maxWaitMs: 5_000 },
      ),
      t0,
      2000,
      'critical over both',
    );
    const d = await limiter.checkRate(a, TEN_PER_SECOND, 1, { priority: 'critical' });
    if (d.kind === 'ok') fail(`a later critical call on a went at once past the critical booking ahead: ${show(d)}`);
  }),
  test('RL-Q2', 'within one class a heavy waiter is never starved by cheap traffic of its class', CLASSES, async ({ limiter, clock }) => {
    for (const priority of ['bulk', 'critical'] as const satisfies readonly Priority[]) {
      const k = key({ axis: priority });
      const line = priority === 'bulk' ? 8 : 10;
      expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, line, { priority }), `${priority} spends its line`);
      const t0 = clock.now();
      const heavy = await startWait(limiter, clock, [{ key: k, limit: TEN_PER_SECOND, cost: 6 }], { maxWaitMs: 2000, priority });
      let cheap = 0;
      for (let i = 0; i < 30; i++) {
        await clock.advance(20);
        if ((await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority })).kind === 'ok') cheap++;
      }
      expectEqual(cheap, 0, `${priority}: cheap calls of its class admitted ahead of the heavy waiter`);
      const d = expectOk(await settled(heavy, `${priority}: the heavy waiter`), `${priority}: the heavy waiter`);
      expectEqual(d.sendAtMs, t0 + 600, `${priority}: the heavy waiter's send time`);
      await clock.advance(5000);
    }
  }),
  test(
    'RL-Q3',
    'bulk, normal and critical together never admit more than the capacity at once, then one token per refill',
    CLASSES,
    async ({ limiter, clock }) => {
      const k = key({ axis: 'all-classes' });
      const call = (priority: Priority) => limiter.checkRate(k, TEN_PER_SECOND, 1, { priority });
      for (let i = 0; i < 8; i++) expectOkNow(await call('bulk'), `bulk call ${i + 1} up to its line of 8`);
      expectDelay(await call('bulk'), 100, 'bulk past its line: it waits until 7 are borrowed');
      expectOkNow(await call('normal'), 'normal: the first token of the reserve');
      expectOkNow(await call('critical'), 'critical: the last token');
      for (const priority of ['critical', 'normal', 'bulk'] as const)
        expectDelay(await call(priority), priority === 'bulk' ? 300 : 100, `${priority} with 10 of 10 spent`);
      await clock.advance(100);
      expectOkNow(await call('critical'), 'critical, 100 ms later: the one token refilled');
      expectDelay(await call('critical'), 100, 'critical again: 11 admitted in 100 ms is capacity + refill · 0.1 s');
      expectDelay(await call('normal'), 100, 'normal after it');
      expectBorrowed(await limiter.borrowed(k), 10, 'borrowed: the bucket is empty');
    },
  ),
  property(
    'RL-Q3',
    '(property) no interval admits more than max(capacity, largest cost) + refill·(b − a), all classes together, over random mixes of classes, reserves, probes, bookings, waits, aborts, records and penalties',
    CLASSES,
    (t) => runClassSafety(t, false),
  ),
  property('RL-Q3', '(property) the same bound holds with the classes spread over two limiters sharing one store', [...CLASSES, 'distributed', 'peer'], (t) =>
    runClassSafety(t, true),
  ),
  test('RL-Q4', 'bulk alone gets a burst of (1 − r)·capacity and then the full refill rate', CLASSES, async ({ limiter, clock }) => {
    for (const [reserve, line] of [
      [undefined, 8],
      [{ bulk: 0.5 }, 5],
    ] as const) {
      const k = key({ axis: `line-${line}` });
      const t0 = clock.now();
      for (let i = 0; i < line; i++)
        expectOkNow(
          await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'bulk', ...(reserve === undefined ? {} : { reserve }) }),
          `bulk call ${i + 1} of its burst of ${line}`,
        );
      expectDelay(
        await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'bulk', ...(reserve === undefined ? {} : { reserve }) }),
        100,
        `bulk beyond its burst of ${line}`,
      );
      for (let i = 1; i <= 30; i++) {
        expectBooked(
          await limiter.checkRate(k, TEN_PER_SECOND, 1, { priority: 'bulk', maxWaitMs: 60_000, ...(reserve === undefined ? {} : { reserve }) }),
          t0,
          100 * i,
          `bulk booking ${i} (10 per second)`,
        );
      }
      await clock.advance(10_000);
    }
  }),
  test(
    'RL-Q4',
    'on a window limit bulk fills (1 − r)·perWindow, every send counted, and critical the rest',
    [...CLASSES, 'windowLimits'],
    async ({ limiter, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'window' });
      for (let i = 0; i < 8; i++) expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { priority: 'bulk' }), `bulk send ${i + 1} of 8`);
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { priority: 'bulk' }), 1050, slack, 'bulk beyond 8 in the window');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 2, { priority: 'critical' }), 'critical: the last 2 of the window');
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { priority: 'critical' }), 1050, slack, 'critical beyond the window');
      // a bulk cost above its line is never refused for the reserve: it waits for room for all of it
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 9, { priority: 'bulk' }), 1050, slack, 'bulk cost 9 (above its line of 8)');
      expectError(await limiter.checkRate(k, TEN_PER_WINDOW, 11, { priority: 'bulk' }), 'cost_unpayable', 'bulk cost 11 above the window');
      // normal sends count against bulk's line: the reserve stays free for the classes above bulk
      const k2 = key({ axis: 'window-2' });
      expectOkNow(await limiter.checkRate(k2, TEN_PER_WINDOW, 2), 'normal sends 2 first');
      for (let i = 0; i < 6; i++) expectOkNow(await limiter.checkRate(k2, TEN_PER_WINDOW, 1, { priority: 'bulk' }), `bulk send ${i + 1} of 6 beside them`);
      expectDelayWithin(await limiter.checkRate(k2, TEN_PER_WINDOW, 1, { priority: 'bulk' }), 1050, slack, 'bulk at its line of 8, normal’s 2 counted');
      expectDelay(await limiter.peek([{ key: k2, limit: TEN_PER_WINDOW, cost: 1 }], { priority: 'bulk' }), undefined, 'peek sees the same line');
      expectOkNow(await limiter.checkRate(k2, TEN_PER_WINDOW, 2, { priority: 'critical' }), 'critical finds the reserve');
      expectDelayWithin(await limiter.checkRate(k2, TEN_PER_WINDOW, 1, { priority: 'critical' }), 1050, slack, 'the window is full');
    },
  ),
  test(
    'RL-Q4',
    'on a window limit critical sends count against a lower class’s line too: what critical spent first, bulk and normal do not',
    [...CLASSES, 'windowLimits'],
    async ({ limiter, capabilities }) => {
      const slack = slackOf(capabilities, TEN_PER_WINDOW);
      const k = key({ axis: 'window-critical-first' });
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { priority: 'critical' }), 'critical sends 1 first');
      for (let i = 0; i < 7; i++) expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { priority: 'bulk' }), `bulk send ${i + 1} of 7 beside it`);
      expectDelayWithin(await limiter.checkRate(k, TEN_PER_WINDOW, 1, { priority: 'bulk' }), 1050, slack, 'bulk at its line of 8, the critical send counted');
      expectOkNow(await limiter.checkRate(k, TEN_PER_WINDOW, 2, { priority: 'critical' }), 'critical: the last 2 of the window');
      const n = key({ axis: 'window-critical-then-normal' });
      const reserve: Reserve = { normal: 0.3, bulk: 0.3 };
      expectOkNow(await limiter.checkRate(n, TEN_PER_WINDOW, 2, { priority: 'critical' }), 'critical sends 2 first');
      expectOkNow(await limiter.checkRates([{ key: n, limit: TEN_PER_WINDOW, cost: 5 }], { reserve }), 'normal spends 5 beside them: its line of 7');
      expectDelayWithin(await limiter.checkRates([{ key: n, limit: TEN_PER_WINDOW, cost: 1 }], { reserve }), 1050, slack, 'normal beyond its line');
      expectOkNow(await limiter.checkRate(n, TEN_PER_WINDOW, 3, { priority: 'critical' }), 'critical: the 3 left of the window');
      expectDelayWithin(await limiter.checkRate(n, TEN_PER_WINDOW, 1, { priority: 'critical' }), 1050, slack, 'the window is full');
    },
  ),
  test('RL-Q4', 'on a fixed quota bulk spends (1 − r)·capacity, then its cost is unpayable while critical spends the rest', CLASSES, async ({ limiter }) => {
    const quota: Limit = { capacity: 10, refillPerSec: 0 };
    const k = key({ axis: 'quota' });
    expectOkNow(await limiter.checkRate(k, quota, 8, { priority: 'bulk' }), 'bulk spends 8 of 10');
    expectError(await limiter.checkRate(k, quota, 1, { priority: 'bulk' }), 'cost_unpayable', 'bulk beyond its line');
    expectOkNow(await limiter.checkRate(k, quota, 2, { priority: 'critical' }), 'critical spends the rest');
    expectBorrowed(await limiter.borrowed(k), 10, 'the quota used up');
  }),
  test('RL-Q6', 'a check’s own reserve sets its bucket’s line; the call’s holds on the other buckets', CLASSES, async ({ limiter }) => {
    const shared = key({ axis: 'q6-shared' });
    const own = key({ axis: 'q6-own' });
    // bulk spends the bucket no critical call needs to its end, and keeps half of the shared one
    const calls = (cost: number): BucketCheck[] => [
      { key: own, limit: TEN_PER_SECOND, cost, reserve: { bulk: 0 } },
      { key: shared, limit: TEN_PER_SECOND, cost },
    ];
    for (let i = 0; i < 5; i++)
      expectOkNow(await limiter.checkRates(calls(1), { priority: 'bulk', reserve: { bulk: 0.5 } }), `bulk call ${i + 1} over both buckets`);
    expectDelay(
      await limiter.checkRates(calls(1), { priority: 'bulk', reserve: { bulk: 0.5 } }),
      100,
      'the shared bucket at its line of 5 (the call’s reserve)',
    );
    for (let i = 0; i < 5; i++)
      expectOkNow(
        await limiter.checkRates([calls(1)[0] as BucketCheck], { priority: 'bulk', reserve: { bulk: 0.5 } }),
        `bulk alone on its own bucket, call ${i + 6}: its check keeps nothing free`,
      );
    expectDelay(await limiter.checkRates([calls(1)[0] as BucketCheck], { priority: 'bulk', reserve: { bulk: 0.5 } }), 100, 'its own bucket full (10 of 10)');
    expectOkNow(await limiter.checkRate(shared, TEN_PER_SECOND, 5, { priority: 'critical' }), 'critical finds the half of the shared bucket kept free');
  }),
  test(
    'RL-Q6',
    'on a window limit a check’s own reserve sets the line; a share it leaves out takes the call’s',
    [...CLASSES, 'windowLimits'],
    async ({ limiter, capabilities }) => {
      const w = key({ axis: 'q6-window' });
      for (let i = 0; i < 10; i++)
        expectOkNow(
          await limiter.checkRates([{ key: w, limit: TEN_PER_WINDOW, cost: 1, reserve: { bulk: 0 } }], { priority: 'bulk' }),
          `bulk send ${i + 1} of 10 in the window`,
        );
      const w2 = key({ axis: 'q6-window-2' });
      for (let i = 0; i < 7; i++)
        expectOkNow(
          await limiter.checkRates([{ key: w2, limit: TEN_PER_WINDOW, cost: 1, reserve: { normal: 0.1 } }], { priority: 'normal', reserve: { bulk: 0.5 } }),
          `normal send ${i + 1} under the check's normal 0.1`,
        );
      expectOkNow(
        await limiter.checkRates([{ key: w2, limit: TEN_PER_WINDOW, cost: 2, reserve: { normal: 0.1 } }], { priority: 'normal', reserve: { bulk: 0.5 } }),
        'normal reaches 9 of 10',
      );
      expectDelayWithin(
        await limiter.checkRates([{ key: w2, limit: TEN_PER_WINDOW, cost: 1, reserve: { normal: 0.1 } }], { priority: 'normal' }),
        1050,
        slackOf(capabilities, TEN_PER_WINDOW),
        'normal beyond its line of 9',
      );
      expectDelayWithin(
        await limiter.peek([{ key: w2, limit: TEN_PER_WINDOW, cost: 1, reserve: { normal: 0.1 } }], { priority: 'normal' }),
        1050,
        slackOf(capabilities, TEN_PER_WINDOW),
        'peek sees the same line',
      );
      expectOkNow(
        await limiter.peek([{ key: w2, limit: TEN_PER_WINDOW, cost: 1, reserve: { normal: 0.1 } }], { priority: 'critical' }),
        'critical: the last one of the window',
      );
    },
  ),
  test('RL-Q6', 'a key repeated in one call keeps the largest share any of its checks leaves free', CLASSES, async ({ limiter, clock }) => {
    const k = key({ axis: 'q6-merged' });
    const twice: BucketCheck[] = [
      { key: k, limit: TEN_PER_SECOND, cost: 1, reserve: { bulk: 0 } },
      { key: k, limit: TEN_PER_SECOND, cost: 1, reserve: { bulk: 0.5 } },
    ];
    expectOkNow(await limiter.checkRates(twice, { priority: 'bulk' }), 'bulk spends 2');
    expectOkNow(await limiter.checkRates(twice, { priority: 'bulk' }), 'bulk spends 4');
    expectDelay(await limiter.checkRates(twice, { priority: 'bulk' }), 100, 'bulk at 6 would pass its line of 5');
    const t0 = clock.now();
    expectBooked(await limiter.checkRates(twice, { priority: 'bulk', maxWaitMs: 1000 }), t0, 100, 'a booking where the line of 5 has room for 2');
    expectOkNow(await limiter.checkRate(k, TEN_PER_SECOND, 4, { priority: 'critical' }), 'critical finds what the larger share kept free');
  }),
  test('RL-Q5', 'an unknown priority or a malformed reserve is invalid_parameters naming the option, and changes nothing', CLASSES, async ({ limiter }) => {
    const k = key();
    const checks: BucketCheck[] = [{ key: k, limit: TEN_PER_SECOND, cost: 1 }];
    const bad: [unknown, string][] = [
      [{ priority: 'urgent' }, 'options.priority'],
      [{ priority: 0 }, 'options.priority'],
      [{ reserve: { bulk: 1 } }, 'options.reserve.bulk'],
      [{ reserve: { normal: -0.1 } }, 'options.reserve.normal'],
      [{ reserve: { bulk: Number.NaN } }, 'options.reserve.bulk'],
      [{ reserve: { normal: 0.5, bulk: 0.2 } }, 'options.reserve'],
      [{ reserve: 'half' }, 'options.reserve'],
    ];
    for (const [options, path] of bad) {
      const o = options as { priority?: Priority; reserve?: Reserve };
      for (const [what, d] of [
        ['checkRate', await limiter.checkRate(k, TEN_PER_SECOND, 1, o)],
        ['checkRates', await limiter.checkRates(checks, { ...o, maxWaitMs: 1000 })],
        ['waitForCapacity', await limiter.waitForCapacity(checks, o)],
        ['peek', await limiter.peek(checks, o)],
      ] as const) {
        const e = expectError(d as Decision, 'invalid_parameters', `${what} with ${show(options)}`);
        expectEqual(e.error.path, path, `${what} with ${show(options)}: path`);
      }
    }
    // a check's own reserve (RL-Q6) is read the same way, over the call's
    const badChecks: [unknown, Reserve | undefined, string][] = [
      [{ bulk: 1 }, undefined, 'checks[1].reserve.bulk'],
      [{ normal: Number.POSITIVE_INFINITY }, undefined, 'checks[1].reserve.normal'],
      [{ normal: 0.3 }, undefined, 'checks[1].reserve'],
      [{ bulk: 0.1 }, { normal: 0.2, bulk: 0.5 }, 'checks[1].reserve'],
      [7, undefined, 'checks[1].reserve'],
    ];
    for (const [reserve, callReserve, path] of badChecks) {
      const list = [checks[0], { key: key({ axis: 'q6-other' }), limit: TEN_PER_SECOND, cost: 1, reserve }] as BucketCheck[];
      const o = { priority: 'bulk' as const, ...(callReserve === undefined ? {} : { reserve: callReserve }) };
      for (const [what, d] of [
        ['checkRates', await limiter.checkRates(list, o)],
        ['waitForCapacity', await limiter.waitForCapacity(list, o)],
        ['peek', await limiter.peek(list, o)],
      ] as const) {
        const e = expectError(d as Decision, 'invalid_parameters', `${what} with a check reserve ${show(reserve)}`);
        expectEqual(e.error.path, path, `${what} with a check reserve ${show(reserve)}: path`);
      }
    }
    expectBorrowed(await limiter.borrowed(k), 0, 'nothing spent');
    expectBorrowed(await limiter.borrowed(key({ axis: 'q6-other' })), 0, 'nothing spent on the other bucket');
  }),
  test(
    'RL-Q5',
    'a limiter without priorities answers not_supported to every call naming a priority or a reserve, whatever the rest',
    ['noPriorities'],
    async ({ limiter }) => {
      const k = key();
      const checks: BucketCheck[] = [{ key: k, limit: TEN_PER_SECOND, cost: 1 }];
      for (const options of [{ priority: 'critical' }, { priority: 'normal' }, { reserve: { bulk: 0.2 } }, { priority: 'urgent' }] as {
        priority?: Priority;
        reserve?: Reserve;
      }[]) {
        for (const [what, d] of [
          ['checkRate', await limiter.checkRate(k, TEN_PER_SECOND, 1, options)],
          ['checkRates', await limiter.checkRates(checks, { ...options, maxWaitMs: -1 })],
          ['waitForCapacity', await limiter.waitForCapacity(checks, options)],
          ['peek', await limiter.peek(checks, options)],
        ] as const) {
          expectError(d as Decision, 'not_supported', `${what} with ${show(options)}`);
        }
      }
      // a check naming its own reserve (RL-Q6) is a call naming a reserve, with or without call options
      for (const reserve of [{ bulk: 0.5 }, { normal: 2 }] as Reserve[]) {
        const list: BucketCheck[] = [{ key: k, limit: TEN_PER_SECOND, cost: 1, reserve }];
        for (const [what, d] of [
          ['checkRates', await limiter.checkRates(list)],
          ['waitForCapacity', await limiter.waitForCapacity(list)],
          ['peek', await limiter.peek(list)],
        ] as const) {
          expectError(d as Decision, 'not_supported', `${what} with a check reserve ${show(reserve)}`);
        }
      }
      expectBorrowed(await limiter.borrowed(k), 0, 'nothing spent');
    },
  ),
];
