// Endpoints ccxt calls (fetchCurrencies, fetchMarkets, account checks) that the hand-authored specs priced
// nowhere before 2026-12-07: each is now charged what its venue documents, on the bucket of its own limit.
import { describe, expect, it } from 'vitest';
import { getVenueSpec } from '../../src/index.js';
import { costs, keyId } from '../helpers.js';

const get = (path: string) => ({ method: 'GET', path }) as const;

describe('endpoints ccxt calls are priced as their venue documents', () => {
  it('OKX GET /api/v5/asset/currencies: 6 requests per second per User ID', () => {
    expect(costs('okx', get('/api/v5/asset/currencies'), keyId)).toEqual({ 'asset/currencies': 1 });
    const b = getVenueSpec('okx').buckets.find((x) => x.id === 'asset/currencies');
    expect(b).toMatchObject({ scope: 'uid', limit: 6, windowMs: 1000 });
  });

  it('Bybit coin/query-info 5/s, user/query-api 10/s, account/info 50/s, per UID, besides the IP limit', () => {
    const bybit = getVenueSpec('bybit');
    for (const [path, bucket, limit] of [
      ['/v5/asset/coin/query-info', 'asset/coin/query-info', 5],
      ['/v5/user/query-api', 'user/query-api', 10],
      ['/v5/account/info', 'account/info', 50],
    ] as const) {
      expect(costs('bybit', get(path), keyId), path).toEqual({ ip: 1, [bucket]: 1 });
      expect(
        bybit.buckets.find((x) => x.id === bucket),
        path,
      ).toMatchObject({ scope: 'uid', limit, windowMs: 1000 });
    }
  });

  it("KuCoin currencies and margin symbols (Public pool, 3), HF accounts opened (Spot pool, 30), from KuCoin's SDK", () => {
    expect(costs('kucoin', get('/api/v3/currencies'))).toEqual({ public: 3 });
    expect(costs('kucoin', get('/api/v3/margin/symbols'))).toEqual({ public: 3 });
    expect(costs('kucoin', get('/api/v1/isolated/symbols'))).toEqual({ public: 3 });
    expect(costs('kucoin', get('/api/v1/hf/accounts/opened'), keyId)).toEqual({ spot: 30 });
  });
});
