import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '@core/rate-limit-conformance';
import { REDIS_RATE_LIMITER_LIBRARY, createRedisRateLimiter, escapeName, type RedisRateLimiter } from '../src/index.js';
import { bucketsOf, ioredisCluster, nodeRedisCluster, type TestClient } from './support/clients.js';
import { startRedisCluster, type RedisClusterServers } from './support/redis-servers.js';

let cluster: RedisClusterServers;
let io: TestClient;
let nr: TestClient;
let n = 0;

beforeAll(async () => {
  cluster = await startRedisCluster();
  io = await ioredisCluster(cluster.startupNodes);
  nr = await nodeRedisCluster(cluster.startupNodes);
});
afterAll(async () => {
  await io?.close();
  await nr?.close();
  await cluster?.stop();
});

function limiterWith(client: TestClient, extra: { hashTag?: 'venue' | 'venue+credential' | 'prefix' } = {}): { limiter: RedisRateLimiter; prefix: string } {
  const prefix = `c${n++}:`;
  return { limiter: createRedisRateLimiter({ redis: client.redis, prefix, clock: new ManualClock(), ...extra }), prefix };
}

/** Every key under a prefix, from every master. */
function keysUnder(prefix: string): string[] {
  return cluster.nodes.flatMap((node) =>
    node
      .cli('--scan', '--pattern', `${prefix}*`)
      .split('\n')
      .filter((k) => k !== ''),
  );
}

function slotOf(key: string): number {
  return Number((cluster.nodes[0] as RedisClusterServers['nodes'][number]).cli('CLUSTER', 'KEYSLOT', key).trim());
}

const limit = { capacity: 5, refillPerSec: 1 };

describe('hash tags on Redis Cluster', () => {
  it('every bucket of a venue lands in the venue slot, whatever its credential or axis contains', async () => {
    const { limiter, prefix } = limiterWith(io);
    const tricky = ['}', '{', '{x}', 'a:b', 'line\nbreak', '}{:\n', 'plain'];
    const checks = tricky.flatMap((text) => [
      { key: { venue: 'binance', credential: text, axis: 'orders' }, limit, cost: 1 },
      { key: { venue: 'binance', credential: null, axis: text }, limit, cost: 1 },
    ]);
    // one multi-bucket call over 14 buckets: one slot, so no CROSSSLOT
    expect((await limiter.checkRates(checks)).kind).toBe('ok');
    const keys = keysUnder(prefix);
    expect(keys).toHaveLength(checks.length);
    const venueSlot = slotOf('{binance}');
    for (const key of keys) expect(slotOf(key)).toBe(venueSlot);
    await limiter.close();
  });

  it('a venue whose name has braces still has exactly one hash tag, and its own slot', async () => {
    const { limiter, prefix } = limiterWith(io);
    const venue = 'ven}{ue';
    expect((await limiter.checkRate({ venue, credential: null, axis: 'a' }, limit, 1)).kind).toBe('ok');
    const [key] = keysUnder(prefix);
    expect(slotOf(key as string)).toBe(slotOf(`{${escapeName(venue)}}`));
    await limiter.close();
  });

  it('buckets of different venues in one call are refused before reaching Redis (no CROSSSLOT)', async () => {
    const { limiter, prefix } = limiterWith(io);
    expect(limiter.capabilities.crossVenueChecks).toBe(false);
    const d = await limiter.checkRates([
      { key: { venue: 'binance', credential: null, axis: 'ip' }, limit, cost: 1 },
      { key: { venue: 'okx', credential: null, axis: 'ip' }, limit, cost: 1 },
    ]);
    expect(d).toMatchObject({ kind: 'error', error: { code: 'invalid_parameters', path: 'checks[1].key' } });
    expect(keysUnder(prefix)).toEqual([]);
    await limiter.close();
  });

  it('hashTag venue+credential spreads a venue over the masters; resetVenue still forgets all of it and nothing else', async () => {
    const { limiter, prefix } = limiterWith(io, { hashTag: 'venue+credential' });
    for (let i = 0; i < 30; i++) {
      const d = await limiter.checkRates([
        { key: { venue: 'binance', credential: `key-${i}`, axis: 'orders' }, limit, cost: 1 },
        { key: { venue: 'binance', credential: `key-${i}`, axis: 'uid' }, limit, cost: 1 },
      ]);
      expect(d.kind).toBe('ok');
    }
    expect((await limiter.checkRate({ venue: 'okx', credential: 'key-0', axis: 'orders' }, limit, 1)).kind).toBe('ok');
    const masters = cluster.nodes.filter((node) => node.cli('--scan', '--pattern', `${prefix}{binance*`).trim() !== '');
    expect(masters.length).toBeGreaterThan(1);
    expect(await limiter.resetVenue('binance')).toEqual({ kind: 'ok' });
    expect(keysUnder(prefix).map((k) => k.slice(prefix.length, prefix.length + 5))).toEqual(['{okx:']);
    await limiter.close();
  });
});

