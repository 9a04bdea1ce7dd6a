import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/** One message a test server received. */
export interface Received {
  readonly connection: number;
  readonly data: string;
  /** The test's clock when it arrived. */
  readonly at: number;
}

/** A loopback WebSocket server that records what it receives (a stand-in venue for the client's tests). */
export interface TestServer {
  readonly url: string;
  readonly port: number;
  readonly sockets: WebSocket[];
  readonly received: Received[];
  readonly pongs: number[];
  /** Connection attempts that reached the server. */
  attempts: number;
  close(): Promise<void>;
}

export async function startTestServer(now: () => number = () => Date.now()): Promise<TestServer> {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const { port } = wss.address() as AddressInfo;
  const server: TestServer = {
    url: `ws://127.0.0.1:${port}`,
    port,
    sockets: [],
    received: [],
    pongs: [],
    attempts: 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of wss.clients) s.terminate();
        wss.close(() => resolve());
      }),
  };
  wss.on('connection', (socket) => {
    const index = server.sockets.length;
    server.attempts += 1;
    server.sockets.push(socket);
    socket.on('message', (data) => server.received.push({ connection: index, data: String(data), at: now() }));
    socket.on('pong', () => server.pongs.push(index));
  });
  return server;
}

/** Waits (real time, polling) until `check` holds; fails after `ms`. */
export async function eventually(check: () => boolean, ms = 5_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Lets sockets and promises run for a moment of real time. */
export function pause(ms = 50): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}
