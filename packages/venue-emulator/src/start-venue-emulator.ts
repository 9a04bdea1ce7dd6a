import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Clock } from '@core/rate-limit-contract';
import { bucketForTier, getWebSocketSpec, resolveRequest, withLiveLimitEndpoints, type BucketSpec, type Identity, type VenueSpec } from '@core/exchange-specs';
import { BucketLedger, type BucketUsage } from './bucket-ledger.js';
import { feedbackHeaders } from './feedback-headers.js';
import { hashCredential } from './hash-credential.js';
import { MAX_BODY_BYTES, readRequest } from './read-request.js';
import { styleFor } from './style-for.js';
import { systemClock } from './system-clock.js';
import type { AddressState, EmulatedResponse, VenueStyle } from './venue-style.js';
import { attachWebSocket, type WebSocketEmulatorOptions, type WebSocketService, type WebSocketStats } from './websocket/attach-websocket.js';

/** Options of {@link startVenueEmulator}. */
export interface VenueEmulatorOptions {
  /**
   * The venue's spec (from `getVenueSpec`), enforced with the venue's own algorithms. The endpoints
   * where the venue publishes its current limits are added when the spec lacks them
   * (`withLiveLimitEndpoints`), and answered from this spec's numbers.
   */
  readonly spec: VenueSpec;
  /** The port; default 0 (a free port). */
  readonly port?: number;
  /** The address to listen on; default `127.0.0.1` (loopback only). */
  readonly host?: string;
  /** The emulator's clock, epoch milliseconds; default `Date.now()`. */
  readonly clock?: Clock;
  /**
   * The account behind each API key: `uid` (keys of one account share its `uid` buckets) and `tier`
   * (a key of the buckets' `tiers`). Keys not listed are accounts of their own on the default tier.
   */
  readonly accounts?: Readonly<Record<string, { readonly uid?: string; readonly tier?: string }>>;
  /** How the venue talks; default: the style of the spec's venue (Binance, OKX, Bybit, KuCoin, Kraken, or generic). */
  readonly style?: VenueStyle;
  /**
   * Serve the venue's WebSocket endpoints too, at `ws://host:port/ws/<endpoint id>` (`wsUrl`), on the
   * same ledgers as REST: `true` for the venue's WebSocket spec, or options. Default off.
   */
  readonly webSocket?: boolean | WebSocketEmulatorOptions;
  /**
   * The share of requests whose charges depend on their outcome (Binance spot's orders and cancels,
   * weight charged only on failure) that the emulator fails, in [0, 1], with the venue's own error
   * (Binance: HTTP 400, -2010 NEW_ORDER_REJECTED "Account has insufficient balance for requested
   * action." for a new order, -2011 CANCEL_REJECTED "Unknown order sent." for a cancel), charging
   * what the venue charges on failure; default 0 (every such request that fits succeeds).
   */
  readonly failShare?: number;
  /** The seed of the draw that picks the failures (a deterministic sequence); default 1. */
  readonly failSeed?: number;
  /**
   * Refuse what the venue refuses for what a request carries, inside the limits (the style's `reject`:
   * Binance's -1021 for a `timestamp` outside its `recvWindow`); default `true`.
   */
  readonly checkRequests?: boolean;
}

/** What the emulator counted since it started. */
export interface EmulatorStats {
  readonly venue: string;
  readonly startedAtMs: number;
  readonly nowMs: number;
  /** Every request received. */
  readonly requests: number;
  /** Requests inside every documented limit, answered with success. */
  readonly admitted: number;
  /** Requests that arrived over a documented limit (each one refused). */
  readonly violations: number;
  /** Requests refused because their address was banned. */
  readonly refusedWhileBanned: number;
  /** Bans imposed (Binance 418, Bybit 403 IP stop). */
  readonly bans: number;
  /** Requests the venue could not route or price (unknown endpoint, missing parameter...). */
  readonly badRequests: number;
  /** Requests inside every limit that the emulator failed on purpose (`failShare`), charged as the venue charges a failure. */
  readonly failed: number;
  /** Requests inside every limit the venue refused for what they carried (Binance: -1021, a timestamp outside the recvWindow), charged as a failure. */
  readonly rejected: number;
  /** Every bucket instance that saw a request, sorted by bucket id then axis. */
  readonly buckets: readonly BucketUsage[];
  /** What the WebSocket service counted, when it runs. */
  readonly webSocket?: WebSocketStats;
}

/** A running emulator. */
export interface VenueEmulator {
  /** The base URL, e.g. `http://127.0.0.1:40123`. */
  readonly url: string;
  /** The spec it enforces (the given one, with the live-limit endpoints it lacked). */
  readonly spec: VenueSpec;
  /** The WebSocket base URL (`ws://127.0.0.1:40123/ws`; an endpoint is at `<wsUrl>/<endpoint id>`), when the WebSocket service runs. */
  readonly wsUrl?: string;
  stats(): EmulatorStats;
  /** Stops listening and drops open connections. */
  close(): Promise<void>;
}

