import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import { createPacedFetch, type AttemptEvent } from '../src/index.js';
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
    // weight: safe limit capacity 10, refill 8/s; bulk spends it up to 8
    const market = createPacedFetch({ venue: testVenue, identity: { credential: 'key-1' }, limiter, fetch: fake.fetch, clock, onAttempt: (e) => events.push(e), priority: 'bulk', ...PINNED });
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

  it('takes the class a venue spec gives a request by nature: a cancel is critical', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(1_000_000);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const events: AttemptEvent[] = [];
    const paced = createPacedFetch({ venue: 'binance-spot', identity: { credential: 'key-1' }, limiter, fetch: fake.fetch, clock, onAttempt: (e) => events.push(e), ...PINNED });
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
    const paced = createPacedFetch({ venue: 'binance-spot', identity: { credential: 'key-1' }, limiter: plain, fetch: fake.fetch, clock, onAttempt: (e) => events.push(e), ...PINNED });
    await paced('https://api.binance.com/api/v3/order?symbol=BTCUSDT&orderId=1', { method: 'DELETE' });
    expect(events[0]?.priority).toBeUndefined();
    expect(() => createPacedFetch({ venue: 'binance-spot', identity: { credential: null }, limiter: plain, priority: 'bulk' })).toThrow(/capabilities.priorities/);
  });
});
