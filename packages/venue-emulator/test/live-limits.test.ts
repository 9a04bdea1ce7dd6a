import { afterEach, describe, expect, it } from 'vitest';
import {
  BYBIT_RATE_BUCKETS,
  bucketForTier,
  getVenueSpec,
  readLiveLimits,
  type BucketSpec,
  type LiveLimitsFetch,
  type LiveLimitsRequest,
  type VenueSpec,
} from '@core/exchange-specs';
import { startVenueEmulator, styleFor, type VenueEmulator } from '../src/index.js';
import { ManualEpochClock } from './manual-epoch-clock.js';

let venue: VenueEmulator | undefined;

afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

/** The spec with one bucket's limit (and every tier of it) set to `limit`. */
function withLimit(spec: VenueSpec, id: string, limit: number): VenueSpec {
  return {
    ...spec,
    buckets: spec.buckets.map((b): BucketSpec => {
      if (b.id !== id || b.algorithm === 'token-bucket') return b;
      return { ...b, limit, ...(b.tiers === undefined ? {} : { tiers: Object.fromEntries(Object.keys(b.tiers).map((k) => [k, { limit }])) }) };
    }),
  };
}

function limitOf(spec: VenueSpec, id: string, tier?: string): number {
  const b = spec.buckets.find((x) => x.id === id);
  if (b === undefined) throw new Error(`no bucket ${id}`);
  const t = bucketForTier(b, tier);
  if (t.algorithm === 'token-bucket') throw new Error(`${id} is a token bucket`);
  return t.limit;
}

const plainFetch: LiveLimitsFetch = async (url, init) => fetch(url, init);
const withKey =
  (header: string, key: string) =>
  (r: LiveLimitsRequest): LiveLimitsRequest => ({ ...r, headers: { ...r.headers, [header]: key } });

describe("the emulator states its own spec's numbers where the venue publishes its limits", () => {
  it('Binance spot: exchangeInfo and rateLimit/order state every weight, raw-request and order limit of the spec, with the current order count', async () => {
    const stored = getVenueSpec('binance-spot');
    const spec = withLimit(withLimit(stored, 'orders_10s', 7), 'request_weight', 1234);
    const clock = new ManualEpochClock(1_767_225_600_000 + 1_000);
    venue = await startVenueEmulator({ spec, clock });
    const header = styleFor(spec).apiKeyHeader;
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${venue.url}/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=1&price=1`, {
        method: 'POST',
        headers: { [header]: 'key-1' },
      });
      expect(res.status).toBe(200);
    }
    const order = (await (await fetch(`${venue.url}/api/v3/rateLimit/order`, { headers: { [header]: 'key-1' } })).json()) as unknown;
    expect(order).toEqual([
      { rateLimitType: 'ORDERS', interval: 'SECOND', intervalNum: 10, limit: 7, count: 3 },
      { rateLimitType: 'ORDERS', interval: 'DAY', intervalNum: 1, limit: limitOf(stored, 'orders_1d'), count: 3 },
    ]);
    const r = await readLiveLimits(stored, {
      fetch: plainFetch,
      baseUrl: venue.url,
      identity: { credential: 'key-1' },
      authenticate: withKey(header, 'key-1'),
    });
    if (!r.ok) throw r.error;
    for (const id of ['request_weight', 'raw_requests', 'orders_10s', 'orders_1d']) expect(limitOf(r.spec, id), id).toBe(limitOf(spec, id));
    expect(venue.stats().violations).toBe(0);
  });

  it('Binance USDⓈ-M: exchangeInfo and rateLimit/order', async () => {
    const spec = withLimit(getVenueSpec('binance-usdm'), 'orders_1m', 600);
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(1_767_225_600_000) });
    const r = await readLiveLimits(getVenueSpec('binance-usdm'), {
      fetch: plainFetch,
      baseUrl: venue.url,
      identity: { credential: 'k' },
      authenticate: withKey('x-mbx-apikey', 'k'),
    });
    if (!r.ok) throw r.error;
    for (const id of ['request_weight', 'orders_10s', 'orders_1m']) expect(limitOf(r.spec, id), id).toBe(limitOf(spec, id));
  });

  it("Bybit: GET /v5/apilimit/query states the account's rate (the smallest of the buckets it governs) for SPOT, DERIVATIVES and OPTIONS (the emulator prices it: 50 per second per UID)", async () => {
    const spec = getVenueSpec('bybit');
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(1_767_225_600_000), accounts: { 'key-1': { uid: '290118', tier: 'vip2' } } });
    const res = await fetch(`${venue.url}/v5/apilimit/query?uids=290118`, { headers: { 'x-bapi-api-key': 'key-1' } });
    // The smallest limit of the buckets the rate governs, for the account's tier: true for each of them.
    const rate = Math.min(...BYBIT_RATE_BUCKETS.map((id) => limitOf(spec, id, 'vip2')));
    expect(await res.json()).toMatchObject({
      retCode: 0,
      result: { list: ['SPOT', 'DERIVATIVES', 'OPTIONS'].map((bizType) => ({ uids: '290118', bizType, rate })) },
    });
    expect(venue.stats().buckets.map((b) => b.bucketId)).toContain('apilimit/query');
    const r = await readLiveLimits(spec, {
      fetch: plainFetch,
      baseUrl: venue.url,
      identity: { credential: 'key-1', uid: '290118' },
      authenticate: withKey('x-bapi-api-key', 'key-1'),
    });
    if (!r.ok) throw r.error;
    expect(limitOf(r.spec, 'order/create')).toBe(rate);
  });

  it("OKX: GET /api/v5/trade/account-rate-limit states the sub-account's order limit of the account's tier", async () => {
    const spec = getVenueSpec('okx');
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(1_767_225_600_000), accounts: { 'key-1': { tier: 'tier-3' } } });
    const r = await readLiveLimits(spec, {
      fetch: plainFetch,
      baseUrl: venue.url,
      identity: { credential: 'key-1' },
      authenticate: withKey('ok-access-key', 'key-1'),
    });
    if (!r.ok) throw r.error;
    expect(limitOf(r.spec, 'subaccount-orders')).toBe(limitOf(spec, 'subaccount-orders', 'tier-3'));
    expect(limitOf(r.spec, 'subaccount-orders')).not.toBe(limitOf(spec, 'subaccount-orders'));
  });

  it("KuCoin: GET /api/v2/user-info states the account's VIP level (weight 20 on the Management pool)", async () => {
    const spec = getVenueSpec('kucoin');
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(1_767_225_600_000), accounts: { 'key-1': { tier: 'vip3' } } });
    const r = await readLiveLimits(spec, {
      fetch: plainFetch,
      baseUrl: venue.url,
      identity: { credential: 'key-1' },
      authenticate: withKey('kc-api-key', 'key-1'),
    });
    if (!r.ok) throw r.error;
    expect(r.tier).toBe('vip3');
    expect(limitOf(r.spec, 'spot')).toBe(limitOf(spec, 'spot', 'vip3'));
    expect(venue.stats().buckets.find((b) => b.bucketId === 'management')?.admittedCost).toBe(20);
  });
});
