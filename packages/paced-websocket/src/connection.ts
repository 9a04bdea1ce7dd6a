import type { BucketCheck, Clock } from '@core/rate-limit-contract';
import type { Fail } from './admission.js';
import type { PacedWebSocketOptions, WebSocketAttemptEvent } from './options.js';
import { openSocket, type CloseInfo, type SocketAdapter } from './socket-adapter.js';

/** One connection: its socket, its id, what it reserved, and the signal that ends its waits. */
export interface Connection {
  readonly id: string;
  readonly socket: SocketAdapter;
  readonly abort: AbortController;
  readonly openedAt: number;
  /** Registry keys of the connection caps it holds. */
  readonly capKeys: readonly string[];
}

/** One admitted connection attempt, and what its client does with what the connection hears. */
export interface ConnectionAttempt {
  readonly id: string;
  readonly attempt: number;
  readonly checks: readonly BucketCheck[];
  readonly waitedMs: number;
  readonly capKeys: readonly string[];
  readonly url: string;
  readonly options: Pick<PacedWebSocketOptions, 'WebSocket' | 'protocols' | 'onMessage'>;
  readonly clock: Clock;
  readonly connectTimeoutMs: number;
  /** The client's closing signal: a client closed meanwhile closes the socket at once. */
  readonly closing: AbortSignal;
  readonly report: (event: WebSocketAttemptEvent) => void;
  readonly fail: Fail;
  /** A server ping on the open connection (to answer with a paced pong). */
  readonly onPing: (conn: Connection, data: Uint8Array | undefined) => void;
  /** The open connection closed. */
  readonly onDropped: (conn: Connection, info: CloseInfo) => void;
}

/**
 * Opens the socket of an admitted connection attempt: resolves when open, rejects `unreachable` when
 * it closes first or does not answer within `connectTimeoutMs` (each failure reported).
 */
export function openConnection(a: ConnectionAttempt): Promise<Connection> {
  const abort = new AbortController();
  let conn: Connection | undefined;
  return new Promise<Connection>((resolve, reject) => {
    let settled = false;
    const failed = (error: string): void =>
      a.report({ what: 'connect', connectionId: a.id, attempt: a.attempt, checks: a.checks, waitedMs: a.waitedMs, outcome: 'failed', error });
    const timer = a.clock.setTimer(() => {
      if (settled) return;
      settled = true;
      socket.close(1000, 'connect timeout');
      failed(`no answer in ${a.connectTimeoutMs} ms`);
      reject(a.fail('unreachable', `${a.url}: no answer in ${a.connectTimeoutMs} ms`));
    }, a.connectTimeoutMs);
    timer.unref?.();
    const socket = openSocket(a.options.WebSocket, a.url, a.options.protocols, {
      onOpen: () => {
        if (settled) return;
        settled = true;
        timer.cancel();
        conn = { id: a.id, socket, abort, openedAt: a.clock.now(), capKeys: a.capKeys };
        resolve(conn);
      },
      onMessage: (data) => a.options.onMessage?.(data),
      onPing: (data) => {
        if (conn !== undefined) a.onPing(conn, data);
      },
      onClose: (info) => {
        if (!settled) {
          settled = true;
          timer.cancel();
          failed(info.error ?? `closed ${info.code} ${info.reason}`);
          reject(a.fail('unreachable', `${a.url}: ${info.error ?? `closed with ${info.code} before opening`}`));
          return;
        }
        if (conn !== undefined) a.onDropped(conn, info);
      },
    });
    if (a.closing.aborted) socket.close(1000, 'closed');
  });
}
