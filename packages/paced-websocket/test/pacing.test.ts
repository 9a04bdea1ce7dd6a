import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket as WsWebSocket } from 'ws';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createPacedFetch } from '@core/paced-fetch';
import { CapRegistry, openPacedWebSocket, type PacedWebSocket, type WebSocketAttemptEvent, type WhatwgWebSocketLike } from '../src/index.js';
import { eventually, pause, startTestServer, type TestServer } from './test-server.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f().catch(() => undefined);
});

async function setup(startMs = 1_000_000) {
  const clock = new ManualClock(startMs);
  const limiter = createDefaultRateLimiter({ clock });
  const server = await startTestServer(() => clock.now());
  cleanup.push(
    () => limiter.close(),
    () => server.close(),
  );
  return { clock, limiter, server };
}

async function open(
  server: TestServer,
  limiter: RateLimiter,
  clock: ManualClock,
  venue: string,
  endpoint: string,
  extra: Partial<Parameters<typeof openPacedWebSocket>[0]> = {},
) {
  const events: WebSocketAttemptEvent[] = [];
  const ws = await openPacedWebSocket({
    venue,
    endpoint,
    url: server.url,
    identity: { credential: 'key-1' },
    limiter,
    clock,
    reconnect: false,
    caps: new CapRegistry(),
    onAttempt: (e) => events.push(e),
    ...extra,
  });
  cleanup.push(() => ws.close());
  return { ws, events };
}

describe('opening waits for the connection bucket', () => {
  it('OKX (3 connection attempts per second per IP): the second attempt is held until the bucket refills', async () => {
    const { clock, limiter, server } = await setup();
    await open(server, limiter, clock, 'okx', 'public');
    expect(server.attempts).toBe(1);
    let second: PacedWebSocket | undefined;
    const pending = open(server, limiter, clock, 'okx', 'public').then((r) => (second = r.ws));
    await pause();
    expect(server.attempts).toBe(1);
    expect(second).toBeUndefined();
    // capacity 1, refill (3·0.96 − 1) / (1 + 1) per s: the handshake may delay an attempt up to 1 s (connectJitterMs).
    await clock.advance(1000 / ((3 * 0.96 - 1) / 2) - 5);
    await pause();
    expect(second).toBeUndefined();
    await clock.advance(10);
    await pending;
    expect(server.attempts).toBe(2);
  });
});

describe('the caller can give up opening', () => {
  it('aborting `signal` while the first connection waits for the connection bucket rejects with aborted, gives the booking back and opens nothing', async () => {
    const { clock, limiter, server } = await setup();
    const { events } = await open(server, limiter, clock, 'okx', 'public');
    const key = events[0]!.checks[0]!.key;
    const stop = new AbortController();
    const pending = openPacedWebSocket({
      venue: 'okx',
      endpoint: 'public',
      url: server.url,
      identity: { credential: 'key-1' },
      limiter,
      clock,
      caps: new CapRegistry(),
      reconnect: { maxAttempts: 5 },
      signal: stop.signal,
    });
    await pause();
    const before = (await limiter.borrowed(key)) as number;
    stop.abort();
    await expect(pending).rejects.toMatchObject({ code: 'aborted' });
    expect((await limiter.borrowed(key)) as number).toBeLessThan(before);
    await clock.advance(5_000);
    await pause();
    expect(server.attempts).toBe(1);
  });

  it('a signal aborted before the call opens nothing', async () => {
    const { clock, limiter, server } = await setup();
    await expect(
      openPacedWebSocket({
        venue: 'okx',
        endpoint: 'public',
        url: server.url,
        identity: { credential: null },
        limiter,
        clock,
        caps: new CapRegistry(),
        signal: AbortSignal.abort(),
      }),
    ).rejects.toMatchObject({ code: 'aborted' });
    expect(server.attempts).toBe(0);
  });

  it('once open, aborting the signal leaves the connection open', async () => {
    const { clock, limiter, server } = await setup();
    const stop = new AbortController();
    const { ws } = await open(server, limiter, clock, 'binance', 'market-streams', { signal: stop.signal });
    stop.abort();
    await ws.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
    await eventually(() => server.received.length === 1);
    expect(ws.state).toBe('open');
  });
});

