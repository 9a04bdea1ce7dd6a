import { describe, expect, it } from 'vitest';
import { getVenueSpec, listVenues, validateSpec } from '../../src/index.js';
import { DYDX_BLOCK_MS } from '../../src/venues/dydx-v4.js';
import { charged, read, refused } from './venue-limits.js';

const account = { credential: 'signer-1', uid: 'dydx1trader' } as const;
const place = (orderFlags: number | undefined) =>
  ({
    method: 'POST',
    path: '/dydxprotocol.clob.MsgPlaceOrder',
    body: {
      order: {
        orderId: { subaccountId: { owner: 'dydx1trader', number: 0 }, clientId: 7, ...(orderFlags === undefined ? {} : { orderFlags }), clobPairId: 0 },
        side: 1,
        quantums: 1_000_000,
        subticks: 100_000,
      },
    },
  }) as const;
const cancel = (orderFlags: number) =>
  ({
    method: 'POST',
    path: '/dydxprotocol.clob.MsgCancelOrder',
    body: { orderId: { subaccountId: { owner: 'dydx1trader', number: 0 }, clientId: 7, orderFlags, clobPairId: 0 }, goodTilBlock: 100 },
  }) as const;

describe('dydx-v4: documented numbers', () => {
  it('carries its verification, every provenance quotes its source, and the ccxt name dydx resolves to it', () => {
    const spec = getVenueSpec('dydx-v4');
    expect(spec.verification?.checked).toBe('2026-12-01');
    expect(validateSpec(spec).ok).toBe(true);
    expect(getVenueSpec('dydx').id).toBe('dydx-v4');
    expect(getVenueSpec('ccxt:dydx').origin).toBe('ccxt-derived');
    expect(listVenues().find((v) => v.id === 'dydx-v4')).toMatchObject({ origin: 'hand-authored', aliases: ['dydx'] });
  });

  it('indexer: 100 requests per 10 s per IP, one budget for every route', () => {
    const expected = { axis: 'indexer', credential: null, scope: 'ip', cost: 1, limit: 100, windowMs: 10_000 };
    expect(charged('dydx-v4', { method: 'GET', path: '/v4/orderbooks/perpetualMarket/BTC-USD' })).toEqual({ indexer: expected });
    expect(charged('dydx-v4', { method: 'GET', path: '/v4/candles/perpetualMarkets/BTC-USD', query: { resolution: '1MIN' } })).toEqual({ indexer: expected });
    expect(charged('dydx-v4', { method: 'GET', path: '/v4/orders', query: { address: 'dydx1trader', subaccountNumber: '0' } }, account)).toEqual({
      indexer: expected,
    });
  });

  it('a block is taken as 1.5 s, the slower documented block time', () => {
    expect(DYDX_BLOCK_MS).toBe(1500);
  });

  it('short-term orders: 2,000 placements and cancellations per 5 blocks per account', () => {
    expect(charged('dydx-v4', place(0), account)).toEqual({
      'chain-short-term': { axis: 'chain-short-term', credential: 'dydx1trader', scope: 'uid', cost: 1, limit: 2000, windowMs: 5 * DYDX_BLOCK_MS },
    });
    expect(charged('dydx-v4', cancel(0), account)).toEqual({
      'chain-short-term': { axis: 'chain-short-term', credential: 'dydx1trader', scope: 'uid', cost: 1, limit: 2000, windowMs: 5 * DYDX_BLOCK_MS },
    });
  });

  it('stateful orders (long-term 64, conditional 32): 2 per block and 20 per 100 blocks per account, both', () => {
    for (const flags of [64, 32]) {
      expect(charged('dydx-v4', place(flags), account), String(flags)).toEqual({
        'chain-stateful-block': { axis: 'chain-stateful-block', credential: 'dydx1trader', scope: 'uid', cost: 1, limit: 2, windowMs: DYDX_BLOCK_MS },
        'chain-stateful-100': { axis: 'chain-stateful-100', credential: 'dydx1trader', scope: 'uid', cost: 1, limit: 20, windowMs: 100 * DYDX_BLOCK_MS },
      });
    }
  });

  it('an order message without its flags cannot be priced (proto JSON omits a 0: send it)', () => {
    expect(refused('dydx-v4', place(undefined), account)).toBe('missing_parameter');
  });

  it('a stateful cancellation is not block-limited; a batch cancellation counts 2 on the short-term budget', () => {
    expect(charged('dydx-v4', cancel(64), account)['chain-short-term']).toMatchObject({ cost: 0 });
    const batch = {
      method: 'POST',
      path: '/dydxprotocol.clob.MsgBatchCancel',
      body: { subaccountId: { owner: 'dydx1trader', number: 0 }, shortTermCancels: [{ clobPairId: 0, clientIds: [1, 2, 3, 4, 5] }], goodTilBlock: 100 },
    } as const;
    expect(charged('dydx-v4', batch, account)).toEqual({
      'chain-short-term': { axis: 'chain-short-term', credential: 'dydx1trader', scope: 'uid', cost: 2, limit: 2000, windowMs: 5 * DYDX_BLOCK_MS },
    });
  });

  it('the chain limits are per account: two signers of one address share them', () => {
    const a = charged('dydx-v4', place(64), { credential: 'signer-1', uid: 'dydx1trader' });
    const b = charged('dydx-v4', place(64), { credential: 'signer-2', uid: 'dydx1trader' });
    expect(a['chain-stateful-100']?.credential).toBe(b['chain-stateful-100']?.credential);
  });

  it("public nodes: each operator's documented limit on its host, an unlisted host priced as the strictest", () => {
    expect(charged('dydx-v4', { method: 'GET', path: '/broadcast_tx_sync', host: 'dydx-ops-rpc.kingnodes.com', query: { tx: '0x00' } })).toEqual({
      'kingnodes-rpc': { axis: 'kingnodes-rpc', credential: null, scope: 'ip', cost: 1, limit: 250, windowMs: 60_000 },
    });
    expect(
      charged('dydx-v4', {
        method: 'POST',
        path: '/cosmos/tx/v1beta1/txs',
        host: 'dydx-dao-api.polkachu.com',
        body: { tx_bytes: 'AA==', mode: 'BROADCAST_MODE_SYNC' },
      }),
    ).toEqual({
      'polkachu-rest': { axis: 'polkachu-rest', credential: null, scope: 'ip', cost: 1, limit: 300, windowMs: 60_000 },
    });
    expect(
      charged('dydx-v4', { method: 'GET', path: '/cosmos/auth/v1beta1/account_info/dydx1trader', host: 'dydx-mainnet-lcd.autostake.com' })['autostake-rest'],
    ).toMatchObject({ limit: 4, windowMs: 1000 });
    expect(Object.keys(charged('dydx-v4', { method: 'GET', path: '/broadcast_tx_sync', host: 'my-own-node.example' }))).toEqual(['autostake-rpc']);
  });

  it('a message the spec does not price is refused, not charged to the indexer', () => {
    expect(refused('dydx-v4', { method: 'POST', path: '/dydxprotocol.clob.MsgUpdateLeverage', body: {} }, account)).toBe('unknown_endpoint');
  });
});

