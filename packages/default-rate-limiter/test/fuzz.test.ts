import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ManualClock } from '@core/rate-limit-conformance';
import type { BucketKey, Decision, Limit, RateLimitError } from '@core/rate-limit-contract';
import { createDefaultRateLimiter, type DefaultRateLimiter } from '../src/default-rate-limiter.js';

const SECRET = 'sk-live-FUZZ-SECRET-5f3a9c';
const GOOD_KEY: BucketKey = { venue: 'binance', credential: SECRET, axis: 'orders' };
const GOOD_LIMIT: Limit = { requests: 10, periodMs: 1000 };
const OTHER: BucketKey = { venue: 'okx', credential: SECRET };

const badNumber = fc.oneof(
  fc.constant(Number.NaN),
  fc.constant(Number.POSITIVE_INFINITY),
  fc.constant(Number.NEGATIVE_INFINITY),
  fc.double({ max: -Number.MIN_VALUE, noNaN: true }),
  fc.string(),
  fc.constant(null),
  fc.boolean(),
  fc.bigInt(),
  fc.object(),
);
const badName = fc.oneof(fc.constant(''), fc.string({ minLength: 257, maxLength: 300 }), fc.integer(), fc.constant(null), fc.object());

const badKey = fc.oneof(
  fc.constant(null),
  fc.constant(undefined),
  fc.string(),
  fc.integer(),
  fc.array(fc.anything(), { maxLength: 3 }),
  badName.map((venue) => ({ venue, credential: SECRET })),
  badName.map((axis) => ({ venue: 'binance', credential: SECRET, axis })),
  fc.oneof(fc.constant(''), fc.integer(), fc.object(), fc.constant(undefined)).map((credential) => ({ venue: 'binance', credential })),
  fc.constant({ venue: 'binance', credential: SECRET + 'x'.repeat(5000) }),
);

const badLimit = fc.oneof(
  badNumber.map((capacity) => ({ capacity, refillPerSec: 1 })),
  badNumber.map((refillPerSec) => ({ capacity: 1, refillPerSec })),
  badNumber.map((requests) => ({ requests })),
  fc.oneof(badNumber, fc.constant(0)).map((periodMs) => ({ requests: 5, periodMs })),
  fc.constant({ capacity: 0, refillPerSec: 1 }),
  fc.constant({ capacity: 5, refillPerSec: 1, requests: 5 }),
  fc.constant({}),
  fc.string(),
  fc.integer(),
  fc.constant([10, 1000]),
  fc.record({ rate: fc.integer() }),
);

const badCost = fc.oneof(badNumber, fc.constant(undefined));
const badBudget = fc.oneof(badNumber, fc.constant(0), fc.constant(-0));
const badSignal = fc.oneof(fc.constant(null), fc.object(), fc.integer(), fc.constant({ aborted: false }));

/** A call with at least one malformed argument, and a label for failure messages. */
type BadCall = { label: string; run: (l: DefaultRateLimiter) => Promise<unknown> | unknown; path: RegExp };

