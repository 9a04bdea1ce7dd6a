import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { getVenueSpec } from '@core/exchange-specs';
import { startVenueEmulator, type VenueEmulator } from '../src/index.js';
import { ManualEpochClock } from './manual-epoch-clock.js';

let venue: VenueEmulator | undefined;
const sockets: WebSocket[] = [];
afterEach(async () => {
  for (const s of sockets.splice(0)) s.terminate();
  await venue?.close();
  venue = undefined;
});

/** Opens a raw connection; resolves with it, or with the HTTP status that refused the upgrade. */
function connect(url: string): Promise<{ socket: WebSocket; messages: string[]; closed: Promise<number> } | { status: number }> {
  return new Promise((resolve) => {
    const socket = new WebSocket(url);
    sockets.push(socket);
    const messages: string[] = [];
    const closed = new Promise<number>((r) => socket.on('close', (code) => r(code)));
    socket.on('message', (d) => messages.push(String(d)));
    socket.on('open', () => resolve({ socket, messages, closed }));
    socket.on('unexpected-response', (_req, res) => {
      res.resume();
      resolve({ status: res.statusCode ?? 0 });
    });
    socket.on('error', () => undefined);
  });
}

async function open(url: string) {
  const c = await connect(url);
  if ('status' in c) throw new Error(`refused with ${c.status}`);
  return c;
}

async function until(check: () => boolean): Promise<void> {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe("the emulator speaks WebSocket with the venue's limits", () => {
  it('Binance drops a connection that sends a 6th message within a second, and counts the violation', async () => {
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec: getVenueSpec('binance'), clock, webSocket: true });
    const c = await open(`${venue.wsUrl}/market-streams`);
    for (let i = 1; i <= 6; i++) c.socket.send(JSON.stringify({ method: 'LIST_SUBSCRIPTIONS', id: i }));
    expect(await c.closed).toBe(1008);
    const s = venue.stats().webSocket!;
    expect(s.violations).toBe(1);
    expect(s.closedForViolation).toBe(1);
    expect(s.admittedMessages).toBe(5);
  });

  it('Binance refuses the 301st connection attempt of 5 minutes with HTTP 429', async () => {
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec: getVenueSpec('binance'), clock, webSocket: true });
    for (let i = 0; i < 300; i++) {
      const c = await open(`${venue.wsUrl}/market-streams`);
      c.socket.terminate();
      clock.advance(100);
    }
    expect(await connect(`${venue.wsUrl}/ws-api`)).toEqual({ status: 429 });
    expect(venue.stats().webSocket).toMatchObject({ violations: 1, refusedConnections: 1, connectionsOpened: 300 });
  });

  it('OKX answers the 481st subscribe of an hour with error event 60014', async () => {
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec: getVenueSpec('okx'), clock, webSocket: true });
    const c = await open(`${venue.wsUrl}/public`);
    for (let i = 0; i < 481; i++) c.socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'tickers', instId: `C${i}-USDT` }] }));
    await until(() => c.messages.some((m) => m.includes('60014')));
    expect(venue.stats().webSocket?.violations).toBe(1);
  });

  it('a WebSocket API request spends the REST ledger: Binance depth over WebSocket shows in the REST weight header', async () => {
    const clock = new ManualEpochClock(1_700_000_000_000);
    venue = await startVenueEmulator({ spec: getVenueSpec('binance'), clock, webSocket: true });
    const c = await open(`${venue.wsUrl}/ws-api`);
    c.socket.send(JSON.stringify({ id: 1, method: 'depth', params: { symbol: 'BTCUSDT', limit: 1000 } }));
    await until(() => c.messages.length === 1);
    expect(JSON.parse(c.messages[0]!)).toMatchObject({ id: 1, status: 200 });
    const res = await fetch(`${venue.url}/api/v3/depth?symbol=BTCUSDT&limit=100`);
    expect(res.headers.get('x-mbx-used-weight-1m')).toBe('57'); // 2 (connect) + 50 + 5
  });

  it('streams plausible market data for subscribed topics, and refuses Bybit spot subscriptions of 11 topics', async () => {
    venue = await startVenueEmulator({ spec: getVenueSpec('bybit'), webSocket: { pushIntervalMs: 20 } });
    const c = await open(`${venue.wsUrl}/public-spot`);
    c.socket.send(JSON.stringify({ op: 'subscribe', args: ['publicTrade.BTCUSDT'] }));
    await until(() => c.messages.some((m) => m.includes('"topic":"publicTrade.BTCUSDT"')));
    c.socket.send(JSON.stringify({ op: 'subscribe', args: Array.from({ length: 11 }, (_, i) => `publicTrade.C${i}USDT`) }));
    await until(() => c.messages.some((m) => m.includes('"success":false')));
    expect(venue.stats().webSocket?.violations).toBe(1);
  });

  it('an unknown endpoint is refused with 404 and counted as a bad request, not a violation', async () => {
    venue = await startVenueEmulator({ spec: getVenueSpec('okx'), webSocket: true });
    expect(await connect(`${venue.wsUrl}/nope`)).toEqual({ status: 404 });
    expect(venue.stats().webSocket).toMatchObject({ violations: 0, badRequests: 1 });
  });
});
