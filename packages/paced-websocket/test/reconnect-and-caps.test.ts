import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import { CapRegistry, openPacedWebSocket, reconnectDelay, type PacedWebSocket, type WebSocketAttemptEvent } from '../src/index.js';
import { eventually, pause, startTestServer } from './test-server.js';

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f().catch(() => undefined);
});

async function setup() {
  const clock = new ManualClock(1_000_000);
  const limiter = createDefaultRateLimiter({ clock });
  const server = await startTestServer(() => clock.now());
  cleanup.push(
    () => limiter.close(),
    () => server.close(),
  );
  return { clock, limiter, server };
}

describe('reconnects go through the connection bucket with backoff', () => {
  it('after a drop: a backoff, then the connection bucket, then the subscriptions again through the message bucket', async () => {
    const { clock, limiter, server } = await setup();
    const events: WebSocketAttemptEvent[] = [];
    const closes: boolean[] = [];
    const ws = await openPacedWebSocket({
      venue: 'binance',
      endpoint: 'market-streams',
      url: server.url,
      identity: { credential: null },
      limiter,
      clock,
      caps: new CapRegistry(),
      reconnect: { initialDelayMs: 1_000, jitter: 0 },
      random: () => 0,
      onAttempt: (e) => events.push(e),
      onClose: (i) => closes.push(i.willReconnect),
    });
    cleanup.push(() => ws.close());
    await ws.send({ method: 'SUBSCRIBE', params: ['btcusdt@trade'], id: 1 });
    await eventually(() => server.received.length === 1);
    server.sockets[0]!.close(1001, 'going away');
    await eventually(() => ws.state === 'reconnecting');
    expect(closes).toEqual([true]);
    await expect(ws.send('x')).rejects.toMatchObject({ code: 'connection_closed' });
    await clock.advance(999);
    await pause();
    expect(server.attempts).toBe(1);
    await clock.advance(1);
    await eventually(() => server.attempts === 2);
    await eventually(() => ws.state === 'open');
    // The subscription goes out again on the new connection (its own per-connection bucket).
    for (let i = 0; i < 20 && server.received.filter((r) => r.connection === 1).length === 0; i++) await clock.advance(100);
    await eventually(() => server.received.some((r) => r.connection === 1));
    expect(JSON.parse(server.received.find((r) => r.connection === 1)!.data)).toMatchObject({ method: 'SUBSCRIBE', params: ['btcusdt@trade'] });
    expect(events.filter((e) => e.what === 'connect').map((e) => [e.attempt, e.outcome])).toEqual([
      [0, 'open'],
      [1, 'open'],
    ]);
    expect(ws.subscriptions).toEqual(new Set(['btcusdt@trade']));
  });

  it('the backoff grows by its factor up to its maximum, less its jitter', () => {
    const o = { initialDelayMs: 100, maxDelayMs: 1_000, factor: 2, jitter: 0.5 };
    expect([0, 1, 2, 3, 4, 5].map((n) => reconnectDelay(n, o, () => 0))).toEqual([100, 200, 400, 800, 1000, 1000]);
    expect(reconnectDelay(1, o, () => 0.999)).toBeCloseTo(100.1, 6);
  });

  it('a reconnect that cannot have the connection bucket waits for it: drops faster than the bucket refills never make more attempts than it allows', async () => {
    const { clock, limiter, server } = await setup();
    const events: WebSocketAttemptEvent[] = [];
    const ws = await openPacedWebSocket({
      venue: 'okx',
      endpoint: 'public',
      url: server.url,
      identity: { credential: null },
      limiter,
      clock,
      caps: new CapRegistry(),
      reconnect: { initialDelayMs: 1, maxDelayMs: 1, jitter: 0, stableAfterMs: 1e9 },
      onAttempt: (e) => events.push(e),
    });
    cleanup.push(() => ws.close());
    const limit = events[0]!.checks[0]!.limit as { capacity: number; refillPerSec: number };
    for (let k = 0; k < 6; k++) {
      await eventually(() => server.sockets.length === k + 1 && ws.state === 'open');
      server.sockets[k]!.close(1001, 'flap');
      await eventually(() => ws.state === 'reconnecting');
      for (let i = 0; i < 100 && server.attempts < k + 2; i++) await clock.advance(50);
    }
    await eventually(() => server.attempts === 7);
    await eventually(() => ws.state === 'open');
    const opens = events.filter((e) => e.what === 'connect' && e.outcome === 'open').length;
    expect(opens).toBe(7);
    // 6 reconnects after the first attempt: at the bucket's refill, never faster.
    const elapsedSec = (clock.now() - 1_000_000) / 1000;
    expect(opens).toBeLessThanOrEqual(limit.capacity + limit.refillPerSec * elapsedSec + 1e-9);
  });
});