describe("every message waits for its connection's message bucket", () => {
  it('Binance streams (5 per second, ping and pong frames included): messages go out in order, never faster than the safe rate', async () => {
    const { clock, limiter, server } = await setup();
    const { ws, events } = await open(server, limiter, clock, 'binance', 'market-streams');
    const sends = [1, 2, 3].map((id) => ws.send({ method: 'LIST_SUBSCRIPTIONS', id }));
    await eventually(() => server.received.length === 1);
    await pause();
    expect(server.received.length).toBe(1);
    const limit = events.find((e) => e.what === 'message')?.checks[0]?.limit as { capacity: number; refillPerSec: number };
    expect(limit.capacity).toBe(1);
    for (let i = 0; i < 40 && server.received.length < 3; i++) await clock.advance(50);
    await Promise.all(sends);
    expect(server.received.map((r) => JSON.parse(r.data).id)).toEqual([1, 2, 3]);
    const spacing = 1000 / limit.refillPerSec;
    expect(server.received[1]!.at - server.received[0]!.at).toBeGreaterThanOrEqual(spacing - 1e-6);
    expect(server.received[2]!.at - server.received[1]!.at).toBeGreaterThanOrEqual(spacing - 1e-6);
  });

  it('a server ping is answered with a pong through the same bucket (ws): the pong is a message the venue counts', async () => {
    const { clock, limiter, server } = await setup();
    const { events } = await open(server, limiter, clock, 'binance', 'market-streams');
    server.sockets[0]!.ping();
    await eventually(() => server.pongs.length === 1);
    expect(events.filter((e) => e.kind === 'pong-frame')).toHaveLength(1);
    expect(events.find((e) => e.kind === 'pong-frame')?.checks[0]?.key.axis).toMatch(/^ws:stream-messages:/);
  });
});

describe('a WebSocket API request spends the REST buckets, shared with REST traffic of the same limiter', () => {
  it('Binance: connecting costs 2 weight, depth limit=1000 costs 50, and a REST depth adds to the same bucket', async () => {
    const { clock, limiter, server } = await setup();
    const weight = { venue: 'binance-spot', credential: null, axis: 'request_weight' };
    const { ws } = await open(server, limiter, clock, 'binance', 'ws-api');
    expect(await limiter.borrowed(weight)).toBeCloseTo(2, 6);
    await ws.send({ id: 1, method: 'depth', params: { symbol: 'BTCUSDT', limit: 1000 } });
    expect(await limiter.borrowed(weight)).toBeCloseTo(52, 6);
    const rest = createPacedFetch({
      venue: 'binance-spot',
      identity: { credential: null },
      limiter,
      clock,
      fetch: async () => new Response('{}', { status: 200 }),
    });
    await rest('https://api.binance.com/api/v3/depth?symbol=BTCUSDT&limit=100');
    expect(await limiter.borrowed(weight)).toBeCloseTo(57, 6);
  });

  it('an order that cannot be priced is refused before anything is sent', async () => {
    const { clock, limiter, server } = await setup();
    const { ws } = await open(server, limiter, clock, 'okx', 'private');
    await expect(ws.send({ id: '1', op: 'order', args: [{ instIdCode: 1, side: 'buy' }] })).rejects.toMatchObject({ code: 'missing_parameter' });
    await pause();
    expect(server.received).toHaveLength(0);
  });
});

describe('caps and sizes', () => {
  it('Binance: 1024 streams per connection; the 1025th is refused with subscription_cap and not sent', async () => {
    const { clock, limiter, server } = await setup();
    const { ws } = await open(server, limiter, clock, 'binance', 'market-streams');
    const streams = Array.from({ length: 1024 }, (_, i) => `s${i}@trade`);
    await ws.send({ method: 'SUBSCRIBE', params: streams, id: 1 });
    expect(ws.subscriptions.size).toBe(1024);
    await clock.advance(1_000);
    await expect(ws.send({ method: 'SUBSCRIBE', params: ['one-more@trade'], id: 2 })).rejects.toMatchObject({ code: 'subscription_cap' });
    await ws.send({ method: 'UNSUBSCRIBE', params: ['s0@trade'], id: 3 });
    await clock.advance(1_000);
    await ws.send({ method: 'SUBSCRIBE', params: ['one-more@trade'], id: 4 });
    await eventually(() => server.received.length === 3);
    expect(server.received.map((r) => JSON.parse(r.data).id)).toEqual([1, 3, 4]);
  });

  it('the topics of the URL count from the start (a combined-stream URL)', async () => {
    const { clock, limiter, server } = await setup();
    const { ws } = await open(server, limiter, clock, 'binance-usdm', 'market-streams', { topics: Array.from({ length: 200 }, (_, i) => `t${i}@aggTrade`) });
    await expect(ws.send({ method: 'SUBSCRIBE', params: ['x@aggTrade'], id: 1 })).rejects.toMatchObject({ code: 'subscription_cap' });
  });

  it('OKX: a subscribe message over 64,000 bytes is message_too_large; Bybit spot: 11 topics in one message is too_many_topics', async () => {
    const { clock, limiter, server } = await setup();
    const okx = (await open(server, limiter, clock, 'okx', 'public')).ws;
    const args = Array.from({ length: 1200 }, (_, i) => ({ channel: 'tickers', instId: `COIN${i}-USDT-${'X'.repeat(20)}` }));
    await expect(okx.send({ op: 'subscribe', args })).rejects.toMatchObject({ code: 'message_too_large' });
    const bybit = (await open(server, limiter, clock, 'bybit', 'public-spot')).ws;
    await expect(bybit.send({ op: 'subscribe', args: Array.from({ length: 11 }, (_, i) => `publicTrade.C${i}USDT`) })).rejects.toMatchObject({
      code: 'too_many_topics',
    });
    await pause();
    expect(server.received).toHaveLength(0);
    expect(okx.subscriptions.size).toBe(0);
  });
});

