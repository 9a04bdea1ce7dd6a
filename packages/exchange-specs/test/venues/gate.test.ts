import { describe, expect, it } from 'vitest';
import { getVenueSpec, validateSpec } from '../../src/index.js';
import { charged, date, read, refused } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;
const TEN_S = 10_000;
const v4 = (path: string) => `/api/v4${path}`;

describe('gate: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('gate');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('wallet transfers and balances: 80 per 10 s per endpoint', () => {
    for (const [method, path] of [
      ['POST', '/wallet/transfers'],
      ['POST', '/wallet/sub_account_transfers'],
      ['POST', '/wallet/sub_account_to_sub_account'],
      ['GET', '/wallet/total_balance'],
      ['GET', '/wallet/sub_account_balances'],
    ] as const) {
      expect(charged('gate', { method, path: v4(path) }, user), path).toEqual({
        'wallet-transfer': { axis: `wallet-transfer:${method} ${v4(path)}`, credential: 'uid-1', scope: 'uid', cost: 1, limit: 80, windowMs: TEN_S },
      });
    }
  });

  it('sub-account endpoints: 80 per 10 s each', () => {
    expect(charged('gate', { method: 'GET', path: v4('/sub_accounts') }, user)['subaccount']).toMatchObject({
      limit: 80,
      windowMs: TEN_S,
      axis: 'subaccount:GET /api/v4/sub_accounts',
    });
    expect(charged('gate', { method: 'POST', path: v4('/sub_accounts/123/keys') }, user)['subaccount']).toMatchObject({
      limit: 80,
      axis: 'subaccount:POST /api/v4/sub_accounts/{user_id}/keys',
    });
  });

  it('unified borrow or repay: 15 per 10 s', () => {
    expect(charged('gate', { method: 'POST', path: v4('/unified/loans'), body: { currency: 'BTC', type: 'borrow', amount: '1' } }, user)).toEqual({
      'unified-loans': { axis: 'unified-loans', credential: 'uid-1', scope: 'uid', cost: 1, limit: 15, windowMs: TEN_S },
    });
  });

  it('other private endpoints: 150 per 10 s each, also the default for unlisted ones', () => {
    expect(charged('gate', { method: 'GET', path: v4('/earn/uni/lends') }, user)['other-private-endpoint']).toMatchObject({
      limit: 150,
      windowMs: TEN_S,
      axis: 'other-private-endpoint:GET /api/v4/earn/uni/lends',
    });
    expect(charged('gate', { method: 'GET', path: v4('/unified/accounts') }, user)['other-private-endpoint']).toMatchObject({ limit: 150 });
  });

  it('the spot, futures and wallet "Others" stay at 200 per 10 s per endpoint', () => {
    expect(charged('gate', { method: 'GET', path: v4('/spot/open_orders') }, user)['private-endpoint']).toMatchObject({ limit: 200, windowMs: TEN_S });
    expect(charged('gate', { method: 'GET', path: v4('/futures/usdt/positions') }, user)['private-endpoint']).toMatchObject({
      limit: 200,
      axis: 'private-endpoint:GET /api/v4/futures/{settle}/positions',
    });
  });

  it('withdrawals: 1 per 3 s; UID transfers: 1 per 10 s', () => {
    expect(charged('gate', { method: 'POST', path: v4('/withdrawals') }, user)['withdrawal']).toMatchObject({ limit: 1, windowMs: 3000 });
    expect(charged('gate', { method: 'POST', path: v4('/withdrawals/push') }, user)['withdrawal-push']).toMatchObject({ limit: 1, windowMs: TEN_S });
  });

  it('public endpoints: 200 per 10 s per endpoint per IP, even when a key is sent', () => {
    const tickers = { method: 'GET', path: v4('/spot/tickers') } as const;
    expect(charged('gate', tickers, user)).toEqual({
      'public-endpoint': { axis: 'public-endpoint:GET /api/v4/spot/tickers', credential: null, scope: 'ip', cost: 1, limit: 200, windowMs: TEN_S },
    });
  });

  it('spot placement: 10 per s per UID and market, each order of a batch counted on its market', () => {
    expect(charged('gate', { method: 'POST', path: v4('/spot/orders'), body: { currency_pair: 'BTC_USDT' } }, user)['spot-order']).toMatchObject({
      limit: 10,
      windowMs: 1000,
      axis: 'spot-order:BTC_USDT',
      cost: 1,
    });
    const batch = [{ currency_pair: 'BTC_USDT' }, { currency_pair: 'ETH_USDT' }, { currency_pair: 'BTC_USDT' }, { currency_pair: 'BTC_USDT' }];
    const r = charged('gate', { method: 'POST', path: v4('/spot/batch_orders'), body: batch }, user);
    expect(r['spot-order']).toMatchObject({ cost: 4 });
    expect(refused('gate', { method: 'POST', path: v4('/spot/batch_orders'), body: [...batch, { currency_pair: 'BTC_USDT' }] }, user)).toBe(
      'invalid_parameter',
    );
    expect(charged('gate', { method: 'PATCH', path: v4('/spot/orders/1'), query: { currency_pair: 'ETH_USDT' } }, user)['spot-order']?.axis).toBe(
      'spot-order:ETH_USDT',
    );
  });

  it('spot cancellations: 200 per s per UID', () => {
    expect(charged('gate', { method: 'DELETE', path: v4('/spot/orders/1'), query: { currency_pair: 'BTC_USDT' } }, user)['spot-cancel']).toMatchObject({
      limit: 200,
      windowMs: 1000,
    });
    expect(
      charged('gate', { method: 'POST', path: v4('/spot/cancel_batch_orders'), body: [{ currency_pair: 'BTC_USDT', id: '1' }] }, user)['spot-cancel'],
    ).toMatchObject({ cost: 1 });
  });

  it('futures: 100 per s per UID, each order of a batch counted; fill-ratio tiers raise it', () => {
    const batch = Array.from({ length: 5 }, () => ({ contract: 'BTC_USDT', size: 1 }));
    expect(charged('gate', { method: 'POST', path: v4('/futures/usdt/batch_orders'), body: batch }, user)['futures-order']).toMatchObject({
      limit: 100,
      windowMs: 1000,
      cost: 5,
    });
    expect(charged('gate', { method: 'POST', path: v4('/futures/usdt/orders') }, { ...user, tier: 'fill-ratio-tier-7' })['futures-order']).toMatchObject({
      limit: 400,
    });
    expect(charged('gate', { method: 'DELETE', path: v4('/futures/usdt/orders') }, user)['futures-cancel']).toMatchObject({ limit: 200, windowMs: 1000 });
  });
});

