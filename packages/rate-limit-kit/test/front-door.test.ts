import { describe, expect, it } from 'vitest';
import type { BucketCheck, Capabilities, Clock, Limit, TimerHandle } from '@core/rate-limit-contract';
import type { Admission, AdmitMode, Definition, Hold, LimiterStore, ResolvedKey } from '../src/index.js';
import { StoreRateLimiter } from '../src/index.js';

/** Lets every pending promise callback run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

const ALL: Capabilities = {
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
};

class TestClock implements Clock {
  t = 1000;
  timers: { at: number; fn: () => void; live: boolean }[] = [];
  now(): number {
    return this.t;
  }
  setTimer(fn: () => void, ms: number): TimerHandle {
    const timer = { at: this.t + ms, fn, live: true };
    this.timers.push(timer);
    return { cancel: () => void (timer.live = false) };
  }
  advance(ms: number): void {
    this.t += ms;
    for (const timer of this.timers) if (timer.live && timer.at <= this.t) (timer.live = false), timer.fn();
  }
}

interface AdmitCall {
  readonly ids: string[];
  readonly costs: number[];
  readonly caps: number[];
  readonly mode: AdmitMode;
  readonly budget: number | undefined;
}

/** A store that answers what a test tells it and remembers what it was asked. */
class ScriptedStore implements LimiterStore {
  readonly timers: TestClock;
  readonly calls: AdmitCall[] = [];
  readonly cancels: unknown[] = [];
  readonly held: { ids: string[]; costs: number[]; heldAtMs: number }[] = [];
  heldAnswer: Admission = { status: 'admitted', sendAt: 1000, now: 1000 };
  answer: (call: AdmitCall) => Admission | Promise<Admission> = () => ({ status: 'admitted', sendAt: this.timers.t, now: this.timers.t });
  dropped = 0;
  recorded: [string, number, number | undefined][] = [];
  constructor(
    readonly capabilities: Capabilities = ALL,
    readonly synchronous = true,
  ) {
    this.timers = new TestClock();
  }
  now(): number {
    return this.timers.t;
  }
  admit(n: number, keys: readonly ResolvedKey[], defs: readonly Definition[], costs: readonly number[], mode: AdmitMode, budgetMs: number | undefined) {
    const call = {
      ids: keys.slice(0, n).map((k) => `${k.venue}/${k.axis}`),
      costs: costs.slice(0, n),
      caps: defs.slice(0, n).map((d) => d.capacity),
      mode,
      budget: budgetMs,
    };
    this.calls.push(call);
    return this.answer(call);
  }
  heldWait(n: number, keys: readonly ResolvedKey[], _defs: readonly Definition[], costs: readonly number[], heldAtMs: number): Admission {
    this.held.push({ ids: keys.slice(0, n).map((k) => `${k.venue}/${k.axis}`), costs: costs.slice(0, n), heldAtMs });
    return this.heldAnswer;
  }
  cancel(booking: unknown): boolean {
    this.cancels.push(booking);
    return true;
  }
  record(key: ResolvedKey, cost: number, def: Definition | undefined): void {
    this.recorded.push([key.id, cost, def?.capacity]);
  }
  dropRecord(): void {
    this.dropped++;
  }
  sync() {
    return { kind: 'ok' } as const;
  }
  penalize(_key: ResolvedKey, _hold: Hold) {
    return { kind: 'ok' } as const;
  }
  borrowed() {
    return 0;
  }
  reset() {
    return { kind: 'ok' } as const;
  }
  resetVenue() {
    return { kind: 'ok' } as const;
  }
  resetAll() {
    return { kind: 'ok' } as const;
  }
  snapshot() {
    return [];
  }
  close(): void {}
}

const key = (axis = 'request', credential: string | null = null) => ({ venue: 'alpha', credential, axis });
const limit: Limit = { requests: 10 };
const throwing = <T extends object>(): T =>
  new Proxy({} as T, {
    get: () => {
      throw new Error('sk-live-secret');
    },
  });

