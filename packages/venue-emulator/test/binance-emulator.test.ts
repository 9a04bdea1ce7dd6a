import { afterEach, describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueRequest } from '@core/exchange-specs';
import { startVenueEmulator, type VenueEmulator } from '../src/index.js';
import { ManualEpochClock } from './manual-epoch-clock.js';

const spec = getVenueSpec('binance-spot');
const MINUTE = 60_000;
/** The unfilled orders an account may place per 10 s (50, Binance's documented value). */
const ordersBucket = spec.buckets.find((b) => b.id === 'orders_10s');
const ORDERS_10S = ordersBucket !== undefined && ordersBucket.algorithm !== 'token-bucket' ? ordersBucket.limit : Number.NaN;
let venue: VenueEmulator | undefined;

afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

async function get(
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
  const res = await fetch(`${venue!.url}${path}`, { method, headers });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), body: JSON.parse(text) as unknown };
}

describe('Binance spot emulator', () => {
  it('charges weight in clock-aligned minutes and reports it in X-MBX-USED-WEIGHT-1M', async () => {
    const clock = new ManualEpochClock(100 * MINUTE + 1_000);
    venue = await startVenueEmulator({ spec, clock });
    const a = await get('/api/v3/depth?symbol=BTCUSDT&limit=500');
    expect(a.status).toBe(200);
    expect(a.headers['x-mbx-used-weight-1m']).toBe('25');
    const b = await get('/api/v3/exchangeInfo');
    expect(b.headers['x-mbx-used-weight-1m']).toBe('45');
    clock.nowMs = 101 * MINUTE; // the next minute starts at :00
    const c = await get('/api/v3/ping');
    expect(c.headers['x-mbx-used-weight-1m']).toBe('1');
    const s = venue.stats();
    expect(s.requests).toBe(3);
    expect(s.admitted).toBe(3);
    expect(s.violations).toBe(0);
    const weight = s.buckets.find((x) => x.bucketId === 'request_weight');
    expect(weight?.admittedCost).toBe(46);
    expect(weight?.windows.map((w) => w.cost)).toEqual([45, 1]);
    expect(weight?.credentialHash).toBeNull();
  });

  it('answers 429 -1003 with Retry-After to the minute end over 6000 weight, then a 418 ban for ignoring it', async () => {
    const clock = new ManualEpochClock(200 * MINUTE + 30_000);
    venue = await startVenueEmulator({ spec, clock });
    for (let i = 0; i < 24; i++) expect((await get('/api/v3/depth?symbol=BTCUSDT&limit=5000')).status).toBe(200); // 24 x 250 = 6000
    const refused = await get('/api/v3/ping');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: -1003 });
    expect(refused.headers['retry-after']).toBe('30');
    expect(refused.headers['x-mbx-used-weight-1m']).toBe('6000');
    const request: VenueRequest = { method: 'GET', path: '/api/v3/ping' };
    const fb = interpretResponse(spec, request, refused, { credential: null });
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.retryAfterMs).toBe(30_000);

    clock.advance(1_000); // still inside the Retry-After
    const banned = await get('/api/v3/ping');
    expect(banned.status).toBe(418);
    expect(banned.headers['retry-after']).toBe('120');
    expect(interpretResponse(spec, request, banned, { credential: null }).verdict).toBe('banned');
    clock.advance(60_000); // next minute: weight is free again, but the ban holds
    expect((await get('/api/v3/ping')).status).toBe(418);
    clock.advance(60_000);
    expect((await get('/api/v3/ping')).status).toBe(200);
    const s = venue.stats();
    expect(s.violations).toBe(2);
    expect(s.bans).toBe(1);
    expect(s.refusedWhileBanned).toBe(1);
    expect(s.admitted).toBe(25);
  });

  it('counts orders per account in 10 s windows, not their weight on success, and refuses the one past the limit with -1015', async () => {
    expect(ORDERS_10S).toBe(50);
    const clock = new ManualEpochClock(300 * MINUTE);
    venue = await startVenueEmulator({ spec, clock });
    const order = '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1';
    for (let i = 0; i < ORDERS_10S; i++) expect((await get(order, { 'x-mbx-apikey': 'key-a' }, 'POST')).status).toBe(200);
    const other = await get(order, { 'x-mbx-apikey': 'key-b' }, 'POST');
    expect(other.status).toBe(200);
    expect(other.headers['x-mbx-order-count-10s']).toBe('1');
    const refused = await get(order, { 'x-mbx-apikey': 'key-a' }, 'POST');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: -1015 });
    expect(refused.headers['retry-after']).toBe('10');
    expect(refused.headers['x-mbx-order-count-10s']).toBe(String(ORDERS_10S));
    const s = venue.stats();
    const weight = s.buckets.find((x) => x.bucketId === 'request_weight');
    expect(weight?.admittedCost).toBe(0);
    const orders = s.buckets.filter((x) => x.bucketId === 'orders_10s');
    expect(orders.map((o) => o.admittedCost).sort((a, b) => a - b)).toEqual([1, ORDERS_10S]);
    expect(orders.every((o) => o.credentialHash !== null && !o.credentialHash.includes('key'))).toBe(true);
    expect(orders.find((o) => o.admittedCost === ORDERS_10S)?.refusals).toBe(1);
  });

  it('shares uid buckets between the keys of one account', async () => {
    const clock = new ManualEpochClock(400 * MINUTE);
    venue = await startVenueEmulator({ spec, clock, accounts: { 'key-a': { uid: 'acct' }, 'key-b': { uid: 'acct' } } });
    const order = '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1';
    for (let i = 0; i < ORDERS_10S / 2; i++) expect((await get(order, { 'x-mbx-apikey': 'key-a' }, 'POST')).status).toBe(200);
    for (let i = 0; i < ORDERS_10S / 2; i++) expect((await get(order, { 'x-mbx-apikey': 'key-b' }, 'POST')).status).toBe(200);
    expect((await get(order, { 'x-mbx-apikey': 'key-b' }, 'POST')).status).toBe(429);
  });

  it('answers an unknown endpoint with 404 and counts it as a bad request, not a violation', async () => {
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(500 * MINUTE) });
    const r = await get('/api/v3/nope');
    expect(r.status).toBe(404);
    expect(String((r.body as { msg: string }).msg)).toContain('no endpoint matches GET /api/v3/nope');
    expect(venue.stats()).toMatchObject({ badRequests: 1, violations: 0, admitted: 0 });
  });

  it('reports utilization over complete windows only', async () => {
    const clock = new ManualEpochClock(600 * MINUTE);
    venue = await startVenueEmulator({ spec, clock });
    for (let i = 0; i < 12; i++) await get('/api/v3/depth?limit=5000'); // 3000 of 6000 in minute 600
    clock.advance(MINUTE);
    for (let i = 0; i < 6; i++) await get('/api/v3/depth?limit=5000'); // 1500 in minute 601
    expect(venue.stats().buckets.find((b) => b.bucketId === 'request_weight')?.utilization).toBeCloseTo(0.5, 9);
    clock.advance(MINUTE); // minute 601 complete; minute 602 empty and incomplete
    expect(venue.stats().buckets.find((b) => b.bucketId === 'request_weight')?.utilization).toBeCloseTo((3000 + 1500) / 12000, 9);
    clock.advance(MINUTE); // minute 602 complete and unused
    expect(venue.stats().buckets.find((b) => b.bucketId === 'request_weight')?.utilization).toBeCloseTo(4500 / 18000, 9);
  });
});

