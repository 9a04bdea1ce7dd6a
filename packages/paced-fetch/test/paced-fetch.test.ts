import { getEventListeners } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import type { BucketCheck, Decision, RateLimiter, WaitOptions } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock, settle } from '@core/rate-limit-conformance';
import { createPacedFetch, isPacedFetchError, PacedFetchError, type AttemptEvent } from '../src/index.js';
import { FakeFetch, json } from './fake-fetch.js';
import { testVenue, weightKey } from './test-venue.js';

const URL_BASE = 'https://venue.invalid';
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/**
 * The timings below are pinned with explicit safe-limit options (round numbers), passed through to
 * exchange-specs, on the token-bucket derivation of the venue's windows (window limits have their own
 * tests in window-limits.test.ts).
 */
const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0, windowLimits: false } as const;

function setup(fake: FakeFetch, extra: { maxWaitMs?: number; retry?: false | { maxRetries?: number; maxRetryAfterMs?: number } } = {}) {
  const clock = new ManualClock(1_000_000);
  const limiter = createDefaultRateLimiter({ clock });
  limiters.push(limiter);
  const events: AttemptEvent[] = [];
  const paced = createPacedFetch({
    venue: testVenue,
    identity: { credential: 'key-1' },
    limiter,
    fetch: fake.fetch,
    clock,
    onAttempt: (e) => events.push(e),
    ...PINNED,
    ...extra,
  });
  return { clock, limiter, paced, events };
}

/** Wraps a limiter, counting the calls that charge it. */
function counting(inner: RateLimiter) {
  const counts = { admissions: 0, admittedCost: 0, records: 0, recordedCost: 0 };
  const wrapped: RateLimiter = Object.create(inner) as RateLimiter;
  Object.assign(wrapped, {
    waitForCapacity: async (checks: readonly BucketCheck[], o?: WaitOptions): Promise<Decision> => {
      const d = await inner.waitForCapacity(checks, o);
      if (d.kind === 'ok') {
        counts.admissions += 1;
        counts.admittedCost += checks.reduce((s, c) => s + c.cost, 0);
      }
      return d;
    },
    record: (key: BucketCheck['key'], cost: number, limit?: BucketCheck['limit']) => {
      counts.records += 1;
      counts.recordedCost += cost;
      inner.record(key, cost, limit);
    },
    sync: inner.sync.bind(inner),
    penalize: inner.penalize.bind(inner),
  });
  return { wrapped, counts };
}

