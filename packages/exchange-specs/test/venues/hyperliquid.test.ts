import { describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, resolveRequest, validateSpec, type Identity, type VenueRequest, type VenueResponse } from '../../src/index.js';

const spec = getVenueSpec('hyperliquid');
const anon: Identity = { credential: null };

function weight(request: VenueRequest): number | string {
  const r = resolveRequest(spec, request, anon);
  if (!r.ok) return r.error.code;
  return r.charges.reduce((a, c) => a + c.cost, 0);
}

const info = (body: Record<string, unknown>): VenueRequest => ({ method: 'POST', path: '/info', body });

function feedback(request: VenueRequest, response: Partial<VenueResponse>) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, anon);
}

describe('hyperliquid (verified 2026-12-01)', () => {
  it('carries a verification and a quote on every provenance', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('pins the IP weight: 1200 per minute', () => {
    expect(spec.buckets).toHaveLength(1);
    expect(spec.buckets[0]).toMatchObject({ id: 'ip-weight', scope: 'ip', limit: 1200, windowMs: 60_000 });
  });

  it('pins the info weights: 2 for six types, 60 for userRole, 20 for the rest', () => {
    for (const type of ['l2Book', 'allMids', 'clearinghouseState', 'orderStatus', 'spotClearinghouseState', 'exchangeStatus'])
      expect(weight(info({ type })), type).toBe(2);
    expect(weight(info({ type: 'userRole', user: '0x1' }))).toBe(60);
    for (const type of ['meta', 'metaAndAssetCtxs', 'openOrders', 'candleSnapshot', 'userRateLimit']) expect(weight(info({ type })), type).toBe(20);
  });

  it('pins the exchange weight 1 + floor(batch_length / 40): 79 orders weigh 2', () => {
    const order = (n: number) =>
      weight({ method: 'POST', path: '/exchange', body: { action: { type: 'order', orders: Array.from({ length: n }, () => ({})) } } });
    expect(order(1)).toBe(1);
    expect(order(39)).toBe(1);
    expect(order(40)).toBe(2);
    expect(order(79)).toBe(2);
    expect(order(80)).toBe(3);
  });

  it('settles the per-item surcharge: +1 per 20 fills, +1 per 60 candles (a started group counts)', () => {
    const fills = feedback(info({ type: 'userFills', user: '0x1' }), { body: Array.from({ length: 41 }, () => ({})) });
    expect(fills.extraChecks?.map((c) => c.cost)).toEqual([3]);
    const candles = feedback(info({ type: 'candleSnapshot', req: {} }), { body: Array.from({ length: 60 }, () => ({})) });
    expect(candles.extraChecks?.map((c) => c.cost)).toEqual([1]);
  });

  it('prices explorer requests at 40', () => {
    expect(weight({ method: 'POST', path: '/explorer', body: { type: 'blockDetails', height: 1 } })).toBe(40);
  });

  it('treats the per-address limit reply as a rate limit, held for the documented 10 s', () => {
    const fb = feedback(
      { method: 'POST', path: '/exchange', body: { action: { type: 'order', orders: [{}] } } },
      {
        body: {
          status: 'err',
          response:
            'Too many cumulative requests sent (37986 > 10436) for cumulative volume traded $437.92. Place taker orders to free up 1 request per USDC traded.',
        },
      },
    );
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.penalties).toEqual([{ key: { venue: 'hyperliquid', credential: null, axis: 'ip-weight' }, hold: { forMs: 10_000 } }]);
  });
});
