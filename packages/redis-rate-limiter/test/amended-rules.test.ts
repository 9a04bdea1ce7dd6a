import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BucketKey, Limit, RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import { REDIS_RATE_LIMITER_SCRIPTS, bucketKeyName, createRedisRateLimiter, recordMarkerName, type RedisLike } from '../src/index.js';
import { recordArgs } from '../src/protocol.js';
import { ioredisClient, type TestClient } from './support/clients.js';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';

let server: RedisServer;
const clients: TestClient[] = [];

beforeAll(async () => {
  server = await startRedisServer();
}, 60_000);

afterAll(async () => {
  for (const c of clients) await c.close();
  await server?.stop();
});

async function client(): Promise<TestClient> {
  const c = await ioredisClient(server.port);
  clients.push(c);
  return c;
}

let n = 0;
const fresh = (): string => `amend${++n}:`;
const key = (axis: string): BucketKey => ({ venue: 'binance', credential: null, axis });
/** A fixed quota: nothing refills, so what was debited can be read back exactly. */
const QUOTA: Limit = { capacity: 1_000_000, refillPerSec: 0 };

describe('RL-R1 records are applied exactly once', () => {
  it('records sent while the server is stopped (SIGSTOP, connection open) are applied once each after SIGCONT, though their deliveries timed out and were retried', async () => {
    const limiter = createRedisRateLimiter({ redis: (await client()).redis, prefix: fresh(), timeoutMs: 100, recordRetryMs: 40 });
    const k = key('records');
    expect((await limiter.checkRate(k, QUOTA, 1)).kind).toBe('ok');
    server.pause();
    try {
      for (let i = 0; i < 200; i++) limiter.record(k, 1);
      // every delivery times out and is retried at least twice while the server is stopped
      await expect.poll(() => limiter.recordStats().bufferedTotal, { timeout: 10_000 }).toBeGreaterThanOrEqual(200);
      const sent = limiter.recordStats();
      expect(sent.buffered).toBe(200);
      await new Promise((r) => setTimeout(r, 300)); // lets several retries of each record pile up in the stopped server's socket
    } finally {
      server.resume();
    }
    await expect.poll(() => limiter.recordStats().buffered, { timeout: 20_000 }).toBe(0);
    // settle: every copy still queued in the server ran before this read, which queues behind them
    expect(await limiter.borrowed(k)).toBe(201);
    expect(limiter.recordStats()).toMatchObject({ buffered: 0, dropped: 0, flushed: 200 });
    await limiter.close();
  }, 60_000);

  it('a second delivery of the same record changes nothing (its marker), another record does', async () => {
    const c = await client();
    const prefix = fresh();
    const limiter = createRedisRateLimiter({ redis: c.redis, prefix });
    const k = key('marker');
    expect((await limiter.checkRate(k, QUOTA, 1)).kind).toBe('ok');
    const record = REDIS_RATE_LIMITER_SCRIPTS.find((script) => script.name === 'record');
    if (record === undefined) throw new Error('no record script');
    const settings = { now: '', ttlSlackMs: '1000', pendingDebtTtlMs: '3600000', pendingHoldTtlMs: '86400000', recordMarkerTtlMs: '600000' };
    const name = bucketKeyName(prefix, 'venue', k.venue, null, k.axis ?? 'request');
    const deliver = (id: string): Promise<unknown> =>
      c.redis.eval(record.source, [name, recordMarkerName(prefix, name, id)], recordArgs(settings, 5, undefined));
    expect(await deliver('one')).toBe(1);
    expect(await deliver('one')).toBe(0);
    expect(await limiter.borrowed(k)).toBe(6);
    expect(await deliver('two')).toBe(1);
    expect(await limiter.borrowed(k)).toBe(11);
    const markers = server.cli('--scan', '--pattern', `${prefix}~*`).split('\n').filter(Boolean);
    expect(markers.sort()).toEqual([recordMarkerName(prefix, name, 'one'), recordMarkerName(prefix, name, 'two')].sort());
    expect(Number(server.cli('PTTL', markers[0] as string))).toBeGreaterThan(590_000);
    // the markers are outside the bucket pattern: resetAll and snapshot never see them
    const snapshot = await limiter.snapshot();
    expect(Array.isArray(snapshot) && snapshot.map((b) => b.axis)).toEqual(['marker']);
    await limiter.close();
  });
});

describe('RL-R3 a hold on a bucket never defined', () => {
  it('is kept at least 24 hours after it ends, so the first definition days later still starts empty as of its end', async () => {
    const prefix = fresh();
    const limiter = createRedisRateLimiter({ redis: (await client()).redis, prefix });
    const k = key('held');
    expect(await limiter.penalize(k, { forMs: 500 })).toEqual({ kind: 'ok' });
    const names = server.cli('--scan', '--pattern', `${prefix}{*`).split('\n').filter(Boolean);
    expect(names).toHaveLength(1);
    expect(Number(server.cli('PTTL', names[0] as string))).toBeGreaterThan(86_400_000);
    await limiter.close();
  });

  it('with a manual clock: penalize 500 ms, first definition 2 s later at 6000 per minute answers a delay of 58.5 s', async () => {
    const clock = new ManualClock(1_000_000);
    const limiter = createRedisRateLimiter({ redis: (await client()).redis, prefix: fresh(), clock });
    const k = key('held-later');
    await limiter.penalize(k, { forMs: 500 });
    await clock.advance(2_000);
    expect(await limiter.checkRate(k, { requests: 6000, periodMs: 60_000 }, 6000)).toEqual({ kind: 'delay', retryAfterMs: 58_500 });
    await limiter.close();
  });
});

