import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { hashCredential } from '@core/rate-limit-kit';
import { ManualClock } from '@core/rate-limit-conformance';
import {
  createRedisRateLimiter,
  fromIoRedis,
  REDIS_RATE_LIMITER_LIBRARY,
  REDIS_RATE_LIMITER_SCRIPTS,
  type RedisLike,
  type RedisRateLimiter,
} from '../src/index.js';
import { bucketsOf, ioredisClient, nodeRedisClient, type TestClient } from './support/clients.js';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';

let server: RedisServer;
let io: TestClient;
let nr: TestClient;
let n = 0;

beforeAll(async () => {
  server = await startRedisServer();
  io = await ioredisClient(server.port);
  nr = await nodeRedisClient(server.port);
});
afterAll(async () => {
  await io?.close();
  await nr?.close();
  await server?.stop();
});

function limiterWith(options: { clock?: ManualClock; client?: TestClient } = {}): RedisRateLimiter {
  return createRedisRateLimiter({
    redis: (options.client ?? io).redis,
    prefix: `s${n++}:`,
    ...(options.clock === undefined ? {} : { clock: options.clock }),
  });
}

/** Calls per command since the server started, from INFO commandstats. */
function commandCalls(): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of server.cli('INFO', 'commandstats').split('\n')) {
    const m = /^cmdstat_([a-z|]+):calls=(\d+)/.exec(line.trim());
    if (m) out.set(m[1] as string, Number(m[2]));
  }
  return out;
}

function callsSince(before: Map<string, number>): Map<string, number> {
  const after = commandCalls();
  const diff = new Map<string, number>();
  for (const [cmd, calls] of after) {
    const d = calls - (before.get(cmd) ?? 0);
    if (d > 0 && cmd !== 'info') diff.set(cmd, d);
  }
  return diff;
}

const binanceIp = { venue: 'binance', credential: null, axis: 'ip' };
const weight = { requests: 6000, periodMs: 60_000 };

