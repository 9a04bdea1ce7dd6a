import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomUUID } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import type { Clock } from '@core/rate-limit-contract';
import {
  classifyMessage,
  resolveConnect,
  resolveMessage,
  webSocketVenueBucket,
  type ClassifiedMessage,
  type Identity,
  type VenueSpec,
  type WebSocketCapSpec,
  type WebSocketEndpointSpec,
  type WebSocketSpec,
  type WebSocketVenueCharge,
} from '@core/exchange-specs';
import { BucketLedger, type BucketUsage } from '../bucket-ledger.js';
import { hashCredential } from '../hash-credential.js';
import { messageId, webSocketStyleFor, type WebSocketStyle } from './websocket-style.js';

/** Options of the emulator's WebSocket service (`startVenueEmulator`'s `webSocket`). */
export interface WebSocketEmulatorOptions {
  /** The venue's WebSocket spec; default `getWebSocketSpec(spec.id)`. */
  readonly spec?: WebSocketSpec;
  /** How often each subscribed topic gets a market-data event, ms of real time; default 250. */
  readonly pushIntervalMs?: number;
  /** Send protocol ping frames this often, ms of real time (the venue's server pings); default none. */
  readonly pingIntervalMs?: number;
  /** How the venue talks; default the venue's WebSocket style (Binance, OKX, Bybit, KuCoin, or generic). */
  readonly style?: WebSocketStyle;
  /** Drop every connection this long after it opened, ms of real time (a flapping network, to exercise reconnects); default never. */
  readonly dropAfterMs?: number;
}

/** What the emulator's WebSocket service counted. */
export interface WebSocketStats {
  /** Upgrade requests received (connection attempts). */
  readonly connectionAttempts: number;
  readonly connectionsOpened: number;
  /** Attempts refused over the attempt rate or a connection cap (each a violation). */
  readonly refusedConnections: number;
  readonly messages: number;
  readonly admittedMessages: number;
  /** Connection attempts and messages that arrived over a documented limit or cap. */
  readonly violations: number;
  /** Connections the venue closed for a violation. */
  readonly closedForViolation: number;
  /** Messages and attempts the venue could not price (unknown endpoint, missing parameter...). */
  readonly badRequests: number;
  /** Market-data events pushed. */
  readonly pushed: number;
  /** Every WebSocket bucket instance that saw traffic (per-connection buckets one per connection). */
  readonly buckets: readonly BucketUsage[];
}

/** What the WebSocket service needs from the emulator it is attached to. */
export interface WebSocketContext {
  readonly rest: VenueSpec;
  readonly ws: WebSocketSpec;
  readonly clock: Clock;
  readonly options: WebSocketEmulatorOptions;
  /** The API-key header of the REST style (also read on upgrades), and the `apiKey` query parameter. */
  readonly apiKeyHeader: string;
  /** The identity of a credential (its account's uid and tier). */
  identityOf(credential: string | null): Identity;
  /** The emulator's REST ledger of a bucket instance (shared with REST requests). */
  restLedger(bucketId: string, credential: string | null, axis: string, tier: string | undefined): BucketLedger | undefined;
}

/** The WebSocket service attached to an emulator's HTTP server. */
export interface WebSocketService {
  stats(): WebSocketStats;
  close(): Promise<void>;
}

interface Conn {
  readonly id: string;
  readonly socket: WebSocket;
  readonly endpoint: WebSocketEndpointSpec;
  readonly identity: Identity;
  readonly ip: string;
  readonly topics: Set<string>;
  readonly capKeys: string[];
  price: number;
}

/** A bucket instance a message is charged on, the cost, and where the bucket comes from. */
interface Charged {
  readonly ledger: BucketLedger;
  cost: number;
  readonly source: 'websocket' | 'rest';
  /** The WebSocket bucket's scope (`connection`, `ip`...), or `rest`. */
  readonly scope: string;
}

interface Counters {
  connectionAttempts: number;
  connectionsOpened: number;
  refusedConnections: number;
  messages: number;
  admittedMessages: number;
  violations: number;
  closedForViolation: number;
  badRequests: number;
  pushed: number;
}