const badCall: fc.Arbitrary<BadCall> = fc.oneof(
  badKey.map((k) => ({ label: 'checkRate bad key', run: (l: DefaultRateLimiter) => l.checkRate(k as BucketKey, GOOD_LIMIT, 1), path: /^key/ })),
  badLimit.map((x) => ({ label: 'checkRate bad limit', run: (l: DefaultRateLimiter) => l.checkRate(GOOD_KEY, x as Limit, 1), path: /^limit/ })),
  badCost.map((c) => ({ label: 'checkRate bad cost', run: (l: DefaultRateLimiter) => l.checkRate(GOOD_KEY, GOOD_LIMIT, c as number), path: /^cost$/ })),
  badBudget.map((b) => ({
    label: 'checkRate bad budget',
    run: (l: DefaultRateLimiter) => l.checkRate(GOOD_KEY, GOOD_LIMIT, 1, { maxWaitMs: b as number }),
    path: /^options\.maxWaitMs$/,
  })),
  badKey.map((k) => ({ label: 'tryAcquireSync bad key', run: (l: DefaultRateLimiter) => l.tryAcquireSync(k as BucketKey, GOOD_LIMIT, 1), path: /^key/ })),
  fc.tuple(fc.nat({ max: 3 }), badCost).map(([i, c]) => ({
    label: 'checkRates bad cost',
    run: (l: DefaultRateLimiter) =>
      l.checkRates([...Array.from({ length: i }, () => ({ key: OTHER, limit: GOOD_LIMIT, cost: 1 })), { key: GOOD_KEY, limit: GOOD_LIMIT, cost: c as number }]),
    path: /^checks\[\d\]\.cost$/,
  })),
  badLimit.map((x) => ({
    label: 'checkRates bad limit',
    run: (l: DefaultRateLimiter) =>
      l.checkRates([
        { key: OTHER, limit: GOOD_LIMIT, cost: 1 },
        { key: GOOD_KEY, limit: x as Limit, cost: 1 },
      ]),
    path: /^checks\[1\]\.limit/,
  })),
  fc.oneof(fc.constant([]), fc.constant(null), fc.string(), fc.constant([null]), fc.constant([{ key: GOOD_KEY }])).map((checks) => ({
    label: 'peek bad list',
    run: (l: DefaultRateLimiter) => l.peek(checks as never),
    path: /^checks/,
  })),
  badKey.map((k) => ({
    label: 'waitForCapacity bad key',
    run: (l: DefaultRateLimiter) => l.waitForCapacity([{ key: k as BucketKey, limit: GOOD_LIMIT, cost: 1 }]),
    path: /^checks\[0\]\.key/,
  })),
  badBudget.map((b) => ({
    label: 'waitForCapacity bad budget',
    run: (l: DefaultRateLimiter) => l.waitForCapacity([{ key: GOOD_KEY, limit: GOOD_LIMIT, cost: 1 }], { maxWaitMs: b as number }),
    path: /^options\.maxWaitMs$/,
  })),
  badSignal.map((s) => ({
    label: 'waitForCapacity bad signal',
    run: (l: DefaultRateLimiter) => l.waitForCapacity([{ key: GOOD_KEY, limit: GOOD_LIMIT, cost: 1 }], { signal: s as AbortSignal }),
    path: /^options\.signal$/,
  })),
  fc.oneof(badNumber, fc.constant(undefined)).map((m) => ({
    label: 'sync bad minBorrowed',
    run: (l: DefaultRateLimiter) => l.sync(GOOD_KEY, GOOD_LIMIT, m as number),
    path: /^minBorrowed$/,
  })),
  badLimit.map((x) => ({ label: 'sync bad limit', run: (l: DefaultRateLimiter) => l.sync(GOOD_KEY, x as Limit, 3), path: /^limit/ })),
  fc
    .oneof(
      fc.constant(null),
      badNumber.filter((v) => typeof v !== 'number' || !Number.isFinite(v)).map((untilMs) => ({ untilMs })), // a past time is valid
      badNumber.map((forMs) => ({ forMs })),
      fc.constant({ untilMs: 1, forMs: 1 }),
      fc.constant({}),
    )
    .map((h) => ({ label: 'penalize bad hold', run: (l: DefaultRateLimiter) => l.penalize(GOOD_KEY, h as never), path: /^hold/ })),
  badKey.map((k) => ({ label: 'borrowed bad key', run: (l: DefaultRateLimiter) => l.borrowed(k as BucketKey), path: /^key/ })),
  badKey.map((k) => ({ label: 'reset bad key', run: (l: DefaultRateLimiter) => l.reset(k as BucketKey), path: /^key/ })),
  badName.map((v) => ({ label: 'resetVenue bad venue', run: (l: DefaultRateLimiter) => l.resetVenue(v as string), path: /^venue$/ })),
);

