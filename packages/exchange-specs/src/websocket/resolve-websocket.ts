import type { BucketCheck, BucketKey } from '@core/rate-limit-contract';
import { readPath } from '../request-params.js';
import {
  bucketDerivation,
  bucketLimit,
  resolveCharges,
  safeLimitOptions,
  scopeCredential,
  usesWindowLimit,
  type EnforcedLimit,
  type ResolveOptions,
} from '../resolve-charges.js';
import { describeSafeLimit, type SafeLimitDerivation } from '../safe-limit.js';
import type { Identity, ResolveErrorCode, VenueRequest } from '../venue-io.js';
import type { BucketSpec, VenueSpec } from '../venue-spec.js';
import type { ClassifiedMessage } from './classify-message.js';
import type { MessageKind, RestCharge, WebSocketBucketSpec, WebSocketEndpointSpec, WebSocketSpec } from './websocket-spec.js';

/** Options of the WebSocket resolvers: the REST ones (`margin`, `burstFraction`, `jitterMs`) and the connection. */
export interface WebSocketResolveOptions extends ResolveOptions {
  /** The connection's id: the axis suffix of `connection`-scoped buckets (unique per connection, any process). */
  readonly connectionId?: string;
  /**
   * The client cannot route the protocol's automatic pong frames through its buckets (a browser's
   * or Node 22's WebSocket answers pings itself): connection buckets that count pong frames keep
   * room for one pong per documented server ping interval.
   */
  readonly unseenPongs?: boolean;
  /**
   * How late a connection attempt may be counted by the venue after its send time, ms: the TCP and
   * TLS handshakes come first, and take longer and vary more than a request on an open connection.
   * Used instead of `jitterMs` for the connection buckets. Default {@link DEFAULT_CONNECT_JITTER_MS}.
   */
  readonly connectJitterMs?: number;
}

/** The default `connectJitterMs`: a connection attempt may reach the venue up to 1 s after its send time. */
export const DEFAULT_CONNECT_JITTER_MS = 1000;

/** Error codes of the WebSocket resolvers: the REST ones and `unknown_ws_endpoint`. */
export type WebSocketResolveErrorCode = ResolveErrorCode | 'unknown_ws_endpoint';

/** What the venue counts on one bucket for one connection attempt or message. */
export interface WebSocketVenueCharge {
  readonly key: BucketKey;
  /** The bucket's id in its spec (the WebSocket spec, or the REST spec for `source: 'rest'`). */
  readonly bucket: string;
  readonly source: 'websocket' | 'rest';
  readonly cost: number;
  readonly charge: 'always' | 'success' | 'failure';
}

/** The checks and venue charges of a connection attempt or a message, or why they cannot be priced. */
export type WebSocketResolveResult =
  | { readonly ok: true; readonly checks: readonly BucketCheck[]; readonly charges: readonly WebSocketVenueCharge[] }
  | { readonly ok: false; readonly error: { readonly code: WebSocketResolveErrorCode; readonly message: string } };

function fail(code: WebSocketResolveErrorCode, message: string): WebSocketResolveResult {
  return { ok: false, error: { code, message } };
}

/** The axis of a WebSocket bucket's key: `ws:<id>`, plus `:<connection id>` for `connection` scope. */
export function webSocketAxis(bucket: Pick<WebSocketBucketSpec, 'id' | 'scope'>, connectionId: string | undefined): string | undefined {
  if (bucket.scope !== 'connection') return `ws:${bucket.id}`;
  return connectionId === undefined || connectionId === '' ? undefined : `ws:${bucket.id}:${connectionId}`;
}

/** The credential of a WebSocket bucket's key (`null` for IP and connection scope), `undefined` when one is required but missing. */
export function webSocketCredential(scope: WebSocketBucketSpec['scope'], identity: Identity): string | null | undefined {
  switch (scope) {
    case 'ip':
    case 'connection':
      return null;
    case 'uid':
      return identity.uid ?? identity.credential ?? undefined;
    case 'key':
    case 'subaccount':
      return identity.credential ?? undefined;
  }
}