describe("hashTag 'prefix'", () => {
  it('puts every bucket of the limiter in one slot: buckets of two venues can be checked in one call', async () => {
    const { limiter, prefix } = limiterWith(io, { hashTag: 'prefix' });
    expect(limiter.capabilities.crossVenueChecks).toBe(true);
    const d = await limiter.checkRates([
      { key: { venue: 'binance', credential: null, axis: 'ip' }, limit, cost: 5 },
      { key: { venue: 'okx', credential: 'k', axis: 'orders' }, limit, cost: 1 },
    ]);
    expect(d.kind).toBe('ok');
    const keys = keysUnder(prefix);
    expect(keys).toHaveLength(2);
    expect(new Set(keys.map(slotOf)).size).toBe(1);
    expect(
      bucketsOf(await limiter.snapshot())
        .map((b) => b.venue)
        .sort(),
    ).toEqual(['binance', 'okx']);
    expect(await limiter.resetVenue('okx')).toEqual({ kind: 'ok' });
    expect(bucketsOf(await limiter.snapshot()).map((b) => b.venue)).toEqual(['binance']);
    await limiter.close();
  });
});

describe('node-redis v5 cluster', () => {
  it('admits, books, snapshots and resets across the masters through the node-redis cluster adapter', async () => {
    const { limiter, prefix } = limiterWith(nr);
    for (const venue of ['binance', 'okx', 'bybit', 'kraken']) {
      expect((await limiter.checkRate({ venue, credential: 'k', axis: 'orders' }, limit, 5)).kind).toBe('ok');
      const booked = await limiter.checkRate({ venue, credential: 'k', axis: 'orders' }, limit, 1, { maxWaitMs: 5_000 });
      expect(booked).toMatchObject({ kind: 'booked', waitMs: 1000 });
    }
    expect(new Set(keysUnder(prefix).map(slotOf)).size).toBe(4);
    const snapshot = bucketsOf(await limiter.snapshot());
    expect(snapshot.map((b) => b.venue).sort()).toEqual(['binance', 'bybit', 'kraken', 'okx']);
    for (const b of snapshot) expect(b.borrowed).toBeCloseTo(6, 9);
    expect(await limiter.resetAll()).toEqual({ kind: 'ok' });
    expect(keysUnder(prefix)).toEqual([]);
    await limiter.close();
  });

  it('FUNCTION FLUSH on every master is transparent: the library is loaded again on every master', async () => {
    for (const client of [nr, io]) {
      const { limiter } = limiterWith(client);
      const keys = ['binance', 'okx', 'bybit', 'kraken'].map((venue) => ({ venue, credential: null, axis: 'ip' }));
      for (const key of keys) expect((await limiter.checkRate(key, limit, 1)).kind).toBe('ok');
      for (const node of cluster.nodes) node.cli('FUNCTION', 'FLUSH');
      for (const key of keys) expect((await limiter.checkRate(key, limit, 4)).kind).toBe('ok');
      for (const key of keys) expect(await limiter.checkRate(key, limit, 1)).toEqual({ kind: 'delay', retryAfterMs: 1000 });
      for (const node of cluster.nodes) expect(node.cli('FUNCTION', 'LIST')).toContain(REDIS_RATE_LIMITER_LIBRARY.name);
      await limiter.close();
    }
  });
});
