import { afterEach, describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueRequest } from '@core/exchange-specs';
import { startVenueEmulator, styleFor, type VenueEmulator } from '../src/index.js';
import { ManualEpochClock } from './manual-epoch-clock.js';

const spec = getVenueSpec('binance-sapi');
const MINUTE = 60_000;
const account = { credential: 'key-1', uid: 'account-1' };
let venue: VenueEmulator | undefined;

afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

async function call(method: string, path: string): Promise<{ status: number; headers: Record<string, string>; body: unknown }> {
  const res = await fetch(`${venue!.url}${path}`, { method, headers: { 'x-mbx-apikey': 'key-1' } });
  const text = await res.text();
  return { status: res.status, headers: Object.fromEntries(res.headers), body: JSON.parse(text) as unknown };
}

describe('Binance /sapi emulator', () => {
  it('is the style of binance-sapi, not of Binance spot', () => {
    expect(styleFor(spec).name).toBe('binance-sapi');
    expect(styleFor(getVenueSpec('binance-spot')).name).toBe('binance');
    expect(styleFor(getVenueSpec('binance-coinm')).name).toBe('binance');
  });

  it("reports each endpoint's own usage in X-SAPI-USED-IP-WEIGHT-1M / X-SAPI-USED-UID-WEIGHT-1M", async () => {
    const clock = new ManualEpochClock(100 * MINUTE);
    venue = await startVenueEmulator({ spec, clock, accounts: { 'key-1': { uid: 'account-1' } } });
    expect((await call('GET', '/sapi/v1/capital/config/getall')).headers['x-sapi-used-ip-weight-1m']).toBe('10');
    expect((await call('GET', '/sapi/v1/capital/config/getall')).headers['x-sapi-used-ip-weight-1m']).toBe('20');
    const other = await call('GET', '/sapi/v1/capital/deposit/hisrec');
    expect(other.headers['x-sapi-used-ip-weight-1m']).toBe('1');
    const withdraw = await call('POST', '/sapi/v1/capital/withdraw/apply?coin=USDT&address=x&amount=1');
    expect(withdraw.headers['x-sapi-used-uid-weight-1m']).toBe('900');
    expect(withdraw.headers['x-sapi-used-ip-weight-1m']).toBeUndefined();
  });

  it("over an endpoint's limit: 429 with Retry-After, other endpoints still served, and never a 418 however often the client sends", async () => {
    const clock = new ManualEpochClock(200 * MINUTE);
    venue = await startVenueEmulator({ spec, clock, accounts: { 'key-1': { uid: 'account-1' } } });
    for (let i = 0; i < 5; i++) expect((await call('GET', '/sapi/v1/accountSnapshot?type=SPOT')).status).toBe(200); // 5 x 2400 = 12,000
    const refused = await call('GET', '/sapi/v1/accountSnapshot?type=SPOT');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: -1003 });
    expect(refused.headers['retry-after']).toBe('60');
    const request: VenueRequest = { method: 'GET', path: '/sapi/v1/accountSnapshot', query: { type: 'SPOT' } };
    const fb = interpretResponse(spec, request, refused, account);
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['ip_weight:GET /sapi/v1/accountSnapshot']);
    expect((await call('GET', '/sapi/v1/capital/deposit/hisrec')).status).toBe(200);
    clock.advance(1_000);
    for (let i = 0; i < 3; i++) expect((await call('GET', '/sapi/v1/accountSnapshot?type=SPOT')).status).toBe(429);
    clock.advance(MINUTE);
    expect((await call('GET', '/sapi/v1/accountSnapshot?type=SPOT')).status).toBe(200);
    const s = venue.stats();
    expect(s.bans).toBe(0);
    expect(s.refusedWhileBanned).toBe(0);
    expect(s.violations).toBe(4);
  });
});
