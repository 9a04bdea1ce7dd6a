/**
 * The little a limiter needs from a Redis client: call a function of its library (FCALL) on the node that
 * owns its keys, and load the library on every master (FUNCTION LOAD); or, without those, run a script by
 * SHA or by source; and list the masters to scan when forgetting a venue or everything.
 *
 * Adapters exist for ioredis (`Redis` and `Cluster`) and node-redis v5 (`createClient`,
 * `createCluster`); anything else that can run EVALSHA can implement it in a few lines. Without `fcall`
 * (or on a server without Functions, before Redis 7) every call runs the whole library as a script.
 *
 * @remarks Implementations must not queue commands while disconnected (fail closed, RL-F1): the limiter
 * enforces its own timeout, but a client's offline queue would replay stale admissions later.
 *
 * @example
 * ```ts
 * const redis: RedisLike = {
 *   cluster: false,
 *   fcall: (fn, keys, args) => client.fcall(fn, keys.length, ...keys, ...args),
 *   evalsha: (sha, keys, args) => client.evalsha(sha, keys.length, ...keys, ...args),
 *   eval: (script, keys, args) => client.eval(script, keys.length, ...keys, ...args),
 *   masters: async () => [
 *     {
 *       scan: async (cursor, match, count) => client.scan(cursor, 'MATCH', match, 'COUNT', count),
 *       functionLoad: (code) => client.call('FUNCTION', 'LOAD', 'REPLACE', code),
 *     },
 *   ],
 * };
 * ```
 */
export interface RedisLike {
  /** True for Redis Cluster: the keys of one script call must then share a hash slot. */
  readonly cluster: boolean;
  /**
   * FCALL routed by the first key: calls a function of the limiter's library; rejects with the server's
   * error (`ERR Function not found` until the library is loaded there). Optional: without it the limiter
   * runs scripts (EVALSHA); with it every master must offer {@link RedisNodeLike.functionLoad}.
   */
  fcall?(fn: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** EVALSHA routed by the first key; rejects with the server's error (for example `NOSCRIPT ...`). */
  evalsha(sha: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** EVAL routed by the first key (it also caches the script on that node). */
  eval(script: string, keys: readonly string[], args: readonly string[]): Promise<unknown>;
  /** Every master (a single server is its own only master). */
  masters(): Promise<readonly RedisNodeLike[]>;
}

/** One master, for SCAN and for loading the library. */
export interface RedisNodeLike {
  /** One SCAN step: resolves to the next cursor (`"0"` at the end) and the keys found. */
  scan(cursor: string, match: string, count: number): Promise<readonly [string, readonly string[]]>;
  /** FUNCTION LOAD REPLACE of `code` on this master (needed with {@link RedisLike.fcall}). */
  functionLoad?(code: string): Promise<unknown>;
}
