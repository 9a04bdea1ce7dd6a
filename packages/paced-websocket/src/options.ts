import type { BucketCheck, Clock, RateLimiter } from '@core/rate-limit-contract';
import type { Identity, MessageKind, OutgoingMessage, WebSocketSpec } from '@core/exchange-specs';
import type { BackoffOptions } from './backoff.js';
import type { CapRegistry } from './cap-registry.js';
import type { CloseInfo, WebSocketConstructor } from './socket-adapter.js';

/** Reconnects after the server drops the connection (or the first attempts fail). */
export interface ReconnectOptions extends BackoffOptions {
  /** Attempts before giving up; default 10. */
  readonly maxAttempts?: number;
  /** The budget of each reconnect's wait for the connection buckets, ms; default 300 000 (Binance's whole 5-minute window). */
  readonly maxWaitMs?: number;
  /** A connection that stays open this long resets the backoff, ms; default 30 000. */
  readonly stableAfterMs?: number;
  /** Send the subscribe messages again after a reconnect (through the message buckets); default true. */
  readonly resubscribe?: boolean;
}

/** One connection attempt or message that went out, reported to {@link PacedWebSocketOptions.onAttempt}. */
export interface WebSocketAttemptEvent {
  /** `connect`: a connection attempt; `message`: a message or frame sent. */
  readonly what: 'connect' | 'message';
  /** The connection's id (the axis suffix of its per-connection buckets). */
  readonly connectionId: string;
  /** For connects: 0 for the first, 1 for the first reconnect... */
  readonly attempt?: number;
  /** For messages: its kind and operation. */
  readonly kind?: MessageKind;
  readonly operation?: string;
  readonly bytes?: number;
  /** The checks the admission charged (each attempt is admitted and charged on its own). */
  readonly checks: readonly BucketCheck[];
  /** How long it waited for its send time, ms. */
  readonly waitedMs: number;
  /** `sent` (a message), `open` or `failed` (a connection attempt). */
  readonly outcome: 'sent' | 'open' | 'failed';
  /** Why a connection attempt failed. */
  readonly error?: string;
}

/** Options of {@link openPacedWebSocket}. */
export interface PacedWebSocketOptions {
  /** The venue: a WebSocket spec, or a name for `getWebSocketSpec` (`binance`, `okx`, `bybit`, ...). */
  readonly venue: WebSocketSpec | string;
  /** The endpoint's id in the spec (`market-streams`, `ws-api`, `public`, `private`, `trade`...). */
  readonly endpoint: string;
  /** The URL to connect to; default the endpoint's documented URL. */
  readonly url?: string;
  /** The credential (null for public connections), and optionally the account's tier and uid. */
  readonly identity: Identity;
  /** Any implementation of the contract: in-process, Redis (shared with other processes), a third party's. */
  readonly limiter: RateLimiter;
  /** A WHATWG WebSocket constructor; default `ws` (which lets pongs go through the buckets). */
  readonly WebSocket?: WebSocketConstructor;
  readonly protocols?: string | string[];
  /** Topics the URL itself subscribes (a combined-stream URL): counted against the caps from the start. */
  readonly topics?: readonly string[];
  /** Each wait's budget (the first connection, every message), ms; default 10 000. */
  readonly maxWaitMs?: number;
  /** How long an opening connection may take, ms; default 10 000. */
  readonly connectTimeoutMs?: number;
  /** Reconnects; `false` for none. Default `{ maxAttempts: 10 }`. */
  readonly reconnect?: ReconnectOptions | false;
  /** The fraction of each documented limit kept unused (exchange-specs' `margin`); default 0.04. Use the same value as the venue's REST clients. */
  readonly margin?: number;
  /** exchange-specs' `burstFraction`; default 0.02. */
  readonly burstFraction?: number;
  /** exchange-specs' `jitterMs`; default 50. */
  readonly jitterMs?: number;
  /** How late the venue may count a connection attempt after its send time (the handshakes), ms; default 1 000. */
  readonly connectJitterMs?: number;
  /** The clock of the send-time guard, the backoff and the timeouts; default the system clock. */
  readonly clock?: Clock;
  /** Random numbers in [0, 1) for the backoff's jitter; default `Math.random`. */
  readonly random?: () => number;
  /** Where open connections and subscriptions are counted against the caps; default one registry per process. */
  readonly caps?: CapRegistry;
  /**
   * Gives up opening: aborting it while the first connection waits (for the connection buckets, a
   * reconnect's backoff, the handshake) rejects `openPacedWebSocket` with `aborted`, its bookings
   * given back and no connection left open. Once open, it has no effect: `close()` ends the connection.
   */
  readonly signal?: AbortSignal;
  /** Called with every message the server sends. */
  readonly onMessage?: (data: string | Uint8Array) => void;
  /** Called when a connection opens (the first, and after each reconnect). */
  readonly onOpen?: (connectionId: string, attempt: number) => void;
  /** Called when a connection closes, with whether a reconnect follows. */
  readonly onClose?: (info: CloseInfo & { readonly willReconnect: boolean }) => void;
  /** Called after every connection attempt and every message sent (exceptions it throws are ignored). */
  readonly onAttempt?: (event: WebSocketAttemptEvent) => void;
}

/** Options of one {@link PacedWebSocket.send}. */
export interface SendOptions {
  /** The message's kind when the venue's format cannot tell (default: classified by the spec's format). */
  readonly kind?: MessageKind;
  /** Gives up the wait; the booking is returned when nothing was charged after it (RL-W5). */
  readonly signal?: AbortSignal;
}

/** A paced WebSocket: one connection at a time to one venue endpoint, for one identity. */
export interface PacedWebSocket {
  /** The current connection's id (a new one after each reconnect). */
  readonly connectionId: string;
  /** `open`, `reconnecting` (the server dropped it; a reconnect is under way) or `closed`. */
  readonly state: 'open' | 'reconnecting' | 'closed';
  /** The topics subscribed now (as the venue's format names them). */
  readonly subscriptions: ReadonlySet<string>;
  /**
   * Sends a message (text, bytes, or a value sent as JSON) once its buckets admit it: the
   * connection's message buckets, and for a WebSocket API request the REST buckets of its REST
   * equivalent. Messages of one connection go out in the order they were given. A subscribe message
   * counts its topics against the caps first and is refused beyond them.
   *
   * @throws PacedWebSocketError (never sent) — see its codes.
   */
  send(message: OutgoingMessage, options?: SendOptions): Promise<void>;
  /** Sends a protocol ping frame through the buckets (`ws` sockets only; else `not_supported`). */
  ping(options?: Pick<SendOptions, 'signal'>): Promise<void>;
  /** Closes the connection: pending waits are aborted (their bookings given back), pending sends reject with `closed`. */
  close(code?: number, reason?: string): Promise<void>;
}
