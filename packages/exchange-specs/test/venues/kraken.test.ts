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
  it('ledger and trade history calls add 4 (every call also 1 on the IP bucket the lockout holds)', () => {
    for (const name of ['Ledgers', 'TradesHistory', 'QueryLedgers', 'QueryTrades'])
      expect(costs('kraken', priv(name), key), name).toEqual({ ip: 1, 'rest-counter': 4 });
    expect(costs('kraken', priv('Balance'), key)).toEqual({ ip: 1, 'rest-counter': 1 });
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

  it('AddOrder +1, AmendOrder 1 + 3 and EditOrder 1 + 6 at worst, CancelOrder 8 at worst; each also on the key bound', () => {
    expect(counted(priv('AddOrder', 'nonce=1&pair=XBTUSD'))).toEqual({ ip: 1, 'trading:XBTUSD': 1, 'trading-key': 1 });
    expect(counted(priv('AmendOrder', { txid: 'O1', order_qty: '1' }))).toEqual({ ip: 1, 'trading-key': 4, 'rest-counter': 1 });
    expect(counted(priv('EditOrder', 'nonce=1&pair=XBTUSD&txid=O1&volume=1'))).toEqual({ ip: 1, 'trading:XBTUSD': 7, 'trading-key': 7, 'rest-counter': 1 });
    expect(counted(priv('CancelOrder', 'nonce=1&txid=O1'))).toEqual({ ip: 1, 'trading-key': 8 });
  });

  it('a batch of n orders adds n/2 to the pair counter (2 to 15 orders)', () => {
    const orders = (n: number) => Array.from({ length: n }, () => ({ ordertype: 'limit', type: 'buy', volume: '1', price: '1' }));
    expect(counted(priv('AddOrderBatch', { pair: 'XBTUSD', orders: orders(4) }))).toEqual({ ip: 1, 'trading:XBTUSD': 2, 'trading-key': 2, 'rest-counter': 1 });
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
      { key: { venue: 'kraken', credential: 'key-1', axis: 'trading-key' }, hold: { forMs: 7000 } },
      { key: { venue: 'kraken', credential: null, axis: 'public' }, hold: { forMs: 7000 } },
    ]);
  });

  it('holds the pair counter too when the throttled request was an order, and reads EService:Throttled without the space', () => {
    const fb = feedback({ headers: { date }, body: { error: [`EService:Throttled:${Math.floor(now / 1000) + 3}`] } }, priv('AddOrder', 'pair=XBTUSD'));
    expect(fb.retryAfterMs).toBe(3000);
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['rest-counter', 'trading:XBTUSD', 'trading-key', 'public']);
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
  });
});

describe('kraken: EGeneral:Temporary lockout is per IP, after failed calls (audit of 2026-12-07)', () => {
  const lockout = { body: { error: ['EGeneral:Temporary lockout'] } };

  it('holds every request of the IP about 15 minutes, quoting the support article on the error', () => {
    const fb = feedback(lockout);
    expect(fb).toMatchObject({ verdict: 'banned', retryAfterMs: 900_000, rule: 'lockout' });
    expect(fb.penalties.map((p) => [p.key.axis, p.key.credential])).toContainEqual(['ip', null]);
    const rule = spec.errors?.find((r) => r.id === 'lockout');
    expect(rule?.provenance.quote).toContain('Temporary lockout error messages are Ié based');
    expect(rule?.provenance.quote).toContain('Temporary lockouts typically last approximately 15 minutes.');
    expect(spec.sources[rule?.provenance.source ?? '']).toMatchObject({
      url: 'https://support.kraken.com/hc/en-us/articles/360001491786-API-Error-Codes',
      retrieved: '2026-12-07',
    });
  });

  it('AddOrder, CancelOrder and public calls are charged on the IP bucket the lockout holds', () => {
    for (const request of [priv('AddOrder', 'nonce=1&pair=XBTUSD'), { ...priv('CancelOrder', 'nonce=1&txid=O1'), query: { pair: 'XBTUSD' } }, priv('Balance')])
      expect(counted(request)['ip'], request.path).toBe(1);
    const r = resolveRequest(spec, { method: 'GET', path: '/0/public/Ticker' }, { credential: null });
    expect(r.ok && r.charges.map((c) => c.key.axis)).toContain('ip');
  });

  it('the failed calls that cause it are visible as such: invalid nonce, signature and key', () => {
    for (const [message, id] of [
      ['EAPI:Invalid nonce', 'invalid-nonce'],
      ['EAPI:Invalid signature', 'invalid-signature'],
      ['EAPI:Invalid key', 'invalid-key'],
    ])
      expect(feedback({ body: { error: [message] } }), message).toMatchObject({ verdict: 'error', rule: id, penalties: [] });
  });
});

describe('kraken: public calls', () => {
  const anon = { credential: null } as const;
  const pub = (name: string) => resolveRequest(spec, { method: 'GET', path: `/0/public/${name}` }, anon);

  it('OHLC, Depth and Trades also count on their own bucket, 4 per 5 s per IP: slower than ccxt, which finds one per second refused', () => {
    for (const name of ['OHLC', 'Depth', 'Trades']) {
      const r = pub(name);
      expect(r.ok && Object.fromEntries(r.charges.map((c) => [c.bucket, c.cost])), name).toEqual({ ip: 1, public: 1, 'public-heavy': 1 });
    }
    expect(spec.buckets.find((b) => b.id === 'public-heavy')).toMatchObject({ scope: 'ip', limit: 4, windowMs: 5000 });
  });

  it('the other public calls count on `public` only, one per second', () => {
    const r = pub('Ticker');
    expect(r.ok && r.charges.map((c) => c.bucket).sort()).toEqual(['ip', 'public']);
  });
});

describe("kraken: the REST counter quote is the guide's words (audit of 2026-12-07)", () => {
  it('ledger and trade history calls: the guide says +2; 4 is charged with a stated deviation', () => {
    for (const name of ['Ledgers', 'TradesHistory', 'QueryLedgers', 'QueryTrades']) {
      const p = spec.endpoints.find((e) => e.id === name)?.provenance;
      expect(p?.quote, name).toContain('Ledger/trade history calls increase the counter by 2.');
      expect(p?.deviations, name).toEqual([expect.objectContaining({ value: 4, reason: 'conservative' })]);
    }
  });
});

describe('kraken: every number quotes the documentation', () => {
  it('records the check and quotes every bucket, endpoint and error rule', () => {
    expect(spec.verification?.checked).toBe('2026-12-07');
    for (const p of [...spec.buckets, ...spec.endpoints, ...(spec.errors ?? [])].map((x) => x.provenance)) expect(p.quote?.length).toBeGreaterThan(0);
  });
});
