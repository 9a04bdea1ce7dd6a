// readLiveLimits and the live-limit mappings: the stored specs, and Binance spot and USDⓈ-M.
import { describe, expect, it } from 'vitest';
import {
  BINANCE_SPOT_LIMITS,
  BINANCE_USDM_LIMITS,
  BYBIT_RATE_BUCKETS,
  OKX_SUBACCOUNT_BUCKET,
  binanceWindowMs,
  getVenueSpec,
  liveLimitSources,
  readLiveLimits,
  resolveRequest,
  safeLimit,
  validateSpec,
  withLiveLimitEndpoints,
  type LiveLimitsFetch,
  type VenueSpec,
} from '../src/index.js';
import { BASE, venueFetch, signed, bucket, limitOf, ok, refused, keyed, spot, usdm, rl } from './live-limits-fetch.js';

describe('live-limit mappings match the stored specs (a renamed bucket or a changed window fails here)', () => {
  const cases: [string, VenueSpec, readonly { bucket: string; windowMs: number }[]][] = [
    ['binance-spot', spot, BINANCE_SPOT_LIMITS],
    ['binance-usdm', usdm, BINANCE_USDM_LIMITS],
    ['bybit', getVenueSpec('bybit'), BYBIT_RATE_BUCKETS.map((b) => ({ bucket: b, windowMs: 1000 }))],
    ['okx', getVenueSpec('okx'), [{ bucket: OKX_SUBACCOUNT_BUCKET, windowMs: 2000 }]],
  ];
  for (const [name, spec, rows] of cases) {
    it(`${name}: every mapped bucket exists as a window of the venue's length`, () => {
      for (const row of rows) {
        const b = bucket(spec, row.bucket);
        expect(b.algorithm, row.bucket).not.toBe('token-bucket');
        if (b.algorithm !== 'token-bucket') expect(b.windowMs, row.bucket).toBe(row.windowMs);
      }
    });
  }
  it('Binance intervals: SECOND x 10 is 10 s, MINUTE x 5 is 5 min, DAY x 1 is a day', () => {
    expect(binanceWindowMs('SECOND', 10)).toBe(10_000);
    expect(binanceWindowMs('MINUTE', 5)).toBe(300_000);
    expect(binanceWindowMs('DAY', 1)).toBe(86_400_000);
  });
  it('kucoin: the VIP levels 0-12 are tiers of the spot and management pools', () => {
    const kucoin = getVenueSpec('kucoin');
    for (let level = 0; level <= 12; level++) {
      for (const id of ['spot', 'management']) expect(Object.keys(bucket(kucoin, id).tiers ?? {}), `${id} vip${level}`).toContain(`vip${level}`);
    }
  });
  it('every source quotes its documentation with a URL and the date it was read', () => {
    for (const id of ['binance-spot', 'binance-usdm', 'bybit', 'okx', 'kucoin']) {
      const sources = liveLimitSources(id);
      expect(sources.length, id).toBeGreaterThan(0);
      for (const s of sources) {
        expect(s.documentation.length, `${id} ${s.id}`).toBeGreaterThan(0);
        for (const d of s.documentation) {
          expect(d.url).toMatch(/^https:\/\//);
          expect(d.retrieved).toBe('2026-12-01');
          expect(d.quote.trim().length).toBeGreaterThan(10);
        }
      }
    }
    expect(liveLimitSources('kraken')).toEqual([]);
  });
});

describe('withLiveLimitEndpoints', () => {
  it('adds Bybit GET /v5/apilimit/query (50 per second per UID) and KuCoin GET /api/v2/user-info (20 on the Management pool), priced and valid', () => {
    const bybit = withLiveLimitEndpoints(getVenueSpec('bybit'));
    expect(validateSpec(bybit).ok).toBe(true);
    const r = resolveRequest(bybit, { method: 'GET', path: '/v5/apilimit/query', query: { uids: '1' } }, { credential: 'k', uid: '1' });
    expect(r.ok && Object.fromEntries(r.charges.map((c) => [c.bucket, c.cost]))).toEqual({ 'apilimit/query': 1, ip: 1 });
    expect(limitOf(bybit, 'apilimit/query')).toBe(50);
    const kucoin = withLiveLimitEndpoints(getVenueSpec('kucoin'));
    expect(validateSpec(kucoin).ok).toBe(true);
    const k = resolveRequest(kucoin, { method: 'GET', path: '/api/v2/user-info' }, { credential: 'k' });
    expect(k.ok && k.charges.map((c) => [c.bucket, c.cost])).toEqual([['management', 20]]);
  });
  it('leaves a spec that lists every live-limit endpoint as it is (the same object)', () => {
    expect(withLiveLimitEndpoints(spot)).toBe(spot);
    expect(withLiveLimitEndpoints(getVenueSpec('okx'))).toBe(getVenueSpec('okx'));
  });
});

describe('readLiveLimits: Binance spot', () => {
  it('replaces the stored limits by exchangeInfo rateLimits, in both directions, and the margin still applies', async () => {
    const weight = limitOf(spot, 'request_weight');
    const raw = limitOf(spot, 'raw_requests');
    const { fetch, sent } = venueFetch({
      '/api/v3/exchangeInfo': {
        timezone: 'UTC',
        serverTime: 1,
        rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, weight / 2), rl('RAW_REQUESTS', 'MINUTE', 5, raw * 2)],
        exchangeFilters: [],
        symbols: [],
      },
    });
    const r = ok(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: { credential: null }, now: () => Date.UTC(2026, 11, 1, 12) }));
    expect(sent.map((s) => s.url)).toEqual([`${BASE}/api/v3/exchangeInfo`]);
    expect(r.sources).toEqual(['exchangeInfo']);
    expect(limitOf(r.spec, 'request_weight')).toBe(weight / 2);
    expect(limitOf(r.spec, 'raw_requests')).toBe(raw * 2);
    // Limits the answer does not state keep their stored numbers ("All limits are optional").
    expect(limitOf(r.spec, 'orders_10s')).toBe(limitOf(spot, 'orders_10s'));
    expect(r.changes.map((c) => [c.bucket, c.stored, c.live, c.field])).toEqual([
      ['request_weight', weight, weight / 2, 'rateLimits[0]'],
      ['raw_requests', raw, raw * 2, 'rateLimits[1]'],
    ]);
    expect(bucket(r.spec, 'request_weight').provenance).toEqual({
      source: 'live:exchangeInfo',
      confidence: 'observed',
      quote: '{"rateLimitType":"REQUEST_WEIGHT","interval":"MINUTE","intervalNum":1,"limit":3000}'.replace('3000', String(weight / 2)),
    });
    expect(r.spec.sources['live:exchangeInfo']).toMatchObject({ url: `${BASE}/api/v3/exchangeInfo`, retrieved: '2026-12-01' });
    expect(validateSpec(r.spec).ok).toBe(true);
    const depth = { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: '100' } };
    // the token-bucket derivation shows the margin still applied (a window limit is the venue's number itself)
    const live = resolveRequest(r.spec, depth, { credential: null }, { windowLimits: false });
    const stored = resolveRequest(spot, depth, { credential: null }, { windowLimits: false });
    const weightLimit = (x: typeof live) => (x.ok ? x.checks.find((c) => c.key.axis === 'request_weight')?.limit : undefined);
    expect(weightLimit(live)).toEqual(safeLimit(bucket(r.spec, 'request_weight'), { maxCost: 250 }));
    expect(weightLimit(live)).not.toEqual(weightLimit(stored));
    const windowed = resolveRequest(r.spec, depth, { credential: null });
    expect(weightLimit(windowed)).toEqual({ perWindow: limitOf(r.spec, 'request_weight'), windowMs: 60_000, jitterMs: 100 });
    // The input spec is not touched.
    expect(limitOf(spot, 'request_weight')).toBe(weight);
  });

  it("reads the account's rateLimit/order (signed) after exchangeInfo; its ORDERS numbers win", async () => {
    const { fetch, sent } = venueFetch({
      '/api/v3/exchangeInfo': { rateLimits: [rl('ORDERS', 'SECOND', 10, 100), rl('ORDERS', 'DAY', 1, 200_000)] },
      '/api/v3/rateLimit/order': [rl('ORDERS', 'SECOND', 10, 50, 3), rl('ORDERS', 'DAY', 1, 160_000, 7)],
    });
    const r = ok(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: keyed, ...signed('x-mbx-apikey') }));
    expect(r.sources).toEqual(['exchangeInfo', 'rateLimit/order']);
    expect(sent[1]).toEqual({ url: `${BASE}/api/v3/rateLimit/order?signature=sig`, headers: { 'x-mbx-apikey': 'key-1' } });
    expect(sent[0]?.headers).toEqual({});
    expect(limitOf(r.spec, 'orders_10s')).toBe(50);
    expect(limitOf(r.spec, 'orders_1d')).toBe(160_000);
    // The source records the URL without its query (no signature).
    expect(r.spec.sources['live:rateLimit/order']?.url).toBe(`${BASE}/api/v3/rateLimit/order`);
  });

  it('reads only the public source without an authenticate hook, and refuses a private one asked for explicitly', async () => {
    const { fetch, sent } = venueFetch({ '/api/v3/exchangeInfo': { rateLimits: [] } });
    expect(ok(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: keyed })).sources).toEqual(['exchangeInfo']);
    expect(sent).toHaveLength(1);
    expect(
      refused(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: { credential: null }, sources: ['rateLimit/order'], ...signed('x-mbx-apikey') }))
        .code,
    ).toBe('credential_required');
    expect(refused(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: keyed, sources: ['nope'] })).code).toBe('unsupported_venue');
  });

  const malformed: [string, unknown, string, string | undefined][] = [
    ['no rateLimits', { symbols: [] }, 'malformed', 'rateLimits'],
    ['rateLimits not an array', { rateLimits: {} }, 'malformed', 'rateLimits'],
    ['an entry that is not an object', { rateLimits: [6000] }, 'malformed', 'rateLimits[0]'],
    ['limit as a string', { rateLimits: [{ ...rl('REQUEST_WEIGHT', 'MINUTE', 1, 1), limit: '6000' }] }, 'malformed', 'rateLimits[0].limit'],
    ['limit 0', { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, 0)] }, 'malformed', 'rateLimits[0].limit'],
    ['negative limit', { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, -6000)] }, 'malformed', 'rateLimits[0].limit'],
    ['fractional limit', { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, 6000.5)] }, 'malformed', 'rateLimits[0].limit'],
    ['limit missing', { rateLimits: [{ rateLimitType: 'REQUEST_WEIGHT', interval: 'MINUTE', intervalNum: 1 }] }, 'malformed', 'rateLimits[0].limit'],
    ['unknown interval unit', { rateLimits: [rl('REQUEST_WEIGHT', 'WEEK', 1, 6000)] }, 'malformed', 'rateLimits[0].interval'],
    ['lower-case interval', { rateLimits: [rl('REQUEST_WEIGHT', 'minute', 1, 6000)] }, 'malformed', 'rateLimits[0].interval'],
    ['intervalNum 0', { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 0, 6000)] }, 'malformed', 'rateLimits[0].intervalNum'],
    ['unknown limiter type', { rateLimits: [rl('CONNECTIONS', 'MINUTE', 1, 300)] }, 'malformed', 'rateLimits[0].rateLimitType'],
    ['an unknown field', { rateLimits: [{ ...rl('REQUEST_WEIGHT', 'MINUTE', 1, 6000), scope: 'UID' }] }, 'malformed', 'rateLimits[0].scope'],
    ['a count in exchangeInfo', { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, 6000, 1)] }, 'malformed', 'rateLimits[0].count'],
    ['a window no bucket models', { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, 6000), rl('ORDERS', 'SECOND', 1, 10)] }, 'unmapped_limit', 'rateLimits[1]'],
    [
      'two numbers for one bucket',
      { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, 6000), rl('REQUEST_WEIGHT', 'SECOND', 60, 5000)] },
      'conflicting_limits',
      'rateLimits[1]',
    ],
    ['a body that is an array', [], 'malformed', '(body)'],
  ];
  for (const [what, body, code, field] of malformed) {
    it(`refuses exchangeInfo with ${what}: ${code} naming ${field}`, async () => {
      const { fetch } = venueFetch({ '/api/v3/exchangeInfo': body });
      const e = refused(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: { credential: null } }));
      expect([e.code, e.field]).toEqual([code, field]);
      expect(e.source).toBe('binance-spot GET /api/v3/exchangeInfo');
    });
  }

  it('refuses a rateLimit/order entry that is not ORDERS, or has no count', async () => {
    for (const [entries, field] of [
      [[rl('REQUEST_WEIGHT', 'MINUTE', 1, 6000, 0)], '[0].rateLimitType'],
      [[rl('ORDERS', 'SECOND', 10, 50)], '[0].count'],
      [[rl('ORDERS', 'SECOND', 10, 50, -1)], '[0].count'],
    ] as const) {
      const { fetch } = venueFetch({ '/api/v3/exchangeInfo': { rateLimits: [] }, '/api/v3/rateLimit/order': entries });
      const e = refused(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: keyed, ...signed('x-mbx-apikey') }));
      expect([e.code, e.field]).toEqual(['malformed', field]);
    }
  });

  it('refuses an HTTP error, a body that is not JSON, and a request that failed', async () => {
    const status = venueFetch({ '/api/v3/exchangeInfo': () => ({ status: 429, body: '{"code":-1003,"msg":"Too much request weight used"}' }) });
    expect(refused(await readLiveLimits(spot, { fetch: status.fetch, baseUrl: BASE, identity: { credential: null } })).code).toBe('http_error');
    const html = venueFetch({ '/api/v3/exchangeInfo': () => ({ status: 200, body: '<html>maintenance</html>' }) });
    expect(refused(await readLiveLimits(spot, { fetch: html.fetch, baseUrl: BASE, identity: { credential: null } }))).toMatchObject({
      code: 'malformed',
      field: '(body)',
    });
    const throwing: LiveLimitsFetch = async () => {
      throw Object.assign(new Error('not sent: it needs 4000 ms, beyond the budget'), { code: 'rate_limit_timeout' });
    };
    const e = refused(await readLiveLimits(spot, { fetch: throwing, baseUrl: BASE, identity: { credential: null } }));
    expect(e.code).toBe('request_failed');
    expect(e.message).toContain('rate_limit_timeout');
  });

  it('refuses a base URL that is not a URL (request_failed), sending nothing', async () => {
    const { fetch, sent } = venueFetch({});
    expect(refused(await readLiveLimits(spot, { fetch, baseUrl: 'api.binance.com', identity: { credential: null } })).code).toBe('request_failed');
    expect(sent).toHaveLength(0);
  });

  it('refuses a statement whose bucket the spec lacks or models with another window (spec_mismatch)', async () => {
    const { fetch } = venueFetch({ '/api/v3/exchangeInfo': { rateLimits: [rl('ORDERS', 'DAY', 1, 160_000)] } });
    const without: VenueSpec = { ...spot, buckets: spot.buckets.filter((b) => b.id !== 'orders_1d') };
    expect(refused(await readLiveLimits(without, { fetch, baseUrl: BASE, identity: { credential: null } }))).toMatchObject({
      code: 'spec_mismatch',
      field: 'rateLimits[0]',
    });
    const renamed: VenueSpec = {
      ...spot,
      buckets: spot.buckets.map((b) => (b.id === 'orders_1d' && b.algorithm !== 'token-bucket' ? { ...b, windowMs: 43_200_000 } : b)),
    };
    expect(refused(await readLiveLimits(renamed, { fetch, baseUrl: BASE, identity: { credential: null } }))).toMatchObject({
      code: 'spec_mismatch',
      field: 'rateLimits[0]',
    });
  });

  it('is all or nothing: a malformed rateLimit/order refuses exchangeInfo too', async () => {
    const { fetch } = venueFetch({
      '/api/v3/exchangeInfo': { rateLimits: [rl('REQUEST_WEIGHT', 'MINUTE', 1, 100)] },
      '/api/v3/rateLimit/order': { code: -2015 },
    });
    expect(refused(await readLiveLimits(spot, { fetch, baseUrl: BASE, identity: keyed, ...signed('x-mbx-apikey') }))).toMatchObject({
      code: 'malformed',
      source: 'binance-spot GET /api/v3/rateLimit/order',
    });
  });
});

