import { Redis } from 'ioredis';
import { DEMO_PREFIX } from './connect-redis.js';

const SCAN_TIMEOUT_MS = 1_000;

/** Whether any key is stored under `prefix` (one SCAN pass); `undefined` when Redis does not answer. */
async function anyKeyUnder(url: string, prefix: string): Promise<boolean | undefined> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: SCAN_TIMEOUT_MS });
  client.on('error', () => undefined);
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`, 'COUNT', 1000);
      if (keys.length > 0) return true;
      cursor = next;
    } while (cursor !== '0');
    return false;
  } catch {
    return undefined;
  } finally {
    client.disconnect();
  }
}

/**
 * Why a panel is empty, in words: buckets are stored under the prefix but none counts anything now (a
 * run ended or idles), or nothing is stored under it (no limiter used it, or its buckets expired; with
 * the demo's prefix when that is not the one given).
 */
export async function explainEmptyPanel(url: string, prefix: string): Promise<string> {
  const any = await anyKeyUnder(url, prefix);
  if (any === true) return `(no live buckets under "${prefix}": the buckets stored there count nothing now; the run that used them has ended or is idle)`;
  const hint = prefix === DEMO_PREFIX ? '' : `; the demo writes under --prefix ${DEMO_PREFIX}`;
  if (any === undefined) return `(no live buckets under "${prefix}"${hint})`;
  return `(no live buckets: nothing is stored under "${prefix}": no limiter has used it, or its run ended and its buckets expired${hint})`;
}