describe('createPacedFetch', () => {
  it('rejects an unknown venue id at creation with code unknown_venue', () => {
    const limiter = createDefaultRateLimiter();
    limiters.push(limiter);
    let caught: unknown;
    try {
      createPacedFetch({ venue: 'no-such-venue', identity: { credential: null }, limiter });
    } catch (e) {
      caught = e;
    }
    expect(isPacedFetchError(caught)).toBe(true);
    expect((caught as PacedFetchError).code).toBe('unknown_venue');
    expect((caught as Error).message).toContain('no-such-venue');
  });

  it('never sends a request it cannot price (unknown endpoint)', async () => {
    const fake = new FakeFetch(json(200, {}));
    const { paced } = setup(fake);
    await expect(paced(`${URL_BASE}/not-documented`)).rejects.toMatchObject({ code: 'unknown_endpoint' });
    expect(fake.calls).toHaveLength(0);
  });

  it('never sends a private request without a credential', async () => {
    const fake = new FakeFetch(json(200, {}));
    const limiter = createDefaultRateLimiter();
    limiters.push(limiter);
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: null }, limiter, fetch: fake.fetch });
    await expect(paced(`${URL_BASE}/order`, { method: 'POST' })).rejects.toMatchObject({ code: 'credential_required' });
    expect(fake.calls).toHaveLength(0);
  });

  it('sends within the burst at once, then holds the next request until its send time', async () => {
    const fake = new FakeFetch(json(200, {}));
    const { clock, paced, events } = setup(fake);
    // weight: safe limit capacity 10, refill 8/s (100 per 10 s, margin 0.1, max cost 10)
    await paced(`${URL_BASE}/heavy`);
    expect(fake.calls).toHaveLength(1);
    const second = paced(`${URL_BASE}/heavy`);
    await clock.whenTimers(1);
    await clock.advance(1_249);
    expect(fake.calls).toHaveLength(1);
    await clock.advance(1);
    await second;
    expect(fake.calls).toHaveLength(2);
    expect(events[1]?.waitedMs).toBe(1_250);
  });

  it('never sends before the send time even when a limiter answers a booking where ok was due', async () => {
    const fake = new FakeFetch(json(200, {}));
    const clock = new ManualClock(0);
    const inner = createDefaultRateLimiter({ clock });
    limiters.push(inner);
    const early: RateLimiter = Object.create(inner) as RateLimiter;
    Object.assign(early, { waitForCapacity: async (): Promise<Decision> => ({ kind: 'booked', waitMs: 500, sendAtMs: 500 }) });
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: null }, limiter: early, fetch: fake.fetch, clock });
    const p = paced(`${URL_BASE}/ping`);
    await clock.whenTimers(1);
    await clock.advance(499);
    expect(fake.calls).toHaveLength(0);
    await clock.advance(1);
    await p;
    expect(fake.calls).toHaveLength(1);
  });

  it('rejects with rate_limit_timeout, unsent, when the wait exceeds the budget', async () => {
    const fake = new FakeFetch(json(200, {}));
    const { paced } = setup(fake, { maxWaitMs: 1_000 });
    await paced(`${URL_BASE}/heavy`);
    const err = await paced(`${URL_BASE}/heavy`).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PacedFetchError);
    expect((err as PacedFetchError).code).toBe('rate_limit_timeout');
    expect((err as PacedFetchError).retryAfterMs).toBe(1_250);
    expect(fake.calls).toHaveLength(1);
  });

  it('gives up on abort before the send time: unsent, and the booking is returned', async () => {
    const fake = new FakeFetch(json(200, {}));
    const { clock, limiter, paced } = setup(fake);
    await paced(`${URL_BASE}/heavy`);
    const before = await limiter.borrowed(weightKey);
    const ac = new AbortController();
    const p = paced(`${URL_BASE}/heavy`, { signal: ac.signal }).catch((e: unknown) => e);
    await clock.whenTimers(1);
    ac.abort();
    const err = await p;
    expect((err as Error).name).toBe('AbortError');
    expect(fake.calls).toHaveLength(1);
    expect(await limiter.borrowed(weightKey)).toBeCloseTo(before as number, 9);
  });

  it('fails closed when the limiter cannot answer: error code from the limiter, nothing sent', async () => {
    const fake = new FakeFetch(json(200, {}));
    const inner = createDefaultRateLimiter();
    limiters.push(inner);
    const broken: RateLimiter = Object.create(inner) as RateLimiter;
    Object.assign(broken, {
      waitForCapacity: async (): Promise<Decision> => ({ kind: 'error', error: { code: 'backend_unavailable', message: 'redis: connection refused' } }),
    });
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: null }, limiter: broken, fetch: fake.fetch });
    await expect(paced(`${URL_BASE}/ping`)).rejects.toMatchObject({ code: 'backend_unavailable' });
    expect(fake.calls).toHaveLength(0);
  });

  it('RL-R2 raises the bucket to the usage the venue reports', async () => {
    const fake = new FakeFetch(json(200, {}, { 'x-used-weight': '90' }));
    const { limiter, paced } = setup(fake);
    await paced(`${URL_BASE}/ping`);
    // 90 of 100 used: the limiter must not admit more than what is left in the window
    expect(await limiter.borrowed(weightKey)).toBeGreaterThanOrEqual(10 - 1e-9);
    const probe = await limiter.checkRates([{ key: weightKey, limit: { capacity: 10, refillPerSec: 8 }, cost: 1 }]);
    expect(probe.kind).toBe('delay');
  });

  it("a usage header that counts only its own sends holds nothing back; one that counts another client's does", async () => {
    // The venue reports exactly what this fetch sent so far in its clock-aligned 10-s window (1, 2,
    // 3... weight); its Date header places the window (1.5 s in: 9 s left as the header says).
    let used = 0;
    let now = (): number => 0;
    const fake = new FakeFetch(() => {
      used += 1;
      return new Response('{}', {
        status: 200,
        headers: { 'content-type': 'application/json', 'x-used-weight': String(used), date: new Date(now()).toUTCString() },
      });
    });
    const { clock, limiter, paced, events } = setup(fake);
    now = () => clock.now();
    await clock.advance(1_500);
    for (let i = 0; i < 10; i++) {
      await paced(`${URL_BASE}/ping`);
      await clock.advance(1);
    }
    // All ours: nothing to hold. Read blind (bound 1: U + C + r·R − usable = U + 10 + 8·9 − 90), the 9th
    // and 10th reports would have asked for 1 and 2.
    expect(events.map((e) => e.feedback.syncs[0]?.minBorrowed)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    // another client spends 40 behind its back: the next report (51) holds the limiter back, by the
    // smaller sound bound: U + C + r·R − usable = 51 + 10 + 72 − 90 = 43 (C + others would be 50)
    used += 40;
    const next = paced(`${URL_BASE}/ping`);
    await clock.advance(200);
    await next;
    expect(events[10]?.feedback.syncs[0]?.minBorrowed).toBeCloseTo(43, 9);
    expect(await limiter.borrowed(weightKey)).toBeGreaterThanOrEqual(43 - 1e-9);
  });

  it('RL-P6 a refused GET is penalized, retried after Retry-After, and each attempt is charged exactly once', async () => {
    const fake = new FakeFetch(json(429, { error: 'slow down' }, { 'retry-after': '2' }), json(200, { ok: true }));
    const clock = new ManualClock(1_000_000);
    const base = createDefaultRateLimiter({ clock });
    limiters.push(base);
    const { wrapped, counts } = counting(base);
    const events: AttemptEvent[] = [];
    const paced = createPacedFetch({
      venue: testVenue,
      identity: { credential: null },
      limiter: wrapped,
      fetch: fake.fetch,
      clock,
      onAttempt: (e) => events.push(e),
      windowLimits: false,
    });
    const p = paced(`${URL_BASE}/ping`);
    await clock.whenTimers(1);
    expect(fake.calls).toHaveLength(1);
    await clock.advance(1_999);
    await settle();
    expect(fake.calls).toHaveLength(1);
    await clock.advance(2_000);
    const res = await p;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(fake.calls).toHaveLength(2);
    expect(counts).toEqual({ admissions: 2, admittedCost: 2, records: 0, recordedCost: 0 });
    expect(events.map((e) => [e.attempt, e.status, e.feedback.verdict, e.willRetry])).toEqual([
      [0, 429, 'rate_limited', true],
      [1, 200, 'ok', false],
    ]);
  });

  it('returns a refused POST as is: never retried', async () => {
    const fake = new FakeFetch(json(429, { error: 'slow down' }, { 'retry-after': '1' }), json(200, {}));
    const { paced, limiter } = setup(fake);
    const res = await paced(`${URL_BASE}/order`, { method: 'POST', body: 'symbol=BTC' });
    expect(res.status).toBe(429);
    expect(fake.calls).toHaveLength(1);
    expect(fake.calls[0]?.body).toBe('symbol=BTC');
    // the hold is in force: a probe is refused
    const probe = await limiter.checkRates([{ key: weightKey, limit: { capacity: 10, refillPerSec: 8 }, cost: 1 }]);
    expect(probe.kind).toBe('delay');
  });

  it('does not retry when the venue asks for longer than the retry budget, nor when retries are off', async () => {
    const fake = new FakeFetch(json(429, {}, { 'retry-after': '30' }));
    const { paced } = setup(fake, { maxWaitMs: 5_000 });
    expect((await paced(`${URL_BASE}/ping`)).status).toBe(429);
    expect(fake.calls).toHaveLength(1);
    const fake2 = new FakeFetch(json(429, {}, { 'retry-after': '1' }));
    const { paced: noRetry } = setup(fake2, { retry: false });
    expect((await noRetry(`${URL_BASE}/ping`)).status).toBe(429);
    expect(fake2.calls).toHaveLength(1);
  });

  it('records the cost only the response reveals (one unit per returned item), on top of the admission', async () => {
    const fake = new FakeFetch(json(200, { items: [1, 2, 3, 4] }));
    const clock = new ManualClock(1_000_000);
    const base = createDefaultRateLimiter({ clock });
    limiters.push(base);
    const { wrapped, counts } = counting(base);
    // no pacing bucket: the one admitted check is the weight's
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: null }, limiter: wrapped, fetch: fake.fetch, clock, windowBurst: false });
    const res = await paced(`${URL_BASE}/list`);
    expect(await res.json()).toEqual({ items: [1, 2, 3, 4] });
    expect(counts).toEqual({ admissions: 1, admittedCost: 1, records: 1, recordedCost: 4 });
    expect(await base.borrowed(weightKey)).toBeCloseTo(5, 9);
  });

  it('passes a malformed body through untouched and still applies the headers', async () => {
    const fake = new FakeFetch(() => new Response('<html>oops', { status: 200, headers: { 'x-used-weight': 'not-a-number' } }));
    const { paced, limiter } = setup(fake);
    const res = await paced(`${URL_BASE}/ping`);
    expect(await res.text()).toBe('<html>oops');
    expect(await limiter.borrowed(weightKey)).toBeCloseTo(1, 9);
  });

  it('answers a copy of a Response (its body read once), and an answer whose body can be read again as it is', async () => {
    const sent = new Response('{"a":1}', { status: 200, headers: { 'x-used-weight': '1' } });
    const copied = await setup(new FakeFetch(() => sent)).paced(`${URL_BASE}/ping`);
    expect(copied).not.toBe(sent);
    expect(sent.bodyUsed).toBe(true);
    expect(await copied.json()).toEqual({ a: 1 });
    const bytes = new TextEncoder().encode('{"b":2}');
    const rereadable = {
      status: 200,
      statusText: 'OK',
      url: `${URL_BASE}/ping`,
      headers: new Headers({ 'x-used-weight': '1' }),
      bodyUsed: false as const,
      arrayBuffer: async () => bytes.buffer,
      text: async () => new TextDecoder().decode(bytes),
    };
    const same = await setup(new FakeFetch(() => rereadable as unknown as Response)).paced(`${URL_BASE}/ping`);
    expect(same).toBe(rereadable);
    expect(await same.text()).toBe('{"b":2}');
  });
});

