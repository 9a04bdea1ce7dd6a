import { describe, expect, it } from 'vitest';
import { bucketForTier, getVenueSpec, interpretResponse, resolveRequest, type VenueRequest, type VenueResponse } from '../../src/index.js';
import { costs, errorCode } from '../helpers.js';

const spec = getVenueSpec('kraken');
const key = { credential: 'key-1' } as const;
const priv = (name: string, body: unknown = 'nonce=1'): VenueRequest => ({ method: 'POST', path: `/0/private/${name}`, body });

/** What the venue counts, by bucket and partition. */
function counted(request: VenueRequest): Record<string, number> {
  const r = resolveRequest(spec, request, key);
  if (!r.ok) throw new Error(r.error.message);
  return Object.fromEntries(r.charges.map((c) => [c.key.axis ?? c.bucket, c.cost]));
}

function feedback(response: Partial<VenueResponse>, request: VenueRequest = priv('Balance')) {
  return interpretResponse(spec, request, { status: 200, headers: {}, body: {}, ...response }, key);
}

describe('kraken: the REST call counter', () => {
  it('ledger and trade history calls add 4', () => {
    for (const name of ['Ledgers', 'TradesHistory', 'QueryLedgers', 'QueryTrades'])
      expect(costs('kraken', priv(name), key), name).toEqual({ 'rest-counter': 4 });
    expect(costs('kraken', priv('Balance'), key)).toEqual({ 'rest-counter': 1 });
  });

  it('holds the documented maximum and decay per tier (Starter from the support article)', () => {
    const b = spec.buckets.find((x) => x.id === 'rest-counter')!;
    const tier = (t: string) => {
      const x = bucketForTier(b, t);
      return x.algorithm === 'token-bucket' ? [x.capacity, x.refillPerSec] : [];
    };
    expect([tier('starter'), tier('intermediate'), tier('pro')]).toEqual([
      [15, 0.33],
      [20, 0.5],
      [20, 1],
    ]);
    expect(b.scope).toBe('key');
  });
});

describe('kraken: the trading engine counter per pair', () => {
  it('holds the documented thresholds and decay per tier', () => {
    const b = spec.buckets.find((x) => x.id === 'trading')!;
    const tier = (t: string) => {
      const x = bucketForTier(b, t);
      return x.algorithm === 'token-bucket' ? [x.capacity, x.refillPerSec] : [];
    };
    expect([tier('starter'), tier('intermediate'), tier('pro')]).toEqual([
      [60, 1],
      [125, 2.34],
      [180, 3.75],
    ]);
  });

  it('AddOrder +1, AmendOrder 1 + 3 and EditOrder 1 + 6 at worst, CancelOrder 8 at worst', () => {
    expect(counted(priv('AddOrder', 'nonce=1&pair=XBTUSD'))).toEqual({ 'trading:XBTUSD': 1 });
    expect(counted({ ...priv('AmendOrder', { txid: 'O1', order_qty: '1' }), query: { pair: 'XBTUSD' } })).toEqual({ 'trading:XBTUSD': 4, 'rest-counter': 1 });
    expect(counted(priv('EditOrder', 'nonce=1&pair=XBTUSD&txid=O1&volume=1'))).toEqual({ 'trading:XBTUSD': 7, 'rest-counter': 1 });
    expect(counted({ ...priv('CancelOrder', 'nonce=1&txid=O1'), query: { pair: 'XBTUSD' } })).toEqual({ 'trading:XBTUSD': 8 });
  });

  it('a batch of n orders adds n/2 to the pair counter (2 to 15 orders)', () => {
    const orders = (n: number) => Array.from({ length: n }, () => ({ ordertype: 'limit', type: 'buy', volume: '1', price: '1' }));
    expect(counted(priv('AddOrderBatch', { pair: 'XBTUSD', orders: orders(4) }))).toEqual({ 'trading:XBTUSD': 2, 'rest-counter': 1 });
    expect(counted(priv('AddOrderBatch', { pair: 'XBTUSD', orders: orders(15) }))['trading:XBTUSD']).toBe(7.5);
    expect(errorCode('kraken', priv('AddOrderBatch', { pair: 'XBTUSD', orders: orders(16) }), key)).toBe('invalid_parameter');
  });
});

describe('kraken: throttle messages', () => {
  const now = Date.UTC(2026, 11, 1, 12, 0, 0);
  const date = new Date(now).toUTCString();

  it('EService: Throttled: [UNIX timestamp] holds until the time it states', () => {
    const until = Math.floor(now / 1000) + 7;
    const fb = feedback({ headers: { date }, body: { error: [`EService: Throttled: ${until}`] } });
    expect(fb).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 7000 });
    expect(fb.penalties).toEqual([
      { key: { venue: 'kraken', credential: 'key-1', axis: 'rest-counter' }, hold: { forMs: 7000 } },
      { key: { venue: 'kraken', credential: null, axis: 'public' }, hold: { forMs: 7000 } },
    ]);
  });

  it('holds the pair counter too when the throttled request was an order, and reads EService:Throttled without the space', () => {
    const fb = feedback({ headers: { date }, body: { error: [`EService:Throttled:${Math.floor(now / 1000) + 3}`] } }, priv('AddOrder', 'pair=XBTUSD'));
    expect(fb.retryAfterMs).toBe(3000);
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['rest-counter', 'trading:XBTUSD', 'public']);
  });

  it('without a timestamp (or a Date header to read it against), holds for the documented default of 5 s', () => {
    expect(feedback({ headers: { date }, body: { error: ['EService:Throttled'] } }).retryAfterMs).toBe(5000);
    expect(feedback({ body: { error: [`EService: Throttled: ${Math.floor(now / 1000) + 60}`] } }).retryAfterMs).toBe(5000);
  });

  it('the other throttles get their documented default holds', () => {
    expect(feedback({ body: { error: ['EAPI:Rate limit exceeded'] } })).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 15_000 });
    expect(feedback({ body: { error: ['EOrder:Rate limit exceeded'] } }, priv('AddOrder', 'pair=XBTUSD'))).toMatchObject({
      verdict: 'rate_limited',
      retryAfterMs: 10_000,
    });
    expect(feedback({ body: { error: ['EGeneral:Temporary lockout'] } })).toMatchObject({ verdict: 'banned', retryAfterMs: 900_000 });
  });
});

describe('kraken: every number quotes the documentation', () => {
  it('records the check and quotes every bucket, endpoint and error rule', () => {
    expect(spec.verification?.checked).toBe('2026-12-01');
    for (const p of [...spec.buckets, ...spec.endpoints, ...(spec.errors ?? [])].map((x) => x.provenance)) expect(p.quote?.length).toBeGreaterThan(0);
  });
});