describe('Binance spot emulator: orders failed on purpose (failShare)', () => {
  const order = '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1';

  it('a failed order answers 400 -2010 and is charged its weight, a cancel -2011; a successful one weighs 0', async () => {
    const clock = new ManualEpochClock(300 * MINUTE + 1_000);
    venue = await startVenueEmulator({ spec, clock, failShare: 1 });
    const failed = await get(order, { 'x-mbx-apikey': 'key-a' }, 'POST');
    expect(failed.status).toBe(400);
    expect(failed.body).toEqual({ code: -2010, msg: 'Account has insufficient balance for requested action.' });
    expect(failed.headers['x-mbx-used-weight-1m']).toBe('1');
    const cancel = await get('/api/v3/order?symbol=BTCUSDT&orderId=1', { 'x-mbx-apikey': 'key-a' }, 'DELETE');
    expect(cancel.body).toEqual({ code: -2011, msg: 'Unknown order sent.' });
    expect(cancel.headers['x-mbx-used-weight-1m']).toBe('2');
    // what a client reads from it: the weight applied
    const fb = interpretResponse(
      spec,
      { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } },
      { status: failed.status, headers: failed.headers, body: failed.body },
      { credential: 'key-a' },
      { deferred: true },
    );
    expect(fb.deferred?.[0]?.cost).toBe(1);
    // depth requests never fail: their charges do not depend on the outcome
    expect((await get('/api/v3/depth?symbol=BTCUSDT&limit=100')).status).toBe(200);
    expect(venue.stats()).toMatchObject({ failed: 2, admitted: 3, violations: 0 });

    await venue.close();
    venue = await startVenueEmulator({ spec, clock });
    const ok = await get(order, { 'x-mbx-apikey': 'key-a' }, 'POST');
    expect(ok.status).toBe(200);
    expect(ok.headers['x-mbx-used-weight-1m']).toBe('0');
    expect(venue.stats().failed).toBe(0);
  });

  it('fails about the configured share, the same ones for the same seed', async () => {
    const clock = new ManualEpochClock(400 * MINUTE + 1_000);
    const run = async (): Promise<number[]> => {
      venue = await startVenueEmulator({ spec, clock, failShare: 0.25, failSeed: 7 });
      const statuses: number[] = [];
      // 40 accounts, one order each: no order count is reached
      for (let i = 0; i < 40; i++) statuses.push((await get(order, { 'x-mbx-apikey': `key-${i}` }, 'POST')).status);
      const s = venue.stats();
      expect(s.failed).toBe(statuses.filter((x) => x === 400).length);
      expect(s.buckets.find((b) => b.bucketId === 'request_weight')?.admittedCost).toBe(s.failed);
      await venue.close();
      venue = undefined;
      return statuses;
    };
    const first = await run();
    const failed = first.filter((x) => x === 400).length;
    expect(failed).toBeGreaterThanOrEqual(4);
    expect(failed).toBeLessThanOrEqual(16);
    expect(await run()).toEqual(first);
  });

  it('refuses a share outside [0, 1]', async () => {
    await expect(startVenueEmulator({ spec, failShare: 1.5 })).rejects.toThrow(RangeError);
  });
});
