import { withDeadline } from './deadline.js';
import { fromIoRedis } from './ioredis-adapter.js';
import { fromNodeRedis, fromNodeRedisCluster } from './node-redis-adapter.js';
import type { RedisLike } from './redis-like.js';
import { createRedisRateLimiter, type RedisRateLimiter } from './redis-rate-limiter.js';
import type { RedisRateLimiterOptions } from './redis-rate-limiter-options.js';

/**
 * Options of {@link createRateLimiter} when the limiter makes and owns its client: plain data, so a
 * host can select this module by configuration (`loadRateLimiter({ module, options })`).
 */
export interface RedisConnectionOptions extends Omit<RedisRateLimiterOptions, 'redis' | 'onClose'> {
  /** `redis://[user:password@]host:port[/db]` (or `rediss://`) of one server. */
  readonly url?: string;
  /** Seed nodes of a Redis Cluster, as `redis://host:port` URLs. */
  readonly clusterUrls?: readonly string[];
  /** The client library to use; it must be installed beside this package. Default `"ioredis"`. */
  readonly client?: 'ioredis' | 'node-redis';
  /** How long to wait for the first connection before giving up; default 5 000 ms. */
  readonly connectTimeoutMs?: number;
}

/** What {@link createRateLimiter} accepts: a wrapped client, or where to connect. */
export type RedisModuleOptions = RedisRateLimiterOptions | RedisConnectionOptions;

interface Owned {
  readonly redis: RedisLike;
  close(): Promise<void>;
}

async function connectWithin(connect: Promise<unknown>, ms: number, what: string): Promise<void> {
  if ((await withDeadline(connect, ms)) === 'timeout') throw new Error(`${what}: no connection after ${ms} ms`);
}

async function importClient(name: 'ioredis' | 'redis'): Promise<Record<string, unknown>> {
  try {
    return (await import(name)) as Record<string, unknown>;
  } catch (e) {
    throw new Error(
      `@core/redis-rate-limiter: options.url needs the "${name}" package installed beside this one (${e instanceof Error ? e.message : String(e)})`,
      { cause: e },
    );
  }
}

function connectError(o: RedisConnectionOptions, cause: unknown): Error {
  const where = o.url ?? (o.clusterUrls ?? []).join(', ');
  const why = cause instanceof Error ? cause.message : String(cause);
  return new Error(`@core/redis-rate-limiter: cannot connect to Redis at ${where} (${why}); check the URL and that the server runs`, {
    cause,
  });
}

function parseSeed(url: string): { host: string; port: number } {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port || 6379) };
}

async function connectIoRedis(o: RedisConnectionOptions, ms: number): Promise<Owned> {
  const mod = await importClient('ioredis');
  // Nothing may wait in an offline queue (an admission replayed after its caller gave up), and a
  // disconnected client must fail at once: the limiter answers backend_unavailable meanwhile.
  const safe = { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true };
  type Client = { connect(): Promise<unknown>; disconnect(): void; on(e: string, f: (e?: Error) => void): unknown };
  let client: Client;
  if (o.clusterUrls !== undefined) {
    const Cluster = mod.Cluster as new (nodes: unknown[], opts: unknown) => Client;
    client = new Cluster(o.clusterUrls.map(parseSeed), { enableOfflineQueue: false, lazyConnect: true, redisOptions: { maxRetriesPerRequest: 0 } });
  } else {
    const Redis = mod.Redis as new (url: string, opts: unknown) => Client;
    client = new Redis(o.url as string, safe);
  }
  let lastError: Error | undefined;
  client.on('error', (e?: Error) => {
    lastError = e; // later outages surface as backend_unavailable answers
  });
  try {
    await connectWithin(client.connect(), ms, 'ioredis');
  } catch (e) {
    client.disconnect();
    throw connectError(o, lastError ?? e);
  }
  return { redis: fromIoRedis(client as never), close: async () => client.disconnect() };
}

