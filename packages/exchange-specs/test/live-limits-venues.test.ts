// readLiveLimits on Bybit, OKX and KuCoin, and a venue that publishes no limits.
import { describe, expect, it } from 'vitest';
import {
  BYBIT_RATE_BUCKETS,
  OKX_SUBACCOUNT_BUCKET,
  getVenueSpec,
  readLiveLimits,
  resolveRequest,
  validateSpec,
  type Identity,
  type LiveLimitsFetch,
  type LiveLimitsOptions,
} from '../src/index.js';
import { BASE, venueFetch, signed, bucket, limitOf, ok, refused, keyed } from './live-limits-fetch.js';

describe('readLiveLimits: Bybit', () => {
  const bybit = getVenueSpec('bybit');
  const account: Identity = { credential: 'key-1', uid: '290118' };
  const answer = (list: unknown[], extra: Record<string, unknown> = {}) => ({
    retCode: 0,
    retMsg: 'success',
    result: { list },
    retExtInfo: {},
    time: 1754894341984,
    ...extra,
  });
  const options = (fetch: LiveLimitsFetch, identity: Identity = account): LiveLimitsOptions => ({
    fetch,
    baseUrl: BASE,
    identity,
    ...signed('x-bapi-api-key'),
  });

  it('asks for the account uid and applies the smallest rate of the business types to the upgradable order buckets', async () => {
    const { fetch, sent } = venueFetch({
      '/v5/apilimit/query': answer([
        { uids: '290118', bizType: 'SPOT', rate: 30 },
        { uids: '290118', bizType: 'DERIVATIVES', rate: 25 },
        { uids: '290118', bizType: 'OPTIONS', rate: 40 },
      ]),
    });
    const r = ok(await readLiveLimits(bybit, options(fetch)));
    expect(new URL(sent[0]?.url ?? '').searchParams.get('uids')).toBe('290118');
    for (const id of BYBIT_RATE_BUCKETS) expect(limitOf(r.spec, id), id).toBe(25);
    // Every tier of a pinned bucket says the same: the venue's number, whatever tier the identity names.
    for (const tier of Object.keys(bucket(r.spec, 'order/create').tiers ?? {})) expect(limitOf(r.spec, 'order/create', tier)).toBe(25);
    expect(limitOf(r.spec, 'order/amend')).toBe(limitOf(bybit, 'order/amend'));
    expect(limitOf(r.spec, 'order/cancel-all')).toBe(limitOf(bybit, 'order/cancel-all'));
    expect(validateSpec(r.spec).ok).toBe(true);
    // The endpoint it read is priced in the returned spec.
    expect(resolveRequest(r.spec, { method: 'GET', path: '/v5/apilimit/query', query: { uids: '290118' } }, account).ok).toBe(true);
  });

  it('counts a business type the answer leaves out at the stored limit (the documented example lists no OPTIONS)', async () => {
    const { fetch } = venueFetch({
      '/v5/apilimit/query': answer([
        { uids: '290118', bizType: 'SPOT', rate: 600 },
        { uids: '290118', bizType: 'DERIVATIVES', rate: 400 },
      ]),
    });
    const r = ok(await readLiveLimits(bybit, options(fetch)));
    expect(limitOf(r.spec, 'order/create')).toBe(limitOf(bybit, 'order/create'));
    const lower = venueFetch({ '/v5/apilimit/query': answer([{ uids: '290118', bizType: 'SPOT', rate: 5 }]) });
    expect(limitOf(ok(await readLiveLimits(bybit, options(lower.fetch))).spec, 'order/create')).toBe(5);
  });

  const bad: [string, unknown, string, string | undefined][] = [
    ['retCode 10006', { retCode: 10006, retMsg: 'Too many visits!', result: {}, retExtInfo: {}, time: 1 }, 'venue_error', 'retCode'],
    ['rate as a string', answer([{ uids: '290118', bizType: 'SPOT', rate: '600' }]), 'malformed', 'result.list[0].rate'],
    ['rate 0', answer([{ uids: '290118', bizType: 'SPOT', rate: 0 }]), 'malformed', 'result.list[0].rate'],
    ['an unknown business type', answer([{ uids: '290118', bizType: 'FUTURES', rate: 600 }]), 'malformed', 'result.list[0].bizType'],
    ['the old field name limit', answer([{ uids: '290118', bizType: 'SPOT', limit: 600 }]), 'malformed', 'result.list[0].rate'],
    ['another account', answer([{ uids: '1,2', bizType: 'SPOT', rate: 600 }]), 'malformed', 'result.list[0].uids'],
    ['no list', { retCode: 0, retMsg: 'OK', result: {} }, 'malformed', 'result.list'],
    [
      'two rates for SPOT',
      answer([
        { uids: '290118', bizType: 'SPOT', rate: 600 },
        { uids: '290118', bizType: 'SPOT', rate: 20 },
      ]),
      'conflicting_limits',
      'result.list[1]',
    ],
  ];
  for (const [what, body, code, field] of bad) {
    it(`refuses an answer with ${what}: ${code} naming ${field}`, async () => {
      const { fetch } = venueFetch({ '/v5/apilimit/query': body });
      expect(refused(await readLiveLimits(bybit, options(fetch)))).toMatchObject({ code, field });
    });
  }

  it('needs the uid of the account (missing_parameter) and an authenticate hook (credential_required)', async () => {
    const { fetch, sent } = venueFetch({});
    expect(refused(await readLiveLimits(bybit, options(fetch, { credential: 'key-1' }))).code).toBe('missing_parameter');
    expect(refused(await readLiveLimits(bybit, { fetch, baseUrl: BASE, identity: account })).code).toBe('credential_required');
    expect(sent).toHaveLength(0);
  });
});