describe('faults: the server closes mid-wait, the client closes, the server is unreachable', () => {
  it('a message waiting for the bucket when the server closes rejects with connection_closed and gives its booking back', async () => {
    const { clock, limiter, server } = await setup();
    const { ws, events } = await open(server, limiter, clock, 'binance', 'market-streams');
    await ws.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
    const key = events.find((e) => e.what === 'message')!.checks[0]!.key;
    const waiting = ws.send({ method: 'LIST_SUBSCRIPTIONS', id: 2 });
    await pause();
    const before = await limiter.borrowed(key);
    server.sockets[0]!.close(1000, 'bye');
    await expect(waiting).rejects.toMatchObject({ code: 'connection_closed' });
    expect(await limiter.borrowed(key)).toBeLessThan(before as number);
    expect(ws.state).toBe('closed');
    await expect(ws.send('x')).rejects.toMatchObject({ code: 'closed' });
  });

  it('close() aborts pending waits (their bookings given back) and rejects the sends with closed', async () => {
    const { clock, limiter, server } = await setup();
    const { ws, events } = await open(server, limiter, clock, 'binance', 'market-streams');
    await ws.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
    const key = events.find((e) => e.what === 'message')!.checks[0]!.key;
    const pending = [2, 3].map((id) => ws.send({ method: 'LIST_SUBSCRIPTIONS', id }));
    await pause();
    const before = (await limiter.borrowed(key)) as number;
    await ws.close();
    for (const p of pending) await expect(p).rejects.toMatchObject({ code: 'closed' });
    expect((await limiter.borrowed(key)) as number).toBeLessThan(before);
    expect(server.received).toHaveLength(1);
  });

  it('an unreachable server is unreachable, every attempt recorded; with reconnects it gives up after maxAttempts', async () => {
    const { limiter } = await setup();
    const dead = await startTestServer();
    const url = dead.url;
    await dead.close();
    const events: WebSocketAttemptEvent[] = [];
    await expect(
      openPacedWebSocket({
        venue: 'okx',
        endpoint: 'public',
        url,
        identity: { credential: null },
        limiter: createDefaultRateLimiter(),
        reconnect: false,
        caps: new CapRegistry(),
        onAttempt: (e) => events.push(e),
      }),
    ).rejects.toMatchObject({ code: 'unreachable' });
    expect(events.map((e) => e.outcome)).toEqual(['failed']);
    events.length = 0;
    const real = createDefaultRateLimiter();
    cleanup.push(() => real.close());
    await expect(
      openPacedWebSocket({
        venue: 'okx',
        endpoint: 'public',
        url,
        identity: { credential: null },
        limiter: real,
        reconnect: { maxAttempts: 2, initialDelayMs: 5 },
        caps: new CapRegistry(),
        onAttempt: (e) => events.push(e),
      }),
    ).rejects.toMatchObject({ code: 'unreachable' });
    expect(events.map((e) => [e.attempt, e.outcome])).toEqual([
      [0, 'failed'],
      [1, 'failed'],
      [2, 'failed'],
    ]);
    void limiter;
  });
});

/** A WHATWG-only view of a `ws` socket: no ping/pong methods, like Node 22's global WebSocket or a browser's. */
class WhatwgOnly implements WhatwgWebSocketLike {
  readonly #s: WsWebSocket;
  constructor(url: string) {
    this.#s = new WsWebSocket(url);
  }
  get readyState(): number {
    return this.#s.readyState;
  }
  set binaryType(v: string) {
    this.#s.binaryType = v as 'arraybuffer';
  }
  send(data: string | Uint8Array): void {
    this.#s.send(data);
  }
  close(code?: number, reason?: string): void {
    this.#s.close(code, reason);
  }
  addEventListener(type: string, listener: (event: never) => void): void {
    this.#s.addEventListener(type as 'open', listener as () => void);
  }
}

describe('a WHATWG WebSocket (pongs it cannot route)', () => {
  it("works, keeps room for the server's pongs in the connection bucket, and cannot send ping frames", async () => {
    const { clock, limiter, server } = await setup();
    const whatwg = await open(server, limiter, clock, 'binance', 'market-streams', { WebSocket: WhatwgOnly });
    const ws = await open(server, limiter, clock, 'binance', 'market-streams');
    await whatwg.ws.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
    await ws.ws.send({ method: 'LIST_SUBSCRIPTIONS', id: 1 });
    const lim = (e: WebSocketAttemptEvent[]) => e.find((x) => x.what === 'message')!.checks[0]!.limit as { refillPerSec: number };
    expect(lim(whatwg.events).refillPerSec).toBeLessThan(lim(ws.events).refillPerSec);
    await expect(whatwg.ws.ping()).rejects.toMatchObject({ code: 'not_supported' });
    await eventually(() => server.received.length === 2);
  });
});
