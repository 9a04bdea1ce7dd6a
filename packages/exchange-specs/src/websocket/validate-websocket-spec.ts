// The checks follow websocket-spec.ts field by field; those against the REST spec come last.
import { bucketMaxCost } from '../resolve-charges.js';
import { SpecChecker, checkVerification, describe, join, type Obj, type SpecError } from '../spec-checker.js';
import type { VenueSpec } from '../venue-spec.js';
import { MESSAGE_KINDS, type WebSocketSpec } from './websocket-spec.js';

/** The result of {@link validateWebSocketSpec}. */
export type ValidateWebSocketResult = { readonly ok: true; readonly spec: WebSocketSpec } | { readonly ok: false; readonly errors: readonly SpecError[] };

const SCOPES = ['ip', 'uid', 'key', 'subaccount', 'connection'];
const WINDOWS = ['fixed-window-aligned', 'fixed-window-anchored', 'sliding-window'];
const CAP_COUNTS = ['connections', 'subscriptions', 'topics-per-message', 'message-bytes'];

/** The WebSocket spec's checks: its sources are read first (`checkSources`), and every number is quoted. */
class Checker extends SpecChecker {
  constructor() {
    super(new Set<string>(), true);
  }

  /** A path into a message: a string, where `''` is the message itself. */
  path(o: Obj, k: string, path: string, optional = false): void {
    if (o[k] === undefined && optional) return;
    if (typeof o[k] !== 'string') this.fail(join(path, k), `expected a path (a string; '' is the message), got ${describe(o[k])}`);
  }
}