describe('readLiveLimits: OKX', () => {
  const okx = getVenueSpec('okx');
  const options = (fetch: LiveLimitsFetch): LiveLimitsOptions => ({ fetch, baseUrl: BASE, identity: { credential: 'key-1' }, ...signed('ok-access-key') });
  const entry = { accRateLimit: '2000', fillRatio: '0.1234', mainFillRatio: '0.1234', nextAccRateLimit: '2000', ts: '123456789000' };

  it("applies the documented example's accRateLimit to the sub-account order bucket, whatever fill-ratio tier the identity names", async () => {
    const { fetch } = venueFetch({ '/api/v5/trade/account-rate-limit': { code: '0', data: [{ ...entry, accRateLimit: '500' }], msg: '' } });
    const r = ok(await readLiveLimits(okx, options(fetch)));
    expect(limitOf(r.spec, OKX_SUBACCOUNT_BUCKET)).toBe(500);
    expect(limitOf(r.spec, OKX_SUBACCOUNT_BUCKET, 'fill-ratio-7')).toBe(500);
    expect(validateSpec(r.spec).ok).toBe(true);
    expect(r.changes).toEqual([
      {
        bucket: OKX_SUBACCOUNT_BUCKET,
        source: 'account-rate-limit',
        field: 'data[0].accRateLimit',
        stored: limitOf(okx, OKX_SUBACCOUNT_BUCKET),
        live: 500,
        statement: JSON.stringify({ ...entry, accRateLimit: '500' }),
      },
    ]);
  });
  it('accepts the empty strings OKX answers below VIP 5', async () => {
    const { fetch } = venueFetch({
      '/api/v5/trade/account-rate-limit': {
        code: '0',
        data: [{ accRateLimit: '1000', fillRatio: '', mainFillRatio: '', nextAccRateLimit: '', ts: '1700000000000' }],
        msg: '',
      },
    });
    expect(limitOf(ok(await readLiveLimits(okx, options(fetch))).spec, OKX_SUBACCOUNT_BUCKET)).toBe(1000);
  });
  const bad: [string, unknown, string, string][] = [
    ['code 50011', { code: '50011', msg: 'Rate limit reached.', data: [] }, 'venue_error', 'code'],
    ['accRateLimit as a number', { code: '0', data: [{ ...entry, accRateLimit: 2000 }], msg: '' }, 'malformed', 'data[0].accRateLimit'],
    ['accRateLimit empty', { code: '0', data: [{ ...entry, accRateLimit: '' }], msg: '' }, 'malformed', 'data[0].accRateLimit'],
    ['accRateLimit 1e3', { code: '0', data: [{ ...entry, accRateLimit: '1e3' }], msg: '' }, 'malformed', 'data[0].accRateLimit'],
    ['accRateLimit 0', { code: '0', data: [{ ...entry, accRateLimit: '0' }], msg: '' }, 'malformed', 'data[0].accRateLimit'],
    ['fillRatio not a number', { code: '0', data: [{ ...entry, fillRatio: 'high' }], msg: '' }, 'malformed', 'data[0].fillRatio'],
    ['two entries', { code: '0', data: [entry, entry], msg: '' }, 'malformed', 'data'],
    ['no ts', { code: '0', data: [{ ...entry, ts: undefined }], msg: '' }, 'malformed', 'data[0].ts'],
  ];
  for (const [what, body, code, field] of bad) {
    it(`refuses an answer with ${what}: ${code} naming ${field}`, async () => {
      const { fetch } = venueFetch({ '/api/v5/trade/account-rate-limit': body });
      expect(refused(await readLiveLimits(okx, options(fetch)))).toMatchObject({ code, field });
    });
  }
});