/**
 * Serves a venue's WebSocket endpoints at `/ws/<endpoint id>` on the emulator's HTTP server: each
 * upgrade is a connection attempt charged on the connection buckets (and any REST cost, on the very
 * ledgers REST requests use), refused with the venue's status over a limit or a connection cap;
 * each message is classified by the spec's format and charged on its connection's buckets and, for
 * a WebSocket API request, on the REST ledgers of its REST equivalent. Over a limit the venue's own
 * behaviour answers (Binance closes the connection, OKX sends an error event...), and the violation
 * is counted. Subscribed topics get plausible market data.
 */
export function attachWebSocket(server: Server, ctx: WebSocketContext): WebSocketService {
  const { ws: spec, rest, clock } = ctx;
  const style = ctx.options.style ?? webSocketStyleFor(spec.id);
  const wss = new WebSocketServer({ noServer: true });
  const ledgers = new Map<string, BucketLedger>();
  const conns = new Set<Conn>();
  const capCounts = new Map<string, number>();
  const counters: Counters = {
    connectionAttempts: 0,
    connectionsOpened: 0,
    refusedConnections: 0,
    messages: 0,
    admittedMessages: 0,
    violations: 0,
    closedForViolation: 0,
    badRequests: 0,
    pushed: 0,
  };

  const wsLedger = (charge: WebSocketVenueCharge, endpoint: WebSocketEndpointSpec): BucketLedger | undefined => {
    const bucket = spec.buckets.find((b) => b.id === charge.bucket);
    if (bucket === undefined) return undefined;
    const id = `${charge.key.credential ?? ''}\u0000${charge.key.axis ?? ''}`;
    let l = ledgers.get(id);
    if (l === undefined) {
      l = new BucketLedger(
        webSocketVenueBucket(bucket, endpoint),
        charge.key.axis ?? bucket.id,
        charge.key.credential === null ? null : hashCredential(charge.key.credential),
      );
      ledgers.set(id, l);
    }
    return l;
  };

  /** The ledgers and costs of a set of venue charges (failure-only costs count 0: an admitted request succeeds). */
  const ledgersOf = (charges: readonly WebSocketVenueCharge[], endpoint: WebSocketEndpointSpec, identity: Identity): Charged[] | undefined => {
    const out: Charged[] = [];
    const tier = identity.tier ?? rest.defaultTier;
    for (const c of charges) {
      const ledger = c.source === 'websocket' ? wsLedger(c, endpoint) : ctx.restLedger(c.bucket, c.key.credential, c.key.axis ?? c.bucket, tier);
      if (ledger === undefined) return undefined;
      const cost = c.charge === 'failure' ? 0 : c.cost;
      const same = out.find((x) => x.ledger === ledger);
      const scope = c.source === 'websocket' ? (spec.buckets.find((b) => b.id === c.bucket)?.scope ?? 'ip') : 'rest';
      if (same === undefined) out.push({ ledger, cost, source: c.source, scope });
      else same.cost += cost;
    }
    return out;
  };

  const capScopeKey = (cap: WebSocketCapSpec, ip: string, identity: Identity): string | undefined => {
    switch (cap.scope) {
      case 'connection':
        return undefined;
      case 'ip':
        return `${cap.id}\u0000${ip}`;
      case 'uid':
        return `${cap.id}\u0000${identity.uid ?? identity.credential ?? ''}`;
      default:
        return `${cap.id}\u0000${identity.credential ?? ''}`;
    }
  };
  const capsOf = (endpoint: WebSocketEndpointSpec): WebSocketCapSpec[] => (endpoint.caps ?? []).flatMap((id) => spec.caps?.filter((c) => c.id === id) ?? []);

  const reject = (socket: Duplex, status: number, text: string): void => {
    socket.write(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: text/plain\r\nContent-Length: ${Buffer.byteLength(text)}\r\n\r\n${text}`);
    socket.destroy();
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    counters.connectionAttempts += 1;
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const match = /^\/ws\/([^/]+)\/?$/.exec(url.pathname);
    const endpoint = spec.endpoints.find((e) => e.id === match?.[1]);
    if (endpoint === undefined) {
      counters.badRequests += 1;
      return reject(socket, 404, 'Not Found');
    }
    const header = req.headers[ctx.apiKeyHeader];
    const credential = url.searchParams.get('apiKey') ?? (Array.isArray(header) ? header[0] : header) ?? null;
    const identity = ctx.identityOf(credential === '' ? null : credential);
    const ip = req.socket.remoteAddress ?? 'unknown';
    const nowMs = clock.now();
    const id = randomUUID();
    const r = resolveConnect(spec, rest, endpoint.id, identity, { connectionId: id });
    if (!r.ok) {
      counters.badRequests += 1;
      return reject(socket, r.error.code === 'credential_required' ? 401 : 400, r.error.message);
    }
    const charged = ledgersOf(r.charges, endpoint, identity);
    if (charged === undefined) {
      counters.badRequests += 1;
      return reject(socket, 500, 'the spec charges a bucket it does not define');
    }
    const full = charged.find((c) => !c.ledger.fits(nowMs, c.cost));
    const caps = capsOf(endpoint).filter((c) => c.counts === 'connections');
    const overCap = caps.find((c) => {
      const k = capScopeKey(c, ip, identity);
      return k !== undefined && (capCounts.get(k) ?? 0) + 1 > c.limit;
    });
    if (full !== undefined || overCap !== undefined) {
      full?.ledger.refuse();
      counters.violations += 1;
      counters.refusedConnections += 1;
      return reject(socket, style.refusedUpgradeStatus, full !== undefined ? 'Too many connection attempts' : 'Too many connections');
    }
    for (const c of charged) c.ledger.charge(nowMs, c.cost);
    const capKeys = caps.map((c) => capScopeKey(c, ip, identity)).filter((k): k is string => k !== undefined);
    for (const k of capKeys) capCounts.set(k, (capCounts.get(k) ?? 0) + 1);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const conn: Conn = { id, socket: ws, endpoint, identity, ip, topics: new Set(), capKeys, price: 64_000 };
      conns.add(conn);
      counters.connectionsOpened += 1;
      ws.on('message', (data, isBinary) => handle(conn, isBinary ? new Uint8Array(data as Buffer) : String(data)));
      ws.on('ping', () => handleFrame(conn, 'ping-frame'));
      ws.on('pong', () => handleFrame(conn, 'pong-frame'));
      ws.on('close', () => {
        conns.delete(conn);
        for (const k of conn.capKeys) capCounts.set(k, Math.max(0, (capCounts.get(k) ?? 1) - 1));
      });
      ws.on('error', () => undefined);
      const drop = ctx.options.dropAfterMs;
      if (drop !== undefined) setTimeout(() => ws.close(1012, 'emulated network drop'), drop).unref();
    });
  };

  const violate = (conn: Conn, why: 'rate' | 'rest' | 'cap', m: ClassifiedMessage, detail: string, scope?: string): void => {
    counters.violations += 1;
    const refusal = style.refuse({ why, message: m, requestId: messageId(m), detail, nowMs: clock.now(), ...(scope === undefined ? {} : { scope }) });
    if (refusal.reply !== undefined) conn.socket.send(refusal.reply);
    if (refusal.close !== undefined) {
      counters.closedForViolation += 1;
      conn.socket.close(refusal.close.code, refusal.close.reason);
    }
  };

  /** Prices and charges one message (or frame); answers false when it was refused. */
  const admit = (conn: Conn, m: ClassifiedMessage): boolean => {
    const nowMs = clock.now();
    counters.messages += 1;
    for (const cap of capsOf(conn.endpoint)) {
      if (cap.counts === 'message-bytes' && (cap.kinds === undefined || cap.kinds.includes(m.kind)) && m.bytes > cap.limit) {
        violate(conn, 'cap', m, `message of ${m.bytes} bytes over ${cap.limit}`);
        return false;
      }
      if (cap.counts === 'topics-per-message' && (m.kind === 'subscribe' || m.kind === 'unsubscribe') && m.topics.length > cap.limit) {
        violate(conn, 'cap', m, `${m.topics.length} topics in one message over ${cap.limit}`);
        return false;
      }
    }
    const r = resolveMessage(spec, rest, conn.endpoint.id, m, conn.identity, { connectionId: conn.id });
    if (!r.ok) {
      counters.badRequests += 1;
      conn.socket.send(JSON.stringify({ error: r.error.code, msg: r.error.message, id: messageId(m) ?? null }));
      return false;
    }
    const charged = ledgersOf(r.charges, conn.endpoint, conn.identity) ?? [];
    const full = charged.find((c) => !c.ledger.fits(nowMs, c.cost));
    if (full !== undefined) {
      full.ledger.refuse();
      violate(conn, full.source === 'rest' ? 'rest' : 'rate', m, `${full.ledger.bucket.id}: over ${full.ledger.limit} per ${full.scope}`, full.scope);
      return false;
    }
    if (m.kind === 'subscribe') {
      const fresh = [...new Set(m.topics)].filter((t) => !conn.topics.has(t));
      for (const cap of capsOf(conn.endpoint)) {
        if (cap.counts !== 'subscriptions') continue;
        const key = capScopeKey(cap, conn.ip, conn.identity);
        const now =
          key === undefined
            ? conn.topics.size
            : [...conns].filter((c) => capsOf(c.endpoint).includes(cap) && capScopeKey(cap, c.ip, c.identity) === key).reduce((s, c) => s + c.topics.size, 0);
        if (now + fresh.length > cap.limit) {
          violate(conn, 'cap', m, `${now + fresh.length} subscriptions over ${cap.limit} (${cap.id})`);
          return false;
        }
      }
    }
    for (const c of charged) c.ledger.charge(nowMs, c.cost);
    counters.admittedMessages += 1;
    if (m.kind === 'subscribe') for (const t of m.topics) conn.topics.add(t);
    if (m.kind === 'unsubscribe') for (const t of m.topics) conn.topics.delete(t);
    return true;
  };

  const handle = (conn: Conn, data: string | Uint8Array): void => {
    const m = classifyMessage(conn.endpoint, data);
    if (!admit(conn, m)) return;
    const reply = style.answer(m, messageId(m), clock.now());
    if (reply !== undefined) for (const line of reply.split('\n')) conn.socket.send(line);
  };

  const handleFrame = (conn: Conn, kind: 'ping-frame' | 'pong-frame'): void => {
    admit(conn, { kind, topics: [], bytes: 0 });
  };

  server.on('upgrade', onUpgrade);
  const pushEvery = ctx.options.pushIntervalMs ?? 250;
  const pusher = setInterval(() => {
    const nowMs = clock.now();
    for (const c of conns) {
      if (c.topics.size === 0 || c.socket.readyState !== c.socket.OPEN) continue;
      c.price = Math.max(1, c.price * (1 + (Math.random() - 0.5) * 0.001));
      let n = 0;
      for (const t of c.topics) {
        if (n++ >= 50) break;
        c.socket.send(style.push(t, nowMs, c.price));
        counters.pushed += 1;
      }
    }
  }, pushEvery);
  pusher.unref();
  const pinger =
    ctx.options.pingIntervalMs === undefined
      ? undefined
      : setInterval(() => {
          for (const c of conns) if (c.socket.readyState === c.socket.OPEN) c.socket.ping();
        }, ctx.options.pingIntervalMs);
  pinger?.unref();

  return {
    stats(): WebSocketStats {
      const nowMs = clock.now();
      const buckets = [...ledgers.values()]
        .map((l) => l.usage(nowMs))
        .sort((a, b) => (a.bucketId === b.bucketId ? (a.axis < b.axis ? -1 : 1) : a.bucketId < b.bucketId ? -1 : 1));
      return { ...counters, buckets };
    },
    close(): Promise<void> {
      clearInterval(pusher);
      if (pinger !== undefined) clearInterval(pinger);
      server.off('upgrade', onUpgrade);
      for (const c of conns) c.socket.terminate();
      return new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
