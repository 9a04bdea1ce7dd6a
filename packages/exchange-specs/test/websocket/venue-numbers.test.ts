import { describe, expect, it } from 'vitest';
import { getWebSocketSpec, type WebSocketBucketSpec, type WebSocketCapSpec } from '../../src/index.js';

/** The documented numbers, pinned: a change to any of them must be deliberate. */
function bucket(venue: string, id: string): WebSocketBucketSpec {
  const b = getWebSocketSpec(venue).buckets.find((x) => x.id === id);
  if (b === undefined) throw new Error(`${venue}: no bucket ${id}`);
  return b;
}

function cap(venue: string, id: string): WebSocketCapSpec {
  const c = getWebSocketSpec(venue).caps?.find((x) => x.id === id);
  if (c === undefined) throw new Error(`${venue}: no cap ${id}`);
  return c;
}

const window = (b: WebSocketBucketSpec) => (b.algorithm === 'token-bucket' ? undefined : { limit: b.limit, windowMs: b.windowMs, scope: b.scope });

describe('documented WebSocket numbers', () => {
  it('Binance spot: 300 connections per 5 min per IP (streams and WebSocket API), 5 messages/s per connection, 1024 streams', () => {
    expect(window(bucket('binance-spot', 'connections'))).toEqual({ limit: 300, windowMs: 300_000, scope: 'ip' });
    expect(window(bucket('binance-spot', 'stream-messages'))).toEqual({ limit: 5, windowMs: 1000, scope: 'connection' });
    expect(cap('binance-spot', 'streams-per-connection').limit).toBe(1024);
    const api = getWebSocketSpec('binance-spot').endpoints.find((e) => e.id === 'ws-api');
    expect(api?.connect.rest).toEqual([expect.objectContaining({ restBucket: 'request_weight', cost: 2 })]);
    expect(api?.connect.charges.map((c) => c.bucket)).toEqual(['connections']);
  });

  it('Binance USD-M: 10 messages/s per connection, 200 streams', () => {
    expect(window(bucket('binance-usdm', 'stream-messages'))).toEqual({ limit: 10, windowMs: 1000, scope: 'connection' });
    expect(cap('binance-usdm', 'streams-per-connection').limit).toBe(200);
  });

  it('OKX: 3 connections/s per IP, 480 subscribe/unsubscribe/login per hour per connection', () => {
    expect(window(bucket('okx', 'connections'))).toEqual({ limit: 3, windowMs: 1000, scope: 'ip' });
    expect(window(bucket('okx', 'control-requests'))).toEqual({ limit: 480, windowMs: 3_600_000, scope: 'connection' });
  });

  it('Bybit: 500 connections per 5 min per IP, 3000 order-entry requests/s per IP, 1000 market connections per product', () => {
    expect(window(bucket('bybit', 'connections'))).toEqual({ limit: 500, windowMs: 300_000, scope: 'ip' });
    expect(window(bucket('bybit', 'trade-requests'))).toEqual({ limit: 3000, windowMs: 1000, scope: 'ip' });
    expect(cap('bybit', 'market-connections-linear')).toMatchObject({ counts: 'connections', scope: 'ip', limit: 1000 });
    expect(cap('bybit', 'spot-args-per-request')).toMatchObject({ counts: 'topics-per-message', limit: 10 });
  });

  it('KuCoin: 30 connections per minute, 100 messages per 10 s (both per IP, the safe reading), 800 connections per user, 100 topics per message, 400 per connection', () => {
    expect(window(bucket('kucoin', 'connections'))).toEqual({ limit: 30, windowMs: 60_000, scope: 'ip' });
    expect(window(bucket('kucoin', 'messages'))).toEqual({ limit: 100, windowMs: 10_000, scope: 'ip' });
    expect(cap('kucoin', 'connections-per-user')).toMatchObject({ counts: 'connections', scope: 'uid', limit: 800 });
    expect(cap('kucoin', 'topics-per-message').limit).toBe(100);
    expect(cap('kucoin', 'topics-per-connection').limit).toBe(400);
  });

  it('Kraken: "approximately 150" connection attempts per 10 minutes per IP, kept at 140', () => {
    expect(window(bucket('kraken', 'connections'))).toEqual({ limit: 140, windowMs: 600_000, scope: 'ip' });
    expect(bucket('kraken', 'connections').provenance.confidence).toBe('uncertain');
  });

  it('Hyperliquid: 2000 messages per minute and 1000 subscriptions per IP; 10 connections and 30 new per minute (uncertain, the smaller copies)', () => {
    expect(window(bucket('hyperliquid', 'messages'))).toEqual({ limit: 2000, windowMs: 60_000, scope: 'ip' });
    expect(window(bucket('hyperliquid', 'new-connections'))).toEqual({ limit: 30, windowMs: 60_000, scope: 'ip' });
    expect(cap('hyperliquid', 'subscriptions')).toMatchObject({ scope: 'ip', limit: 1000 });
    expect(cap('hyperliquid', 'connections')).toMatchObject({ scope: 'ip', limit: 10 });
  });

  it("Gate: only the maintainer's recommended 100 connections per host", () => {
    expect(getWebSocketSpec('gate').buckets).toEqual([]);
    expect(cap('gate', 'connections')).toMatchObject({ scope: 'ip', limit: 100 });
    expect(cap('gate', 'connections').provenance.confidence).toBe('observed');
  });

  it('Bitget: 300 connection requests per 5 min and 100 open per IP; 10 messages/s, 240 subscribe requests/h and 1000 channels per connection', () => {
    expect(window(bucket('bitget', 'connections'))).toEqual({ limit: 300, windowMs: 300_000, scope: 'ip' });
    expect(window(bucket('bitget', 'messages'))).toEqual({ limit: 10, windowMs: 1000, scope: 'connection' });
    expect(window(bucket('bitget', 'subscribe-requests'))).toEqual({ limit: 240, windowMs: 3_600_000, scope: 'connection' });
    expect(cap('bitget', 'connections').limit).toBe(100);
    expect(cap('bitget', 'channels-per-connection').limit).toBe(1000);
  });
});