const badRecord = fc.oneof(
  badKey.map((k) => [k, 1, GOOD_LIMIT] as const),
  badCost.map((c) => [GOOD_KEY, c, GOOD_LIMIT] as const),
  badLimit.map((x) => [GOOD_KEY, 1, x] as const),
);

function errorOf(result: unknown): RateLimitError | undefined {
  if (typeof result === 'object' && result !== null && (result as Decision).kind === 'error') return (result as { error: RateLimitError }).error;
  return undefined;
}

async function fixture(): Promise<{ limiter: DefaultRateLimiter; clock: ManualClock }> {
  const clock = new ManualClock();
  const limiter = createDefaultRateLimiter({ clock });
  await limiter.checkRate(GOOD_KEY, GOOD_LIMIT, 4);
  await limiter.checkRate(OTHER, GOOD_LIMIT, 2);
  await limiter.checkRate(GOOD_KEY, GOOD_LIMIT, 6, { maxWaitMs: 5000 }); // a booking in the future
  return { limiter, clock };
}

describe('fuzz: malformed input to the public API (RL-F1, RL-F2, RL-K3)', () => {
  it('every malformed call answers invalid_parameters with a path, changes nothing, never names the credential, and the limiter keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(badCall, { minLength: 1, maxLength: 8 }), async (calls) => {
        const { limiter, clock } = await fixture();
        const before = JSON.stringify(await limiter.snapshot());
        for (const call of calls) {
          let result: unknown;
          try {
            result = await call.run(limiter);
          } catch (e) {
            throw new Error(`${call.label} threw or rejected: ${String(e)}`);
          }
          const error = errorOf(result);
          if (error === undefined) throw new Error(`${call.label} answered ${JSON.stringify(result)}, not an error`);
          expect(error.code, call.label).toBe('invalid_parameters');
          expect(error.path, call.label).toMatch(call.path);
          expect(error.message.startsWith(String(error.path)), call.label).toBe(true);
          expect(error.message, call.label).not.toContain(SECRET);
          expect(clock.pendingTimers, call.label).toBe(0);
        }
        expect(JSON.stringify(await limiter.snapshot())).toBe(before);
        expect(clock.pendingTimers).toBe(0);
        // still serving: the untouched bucket has room, the busy one answers its exact wait
        expect((await limiter.checkRate(OTHER, GOOD_LIMIT, 8)).kind).toBe('ok');
        expect(await limiter.checkRate(GOOD_KEY, GOOD_LIMIT, 1)).toEqual({ kind: 'delay', retryAfterMs: 100 });
      }),
      { numRuns: 300 },
    );
  });

  it('malformed records never throw, change nothing and are counted', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(badRecord, { minLength: 1, maxLength: 6 }), async (records) => {
        const { limiter } = await fixture();
        const before = JSON.stringify(await limiter.snapshot());
        for (const [k, c, x] of records) limiter.record(k as BucketKey, c as number, x as Limit);
        expect(JSON.stringify(await limiter.snapshot())).toBe(before);
        expect(limiter.stats().recordsDropped).toBe(records.length);
      }),
      { numRuns: 200 },
    );
  });

  it('numeric bad values are named in the message', async () => {
    const { limiter } = await fixture();
    for (const v of [-3.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      const e = errorOf(await limiter.checkRate(GOOD_KEY, GOOD_LIMIT, v));
      expect(e?.message).toContain(String(v));
      const b = errorOf(await limiter.waitForCapacity([{ key: GOOD_KEY, limit: GOOD_LIMIT, cost: 1 }], { maxWaitMs: v }));
      expect(b?.message).toContain(String(v));
      const p = errorOf(await limiter.checkRate(GOOD_KEY, { requests: 5, periodMs: v }, 1));
      expect(p?.message).toContain(String(v));
    }
  });
});
