import { afterEach, describe, expect, it } from 'vitest';
import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { DEFAULT_GATED_WINDOW_RESERVE, DEFAULT_WINDOW_RESERVE, NO_RESERVE, bucketMaxCost, getVenueSpec } from '@core/exchange-specs';
import { ManualClock } from '@core/rate-limit-conformance';
import { createPacedFetch, DEFAULT_WINDOW_BURST, type AttemptEvent } from '../src/index.js';
import { FakeFetch, json } from './fake-fetch.js';
import { testVenue } from './test-venue.js';

const URL_BASE = 'https://venue.invalid';
const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0, windowLimits: false } as const;
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

describe('classes (RL-Q1)', () => {
  it('a critical request goes out at once while bulk requests have booked the weight seconds ahead', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const events: AttemptEvent[] = [];
    // weight: safe limit capacity 10, refill 8/s; bulk spends it up to 8 (the test venue names no
    // critical request by nature, so its buckets keep nothing free unless the client says so)
    const market = createPacedFetch({
      venue: testVenue,
      identity: { credential: 'key-1' },
      limiter,
      fetch: fake.fetch,
      clock,
      onAttempt: (e) => events.push(e),
      priority: 'bulk',
      reserve: { bulk: 0.2 },
      ...PINNED,
    });
    const trading = createPacedFetch({
      venue: testVenue,
      identity: { credential: 'key-1' },
      limiter,
      fetch: fake.fetch,
      clock,
      onAttempt: (e) => events.push(e),
      priority: (r) => (r.path === '/order' ? 'critical' : undefined),
      ...PINNED,
    });
    const polls = Array.from({ length: 30 }, () => market(`${URL_BASE}/ping`));
    await clock.whenTimers(1);
    expect(fake.calls).toHaveLength(8); // the bulk line; 22 booked 125 ms apart
    await trading(`${URL_BASE}/order`, { method: 'POST' });
    expect(fake.calls).toHaveLength(9);
    const order = events.find((e) => e.request.path === '/order');
    expect(order?.priority).toBe('critical');
    expect(order?.waitedMs).toBe(0);
    // an unmarked request of the trading client is normal: it finds what lies between bulk's line and the capacity
    await trading(`${URL_BASE}/ping`);
    expect(events.at(-1)?.priority).toBe('normal');
    expect(events.at(-1)?.waitedMs).toBe(0);
    await clock.advance(30_000);
    await Promise.all(polls);
    expect(events.filter((e) => e.priority === 'bulk')).toHaveLength(30);
  });

  it('each bucket carries its own reserve by default: room where cancels are charged, none elsewhere (RL-Q6)', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const events: AttemptEvent[] = [];
    const market = createPacedFetch({
      venue: 'binance-spot',
      identity: { credential: 'key-1' },
      limiter,
      fetch: fake.fetch,
      clock,
      onAttempt: (e) => events.push(e),
      priority: 'bulk',
    });
    await market('https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=100');
    await market('https://api.binance.com/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=1', { method: 'POST' });
    const reserveOf = (e: AttemptEvent | undefined, axis: string) => e?.checks.find((c) => c.key.axis === axis)?.reserve;
    // the IP weight, where cancels are charged, only when they fail: admitted at their gate (deferred
    // charges, on by default in process), so bulk keeps 1.5 % of the window
    expect(reserveOf(events[0], 'request_weight')).toEqual(DEFAULT_GATED_WINDOW_RESERVE);
    // the account's order count, which no cancel spends: nothing kept
    expect(reserveOf(events[1], 'orders_10s')).toEqual(NO_RESERVE);
    // the weight's pacing bucket holds its burst (at least the bucket's largest cost) plus the window's room, which its shares keep from bulk
    const weight = events[0]?.checks.find((c) => c.key.axis === 'request_weight');
    const pace = events[0]?.checks.find((c) => c.key.axis === 'request_weight/pace');
    const perWindow = (weight?.limit as { perWindow: number } | undefined)?.perWindow ?? Number.NaN;
    const capacity = (pace?.limit as { capacity: number } | undefined)?.capacity ?? Number.NaN;
    const largest = bucketMaxCost(getVenueSpec('binance-spot'), 'request_weight');
    // the burst no more than the window keeps free for higher classes
    expect(capacity).toBeCloseTo(Math.max(Math.min(DEFAULT_WINDOW_BURST, 0.015) * perWindow, largest) + 0.015 * perWindow, 6);
    expect((pace?.reserve?.bulk ?? 0) * capacity).toBeCloseTo(0.015 * perWindow, 6);
    // with the charges reserved at admission (no deferred charges), cancels need their whole cost: 5 %
    const reserving = createPacedFetch({
      venue: 'binance-spot',
      identity: { credential: 'key-1' },
      limiter,
      fetch: fake.fetch,
      clock,
      onAttempt: (e) => events.push(e),
      priority: 'bulk',
      deferredCharges: false,
    });
    await reserving('https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=100');
    expect(reserveOf(events.at(-1), 'request_weight')).toEqual(DEFAULT_WINDOW_RESERVE);
  });

  it('a reserve function sets a bucket’s own; the window’s room is kept on its pacing bucket, so a critical request finds it at once', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const events: AttemptEvent[] = [];
    const base = {
      venue: testVenue,
      identity: { credential: 'key-1' },
      limiter,
      fetch: fake.fetch,
      clock,
      onAttempt: (e: AttemptEvent) => events.push(e),
      margin: 0.1,
      jitterMs: 0,
      reserve: (c: BucketCheck) => (c.key.axis === 'weight' ? { bulk: 0.2 } : undefined),
    };
    const market = createPacedFetch({ ...base, priority: 'bulk' });
    const trading = createPacedFetch({ ...base, priority: (r) => (r.path === '/heavy' ? 'critical' : undefined) });
    const polls = Array.from({ length: 30 }, () => market(`${URL_BASE}/ping`));
    await clock.whenTimers(1);
    // bulk goes out at the pacing bucket's burst and books the rest of the pace ahead
    expect(fake.calls.length).toBeLessThan(30);
    expect(events[0]?.checks.find((c) => c.key.axis === 'weight')?.reserve).toEqual({ normal: 0, bulk: 0.2 });
    // a critical request of cost 10 (more than a fifth of the pacing bucket's burst) goes at once
    await trading(`${URL_BASE}/heavy`);
    const heavy = events.find((e) => e.request.path === '/heavy');
    expect(heavy?.priority).toBe('critical');
    expect(heavy?.waitedMs).toBe(0);
    await clock.advance(60_000);
    await Promise.all(polls);
    expect(events.filter((e) => e.priority === 'bulk')).toHaveLength(30);
  });

  it('takes the class a venue spec gives a request by nature: a cancel is critical', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const events: AttemptEvent[] = [];
    const paced = createPacedFetch({
      venue: 'binance-spot',
      identity: { credential: 'key-1' },
      limiter,
      fetch: fake.fetch,
      clock,
      onAttempt: (e) => events.push(e),
      ...PINNED,
    });
    await paced('https://api.binance.com/api/v3/order?symbol=BTCUSDT&orderId=1', { method: 'DELETE' });
    await paced('https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=100');
    expect(events.map((e) => e.priority)).toEqual(['critical', 'normal']);
  });

  it('a limiter without classes: requests go unclassed, and naming a class is refused at creation', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const inner = createDefaultRateLimiter({ clock });
    limiters.push(inner);
    // a limiter written before classes: every method delegated, no priorities in its capabilities
    const plain: RateLimiter = {
      specificationVersion: inner.specificationVersion,
      capabilities: { ...inner.capabilities, priorities: false },
      checkRate: (...a) => inner.checkRate(...a),
      checkRates: (...a) => inner.checkRates(...a),
      waitForCapacity: (...a) => inner.waitForCapacity(...a),
      peek: (...a) => inner.peek(...a),
      record: (...a) => inner.record(...a),
      sync: (...a) => inner.sync(...a),
      penalize: (...a) => inner.penalize(...a),
      borrowed: (...a) => inner.borrowed(...a),
      reset: (...a) => inner.reset(...a),
      resetVenue: (...a) => inner.resetVenue(...a),
      resetAll: () => inner.resetAll(),
      snapshot: () => inner.snapshot(),
      close: () => inner.close(),
    };
    const events: AttemptEvent[] = [];
    const paced = createPacedFetch({
      venue: 'binance-spot',
      identity: { credential: 'key-1' },
      limiter: plain,
      fetch: fake.fetch,
      clock,
      onAttempt: (e) => events.push(e),
      ...PINNED,
    });
    await paced('https://api.binance.com/api/v3/order?symbol=BTCUSDT&orderId=1', { method: 'DELETE' });
    expect(events[0]?.priority).toBeUndefined();
    expect(() => createPacedFetch({ venue: 'binance-spot', identity: { credential: null }, limiter: plain, priority: 'bulk' })).toThrow(
      /capabilities.priorities/,
    );
  });
});
