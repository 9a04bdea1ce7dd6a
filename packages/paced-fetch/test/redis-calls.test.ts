import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { ManualClock } from '@core/rate-limit-conformance';
import { createRedisRateLimiter, fromIoRedis } from '@core/redis-rate-limiter';
import { startRedisServer, type RedisServer } from '@core/redis-rate-limiter/testing';
import { createPacedFetch, type PacedFetchOptions } from '../src/index.js';

/**
 * What one paced request costs on Redis, counted by the server the test owns (MONITOR): the limiter's calls are
 * FCALLs of its library's functions (`<library>_admit`, `_sync`, `_record`, `_inspect`, ...). Requests go one at a
 * time, each after an ECHO that marks where its calls begin; the venue answers at once (a fake fetch) and nothing
 * is near its limit, so every request is admitted at once.
 */
const ORDER_BODY = 'symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=1&timestamp=1&signature=x';
const REQUESTS = 12;

interface Calls {
  admissions: number;
  feedback: number;
  names: string[];
}

let server: RedisServer;
let client: Redis;
let monitor: Redis;
let marker: Redis;
const seen: string[][] = [];

beforeAll(async () => {
  server = await startRedisServer();
  client = new Redis(server.port, { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
  await client.connect();
  marker = new Redis(server.port, { lazyConnect: true });
  await marker.connect();
  // every other connection is up (its ready check's INFO sent) before MONITOR starts: a command of another client
  // reaching the monitor before it is monitoring is a "command queue state error" in ioredis; the instance
  // monitor() duplicates never connects itself (lazyConnect)
  monitor = await new Redis(server.port, { lazyConnect: true }).monitor();
  monitor.on('monitor', (_time: string, args: string[]) => seen.push(args));
}, 30_000);

afterAll(async () => {
  monitor?.disconnect();
  marker?.disconnect();
  client?.disconnect();
  await server?.stop();
});

/** Sends `send` REQUESTS times on a fresh prefix, and answers the calls each request made, as the server saw them. */
async function countPerRequest(
  prefix: string,
  options: (now: () => number) => Omit<PacedFetchOptions, 'limiter' | 'clock'>,
  send: (paced: ReturnType<typeof createPacedFetch>) => Promise<Response>,
): Promise<Calls[]> {
  const clock = new ManualClock(1_700_000_000_000);
  const limiter = createRedisRateLimiter({ redis: fromIoRedis(client), clock, prefix });
  const paced = createPacedFetch({ ...options(() => clock.now()), limiter, clock });
  try {
    for (let i = 0; i < REQUESTS; i++) {
      await marker.echo(`${prefix}${i}`);
      const res = await send(paced);
      expect(res.status).toBe(200);
      await clock.advance(250);
    }
    await marker.echo(`${prefix}end`);
    // MONITOR's stream is in the server's order: every call of a request lies between its mark and the next
    for (let i = 0; i < 100 && !seen.some((a) => a[1] === `${prefix}end`); i++) await new Promise((r) => setTimeout(r, 20));
  } finally {
    await limiter.close();
  }
  const calls: Calls[] = [];
  let current: Calls | undefined;
  for (const args of seen) {
    const [command, first] = [args[0]?.toLowerCase(), args[1] ?? ''];
    if (command === 'echo' && first.startsWith(prefix)) {
      if (first === `${prefix}end`) break;
      calls.push((current = { admissions: 0, feedback: 0, names: [] }));
    } else if (current !== undefined && (command === 'fcall' || command === 'evalsha')) {
      const operation = first.slice(first.lastIndexOf('_') + 1);
      current.names.push(operation);
      if (operation === 'admit') current.admissions++;
      else current.feedback++;
    }
  }
  return calls;
}

/** A fake Binance spot: its used weight, and on orders its order counts, as Binance's headers say them. */
function binanceFetch(clock: () => number): typeof fetch {
  let weight = 0;
  let orders = 0;
  return async (_input, init) => {
    weight += 1;
    const headers: Record<string, string> = { date: new Date(clock()).toUTCString(), 'x-mbx-used-weight-1m': String(weight) };
    if (init?.method === 'POST') {
      orders += 1;
      headers['x-mbx-order-count-10s'] = String(orders);
      headers['x-mbx-order-count-1d'] = String(orders);
    }
    return new Response('{"orderId":1,"status":"NEW"}', { status: 200, headers });
  };
}

describe('one paced request on Redis: one admission call and one feedback call', () => {
  it('Binance spot (window limits, usage headers): a depth read is one admission and one sync', async () => {
    const calls = await countPerRequest(
      'rc-depth:',
      (now) => ({ venue: 'binance-spot', identity: { credential: 'k' }, fetch: binanceFetch(now) }),
      (paced) => paced('https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=100'),
    );
    expect(calls).toHaveLength(REQUESTS);
    for (const c of calls) expect(c).toEqual({ admissions: 1, feedback: 1, names: ['admit', 'sync'] });
  });

  it("Binance spot: an order (the key's order counts and the IP's weight) is one admission and one sync", async () => {
    const calls = await countPerRequest(
      'rc-order:',
      (now) => ({ venue: 'binance-spot', identity: { credential: 'k' }, fetch: binanceFetch(now) }),
      (paced) => paced('https://api.binance.com/api/v3/order', { method: 'POST', body: ORDER_BODY }),
    );
    expect(calls).toHaveLength(REQUESTS);
    // three usage headers (the IP's weight, the key's orders per 10 s and per day): three syncs of one answer,
    // which the Redis store sends as one call; the admission is one call even though the order is charged on
    // the key's buckets and the IP's (its own buckets are looked at only when it must wait)
    for (const c of calls) expect(c).toEqual({ admissions: 1, feedback: 1, names: ['admit', 'sync'] });
  });

  it('OKX as token buckets (no window limits, no usage headers): an order is one admission and nothing after', async () => {
    const okx: typeof fetch = async () => new Response('{"code":"0","data":[{"ordId":"1","sCode":"0"}]}', { status: 200 });
    const calls = await countPerRequest(
      'rc-okx:',
      () => ({ venue: 'okx', identity: { credential: 'k' }, fetch: okx, windowLimits: false }),
      (paced) =>
        paced('https://www.okx.com/api/v5/trade/order', {
          method: 'POST',
          body: JSON.stringify({ instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '1', px: '1' }),
        }),
    );
    expect(calls).toHaveLength(REQUESTS);
    for (const c of calls) expect(c).toEqual({ admissions: 1, feedback: 0, names: ['admit'] });
  });
});
