import type { RedisLike, RedisNodeLike } from './redis-like.js';

/** The part of an ioredis `Redis` instance the adapter uses (structural: ioredis is not imported). */
export interface IoRedisClientShape {
  /** The connection's socket (ioredis `Redis#stream`); used to coalesce the writes of one tick. */
  readonly stream?: { cork(): void; uncork(): void } | undefined;
  /** FCALL (ioredis 5 with Redis 7 commands); without it the limiter runs scripts. */
  fcall?(fn: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  /** Any command (ioredis `Redis#call`): loads the library with FUNCTION LOAD REPLACE. */
  call?(command: string, ...args: string[]): Promise<unknown>;
  evalsha(sha: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  scan(cursor: string, match: 'MATCH', pattern: string, count: 'COUNT', n: number): Promise<[string, string[]]>;
}

/** The part of an ioredis `Cluster` instance the adapter uses. */
export interface IoRedisClusterShape {
  readonly isCluster: true;
  fcall?(fn: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  evalsha(sha: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  eval(script: string, numKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
  nodes(role: 'master'): IoRedisClientShape[];
}

/** Calls per socket write at most when calls are coalesced. */
const BATCH = 8;

function nodeOf(client: IoRedisClientShape): RedisNodeLike {
  const call = client.call;
  return {
    scan: async (cursor, match, count) => {
      const [next, keys] = await client.scan(cursor, 'MATCH', match, 'COUNT', count);
      return [String(next), keys] as const;
    },
    ...(typeof call === 'function' ? { functionLoad: (code: string) => call.call(client, 'FUNCTION', 'LOAD', 'REPLACE', code) } : {}),
  };
}

/**
 * Wraps an ioredis `Redis` or `Cluster`.
 *
 * @param client - create it with `enableOfflineQueue: false` and `maxRetriesPerRequest: 0` (for a
 * `Cluster`: `enableOfflineQueue: false` and `redisOptions: { maxRetriesPerRequest: 0 }`) so nothing
 * waits in a queue while Redis is away.
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const redis = fromIoRedis(new Redis({ port: 6380, enableOfflineQueue: false, maxRetriesPerRequest: 0 }));
 * ```
 */
export function fromIoRedis(client: IoRedisClientShape | IoRedisClusterShape): RedisLike {
  const isCluster = 'isCluster' in client && client.isCluster === true;
  // One server: the script calls issued in one tick leave in one socket write, as node-redis does by
  // itself and ioredis does with enableAutoPipelining: fewer system calls on both sides, the same
  // commands in the same order, each with its own reply. The first call of a tick is written at once
  // (a lone call waits for nothing); from the second on, the socket is corked until eight calls wait
  // or the tick ends.
  let inTick = false;
  let corked: { uncork(): void } | undefined;
  let batched = 0;
  const release = (): void => {
    const stream = corked;
    corked = undefined;
    stream?.uncork();
  };
  const endTick = (): void => {
    inTick = false;
    release();
  };
  const coalesce = (): void => {
    if (isCluster) return;
    if (!inTick) {
      inTick = true;
      process.nextTick(endTick);
      return;
    }
    if (corked !== undefined) {
      batched++;
      return;
    }
    const stream = (client as IoRedisClientShape).stream;
    if (stream === undefined || typeof stream.cork !== 'function') return;
    stream.cork();
    corked = stream;
    batched = 1;
  };
  // batches of a few calls: the server starts on one while the next is being built
  const written = (): void => {
    if (corked !== undefined && batched >= BATCH) release();
  };
  const fcall = client.fcall;
  return {
    cluster: isCluster,
    ...(typeof fcall === 'function'
      ? {
          fcall: (fn: string, keys: readonly string[], args: readonly string[]) => {
            coalesce();
            const reply = fcall.call(client, fn, keys.length, ...keys, ...args);
            written();
            return reply;
          },
        }
      : {}),
    evalsha: (sha, keys, args) => {
      coalesce();
      const reply = client.evalsha(sha, keys.length, ...keys, ...args);
      written();
      return reply;
    },
    eval: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args),
    masters: async () => (isCluster ? (client as IoRedisClusterShape).nodes('master').map(nodeOf) : [nodeOf(client as IoRedisClientShape)]),
  };
}