describe("the caller's signal", () => {
  it("keeps no listener on the caller's signal once a call is done (fetch gets a per-attempt signal)", async () => {
    const seen: (AbortSignal | null | undefined)[] = [];
    const fake = new FakeFetch(json(200, {}));
    const spy = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
      seen.push(init?.signal);
      return fake.fetch(input, init);
    };
    const limiter = createDefaultRateLimiter();
    limiters.push(limiter);
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: null }, limiter, fetch: spy });
    const ac = new AbortController();
    for (let i = 0; i < 5; i++) await paced(`${URL_BASE}/ping`, { signal: ac.signal });
    expect(getEventListeners(ac.signal, 'abort')).toHaveLength(0);
    expect(seen.every((s) => s instanceof AbortSignal && s !== ac.signal)).toBe(true);
  });

  it("aborting the caller's signal during the fetch aborts the fetch", async () => {
    const ac = new AbortController();
    const slow = async (_input: string | URL | Request, init?: RequestInit): Promise<Response> =>
      new Promise((_, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal?.reason));
        ac.abort(new Error('stop'));
      });
    const limiter = createDefaultRateLimiter();
    limiters.push(limiter);
    const paced = createPacedFetch({ venue: testVenue, identity: { credential: null }, limiter, fetch: slow });
    await expect(paced(`${URL_BASE}/ping`, { signal: ac.signal })).rejects.toThrow('stop');
  });
});
