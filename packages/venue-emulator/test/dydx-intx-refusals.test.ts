import { afterEach, describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueRequest, type VenueSpec } from '@core/exchange-specs';
import { startVenueEmulator, styleFor, type VenueEmulator } from '../src/index.js';
import { ManualEpochClock } from './manual-epoch-clock.js';

let venue: VenueEmulator | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

interface Answer {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

async function send(r: VenueRequest, headers: Record<string, string> = {}): Promise<Answer> {
  const qs = new URLSearchParams(r.query ?? {}).toString();
  const res = await fetch(`${venue!.url}${r.path}${qs === '' ? '' : `?${qs}`}`, {
    method: r.method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(r.body === undefined ? {} : { body: JSON.stringify(r.body) }),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // a bare 429 page stays text
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body };
}

async function sendTimes(n: number, r: VenueRequest, headers: Record<string, string> = {}): Promise<Answer[]> {
  const out: Answer[] = [];
  for (let i = 0; i < n; i++) out.push(await send(r, headers));
  return out;
}

const verdictOf = (spec: VenueSpec, r: VenueRequest, a: Answer, credential: string | null) => interpretResponse(spec, r, a, { credential });

describe('dYdX v4 as the emulator answers it', () => {
  const stateful: VenueRequest = {
    method: 'POST',
    path: '/dydxprotocol.clob.MsgPlaceOrder',
    body: {
      order: { orderId: { subaccountId: { owner: 'dydx1a', number: 0 }, clientId: 1, orderFlags: 64, clobPairId: 0 }, side: 1, quantums: 1, subticks: 1 },
    },
  };

  it('has its own style, keyed by the signer address', () => {
    const style = styleFor(getVenueSpec('dydx-v4'));
    expect(style.name).toBe('dydx');
    expect(style.apiKeyHeader).toBe('x-dydx-address');
  });

  it('stateful orders: 2 per block, then code 5001 (codespace clob) in an HTTP 200 broadcast result', async () => {
    const spec = getVenueSpec('dydx-v4');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const signer = { 'x-dydx-address': 'dydx1a' };
    const ok = await sendTimes(2, stateful, signer);
    expect(ok.map((a) => [a.status, (a.body as { code: number }).code])).toEqual([
      [200, 0],
      [200, 0],
    ]);
    const refused = await send(stateful, signer);
    expect(refused.status).toBe(200);
    expect(refused.body).toMatchObject({ code: 5001, codespace: 'clob' });
    expect((refused.body as { log: string }).log).toContain('{NumBlocks:1 Limit:2} for MaxStatefulOrdersPerNBlocks');
    const fb = verdictOf(spec, stateful, refused, 'dydx1a');
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'block-rate-limit-stateful-block-client', retryAfterMs: 1500 });
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['chain-stateful-block']);
    // another account has its own budget
    expect(((await send(stateful, { 'x-dydx-address': 'dydx1b' })).body as { code: number }).code).toBe(0);
    clock.advance(1500);
    expect(((await send(stateful, signer)).body as { code: number }).code).toBe(0);
    expect(venue.stats()).toMatchObject({ violations: 1 });
  });

  it('stateful orders: 20 per 100 blocks, then 5001 naming that limit', async () => {
    const spec = getVenueSpec('dydx-v4');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    const signer = { 'x-dydx-address': 'dydx1a' };
    for (let i = 0; i < 10; i++) {
      await sendTimes(2, stateful, signer);
      clock.advance(1500);
    }
    const refused = await send(stateful, signer);
    expect((refused.body as { log: string }).log).toContain('{NumBlocks:100 Limit:20}');
    expect(verdictOf(spec, stateful, refused, 'dydx1a')).toMatchObject({ rule: 'block-rate-limit-stateful-100-client', retryAfterMs: 150_000 });
  });

  it('the indexer: 100 per 10 s per IP, then 429 {"errors":[{"msg":"Too many requests"}]} with RateLimit headers', async () => {
    const spec = getVenueSpec('dydx-v4');
    venue = await startVenueEmulator({ spec, clock: new ManualEpochClock(1_700_000_000_000) });
    const book: VenueRequest = { method: 'GET', path: '/v4/orderbooks/perpetualMarket/BTC-USD' };
    const ok = await sendTimes(100, book);
    expect(ok.every((a) => a.status === 200)).toBe(true);
    expect(ok[99]?.headers['ratelimit-remaining']).toBe('0');
    const refused = await send(book);
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ errors: [{ msg: 'Too many requests' }] });
    expect(refused.headers).toMatchObject({ 'ratelimit-limit': '100', 'retry-after': '10000' });
    expect(verdictOf(spec, book, refused, null)).toMatchObject({ verdict: 'rate_limited', rule: 'indexer-too-many-requests', retryAfterMs: 10_000 });
  });
});

describe('Coinbase International Exchange as the emulator answers it', () => {
  it('40 requests per s per API key, then HTTP 429 with the documented message', async () => {
    const spec = getVenueSpec('coinbase-intx');
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec, clock });
    expect(styleFor(spec).name).toBe('coinbase-intx');
    const positions: VenueRequest = { method: 'GET', path: '/api/v1/portfolios/p1/positions' };
    const ok = await sendTimes(40, positions, { 'cb-access-key': 'k1' });
    expect(ok.every((a) => a.status === 200)).toBe(true);
    const refused = await send(positions, { 'cb-access-key': 'k1' });
    expect(refused.status).toBe(429);
    expect(refused.body).toEqual({ message: 'Rate limit exceeded - Server allows 100 requests per second' });
    expect(verdictOf(spec, positions, refused, 'k1')).toMatchObject({ verdict: 'rate_limited', rule: 'rate-limit-exceeded', retryAfterMs: 1000 });
    // a second key has its own 40 (the IP ceiling is 100)
    expect((await send(positions, { 'cb-access-key': 'k2' })).status).toBe(200);
    clock.advance(1000);
    expect((await send(positions, { 'cb-access-key': 'k1' })).status).toBe(200);
  });
});
