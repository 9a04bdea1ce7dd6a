import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock, settle } from '@core/rate-limit-conformance';
import { createPacedFetch, type AttemptEvent } from '../src/index.js';
import { bybitOrderVenue, ordersInSteadyState } from './bybit-orders.js';
import { FakeFetch, json } from './fake-fetch.js';
import { testVenue, weightKey } from './test-venue.js';

/**
 * The venue's windows enforced as window limits (the default with a limiter that has them): the test
 * venue's IP weight is 100 per 10-s clock-aligned window, each request arriving up to `jitterMs` late.
 */
const URL_BASE = 'https://venue.invalid';
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/** Two slots of the limiter's slot ledger on the 10-s window: how much later than exact a window may free room. */
const SLOTS_SLACK_MS = (2 * 10_000) / 128;

function setup(fake: FakeFetch, startMs = 1_000_000, windowBurst: number | false = false) {
  const clock = new ManualClock(startMs);
  const limiter = createDefaultRateLimiter({ clock });
  limiters.push(limiter);
  const events: AttemptEvent[] = [];
  const paced = createPacedFetch({
    venue: testVenue,
    identity: { credential: null },
    limiter,
    fetch: fake.fetch,
    clock,
    jitterMs: 50,
    maxWaitMs: 60_000,
    windowBurst,
    onAttempt: (e) => events.push(e),
  });
  return { clock, limiter, paced, events };
}

