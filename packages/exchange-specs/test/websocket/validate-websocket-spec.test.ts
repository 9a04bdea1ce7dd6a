import { describe, expect, it } from 'vitest';
import { getVenueSpec, getWebSocketSpec, listWebSocketVenues, validateWebSocketSpec, type WebSocketSpec } from '../../src/index.js';

function minimal(): WebSocketSpec {
  const quote = 'There is a limit of 3 connections per second per IP.';
  return {
    id: 'okx',
    venue: 'OKX',
    product: 'test',
    origin: 'hand-authored',
    sources: { s: { url: 'https://example.invalid/docs', retrieved: '2026-12-01' } },
    buckets: [
      { id: 'connections', scope: 'ip', algorithm: 'sliding-window', limit: 3, windowMs: 1000, provenance: { source: 's', confidence: 'documented', quote } },
    ],
    caps: [{ id: 'subs', counts: 'subscriptions', scope: 'connection', limit: 10, provenance: { source: 's', confidence: 'documented', quote } }],
    endpoints: [
      {
        id: 'public',
        url: 'wss://example.invalid/ws',
        auth: 'public',
        connect: { charges: [{ bucket: 'connections', cost: 1 }] },
        messages: [],
        caps: ['subs'],
      },
    ],
    verification: { checked: '2026-12-01', corrections: [], crossChecks: [] },
  };
}

function errorsOf(data: unknown, withRest = false): string[] {
  const r = validateWebSocketSpec(data, withRest ? getVenueSpec('okx') : undefined);
  return r.ok ? [] : r.errors.map((e) => `${e.path}: ${e.message}`);
}

describe('validateWebSocketSpec', () => {
  it('every stored WebSocket spec validates, against its REST spec too', () => {
    expect(listWebSocketVenues().length).toBeGreaterThanOrEqual(4);
    for (const id of listWebSocketVenues()) expect(() => getWebSocketSpec(id)).not.toThrow();
  });

  it('the plain names resolve like the REST specs (binance is binance-spot)', () => {
    expect(getWebSocketSpec('binance').id).toBe('binance-spot');
    expect(getWebSocketSpec('binanceusdm').id).toBe('binance-usdm');
  });

  it('a venue without WebSocket limits is an error naming the venues that have them', () => {
    expect(() => getWebSocketSpec('deribit')).toThrow(/no WebSocket limits for venue "deribit"; venues with WebSocket limits: binance-spot/);
  });

  it('accepts a minimal spec', () => {
    expect(errorsOf(minimal())).toEqual([]);
  });

  it('requires a quote on every provenance', () => {
    const s = minimal();
    const bad = { ...s, buckets: [{ ...s.buckets[0], provenance: { source: 's', confidence: 'documented' } }] };
    expect(errorsOf(bad)).toEqual(['buckets[0].provenance.quote: expected a non-empty string, got nothing']);
  });

  it('requires the verification', () => {
    const { verification: _v, ...rest } = minimal();
    expect(errorsOf(rest)).toContain('verification: a WebSocket spec carries its verification (every number quoted)');
  });

  it('names unknown buckets, caps, scopes and kinds by their path', () => {
    const s = minimal();
    const bad = {
      ...s,
      buckets: [{ ...s.buckets[0], scope: 'planet' }],
      endpoints: [{ ...s.endpoints[0], caps: ['nope'], messages: [{ bucket: 'missing', kinds: ['shout'], cost: 1 }] }],
    };
    expect(errorsOf(bad)).toEqual([
      'buckets[0].scope: expected one of ip | uid | key | subaccount | connection, got "planet"',
      'endpoints[0].messages[0].bucket: unknown bucket "missing"',
      'endpoints[0].messages[0].kinds[0]: expected one of subscribe | unsubscribe | login | request | ping | pong | ping-frame | pong-frame | other, got "shout"',
      'endpoints[0].caps[0]: unknown cap "nope"',
    ]);
  });

  it('refuses a per-message cap that is not per connection, and a connection cap per connection', () => {
    const s = minimal();
    const q = s.caps?.[0]?.provenance;
    const bad = {
      ...s,
      caps: [
        { id: 'a', counts: 'message-bytes', scope: 'ip', limit: 10, provenance: q },
        { id: 'b', counts: 'connections', scope: 'connection', limit: 10, provenance: q },
      ],
      endpoints: [{ ...s.endpoints[0], caps: ['a', 'b'] }],
    };
    expect(errorsOf(bad)).toEqual([
      'caps[0].scope: a message-bytes cap is per message: its scope is "connection"',
      'caps[1].scope: a connection cap counts connections of an IP or an account, not of one connection',
    ]);
  });

  it('refuses a bucket nothing charges, and one that can never admit its cost', () => {
    const s = minimal();
    const unused = { ...s, buckets: [...s.buckets, { ...s.buckets[0], id: 'idle' }] };
    expect(errorsOf(unused)).toEqual(['buckets[1].id: bucket "idle" is charged by no connection or message rule']);
    const heavy = { ...s, endpoints: [{ ...s.endpoints[0], connect: { charges: [{ bucket: 'connections', cost: 4 }] } }] };
    expect(errorsOf(heavy)).toEqual(['buckets[0].id: bucket "connections" can never admit a cost of 4 (at most 3 at once)']);
  });

  it('checks against the REST spec: unknown REST bucket and endpoint, a REST cost above any REST rule', () => {
    const s = minimal();
    const bad = {
      ...s,
      endpoints: [
        {
          ...s.endpoints[0],
          connect: {
            charges: [{ bucket: 'connections', cost: 1 }],
            rest: [
              { restBucket: 'market/books', cost: 5 },
              { restBucket: 'nope', cost: 1 },
            ],
          },
          format: { operationPath: 'op' },
          operations: [{ operation: 'x', endpoint: 'no-such-endpoint', provenance: s.buckets[0]?.provenance }],
        },
      ],
    };
    expect(errorsOf(bad, true)).toEqual([
      'endpoints[0].connect.rest[0]: costs 5 on REST bucket "market/books", more than any REST rule (1): the REST and WebSocket clients would derive different limits for one bucket',
      'endpoints[0].connect.rest[1]: unknown REST bucket "nope" of okx',
      'endpoints[0].operations[0].endpoint: unknown REST endpoint "no-such-endpoint" of okx',
    ]);
  });

  it('refuses an operation that spends nothing and an endpoint with operations but no format', () => {
    const s = minimal();
    const bad = { ...s, endpoints: [{ ...s.endpoints[0], operations: [{ operation: 'x', provenance: s.buckets[0]?.provenance }] }] };
    expect(errorsOf(bad)).toEqual([
      'endpoints[0].operations[0]: expected endpoint or rest: an operation that spends no REST bucket needs no mapping',
      'endpoints[0].format: an endpoint with operations needs a format (where the operation name is)',
    ]);
  });
});