describe('round trips', () => {
  it('one FCALL per admission, booking and three-bucket check, once the library is loaded', async () => {
    const limiter = limiterWith();
    const keyed = { venue: 'binance', credential: 'k1', axis: 'orders_10s' };
    const uid = { venue: 'binance', credential: 'k1', axis: 'uid' };
    const three = [
      { key: binanceIp, limit: weight, cost: 1 },
      { key: keyed, limit: { requests: 100, periodMs: 10_000 }, cost: 1 },
      { key: uid, limit: { requests: 1000, periodMs: 60_000 }, cost: 1 },
    ];
    expect((await limiter.checkRates(three)).kind).toBe('ok'); // loads the library if needed
    const before = commandCalls();
    for (let i = 0; i < 10; i++) expect((await limiter.checkRates(three)).kind).toBe('ok');
    for (let i = 0; i < 5; i++) expect((await limiter.checkRate(binanceIp, weight, 1, { maxWaitMs: 1000 })).kind).toBe('ok');
    // 15 client commands, all FCALL; inside the functions one TIME per call, one read per call (GET for
    // one bucket, MGET for several), one SET per bucket
    expect(Object.fromEntries(callsSince(before))).toEqual({ fcall: 15, time: 15, mget: 10, get: 5, set: 35 });
    await limiter.close();
  });

  it('the syncs of one tick are one FCALL, applied in order, and a call made after them goes after them', async () => {
    const clock = new ManualClock(1_000_000);
    const limiter = limiterWith({ clock });
    const keyed = { venue: 'binance', credential: 'k1', axis: 'orders_10s' };
    const orders = { perWindow: 100, windowMs: 10_000 };
    expect((await limiter.checkRate(binanceIp, weight, 1)).kind).toBe('ok'); // loads the library
    const before = commandCalls();
    // one answer's three reports, and the same bucket reported twice: the second, larger, report stands
    const synced = Promise.all([
      limiter.sync(binanceIp, weight, 100),
      limiter.sync(keyed, orders, 10, { sentAtMs: clock.now() }),
      limiter.sync(binanceIp, weight, 3000),
    ]);
    // issued in the same tick after the syncs: it must see them (3000 of 6000 used, so 3001 waits)
    const after = limiter.checkRate(binanceIp, weight, 3001);
    expect(await synced).toEqual([{ kind: 'ok' }, { kind: 'ok' }, { kind: 'ok' }]);
    expect((await after).kind).toBe('delay');
    expect(callsSince(before).get('fcall')).toBe(2);
    expect(await limiter.borrowed(binanceIp)).toBeCloseTo(3000, 6);
    expect(await limiter.borrowed(keyed)).toBeCloseTo(10, 6);
    await limiter.close();
  });

  it('the ioredis adapter coalesces the calls of one tick: the first written at once, the rest eight to a socket write', async () => {
    const client = new Redis({ host: '127.0.0.1', port: server.port, enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true });
    client.on('error', () => {});
    await client.connect();
    const limiter = createRedisRateLimiter({ redis: fromIoRedis(client), prefix: `s${n++}:` });
    const limit = { capacity: 1000, refillPerSec: 1 };
    expect((await limiter.checkRate(binanceIp, limit, 1)).kind).toBe('ok'); // loads the library
    const socket = client.stream as unknown as { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void };
    let writes = 0;
    const write = socket._write.bind(socket);
    const writev = socket._writev.bind(socket);
    socket._write = (...a: unknown[]) => {
      writes++;
      write(...a);
    };
    socket._writev = (...a: unknown[]) => {
      writes++;
      writev(...a);
    };
    const answers = await Promise.all(Array.from({ length: 10 }, () => limiter.checkRate(binanceIp, limit, 1)));
    expect(answers.map((d) => d.kind)).toEqual(Array.from({ length: 10 }, () => 'ok'));
    expect(writes).toBe(3); // call 1; calls 2 to 9; call 10
    expect(await limiter.borrowed(binanceIp)).toBeCloseTo(11, 1); // all eleven charged (refill 1/s in real time)
    await limiter.close();
    client.disconnect();
  });

  it('FUNCTION FLUSH costs one FUNCTION LOAD and one FCALL again; the answer stays right', async () => {
    const clock = new ManualClock();
    const limiter = limiterWith({ clock });
    const limit = { capacity: 2, refillPerSec: 1 };
    expect((await limiter.checkRate(binanceIp, limit, 1)).kind).toBe('ok');
    server.cli('FUNCTION', 'FLUSH');
    const before = commandCalls();
    expect((await limiter.checkRate(binanceIp, limit, 1)).kind).toBe('ok');
    expect(await limiter.checkRate(binanceIp, limit, 1)).toEqual({ kind: 'delay', retryAfterMs: 1000 });
    const calls = callsSince(before);
    expect(calls.get('function|load')).toBe(1);
    expect(calls.get('fcall')).toBe(3); // function not found (then FUNCTION LOAD), the retry, the second admission
    expect(calls.get('evalsha')).toBeUndefined();
    await limiter.close();
  });

  it('the library is named by a hash of its code, and so are its functions: another version beside it changes nothing', async () => {
    const limiter = limiterWith();
    expect((await limiter.checkRate(binanceIp, weight, 1)).kind).toBe('ok');
    const { name, code } = REDIS_RATE_LIMITER_LIBRARY;
    expect(name).toMatch(/^rrl_[0-9a-f]{12}$/);
    const other = code.replaceAll(name, 'rrl_000000000000');
    const [node] = await io.redis.masters();
    expect(await node?.functionLoad?.(other)).toBe('rrl_000000000000');
    const listed = server.cli('FUNCTION', 'LIST');
    for (const library of [name, 'rrl_000000000000']) expect(listed).toContain(library);
    expect(listed).toContain(`${name}_admit`);
    expect((await limiter.checkRate(binanceIp, weight, 1)).kind).toBe('ok');
    server.cli('FUNCTION', 'DELETE', 'rrl_000000000000');
    await limiter.close();
  });

  it('without fcall the limiter runs scripts: SCRIPT FLUSH costs one EVAL, then EVALSHA again', async () => {
    const { fcall: _, ...scriptsOnly } = io.redis;
    const clock = new ManualClock();
    const limiter = createRedisRateLimiter({ redis: scriptsOnly, prefix: `s${n++}:`, clock });
    const limit = { capacity: 2, refillPerSec: 1 };
    expect((await limiter.checkRate(binanceIp, limit, 1)).kind).toBe('ok');
    server.cli('SCRIPT', 'FLUSH');
    const before = commandCalls();
    expect((await limiter.checkRate(binanceIp, limit, 1)).kind).toBe('ok');
    expect(await limiter.checkRate(binanceIp, limit, 1)).toEqual({ kind: 'delay', retryAfterMs: 1000 });
    const calls = callsSince(before);
    expect(calls.get('eval')).toBe(1);
    expect(calls.get('evalsha')).toBe(2); // NOSCRIPT (then EVAL), then the second admission
    expect(calls.get('fcall')).toBeUndefined();
    await limiter.close();
  });

  it('a server without Functions (FUNCTION LOAD an unknown command) turns the limiter to scripts', async () => {
    const masters = await io.redis.masters();
    const refusing: RedisLike = {
      ...io.redis,
      masters: async () =>
        masters.map((node) => ({
          scan: (cursor: string, match: string, count: number) => node.scan(cursor, match, count),
          functionLoad: async () => Promise.reject(new Error("ERR unknown command 'FUNCTION', with args beginning with: 'LOAD'")),
        })),
    };
    const limiter = createRedisRateLimiter({ redis: refusing, prefix: `s${n++}:`, clock: new ManualClock() });
    const before = commandCalls();
    const limit = { capacity: 2, refillPerSec: 1 };
    expect((await limiter.checkRate(binanceIp, limit, 2)).kind).toBe('ok');
    expect(await limiter.checkRate(binanceIp, limit, 1)).toEqual({ kind: 'delay', retryAfterMs: 1000 });
    const calls = callsSince(before);
    expect(calls.get('fcall')).toBeUndefined();
    expect((calls.get('eval') ?? 0) + (calls.get('evalsha') ?? 0)).toBe(2);
    await limiter.close();
  });
});