describe('gate: responses', () => {
  const now = Date.UTC(2026, 11, 1, 12, 0, 0);
  const order = { method: 'POST', path: v4('/spot/orders'), body: { currency_pair: 'BTC_USDT' } } as const;
  it('429 holds the charged bucket 10 s whatever unit the reset timestamp has', () => {
    for (const reset of [String(Math.floor(now / 1000) + 1), String(now + 400)]) {
      const fb = read(
        'gate',
        order,
        { status: 429, headers: { 'x-gate-ratelimit-reset-timestamp': reset, date: date(now) }, body: { label: 'TOO_MANY_REQUESTS' } },
        user,
      );
      expect(fb, reset).toMatchObject({ verdict: 'rate_limited', retryAfterMs: 10_000 });
      expect(fb.penalties.map((p) => p.key.axis)).toEqual(['spot-order:BTC_USDT']);
    }
  });
  it('X-Gate-RateLimit-Requests-Remain syncs the endpoint bucket', () => {
    const fb = read(
      'gate',
      { method: 'GET', path: v4('/spot/accounts') },
      { headers: { 'x-gate-ratelimit-requests-remain': '10', 'x-gate-ratelimit-limit': '200' } },
      user,
    );
    expect(fb.syncs.map((s) => s.key.axis)).toEqual(['private-endpoint:GET /api/v4/spot/accounts']);
  });
});