describe('RL-A7 RL-R1 huge finite values', () => {
  it('cost 1e308 is cost_unpayable saying the wait cannot be represented; records, syncs and penalties with huge values are applied, clamped', async () => {
    const clock = new ManualClock(1_000_000);
    const limiter = createRedisRateLimiter({ redis: (await client()).redis, prefix: fresh(), clock });
    const limit: Limit = { capacity: 10, refillPerSec: 1 };
    for (const d of [
      await limiter.checkRate(key('huge'), limit, 1e308),
      await limiter.checkRates([{ key: key('huge'), limit, cost: 1e308 }], { maxWaitMs: 1e300 }),
      await limiter.peek([{ key: key('huge'), limit, cost: 1e308 }]),
      await limiter.waitForCapacity([{ key: key('huge'), limit, cost: 1e308 }]),
    ]) {
      expect(d).toMatchObject({ kind: 'error', error: { code: 'cost_unpayable' } });
      if (d.kind === 'error') expect(d.error.message).toMatch(/represent/);
      if (d.kind === 'error') expect(d.error.message).not.toMatch(/quota/);
    }
    expect(await limiter.sync(key('s'), limit, 1e308)).toEqual({ kind: 'ok' });
    expect(await limiter.penalize(key('p'), { forMs: 1e17 })).toEqual({ kind: 'ok' });
    expect(await limiter.penalize(key('u'), { untilMs: 1e300 })).toEqual({ kind: 'ok' });
    limiter.record(key('r'), 1e308, limit);
    await expect.poll(async () => limiter.borrowed(key('r'))).toBeGreaterThan(10);
    for (const axis of ['s', 'p', 'u', 'r']) {
      // held or in debt up to the horizon: a delay, or a wait beyond what can be represented; never ok, never internal
      const d = await limiter.checkRate(key(axis), limit, 1);
      if (d.kind === 'error') expect(d.error.code, axis).toBe('cost_unpayable');
      else expect(d.kind, axis).toBe('delay');
    }
    for (const axis of ['s', 'r']) expect(await limiter.borrowed(key(axis))).toBeGreaterThanOrEqual(10);
    await limiter.close();
  });
});

describe('RL-L3 RL-A7 a huge window', () => {
  it('windowMs 1e17 or jitterMs 1e308 answers as in process (ok, then cost_unpayable; syncs ok), never internal: the expiry is clamped', async () => {
    const limits: Limit[] = [
      { perWindow: 5, windowMs: 1e17 },
      { perWindow: 5, windowMs: 1000, jitterMs: 1e308 },
      { perWindow: 5, windowMs: 1e300, jitterMs: 1e300 },
    ];
    for (const clock of [undefined, new ManualClock(1_000_000)]) {
      const prefix = fresh();
      const redis = createRedisRateLimiter({ redis: (await client()).redis, prefix, ...(clock === undefined ? {} : { clock }) });
      const memory = createDefaultRateLimiter(clock === undefined ? {} : { clock });
      for (const [i, limit] of limits.entries()) {
        const k = key(`huge-${i}`);
        const answers = async (limiter: RateLimiter): Promise<string[]> => {
          const kinds: string[] = [(await limiter.checkRate(k, limit, 5)).kind];
          const second = await limiter.checkRate(k, limit, 1);
          kinds.push(second.kind === 'error' ? second.error.code : second.kind);
          kinds.push((await limiter.sync(k, limit, 2)).kind);
          kinds.push((await limiter.penalize(k, { forMs: 10 })).kind);
          return kinds;
        };
        const expected = await answers(memory);
        expect(expected, `in process, ${JSON.stringify(limit)}`).toEqual(['ok', 'cost_unpayable', 'ok', 'ok']);
        expect(await answers(redis), `on Redis, ${JSON.stringify(limit)}`).toEqual(expected);
        const [name] = server.cli('--scan', '--pattern', `${prefix}*huge-${i}`).split('\n').filter(Boolean);
        expect(Number(server.cli('PTTL', name as string))).toBeLessThanOrEqual(1e15);
      }
      await redis.close();
      await memory.close();
    }
  });
});

describe('deadlines of the scans', () => {
  it('resetVenue, resetAll and snapshot answer backend_unavailable once timeoutMs passes without an answer (not later)', async () => {
    vi.useFakeTimers();
    try {
      const never = new Promise<never>(() => {});
      const stalled: RedisLike = {
        cluster: false,
        evalsha: () => never,
        eval: () => never,
        masters: async () => [{ scan: () => never }],
      };
      const limiter = createRedisRateLimiter({ redis: stalled, timeoutMs: 250 });
      for (const call of [() => limiter.resetVenue('binance'), () => limiter.resetAll(), () => limiter.snapshot()]) {
        let answer: unknown;
        void call().then((a) => (answer = a));
        await vi.advanceTimersByTimeAsync(249);
        expect(answer).toBeUndefined();
        await vi.advanceTimersByTimeAsync(1);
        expect(answer).toMatchObject({ kind: 'error', error: { code: 'backend_unavailable' } });
      }
      await limiter.close();
    } finally {
      vi.useRealTimers();
    }
  });
});
