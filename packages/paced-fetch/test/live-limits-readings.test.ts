import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { getVenueSpec, resolveRequest, type LiveLimitsResult } from '@core/exchange-specs';
import { ManualClock } from '@core/rate-limit-conformance';
import { createPacedFetch, withWindowPacing, DEFAULT_WINDOW_BURST, type AttemptEvent } from '../src/index.js';
import { limitOf, START } from './spec-limits.js';
import { testVenue } from './test-venue.js';

/** Live limits read from answers the test gives (no emulator): readings that fail, readings shared, readings aborted. */
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/** A venue that answers by path, counting what it was asked. */
function routes(table: Record<string, (url: URL) => Response>) {
  const calls: string[] = [];
  const fetch = async (input: string | URL | Request): Promise<Response> => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    calls.push(url.pathname);
    const answer = table[url.pathname];
    return answer === undefined ? new Response('{"code":-1,"msg":"not found"}', { status: 404 }) : answer(url);
  };
  return { fetch, calls };
}
const json =
  (body: unknown, status = 200) =>
  (): Response =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('live limits: a reading that fails leaves the stored spec in force, and is reported', () => {
  const spot = getVenueSpec('binance-spot');
  const depth = 'https://api.binance.invalid/api/v3/depth?symbol=BTCUSDT&limit=100';
  const storedChecks = (() => {
    // paced-fetch resolves with deferred charges (Binance's order weight), which lowers the weight's limit
    // (and, through a limiter with classes, each bucket's own reserve)
    const r = resolveRequest(
      spot,
      { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '100' } },
      { credential: null },
      { deferred: true, classes: true },
    );
    if (!r.ok) throw new Error(r.error.message);
    // what paced-fetch admits: the checks and the window limits' pacing buckets
    return withWindowPacing(spot, r.checks, r.charges, DEFAULT_WINDOW_BURST, r.reserve);
  })();

  function client(fetch: (input: string | URL | Request) => Promise<Response>) {
    const clock = new ManualClock(START);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const results: LiveLimitsResult[] = [];
    const attempts: AttemptEvent[] = [];
    const paced = createPacedFetch({
      venue: spot,
      identity: { credential: null },
      limiter,
      clock,
      fetch,
      liveLimits: true,
      onLiveLimits: (r) => results.push(r),
      onAttempt: (e) => attempts.push(e),
    });
    return { paced, results, attempts };
  }

  const malformed: [string, unknown, string, string][] = [
    [
      'a limit as a string',
      { rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: '60000' }] },
      'malformed',
      'rateLimits[0].limit',
    ],
    [
      'an unknown interval',
      { rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'FORTNIGHT', intervalNum: 1, limit: 60000 }] },
      'malformed',
      'rateLimits[0].interval',
    ],
    [
      'a limit no bucket models',
      { rateLimits: [{ rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 1, limit: 10 }] },
      'unmapped_limit',
      'rateLimits[0]',
    ],
  ];
  for (const [what, body, code, field] of malformed) {
    it(`exchangeInfo with ${what}: ${code} naming ${field}; the next requests are priced by the stored spec`, async () => {
      const venue_ = routes({ '/api/v3/exchangeInfo': json(body), '/api/v3/depth': json({ bids: [], asks: [] }) });
      const { paced, results, attempts } = client(venue_.fetch);
      expect((await paced(depth)).status).toBe(200);
      expect((await paced(depth)).status).toBe(200);
      expect(results).toHaveLength(1);
      expect(results[0]).toMatchObject({ ok: false, error: { code, field } });
      expect(venue_.calls).toEqual(['/api/v3/exchangeInfo', '/api/v3/depth', '/api/v3/depth']);
      expect(attempts[1]?.checks).toEqual(storedChecks);
    });
  }

  it('an HTTP error: http_error, the request still goes out on the stored spec', async () => {
    const venue_ = routes({ '/api/v3/exchangeInfo': json({ code: -1001, msg: 'Internal error' }, 500), '/api/v3/depth': json({}) });
    const { paced, results, attempts } = client(venue_.fetch);
    expect((await paced(depth)).status).toBe(200);
    expect(results[0]).toMatchObject({ ok: false, error: { code: 'http_error' } });
    expect(attempts.at(-1)?.checks).toEqual(storedChecks);
  });

  it('concurrent first requests share one reading, and all wait for it', async () => {
    const weight = limitOf(spot, 'request_weight');
    const venue_ = routes({
      '/api/v3/exchangeInfo': json({ rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1, limit: weight / 4 }] }),
      '/api/v3/depth': json({}),
    });
    const { paced, results, attempts } = client(venue_.fetch);
    await Promise.all([paced(depth), paced(depth), paced(depth)]);
    expect(venue_.calls).toEqual(['/api/v3/exchangeInfo', '/api/v3/depth', '/api/v3/depth', '/api/v3/depth']);
    expect(results).toHaveLength(1);
    expect(results[0]?.ok).toBe(true);
    const liveSpec = results[0]?.ok === true ? results[0].spec : spot;
    const r = resolveRequest(
      liveSpec,
      { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '100' } },
      { credential: null },
      { deferred: true, classes: true },
    );
    for (const a of attempts.slice(1))
      expect(r.ok && a.checks).toEqual(r.ok && withWindowPacing(liveSpec, r.checks, r.charges, DEFAULT_WINDOW_BURST, r.reserve));
    expect(attempts[1]?.checks).not.toEqual(storedChecks);
  });

  it('a first request aborted while the limits are read rejects with the abort; the reading goes on for the others', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const venue_ = routes({ '/api/v3/depth': json({}) });
    const slow = async (input: string | URL | Request): Promise<Response> => {
      if (String(input).includes('exchangeInfo')) {
        await gate;
        return json({ rateLimits: [] })();
      }
      return venue_.fetch(input);
    };
    const { paced, results } = client(slow);
    const controller = new AbortController();
    const first = paced(depth, { signal: controller.signal });
    const second = paced(depth);
    controller.abort();
    await expect(first).rejects.toMatchObject({ name: 'AbortError' });
    release();
    expect((await second).status).toBe(200);
    expect(results[0]?.ok).toBe(true);
    expect(venue_.calls).toEqual(['/api/v3/depth']);
  });

  it('a venue that publishes no limits: unsupported_venue reported, nothing read, requests go out', async () => {
    const clock = new ManualClock(START);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const results: LiveLimitsResult[] = [];
    const venue_ = routes({ '/ping': json({}) });
    const paced = createPacedFetch({
      venue: testVenue,
      identity: { credential: null },
      limiter,
      clock,
      fetch: venue_.fetch,
      liveLimits: true,
      onLiveLimits: (r) => results.push(r),
    });
    expect((await paced('https://venue.invalid/ping')).status).toBe(200);
    expect(results[0]).toMatchObject({ ok: false, error: { code: 'unsupported_venue' } });
    expect(venue_.calls).toEqual(['/ping']);
  });

  it('a private source without authenticate is not read (only exchangeInfo), and a callback that throws changes nothing', async () => {
    const venue_ = routes({ '/api/v3/exchangeInfo': json({ rateLimits: [] }), '/api/v3/depth': json({}) });
    const clock = new ManualClock(START);
    const limiter = createDefaultRateLimiter({ clock });
    limiters.push(limiter);
    const paced = createPacedFetch({
      venue: spot,
      identity: { credential: 'key-1' },
      limiter,
      clock,
      fetch: venue_.fetch,
      liveLimits: true,
      onLiveLimits: () => {
        throw new Error('a broken callback');
      },
    });
    expect((await paced(depth)).status).toBe(200);
    expect((await paced(depth)).status).toBe(200);
    expect(venue_.calls).toEqual(['/api/v3/exchangeInfo', '/api/v3/depth', '/api/v3/depth']);
  });
});