/** The largest single cost the spec charges a WebSocket bucket (connection and message rules), at least 1. */
export function webSocketBucketMaxCost(spec: WebSocketSpec, bucketId: string): number {
  let m = 0;
  for (const e of spec.endpoints) {
    for (const c of e.connect.charges) if (c.bucket === bucketId) m = Math.max(m, c.cost);
    for (const r of e.messages) if (r.bucket === bucketId) m = Math.max(m, r.cost);
  }
  return m > 0 ? m : 1;
}

/** Whether a message rule of the endpoint charges `bucketId` for protocol pong frames. */
function countsPongFrames(endpoint: WebSocketEndpointSpec, bucketId: string): number {
  let cost = 0;
  for (const r of endpoint.messages) if (r.bucket === bucketId && (r.kinds === undefined || r.kinds.includes('pong-frame'))) cost += r.cost;
  return cost;
}

/**
 * The bucket a limiter keeps for a WebSocket bucket: the documented one, less the room kept for
 * unseen pong frames when asked (`unseenPongs`, connection buckets of an endpoint with a documented
 * server ping interval): at most `floor(W / P) + 1` pongs reach a window of `W` when the server
 * pings every `P`; a token bucket loses one pong of capacity and `1000 / P` per second of refill.
 *
 * @throws RangeError when the room for pongs leaves nothing of the bucket.
 */
export function webSocketVenueBucket(
  bucket: WebSocketBucketSpec,
  endpoint: WebSocketEndpointSpec | undefined,
  options: WebSocketResolveOptions = {},
): BucketSpec {
  const base = { ...bucket, scope: 'ip' } as BucketSpec;
  const interval = endpoint?.serverPingIntervalMs;
  if (options.unseenPongs !== true || endpoint === undefined || interval === undefined || bucket.scope !== 'connection') return base;
  const pong = countsPongFrames(endpoint, bucket.id);
  if (pong === 0) return base;
  if (base.algorithm === 'token-bucket') {
    const capacity = base.capacity - pong;
    const refillPerSec = base.refillPerSec - (pong * 1000) / interval;
    if (!(capacity > 0 && refillPerSec > 0)) throw new RangeError(`bucket "${bucket.id}": no room left after keeping room for pong frames`);
    return { ...base, capacity, refillPerSec };
  }
  const limit = base.limit - pong * (Math.floor(base.windowMs / interval) + 1);
  if (!(limit > 0)) throw new RangeError(`bucket "${bucket.id}": no room left after keeping room for pong frames`);
  return { ...base, limit };
}

/** How the limiter's limit of a WebSocket bucket is derived (see `describeSafeLimit`). */
export function webSocketBucketDerivation(
  spec: WebSocketSpec,
  bucket: WebSocketBucketSpec,
  endpoint: WebSocketEndpointSpec | undefined,
  options: WebSocketResolveOptions = {},
): SafeLimitDerivation {
  return describeSafeLimit(webSocketVenueBucket(bucket, endpoint, options), safeLimitOptions(options, webSocketBucketMaxCost(spec, bucket.id)));
}

interface Pending {
  readonly checks: BucketCheck[];
  readonly charges: WebSocketVenueCharge[];
}

function keyId(k: BucketKey): string {
  return `${k.credential ?? ''}\u0000${k.axis ?? 'request'}`;
}

function addCheck(p: Pending, check: BucketCheck): void {
  const i = p.checks.findIndex((c) => keyId(c.key) === keyId(check.key));
  const prev = p.checks[i];
  if (prev === undefined) p.checks.push(check);
  else p.checks[i] = { ...prev, cost: prev.cost + check.cost };
}

