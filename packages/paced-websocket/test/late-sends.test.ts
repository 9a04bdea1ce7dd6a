import { afterEach, describe, expect, it } from 'vitest';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { classifyMessage, getVenueSpec, getWebSocketSpec, resolveMessage } from '@core/exchange-specs';
import { ManualClock } from '@core/rate-limit-conformance';
import type { BucketCheck, RateLimiter } from '@core/rate-limit-contract';
import { CapRegistry, openPacedWebSocket } from '../src/index.js';
import { pause, startTestServer, type TestServer } from './test-server.js';

/*
 * Bybit's order entry: every order.create spends the account's REST limit of POST /v5/order/create,
 * 10 per rolling second, which the client enforces as a window limit with 100 ms of jitter allowance.
 */
const VENUE_LIMIT = 10;
const WINDOW_MS = 1000;
const ORDER = {
  reqId: '1',
  op: 'order.create',
  args: [{ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.001', price: '60000' }],
};
const IDENTITY = { credential: 'key-1' };

const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f().catch(() => undefined);
});

/** The order's check on the account's order/create window limit. */
function orderWindow(): BucketCheck {
  const ws = getWebSocketSpec('bybit');
  const endpoint = ws.endpoints.find((e) => e.id === 'trade');
  if (endpoint === undefined) throw new Error('bybit has no trade endpoint');
  const r = resolveMessage(ws, getVenueSpec('bybit'), 'trade', classifyMessage(endpoint, ORDER), IDENTITY, { windowLimits: true, connectionId: 'any' });
  const check = r.ok ? r.checks.find((c) => c.key.axis === 'order/create') : undefined;
  if (check === undefined || check.limit === null || !('perWindow' in check.limit)) throw new Error('no order/create window limit');
  return check;
}

/** The most arrivals any rolling window of the venue holds. */
function busiestWindow(arrivals: readonly number[]): number {
  return Math.max(...arrivals.map((t) => arrivals.filter((u) => u >= t && u < t + WINDOW_MS).length));
}

/** A limiter whose next `times` answers of `waitForCapacity` come only after `stall` ran: what a busy event loop does between the store's answer and the send. */
function stallingLimiter(inner: RateLimiter): { limiter: RateLimiter; stallNext(stall: () => Promise<void>, times?: number): void } {
  let next: (() => Promise<void>) | undefined;
  let left = 0;
  const limiter = new Proxy(inner, {
    get(target, prop, receiver) {
      if (prop === 'waitForCapacity') {
        return async (...args: Parameters<RateLimiter['waitForCapacity']>) => {
          const d = await target.waitForCapacity(...args);
          const stall = left > 0 ? next : undefined;
          left -= 1;
          await stall?.();
          return d;
        };
      }
      const v: unknown = Reflect.get(target, prop, receiver);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return {
    limiter,
    stallNext: (stall, times = 1) => {
      next = stall;
      left = times;
    },
  };
}

async function setup(limiterOf: (inner: RateLimiter) => RateLimiter = (l) => l) {
  const clock = new ManualClock(1_000_000);
  const inner = createDefaultRateLimiter({ clock });
  const server = await startTestServer(() => clock.now());
  cleanup.push(
    () => inner.close(),
    () => server.close(),
  );
  const ws = await openPacedWebSocket({
    venue: 'bybit',
    endpoint: 'trade',
    url: server.url,
    identity: IDENTITY,
    limiter: limiterOf(inner),
    clock,
    reconnect: false,
    caps: new CapRegistry(),
  });
  cleanup.push(() => ws.close());
  return { clock, inner, server, ws };
}

/** Advances the clock in steps until the server holds `n` messages. */
async function until(clock: ManualClock, server: TestServer, n: number): Promise<void> {
  for (let i = 0; i < 100 && server.received.length < n; i++) {
    await clock.advance(25);
    await pause(2);
  }
  expect(server.received.length).toBe(n);
}

describe('a message that goes out late never lands in a window the venue has filled', () => {
  it('sent 300 ms after its admitted time (a stalled event loop), it books its windows again at its real time', async () => {
    const w = orderWindow();
    const arrivals: number[] = [];
    let stalling: ReturnType<typeof stallingLimiter> | undefined;
    const { clock, inner, server, ws } = await setup((l) => (stalling = stallingLimiter(l)).limiter);
    const t0 = clock.now();
    // While the order's admission for t0 is on its way back, the account's REST orders fill its window:
    // 9 sent at t0 + 150 (with the order at t0 they make 10), and a 10th booked for when t0 leaves the window.
    stalling?.stallNext(async () => {
      await clock.advance(150);
      for (let i = 0; i < VENUE_LIMIT - 1; i++) {
        expect((await inner.checkRate(w.key, w.limit, 1)).kind).toBe('ok');
        arrivals.push(clock.now());
      }
      const tenth = await inner.checkRate(w.key, w.limit, 1, { maxWaitMs: 5_000 });
      if (tenth.kind !== 'booked') throw new Error(`the 10th REST order was not booked: ${tenth.kind}`);
      arrivals.push(tenth.sendAtMs);
      await clock.advance(150);
    });
    const sent = ws.send(ORDER);
    await until(clock, server, 1);
    await sent;
    const at = server.received[0]?.at ?? Number.NaN;
    expect(at).toBeGreaterThanOrEqual(t0 + 300);
    // Sent at t0 + 300 it would join the 9 and the 10th in one second at the venue: 11.
    expect(busiestWindow([...arrivals, at])).toBeLessThanOrEqual(VENUE_LIMIT);
  });

  it('booked behind a full window that late sends overfilled while it waited, it books those windows again', async () => {
    const w = orderWindow();
    const { clock, inner, server, ws } = await setup();
    const t0 = clock.now();
    // The account's REST orders fill the window at t0; the WebSocket order is booked for when they leave it.
    for (let i = 0; i < VENUE_LIMIT; i++) expect((await inner.checkRate(w.key, w.limit, 1)).kind).toBe('ok');
    const sent = ws.send(ORDER);
    await pause(20);
    // They went out 500 ms late (a stalled event loop) and reached the venue then: counted again at t0 + 500.
    await clock.advance(500);
    for (let i = 0; i < VENUE_LIMIT; i++) inner.record(w.key, 1, w.limit);
    const arrivals = Array.from({ length: VENUE_LIMIT }, () => t0 + 500);
    await until(clock, server, 1);
    await sent;
    // Sent at its booking (about t0 + 1100) it would be the 11th in one second at the venue.
    expect(busiestWindow([...arrivals, server.received[0]?.at ?? Number.NaN])).toBeLessThanOrEqual(VENUE_LIMIT);
  });

  it('late again every time it books again, it is not sent at all', async () => {
    let stalling: ReturnType<typeof stallingLimiter> | undefined;
    const { clock, server, ws } = await setup((l) => (stalling = stallingLimiter(l)).limiter);
    stalling?.stallNext(() => clock.advance(300), Number.POSITIVE_INFINITY);
    await expect(ws.send(ORDER)).rejects.toMatchObject({ code: 'rate_limit_timeout' });
    await pause(20);
    expect(server.received).toHaveLength(0);
  });
});
