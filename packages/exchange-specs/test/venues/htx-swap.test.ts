import { describe, expect, it } from 'vitest';
import { getVenueSpec, validateSpec } from '../../src/index.js';
import { charged, date, read, refused } from './venue-limits.js';

const user = { credential: 'key-1', uid: 'uid-1' } as const;
const S = '/linear-swap-api';

describe('htx-swap: documented numbers', () => {
  it('carries its verification, and every provenance quotes the documentation', () => {
    const spec = getVenueSpec('htx-swap');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
  });

  it('Trade interfaces: 72 per 3 s per UID, one pool for every contract (v1 and v5)', () => {
    const pool = { axis: 'trade', credential: 'uid-1', scope: 'uid', cost: 1, limit: 72, windowMs: 3000 };
    for (const path of [
      `${S}/v1/swap_cross_order`,
      `${S}/v1/swap_order`,
      `${S}/v1/swap_cross_batchorder`,
      `${S}/v1/swap_cross_cancel`,
      `${S}/v1/swap_cross_cancelall`,
      '/v5/trade/order',
      '/v5/trade/cancel_order',
      '/v5/position/lever',
    ]) {
      expect(charged('htx-swap', { method: 'POST', path, body: { contract_code: 'BTC-USDT' } }, user), path).toEqual({ trade: pool });
    }
  });

  it('Read interfaces: their own 72 per 3 s per UID', () => {
    const pool = { axis: 'read', credential: 'uid-1', scope: 'uid', cost: 1, limit: 72, windowMs: 3000 };
    for (const [method, path] of [
      ['POST', `${S}/v1/swap_cross_account_info`],
      ['POST', `${S}/v1/swap_cross_position_info`],
      ['POST', `${S}/v1/swap_cross_openorders`],
      ['POST', `${S}/v3/swap_cross_matchresults`],
      ['GET', '/v5/trade/order'],
      ['GET', '/v5/account/balance'],
    ] as const) {
      expect(charged('htx-swap', { method, path }, user), path).toEqual({ read: pool });
    }
  });

  it('switching leverage: 1 per 3 s per endpoint, besides the Trade pool', () => {
    expect(charged('htx-swap', { method: 'POST', path: `${S}/v1/swap_cross_switch_lever_rate` }, user)).toEqual({
      trade: { axis: 'trade', credential: 'uid-1', scope: 'uid', cost: 1, limit: 72, windowMs: 3000 },
      'switch-lever-rate': { axis: 'switch-lever-rate:cross-switch-lever-rate', credential: 'uid-1', scope: 'uid', cost: 1, limit: 1, windowMs: 3000 },
    });
  });

  it('trigger, TP/SL and trailing orders: 5 per second per endpoint; setting the asset mode 1 per 10 s', () => {
    expect(charged('htx-swap', { method: 'POST', path: `${S}/v1/swap_cross_trigger_order` }, user)['strategy-endpoint']).toMatchObject({
      limit: 5,
      windowMs: 1000,
      axis: 'strategy-endpoint:cross-trigger-order',
    });
    expect(charged('htx-swap', { method: 'POST', path: `${S}/v1/swap_tpsl_cancel` }, user)['strategy-endpoint']).toMatchObject({
      limit: 5,
      axis: 'strategy-endpoint:tpsl-cancel',
    });
    expect(charged('htx-swap', { method: 'POST', path: '/v5/account/asset_mode' }, user)['set-asset-mode']).toMatchObject({ limit: 1, windowMs: 10_000 });
  });

  it('public data per IP: reference 240 per 3 s, market data 800 per second, contract elements 20 per 2 s', () => {
    expect(charged('htx-swap', { method: 'GET', path: `${S}/v1/swap_contract_info` })).toEqual({
      'public-reference': { axis: 'public-reference', credential: null, scope: 'ip', cost: 1, limit: 240, windowMs: 3000 },
    });
    expect(charged('htx-swap', { method: 'GET', path: `${S}/v1/swap_funding_rate`, query: { contract_code: 'BTC-USDT' } })['public-reference']).toMatchObject({
      limit: 240,
    });
    expect(charged('htx-swap', { method: 'GET', path: '/linear-swap-ex/market/depth', query: { contract_code: 'BTC-USDT', type: 'step0' } })).toEqual({
      'market-data': { axis: 'market-data', credential: null, scope: 'ip', cost: 1, limit: 800, windowMs: 1000 },
    });
    expect(charged('htx-swap', { method: 'GET', path: '/linear-swap-ex/market/history/kline' })['market-data']).toMatchObject({ limit: 800 });
    expect(charged('htx-swap', { method: 'GET', path: `${S}/v1/swap_query_elements` })['query-elements']).toMatchObject({ limit: 20, windowMs: 2000 });
  });

  it('a private endpoint needs a credential', () => {
    expect(refused('htx-swap', { method: 'POST', path: `${S}/v1/swap_cross_order` })).toBe('credential_required');
  });
});

describe('htx-swap: responses', () => {
  const now = Date.UTC(2026, 11, 1, 12, 0, 0);
  const order = { method: 'POST', path: `${S}/v1/swap_cross_order` } as const;
  it('err_code 1032 holds the charged pool 3 s', () => {
    const fb = read('htx-swap', order, { body: { status: 'error', err_code: 1032, err_msg: 'The number of access exceeded the limit.', ts: now } }, user);
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'exceeded', retryAfterMs: 3000 });
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['trade']);
  });
  it('err_code 1084 waits until recovery-time and holds nothing (cancellations still work)', () => {
    const fb = read(
      'htx-swap',
      order,
      {
        headers: { 'recovery-time': String(now + 300_000), date: date(now) },
        body: { status: 'error', err_code: 1084, err_msg: 'Your contract API is disabled, please try again after 2026-12-01 20:05:00 (GMT+8).' },
      },
      user,
    );
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'api-disabled', retryAfterMs: 300_000, penalties: [] });
    expect(read('htx-swap', order, { body: { status: 'error', err_code: 1084 } }, user).retryAfterMs).toBe(1_800_000);
  });
  it('ratelimit-remaining syncs the Trade or the Read pool', () => {
    const headers = { 'ratelimit-limit': '72', 'ratelimit-interval': '3000', 'ratelimit-remaining': '10', 'ratelimit-reset': String(now + 1000) };
    expect(read('htx-swap', order, { headers }, user).syncs.map((s) => s.key.axis)).toEqual(['trade']);
    expect(read('htx-swap', { method: 'POST', path: `${S}/v1/swap_cross_account_info` }, { headers }, user).syncs.map((s) => s.key.axis)).toEqual(['read']);
  });
});