function addCharge(p: Pending, charge: WebSocketVenueCharge): void {
  const i = p.charges.findIndex((c) => keyId(c.key) === keyId(charge.key) && c.charge === charge.charge);
  const prev = p.charges[i];
  if (prev === undefined) p.charges.push(charge);
  else p.charges[i] = { ...prev, cost: prev.cost + charge.cost };
}

/** Charges `cost` on a WebSocket bucket. */
function chargeWebSocket(
  spec: WebSocketSpec,
  endpoint: WebSocketEndpointSpec,
  bucketId: string,
  cost: number,
  identity: Identity,
  options: WebSocketResolveOptions,
  p: Pending,
): string | undefined {
  if (cost <= 0) return undefined;
  const bucket = spec.buckets.find((b) => b.id === bucketId);
  if (bucket === undefined) return `${spec.id}: a rule names unknown WebSocket bucket "${bucketId}"`;
  const credential = webSocketCredential(bucket.scope, identity);
  if (credential === undefined)
    return `credential:${spec.id}: WebSocket bucket "${bucket.id}" (scope ${bucket.scope}) needs a credential; the identity has none`;
  const axis = webSocketAxis(bucket, options.connectionId);
  if (axis === undefined) return `${spec.id}: WebSocket bucket "${bucket.id}" is per connection; no connection id was given`;
  let d: SafeLimitDerivation;
  try {
    d = webSocketBucketDerivation(spec, bucket, endpoint, options);
  } catch (e) {
    return `${spec.id}: ${(e as Error).message}`;
  }
  const key: BucketKey = { venue: spec.id, credential, axis };
  const admitted = d.mode === 'spaced' ? Math.max(cost, d.capacity) : cost;
  addCheck(p, { key, limit: { capacity: d.capacity, refillPerSec: d.refillPerSec }, cost: admitted });
  addCharge(p, { key, bucket: bucket.id, source: 'websocket', cost, charge: 'always' });
  return undefined;
}

/** Charges fixed costs on REST buckets (priced with the REST spec's own safe limits). */
function chargeRest(rest: VenueSpec, charges: readonly RestCharge[], identity: Identity, options: ResolveOptions, p: Pending): string | undefined {
  const tier = identity.tier ?? rest.defaultTier;
  for (const c of charges) {
    if (c.cost <= 0) continue;
    const bucket = rest.buckets.find((b) => b.id === c.restBucket);
    if (bucket === undefined) return `${rest.id}: a WebSocket rule names unknown REST bucket "${c.restBucket}"`;
    const credential = scopeCredential(bucket, identity);
    if (credential === undefined) return `credential:${rest.id}: REST bucket "${bucket.id}" (scope ${bucket.scope}) needs a credential; the identity has none`;
    // the REST bucket's own limit, exactly as resolveRequest gives it (one definition per key)
    let limit: EnforcedLimit;
    let spacedAt: number | undefined;
    try {
      limit = bucketLimit(rest, bucket, tier, options);
      if (!usesWindowLimit(bucket, options)) {
        const d = bucketDerivation(rest, bucket, tier, options);
        if (d.mode === 'spaced') spacedAt = d.capacity;
      }
    } catch (e) {
      return `${rest.id}: ${(e as Error).message}`;
    }
    const key: BucketKey = { venue: rest.id, credential, axis: bucket.id };
    addCheck(p, { key, limit, cost: spacedAt === undefined ? c.cost : Math.max(c.cost, spacedAt) });
    addCharge(p, { key, bucket: bucket.id, source: 'rest', cost: c.cost, charge: 'always' });
  }
  return undefined;
}

function settle(p: Pending, problem: string | undefined): WebSocketResolveResult {
  if (problem === undefined) return { ok: true, checks: p.checks, charges: p.charges };
  if (problem.startsWith('credential:')) return fail('credential_required', problem.slice('credential:'.length));
  return fail('invalid_spec', problem);
}

function endpointOf(spec: WebSocketSpec, endpointId: string): WebSocketEndpointSpec | undefined {
  return spec.endpoints.find((e) => e.id === endpointId);
}