describe('window limits in paced-fetch', () => {
  it('sends the whole window at once, then holds the next request one window and the jitter allowance later, give or take two slots', async () => {
    const fake = new FakeFetch(json(200, {}));
    const { clock, paced, events } = setup(fake);
    // ten requests of weight 10: the whole limit of 100, all at once
    for (let i = 0; i < 10; i++) await paced(`${URL_BASE}/heavy`);
    expect(fake.calls).toHaveLength(10);
    expect(events[0]?.checks[0]?.limit).toEqual({ perWindow: 100, windowMs: 10_000, jitterMs: 50 });
    const next = paced(`${URL_BASE}/ping`);
    await clock.advance(10_049);
    await settle();
    expect(fake.calls).toHaveLength(10);
    // the limiter's slot ledger counts a send anywhere in its slot: at most two slots (2 · 10 s / 128) later
    await clock.advance(1 + SLOTS_SLACK_MS);
    await next;
    expect(fake.calls).toHaveLength(11);
  });

  it("a usage header that counts only its own sends holds nothing back; one that counts another client's holds it back by that", async () => {
    // The venue reports what it counted in its clock-aligned 10-s window; its Date header places the
    // window (the run starts 1 s into one).
    let used = 0;
    let now = (): number => 0;
    const fake = new FakeFetch(() => {
      used += 10;
      return new Response('{}', {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-used-weight': String(used), date: new Date(now()).toUTCString() },
      });
    });
    const start = 1_700_000_001_000; // 1 s into a 10-s window
    const { clock, limiter, paced } = setup(fake, start);
    now = () => clock.now();
    for (let i = 0; i < 5; i++) {
      await paced(`${URL_BASE}/heavy`);
      await clock.advance(100);
    }
    // 50 of ours, all taken as ours: the window holds exactly what was sent
    expect(await limiter.borrowed(weightKey)).toBe(50);
    // another client spends 30 behind this fetch's back: the next report says 90 (30 of theirs, 60 of ours)
    used += 30;
    await paced(`${URL_BASE}/heavy`);
    expect(await limiter.borrowed(weightKey)).toBe(90);
    // so one more heavy request fits, not the four the limiter's own count alone would allow
    await paced(`${URL_BASE}/heavy`);
    const late = paced(`${URL_BASE}/heavy`);
    await clock.advance(1_000);
    await settle();
    expect(fake.calls).toHaveLength(7);
    await clock.advance(20_000);
    await late;
    expect(fake.calls).toHaveLength(8);
  });

  it("a send of another paced fetch on the same limiter, made before the window's latest possible start, is known as ours", async () => {
    // Two credentials' fetches send on the IP weight (aligned 10-s windows, Date floored to the second):
    // A sends at the window's start; B's answer 1.5 s later says 20, its Date 1 s in, so the window began
    // at the latest 0.55 s in and A's send is not taken as ours by its time: only what A's answer told does.
    let used = 0;
    let now = (): number => 0;
    const fake = new FakeFetch(() => {
      used += 10;
      return new Response('{}', {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-used-weight': String(used), date: new Date(now()).toUTCString() },
      });
    });
    const clock = new ManualClock(1_700_000_000_000);
    now = () => clock.now();
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const options = { venue: testVenue, limiter, fetch: fake.fetch, clock, jitterMs: 50, maxWaitMs: 60_000, windowBurst: false } as const;
    const a = createPacedFetch({ ...options, identity: { credential: 'a' } });
    const b = createPacedFetch({ ...options, identity: { credential: 'b' } });
    await a(`${URL_BASE}/heavy`);
    await clock.advance(1_500);
    await b(`${URL_BASE}/heavy`);
    // 20, all of it ours: nothing held back for another client
    expect(await limiter.borrowed(weightKey)).toBe(20);
  });

  it("a report of a new clock-aligned window forgets the window before's sends: its start is bounded from below by the last request answered with an earlier Date (RL-V9)", async () => {
    // The venue counts each clock-aligned 10-s window; its Date header (floored to the second) is the
    // only clock it shows. 80 weight from 9.5 s into a window (one request a millisecond after another,
    // each answered at once); with `ping`, 1 more at 9.98 s, answered with
    // a Date in the window's last second; a heavy request 40 ms into the next window reports 10.
    const run = async (ping: boolean): Promise<{ afterReport: number; sentAtOnce: number }> => {
      const counted = new Map<number, number>();
      let now = (): number => 0;
      const fake = new FakeFetch(() => {
        const url = fake.calls[fake.calls.length - 1]?.url ?? '';
        const w = Math.floor(now() / 10_000);
        counted.set(w, (counted.get(w) ?? 0) + (url.endsWith('/ping') ? 1 : 10));
        return new Response('{}', {
          status: 200,
          headers: { 'content-type': 'application/json', 'x-used-weight': String(counted.get(w)), date: new Date(now()).toUTCString() },
        });
      });
      const { clock, limiter, paced } = setup(fake, 1_700_000_009_500);
      now = () => clock.now();
      for (let i = 0; i < 8; i++) {
        await paced(`${URL_BASE}/heavy`);
        await clock.advance(1);
      }
      await clock.advance(472);
      if (ping) await paced(`${URL_BASE}/ping`);
      await clock.advance(60); // 40 ms into the next window
      await paced(`${URL_BASE}/heavy`);
      const afterReport = await limiter.borrowed(weightKey);
      const before = fake.calls.length;
      const eight = Promise.all(Array.from({ length: 8 }, () => paced(`${URL_BASE}/heavy`)));
      await settle();
      const sentAtOnce = fake.calls.length - before;
      let done = false;
      void eight.then(() => (done = true));
      for (let t = 0; t < 400 && !done; t++) {
        await clock.advance(100);
        await settle();
      }
      await eight;
      return { afterReport: typeof afterReport === 'number' ? afterReport : Number.NaN, sentAtOnce };
    };
    // the ping, sent at 9.98 s and dated 9 s, puts the new window's start after 9.98 s: the 80 sent at
    // 9.5 s reached the venue by 9.55 s, in the window before, and are forgotten; the ping is kept (it may
    // have arrived at 10.03 s)
    expect(await run(true)).toEqual({ afterReport: 11, sentAtOnce: 8 });
    // without it, the heavy request's Date (10 s) puts the start after 9.04 s only: the 80 still count
    expect(await run(false)).toEqual({ afterReport: 90, sentAtOnce: 1 });
  });

  it('a send answered while a report was on its way is taken as counted by it when its own answer reported less of the same window', async () => {
    // Two requests leave together; the venue counts A (10), then B (20), and answers A after 2 ms and B
    // after 3 ms. B's report counts A, sent with it (too recent to be taken by its time) and answered only
    // after B left: A's own answer, 10 of the same window, says the venue counted it before B.
    let used = 0;
    const clock = new ManualClock(1_700_000_001_000); // 1 s into a 10-s window
    const fetch = async (): Promise<Response> => {
      used += 10;
      const at = clock.now();
      const report = String(used);
      await new Promise<void>((r) => clock.setTimer(r, used / 5));
      return new Response('{}', { status: 200, headers: { 'content-type': 'application/json', 'x-used-weight': report, date: new Date(at).toUTCString() } });
    };
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const paced = createPacedFetch({
      venue: testVenue,
      identity: { credential: null },
      limiter,
      fetch,
      clock,
      jitterMs: 50,
      maxWaitMs: 60_000,
      windowBurst: false,
    });
    const both = Promise.all([paced(`${URL_BASE}/heavy`), paced(`${URL_BASE}/heavy`)]);
    for (let t = 0; t < 5; t++) {
      await settle();
      await clock.advance(1);
    }
    await both;
    // 20, all of it ours: nothing held back for another client
    expect(await limiter.borrowed(weightKey)).toBe(20);
  });

  it("paced: a tenth of the window at once (windowBurst 0.1), the rest at the window's own rate, and still the whole limit per window", async () => {
    const fake = new FakeFetch(json(200, {}));
    const { clock, paced, events } = setup(fake, 1_000_000, 0.1);
    // weight 1 each: 10 go at once (a tenth of 100), then one every 100 ms (100 per 10 s)
    const sent: number[] = [];
    let stop = false;
    const worker = (async () => {
      while (!stop) {
        await paced(`${URL_BASE}/ping`);
        sent.push(clock.now() - 1_000_000);
      }
    })();
    for (let t = 0; t < 25_000; t += 10) await clock.advance(10);
    stop = true;
    await clock.advance(20_000);
    await worker;
    expect(events[0]?.checks.map((c) => c.key.axis)).toEqual(['weight', 'weight/pace']);
    expect(events[0]?.checks[1]?.limit).toEqual({ capacity: 10, refillPerSec: 10 });
    const t0 = sent[0] as number;
    expect(sent.slice(0, 10).every((t) => t === t0)).toBe(true);
    expect(sent[10]).toBe(t0 + 100);
    // the window decides: at most 100 in any 10.05 s of send times, and the whole limit in each
    for (const t of sent) expect(sent.filter((u) => u > t - 10_050 && u <= t).length).toBeLessThanOrEqual(100);
    expect(sent.filter((t) => t < t0 + 10_050).length).toBe(100);
    expect(sent.filter((t) => t < t0 + 20_100).length).toBe(200);
  });

  it('a booked send whose windows are overcommitted when its time comes (a send before it counted again) books again and waits', async () => {
    const fake = new FakeFetch(json(200, {}));
    const { clock, limiter, paced } = setup(fake);
    for (let i = 0; i < 10; i++) await paced(`${URL_BASE}/heavy`);
    // the 11th books a window and the jitter allowance later (give or take two slots)
    const next = paced(`${URL_BASE}/heavy`);
    await clock.whenTimers(1);
    // meanwhile cost is recorded (sends counted again from now: their answers came late): at the 11th's send time
    // its window holds more than 100 with its own booking
    await clock.advance(5_000);
    limiter.record(weightKey, 95, { perWindow: 100, windowMs: 10_000, jitterMs: 50 });
    await clock.advance(5_050 + SLOTS_SLACK_MS);
    await settle();
    expect(fake.calls).toHaveLength(10);
    // it goes once the record has left the window instead
    await clock.advance(10_100);
    await next;
    expect(fake.calls).toHaveLength(11);
  });

  it('after a refusal with Retry-After, nothing goes before it ends, and the window counts as full then (RL-R3, RL-V5)', async () => {
    const fake = new FakeFetch(json(429, { error: 'slow down' }, { 'retry-after': '2' }), json(200, { ok: true }));
    const { clock, paced, events } = setup(fake);
    const p = paced(`${URL_BASE}/ping`);
    await clock.whenTimers(1);
    expect(fake.calls).toHaveLength(1);
    // the retry waits out the hold (2 s) and then a whole window and the jitter allowance (give or take two slots)
    await clock.advance(2_000 + 10_049);
    await settle();
    expect(fake.calls).toHaveLength(1);
    await clock.advance(1 + SLOTS_SLACK_MS);
    const res = await p;
    expect(res.status).toBe(200);
    expect(events.map((e) => [e.attempt, e.status, e.willRetry])).toEqual([
      [0, 429, true],
      [1, 200, false],
    ]);
  });
});

describe('usage headers on a rolling window answered fast', () => {
  it("Bybit's 10 per rolling second with 100 ms of jitter allowance: never 11 in a second, and 10 per 1.12 s in steady saturation (128 slots a window)", async () => {
    // Bybit's order/create: 10 per rolling second per account, 100 ms of jitter allowance; the venue
    // counts each request when it arrives (here at once) and answers 5 ms later with what remains.
    const clock = new ManualClock(1_700_000_000_000);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const venue = bybitOrderVenue(clock);
    const paced = createPacedFetch({ venue: 'bybit', identity: { credential: 'key-1' }, limiter, fetch: venue.fetch, clock, maxWaitMs: 60_000 });
    const steady = await ordersInSteadyState(clock, [paced], 2, venue.arrivals);
    expect(venue.most()).toBeLessThanOrEqual(10);
    // over 16 s after the first 2: at 10 per 1.1 s (the most a limiter safe on a rolling window can send), 145; the
    // slot ledger's guarantee is 10 per M · g = 143 · 1000 / 128 = 1117 ms, 143
    expect(steady).toBeGreaterThanOrEqual(142);
    expect(steady).toBeLessThanOrEqual(146);
  });
});
