import { afterEach, describe, expect, it } from 'vitest';
import type { BucketKey, Limit, RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock, settle } from '@core/rate-limit-conformance';
import type { VenueSpec } from '@core/exchange-specs';
import { createPacedFetch, isPacedFetchError, type AttemptEvent, type DeferredChargesOptions } from '../src/index.js';
import { FakeFetch, json } from './fake-fetch.js';
import { testVenue, weightKey } from './test-venue.js';

const URL_BASE = 'https://venue.invalid';
const p = { source: 'test', confidence: 'documented' } as const;
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/**
 * The test venue with Binance's rule and an IP weight of 250 per 10 s: `POST /order` weighs 1 on it only
 * when it fails; `POST /bulk` weighs 20 on failure, more than the in-flight bound (2 % of 250: 5) holds.
 */
const venue: VenueSpec = {
  ...testVenue,
  buckets: testVenue.buckets.map((b) => (b.id === 'weight' && b.algorithm !== 'token-bucket' ? { ...b, limit: 250 } : b)),
  endpoints: [
    ...testVenue.endpoints.filter((e) => e.id !== 'order'),
    {
      id: 'order',
      method: 'POST',
      path: '/order',
      auth: 'private',
      costs: [{ bucket: 'weight', cost: { kind: 'constant', value: 1 }, charge: 'failure' }],
      provenance: p,
    },
    {
      id: 'bulk',
      method: 'POST',
      path: '/bulk',
      auth: 'private',
      costs: [{ bucket: 'weight', cost: { kind: 'constant', value: 20 }, charge: 'failure' }],
      provenance: p,
    },
    {
      id: 'place',
      method: 'POST',
      path: '/place',
      auth: 'private',
      provenance: p,
      costs: [
        { bucket: 'weight', cost: { kind: 'constant', value: 1 }, charge: 'failure' },
        { bucket: 'orders', cost: { kind: 'constant', value: 1 } },
      ],
    },
  ],
};

/** A limiter whose records are counted (and that may claim to be distributed). */
function recording(inner: RateLimiter, distributed = false) {
  const records: { key: BucketKey; cost: number; limit: Limit | undefined }[] = [];
  const wrapped: RateLimiter = {
    specificationVersion: inner.specificationVersion,
    capabilities: { ...inner.capabilities, distributed },
    checkRate: inner.checkRate.bind(inner),
    checkRates: inner.checkRates.bind(inner),
    waitForCapacity: inner.waitForCapacity.bind(inner),
    peek: inner.peek.bind(inner),
    record: (key: BucketKey, cost: number, limit?: Limit) => {
      records.push({ key, cost, limit });
      inner.record(key, cost, limit);
    },
    sync: inner.sync.bind(inner),
    penalize: inner.penalize.bind(inner),
    borrowed: inner.borrowed.bind(inner),
    reset: inner.reset.bind(inner),
    resetVenue: inner.resetVenue.bind(inner),
    resetAll: inner.resetAll.bind(inner),
    snapshot: inner.snapshot.bind(inner),
    close: inner.close.bind(inner),
  };
  return { wrapped, records };
}

