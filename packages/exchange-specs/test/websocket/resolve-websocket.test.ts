import { describe, expect, it } from 'vitest';
import type { BucketCheck } from '@core/rate-limit-contract';
import {
  classifyMessage,
  getVenueSpec,
  getWebSocketSpec,
  resolveConnect,
  resolveMessage,
  resolveRequest,
  type Identity,
  type VenueRequest,
  type WebSocketEndpointSpec,
} from '../../src/index.js';

const key: Identity = { credential: 'test-key-1' };

function endpoint(venue: string, id: string): WebSocketEndpointSpec {
  const e = getWebSocketSpec(venue).endpoints.find((x) => x.id === id);
  if (e === undefined) throw new Error(`${venue}: no endpoint ${id}`);
  return e;
}

function checksOf(venue: string, endpointId: string, message: object | string, identity: Identity = key, connectionId = 'conn-1'): readonly BucketCheck[] {
  const ws = getWebSocketSpec(venue);
  const r = resolveMessage(ws, getVenueSpec(venue), endpointId, classifyMessage(endpoint(venue, endpointId), message), identity, { connectionId });
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.checks;
}

function restChecks(venue: string, request: VenueRequest, identity: Identity = key): readonly BucketCheck[] {
  const r = resolveRequest(getVenueSpec(venue), request, identity);
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
  return r.checks;
}

const byAxis = (checks: readonly BucketCheck[]) => Object.fromEntries(checks.map((c) => [c.key.axis ?? 'request', c]));