/**
 * The checks of one connection attempt to a WebSocket endpoint: its WebSocket buckets (attempts
 * per IP or account, sized with `connectJitterMs` for the handshakes) and any REST cost of
 * connecting (Binance's WebSocket API costs 2 weight) under the limits a REST client of the same
 * venue uses, so both share one budget.
 *
 * @param spec - the venue's WebSocket spec (`getWebSocketSpec`).
 * @param rest - the venue's REST spec (`getVenueSpec(spec.id)`).
 * @param endpointId - the endpoint's id in the spec.
 * @param identity - credential, tier, uid.
 * @param options - the REST resolve options, and the connection id.
 * @returns the checks for `limiter.waitForCapacity` and what the venue counts, or a typed error.
 * @example
 * ```ts
 * const r = resolveConnect(getWebSocketSpec('binance'), getVenueSpec('binance'), 'ws-api', { credential: null });
 * if (r.ok) await limiter.waitForCapacity(r.checks);
 * ```
 */
export function resolveConnect(
  spec: WebSocketSpec,
  rest: VenueSpec,
  endpointId: string,
  identity: Identity,
  options: WebSocketResolveOptions = {},
): WebSocketResolveResult {
  const endpoint = endpointOf(spec, endpointId);
  if (endpoint === undefined)
    return fail('unknown_ws_endpoint', `${spec.id}: no WebSocket endpoint "${endpointId}" (known: ${spec.endpoints.map((e) => e.id).join(', ')})`);
  if (endpoint.auth === 'private' && identity.credential === null)
    return fail('credential_required', `${spec.id}: WebSocket endpoint "${endpoint.id}" is private; the identity has no credential`);
  const p: Pending = { checks: [], charges: [] };
  const connectOptions: WebSocketResolveOptions = { ...options, jitterMs: options.connectJitterMs ?? DEFAULT_CONNECT_JITTER_MS };
  for (const c of endpoint.connect.charges) {
    const problem = chargeWebSocket(spec, endpoint, c.bucket, c.cost, identity, connectOptions, p);
    if (problem !== undefined) return settle(p, problem);
  }
  return settle(p, chargeRest(rest, endpoint.connect.rest ?? [], identity, options, p));
}

/** Fills `{name}` path parameters of a REST path template from the operation's parameters. */
function fillPath(template: string, params: unknown): { path: string } | { missing: string } {
  let missing: string | undefined;
  const path = template.replace(/\{([^}]+)\}/g, (_m, name: string) => {
    const v = readPath(params, name);
    if (typeof v === 'string' || typeof v === 'number') return encodeURIComponent(String(v));
    missing ??= name;
    return '';
  });
  return missing === undefined ? { path } : { missing };
}

/** Charges a WebSocket API operation on the REST buckets of its REST equivalent. */
function chargeOperation(
  rest: VenueSpec,
  endpoint: WebSocketEndpointSpec,
  message: ClassifiedMessage,
  identity: Identity,
  options: ResolveOptions,
  p: Pending,
): WebSocketResolveResult | string | undefined {
  const op = endpoint.operations?.find((o) => o.operation === message.operation);
  if (op === undefined) return undefined;
  const problem = chargeRest(rest, op.rest ?? [], identity, options, p);
  if (problem !== undefined) return problem;
  if (op.endpoint === undefined) return undefined;
  const restEndpoint = rest.endpoints.find((e) => e.id === op.endpoint);
  if (restEndpoint === undefined) return `${rest.id}: WebSocket operation "${op.operation}" names unknown REST endpoint "${op.endpoint}"`;
  const params = readPath(message.json, op.paramsPath ?? '');
  const filled = fillPath(restEndpoint.path, params);
  if ('missing' in filled)
    return fail('missing_parameter', `${rest.id}: WebSocket operation "${op.operation}": parameter "${filled.missing}" is missing (${restEndpoint.path})`);
  const request: VenueRequest = {
    method: restEndpoint.method,
    path: filled.path,
    ...(restEndpoint.host === undefined ? {} : { host: restEndpoint.host }),
    ...(params === undefined ? {} : { body: params }),
  };
  const r = resolveCharges(rest, request, identity, options);
  if (!r.ok) return fail(r.error.code, `WebSocket operation "${op.operation}": ${r.error.message}`);
  if (r.endpoint?.id !== restEndpoint.id)
    return `${rest.id}: WebSocket operation "${op.operation}" resolved to REST endpoint "${r.endpoint?.id ?? 'the default'}", not "${restEndpoint.id}"`;
  const excluded = new Set(op.excludeRestBuckets ?? []);
  for (const c of r.charges) {
    if (excluded.has(c.bucket.id)) continue;
    addCheck(p, { key: c.key, limit: c.limit, cost: c.cost });
    addCharge(p, { key: c.key, bucket: c.bucket.id, source: 'rest', cost: c.venueCost, charge: c.charge });
  }
  return undefined;
}