/** A fetch whose answers wait until the test releases them, one by one. */
class HeldFetch {
  readonly calls: string[] = [];
  readonly #pending: { resolve: (r: Response) => void; reject: (e: unknown) => void }[] = [];
  readonly fetch = (input: string | URL | Request): Promise<Response> => {
    this.calls.push(String(input));
    return new Promise((resolve, reject) => this.#pending.push({ resolve, reject }));
  };
  answer(status: number, body: unknown = {}): void {
    this.#pending.shift()?.resolve(new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }));
  }
  fail(e: unknown): void {
    this.#pending.shift()?.reject(e);
  }
}

function setup(fetch: typeof globalThis.fetch, opts: { distributed?: boolean; deferredCharges?: DeferredChargesOptions | false; maxWaitMs?: number } = {}) {
  const clock = new ManualClock(1_700_000_001_000);
  const inner = createDefaultRateLimiter({ clock });
  limiters.push(inner);
  const { wrapped, records } = recording(inner, opts.distributed);
  const events: AttemptEvent[] = [];
  const paced = createPacedFetch({
    venue,
    identity: { credential: 'key-1' },
    limiter: wrapped,
    fetch,
    clock,
    windowBurst: false,
    maxWaitMs: opts.maxWaitMs ?? 60_000,
    onAttempt: (e) => events.push(e),
    ...(opts.deferredCharges === undefined ? {} : { deferredCharges: opts.deferredCharges }),
  });
  return { clock, limiter: inner, wrapped, paced, events, records };
}

describe('deferred charges in paced-fetch', () => {
  it('admits an order at the gate cost under the lowered limit, records its weight when it fails and not when it succeeds', async () => {
    const fake = new FakeFetch(json(200, { orderId: 1 }), json(400, { code: -2010, msg: 'Account has insufficient balance for requested action.' }));
    const { limiter, paced, events, records } = setup(fake.fetch);
    await paced(`${URL_BASE}/order`, { method: 'POST' });
    // through a limiter with classes each check carries its bucket's reserve: none on a bucket no critical request by nature is charged on
    expect(events[0]?.checks).toEqual([
      { key: weightKey, limit: { perWindow: 245, windowMs: 10_000, jitterMs: 100 }, cost: 1e-6, reserve: { normal: 0, bulk: 0 } },
    ]);
    expect(records).toEqual([]);
    expect(await limiter.borrowed(weightKey)).toBeLessThan(1e-3);
    const res = await paced(`${URL_BASE}/order`, { method: 'POST' });
    expect(res.status).toBe(400);
    expect(records).toEqual([{ key: weightKey, cost: 1, limit: { perWindow: 245, windowMs: 10_000, jitterMs: 100 } }]);
    expect(await limiter.borrowed(weightKey)).toBeGreaterThanOrEqual(1);
  });

  it("a failed order's weight, recorded after its answer, is known as its own by the next usage report: no other client is assumed to have spent it", async () => {
    // The venue counts the weight in its clock-aligned 10-s window (the run starts 1 s into one) and reports it with a Date header.
    let used = 0;
    let now = (): number => 0;
    const answer = (status: number, body: unknown, cost: number) => (): Response => {
      used += cost;
      return new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json', 'x-used-weight': String(used), date: new Date(now()).toUTCString() },
      });
    };
    const fake = new FakeFetch(answer(400, { code: -2010, msg: 'rejected' }, 1), answer(200, {}, 10));
    const { clock, limiter, paced, records } = setup(fake.fetch);
    now = () => clock.now();
    await clock.advance(1_000);
    const failed = await paced(`${URL_BASE}/order`, { method: 'POST' });
    expect(failed.status).toBe(400);
    expect(records.map((r) => r.cost)).toEqual([1]);
    await clock.advance(500);
    await paced(`${URL_BASE}/heavy`);
    // the venue says 11: the failed order's 1 (held as the gate cost and the record) and the heavy request's 10, all ours
    expect(await limiter.borrowed(weightKey)).toBeCloseTo(11, 4);
  });

