import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadRateLimiter } from '@core/default-rate-limiter';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createRateLimiter } from '../src/index.js';
import { freePort, startRedisCluster, startRedisServer, type RedisClusterServers, type RedisServer } from './support/redis-servers.js';

let server: RedisServer;
let cluster: RedisClusterServers;

beforeAll(async () => {
  server = await startRedisServer();
  cluster = await startRedisCluster();
}, 120_000);

afterAll(async () => {
  await server?.stop();
  await cluster?.stop();
});

const ip = { venue: 'binance', credential: null, axis: 'ip' } as const;
const limit = { requests: 2, periodMs: 60_000 } as const;

function clientCount(s: RedisServer): number {
  return s
    .cli('CLIENT', 'LIST')
    .trim()
    .split('\n')
    .filter((l) => l.includes('cmd=')).length;
}

async function admitsTwoThenDelays(limiter: RateLimiter): Promise<void> {
  expect((await limiter.checkRate(ip, limit, 1)).kind).toBe('ok');
  expect((await limiter.checkRate(ip, limit, 1)).kind).toBe('ok');
  expect((await limiter.checkRate(ip, limit, 1)).kind).toBe('delay');
}

describe('createRateLimiter from plain data (selection by configuration)', () => {
  it('a host loads this module by name with { url } and the limiter owns (and closes) its ioredis client', async () => {
    const before = clientCount(server);
    const limiter = await loadRateLimiter({
      module: '@core/redis-rate-limiter',
      options: { url: `redis://127.0.0.1:${server.port}`, prefix: 'cfg-io:' },
    });
    expect(limiter.specificationVersion).toBe('v1');
    expect(clientCount(server)).toBe(before + 1);
    await admitsTwoThenDelays(limiter);
    await limiter.close();
    for (let i = 0; i < 100 && clientCount(server) > before; i++) await new Promise((r) => setTimeout(r, 20));
    expect(clientCount(server)).toBe(before);
  });

  it('connects with node-redis when asked', async () => {
    const limiter = await createRateLimiter({ url: `redis://127.0.0.1:${server.port}`, client: 'node-redis', prefix: 'cfg-nr:' });
    await admitsTwoThenDelays(limiter);
    await limiter.close();
  });

  it('connects to a Redis Cluster from seed URLs, with either client', async () => {
    const seeds = cluster.startupNodes.map((n) => `redis://${n.host}:${n.port}`);
    for (const client of ['ioredis', 'node-redis'] as const) {
      const limiter = await createRateLimiter({ clusterUrls: seeds, client, prefix: `cfg-cl-${client}:` });
      expect(limiter.capabilities.crossVenueChecks).toBe(false);
      await admitsTwoThenDelays(limiter);
      await limiter.close();
    }
  });

  it('refuses options that name no place, two places, a non-Redis URL or an unknown client', async () => {
    await expect(createRateLimiter({})).rejects.toThrow(/exactly one of options.redis, options.url or options.clusterUrls/);
    await expect(createRateLimiter({ url: 'redis://127.0.0.1:1', clusterUrls: ['redis://127.0.0.1:2'] })).rejects.toThrow(/exactly one/);
    await expect(createRateLimiter({ url: 'not a url' })).rejects.toThrow(/"not a url" is not a URL/);
    await expect(createRateLimiter({ url: 'http://127.0.0.1:80' })).rejects.toThrow(/http: URLs are not Redis URLs/);
    await expect(createRateLimiter({ url: 'redis://127.0.0.1:1', client: 'other' as never })).rejects.toThrow(/options.client must be/);
  });

  it('fails with a clear error naming the URL when nothing answers there', async () => {
    const port = await freePort();
    const where = new RegExp(`cannot connect to Redis at redis://127.0.0.1:${port} \\(.+\\)`);
    await expect(createRateLimiter({ url: `redis://127.0.0.1:${port}`, connectTimeoutMs: 2_000 })).rejects.toThrow(where);
    await expect(createRateLimiter({ url: `redis://127.0.0.1:${port}`, client: 'node-redis', connectTimeoutMs: 2_000 })).rejects.toThrow(where);
  });
});
