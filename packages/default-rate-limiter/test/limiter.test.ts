import { describe, expect, it } from 'vitest';
import { ManualClock } from '@core/rate-limit-conformance';
import type { BucketKey, BucketSnapshot, Decision } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '../src/default-rate-limiter.js';
import { WINDOW_SLOTS, hashCredential } from '@core/rate-limit-kit';

const SECRET = 'sk-live-DO-NOT-LEAK-0987654321';
const okx = (axis = 'request', credential: string | null = SECRET): BucketKey => ({ venue: 'okx', credential, axis });

function setup(start = 1_000_000) {
  const clock = new ManualClock(start);
  return { clock, limiter: createDefaultRateLimiter({ clock }) };
}

function kind(d: Decision): string {
  return d.kind === 'error' ? `error:${d.error.code}` : d.kind;
}

describe('DefaultRateLimiter', () => {
  it('tryAcquireSync answers exactly what checkRate answers', async () => {
    const a = setup();
    const b = setup();
    const limit = { requests: 3, periodMs: 300 };
    for (let i = 0; i < 6; i++) {
      expect(a.limiter.tryAcquireSync(okx(), limit, 1)).toEqual(await b.limiter.checkRate(okx(), limit, 1));
    }
    expect(a.limiter.tryAcquireSync(okx(), limit, -1)).toEqual(await b.limiter.checkRate(okx(), limit, -1));
    expect(await a.limiter.borrowed(okx())).toBe(await b.limiter.borrowed(okx()));
  });

  it('a booking with checkRate names the send time and the exact wait', async () => {
    const { limiter, clock } = setup();
    const limit = { capacity: 1, refillPerSec: 3 };
    await limiter.checkRate(okx(), limit, 1);
    const d = await limiter.checkRate(okx(), limit, 1, { maxWaitMs: 1000 });
    expect(d.kind === 'booked' && d.waitMs).toBeCloseTo(1000 / 3, 9);
    expect(d.kind === 'booked' && d.sendAtMs - clock.now()).toBeCloseTo(1000 / 3, 9);
  });

  it('RL-L4 a quota that cannot pay answers cost_unpayable at once, with the quota and what is left', async () => {
    const { limiter } = setup();
    const limit = { capacity: 10, refillPerSec: 0 };
    expect(kind(await limiter.checkRate(okx(), limit, 7))).toBe('ok');
    const d = await limiter.waitForCapacity([{ key: okx(), limit, cost: 4 }], { maxWaitMs: 1e9 });
    expect(d.kind === 'error' && d.error.code).toBe('cost_unpayable');
    if (d.kind === 'error') expect(d.error.message).toContain('3 left');
    expect(await limiter.borrowed(okx())).toBe(7);
  });

  it('RL-K3 snapshot shows the credential only as its hash (keyed when a secret is configured)', async () => {
    const clock = new ManualClock();
    const plain = createDefaultRateLimiter({ clock });
    const keyed = createDefaultRateLimiter({ clock, credentialSecret: 'pepper' });
    for (const l of [plain, keyed]) await l.checkRate(okx('orders'), { requests: 5 }, 2);
    const [a] = (await plain.snapshot()) as BucketSnapshot[];
    const [b] = (await keyed.snapshot()) as BucketSnapshot[];
    expect(a).toMatchObject({ venue: 'okx', axis: 'orders', credentialHash: hashCredential(SECRET), capacity: 5, borrowed: 2, tokens: 3 });
    expect(b?.credentialHash).toBe(hashCredential(SECRET, 'pepper'));
    expect(JSON.stringify([a, b])).not.toContain(SECRET);
  });

  it('RL-R3 a penalty shows its end in the snapshot; one on an undefined bucket folds in at first definition', async () => {
    const { limiter, clock } = setup();
    const limit = { requests: 10 };
    expect(await limiter.penalize(okx('a'), { forMs: 5000 })).toEqual({ kind: 'ok' });
    expect(kind(await limiter.checkRate(okx('a'), limit, 1))).toBe('delay');
    await limiter.checkRate(okx('b'), limit, 1);
    await limiter.penalize(okx('b'), { untilMs: clock.now() + 2000 });
    const snap = (await limiter.snapshot()) as BucketSnapshot[];
    expect(snap.find((s) => s.axis === 'b')?.heldUntilMs).toBe(clock.now() + 2000);
    await clock.advance(5000);
    expect(kind(await limiter.checkRate(okx('a'), limit, 1))).toBe('delay'); // empty at 5000, one token after 100 ms
    await clock.advance(100);
    expect(kind(await limiter.checkRate(okx('a'), limit, 1))).toBe('ok');
  });

  it('RL-R1 a record without a limit on an unknown bucket keeps the debt until its first definition', async () => {
    const { limiter } = setup();
    limiter.record(okx(), 5);
    expect(await limiter.borrowed(okx())).toBe(5);
    expect(kind(await limiter.checkRate(okx(), { requests: 6 }, 2))).toBe('delay');
    expect(kind(await limiter.checkRate(okx(), { requests: 6 }, 1))).toBe('ok');
    expect(await limiter.borrowed(okx())).toBeCloseTo(6, 9);
  });

  it('record counts what it drops and never throws', () => {
    const { limiter } = setup();
    limiter.record(okx(), Number.NaN);
    limiter.record(null as unknown as BucketKey, 1);
    limiter.record(okx(), 1, { capacity: 0, refillPerSec: 1 });
    expect(limiter.stats().recordsDropped).toBe(3);
  });

  it('RL-L5 a new definition of a live bucket converts the borrowed amount', async () => {
    const { limiter } = setup();
    await limiter.checkRate(okx(), { requests: 10 }, 6);
    expect(kind(await limiter.checkRate(okx(), { capacity: 100, refillPerSec: 1 }, 94))).toBe('ok');
    expect(await limiter.borrowed(okx())).toBeCloseTo(100, 9);
  });

  it('RL-W5 an aborted waiter returns its booking and the next waiter can use it', async () => {
    const { limiter, clock } = setup();
    const limit = { capacity: 1, refillPerSec: 1 };
    await limiter.checkRate(okx(), limit, 1);
    const ac = new AbortController();
    const pending = limiter.waitForCapacity([{ key: okx(), limit, cost: 1 }], { maxWaitMs: 5000, signal: ac.signal });
    expect(clock.pendingTimers).toBe(1);
    expect(await limiter.borrowed(okx())).toBeCloseTo(2, 9);
    ac.abort();
    const d = await pending;
    expect(d.kind === 'error' && d.error.code).toBe('aborted');
    expect(clock.pendingTimers).toBe(0);
    expect(await limiter.borrowed(okx())).toBeCloseTo(1, 9);
  });

  it('RL-W5 RL-R3 a penalty after a booking forfeits the slot on abort, even when it left the number unchanged', async () => {
    const { limiter, clock } = setup();
    const limit = { capacity: 1, refillPerSec: 16 };
    const ac = new AbortController();
    const pending = limiter.waitForCapacity([{ key: okx(), limit, cost: 8 }], { maxWaitMs: 3000, signal: ac.signal });
    await limiter.penalize(okx(), { forMs: 100 }); // inside the booking's span: the number does not move
    ac.abort();
    const d = await pending;
    expect(d.kind === 'error' && d.error.message).toContain('forfeited');
    expect(await limiter.borrowed(okx())).toBeCloseTo(8, 9);
    await clock.advance(50);
    expect(kind(await limiter.checkRate(okx(), limit, 1))).toBe('delay');
  });

  it('RL-W5 RL-R3 aborting a booking on a bucket first defined by it keeps the penalty registered before it', async () => {
    const { limiter, clock } = setup();
    const limit = { capacity: 1, refillPerSec: 0.5 };
    await limiter.penalize(okx(), { forMs: 100 }); // the bucket has no definition yet: the hold is kept
    const ac = new AbortController();
    const pending = limiter.waitForCapacity([{ key: okx(), limit, cost: 1 }], { maxWaitMs: 10_000, signal: ac.signal });
    ac.abort();
    expect(kind(await pending)).toBe('error:aborted');
    expect(limiter.stats()).toMatchObject({ buckets: 0, pending: 1 }); // forgotten again, the hold kept pending
    await clock.advance(50);
    // empty at the hold's end (100 ms after the penalty), one token 2000 ms later
    expect(await limiter.checkRate(okx(), limit, 1)).toEqual({ kind: 'delay', retryAfterMs: 2050 });
  });

  it('RL-W5 a returned booking on a bucket it created leaves no bucket behind', async () => {
    const { limiter } = setup();
    const ac = new AbortController();
    const pending = limiter.waitForCapacity([{ key: okx(), limit: { capacity: 2, refillPerSec: 8 }, cost: 3 }], { maxWaitMs: 200, signal: ac.signal });
    ac.abort();
    await pending;
    expect(limiter.stats().buckets).toBe(0);
    expect(await limiter.borrowed(okx())).toBe(0);
  });

  it('RL-W7 close resolves pending waiters closed, cancels timers, later calls answer closed', async () => {
    const { limiter, clock } = setup();
    const limit = { capacity: 1, refillPerSec: 1 };
    await limiter.checkRate(okx(), limit, 1);
    const pending = limiter.waitForCapacity([{ key: okx(), limit, cost: 1 }]);
    await limiter.close();
    expect(kind(await pending)).toBe('error:closed');
    expect(clock.pendingTimers).toBe(0);
    expect(kind(await limiter.checkRate(okx(), limit, 1))).toBe('error:closed');
    expect(await limiter.borrowed(okx())).toMatchObject({ kind: 'error', error: { code: 'closed' } });
    expect(await limiter.sync(okx(), limit, 1)).toMatchObject({ kind: 'error', error: { code: 'closed' } });
    expect(await limiter.snapshot()).toMatchObject({ kind: 'error', error: { code: 'closed' } });
  });

  it('a frozen key or limit (no cache slot on the object) works the same', async () => {
    const { limiter } = setup();
    const key = Object.freeze(okx());
    const limit = Object.freeze({ requests: 2 });
    expect(kind(await limiter.checkRate(key, limit, 1))).toBe('ok');
    expect(kind(await limiter.checkRate(key, limit, 1))).toBe('ok');
    expect(kind(await limiter.checkRate(key, limit, 1))).toBe('delay');
  });

  it('a key or limit object mutated after use is read afresh, never from a stale cache', async () => {
    const { limiter } = setup();
    const key = { venue: 'okx', credential: null as string | null, axis: 'x' };
    const limit = { capacity: 1, refillPerSec: 1 };
    expect(kind(await limiter.checkRate(key, limit, 1))).toBe('ok');
    key.axis = 'y';
    expect(kind(await limiter.checkRate(key, limit, 1))).toBe('ok');
    (limit as { capacity: number }).capacity = 5;
    expect(kind(await limiter.checkRate(key, limit, 4))).toBe('ok');
    expect(kind(await limiter.checkRate(key, limit, 1))).toBe('delay');
    expect(Object.keys(key)).toEqual(['venue', 'credential', 'axis']);
    expect(JSON.stringify(limit)).toBe('{"capacity":5,"refillPerSec":1}');
  });

  it('RL-F1 a signal or clock that throws mid-wait gives a typed error, never a rejection', async () => {
    const clock = new ManualClock();
    const limiter = createDefaultRateLimiter({ clock });
    const limit = { capacity: 1, refillPerSec: 1 };
    await limiter.checkRate(okx(), limit, 1);
    const hostile = {
      aborted: false,
      addEventListener: () => {
        throw new Error(SECRET);
      },
      removeEventListener: () => {},
    } as unknown as AbortSignal;
    const d = await limiter.waitForCapacity([{ key: okx(), limit, cost: 1 }], { signal: hostile });
    expect(d).toMatchObject({ kind: 'error', error: { code: 'internal' } });
    expect(JSON.stringify(d)).not.toContain(SECRET);
    const broken = createDefaultRateLimiter({
      clock: {
        now: () => 0,
        setTimer: () => {
          throw new Error('no timers');
        },
      },
    });
    await broken.checkRate(okx(), limit, 1);
    expect(await broken.waitForCapacity([{ key: okx(), limit, cost: 1 }])).toMatchObject({ kind: 'error', error: { code: 'internal' } });
  });

  it('construction refuses malformed options with a TypeError', () => {
    expect(() => createDefaultRateLimiter({ clock: {} as never })).toThrow(TypeError);
    expect(() => createDefaultRateLimiter({ idleSweepEvery: 0 })).toThrow(/idleSweepEvery/);
    expect(() => createDefaultRateLimiter({ credentialSecret: '' })).toThrow(/credentialSecret/);
  });

  it('specificationVersion and capabilities', () => {
    const { limiter } = setup();
    expect(limiter.specificationVersion).toBe('v1');
    expect(limiter.capabilities).toEqual({
      distributed: false,
      injectableClock: true,
      bookings: true,
      abortSignal: true,
      fractionalCosts: true,
      snapshot: true,
      sync: true,
      penalize: true,
      crossVenueChecks: true,
      windowLimits: true,
      priorities: true,
      windowSlots: WINDOW_SLOTS,
    });
    expect(Object.isFrozen(limiter.capabilities)).toBe(true);
  });
});
