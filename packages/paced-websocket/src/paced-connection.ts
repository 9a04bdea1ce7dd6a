import { randomUUID } from 'node:crypto';
import type { BucketCheck } from '@core/rate-limit-contract';
import { classifyMessage, resolveConnect, resolveMessage, wireForm, type ClassifiedMessage, type OutgoingMessage } from '@core/exchange-specs';
import { sleep } from '@core/paced-fetch';
import { Admission } from './admission.js';
import { reconnectDelay } from './backoff.js';
import { CapBook } from './cap-book.js';
import { openConnection, type Connection } from './connection.js';
import type { PacedWebSocket, PacedWebSocketOptions, SendOptions, WebSocketAttemptEvent } from './options.js';
import { PacedWebSocketError, isPacedWebSocketError, type PacedWebSocketErrorCode } from './paced-websocket-error.js';
import { readSettings, type Settings } from './settings.js';
import type { CloseInfo } from './socket-adapter.js';

/** Error codes worth another connection attempt (the rest would fail again the same way). */
const RETRYABLE: ReadonlySet<PacedWebSocketErrorCode> = new Set<PacedWebSocketErrorCode>([
  'unreachable',
  'rate_limit_timeout',
  'backend_unavailable',
  'connection_cap',
]);

function anySignal(signals: readonly (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length === 1 && present[0] !== undefined ? present[0] : AbortSignal.any(present);
}

/**
 * One client's connection through its life: connect, the send queue, a drop, the reconnects, close.
 * What it waits for is {@link Admission}'s, what it holds against the caps {@link CapBook}'s.
 */
export class PacedConnection implements PacedWebSocket {
  readonly #s: Settings;
  readonly #options: PacedWebSocketOptions;
  readonly #admission: Admission;
  readonly #book: CapBook;
  /** Ends every wait and timer when the client is closed. */
  readonly #closing = new AbortController();
  #conn: Connection | undefined;
  #state: 'open' | 'reconnecting' | 'closed' = 'reconnecting';
  #queue: Promise<void> = Promise.resolve();
  #closedByUser = false;
  #lastError: unknown;
  /** Reconnect attempts since the last connection that stayed open `stableAfterMs` (the backoff's exponent). */
  #backoffStep = 0;

  constructor(options: PacedWebSocketOptions) {
    this.#options = options;
    this.#s = readSettings(options);
    const fail = this.#fail.bind(this);
    this.#admission = new Admission(options.limiter, this.#s.clock, fail);
    this.#book = new CapBook(this.#s.spec, this.#s.caps, options.identity, this.#s.registry, fail);
  }

  get connectionId(): string {
    return this.#conn?.id ?? '';
  }

  get state(): 'open' | 'reconnecting' | 'closed' {
    return this.#state;
  }

  get subscriptions(): ReadonlySet<string> {
    return this.#book.subscriptions;
  }

  #report(event: WebSocketAttemptEvent): void {
    try {
      this.#options.onAttempt?.(event);
    } catch {
      // A reporting callback never breaks the connection.
    }
  }

  #fail(code: PacedWebSocketErrorCode, message: string, retryAfterMs?: number): PacedWebSocketError {
    return new PacedWebSocketError(code, `${this.#s.spec.id} ${this.#s.endpoint.id}: ${message}`, retryAfterMs);
  }

  /** One connection attempt: caps, buckets, then the socket; resolves when open. */
  async #connectOnce(attempt: number, budget: number): Promise<void> {
    const capKeys = this.#book.reserveConnection();
    const id = randomUUID();
    let opened = false;
    try {
      const { spec, rest, endpoint, clock } = this.#s;
      const r = resolveConnect(spec, rest, endpoint.id, this.#options.identity, { ...this.#s.resolveOptions, connectionId: id });
      if (!r.ok) throw this.#fail(r.error.code, r.error.message);
      const started = clock.now();
      let waitedMs = 0;
      let opening: { readonly conn: Promise<Connection> };
      try {
        // (wrapped: the attempt goes out in the admission's tick, and is awaited apart from it)
        opening = await this.#admission.admit(r.checks, budget, this.#closing.signal, 'connection attempt', () => {
          waitedMs = clock.now() - started;
          return { conn: this.#openConnection(id, attempt, r.checks, waitedMs, capKeys) };
        });
      } catch (e) {
        if (this.#closing.signal.aborted) throw this.#fail('closed', 'the client was closed while the connection attempt waited');
        throw e;
      }
      const conn = await opening.conn;
      opened = true;
      if (this.#closing.signal.aborted) {
        conn.socket.close(1000, 'closed');
        throw this.#fail('closed', 'the client was closed while connecting');
      }
      this.#conn = conn;
      this.#state = 'open';
      this.#report({ what: 'connect', connectionId: id, attempt, checks: r.checks, waitedMs, outcome: 'open' });
      this.#options.onOpen?.(id, attempt);
    } finally {
      if (!opened) this.#book.releaseConnection(capKeys);
    }
  }

  #openConnection(id: string, attempt: number, checks: readonly BucketCheck[], waitedMs: number, capKeys: readonly string[]): Promise<Connection> {
    return openConnection({
      id,
      attempt,
      checks,
      waitedMs,
      capKeys,
      url: this.#options.url ?? this.#s.endpoint.url,
      options: this.#options,
      clock: this.#s.clock,
      connectTimeoutMs: this.#s.connectTimeoutMs,
      closing: this.#closing.signal,
      report: (e) => this.#report(e),
      fail: (code, message, retryAfterMs) => this.#fail(code, message, retryAfterMs),
      onPing: (conn, data) => void this.#frame(conn, 'pong-frame', data).catch(() => undefined),
      onDropped: (conn, info) => this.#dropped(conn, info),
    });
  }

  /** The first connection: with reconnects, failed attempts are retried with backoff. */
  async open(): Promise<void> {
    try {
      this.#book.holdInitialTopics(this.#options.topics);
      await this.#connectOnce(0, this.#s.maxWaitMs);
    } catch (e) {
      if (this.#s.reconnect === undefined || (isPacedWebSocketError(e) && !RETRYABLE.has(e.code))) {
        this.#state = 'closed';
        this.#book.releaseSubscriptions();
        throw e;
      }
      await this.#reconnectLoop(e);
      if (this.#state !== 'open') {
        this.#book.releaseSubscriptions();
        throw this.#lastError ?? e;
      }
    }
  }

  /** Reconnects with backoff, each attempt through the connection buckets; ends open or closed. */
  async #reconnectLoop(cause: unknown): Promise<void> {
    const r = this.#s.reconnect ?? {};
    const max = r.maxAttempts ?? 10;
    const random = this.#options.random ?? Math.random;
    this.#lastError = cause;
    for (let n = 0; n < max; n++) {
      if (this.#closing.signal.aborted) break;
      try {
        await sleep(this.#s.clock, reconnectDelay(this.#backoffStep++, r, random), this.#closing.signal);
        await this.#connectOnce(n + 1, r.maxWaitMs ?? 300_000);
      } catch (e) {
        if (this.#closing.signal.aborted) break;
        this.#lastError = e;
        if (isPacedWebSocketError(e) && !RETRYABLE.has(e.code)) break;
        continue;
      }
      if (r.resubscribe !== false) await this.#resubscribe();
      return;
    }
    this.#state = 'closed';
    if (!this.#closing.signal.aborted) {
      const why = this.#lastError instanceof Error ? this.#lastError.message : String(this.#lastError);
      this.#lastError = this.#fail('unreachable', `gave up after ${max} reconnect attempt(s): ${why}`);
    }
  }

  /** The server (or the network) ended a connection: abort its waits, then reconnect or close. */
  #dropped(conn: Connection, info: CloseInfo): void {
    conn.abort.abort(
      this.#fail(
        this.#closedByUser ? 'closed' : 'connection_closed',
        `the connection closed (${info.code}${info.reason === '' ? '' : ` ${info.reason}`}) before the message went out`,
      ),
    );
    this.#book.releaseConnection(conn.capKeys);
    if (this.#conn !== conn) return;
    const willReconnect = !this.#closedByUser && this.#s.reconnect !== undefined;
    this.#state = willReconnect ? 'reconnecting' : 'closed';
    try {
      this.#options.onClose?.({ ...info, willReconnect });
    } catch {
      // A callback never breaks the connection.
    }
    if (!willReconnect) {
      this.#book.releaseSubscriptions();
      return;
    }
    // A connection that stayed up resets the backoff; one that drops at once keeps it growing.
    if (this.#s.clock.now() - conn.openedAt >= (this.#s.reconnect?.stableAfterMs ?? 30_000)) this.#backoffStep = 0;
    void this.#reconnectLoop(new Error(`dropped (${info.code})`)).then(() => {
      if (this.#state === 'closed') this.#book.releaseSubscriptions();
    });
  }

  /** Re-sends the subscribe messages whose topics are still subscribed. */
  async #resubscribe(): Promise<void> {
    for (const s of this.#book.resendable()) {
      if (s.topics.size === 0) continue;
      try {
        await this.#transmitClassified(classifyMessage(this.#s.endpoint, s.message), s.message, undefined);
      } catch {
        return;
      }
    }
  }

  #usable(): Connection {
    if (this.#state === 'closed' || this.#closing.signal.aborted) throw this.#fail('closed', 'the client is closed');
    const conn = this.#conn;
    if (this.#state !== 'open' || conn === undefined || !conn.socket.isOpen())
      throw this.#fail('connection_closed', 'the connection is not open (the server dropped it; a reconnect may be under way)');
    return conn;
  }

  /** Queues `task` behind the connection's earlier messages (one at a time, in order). */
  #enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.then(
      () => undefined,
      () => undefined,
    );
    return run;
  }

  /** Admits and sends one classified message on the current connection, in queue order. */
  #transmitClassified(m: ClassifiedMessage, message: OutgoingMessage, signal: AbortSignal | undefined): Promise<void> {
    const conn = this.#usable();
    this.#book.checkMessage(m);
    const { spec, rest, endpoint } = this.#s;
    const r = resolveMessage(spec, rest, endpoint.id, m, this.#options.identity, {
      ...this.#s.resolveOptions,
      connectionId: conn.id,
      unseenPongs: !conn.socket.controlsFrames,
    });
    if (!r.ok) throw this.#fail(r.error.code, `${m.kind}${m.operation === undefined ? '' : ` ${m.operation}`} not sent: ${r.error.message}`);
    const wire = wireForm(message);
    return this.#enqueue(() => this.#deliver(conn, r.checks, m, signal, () => conn.socket.send(wire)));
  }

  async #deliver(
    conn: Connection,
    checks: readonly BucketCheck[],
    m: { readonly kind: ClassifiedMessage['kind']; readonly operation?: string | undefined; readonly bytes: number },
    signal: AbortSignal | undefined,
    put: () => void,
  ): Promise<void> {
    const waitSignal = anySignal([conn.abort.signal, this.#closing.signal, signal]);
    const started = this.#s.clock.now();
    let closedAtSend: PacedWebSocketError | undefined;
    try {
      if (conn.abort.signal.aborted || !conn.socket.isOpen())
        throw conn.abort.signal.reason ?? this.#fail('connection_closed', 'the connection closed before the message went out');
      await this.#admission.admit(checks, this.#s.maxWaitMs, waitSignal, `${m.kind}${m.operation === undefined ? '' : ` ${m.operation}`}`, () => {
        // Charged at its send time; a connection that closed meanwhile leaves it unsent (spent, never over).
        if (!conn.socket.isOpen()) throw (closedAtSend = this.#fail('connection_closed', 'the connection closed before the message went out'));
        put();
      });
    } catch (e) {
      if (e === closedAtSend) throw e;
      if (this.#closing.signal.aborted) throw this.#fail('closed', 'the client was closed before the message went out');
      if (conn.abort.signal.aborted)
        throw isPacedWebSocketError(conn.abort.signal.reason)
          ? conn.abort.signal.reason
          : this.#fail('connection_closed', 'the connection closed before the message went out');
      if (signal?.aborted === true) throw this.#fail('aborted', 'the caller aborted the wait; the message was not sent');
      throw e;
    }
    this.#report({
      what: 'message',
      connectionId: conn.id,
      kind: m.kind,
      ...(m.operation === undefined ? {} : { operation: m.operation }),
      bytes: m.bytes,
      checks,
      waitedMs: this.#s.clock.now() - started,
      outcome: 'sent',
    });
  }

  /** A protocol frame through the buckets (`ws` only). */
  #frame(conn: Connection, kind: 'ping-frame' | 'pong-frame', data: Uint8Array | undefined): Promise<void> {
    const { spec, rest, endpoint } = this.#s;
    const r = resolveMessage(spec, rest, endpoint.id, { kind }, this.#options.identity, { ...this.#s.resolveOptions, connectionId: conn.id });
    if (!r.ok) return Promise.reject(this.#fail(r.error.code, r.error.message));
    return this.#enqueue(() =>
      this.#deliver(conn, r.checks, { kind, bytes: data?.byteLength ?? 0 }, undefined, () =>
        kind === 'ping-frame' ? conn.socket.ping(data) : conn.socket.pong(data),
      ),
    );
  }

  async send(message: OutgoingMessage, options: SendOptions = {}): Promise<void> {
    this.#usable();
    const classified = classifyMessage(this.#s.endpoint, message);
    const m: ClassifiedMessage = options.kind === undefined ? classified : { ...classified, kind: options.kind };
    const fresh = m.kind === 'subscribe' ? this.#book.fresh(m.topics) : [];
    this.#book.checkMessage(m);
    const undo = this.#book.reserveSubscriptions(fresh);
    try {
      await this.#transmitClassified(m, message, options.signal);
    } catch (e) {
      undo();
      throw e;
    }
    if (m.kind === 'subscribe' && m.topics.length > 0) this.#book.subscribed(message, fresh, m.topics);
    if (m.kind === 'unsubscribe') this.#book.forget(m.topics);
  }

  async ping(options: Pick<SendOptions, 'signal'> = {}): Promise<void> {
    const conn = this.#usable();
    if (!conn.socket.controlsFrames)
      throw this.#fail('not_supported', "this WebSocket implementation cannot send ping frames (use ws, or the venue's own ping message)");
    if (options.signal?.aborted === true) throw this.#fail('aborted', 'the caller aborted the wait');
    await this.#frame(conn, 'ping-frame', undefined);
  }

  async close(code = 1000, reason = ''): Promise<void> {
    if (this.#closedByUser) return;
    this.#closedByUser = true;
    this.#closing.abort(this.#fail('closed', 'the client was closed'));
    const conn = this.#conn;
    this.#state = 'closed';
    if (conn !== undefined) {
      conn.abort.abort(this.#fail('closed', 'the client was closed before the message went out'));
      conn.socket.close(code, reason);
    }
    this.#book.releaseSubscriptions();
    await this.#queue;
  }
}
