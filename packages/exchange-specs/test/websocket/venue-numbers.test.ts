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
});