describe('caps across connections', () => {
  it('Hyperliquid: 1000 subscriptions per IP over every connection; the registry refuses the 1001st on another connection', async () => {
    const { clock, limiter, server } = await setup();
    const caps = new CapRegistry();
    const open = async (): Promise<PacedWebSocket> => {
      const ws = await openPacedWebSocket({
        venue: 'hyperliquid',
        endpoint: 'public',
        url: server.url,
        identity: { credential: null },
        limiter,
        clock,
        caps,
        reconnect: false,
      });
      cleanup.push(() => ws.close());
      return ws;
    };
    // The first connection's URL already holds 1000 topics (they count from the start).
    const a = await openPacedWebSocket({
      venue: 'hyperliquid',
      endpoint: 'public',
      url: server.url,
      identity: { credential: null },
      limiter,
      clock,
      caps,
      reconnect: false,
      topics: Array.from({ length: 1000 }, (_, i) => `t${i}`),
    });
    cleanup.push(() => a.close());
    await clock.advance(10_000);
    const b = await open();
    await expect(b.send({ method: 'subscribe', subscription: { type: 'trades', coin: 'ONE-MORE' } })).rejects.toMatchObject({ code: 'subscription_cap' });
    await a.close();
    await b.send({ method: 'subscribe', subscription: { type: 'trades', coin: 'ONE-MORE' } });
    expect(b.subscriptions.size).toBe(1);
  });

  it('a registry with a share of the caps (one process of four) allows that share: Hyperliquid 10 connections per IP, 2 per process', async () => {
    const { clock, limiter, server } = await setup();
    const caps = new CapRegistry({ share: 0.25 });
    const open = () =>
      openPacedWebSocket({ venue: 'hyperliquid', endpoint: 'public', url: server.url, identity: { credential: null }, limiter, clock, caps, reconnect: false });
    const a = await open();
    cleanup.push(() => a.close());
    await clock.advance(10_000);
    const b = await open();
    cleanup.push(() => b.close());
    await clock.advance(10_000);
    await expect(open()).rejects.toMatchObject({ code: 'connection_cap' });
    expect(() => new CapRegistry({ share: 0 })).toThrow(RangeError);
  });
});

describe('a WebSocket API connection behind a busy connection bucket does not book the REST weight ahead', () => {
  it('Binance: while the connection bucket holds an attempt back, its 2 weight is not on the REST bucket yet', async () => {
    const { clock, limiter, server } = await setup();
    const weight = { venue: 'binance-spot', credential: null, axis: 'request_weight' };
    const connections = { venue: 'binance-spot', credential: null, axis: 'ws:connections' };
    const opened: PacedWebSocket[] = [];
    const open = () =>
      openPacedWebSocket({
        venue: 'binance',
        endpoint: 'market-streams',
        url: server.url,
        identity: { credential: null },
        limiter,
        clock,
        caps: new CapRegistry(),
        reconnect: false,
        maxWaitMs: 60_000,
      });
    // Market-stream connections spend the whole burst of the shared connection bucket.
    for (;;) {
      const p = await limiter.peek([{ key: connections, limit: { capacity: 5.76, refillPerSec: 1 }, cost: 1 }]);
      if (p.kind === 'delay') break;
      opened.push(await open());
    }
    for (const w of opened) cleanup.push(() => w.close());
    const events: WebSocketAttemptEvent[] = [];
    const api = openPacedWebSocket({
      venue: 'binance',
      endpoint: 'ws-api',
      url: server.url,
      identity: { credential: null },
      limiter,
      clock,
      caps: new CapRegistry(),
      reconnect: false,
      maxWaitMs: 60_000,
      onAttempt: (e) => events.push(e),
    });
    await pause();
    expect(await limiter.borrowed(weight)).toBe(0);
    for (let i = 0; i < 100 && server.attempts === opened.length; i++) await clock.advance(100);
    const ws = await api;
    cleanup.push(() => ws.close());
    // Charged once the connection bucket admitted it, together with the attempt.
    expect(events[0]?.checks.find((c) => c.key.axis === 'request_weight')?.cost).toBe(2);
  });
});
