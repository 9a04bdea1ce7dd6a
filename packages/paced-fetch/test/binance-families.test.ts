import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { createPacedFetch } from '../src/index.js';
import { FakeFetch, json } from './fake-fetch.js';

const limiters: RateLimiter[] = [];
afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

function paced(venue: string, fake: FakeFetch) {
  const limiter = createDefaultRateLimiter();
  limiters.push(limiter);
  return createPacedFetch({ venue, identity: { credential: 'key-1', uid: 'account-1' }, limiter, fetch: fake.fetch });
}

describe('Binance /sapi through a paced fetch', () => {
  it("a /sapi request through the 'binance' (spot) fetch is refused unsent, naming binance-sapi", async () => {
    const fake = new FakeFetch(json(200, {}));
    const spot = paced('binance', fake);
    const rejected = spot('https://api.binance.com/sapi/v1/capital/config/getall');
    await expect(rejected).rejects.toMatchObject({ code: 'unknown_endpoint' });
    await expect(rejected).rejects.toThrow(/binance-sapi/);
    expect(fake.calls).toHaveLength(0);
  });

  it("the same request through a 'binance-sapi' fetch is sent, priced on the endpoint's own IP bucket", async () => {
    const fake = new FakeFetch(json(200, [], { 'x-sapi-used-ip-weight-1m': '10' }));
    const sapi = paced('binance-sapi', fake);
    const res = await sapi('https://api.binance.com/sapi/v1/capital/config/getall');
    expect(res.status).toBe(200);
    expect(fake.calls).toHaveLength(1);
  });
});