describe('readLiveLimits: Binance USDⓈ-M', () => {
  it('maps the documented exchangeInfo example and the rateLimit/order example (no count) onto request_weight, orders_1m and orders_10s', async () => {
    const { fetch } = venueFetch({
      '/fapi/v1/exchangeInfo': {
        exchangeFilters: [],
        rateLimits: [
          { interval: 'MINUTE', intervalNum: 1, limit: 2400, rateLimitType: 'REQUEST_WEIGHT' },
          { interval: 'MINUTE', intervalNum: 1, limit: 1200, rateLimitType: 'ORDERS' },
        ],
        serverTime: 1565613908500,
        assets: [],
        symbols: [],
      },
      '/fapi/v1/rateLimit/order': [rl('ORDERS', 'SECOND', 10, 10_000), rl('ORDERS', 'MINUTE', 1, 20_000)],
    });
    const r = ok(await readLiveLimits(usdm, { fetch, baseUrl: BASE, identity: keyed, ...signed('x-mbx-apikey') }));
    expect([limitOf(r.spec, 'request_weight'), limitOf(r.spec, 'orders_10s'), limitOf(r.spec, 'orders_1m')]).toEqual([2400, 10_000, 20_000]);
    expect(validateSpec(r.spec).ok).toBe(true);
  });
  it('refuses a limit the USDⓈ-M spec does not model (RAW_REQUESTS)', async () => {
    const { fetch } = venueFetch({ '/fapi/v1/exchangeInfo': { rateLimits: [rl('RAW_REQUESTS', 'MINUTE', 5, 61_000)] } });
    expect(refused(await readLiveLimits(usdm, { fetch, baseUrl: BASE, identity: { credential: null } }))).toMatchObject({
      code: 'unmapped_limit',
      field: 'rateLimits[0]',
    });
  });
});