describe('WebSocket API requests are priced on the REST buckets with the same keys and limits', () => {
  it('Binance order.place charges what POST /api/v3/order charges, except RAW_REQUESTS', () => {
    const params = { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '60000' };
    const ws = byAxis(checksOf('binance', 'ws-api', { id: 1, method: 'order.place', params }));
    const rest = byAxis(restChecks('binance-spot', { method: 'POST', path: '/api/v3/order', query: params }));
    expect(Object.keys(ws).sort()).toEqual(
      Object.keys(rest)
        .filter((a) => a !== 'raw_requests')
        .sort(),
    );
    for (const axis of Object.keys(ws)) {
      expect(ws[axis]?.key).toEqual(rest[axis]?.key);
      expect(ws[axis]?.limit).toEqual(rest[axis]?.limit);
      expect(ws[axis]?.cost).toBe(rest[axis]?.cost);
    }
  });

  it('Binance depth over the WebSocket API is weighted by its limit parameter like REST', () => {
    expect(byAxis(checksOf('binance', 'ws-api', { id: 2, method: 'depth', params: { symbol: 'BTCUSDT', limit: 500 } }))['request_weight']?.cost).toBe(25);
  });

  it('connecting to the Binance WebSocket API costs 2 REST weight and one connection attempt per IP', () => {
    const ws = getWebSocketSpec('binance');
    const r = resolveConnect(ws, getVenueSpec('binance'), 'ws-api', { credential: null });
    if (!r.ok) throw new Error(r.error.message);
    const checks = byAxis(r.checks);
    expect(checks['request_weight']?.cost).toBe(2);
    expect(checks['request_weight']?.limit).toEqual(
      byAxis(restChecks('binance-spot', { method: 'GET', path: '/api/v3/ping' }, { credential: null }))['request_weight']?.limit,
    );
    expect(checks['ws:connections']?.key).toEqual({ venue: 'binance-spot', credential: null, axis: 'ws:connections' });
  });

  it('OKX order spends the per-instrument and sub-account REST buckets of POST /api/v5/trade/order', () => {
    const order = { instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '0.01', px: '60000' };
    const ws = byAxis(checksOf('okx', 'private', { id: '1', op: 'order', args: [order] }));
    const rest = byAxis(restChecks('okx', { method: 'POST', path: '/api/v5/trade/order', body: order }));
    expect(Object.keys(ws).sort()).toEqual(Object.keys(rest).sort());
    expect(ws['trade/order:BTC-USDT']).toEqual(rest['trade/order:BTC-USDT']);
  });

  it('an OKX batch of one order spends the single-order limit, as on REST', () => {
    const order = { instId: 'ETH-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '1', px: '3000' };
    expect(Object.keys(byAxis(checksOf('okx', 'private', { id: '2', op: 'batch-orders', args: [order] })))).toContain('trade/order:ETH-USDT');
  });

  it('an OKX order that names no instId is refused as a missing parameter, never priced at a guess', () => {
    const ws = getWebSocketSpec('okx');
    const r = resolveMessage(
      ws,
      getVenueSpec('okx'),
      'private',
      classifyMessage(endpoint('okx', 'private'), { id: '3', op: 'order', args: [{ instIdCode: 123, side: 'buy' }] }),
      key,
      { connectionId: 'c' },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('missing_parameter');
  });

  it('Bybit order.create spends the account REST limit but not the HTTP IP limit, plus the trade IP limit', () => {
    const order = { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.001', price: '60000' };
    const ws = byAxis(checksOf('bybit', 'trade', { reqId: 'a', op: 'order.create', args: [order] }));
    const rest = byAxis(restChecks('bybit', { method: 'POST', path: '/v5/order/create', body: order }));
    expect(ws['order/create']).toEqual(rest['order/create']);
    expect(ws['ip']).toBeUndefined();
    expect(ws['ws:trade-requests']?.key.credential).toBeNull();
  });
});

describe('WebSocket buckets', () => {
  it('Binance stream messages are per connection: the connection id is part of the key', () => {
    const a = byAxis(checksOf('binance', 'market-streams', { method: 'SUBSCRIBE', params: ['btcusdt@trade'], id: 1 }, key, 'A'));
    expect(a['ws:stream-messages:A']?.key).toEqual({ venue: 'binance-spot', credential: null, axis: 'ws:stream-messages:A' });
  });

  it('a per-connection bucket without a connection id is an error', () => {
    const ws = getWebSocketSpec('binance');
    const r = resolveMessage(ws, getVenueSpec('binance'), 'market-streams', { kind: 'other' }, key);
    expect(r.ok).toBe(false);
  });

  it('Binance 5 messages per second: a burst of 1 and a steady 3.62/s, so at most 4 messages reach any second', () => {
    const c = byAxis(checksOf('binance', 'market-streams', 'x'))['ws:stream-messages:conn-1'];
    const limit = c?.limit as { capacity: number; refillPerSec: number };
    expect(limit.capacity).toBe(1);
    expect(limit.capacity + limit.refillPerSec * 1.05).toBeCloseTo(4.8, 9);
  });

  it('keeping room for unseen pong frames lowers a per-connection bucket (one pong per 20 s server ping)', () => {
    const ws = getWebSocketSpec('binance');
    const m = classifyMessage(endpoint('binance', 'market-streams'), 'x');
    const seen = resolveMessage(ws, getVenueSpec('binance'), 'market-streams', m, key, { connectionId: 'c' });
    const unseen = resolveMessage(ws, getVenueSpec('binance'), 'market-streams', m, key, { connectionId: 'c', unseenPongs: true });
    if (!seen.ok || !unseen.ok) throw new Error('unresolved');
    const a = seen.checks[0]?.limit as { refillPerSec: number };
    const b = unseen.checks[0]?.limit as { refillPerSec: number };
    // 4 of 5 usable: (4·0.96 − 1) / 1.05 per second.
    expect(b.refillPerSec).toBeCloseTo((4 * 0.96 - 1) / 1.05, 9);
    expect(b.refillPerSec).toBeLessThan(a.refillPerSec);
  });

  it('OKX counts subscribe, unsubscribe and login on the 480 per hour connection bucket, not a ping', () => {
    expect(Object.keys(byAxis(checksOf('okx', 'public', { op: 'subscribe', args: [{ channel: 'tickers', instId: 'BTC-USDT' }] })))).toEqual([
      'ws:control-requests:conn-1',
    ]);
    expect(checksOf('okx', 'public', 'ping')).toEqual([]);
  });

  it('a private endpoint refuses an identity without a credential', () => {
    const r = resolveConnect(getWebSocketSpec('okx'), getVenueSpec('okx'), 'private', { credential: null });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('credential_required');
  });

  it('an unknown endpoint is unknown_ws_endpoint', () => {
    const r = resolveConnect(getWebSocketSpec('okx'), getVenueSpec('okx'), 'nope', key);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('unknown_ws_endpoint');
  });
});

describe('classifyMessage', () => {
  it('reads Binance SUBSCRIBE topics from params', () => {
    const m = classifyMessage(endpoint('binance', 'market-streams'), { method: 'SUBSCRIBE', params: ['btcusdt@trade', 'ethusdt@trade'], id: 1 });
    expect(m.kind).toBe('subscribe');
    expect(m.topics).toEqual(['btcusdt@trade', 'ethusdt@trade']);
  });

  it('reads OKX topic objects as stable text (key order does not matter)', () => {
    const a = classifyMessage(endpoint('okx', 'public'), { op: 'subscribe', args: [{ channel: 'tickers', instId: 'BTC-USDT' }] });
    const b = classifyMessage(endpoint('okx', 'public'), JSON.stringify({ op: 'subscribe', args: [{ instId: 'BTC-USDT', channel: 'tickers' }] }));
    expect(a.topics).toEqual(b.topics);
  });

  it('knows OKX text ping and a WebSocket API request by its operation', () => {
    expect(classifyMessage(endpoint('okx', 'public'), 'ping').kind).toBe('ping');
    expect(classifyMessage(endpoint('binance', 'ws-api'), { id: 1, method: 'order.place', params: {} }).kind).toBe('request');
    expect(classifyMessage(endpoint('binance', 'ws-api'), { id: 1, method: 'no.such.method' }).kind).toBe('other');
  });

  it('counts bytes as sent (UTF-8)', () => {
    expect(classifyMessage(endpoint('okx', 'public'), 'é').bytes).toBe(2);
  });

  it('reads KuCoin topics, one per symbol after the colon', () => {
    expect(
      classifyMessage(endpoint('kucoin', 'public'), { id: 1, type: 'subscribe', topic: '/market/ticker:BTC-USDT,ETH-USDT', response: true }).topics,
    ).toEqual(['/market/ticker:BTC-USDT', '/market/ticker:ETH-USDT']);
  });

  it('prefixes Kraken topics with their channel (one symbol on two channels is two topics)', () => {
    const e = endpoint('kraken', 'public');
    const a = classifyMessage(e, { method: 'subscribe', params: { channel: 'ticker', symbol: ['BTC/USD'] } }).topics;
    const b = classifyMessage(e, { method: 'subscribe', params: { channel: 'book', symbol: ['BTC/USD'] } }).topics;
    expect(a).toEqual(['ticker|BTC/USD']);
    expect(a).not.toEqual(b);
  });
});

describe('operations that cannot share a REST key are refused, never paced apart', () => {
  it('a Kraken add_order (pair named symbol) is refused as a missing parameter', () => {
    const r = resolveMessage(
      getWebSocketSpec('kraken'),
      getVenueSpec('kraken'),
      'private',
      classifyMessage(endpoint('kraken', 'private'), { method: 'add_order', params: { order_type: 'limit', side: 'buy', symbol: 'BTC/USD' } }),
      key,
      { connectionId: 'c' },
    );
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.code).toBe('missing_parameter');
  });
});