function checkSources(c: Checker, v: unknown): void {
  const o = c.obj(v, 'sources');
  for (const [id, s] of Object.entries(o ?? {})) {
    c.sources.add(id);
    const sp = join('sources', id);
    const so = c.obj(s, sp);
    if (!so) continue;
    c.known(so, sp, ['url', 'retrieved', 'note']);
    const url = c.str(so, 'url', sp);
    if (url !== undefined && !/^https?:\/\//.test(url)) c.fail(join(sp, 'url'), `expected an http(s) URL, got "${url}"`);
    const date = c.str(so, 'retrieved', sp);
    if (date !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(date)) c.fail(join(sp, 'retrieved'), `expected YYYY-MM-DD, got "${date}"`);
    c.str(so, 'note', sp, true);
  }
}

function checkBucket(c: Checker, v: unknown, path: string): string | undefined {
  const o = c.obj(v, path);
  if (!o) return undefined;
  const algorithm = c.oneOf(o, 'algorithm', path, [...WINDOWS, 'token-bucket']);
  const sized = algorithm === 'token-bucket' ? ['capacity', 'refillPerSec'] : ['limit', 'windowMs'];
  c.known(o, path, ['id', 'scope', 'description', 'provenance', 'algorithm', ...sized]);
  const id = c.str(o, 'id', path);
  c.oneOf(o, 'scope', path, SCOPES);
  c.str(o, 'description', path, true);
  c.provenance(o['provenance'], join(path, 'provenance'));
  if (algorithm === 'token-bucket') {
    c.num(o, 'capacity', path, 'positive');
    c.num(o, 'refillPerSec', path, 'positive');
  } else if (algorithm !== undefined) {
    c.num(o, 'limit', path, 'positive');
    c.num(o, 'windowMs', path, 'positive');
  }
  return id;
}

function checkCap(c: Checker, v: unknown, path: string): string | undefined {
  const o = c.obj(v, path);
  if (!o) return undefined;
  c.known(o, path, ['id', 'counts', 'scope', 'limit', 'kinds', 'description', 'provenance']);
  const id = c.str(o, 'id', path);
  const counts = c.oneOf(o, 'counts', path, CAP_COUNTS);
  const scope = c.oneOf(o, 'scope', path, SCOPES);
  const limit = c.num(o, 'limit', path, 'positive');
  if (limit !== undefined && !Number.isInteger(limit)) c.fail(join(path, 'limit'), `expected a whole number, got ${limit}`);
  if (counts === 'connections' && scope === 'connection')
    c.fail(join(path, 'scope'), 'a connection cap counts connections of an IP or an account, not of one connection');
  if ((counts === 'topics-per-message' || counts === 'message-bytes') && scope !== 'connection')
    c.fail(join(path, 'scope'), `a ${counts} cap is per message: its scope is "connection"`);
  if (o['kinds'] !== undefined) {
    if (counts !== 'message-bytes') c.fail(join(path, 'kinds'), 'only a message-bytes cap names message kinds');
    c.strings(o['kinds'], join(path, 'kinds'), MESSAGE_KINDS);
  }
  c.str(o, 'description', path, true);
  c.provenance(o['provenance'], join(path, 'provenance'));
  return id;
}

function checkCharges(c: Checker, v: unknown, path: string, bucketIds: ReadonlySet<string>, rest: boolean): void {
  c.arr(v, path)?.forEach((x, i) => {
    const p = join(path, i);
    const o = c.obj(x, p);
    if (!o) return;
    const field = rest ? 'restBucket' : 'bucket';
    c.known(o, p, [field, 'cost', 'provenance']);
    const b = c.str(o, field, p);
    if (!rest && b !== undefined && !bucketIds.has(b)) c.fail(join(p, field), `unknown bucket "${b}"`);
    c.num(o, 'cost', p, 'nonneg');
    if (o['provenance'] !== undefined) c.provenance(o['provenance'], join(p, 'provenance'));
  });
}

function checkFormat(c: Checker, v: unknown, path: string): void {
  const o = c.obj(v, path);
  if (!o) return;
  c.known(o, path, ['operationPath', 'subscribe', 'unsubscribe', 'login', 'ping', 'pong', 'topicsPath', 'topicList', 'topicPrefixPath', 'text']);
  c.path(o, 'operationPath', path);
  for (const k of ['subscribe', 'unsubscribe', 'login', 'ping', 'pong']) if (o[k] !== undefined) c.strings(o[k], join(path, k));
  c.path(o, 'topicsPath', path, true);
  c.path(o, 'topicPrefixPath', path, true);
  c.oneOf(o, 'topicList', path, ['items', 'comma-after-colon'], true);
  if ((o['subscribe'] !== undefined) !== (o['topicsPath'] !== undefined))
    c.fail(path, 'subscribe operations and topicsPath go together (the topics of a subscribe message are counted against the caps)');
  if (o['text'] !== undefined) {
    const t = c.obj(o['text'], join(path, 'text'));
    for (const [k, kind] of Object.entries(t ?? {})) {
      if (typeof kind !== 'string' || !(MESSAGE_KINDS as readonly string[]).includes(kind))
        c.fail(join(join(path, 'text'), k), `expected a message kind, got ${describe(kind)}`);
    }
  }
}

function checkEndpoint(c: Checker, v: unknown, path: string, bucketIds: ReadonlySet<string>, capIds: ReadonlySet<string>): string | undefined {
  const o = c.obj(v, path);
  if (!o) return undefined;
  c.known(o, path, ['id', 'url', 'auth', 'description', 'connect', 'messages', 'caps', 'operations', 'format', 'serverPingIntervalMs', 'maxLifetimeMs']);
  const id = c.str(o, 'id', path);
  const url = c.str(o, 'url', path);
  if (url !== undefined && !/^wss?:\/\//.test(url)) c.fail(join(path, 'url'), `expected a ws(s) URL, got "${url}"`);
  c.oneOf(o, 'auth', path, ['public', 'private']);
  c.str(o, 'description', path, true);
  const cp = join(path, 'connect');
  const co = c.obj(o['connect'], cp);
  if (co) {
    c.known(co, cp, ['charges', 'rest', 'provenance']);
    checkCharges(c, co['charges'], join(cp, 'charges'), bucketIds, false);
    if (co['rest'] !== undefined) checkCharges(c, co['rest'], join(cp, 'rest'), bucketIds, true);
    if (co['provenance'] !== undefined) c.provenance(co['provenance'], join(cp, 'provenance'));
  }
  c.arr(o['messages'], join(path, 'messages'))?.forEach((x, i) => {
    const p = join(join(path, 'messages'), i);
    const mo = c.obj(x, p);
    if (!mo) return;
    c.known(mo, p, ['bucket', 'kinds', 'cost', 'provenance']);
    const b = c.str(mo, 'bucket', p);
    if (b !== undefined && !bucketIds.has(b)) c.fail(join(p, 'bucket'), `unknown bucket "${b}"`);
    if (mo['kinds'] !== undefined) c.strings(mo['kinds'], join(p, 'kinds'), MESSAGE_KINDS);
    c.num(mo, 'cost', p, 'nonneg');
    if (mo['provenance'] !== undefined) c.provenance(mo['provenance'], join(p, 'provenance'));
  });
  if (o['caps'] !== undefined) {
    c.arr(o['caps'], join(path, 'caps'))?.forEach((x, i) => {
      if (typeof x !== 'string' || !capIds.has(x)) c.fail(join(join(path, 'caps'), i), `unknown cap ${describe(x)}`);
    });
  }
  const ops = new Set<string>();
  if (o['operations'] !== undefined) {
    c.arr(o['operations'], join(path, 'operations'))?.forEach((x, i) => {
      const p = join(join(path, 'operations'), i);
      const oo = c.obj(x, p);
      if (!oo) return;
      c.known(oo, p, ['operation', 'endpoint', 'rest', 'excludeRestBuckets', 'paramsPath', 'provenance', 'note']);
      const name = c.str(oo, 'operation', p);
      if (name !== undefined) {
        if (ops.has(name)) c.fail(join(p, 'operation'), `duplicate operation "${name}"`);
        ops.add(name);
      }
      c.str(oo, 'endpoint', p, true);
      if (oo['rest'] !== undefined) checkCharges(c, oo['rest'], join(p, 'rest'), bucketIds, true);
      if (oo['endpoint'] === undefined && oo['rest'] === undefined)
        c.fail(p, 'expected endpoint or rest: an operation that spends no REST bucket needs no mapping');
      if (oo['excludeRestBuckets'] !== undefined) c.strings(oo['excludeRestBuckets'], join(p, 'excludeRestBuckets'));
      c.path(oo, 'paramsPath', p, true);
      c.str(oo, 'note', p, true);
      c.provenance(oo['provenance'], join(p, 'provenance'));
    });
    if (o['format'] === undefined) c.fail(join(path, 'format'), 'an endpoint with operations needs a format (where the operation name is)');
  }
  if (o['format'] !== undefined) checkFormat(c, o['format'], join(path, 'format'));
  c.num(o, 'serverPingIntervalMs', path, 'positive', true);
  c.num(o, 'maxLifetimeMs', path, 'positive', true);
  return id;
}

/** Checks against the REST spec: REST buckets and endpoints named exist, and no REST cost exceeds what sizes the REST bucket's safe limit. */
function checkAgainstRest(c: Checker, spec: WebSocketSpec, rest: VenueSpec): void {
  if (rest.id !== spec.id) c.fail('id', `the WebSocket spec "${spec.id}" is checked against REST spec "${rest.id}": the ids must be equal`);
  const restCharge = (path: string, restBucket: string, cost: number): void => {
    const b = rest.buckets.find((x) => x.id === restBucket);
    if (b === undefined) return c.fail(path, `unknown REST bucket "${restBucket}" of ${rest.id}`);
    if (b.partition !== undefined) c.fail(path, `REST bucket "${restBucket}" is partitioned: price through an endpoint instead`);
    const heaviest = bucketMaxCost(rest, restBucket);
    if (cost > heaviest)
      c.fail(
        path,
        `costs ${cost} on REST bucket "${restBucket}", more than any REST rule (${heaviest}): the REST and WebSocket clients would derive different limits for one bucket`,
      );
  };
  spec.endpoints.forEach((e, i) => {
    const ep = join('endpoints', i);
    (e.connect.rest ?? []).forEach((r, j) => restCharge(join(join(ep, 'connect.rest'), j), r.restBucket, r.cost));
    (e.operations ?? []).forEach((o, j) => {
      const op = join(join(ep, 'operations'), j);
      (o.rest ?? []).forEach((r, k) => restCharge(join(join(op, 'rest'), k), r.restBucket, r.cost));
      if (o.endpoint !== undefined && !rest.endpoints.some((x) => x.id === o.endpoint))
        c.fail(join(op, 'endpoint'), `unknown REST endpoint "${o.endpoint}" of ${rest.id}`);
      for (const x of o.excludeRestBuckets ?? [])
        if (!rest.buckets.some((b) => b.id === x)) c.fail(join(op, 'excludeRestBuckets'), `unknown REST bucket "${x}" of ${rest.id}`);
    });
  });
}

/**
 * Checks that `data` is a well-formed {@link WebSocketSpec}: every field's type and range, ids
 * unique and referenced ones defined, every provenance quoting the documentation (a WebSocket spec
 * always carries its verification), dates `YYYY-MM-DD`; with `rest`, that the REST buckets and
 * endpoints it names exist in the venue's REST spec and that no REST cost of a WebSocket rule
 * exceeds what the REST spec itself charges that bucket (both clients then derive the same limit).
 *
 * @param data - anything (a data module's export).
 * @param rest - the REST spec of the same id, for the cross checks.
 * @returns `{ ok: true, spec }` or `{ ok: false, errors }` naming each bad field's path.
 * @example
 * ```ts
 * const r = validateWebSocketSpec(data, getVenueSpec('okx'));
 * if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('\n'));
 * ```
 */
export function validateWebSocketSpec(data: unknown, rest?: VenueSpec): ValidateWebSocketResult {
  const c = new Checker();
  const o = c.obj(data, '');
  if (!o) return { ok: false, errors: c.errors };
  c.known(o, '', ['id', 'venue', 'product', 'origin', 'sources', 'buckets', 'caps', 'endpoints', 'verification', 'notes']);
  checkSources(c, o['sources']);
  c.str(o, 'id', '');
  c.str(o, 'venue', '');
  c.str(o, 'product', '');
  c.oneOf(o, 'origin', '', ['hand-authored']);
  if (o['verification'] === undefined) c.fail('verification', 'a WebSocket spec carries its verification (every number quoted)');
  else checkVerification(c, o['verification']);
  const bucketIds = new Set<string>();
  c.arr(o['buckets'], 'buckets')?.forEach((b, i) => {
    const id = checkBucket(c, b, join('buckets', i));
    if (id === undefined) return;
    if (bucketIds.has(id)) c.fail(join(join('buckets', i), 'id'), `duplicate bucket id "${id}"`);
    bucketIds.add(id);
  });
  const capIds = new Set<string>();
  if (o['caps'] !== undefined) {
    c.arr(o['caps'], 'caps')?.forEach((x, i) => {
      const id = checkCap(c, x, join('caps', i));
      if (id === undefined) return;
      if (capIds.has(id)) c.fail(join(join('caps', i), 'id'), `duplicate cap id "${id}"`);
      capIds.add(id);
    });
  }
  const endpointIds = new Set<string>();
  const endpoints = c.arr(o['endpoints'], 'endpoints');
  if (endpoints !== undefined && endpoints.length === 0) c.fail('endpoints', 'expected at least one endpoint');
  endpoints?.forEach((e, i) => {
    const id = checkEndpoint(c, e, join('endpoints', i), bucketIds, capIds);
    if (id === undefined) return;
    if (endpointIds.has(id)) c.fail(join(join('endpoints', i), 'id'), `duplicate endpoint id "${id}"`);
    endpointIds.add(id);
  });
  if (o['notes'] !== undefined) c.strings(o['notes'], 'notes');
  if (c.errors.length === 0) {
    const spec = data as WebSocketSpec;
    // A bucket no message or connection ever charges is a typo; one whose cost exceeds its limit admits nothing.
    spec.buckets.forEach((b, i) => {
      const byConnect = spec.endpoints.some((e) => e.connect.charges.some((x) => x.bucket === b.id));
      const byMessage = spec.endpoints.some((e) => e.messages.some((x) => x.bucket === b.id));
      if (!byConnect && !byMessage) c.fail(join(join('buckets', i), 'id'), `bucket "${b.id}" is charged by no connection or message rule`);
      // Connection buckets are sized for the handshake's delay, message buckets for a message's: one bucket, one definition.
      if (byConnect && byMessage) c.fail(join(join('buckets', i), 'id'), `bucket "${b.id}" is charged by both connections and messages; keep them apart`);
      const ceiling = b.algorithm === 'token-bucket' ? b.capacity : b.limit;
      const heaviest = Math.max(0, ...spec.endpoints.flatMap((e) => [...e.connect.charges, ...e.messages].filter((x) => x.bucket === b.id).map((x) => x.cost)));
      if (heaviest > ceiling) c.fail(join(join('buckets', i), 'id'), `bucket "${b.id}" can never admit a cost of ${heaviest} (at most ${ceiling} at once)`);
    });
    if (rest !== undefined) checkAgainstRest(c, spec, rest);
  }
  if (c.errors.length > 0) return { ok: false, errors: c.errors };
  return { ok: true, spec: data as WebSocketSpec };
}