/**
 * The checks of one message sent on a connection: the WebSocket buckets its kind counts on (per
 * connection, per IP, per account) and, for a WebSocket API request, the REST buckets of its REST
 * equivalent, priced by the REST spec (`resolveRequest`'s rules and limits), so a WebSocket order
 * and a REST order of one account share the same limiter keys.
 *
 * @param spec - the venue's WebSocket spec.
 * @param rest - the venue's REST spec.
 * @param endpointId - the endpoint the connection is open to.
 * @param message - the message, classified (`classifyMessage`), or only its kind for a frame.
 * @param identity - credential, tier, uid.
 * @param options - the REST resolve options, the connection id, `unseenPongs`.
 * @returns the checks and venue charges, or a typed error (`missing_parameter` for an operation
 * whose REST pricing needs a parameter the message lacks, ...); nothing is ever priced at a guess.
 * @example
 * ```ts
 * const m = classifyMessage(endpoint, { id: 1, method: 'order.place', params: { symbol: 'BTCUSDT', ... } });
 * const r = resolveMessage(ws, rest, 'ws-api', m, identity, { connectionId });
 * ```
 */
export function resolveMessage(
  spec: WebSocketSpec,
  rest: VenueSpec,
  endpointId: string,
  message: Pick<ClassifiedMessage, 'kind' | 'operation' | 'json'>,
  identity: Identity,
  options: WebSocketResolveOptions = {},
): WebSocketResolveResult {
  const endpoint = endpointOf(spec, endpointId);
  if (endpoint === undefined)
    return fail('unknown_ws_endpoint', `${spec.id}: no WebSocket endpoint "${endpointId}" (known: ${spec.endpoints.map((e) => e.id).join(', ')})`);
  const p: Pending = { checks: [], charges: [] };
  for (const r of endpoint.messages) {
    if (r.kinds !== undefined && !r.kinds.includes(message.kind)) continue;
    const problem = chargeWebSocket(spec, endpoint, r.bucket, r.cost, identity, options, p);
    if (problem !== undefined) return settle(p, problem);
  }
  if (message.kind === 'request') {
    const r = chargeOperation(
      rest,
      endpoint,
      { kind: message.kind, topics: [], bytes: 0, json: message.json, ...(message.operation === undefined ? {} : { operation: message.operation }) },
      identity,
      options,
      p,
    );
    if (typeof r === 'string') return settle(p, r);
    if (r !== undefined) return r;
  }
  return settle(p, undefined);
}

/** The message kinds a bucket counts on an endpoint (every kind for a rule without `kinds`). */
export function kindsCounted(endpoint: WebSocketEndpointSpec, bucketId: string): ReadonlySet<MessageKind> | 'all' {
  const kinds = new Set<MessageKind>();
  for (const r of endpoint.messages) {
    if (r.bucket !== bucketId) continue;
    if (r.kinds === undefined) return 'all';
    for (const k of r.kinds) kinds.add(k);
  }
  return kinds;
}