describe('bad input never reaches Redis', () => {
  it('malformed calls answer invalid_parameters without a command, and other callers are served', async () => {
    const limiter = limiterWith();
    const before = commandCalls();
    const bad: unknown[] = [
      await limiter.checkRate({ venue: '', credential: null }, weight, 1),
      await limiter.checkRate(binanceIp, { capacity: -1, refillPerSec: 1 }, 1),
      await limiter.checkRate(binanceIp, weight, Number.NaN),
      await limiter.checkRate(binanceIp, weight, -1),
      await limiter.checkRate(binanceIp, weight, 1, { maxWaitMs: Infinity }),
      await limiter.checkRates([]),
      await limiter.checkRates([
        { key: binanceIp, limit: weight, cost: 1 },
        { key: binanceIp, limit: { requests: 1 }, cost: 1 },
      ]),
      await limiter.waitForCapacity([{ key: binanceIp, limit: weight, cost: 1 }], { maxWaitMs: 0 }),
      await limiter.sync(binanceIp, weight, -5),
      await limiter.penalize(binanceIp, { forMs: Number.NaN } as never),
      await limiter.borrowed({ venue: 'x', credential: 42 } as never),
      await limiter.resetVenue(''),
    ];
    for (const r of bad) expect(r).toMatchObject({ kind: 'error', error: { code: 'invalid_parameters' } });
    expect(callsSince(before).size).toBe(0);
    expect((await limiter.checkRate(binanceIp, weight, 1)).kind).toBe('ok');
    await limiter.close();
  });

  it('RL-K3 a credential in an error message or key name appears only hashed', async () => {
    const limiter = limiterWith();
    const secret = 'API-KEY-{very}:secret\nvalue';
    const r = await limiter.checkRate({ venue: 'okx', credential: secret, axis: '' }, weight, 1);
    expect(r.kind).toBe('error');
    expect(JSON.stringify(r)).not.toContain('very');
    expect((await limiter.checkRate({ venue: 'okx', credential: secret }, weight, 1)).kind).toBe('ok');
    const keys = server.cli('--scan', '--pattern', '*okx*');
    expect(keys).not.toContain('very');
    expect(keys).toContain(Buffer.from(hashCredential(secret), 'hex').toString('base64url'));
    await limiter.close();
  });
});