describe('readLiveLimits: KuCoin', () => {
  const kucoin = getVenueSpec('kucoin');
  const options = (fetch: LiveLimitsFetch, identity: Identity = { credential: 'key-1' }): LiveLimitsOptions => ({
    fetch,
    baseUrl: BASE,
    identity,
    ...signed('kc-api-key'),
  });
  const summary = (level: unknown) => ({
    code: '200000',
    data: {
      level,
      subQuantity: 3,
      spotSubQuantity: 3,
      marginSubQuantity: 2,
      futuresSubQuantity: 2,
      optionSubQuantity: 0,
      maxSubQuantity: 5,
      maxDefaultSubQuantity: 5,
      maxSpotSubQuantity: 0,
      maxMarginSubQuantity: 0,
      maxFuturesSubQuantity: 0,
      maxOptionSubQuantity: 0,
    },
  });

  it("pins the pools to the stated VIP level's quotas, up from the default tier and down from the identity's", async () => {
    const { fetch } = venueFetch({ '/api/v2/user-info': summary(5) });
    const up = ok(await readLiveLimits(kucoin, options(fetch)));
    expect(up.tier).toBe('vip5');
    expect(limitOf(up.spec, 'spot')).toBe(limitOf(kucoin, 'spot', 'vip5'));
    expect(limitOf(up.spec, 'spot')).toBeGreaterThan(limitOf(kucoin, 'spot', 'vip0'));
    expect(limitOf(up.spec, 'management', 'vip12')).toBe(limitOf(kucoin, 'management', 'vip5'));
    expect(limitOf(up.spec, 'public')).toBe(limitOf(kucoin, 'public'));
    expect(validateSpec(up.spec).ok).toBe(true);
    const down = ok(await readLiveLimits(kucoin, options(venueFetch({ '/api/v2/user-info': summary(0) }).fetch, { credential: 'key-1', tier: 'vip9' })));
    expect(limitOf(down.spec, 'spot', 'vip9')).toBe(limitOf(kucoin, 'spot', 'vip0'));
    expect(down.changes.find((c) => c.bucket === 'spot')).toMatchObject({
      stored: limitOf(kucoin, 'spot', 'vip9'),
      live: limitOf(kucoin, 'spot', 'vip0'),
      field: 'data.level',
    });
  });
  const bad: [string, unknown, string, string][] = [
    ['a level the spec has no tier for', summary(13), 'unknown_tier', 'data.level'],
    ['level as a string', summary('1'), 'malformed', 'data.level'],
    ['a negative level', summary(-1), 'malformed', 'data.level'],
    ['code 400003', { code: '400003', msg: 'KC-API-KEY not exists' }, 'venue_error', 'code'],
  ];
  for (const [what, body, code, field] of bad) {
    it(`refuses an answer with ${what}: ${code} naming ${field}`, async () => {
      const { fetch } = venueFetch({ '/api/v2/user-info': body });
      expect(refused(await readLiveLimits(kucoin, options(fetch)))).toMatchObject({ code, field });
    });
  }
});

it('refuses a venue that publishes no limits (unsupported_venue), sending nothing', async () => {
  const { fetch, sent } = venueFetch({});
  expect(refused(await readLiveLimits(getVenueSpec('kraken'), { fetch, baseUrl: BASE, identity: keyed })).code).toBe('unsupported_venue');
  expect(sent).toHaveLength(0);
});
