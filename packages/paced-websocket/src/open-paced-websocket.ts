/*
 * Over 400 lines with a reason: the connection's life (connect, send queue, drop, reconnect, close)
 * is one state machine whose transitions read best side by side.
 */
import { randomUUID } from 'node:crypto';
import type { BucketCheck, Clock, Decision, RateLimiter } from '@core/rate-limit-contract';
import {
  classifyMessage,
  getVenueSpec,
  getWebSocketSpec,
  resolveConnect,
  lateBuckets,
  resolveMessage,
  wireForm,
  type ClassifiedMessage,
  type Identity,
  type OutgoingMessage,
  type VenueSpec,
  type WebSocketCapSpec,
  type WebSocketEndpointSpec,
  type WebSocketResolveOptions,
  type WebSocketSpec,
} from '@core/exchange-specs';
import { abortReason, createTurns, sleep, systemClock, waitUntilClear } from '@core/paced-fetch';
import { checkBackoff, reconnectDelay } from './backoff.js';
import { processCapRegistry, type CapRegistry } from './cap-registry.js';
import type { PacedWebSocket, PacedWebSocketOptions, ReconnectOptions, SendOptions, WebSocketAttemptEvent } from './options.js';
import { PacedWebSocketError, isPacedWebSocketError, type PacedWebSocketErrorCode } from './paced-websocket-error.js';
import { openSocket, type CloseInfo, type SocketAdapter } from './socket-adapter.js';

const DEFAULT_MAX_WAIT_MS = 10_000;
/** A wait for capacity longer than this (ms, this client's clock) waited for a booking, not for a store's answer. */
const WAITED_MS = 5;
/** How many times in a row a send whose time passed before it could go books its windows again before it gives up. */
const MAX_LATE_REBOOKINGS = 3;
/** The turns of waiters that spend both WebSocket and REST buckets, per set of WebSocket buckets (see `#waitForWebSocketBuckets`). */
const turns = createTurns();

/** One connection: its socket, its id, what it reserved, and the signal that ends its waits. */
interface Connection {
  readonly id: string;
  readonly socket: SocketAdapter;
  readonly abort: AbortController;
  readonly openedAt: number;
  /** Registry keys of the connection caps it holds. */
  readonly capKeys: readonly string[];
}

/** A subscribe message sent, and the topics it still stands for (re-sent after a reconnect). */
interface SentSubscription {
  readonly message: OutgoingMessage;
  readonly topics: Set<string>;
}

/**
 * The window limits among `checks` that a send `lateMs` after its admitted time may reach the venue too
 * late for: more than half their jitter allowance (the other half is for the way to the venue), and
 * more than a store's answer takes (no admission is more precise: with no allowance, every send would
 * be late).
 */
function lateWindows(checks: readonly BucketCheck[], lateMs: number): BucketCheck[] {
  if (!(lateMs > WAITED_MS)) return [];
  return lateBuckets(checks)
    .filter((b) => lateMs > b.jitterMs / 2)
    .map((b) => ({ key: b.key, limit: b.limit, cost: b.cost }));
}

function positive(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`paced websocket: ${name} must be a positive finite number, got ${String(v)}`);
  return v;
}

function resolveSpec(venue: WebSocketSpec | string): WebSocketSpec {
  if (typeof venue !== 'string') return venue;
  try {
    return getWebSocketSpec(venue);
  } catch (e) {
    throw new PacedWebSocketError('unknown_venue', (e as Error).message);
  }
}

function anySignal(signals: readonly (AbortSignal | undefined)[]): AbortSignal {
  const present = signals.filter((s): s is AbortSignal => s !== undefined);
  return present.length === 1 && present[0] !== undefined ? present[0] : AbortSignal.any(present);
}

/** The registry key of a cap for an identity, or `undefined` for per-connection caps. */
function capKey(spec: WebSocketSpec, cap: WebSocketCapSpec, identity: Identity): string | undefined {
  switch (cap.scope) {
    case 'connection':
      return undefined;
    case 'ip':
      return `${spec.id}\u0000${cap.id}\u0000ip`;
    case 'uid':
      return `${spec.id}\u0000${cap.id}\u0000${identity.uid ?? identity.credential ?? 'public'}`;
    case 'key':
    case 'subaccount':
      return `${spec.id}\u0000${cap.id}\u0000${identity.credential ?? 'public'}`;
  }
}