describe('key names', () => {
  it('braces, colons and newlines in credentials and axes cannot change the key or the hash tag', async () => {
    const limiter = limiterWith();
    const tricky = [
      { venue: 'v', credential: '}{', axis: 'a' },
      { venue: 'v', credential: 'x}:{y', axis: 'a' },
      { venue: 'v', credential: null, axis: '{a}' },
      { venue: 'v', credential: null, axis: 'a:b\nc' },
      { venue: 'v', credential: null, axis: 'a' },
      { venue: 'v:{x}', credential: null, axis: 'a' },
    ];
    for (const key of tricky) expect((await limiter.checkRate(key, { capacity: 1, refillPerSec: 0.001 }, 1)).kind).toBe('ok');
    // each is its own bucket: a second unit is refused everywhere (RL-K1), nothing spilled over
    for (const key of tricky) expect((await limiter.checkRate(key, { capacity: 1, refillPerSec: 0.001 }, 1)).kind).toBe('delay');
    const names = (await limiterKeys()).filter((k) => k.startsWith(`s${n - 1}:`));
    expect(names).toHaveLength(tricky.length);
    for (const name of names) {
      // exactly one hash tag, and it is the (escaped) venue
      expect(name.match(/[{}]/g)).toHaveLength(2);
      expect(name).not.toMatch(/\n/);
      expect(name.split(':')).toHaveLength(3); // prefix, then {venue}credential, then axis
    }
    const snapshot = bucketsOf(await limiter.snapshot());
    expect(snapshot.map((b) => `${b.venue}|${b.axis}`).sort()).toEqual(tricky.map((k) => `${k.venue}|${k.axis}`).sort());
    await limiter.close();
  });
});

async function limiterKeys(): Promise<string[]> {
  return server
    .cli('--scan', '--pattern', '*')
    .split('\n')
    .filter((k) => k !== '');
}

describe('fractional costs and server time', () => {
  it('RL-A1 ten costs of 0.1 fill a bucket of 1 exactly, the eleventh waits the exact time', async () => {
    const clock = new ManualClock();
    const limiter = limiterWith({ clock });
    const limit = { capacity: 1, refillPerSec: 10 };
    for (let i = 0; i < 10; i++) expect((await limiter.checkRate(binanceIp, limit, 0.1)).kind).toBe('ok');
    expect(await limiter.checkRate(binanceIp, limit, 0.1)).toEqual({ kind: 'delay', retryAfterMs: 10 });
    expect(await limiter.borrowed(binanceIp)).toBeCloseTo(1, 12);
    await clock.advance(10);
    expect((await limiter.checkRate(binanceIp, limit, 0.1)).kind).toBe('ok');
    await limiter.close();
  });

  it("without an injected clock the server's TIME is the clock: send times are server times", async () => {
    const limiter = limiterWith();
    expect(limiter.capabilities.injectableClock).toBe(false);
    const serverNow = Number(server.cli('TIME').split('\n')[0]) * 1000;
    const d = await limiter.checkRate(binanceIp, { capacity: 1, refillPerSec: 1 }, 1);
    expect(d.kind).toBe('ok');
    if (d.kind === 'ok') expect(Math.abs(d.sendAtMs - serverNow)).toBeLessThan(60_000);
    const booked = await limiter.checkRate(binanceIp, { capacity: 1, refillPerSec: 1 }, 1, { maxWaitMs: 5_000 });
    expect(booked.kind).toBe('booked');
    if (booked.kind === 'booked' && d.kind === 'ok') expect(booked.sendAtMs - d.sendAtMs).toBeCloseTo(1000, 3);
    await limiter.close();
  });
});

