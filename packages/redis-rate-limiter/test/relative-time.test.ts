import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@core/rate-limit-conformance';
import type { BucketKey, Limit, RateLimiter } from '@core/rate-limit-contract';
import { bucketKeyName, createRedisRateLimiter } from '../src/index.js';
import { ioredisClient, type TestClient } from './support/clients.js';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';

// A bucket that refills stores its state relative to the time it was written (`x@at`, src/protocol.ts; the
// kit's gcra.ts, "Times relative to now"), so what it admits does not depend on how far script time is from
// its origin: near 1.7e12 ms a float's last bit is worth 2.4e-4 ms, more than a whole bucket of capacity 1e-9
// at refill 3 per second (3.3e-7 ms). The in-process store's own test: default-rate-limiter's relative-time.

const KEY: BucketKey = { venue: 'v', credential: null, axis: 'tiny' };
const CLOCKS = [0, 1_000_000, 1.767e12 + 0.25];

let server: RedisServer;
let client: TestClient;
let n = 0;

beforeAll(async () => {
  server = await startRedisServer();
  client = await ioredisClient(server.port);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await server?.stop();
});

const SLACK_MS = 1_000;

function limiterAt(start: number) {
  const clock = new ManualClock(start);
  const prefix = `rel${++n}:`;
  const name = bucketKeyName(prefix, 'venue', KEY.venue, null, KEY.axis ?? 'request');
  return { clock, name, limiter: createRedisRateLimiter({ redis: client.redis, prefix, clock, ttlSlackMs: SLACK_MS }) };
}

/** Books `cost` on `limit` with waitForCapacity, then aborts the wait: what borrowed() reads while booked. */
async function bookAndAbort(clock: ManualClock, limiter: RateLimiter, limit: Limit, cost: number, maxWaitMs: number): Promise<number> {
  const controller = new AbortController();
  const waiting = limiter.waitForCapacity([{ key: KEY, limit, cost }], { maxWaitMs, signal: controller.signal });
  for (let i = 0; clock.pendingTimers === 0; i++) {
    if (i > 2000) throw new Error('the booking did not start its timer');
    await new Promise((r) => setTimeout(r, 5));
  }
  const booked = (await limiter.borrowed(KEY)) as number;
  controller.abort();
  expect((await waiting).kind).toBe('error');
  return booked;
}

describe('a tiny bucket on Redis admits what the same bucket scaled up admits, at any clock', () => {
  for (const start of CLOCKS) {
    for (const refillPerSec of [1, 3, 7]) {
      it(`capacity 1e-9, refill ${refillPerSec}/s, cost 1e-10, clock ${start}: 10 of 10 at once, then a wait`, async () => {
        const { limiter } = limiterAt(start);
        const limit: Limit = { capacity: 1e-9, refillPerSec };
        const answers: string[] = [];
        for (let i = 0; i < 11; i++) answers.push((await limiter.checkRate(KEY, limit, 1e-10)).kind);
        expect(answers.slice(0, 10)).toEqual(Array(10).fill('ok'));
        expect(answers[10]).toBe('delay');
        // the same bucket scaled up by 1e9 (capacity 1, cost 0.1, the same span) answers the same
        const big = { ...KEY, axis: 'big' };
        const scaled: string[] = [];
        for (let i = 0; i < 11; i++) scaled.push((await limiter.checkRate(big, { capacity: 1, refillPerSec: refillPerSec * 1e9 }, 0.1)).kind);
        expect(scaled).toEqual(answers);
        await limiter.close();
      });
    }
  }

  it('a tiny bucket refills after its own span, not after the clock moves a float step', async () => {
    const { clock, limiter } = limiterAt(1.767e12 + 0.25);
    const limit: Limit = { capacity: 1e-9, refillPerSec: 3 };
    for (let i = 0; i < 10; i++) expect((await limiter.checkRate(KEY, limit, 1e-10)).kind).toBe('ok');
    expect((await limiter.borrowed(KEY)) as number).toBeCloseTo(1e-9, 18);
    await clock.advance(1);
    expect(await limiter.borrowed(KEY)).toBe(0);
    for (let i = 0; i < 10; i++) expect((await limiter.checkRate(KEY, limit, 1e-10)).kind).toBe('ok');
    await limiter.close();
  });

  it('a wait on a tiny bucket, aborted, gives back exactly what its booking took', async () => {
    const { clock, limiter } = limiterAt(1.767e12 + 0.25);
    const limit: Limit = { capacity: 1e-9, refillPerSec: 3 };
    for (let i = 0; i < 10; i++) expect((await limiter.checkRate(KEY, limit, 1e-10)).kind).toBe('ok');
    const before = await limiter.borrowed(KEY);
    expect(await bookAndAbort(clock, limiter, limit, 1e-10, 1)).toBeGreaterThan(before as number);
    expect(await limiter.borrowed(KEY)).toBe(before);
    await limiter.close();
  });
});

describe('a token bucket stored relative to the time it was written', () => {
  it('a booking returned after the clock moved puts back the bucket as it was written, not as of the return', async () => {
    const { clock, limiter } = limiterAt(1.767e12 + 0.25);
    const limit: Limit = { capacity: 10, refillPerSec: 1 };
    expect((await limiter.checkRate(KEY, limit, 10)).kind).toBe('ok');
    await clock.advance(100);
    const before = await limiter.borrowed(KEY);
    expect(before).toBeCloseTo(9.9, 9);
    expect(await bookAndAbort(clock, limiter, limit, 1, 2_000)).toBeCloseTo(10.9, 9);
    expect(await limiter.borrowed(KEY)).toBe(before);
    await limiter.close();
  });

  it('its key expires when it is full again, plus the slack, whatever the clock', async () => {
    const { clock, name, limiter } = limiterAt(1.767e12 + 0.25);
    expect((await limiter.checkRate(KEY, { capacity: 10, refillPerSec: 1 }, 10)).kind).toBe('ok');
    await clock.advance(4_000);
    expect((await limiter.checkRate(KEY, { capacity: 10, refillPerSec: 1 }, 1)).kind).toBe('ok');
    // full again 7 s after the second admission (6 tokens borrowed before it, 7 after)
    const ttl = Number(await client.redis.eval("return redis.call('PTTL', KEYS[1])", [name], []));
    expect(ttl).toBeGreaterThan(7_000);
    expect(ttl).toBeLessThanOrEqual(7_000 + SLACK_MS + 1);
    await limiter.close();
  });

  it('a value an earlier version stored on the clock (no `@at`) reads as written at 0', async () => {
    const start = 1.767e12 + 0.25;
    const { name, limiter } = limiterAt(start);
    // 5 of 10 tokens borrowed: its tat 5 s ahead, on the clock
    await client.redis.eval("return redis.call('SET', KEYS[1], ARGV[1])", [name], [`10,1,${start + 5_000}`]);
    expect(await limiter.borrowed(KEY)).toBe(5);
    expect((await limiter.checkRate(KEY, { capacity: 10, refillPerSec: 1 }, 5)).kind).toBe('ok');
    expect((await limiter.checkRate(KEY, { capacity: 10, refillPerSec: 1 }, 1)).kind).toBe('delay');
    await limiter.close();
  });
});
