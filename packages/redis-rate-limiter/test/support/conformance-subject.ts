import type { ConformanceSubject, FactoryContext } from '@core/rate-limit-conformance';
import { createRedisRateLimiter, type HashTagMode } from '../../src/index.js';
import type { TestClient } from './clients.js';
import type { RedisServer } from './redis-servers.js';

let next = 0;

/**
 * A conformance subject on real Redis: a limiter with its own key prefix (isolation), a peer limiter
 * on another connection to the same store and clock (as another process would be), the keys it
 * stored, and SIGSTOP/SIGCONT of the server(s) as the store fault.
 */
export function redisSubject(
  { clock }: FactoryContext,
  options: {
    client: TestClient;
    peerClient: TestClient;
    nodes: readonly RedisServer[];
    hashTag?: HashTagMode;
    pause(): void;
    resume(): void;
  },
): ConformanceSubject {
  const prefix = `conf${next++}:`;
  const make = (client: TestClient) =>
    createRedisRateLimiter({ redis: client.redis, clock, prefix, timeoutMs: 1_000, ...(options.hashTag === undefined ? {} : { hashTag: options.hashTag }) });
  return {
    limiter: make(options.client),
    peer: () => make(options.peerClient),
    storageKeys: () =>
      options.nodes.flatMap((node) =>
        node
          .cli('--scan', '--pattern', `${prefix}*`)
          .split('\n')
          .filter((k) => k !== ''),
      ),
    breakStore: () => options.pause(),
    repairStore: () => options.resume(),
  };
}