describe('memory', () => {
  it('keys expire once their bucket is full again (TTL = time to full + slack)', async () => {
    const limiter = limiterWith();
    expect((await limiter.checkRate(binanceIp, { capacity: 10, refillPerSec: 1 }, 4)).kind).toBe('ok');
    const [name] = (await limiterKeys()).filter((k) => k.startsWith(`s${n - 1}:`));
    const ttl = Number(server.cli('PTTL', name as string).trim());
    expect(ttl).toBeGreaterThan(2_000);
    expect(ttl).toBeLessThanOrEqual(4_000 + 1_000 + 1);
    await limiter.close();
  });

  it('an idle bucket takes at most 150 bytes (MEMORY USAGE)', async () => {
    const limiter = limiterWith();
    const key = { venue: 'binance', credential: 'a-64-character-api-key-0123456789abcdef0123456789abcdef0123456', axis: 'orders_10s' };
    expect((await limiter.checkRate(key, { requests: 100, periodMs: 10_000 }, 1)).kind).toBe('ok');
    const [name] = (await limiterKeys()).filter((k) => k.startsWith(`s${n - 1}:`));
    const bytes = Number(server.cli('MEMORY', 'USAGE', name as string).trim());
    expect(bytes).toBeGreaterThan(0);
    expect(bytes).toBeLessThanOrEqual(150);
    await limiter.close();
  });
});

describe('node-redis v5 client', () => {
  it('admits, books, cancels, records, snapshots and resets through the node-redis adapter', async () => {
    const clock = new ManualClock();
    const limiter = limiterWith({ clock, client: nr });
    const limit = { capacity: 2, refillPerSec: 1 };
    expect((await limiter.checkRates([{ key: binanceIp, limit, cost: 2 }])).kind).toBe('ok');
    const controller = new AbortController();
    const waiting = limiter.waitForCapacity([{ key: binanceIp, limit, cost: 1 }], { maxWaitMs: 5_000, signal: controller.signal });
    await clock.whenTimers(1);
    expect(await limiter.borrowed(binanceIp)).toBeCloseTo(3, 9);
    controller.abort();
    expect(await waiting).toMatchObject({ kind: 'error', error: { code: 'aborted' } });
    expect(await limiter.borrowed(binanceIp)).toBeCloseTo(2, 9); // returned (RL-W5)
    limiter.record(binanceIp, 1);
    await expect.poll(() => limiter.borrowed(binanceIp)).toBeCloseTo(3, 9);
    expect(bucketsOf(await limiter.snapshot()).map((b) => b.axis)).toEqual(['ip']);
    expect(await limiter.resetVenue('binance')).toEqual({ kind: 'ok' });
    expect(await limiter.borrowed(binanceIp)).toBe(0);
    await limiter.close();
  });

  it('the scripts are the same for every client: SHA-1 names match SCRIPT LOAD', () => {
    for (const script of REDIS_RATE_LIMITER_SCRIPTS) {
      expect(server.cli('SCRIPT', 'LOAD', script.source).trim()).toBe(script.sha);
    }
  });
});

describe('options', () => {
  it('refuses a prefix that is empty or holds braces, an unknown hash tag mode and a bad timeout, at construction', () => {
    for (const bad of [{ prefix: '' }, { prefix: 'a{b' }, { prefix: 'a}' }, { hashTag: 'axis' }, { timeoutMs: 0 }, { timeoutMs: Number.NaN }]) {
      expect(() => createRedisRateLimiter({ redis: io.redis, ...(bad as object) })).toThrow(TypeError);
    }
    expect(() => createRedisRateLimiter({ redis: {} as never })).toThrow(/RedisLike/);
  });

  it('capabilities say what the instance offers: distributed, and an injectable clock only when given one', async () => {
    const withClock = limiterWith({ clock: new ManualClock() });
    const withoutClock = limiterWith();
    expect(withClock.capabilities).toMatchObject({ distributed: true, injectableClock: true, bookings: true, fractionalCosts: true, crossVenueChecks: true });
    expect(withoutClock.capabilities.injectableClock).toBe(false);
    expect(Object.isFrozen(withClock.capabilities)).toBe(true);
    await withClock.close();
    await withoutClock.close();
  });
});