describe('StoreRateLimiter: the shared front door', () => {
  it('RL-M2 merges repeated keys at their combined cost and drops unlimited buckets and zero costs', async () => {
    const store = new ScriptedStore();
    const limiter = new StoreRateLimiter(store);
    const checks: BucketCheck[] = [
      { key: key('a'), limit, cost: 1 },
      { key: key('b'), limit: null, cost: 5 },
      { key: { venue: 'alpha', credential: null, axis: 'a' }, limit: { capacity: 10, refillPerSec: 10 }, cost: 2 },
      { key: key('c'), limit, cost: 0 },
      { key: key(), limit, cost: 4 },
    ];
    expect(await limiter.checkRates(checks)).toEqual({ kind: 'ok', sendAtMs: 1000 });
    expect(store.calls).toEqual([{ ids: ['alpha/a', 'alpha/request'], costs: [3, 4], caps: [10, 10], mode: 'probe', budget: undefined }]);
    expect(await limiter.checkRates([{ key: key('b'), limit: null, cost: 5 }])).toEqual({ kind: 'ok', sendAtMs: 1000 });
    expect(store.calls).toHaveLength(1);
  });

  it('RL-W1 a booking for later answers booked with the exact wait; ok only means now', async () => {
    const store = new ScriptedStore();
    store.answer = () => ({ status: 'admitted', sendAt: 1000 + 100 / 3, now: 1000 });
    const limiter = new StoreRateLimiter(store);
    expect(await limiter.checkRate(key(), limit, 1, { maxWaitMs: 500 })).toEqual({ kind: 'booked', sendAtMs: 1000 + 100 / 3, waitMs: 1000 + 100 / 3 - 1000 });
    expect(store.calls[0]).toMatchObject({ mode: 'book', budget: 500 });
    store.answer = () => ({ status: 'wait', waitMs: 100 / 3 });
    expect(await limiter.checkRate(key(), limit, 1)).toEqual({ kind: 'delay', retryAfterMs: 34 });
  });

  it('RL-A7 RL-L4 cost_unpayable names the bucket by its path, venue and axis, without float noise', async () => {
    const store = new ScriptedStore();
    const limiter = new StoreRateLimiter(store);
    store.answer = () => ({ status: 'unpayable', index: 1, reason: 'quota', left: 1.3234889800848443e-23 });
    const d = await limiter.checkRates([
      { key: key('a'), limit, cost: 1 },
      { key: key('q'), limit: { capacity: 0.3, refillPerSec: 0 }, cost: 0.30000000000000004 },
    ]);
    expect(d).toMatchObject({ kind: 'error', error: { code: 'cost_unpayable', path: 'checks[1]' } });
    if (d.kind !== 'error') return;
    expect(d.error.message).toBe('checks[1]: cost 0.3 can never be paid on alpha/q: it is a fixed quota of 0.3 (refill 0) with 0 left');
    store.answer = () => ({ status: 'unpayable', index: 0, reason: 'horizon', left: 0 });
    const h = await limiter.checkRate(key(), { capacity: 10, refillPerSec: 1 }, 1e308);
    expect(h).toMatchObject({ kind: 'error', error: { code: 'cost_unpayable', path: 'cost' } });
    if (h.kind === 'error') expect(h.error.message).toMatch(/cannot|exceed what the limiter can represent/);
    if (h.kind === 'error') expect(h.error.message).not.toMatch(/quota|refill 0/);
  });

  it('RL-F2 unreadable input is invalid_parameters for every method, and record drops it', async () => {
    const store = new ScriptedStore();
    const limiter = new StoreRateLimiter(store);
    const bad = throwing<never>();
    const answers = [
      await limiter.checkRate(bad, limit, 1),
      await limiter.checkRate(key(), bad, 1),
      await limiter.checkRate(key(), limit, 1, bad),
      await limiter.checkRates(bad),
      await limiter.checkRates([bad]),
      await limiter.peek([{ key: bad, limit, cost: 1 }]),
      await limiter.waitForCapacity([{ key: key(), limit, cost: 1 }], bad),
      await limiter.waitForCapacity([{ key: key(), limit, cost: 1 }], {
        signal: {
          get aborted(): boolean {
            throw new Error('x');
          },
          addEventListener() {},
          removeEventListener() {},
        } as unknown as AbortSignal,
      }),
      await limiter.sync(bad, limit, 1),
      await limiter.sync(key(), bad, 1),
      await limiter.penalize(bad, { forMs: 1 }),
      await limiter.penalize(key(), bad),
      await limiter.borrowed(bad),
      await limiter.reset(bad),
    ];
    for (const a of answers) expect(a).toMatchObject({ kind: 'error', error: { code: 'invalid_parameters' } });
    for (const a of answers) expect(JSON.stringify(a)).not.toContain('sk-live-secret');
    expect(() => limiter.record(bad, 1)).not.toThrow();
    expect(() => limiter.record(key(), 1, bad)).not.toThrow();
    expect(store.dropped).toBe(2);
    expect(store.calls).toHaveLength(0);
  });

  it('RL-L2 a missing limit is invalid_parameters, never unlimited', async () => {
    const store = new ScriptedStore();
    const limiter = new StoreRateLimiter(store);
    const d = await limiter.checkRates([{ key: key(), cost: 1000 } as unknown as BucketCheck]);
    expect(d).toMatchObject({ kind: 'error', error: { code: 'invalid_parameters', path: 'checks[0].limit' } });
    expect(store.calls).toHaveLength(0);
  });

  it('RL-F2 an operation whose capability is false answers not_supported whatever its arguments', async () => {
    const store = new ScriptedStore({ ...ALL, sync: false, penalize: false, snapshot: false, bookings: false });
    const limiter = new StoreRateLimiter(store);
    expect(await limiter.sync(throwing<never>(), throwing<never>(), Number.NaN)).toMatchObject({ error: { code: 'not_supported' } });
    expect(await limiter.penalize(throwing<never>(), throwing<never>())).toMatchObject({ error: { code: 'not_supported' } });
    expect(await limiter.snapshot()).toMatchObject({ error: { code: 'not_supported' } });
    expect(await limiter.waitForCapacity(throwing<never>())).toMatchObject({ error: { code: 'not_supported' } });
    expect(await limiter.checkRate(key(), limit, 1, { maxWaitMs: 10 })).toMatchObject({ error: { code: 'not_supported' } });
  });

  it('RL-F2 without window limits, a window limit answers not_supported whatever the other arguments', async () => {
    const store = new ScriptedStore({ ...ALL, windowLimits: false });
    const limiter = new StoreRateLimiter(store);
    const w = { perWindow: 10, windowMs: 1000, jitterMs: 50 };
    const notSupported = { kind: 'error', error: { code: 'not_supported' } };
    expect(await limiter.checkRate(key(), w, 0)).toMatchObject(notSupported);
    expect(await limiter.checkRate(key(), w, -1)).toMatchObject(notSupported);
    expect(await limiter.checkRates([{ key: key(), limit: w, cost: 1 }], { maxWaitMs: -5 })).toMatchObject(notSupported);
    expect(
      await limiter.peek([
        { key: key(), limit, cost: 1 },
        { key: key('other'), limit: w, cost: Number.NaN },
      ]),
    ).toMatchObject(notSupported);
    expect(await limiter.waitForCapacity([{ key: key(), limit: w, cost: 1 }], { maxWaitMs: -5 })).toMatchObject(notSupported);
    expect(await limiter.sync(key(), w, -1)).toMatchObject(notSupported);
    limiter.record(key(), 3, w);
    expect(store.recorded).toEqual([]);
    expect(store.dropped).toBe(1);
    expect(store.calls).toEqual([]);
  });

  it('internal errors never repeat a thrown message (it may hold input)', async () => {
    const store = new ScriptedStore();
    store.answer = () => {
      throw new Error('sk-live-secret');
    };
    const limiter = new StoreRateLimiter(store);
    const d = await limiter.checkRate(key(), limit, 1);
    expect(d).toMatchObject({ kind: 'error', error: { code: 'internal' } });
    expect(JSON.stringify(d)).not.toContain('sk-live-secret');
  });

  it('RL-W5 RL-W6 a waiter resolves ok at its send time; an abort returns its booking and says so', async () => {
    const store = new ScriptedStore();
    store.answer = () => ({ status: 'admitted', sendAt: store.timers.t + 300, now: store.timers.t, booking: 'b1' });
    const limiter = new StoreRateLimiter(store);
    const first = limiter.waitForCapacity([{ key: key(), limit, cost: 1 }], { maxWaitMs: 1000 });
    store.timers.advance(299);
    store.timers.advance(1);
    expect(await first).toEqual({ kind: 'ok', sendAtMs: 1300 });
    const controller = new AbortController();
    const second = limiter.waitForCapacity([{ key: key(), limit, cost: 1 }], { signal: controller.signal });
    controller.abort();
    expect(await second).toEqual({ kind: 'error', error: { code: 'aborted', message: 'the wait was aborted; its booking was returned' } });
    expect(store.cancels).toEqual(['b1']);
    store.answer = () => ({ status: 'wait', waitMs: 9999.99951171875 });
    const late = await limiter.waitForCapacity([{ key: key(), limit, cost: 1 }], { maxWaitMs: 5000 });
    expect(late).toEqual({
      kind: 'error',
      error: { code: 'rate_limit_timeout', message: 'the wait of 10000 ms exceeds the budget of 5000 ms; nothing was booked', retryAfterMs: 10000 },
    });
  });

  it('an asynchronous store: a signal that fires while the store books gets the booking returned', async () => {
    const store = new ScriptedStore(ALL, false);
    const controller = new AbortController();
    store.answer = async () => {
      controller.abort();
      return { status: 'admitted', sendAt: store.timers.t + 300, now: store.timers.t, booking: 'b2' };
    };
    const limiter = new StoreRateLimiter(store);
    const d = await limiter.waitForCapacity([{ key: key(), limit, cost: 1 }], { signal: controller.signal });
    expect(d).toMatchObject({ kind: 'error', error: { code: 'aborted' } });
    expect(store.cancels).toEqual(['b2']);
  });

  it("RL-W1 a booking answered late by a store elsewhere waits from the store's clock: on time, never early", async () => {
    const store = new ScriptedStore(ALL, false);
    let decided = 0;
    store.answer = async () => {
      decided = store.timers.t;
      // the store decided now; its answer arrives 80 ms later (a round trip that waited in a queue)
      store.timers.advance(80);
      return { status: 'admitted', sendAt: decided + 300, now: decided, booking: 'b3' };
    };
    const limiter = new StoreRateLimiter(store);
    let settled = false;
    const d = limiter.waitForCapacity([{ key: key(), limit, cost: 1 }], { maxWaitMs: 1000 }).then((x) => ((settled = true), x));
    await settle();
    store.timers.advance(219);
    await settle();
    expect(settled).toBe(false);
    store.timers.advance(1);
    await settle();
    expect(settled).toBe(true);
    expect(await d).toEqual({ kind: 'ok', sendAtMs: decided + 300 });
  });

  it('close settles every waiter with closed and later calls answer closed', async () => {
    const store = new ScriptedStore();
    store.answer = () => ({ status: 'admitted', sendAt: store.timers.t + 300, now: store.timers.t, booking: 'b' });
    const limiter = new StoreRateLimiter(store);
    const waiting = limiter.waitForCapacity([{ key: key(), limit, cost: 1 }]);
    await limiter.close();
    expect(await waiting).toMatchObject({ kind: 'error', error: { code: 'closed' } });
    expect(await limiter.checkRate(key(), limit, 1)).toMatchObject({ kind: 'error', error: { code: 'closed' } });
    limiter.record(key(), 1);
    expect(store.dropped).toBe(1);
  });
});