  it('holds at most the in-flight bound (2 % of 250) of deferred weight in flight; the next order goes when an answer comes', async () => {
    const held = new HeldFetch();
    const { paced } = setup(held.fetch);
    const sent = Array.from({ length: 7 }, () => paced(`${URL_BASE}/order`, { method: 'POST' }));
    await settle();
    expect(held.calls).toHaveLength(5);
    held.answer(200);
    await settle();
    expect(held.calls).toHaveLength(6);
    held.answer(400, { code: -2010, msg: 'rejected' });
    await settle();
    expect(held.calls).toHaveLength(7);
    for (let i = 0; i < 5; i++) held.answer(200);
    const answers = await Promise.all(sent);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 400]);
  });

  it('gives the entry back and records the weight when the send fails without an answer (the outcome is unknown)', async () => {
    const held = new HeldFetch();
    const { paced, records } = setup(held.fetch);
    const first = Array.from({ length: 5 }, () => paced(`${URL_BASE}/order`, { method: 'POST' }).catch((e: unknown) => e));
    const sixth = paced(`${URL_BASE}/order`, { method: 'POST' });
    await settle();
    expect(held.calls).toHaveLength(5);
    held.fail(new TypeError('fetch failed'));
    await settle();
    expect(held.calls).toHaveLength(6);
    expect(records.map((r) => r.cost)).toEqual([1]);
    for (let i = 0; i < 5; i++) held.answer(200);
    expect((await sixth).status).toBe(200);
    expect(await Promise.all(first)).toHaveLength(5);
  });

  it('an order waiting for room in flight gives up on abort and at the end of its budget, holding nothing', async () => {
    const held = new HeldFetch();
    const { clock, paced, records } = setup(held.fetch, { maxWaitMs: 1_000 });
    const inFlight = Array.from({ length: 5 }, () => paced(`${URL_BASE}/order`, { method: 'POST' }));
    const stop = new AbortController();
    const aborted = paced(`${URL_BASE}/order`, { method: 'POST', signal: stop.signal }).catch((e: unknown) => e);
    const timedOut = paced(`${URL_BASE}/order`, { method: 'POST' }).catch((e: unknown) => e);
    await settle();
    stop.abort();
    expect(((await aborted) as Error).name).toBe('AbortError');
    await clock.advance(1_000);
    const e = await timedOut;
    expect(isPacedFetchError(e) && e.code).toBe('rate_limit_timeout');
    expect(held.calls).toHaveLength(5);
    for (let i = 0; i < 5; i++) held.answer(200);
    await Promise.all(inFlight);
    // the ledger is empty again: five more go out at once
    const more = Array.from({ length: 5 }, () => paced(`${URL_BASE}/order`, { method: 'POST' }));
    await settle();
    expect(held.calls).toHaveLength(10);
    for (let i = 0; i < 5; i++) held.answer(200);
    await Promise.all(more);
    // no order's weight was recorded (none failed); the five answers held a second while the next five
    // came at once may have reached the venue late, so their admitted gate cost is recorded again
    expect(records.filter((r) => r.cost >= 1)).toEqual([]);
    expect(records.map((r) => r.cost)).toEqual([1e-6, 1e-6, 1e-6, 1e-6, 1e-6]);
  });

  it('a request its own bucket holds back takes no room in flight while it waits', async () => {
    // key A fills its order count (10 per 10 s) and queues 5 more; key B's orders still find the whole bound
    const held = new HeldFetch();
    const fetch = (input: string | URL | Request): Promise<Response> =>
      String(input).includes('/place') ? Promise.resolve(new Response('{}', { status: 200 })) : held.fetch(input);
    const { clock, paced, wrapped } = setup(fetch);
    // the same limiter object: one ledger
    const b = createPacedFetch({ venue, identity: { credential: 'key-2' }, limiter: wrapped, fetch, clock, windowBurst: false, maxWaitMs: 60_000 });
    for (let i = 0; i < 10; i++) await paced(`${URL_BASE}/place`, { method: 'POST' });
    const waiting = Array.from({ length: 5 }, () => paced(`${URL_BASE}/place`, { method: 'POST' }));
    await settle();
    const orders = Array.from({ length: 5 }, () => b(`${URL_BASE}/order`, { method: 'POST' }));
    await settle();
    expect(held.calls).toHaveLength(5);
    for (let i = 0; i < 5; i++) held.answer(200);
    await Promise.all(orders);
    // a window and its jitter allowance, and two slots of the limiter's ledger (2 · 10 s / 128)
    await clock.advance(10_100 + (2 * 10_000) / 128);
    await Promise.all(waiting);
  });

  it('reserves a deferred charge larger than the bound, and records nothing after it', async () => {
    const fake = new FakeFetch(json(400, { code: -2010, msg: 'rejected' }));
    const { paced, events, records } = setup(fake.fetch);
    await paced(`${URL_BASE}/bulk`, { method: 'POST' });
    expect(events[0]?.checks[0]?.cost).toBeCloseTo(20, 4);
    expect(records).toEqual([]);
  });

  it('reserves every charge with deferredCharges: false (the whole limit, no lowering)', async () => {
    const fake = new FakeFetch(json(400, { code: -2010, msg: 'rejected' }));
    const { paced, events, records } = setup(fake.fetch, { deferredCharges: false });
    await paced(`${URL_BASE}/order`, { method: 'POST' });
    expect(events[0]?.checks).toEqual([
      { key: weightKey, limit: { perWindow: 250, windowMs: 10_000, jitterMs: 100 }, cost: 1, reserve: { normal: 0, bulk: 0 } },
    ]);
    expect(records).toEqual([]);
  });

  it('on a distributed limiter reserves unless processes is given; with it each process holds its share of the bound', async () => {
    const fake = new FakeFetch(json(200, {}));
    const shared = setup(fake.fetch, { distributed: true });
    await shared.paced(`${URL_BASE}/order`, { method: 'POST' });
    expect(shared.events[0]?.checks[0]).toMatchObject({ cost: 1, limit: { perWindow: 250 } });

    const held = new HeldFetch();
    const split = setup(held.fetch, { distributed: true, deferredCharges: { processes: 5 } });
    const sent = [0, 1, 2].map(() => split.paced(`${URL_BASE}/order`, { method: 'POST' }));
    await settle();
    // 5 of 250 in flight over 5 processes: 1 here
    expect(held.calls).toHaveLength(1);
    for (let i = 0; i < 3; i++) {
      held.answer(200);
      await settle();
    }
    await Promise.all(sent);
    expect(split.events[0]?.checks[0]).toMatchObject({ cost: 1e-6, limit: { perWindow: 245 } });
  });

  it('refuses a processes count that is not a whole number of at least 1', () => {
    const limiter = createDefaultRateLimiter();
    limiters.push(limiter);
    expect(() => createPacedFetch({ venue, identity: { credential: 'k' }, limiter, deferredCharges: { processes: 0 } })).toThrow(RangeError);
  });
});
