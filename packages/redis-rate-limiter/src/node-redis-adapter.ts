import type { RedisLike, RedisNodeLike } from './redis-like.js';

interface ScriptOptions {
  keys: string[];
  arguments: string[];
}

/** The part of a node-redis v5 client (`createClient`) the adapter uses (structural: redis is not imported). */
export interface NodeRedisClientShape {
  /** FCALL (node-redis v5); without it the limiter runs scripts. */
  fCall?(fn: string, options: ScriptOptions): Promise<unknown>;
  /** FUNCTION LOAD, with `REPLACE: true`. */
  functionLoad?(code: string, options: { REPLACE: boolean }): Promise<unknown>;
  evalSha(sha: string, options: ScriptOptions): Promise<unknown>;
  eval(script: string, options: ScriptOptions): Promise<unknown>;
  scan(cursor: string, options: { MATCH: string; COUNT: number }): Promise<{ cursor: string | number; keys: string[] }>;
}

/** The part of a node-redis v5 cluster (`createCluster`) the adapter uses. */
export interface NodeRedisClusterShape {
  fCall?(fn: string, options: ScriptOptions): Promise<unknown>;
  evalSha(sha: string, options: ScriptOptions): Promise<unknown>;
  eval(script: string, options: ScriptOptions): Promise<unknown>;
  readonly masters: readonly unknown[];
  nodeClient(node: never): Promise<NodeRedisClientShape> | NodeRedisClientShape;
}

function nodeOf(client: NodeRedisClientShape): RedisNodeLike {
  const load = client.functionLoad;
  return {
    scan: async (cursor, match, count) => {
      const reply = await client.scan(cursor, { MATCH: match, COUNT: count });
      return [String(reply.cursor), reply.keys] as const;
    },
    ...(typeof load === 'function' ? { functionLoad: (code: string) => load.call(client, code, { REPLACE: true }) } : {}),
  };
}

/** FCALL through `target` when it offers it (the limiter runs scripts otherwise). */
function fcallOf(target: { fCall?(fn: string, options: ScriptOptions): Promise<unknown> }): Pick<RedisLike, 'fcall'> {
  const fCall = target.fCall;
  if (typeof fCall !== 'function') return {};
  return { fcall: (fn, keys, args) => fCall.call(target, fn, { keys: [...keys], arguments: [...args] }) };
}

/**
 * Wraps a node-redis v5 client.
 *
 * @param client - created with `disableOfflineQueue: true` and connected (`await client.connect()`).
 * @example
 * ```ts
 * import { createClient } from 'redis';
 * const client = await createClient({ url: 'redis://127.0.0.1:6380', disableOfflineQueue: true }).connect();
 * const redis = fromNodeRedis(client);
 * ```
 */
export function fromNodeRedis(client: NodeRedisClientShape): RedisLike {
  return {
    cluster: false,
    ...fcallOf(client),
    evalsha: (sha, keys, args) => client.evalSha(sha, { keys: [...keys], arguments: [...args] }),
    eval: (script, keys, args) => client.eval(script, { keys: [...keys], arguments: [...args] }),
    masters: async () => [nodeOf(client)],
  };
}

/**
 * Wraps a node-redis v5 cluster.
 *
 * @param cluster - created with `defaults: { disableOfflineQueue: true }` and connected.
 * @example
 * ```ts
 * import { createCluster } from 'redis';
 * const cluster = await createCluster({ rootNodes: [{ url: 'redis://127.0.0.1:7000' }], defaults: { disableOfflineQueue: true } }).connect();
 * const redis = fromNodeRedisCluster(cluster);
 * ```
 */
export function fromNodeRedisCluster(cluster: NodeRedisClusterShape): RedisLike {
  return {
    cluster: true,
    ...fcallOf(cluster),
    evalsha: (sha, keys, args) => cluster.evalSha(sha, { keys: [...keys], arguments: [...args] }),
    eval: (script, keys, args) => cluster.eval(script, { keys: [...keys], arguments: [...args] }),
    masters: async () => {
      const clients = await Promise.all(cluster.masters.map((m) => cluster.nodeClient(m as never)));
      return clients.map(nodeOf);
    },
  };
}