class PacedConnection implements PacedWebSocket {
  readonly #spec: WebSocketSpec;
  readonly #rest: VenueSpec;
  readonly #endpoint: WebSocketEndpointSpec;
  readonly #options: PacedWebSocketOptions;
  readonly #limiter: RateLimiter;
  readonly #clock: Clock;
  readonly #registry: CapRegistry;
  readonly #maxWaitMs: number;
  readonly #connectTimeoutMs: number;
  readonly #reconnect: ReconnectOptions | undefined;
  readonly #resolveOptions: WebSocketResolveOptions;
  readonly #caps: readonly WebSocketCapSpec[];
  /** Ends every wait and timer when the client is closed. */
  readonly #closing = new AbortController();
  readonly #subscriptions = new Set<string>();
  readonly #sent: SentSubscription[] = [];
  /** Registry keys and counts of the subscriptions held in IP or account caps. */
  readonly #heldSubscriptions = new Map<string, number>();
  #conn: Connection | undefined;
  #state: 'open' | 'reconnecting' | 'closed' = 'reconnecting';
  #queue: Promise<void> = Promise.resolve();
  #closedByUser = false;

  constructor(options: PacedWebSocketOptions) {
    this.#options = options;
    this.#spec = resolveSpec(options.venue);
    const endpoint = this.#spec.endpoints.find((e) => e.id === options.endpoint);
    if (endpoint === undefined) {
      throw new PacedWebSocketError(
        'unknown_ws_endpoint',
        `${this.#spec.id}: no WebSocket endpoint "${options.endpoint}" (known: ${this.#spec.endpoints.map((e) => e.id).join(', ')})`,
      );
    }
    this.#endpoint = endpoint;
    this.#rest = getVenueSpec(this.#spec.id);
    this.#limiter = options.limiter;
    this.#clock = options.clock ?? systemClock;
    this.#registry = options.caps ?? processCapRegistry;
    this.#maxWaitMs = positive('maxWaitMs', options.maxWaitMs, DEFAULT_MAX_WAIT_MS);
    this.#connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs, 10_000);
    this.#reconnect = options.reconnect === false ? undefined : (options.reconnect ?? {});
    if (this.#reconnect !== undefined) {
      checkBackoff(this.#reconnect);
      const n = this.#reconnect.maxAttempts;
      if (n !== undefined && !(Number.isInteger(n) && n >= 0))
        throw new RangeError(`paced websocket: reconnect.maxAttempts must be an integer >= 0, got ${String(n)}`);
      positive('reconnect.maxWaitMs', this.#reconnect.maxWaitMs, 1);
      positive('reconnect.stableAfterMs', this.#reconnect.stableAfterMs, 1);
    }
    this.#resolveOptions = {
      ...(options.margin === undefined ? {} : { margin: options.margin }),
      ...(options.burstFraction === undefined ? {} : { burstFraction: options.burstFraction }),
      ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
      ...(options.connectJitterMs === undefined ? {} : { connectJitterMs: options.connectJitterMs }),
      // REST buckets it spends are enforced as the REST clients of the same limiter enforce them
      windowLimits: options.limiter.capabilities.windowLimits === true,
    };
    this.#caps = (endpoint.caps ?? []).flatMap((id) => this.#spec.caps?.filter((c) => c.id === id) ?? []);
  }

  get connectionId(): string {
    return this.#conn?.id ?? '';
  }

  get state(): 'open' | 'reconnecting' | 'closed' {
    return this.#state;
  }

  get subscriptions(): ReadonlySet<string> {
    return this.#subscriptions;
  }

  #report(event: WebSocketAttemptEvent): void {
    try {
      this.#options.onAttempt?.(event);
    } catch {
      // A reporting callback never breaks the connection.
    }
  }

  #fail(code: PacedWebSocketErrorCode, message: string, retryAfterMs?: number): PacedWebSocketError {
    return new PacedWebSocketError(code, `${this.#spec.id} ${this.#endpoint.id}: ${message}`, retryAfterMs);
  }

