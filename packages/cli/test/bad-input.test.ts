import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { createRateLimiter } from '@core/redis-rate-limiter';
import { Redis } from 'ioredis';
import { getVenueSpec } from '@core/exchange-specs';
import { COUNTED_NOW_NOTE, lanesFor, main, runWorkers } from '../src/index.js';
import { startTestRedis, type TestRedis } from './redis-server.js';
import { Sink } from './sink.js';
import { exlimitsCommand } from '../src/invocation.js';

const outDir = mkdtempSync(join(tmpdir(), 'exlimits-bad-'));
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function run(argv: string[], signal?: AbortSignal, out = new Sink()): Promise<{ code: number; out: string; err: string }> {
  const err = new Sink();
  const code = await main(argv, { out, err, ...(signal === undefined ? {} : { signal }) });
  return { code, out: out.text, err: err.text };
}

/** Resolves once `sink` holds `count` occurrences of `text` (polling its buffer; no timing assumed). */
async function until(sink: Sink, text: string, count = 1): Promise<void> {
  while (sink.text.split(text).length - 1 < count) await new Promise((r) => setTimeout(r, 20));
}

async function listen(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  cleanups.push(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { url: `http://127.0.0.1:${port}`, server };
}

async function closedPort(): Promise<number> {
  const { server } = await listen(() => undefined);
  const addr = server.address();
  const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
  await new Promise<void>((r) => {
    server.close(() => r());
  });
  return port;
}

describe('exlimits: bad input gives a clear message and a non-zero exit', () => {
  it('an unknown venue: exit 2, naming the venue and the known ones', async () => {
    const r = await run(['demo', '--venue', 'nosuchvenue', '--seconds', '1', '--out', outDir]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('unknown venue "nosuchvenue"; known venues: binance-spot');
  });

  it('a bad Redis URL: exit 2 before anything runs', async () => {
    const r = await run(['demo', '--redis', 'http://127.0.0.1:6390']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('must start with redis:// or rediss://');
  });

  it('a Redis nobody listens on: exit 1, naming the URL and how to start one', async () => {
    const port = await closedPort();
    const r = await run(['demo', '--seconds', '1', '--redis', `redis://127.0.0.1:${port}`, '--out', outDir]);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`cannot reach Redis at redis://127.0.0.1:${port}`);
    expect(r.err).toContain('redis-server --port');
  });

  it('inspect on a Redis nobody listens on: exit 1', async () => {
    const port = await closedPort();
    const r = await run(['inspect', '--redis', `redis://127.0.0.1:${port}`, '--once']);
    expect(r.code).toBe(1);
    expect(r.err).toContain('cannot reach Redis');
  });

  it('a venue that answers garbage: the run ends with "malformed response"', { timeout: 30_000 }, async () => {
    const { url } = await listen((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"code":"0","data":[');
    });
    const spec = getVenueSpec('okx');
    const limiter = createDefaultRateLimiter();
    cleanups.push(() => limiter.close());
    const r = await runWorkers({
      spec,
      baseUrl: url,
      limiter,
      credentials: ['k'],
      lanes: lanesFor(spec),
      workerIds: [0, 1, 2],
      durationMs: 20_000,
      margin: 0.1,
    });
    expect(r.failure).toMatch(/^malformed response from the venue to (GET|POST) \/api\/v5\/\S+ \(HTTP 200\): "\{\\"code\\":\\"0\\",\\"data\\":\["$/);
  });

  it('a venue nobody listens on: the run ends with "cannot reach the venue"', { timeout: 30_000 }, async () => {
    const port = await closedPort();
    const spec = getVenueSpec('kraken');
    const limiter = createDefaultRateLimiter();
    cleanups.push(() => limiter.close());
    const r = await runWorkers({
      spec,
      baseUrl: `http://127.0.0.1:${port}`,
      limiter,
      credentials: ['k'],
      lanes: lanesFor(spec),
      workerIds: [0],
      durationMs: 20_000,
      margin: 0.1,
    });
    expect(r.failure).toContain(`cannot reach the venue at http://127.0.0.1:${port}: ECONNREFUSED`);
  });
});

describe('exlimits with a Redis that goes away mid-run', () => {
  let redis: TestRedis | undefined;
  afterEach(async () => {
    await redis?.stop();
    redis = undefined;
  });

  it('in process: ends the run with a message naming the store, exit 1', { timeout: 60_000 }, async () => {
    redis = await startTestRedis();
    const out = new Sink();
    const r0 = run(['demo', '--venue', 'okx', '--seconds', '30', '--redis', redis.url, '--out', outDir], undefined, out);
    await until(out, 'watch the buckets live'); // connected: the run is under way
    await redis.stop();
    const r = await r0;
    expect(r.code).toBe(1);
    expect(r.err).toContain("the run failed: the rate limiter's store stopped answering for over 5 s (backend_unavailable)");
  });

  it('across 2 processes: ends the run with a message naming the store, exit 1', { timeout: 60_000 }, async () => {
    redis = await startTestRedis();
    const out = new Sink();
    const r0 = run(['demo', '--venue', 'kucoin', '--seconds', '30', '--redis', redis.url, '--processes', '2', '--out', outDir], undefined, out);
    await until(out, '2 worker processes running');
    await redis.stop();
    const r = await r0;
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the run failed: worker process \d: the rate limiter's store stopped answering for over 5 s \(backend_unavailable\)/);
  });
});

describe('exlimits inspect', () => {
  it('lists the demo buckets with hashed credentials, never raw ones', { timeout: 60_000 }, async () => {
    const redis = await startTestRedis();
    cleanups.push(() => redis.stop());
    const demo = await run(['demo', '--venue', 'okx', '--seconds', '2', '--redis', redis.url, '--out', outDir]);
    expect(demo.code).toBe(0);
    // the hint runs as printed where the demo ran: here, in a clone, node and the path of the bin
    expect(demo.out).toContain(`${exlimitsCommand()} inspect --redis ${redis.url} --prefix exlimits-demo:`);
    expect(exlimitsCommand()).toMatch(/^node .*bin\/cli\.mjs$/);
    // the demo's buckets go idle (and expire) within moments of its end: keep two live for the panel,
    // booked on slow buckets as the demo's limiter books them
    const limiter = await createRateLimiter({ url: redis.url, prefix: 'exlimits-demo:' });
    cleanups.push(() => limiter.close());
    const slow = { capacity: 1, refillPerSec: 0.01 };
    for (const key of [
      { venue: 'okx', credential: null, axis: 'market/books' },
      { venue: 'okx', credential: 'demo-okx-key-1', axis: 'trade/order:BTC-USDT' },
    ]) {
      for (let i = 0; i < 2; i++) expect((await limiter.checkRate(key, slow, 1, { maxWaitMs: 600_000 })).kind).not.toBe('error');
    }
    const r = await run(['inspect', '--redis', redis.url, '--prefix', 'exlimits-demo:', '--once']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('documented limit');
    expect(r.out).toMatch(/market\/books\s+40 \/ 2 s sliding/);
    expect(r.out).toMatch(/okx\s+public\s+market\/books/);
    expect(r.out).toMatch(/okx\s+[0-9a-f]{12}\s+trade\/order:BTC-USDT/);
    expect(r.out).not.toContain('demo-okx-key');
    // under the table, why counted now may read above the venue's count (sends counted again)
    expect(r.out).toContain(COUNTED_NOW_NOTE);
  });

  it("an empty panel says why: nothing stored under the prefix (and the demo's prefix), or buckets that count nothing now", { timeout: 30_000 }, async () => {
    const redis = await startTestRedis();
    cleanups.push(() => redis.stop());
    const none = await run(['inspect', '--redis', redis.url, '--once']);
    expect(none.code).toBe(0);
    expect(none.out).toContain('nothing is stored under "rl:"');
    expect(none.out).toContain('--prefix exlimits-demo:');
    // a key stored under the prefix that is no live bucket (as a bucket whose sends have left its window)
    const client = new Redis(redis.url);
    cleanups.push(async () => {
      client.disconnect();
    });
    await client.set('idle:{okx}:x', '1', 'PX', 60_000);
    const idle = await run(['inspect', '--redis', redis.url, '--prefix', 'idle:', '--once']);
    expect(idle.out).toContain('0 live limit(s)');
    expect(idle.out).toContain('the buckets stored there count nothing now');
  });

  it('refreshes until interrupted, then exits 0', { timeout: 30_000 }, async () => {
    const redis = await startTestRedis();
    cleanups.push(() => redis.stop());
    const stop = new AbortController();
    const out = new Sink();
    const p = run(['inspect', '--redis', redis.url, '--interval', '100'], stop.signal, out);
    await until(out, 'live limit(s)', 2);
    stop.abort();
    const r = await p;
    expect(r.code).toBe(0);
    expect(r.out.match(/live limit\(s\)/g)?.length ?? 0).toBeGreaterThan(1);
  });
});