interface Counters {
  requests: number;
  admitted: number;
  violations: number;
  refusedWhileBanned: number;
  bans: number;
  badRequests: number;
  failed: number;
  rejected: number;
}

/** A small deterministic PRNG (mulberry32): the same failures for the same seed. */
function draw(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Starts an HTTP server on loopback that behaves like a venue's REST API as far as rate limits go:
 * it prices each request with the spec, enforces every bucket with the venue's own algorithm (the
 * exchange-specs reference models: clock-aligned or anchored fixed windows, sliding windows, token
 * buckets), answers with the venue's usage headers, refuses like the venue (Binance 429 then 418
 * bans, OKX 50011 in a 200 body, Bybit 10006 / 403, KuCoin 429000, Kraken EAPI errors) and counts
 * every request that arrived over a documented limit.
 *
 * @example
 * ```ts
 * const venue = await startVenueEmulator({ spec: getVenueSpec('okx') });
 * await fetch(`${venue.url}/api/v5/market/ticker?instId=BTC-USDT`);
 * console.log(venue.stats().violations);
 * await venue.close();
 * ```
 */
export async function startVenueEmulator(options: VenueEmulatorOptions): Promise<VenueEmulator> {
  const spec = withLiveLimitEndpoints(options.spec);
  const clock = options.clock ?? systemClock;
  const style = options.style ?? styleFor(spec);
  const host = options.host ?? '127.0.0.1';
  const ledgers = new Map<string, BucketLedger>();
  const addresses = new Map<string, AddressState>();
  const counters: Counters = { requests: 0, admitted: 0, violations: 0, refusedWhileBanned: 0, bans: 0, badRequests: 0, failed: 0, rejected: 0 };
  const failShare = options.failShare ?? 0;
  if (!(failShare >= 0 && failShare <= 1)) throw new RangeError(`failShare must be in [0, 1], got ${String(failShare)}`);
  const random = draw(options.failSeed ?? 1);
  const startedAtMs = clock.now();

  const identityOf = (req: IncomingMessage): Identity => {
    const raw = req.headers[style.apiKeyHeader];
    const credential = (Array.isArray(raw) ? raw[0] : raw) ?? null;
    const account = credential === null ? undefined : options.accounts?.[credential];
    return {
      credential: credential === '' ? null : credential,
      ...(account?.uid === undefined ? {} : { uid: account.uid }),
      ...(account?.tier === undefined ? {} : { tier: account.tier }),
    };
  };

  const addressOf = (req: IncomingMessage): AddressState => {
    const ip = req.socket.remoteAddress ?? 'unknown';
    let a = addresses.get(ip);
    if (a === undefined) {
      a = { retryUntilMs: 0, bannedUntilMs: 0, nextBanMs: 0 };
      addresses.set(ip, a);
    }
    return a;
  };

  const ledgerFor = (bucket: BucketSpec, credential: string | null, axis: string): BucketLedger => {
    const id = `${credential ?? ''}\u0000${axis}`;
    let l = ledgers.get(id);
    if (l === undefined) {
      l = new BucketLedger(bucket, axis, credential === null ? null : hashCredential(credential));
      ledgers.set(id, l);
    }
    return l;
  };

  const answer = async (req: IncomingMessage): Promise<EmulatedResponse> => {
    let request: Awaited<ReturnType<typeof readRequest>>;
    try {
      request = await readRequest(req);
    } catch (e) {
      counters.requests += 1;
      counters.badRequests += 1;
      return { status: 413, body: { error: (e as Error).message, limit: MAX_BODY_BYTES } };
    }
    // From here on everything is synchronous: each request is priced and charged atomically.
    const nowMs = clock.now();
    counters.requests += 1;
    const identity = identityOf(req);
    const address = addressOf(req);
    if (address.bannedUntilMs > nowMs) {
      counters.refusedWhileBanned += 1;
      return style.banned(address, nowMs);
    }
    const resolved = resolveRequest(spec, request, identity);
    if (!resolved.ok) {
      counters.badRequests += 1;
      const { code, message } = resolved.error;
      // say what to send: the header this venue reads the API key from
      const hint = code === 'credential_required' ? `; send the API key in the "${style.apiKeyHeader}" header (${style.apiKeyHeader}: <your key>)` : '';
      return style.badRequest(code, `${message}${hint}`);
    }
    const tier = identity.tier ?? spec.defaultTier;
    const limits = spec.buckets.map((b) => bucketForTier(b, tier));
    const used = (bucketId: string): number => {
      const b = spec.buckets.find((x) => x.id === bucketId);
      if (b === undefined || b.partition !== undefined) return 0;
      const credential = b.scope === 'ip' ? null : b.scope === 'uid' ? (identity.uid ?? identity.credential) : identity.credential;
      return ledgers.get(`${credential ?? ''}\u0000${b.id}`)?.room(nowMs).used ?? 0;
    };
    const context = { endpoint: resolved.endpoint, request, nowMs, identity, ...(tier === undefined ? {} : { tier }), limits, used };
    // What the venue refuses for what the request carries (a stale timestamp) is charged like a failure.
    const rejection = options.checkRequests === false ? undefined : style.reject?.(context);
    // A request whose charges depend on its outcome fails with the configured share.
    const fails = rejection !== undefined || (failShare > 0 && resolved.charges.some((c) => c.charge !== 'always') && random() < failShare);
    // What the venue itself counts (not what a limiter admits): the spec's own charges per key.
    const charged: { ledger: BucketLedger; cost: number }[] = [];
    for (const c of resolved.charges) {
      const bucket = spec.buckets.find((b) => b.id === c.bucket);
      if (bucket === undefined) {
        counters.badRequests += 1;
        return { status: 500, body: { error: `the spec charges bucket "${c.bucket}", which it does not define` } };
      }
      const ledger = ledgerFor(bucketForTier(bucket, tier), c.key.credential, c.key.axis ?? 'request');
      // A charge on an outcome counts when the answer has that outcome.
      const cost = c.charge === 'always' || (c.charge === 'failure') === fails ? c.cost : 0;
      const same = charged.find((x) => x.ledger === ledger);
      if (same === undefined) charged.push({ ledger, cost });
      else same.cost += cost;
    }
    const full = charged.find((c) => !c.ledger.fits(nowMs, c.cost));
    let response: EmulatedResponse;
    if (full !== undefined) {
      counters.violations += 1;
      full.ledger.refuse();
      const state = full.ledger.room(nowMs);
      const refusal = style.refuse({ bucket: full.ledger.bucket, used: state.used, limit: full.ledger.limit, resetAtMs: state.resetAtMs, nowMs, address });
      if (refusal.banUntilMs !== undefined) {
        counters.bans += 1;
        address.bannedUntilMs = Math.max(address.bannedUntilMs, refusal.banUntilMs);
      }
      response = refusal.response;
    } else {
      for (const c of charged) c.ledger.charge(nowMs, c.cost);
      counters.admitted += 1;
      if (rejection !== undefined) {
        counters.rejected += 1;
        response = rejection;
      } else {
        if (fails) counters.failed += 1;
        response = fails ? (style.fail?.(context) ?? { status: 400, body: { error: 'rejected by the emulated venue (failShare)' } }) : style.success(context);
      }
    }
    const usage = feedbackHeaders(
      spec,
      charged.map((c) => c.ledger),
      nowMs,
    );
    return { ...response, headers: { ...usage, ...response.headers } };
  };

  const send = (res: ServerResponse, r: EmulatedResponse): void => {
    const text = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      date: new Date(clock.now()).toUTCString(),
      ...r.headers,
      'content-length': String(Buffer.byteLength(text)),
    };
    res.writeHead(r.status, headers);
    res.end(text);
  };

  const server = createServer((req, res) => {
    answer(req).then(
      (r) => send(res, r),
      (e: unknown) => send(res, { status: 500, body: { error: e instanceof Error ? e.message : String(e) } }),
    );
  });
  server.keepAliveTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  let webSocket: WebSocketService | undefined;
  if (options.webSocket !== undefined && options.webSocket !== false) {
    const wsOptions = options.webSocket === true ? {} : options.webSocket;
    webSocket = attachWebSocket(server, {
      rest: spec,
      ws: wsOptions.spec ?? getWebSocketSpec(spec.id),
      clock,
      options: wsOptions,
      apiKeyHeader: style.apiKeyHeader,
      identityOf: (credential) => {
        const account = credential === null ? undefined : options.accounts?.[credential];
        return { credential, ...(account?.uid === undefined ? {} : { uid: account.uid }), ...(account?.tier === undefined ? {} : { tier: account.tier }) };
      },
      restLedger: (bucketId, credential, axis, tier) => {
        const bucket = spec.buckets.find((b) => b.id === bucketId);
        return bucket === undefined ? undefined : ledgerFor(bucketForTier(bucket, tier), credential, axis);
      },
    });
  }

  return {
    url: `http://${urlHost}:${port}`,
    spec,
    ...(webSocket === undefined ? {} : { wsUrl: `ws://${urlHost}:${port}/ws` }),
    stats(): EmulatorStats {
      const nowMs = clock.now();
      const buckets = [...ledgers.values()]
        .map((l) => l.usage(nowMs))
        .sort((a, b) =>
          a.bucketId === b.bucketId
            ? a.axis < b.axis
              ? -1
              : a.axis > b.axis
                ? 1
                : (a.credentialHash ?? '') < (b.credentialHash ?? '')
                  ? -1
                  : 1
            : a.bucketId < b.bucketId
              ? -1
              : 1,
        );
      return { venue: spec.id, startedAtMs, nowMs, ...counters, buckets, ...(webSocket === undefined ? {} : { webSocket: webSocket.stats() }) };
    },
    close(): Promise<void> {
      closing ??= (webSocket?.close() ?? Promise.resolve()).then(
        () =>
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeAllConnections();
          }),
      );
      return closing;
    },
  };
}