async function connectNodeRedis(o: RedisConnectionOptions, ms: number): Promise<Owned> {
  const mod = await importClient('redis');
  type Client = { connect(): Promise<unknown>; destroy?(): void; disconnect?(): Promise<void>; on(e: string, f: (e?: Error) => void): unknown };
  let client: Client;
  let redis: RedisLike;
  if (o.clusterUrls !== undefined) {
    const createCluster = mod.createCluster as (opts: unknown) => Client;
    client = createCluster({ rootNodes: o.clusterUrls.map((url) => ({ url })), defaults: { disableOfflineQueue: true } });
    redis = fromNodeRedisCluster(client as never);
  } else {
    const createClient = mod.createClient as (opts: unknown) => Client;
    client = createClient({ url: o.url, disableOfflineQueue: true });
    redis = fromNodeRedis(client as never);
  }
  let lastError: Error | undefined;
  client.on('error', (e?: Error) => {
    lastError = e;
  });
  const close = async (): Promise<void> => {
    if (client.destroy !== undefined) client.destroy();
    else await client.disconnect?.();
  };
  try {
    await connectWithin(client.connect(), ms, 'node-redis');
  } catch (e) {
    await close().catch(() => undefined);
    throw connectError(o, lastError ?? e);
  }
  return { redis, close };
}

/**
 * Builds a Redis rate limiter: from a wrapped client (`{ redis: fromIoRedis(client), … }`, the caller
 * keeps the client), or from plain data (`{ url }` or `{ clusterUrls }`, with `client: 'ioredis' |
 * 'node-redis'`), in which case it connects a client with the settings the limiter needs (no offline
 * queue) and closes it on `limiter.close()`. This is the module contract's factory, so a host can
 * select this package by configuration.
 *
 * @throws Error when the options name no client or no place to connect, the client library is not
 * installed, or the first connection does not succeed within `connectTimeoutMs`.
 * @example
 * ```ts
 * const limiter = await createRateLimiter({ url: 'redis://127.0.0.1:6380', prefix: 'bot:' });
 * ```
 */
export async function createRateLimiter(options: RedisModuleOptions): Promise<RedisRateLimiter> {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('@core/redis-rate-limiter: options must be { redis } or { url } / { clusterUrls }');
  }
  if ('redis' in options && options.redis !== undefined) return createRedisRateLimiter(options);
  const o = options as RedisConnectionOptions;
  const hasUrl = typeof o.url === 'string' && o.url !== '';
  const hasCluster = Array.isArray(o.clusterUrls) && o.clusterUrls.length > 0 && o.clusterUrls.every((u) => typeof u === 'string');
  if (hasUrl === hasCluster) {
    throw new TypeError('@core/redis-rate-limiter: give exactly one of options.redis, options.url or options.clusterUrls');
  }
  for (const u of hasUrl ? [o.url as string] : (o.clusterUrls as readonly string[])) {
    let parsed: URL;
    try {
      parsed = new URL(u);
    } catch {
      throw new TypeError(`@core/redis-rate-limiter: ${JSON.stringify(u)} is not a URL; expected redis://host:port`);
    }
    if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
      throw new TypeError(`@core/redis-rate-limiter: ${parsed.protocol} URLs are not Redis URLs; expected redis://host:port`);
    }
  }
  const ms = o.connectTimeoutMs ?? 5_000;
  const which = o.client ?? 'ioredis';
  if (which !== 'ioredis' && which !== 'node-redis') {
    throw new TypeError(`@core/redis-rate-limiter: options.client must be "ioredis" or "node-redis", got ${JSON.stringify(which)}`);
  }
  const owned = which === 'ioredis' ? await connectIoRedis(o, ms) : await connectNodeRedis(o, ms);
  const { url: _url, clusterUrls: _cluster, client: _client, connectTimeoutMs: _ms, ...rest } = o;
  try {
    return createRedisRateLimiter({ ...rest, redis: owned.redis, onClose: owned.close });
  } catch (e) {
    await owned.close().catch(() => undefined);
    throw e;
  }
}
