/**
 * The little a limiter needs from a Redis client: run a script by SHA or by source on the node that
 * owns its keys, and list the masters to scan when forgetting a venue or everything.
 *
 * Adapters exist for ioredis (`Redis` and `Cluster`) and node-redis v5 (`createClient`,
 * `createCluster`); anything else that can run EVALSHA can implement it in a few lines.
 *
 * @remarks Implementations must not queue commands while disconnected (fail closed, RL-F1): the limiter
 * enforces its own timeout, but a client's offline queue would replay stale admissions later.
 *
 * @example
 * ```ts
 * const redis: RedisLike = {
 *   cluster: false,
 *   evalsha: (sha, keys, args) => client.evalsha(sha, keys.length, ...keys, ...args),
 *   eval: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args),
 *   masters: () => [{ scan: async (cursor, match, count) => client.scan(cursor, 'MATCH', match, 'COUNT', count) }],
 * };
 * ```
 */
export interface RedisLike {
  /** True for Redis Cluster: the keys of one script call must then share a hash slot. */
  readonly cluster: boolean;
  /** EVALSHA routed by the first key; rejects with the server's error (for example `NOSCRIPT ...`). */
  evalsha(sha: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** EVAL routed by the first key (it also caches the script on that node). */
  eval(script: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** Every master (a single server is its own only master). */
  masters(): Promise<readonly RedisNodeLike[]>;
}

/** One master, for SCAN. */
export interface RedisNodeLike {
  /** One SCAN step: resolves to the next cursor (`"0"` at the end) and the keys found. */
  scan(cursor: string, match: string, count: number): Promise<readonly [string, readonly string[]]>;
}