  /**
   * Waits for `checks` (nothing to wait for when empty), then calls `go` (the send) in the same tick as
   * the last look at the clock, with the send time the limiter admitted (undefined when nothing was
   * checked); throws a typed error when not admitted. Before `go`, two safeguards for window limits:
   * a send that waited for its booking books again the window limits overfilled meanwhile (a send
   * before it counted again since, see `waitUntilClear`); and a send whose time has passed by more
   * than half a window limit's jitter allowance (a timer that fired late, a busy event loop) books
   * those windows again at its real time: sent late, it could land in a later window than the one it
   * was admitted in, beside sends admitted there meanwhile (its first booking stays charged: counted
   * twice, never too little). At most `MAX_LATE_REBOOKINGS` times in a row; then it is not sent.
   */
  async #admit<T>(checks: readonly BucketCheck[], maxWaitMs: number, signal: AbortSignal, what: string, go: (admittedAt: number | undefined) => T): Promise<T> {
    if (checks.length === 0) {
      if (signal.aborted) throw abortReason(signal);
      return go(undefined);
    }
    const started = this.#clock.now();
    const deadline = started + maxWaitMs;
    const release = await this.#waitForWebSocketBuckets(checks, deadline, signal);
    const asked = this.#clock.now();
    const budget = Math.max(1, deadline - asked);
    let d: Decision;
    try {
      d = (await this.#limiter.waitForCapacity(checks, { maxWaitMs: budget, signal })) as Decision;
    } finally {
      release?.();
    }
    if (d.kind === 'error') {
      if (d.error.code === 'aborted') throw abortReason(signal);
      throw this.#fail(d.error.code, `${what} not sent: ${d.error.message}`, d.error.retryAfterMs);
    }
    if (d.kind === 'delay')
      throw this.#fail('rate_limit_timeout', `${what} not sent: it needs ${d.retryAfterMs} ms, beyond the ${budget} ms budget`, d.retryAfterMs);
    // ok means "send now" (RL-W1); a booking where ok was due is waited out: never send early.
    if (d.kind === 'booked') await sleep(this.#clock, asked + d.waitMs - this.#clock.now(), signal);
    const again = (windows: readonly BucketCheck[]): Promise<number> => this.#bookAgain(windows, deadline, signal, what);
    // (waited: longer than a store's answer takes; a send admitted at once cannot have been overtaken)
    let at = d.kind === 'booked' || this.#clock.now() - asked > WAITED_MS ? await waitUntilClear(this.#limiter, checks, d.sendAtMs, again) : d.sendAtMs;
    for (let round = 0; ; round++) {
      const late = lateWindows(checks, this.#clock.now() - at);
      if (late.length === 0) return go(at);
      if (round === MAX_LATE_REBOOKINGS)
        throw this.#fail(
          'rate_limit_timeout',
          `${what} not sent: its send time passed ${MAX_LATE_REBOOKINGS + 1} times in a row before it could go (a busy event loop)`,
        );
      at = await again(late);
    }
  }

  /** Books `windows` again within what is left of the budget and waits for the new send time; answers it. */
  async #bookAgain(windows: readonly BucketCheck[], deadline: number, signal: AbortSignal, what: string): Promise<number> {
    const budget = Math.max(1, deadline - this.#clock.now());
    const r = (await this.#limiter.waitForCapacity(windows, { maxWaitMs: budget, signal })) as Decision;
    if (r.kind === 'error') {
      if (r.error.code === 'aborted') throw abortReason(signal);
      throw this.#fail(r.error.code, `${what} not sent: booked again, ${r.error.message}`, r.error.retryAfterMs);
    }
    if (r.kind === 'delay')
      throw this.#fail('rate_limit_timeout', `${what} not sent: booked again, it needs ${r.retryAfterMs} ms, beyond the ${budget} ms budget`, r.retryAfterMs);
    if (r.sendAtMs > this.#clock.now()) await sleep(this.#clock, r.sendAtMs - this.#clock.now(), signal);
    return r.sendAtMs;
  }

  /**
   * When a connection attempt or a WebSocket API request charges both WebSocket buckets (attempts,
   * messages) and REST buckets (the IP weight, an account's orders), it sleeps without booking while
   * only the WebSocket buckets hold it back, and books only once they would admit it: a booking far in
   * the future (behind a busy connection bucket) would hold the shared REST buckets for every REST
   * request until then (RL-W2). Such waiters of one process take turns per set of WebSocket buckets,
   * so they never overtake one another forever, and at most one of them books ahead at a time.
   */
  async #waitForWebSocketBuckets(checks: readonly BucketCheck[], deadline: number, signal: AbortSignal): Promise<(() => void) | undefined> {
    const ws = checks.filter((c) => c.key.axis?.startsWith('ws:') === true);
    if (ws.length === 0 || ws.length === checks.length) return undefined;
    const rest = checks.filter((c) => c.key.axis?.startsWith('ws:') !== true);
    const release = await turns.join(
      ws
        .map((c) => `${c.key.venue}\u0000${c.key.credential ?? ''}\u0000${c.key.axis ?? ''}`)
        .sort()
        .join('\u0001'),
      signal,
    );
    try {
      for (;;) {
        const p = await this.#limiter.peek(ws);
        if (p.kind !== 'delay') return release;
        const q = await this.#limiter.peek(rest);
        const queued = q.kind === 'delay' ? q.retryAfterMs : 0;
        if (q.kind === 'error' || p.retryAfterMs <= queued) return release;
        const nap = p.retryAfterMs - queued;
        if (nap > deadline - this.#clock.now()) return release;
        await sleep(this.#clock, nap, signal);
      }
    } catch (e) {
      release();
      throw e;
    }
  }

  /** Reserves the connection caps for one more connection; returns the keys, or throws `connection_cap`. */
  #reserveConnectionCaps(): string[] {
    const keys: string[] = [];
    for (const cap of this.#caps) {
      if (cap.counts !== 'connections') continue;
      const key = capKey(this.#spec, cap, this.#options.identity);
      if (key === undefined) continue;
      if (!this.#registry.reserve(key, 1, cap.limit)) {
        for (const k of keys) this.#registry.release(k, 1);
        throw this.#fail(
          'connection_cap',
          `${this.#registry.count(key)} connections are open against cap "${cap.id}" (this process may hold ${this.#registry.allowance(cap.limit)} of ${cap.limit}, ${cap.scope}); close one first`,
        );
      }
      keys.push(key);
    }
    return keys;
  }

  /** One connection attempt: caps, buckets, then the socket; resolves when open. */
  async #connectOnce(attempt: number, budget: number): Promise<void> {
    const capKeys = this.#reserveConnectionCaps();
    const id = randomUUID();
    let opened = false;
    try {
      const r = resolveConnect(this.#spec, this.#rest, this.#endpoint.id, this.#options.identity, { ...this.#resolveOptions, connectionId: id });
      if (!r.ok) throw this.#fail(r.error.code, r.error.message);
      const started = this.#clock.now();
      let waitedMs = 0;
      let opening: { readonly conn: Promise<Connection> };
      try {
        // (wrapped: the attempt goes out in the admission's tick, and is awaited apart from it)
        opening = await this.#admit(r.checks, budget, this.#closing.signal, 'connection attempt', () => {
          waitedMs = this.#clock.now() - started;
          return { conn: this.#openSocket(id, attempt, r.checks, waitedMs, capKeys) };
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
      if (!opened) for (const k of capKeys) this.#registry.release(k, 1);
    }
  }

  /** Opens the socket of an admitted connection attempt; resolves when open, rejects `unreachable`. */
  #openSocket(id: string, attempt: number, checks: readonly BucketCheck[], waitedMs: number, capKeys: readonly string[]): Promise<Connection> {
    const abort = new AbortController();
    let conn: Connection | undefined;
    return new Promise<Connection>((resolve, reject) => {
      let settled = false;
      const timer = this.#clock.setTimer(() => {
        if (settled) return;
        settled = true;
        socket.close(1000, 'connect timeout');
        this.#report({ what: 'connect', connectionId: id, attempt, checks, waitedMs, outcome: 'failed', error: `no answer in ${this.#connectTimeoutMs} ms` });
        reject(this.#fail('unreachable', `${this.#options.url ?? this.#endpoint.url}: no answer in ${this.#connectTimeoutMs} ms`));
      }, this.#connectTimeoutMs);
      timer.unref?.();
      const socket = openSocket(this.#options.WebSocket, this.#options.url ?? this.#endpoint.url, this.#options.protocols, {
        onOpen: () => {
          if (settled) return;
          settled = true;
          timer.cancel();
          conn = { id, socket, abort, openedAt: this.#clock.now(), capKeys };
          resolve(conn);
        },
        onMessage: (data) => this.#options.onMessage?.(data),
        onPing: (data) => {
          if (conn !== undefined) void this.#frame(conn, 'pong-frame', data).catch(() => undefined);
        },
        onClose: (info) => {
          if (!settled) {
            settled = true;
            timer.cancel();
            this.#report({
              what: 'connect',
              connectionId: id,
              attempt,
              checks,
              waitedMs,
              outcome: 'failed',
              error: info.error ?? `closed ${info.code} ${info.reason}`,
            });
            reject(this.#fail('unreachable', `${this.#options.url ?? this.#endpoint.url}: ${info.error ?? `closed with ${info.code} before opening`}`));
            return;
          }
          if (conn !== undefined) this.#dropped(conn, info);
        },
      });
      if (this.#closing.signal.aborted) socket.close(1000, 'closed');
    });
  }

  /** The first connection: with reconnects, failed attempts are retried with backoff. */
  async open(): Promise<void> {
    try {
      this.#holdInitialTopics();
      await this.#connectOnce(0, this.#maxWaitMs);
    } catch (e) {
      if (this.#reconnect === undefined || (isPacedWebSocketError(e) && !RETRYABLE.has(e.code))) {
        this.#state = 'closed';
        this.#releaseSubscriptions();
        throw e;
      }
      await this.#reconnectLoop(e);
      if (this.#state !== 'open') {
        this.#releaseSubscriptions();
        throw this.#lastError ?? e;
      }
    }
  }

  #lastError: unknown;
  /** Reconnect attempts since the last connection that stayed open `stableAfterMs` (the backoff's exponent). */
  #backoffStep = 0;

  /** Reconnects with backoff, each attempt through the connection buckets; ends open or closed. */
  async #reconnectLoop(cause: unknown): Promise<void> {
    const r = this.#reconnect ?? {};
    const max = r.maxAttempts ?? 10;
    const random = this.#options.random ?? Math.random;
    this.#lastError = cause;
    for (let n = 0; n < max; n++) {
      if (this.#closing.signal.aborted) break;
      try {
        await sleep(this.#clock, reconnectDelay(this.#backoffStep++, r, random), this.#closing.signal);
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
    for (const k of conn.capKeys) this.#registry.release(k, 1);
    if (this.#conn !== conn) return;
    const willReconnect = !this.#closedByUser && this.#reconnect !== undefined;
    this.#state = willReconnect ? 'reconnecting' : 'closed';
    try {
      this.#options.onClose?.({ ...info, willReconnect });
    } catch {
      // A callback never breaks the connection.
    }
    if (!willReconnect) {
      this.#releaseSubscriptions();
      return;
    }
    // A connection that stayed up resets the backoff; one that drops at once keeps it growing.
    if (this.#clock.now() - conn.openedAt >= (this.#reconnect?.stableAfterMs ?? 30_000)) this.#backoffStep = 0;
    void this.#reconnectLoop(new Error(`dropped (${info.code})`)).then(() => {
      if (this.#state === 'closed') this.#releaseSubscriptions();
    });
  }

  /** Re-sends the subscribe messages whose topics are still subscribed. */
  async #resubscribe(): Promise<void> {
    for (const s of [...this.#sent]) {
      if (s.topics.size === 0) continue;
      try {
        await this.#transmitClassified(classifyMessage(this.#endpoint, s.message), s.message, undefined);
      } catch {
        return;
      }
    }
  }

  /** Counts the URL's own topics against the caps, once. */
  #holdInitialTopics(): void {
    const topics = [...new Set(this.#options.topics ?? [])];
    if (topics.length === 0) return;
    this.#reserveSubscriptions(topics);
    for (const t of topics) this.#subscriptions.add(t);
  }

  /** Reserves new topics against the subscription caps; throws `subscription_cap` beyond them. */
  #reserveSubscriptions(topics: readonly string[]): () => void {
    const taken: [string, number][] = [];
    const undo = (): void => {
      for (const [k, n] of taken) {
        this.#registry.release(k, n);
        const left = (this.#heldSubscriptions.get(k) ?? 0) - n;
        if (left > 0) this.#heldSubscriptions.set(k, left);
        else this.#heldSubscriptions.delete(k);
      }
    };
    if (topics.length === 0) return undo;
    for (const cap of this.#caps) {
      if (cap.counts !== 'subscriptions') continue;
      const key = capKey(this.#spec, cap, this.#options.identity);
      if (key === undefined) {
        if (this.#subscriptions.size + topics.length > cap.limit) {
          undo();
          throw this.#fail(
            'subscription_cap',
            `${topics.length} new topic(s) would make ${this.#subscriptions.size + topics.length} on this connection; cap "${cap.id}" allows ${cap.limit}`,
          );
        }
        continue;
      }
      if (!this.#registry.reserve(key, topics.length, cap.limit)) {
        undo();
        throw this.#fail(
          'subscription_cap',
          `${topics.length} new topic(s) would make ${this.#registry.count(key) + topics.length} against cap "${cap.id}" (${cap.scope}); this process may hold ${this.#registry.allowance(cap.limit)} of ${cap.limit}`,
        );
      }
      taken.push([key, topics.length]);
      this.#heldSubscriptions.set(key, (this.#heldSubscriptions.get(key) ?? 0) + topics.length);
    }
    return undo;
  }

  #releaseSubscriptions(): void {
    for (const [k, n] of this.#heldSubscriptions) this.#registry.release(k, n);
    this.#heldSubscriptions.clear();
    this.#subscriptions.clear();
    this.#sent.length = 0;
  }

  /** Refuses a message the venue would refuse for its size or its number of topics. */
  #checkMessage(m: ClassifiedMessage): void {
    for (const cap of this.#caps) {
      if (cap.counts === 'message-bytes' && (cap.kinds === undefined || cap.kinds.includes(m.kind)) && m.bytes > cap.limit) {
        throw this.#fail('message_too_large', `a ${m.kind} message of ${m.bytes} bytes; cap "${cap.id}" allows ${cap.limit}`);
      }
      if (cap.counts === 'topics-per-message' && (m.kind === 'subscribe' || m.kind === 'unsubscribe') && m.topics.length > cap.limit) {
        throw this.#fail('too_many_topics', `a ${m.kind} message with ${m.topics.length} topics; cap "${cap.id}" allows ${cap.limit} per message: split it`);
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
    this.#checkMessage(m);
    const r = resolveMessage(this.#spec, this.#rest, this.#endpoint.id, m, this.#options.identity, {
      ...this.#resolveOptions,
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
    const started = this.#clock.now();
    let closedAtSend: PacedWebSocketError | undefined;
    try {
      if (conn.abort.signal.aborted || !conn.socket.isOpen())
        throw conn.abort.signal.reason ?? this.#fail('connection_closed', 'the connection closed before the message went out');
      await this.#admit(checks, this.#maxWaitMs, waitSignal, `${m.kind}${m.operation === undefined ? '' : ` ${m.operation}`}`, () => {
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
      waitedMs: this.#clock.now() - started,
      outcome: 'sent',
    });
  }

  /** A protocol frame through the buckets (`ws` only). */
  #frame(conn: Connection, kind: 'ping-frame' | 'pong-frame', data: Uint8Array | undefined): Promise<void> {
    const r = resolveMessage(this.#spec, this.#rest, this.#endpoint.id, { kind }, this.#options.identity, { ...this.#resolveOptions, connectionId: conn.id });
    if (!r.ok) return Promise.reject(this.#fail(r.error.code, r.error.message));
    return this.#enqueue(() =>
      this.#deliver(conn, r.checks, { kind, bytes: data?.byteLength ?? 0 }, undefined, () =>
        kind === 'ping-frame' ? conn.socket.ping(data) : conn.socket.pong(data),
      ),
    );
  }

  async send(message: OutgoingMessage, options: SendOptions = {}): Promise<void> {
    this.#usable();
    const classified = classifyMessage(this.#endpoint, message);
    const m: ClassifiedMessage = options.kind === undefined ? classified : { ...classified, kind: options.kind };
    const fresh = m.kind === 'subscribe' ? [...new Set(m.topics)].filter((t) => !this.#subscriptions.has(t)) : [];
    this.#checkMessage(m);
    const undo = this.#reserveSubscriptions(fresh);
    try {
      await this.#transmitClassified(m, message, options.signal);
    } catch (e) {
      undo();
      throw e;
    }
    if (m.kind === 'subscribe' && m.topics.length > 0) {
      for (const t of fresh) this.#subscriptions.add(t);
      this.#sent.push({ message, topics: new Set(m.topics) });
    }
    if (m.kind === 'unsubscribe') this.#forget(m.topics);
  }

  /** Unsubscribed topics: out of the set, out of the caps, out of the messages re-sent after a reconnect. */
  #forget(topics: readonly string[]): void {
    const gone = topics.filter((t) => this.#subscriptions.delete(t));
    for (const s of this.#sent) for (const t of topics) s.topics.delete(t);
    for (let i = this.#sent.length - 1; i >= 0; i--) if (this.#sent[i]?.topics.size === 0) this.#sent.splice(i, 1);
    if (gone.length === 0) return;
    for (const cap of this.#caps) {
      if (cap.counts !== 'subscriptions') continue;
      const key = capKey(this.#spec, cap, this.#options.identity);
      if (key === undefined) continue;
      const held = this.#heldSubscriptions.get(key) ?? 0;
      const n = Math.min(held, gone.length);
      this.#registry.release(key, n);
      if (held - n > 0) this.#heldSubscriptions.set(key, held - n);
      else this.#heldSubscriptions.delete(key);
    }
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
    this.#releaseSubscriptions();
    await this.#queue;
  }
}

/** Error codes worth another connection attempt (the rest would fail again the same way). */
const RETRYABLE: ReadonlySet<PacedWebSocketErrorCode> = new Set<PacedWebSocketErrorCode>([
  'unreachable',
  'rate_limit_timeout',
  'backend_unavailable',
  'connection_cap',
]);

/**
 * Opens a WebSocket to one venue endpoint for one identity, paced by the venue's documented
 * WebSocket limits through `limiter`:
 *
 * 1. The connection attempt waits for the connection buckets (attempts per IP or account) and any
 *    REST cost of connecting (Binance's WebSocket API: 2 weight), under the open-connection caps.
 * 2. Every message waits for its connection's message buckets; a WebSocket API request also for the
 *    REST buckets of its REST equivalent, priced by the REST spec through the same limiter, so REST
 *    and WebSocket traffic of one IP or account share their budgets (across processes on Redis).
 *    Messages go out in order; a subscription counts against its caps and is refused beyond them; a
 *    message larger than the venue allows is refused. Pongs go through the buckets too (`ws`).
 * 3. When the server drops the connection, pending waits are aborted (bookings given back) and their
 *    sends reject with `connection_closed`; reconnects wait a backoff, then the connection buckets,
 *    then re-send the subscriptions: a flapping network never turns into a burst of attempts.
 * 4. `close()` aborts pending waits and rejects pending sends with `closed`; `signal` gives up the
 *    opening itself (`aborted`).
 *
 * Every connection attempt and message that went out is reported to `onAttempt`, with its checks.
 *
 * @returns the open connection.
 * @throws PacedWebSocketError `unknown_venue`, `unknown_ws_endpoint`, `connection_cap`,
 * `unreachable` (after the reconnect attempts, if any), `aborted` (by `signal`), a limiter error; RangeError for a bad option.
 * @example
 * ```ts
 * const ws = await openPacedWebSocket({ venue: 'binance', endpoint: 'market-streams', url: 'wss://stream.binance.com:9443/ws', identity: { credential: null }, limiter });
 * await ws.send({ method: 'SUBSCRIBE', params: ['btcusdt@trade'], id: 1 });
 * ```
 */
export async function openPacedWebSocket(options: PacedWebSocketOptions): Promise<PacedWebSocket> {
  const { signal } = options;
  const aborted = (): PacedWebSocketError => new PacedWebSocketError('aborted', 'the caller aborted the opening; no connection was left open');
  if (signal?.aborted === true) throw aborted();
  const c = new PacedConnection(options);
  if (signal === undefined) {
    await c.open();
    return c;
  }
  const onAbort = (): void => void c.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await c.open();
  } catch (e) {
    throw signal.aborted ? aborted() : e;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) {
    await c.close();
    throw aborted();
  }
  return c;
}