describe('dydx-v4: responses', () => {
  const book = { method: 'GET', path: '/v4/orderbooks/perpetualMarket/BTC-USD' } as const;

  it("the indexer's 429 holds the indexer budget for its whole 10 s window (its Retry-After is in ms)", () => {
    const fb = read('dydx-v4', book, {
      status: 429,
      headers: { 'retry-after': '4200', 'ratelimit-remaining': '0' },
      body: { errors: [{ msg: 'Too many requests' }] },
    });
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'indexer-too-many-requests', retryAfterMs: 10_000 });
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['indexer']);
  });

  it('RateLimit-Remaining syncs the indexer budget', () => {
    const fb = read('dydx-v4', book, { headers: { 'ratelimit-remaining': '3' } });
    expect(fb.syncs.map((s) => s.key.axis)).toEqual(['indexer']);
    expect(fb.syncs[0]?.minBorrowed).toBeGreaterThan(0);
  });

  it("a node's 429 holds its bucket a minute", () => {
    const fb = read('dydx-v4', { method: 'GET', path: '/broadcast_tx_sync', host: 'dydx-ops-rpc.kingnodes.com' }, { status: 429, body: 'Too Many Requests' });
    expect(fb).toMatchObject({ verdict: 'rate_limited', rule: 'node-too-many-requests', retryAfterMs: 60_000 });
    expect(fb.penalties.map((p) => p.key.axis)).toEqual(['kingnodes-rpc']);
  });

  const log = (count: number, blocks: number, limit: number, context: string): string =>
    `Rate of ${count} exceeds configured block rate limit of {NumBlocks:${blocks} Limit:${limit}} for ${context} and dydx1trader: Block rate limit exceeded`;

  it('code 5001 over CometBFT RPC: the limit the log names is held for its window', () => {
    const short = read(
      'dydx-v4',
      place(0),
      {
        body: {
          jsonrpc: '2.0',
          id: -1,
          result: { code: 5001, codespace: 'clob', log: log(2001, 5, 2000, 'MaxShortTermOrdersAndCancelsPerNBlocks'), hash: 'AB' },
        },
      },
      account,
    );
    expect(short).toMatchObject({ verdict: 'rate_limited', counted: true, retryAfterMs: 5 * DYDX_BLOCK_MS });
    expect(short.penalties.map((p) => [p.key.axis, p.key.credential])).toEqual([['chain-short-term', 'dydx1trader']]);
    const hundred = read(
      'dydx-v4',
      place(64),
      { body: { result: { code: 5001, codespace: 'clob', log: log(21, 100, 20, 'MaxStatefulOrdersPerNBlocks') } } },
      account,
    );
    expect(hundred).toMatchObject({ rule: 'block-rate-limit-stateful-100-rpc', retryAfterMs: 100 * DYDX_BLOCK_MS });
    expect(hundred.penalties.map((p) => p.key.axis)).toEqual(['chain-stateful-100']);
  });

  it('code 5001 over Cosmos REST and from a client library', () => {
    const perBlock = read(
      'dydx-v4',
      place(64),
      { body: { tx_response: { code: 5001, codespace: 'clob', raw_log: log(3, 1, 2, 'MaxStatefulOrdersPerNBlocks') } } },
      account,
    );
    expect(perBlock).toMatchObject({ rule: 'block-rate-limit-stateful-block-rest', retryAfterMs: DYDX_BLOCK_MS });
    expect(perBlock.penalties.map((p) => p.key.axis)).toEqual(['chain-stateful-block']);
    const bare = read('dydx-v4', place(64), { body: { code: 5001, codespace: 'clob' } }, account);
    expect(bare).toMatchObject({ rule: 'block-rate-limit-client', retryAfterMs: 100 * DYDX_BLOCK_MS });
    expect(bare.penalties.map((p) => p.key.axis).sort()).toEqual(['chain-stateful-100', 'chain-stateful-block']);
  });

  it("an accepted transaction, or another module's 5001, is no rate limit", () => {
    expect(read('dydx-v4', place(0), { body: { result: { code: 0, codespace: '', log: '[]' } } }, account).verdict).toBe('ok');
    expect(read('dydx-v4', place(0), { body: { result: { code: 5001, codespace: 'perpetuals', log: 'x' } } }, account).verdict).toBe('ok');
  });
});
