import { WebSocket as NodeWebSocket } from 'ws';

/**
 * A WHATWG WebSocket constructor (a browser's, Node 22's global `WebSocket`, or `ws`'s, which also
 * has `ping`/`pong` and a `ping` event the client uses to route pongs through its buckets).
 */
export type WebSocketConstructor = new (url: string, protocols?: string | string[]) => WhatwgWebSocketLike;

/** The part of the WHATWG WebSocket interface the client uses. */
export interface WhatwgWebSocketLike {
  readonly readyState: number;
  binaryType?: string;
  send(data: string | Uint8Array): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: never) => void): void;
}

/** Why a connection closed: the close code and reason, and the HTTP status of a refused upgrade when known. */
export interface CloseInfo {
  readonly code: number;
  readonly reason: string;
  /** The HTTP status the server answered the upgrade with (a `ws` socket only), e.g. 429. */
  readonly status?: number;
  /** The error that ended it, if any (unreachable host, refused upgrade...). */
  readonly error?: string;
}

/** One connection as the client drives it, whatever the WebSocket implementation. */
export interface SocketAdapter {
  /** Whether protocol ping/pong frames can be sent and pongs routed through the buckets (`ws` only). */
  readonly controlsFrames: boolean;
  isOpen(): boolean;
  send(data: string | Uint8Array): void;
  ping(data?: Uint8Array): void;
  pong(data?: Uint8Array): void;
  close(code?: number, reason?: string): void;
}

/** What the client hears from a connection. */
export interface SocketEvents {
  onOpen(): void;
  onMessage(data: string | Uint8Array): void;
  onPing(data: Uint8Array): void;
  onClose(info: CloseInfo): void;
}

const OPEN = 1;

function toBytes(data: unknown): Uint8Array | string {
  if (typeof data === 'string') return data;
  if (data instanceof Uint8Array) return data;
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  if (Array.isArray(data)) return Buffer.concat(data as Buffer[]);
  return String(data);
}

/**
 * Opens a connection with `ws` (the default on Node 20): automatic pongs are turned off so every pong
 * goes through the connection's message bucket (Binance counts pong frames as messages).
 */
function openWs(url: string, protocols: string | string[] | undefined, events: SocketEvents): SocketAdapter {
  const socket = new NodeWebSocket(url, protocols, { autoPong: false, handshakeTimeout: 10_000 });
  let status: number | undefined;
  let error: string | undefined;
  let closed = false;
  const finish = (code: number, reason: string): void => {
    if (closed) return;
    closed = true;
    events.onClose({ code, reason, ...(status === undefined ? {} : { status }), ...(error === undefined ? {} : { error }) });
  };
  socket.on('open', () => events.onOpen());
  socket.on('message', (data, isBinary) => {
    const v = toBytes(data);
    events.onMessage(isBinary || typeof v !== 'object' ? v : new TextDecoder().decode(v));
  });
  socket.on('ping', (data: Buffer) => events.onPing(new Uint8Array(data)));
  socket.on('unexpected-response', (_req, res) => {
    status = res.statusCode;
    error = `the server refused the upgrade with HTTP ${res.statusCode}`;
    res.resume();
    socket.terminate();
  });
  socket.on('error', (e: Error) => {
    error ??= e.message;
  });
  socket.on('close', (code: number, reason: Buffer) => finish(code, reason.toString('utf8')));
  return {
    controlsFrames: true,
    isOpen: () => socket.readyState === OPEN,
    send: (data) => socket.send(data),
    ping: (data) => socket.ping(data),
    pong: (data) => socket.pong(data),
    close: (code, reason) => {
      if (socket.readyState === OPEN) socket.close(code, reason);
      else socket.terminate();
    },
  };
}

/** Opens a connection with a WHATWG WebSocket: pongs are automatic and cannot be routed (the buckets keep room for them). */
function openWhatwg(Ctor: WebSocketConstructor, url: string, protocols: string | string[] | undefined, events: SocketEvents): SocketAdapter {
  const socket = protocols === undefined ? new Ctor(url) : new Ctor(url, protocols);
  socket.binaryType = 'arraybuffer';
  let error: string | undefined;
  let closed = false;
  socket.addEventListener('open', () => events.onOpen());
  socket.addEventListener('message', (e: { data: unknown }) => events.onMessage(toBytes(e.data)));
  socket.addEventListener('error', (e: { message?: string; error?: { message?: string } }) => {
    error ??= e.error?.message ?? e.message ?? 'the connection failed';
  });
  socket.addEventListener('close', (e: { code: number; reason: string }) => {
    if (closed) return;
    closed = true;
    events.onClose({ code: e.code, reason: e.reason, ...(error === undefined ? {} : { error }) });
  });
  const unsupported = (): never => {
    throw new Error('a WHATWG WebSocket cannot send ping or pong frames');
  };
  return {
    controlsFrames: false,
    isOpen: () => socket.readyState === OPEN,
    send: (data) => socket.send(data),
    ping: unsupported,
    pong: unsupported,
    close: (code, reason) => {
      try {
        socket.close(code, reason);
      } catch {
        socket.close();
      }
    },
  };
}

/**
 * Opens a connection: with `ws` (its `WebSocket` class, the default) the client controls ping and
 * pong frames; with any other WHATWG constructor (Node 22's global `WebSocket`, a browser's) the
 * runtime answers pings itself.
 */
export function openSocket(Ctor: WebSocketConstructor | undefined, url: string, protocols: string | string[] | undefined, events: SocketEvents): SocketAdapter {
  if (Ctor === undefined || (Ctor as unknown) === NodeWebSocket) return openWs(url, protocols, events);
  return openWhatwg(Ctor, url, protocols, events);
}
