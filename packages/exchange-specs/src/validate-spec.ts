/*
 * One file over 400 lines: the checks follow venue-spec.ts field by field, so that the check of a
 * field is found next to the checks of its neighbours.
 */
import { bucketMaxCost } from './resolve-charges.js';
import { SpecChecker, checkVerification, describe, join, type Obj, type SpecError } from './spec-checker.js';
import type { VenueSpec } from './venue-spec.js';

export type { SpecError } from './spec-checker.js';

/** The result of {@link validateSpec}. */
export type ValidateResult = { readonly ok: true; readonly spec: VenueSpec } | { readonly ok: false; readonly errors: readonly SpecError[] };

const SCOPES = ['ip', 'uid', 'key', 'subaccount'];
const WINDOWS = ['fixed-window-aligned', 'fixed-window-anchored', 'sliding-window'];
const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
const VERDICTS = ['rate_limited', 'banned', 'overloaded', 'error'];
const MARKETS = ['spot', 'margin', 'perpetual', 'delivery', 'options', 'wallet'];
const RESET_UNITS = ['ms-from-now', 's-from-now', 'epoch-ms', 'epoch-s'];
const WAIT_UNITS = ['s', 'ms', 'epoch-s', 'epoch-ms'];

class Checker extends SpecChecker {
  /** A parameter name: a string, where `''` names the body itself. */
  param(o: Obj, k: string, path: string): void {
    if (typeof o[k] !== 'string') this.fail(join(path, k), `expected a parameter name (a string; '' is the body), got ${describe(o[k])}`);
  }
}

/**
 * Checks an optional regular expression field: a string that compiles, with at least one capture
 * group (the part of the text it extracts).
 */
function regexField(c: Checker, o: Obj, k: string, path: string): void {
  if (o[k] === undefined) return;
  const src = c.str(o, k, path);
  if (src === undefined) return;
  let groups: number;
  try {
    groups = (new RegExp(`(?:${src})|`).exec('')?.length ?? 1) - 1;
  } catch (e) {
    c.fail(join(path, k), `not a valid regular expression: ${(e as Error).message}`);
    return;
  }
  if (groups < 1) c.fail(join(path, k), `expected a regular expression with a capture group, got "${src}"`);
}

function checkCostExpr(c: Checker, v: unknown, path: string, allowResponse: boolean): void {
  if (typeof v === 'number') {
    if (!Number.isFinite(v) || v < 0) c.fail(path, `expected a cost >= 0, got ${v}`);
    return;
  }
  const o = c.obj(v, path);
  if (!o) return;
  const kind = c.oneOf(o, 'kind', path, ['constant', 'table', 'presence', 'count', 'lookup', 'response']);
  const fields: Record<string, readonly string[]> = {
    constant: ['value'],
    table: ['param', 'measure', 'rows', 'above', 'absent', 'defaultValue'],
    presence: ['param', 'present', 'absent'],
    count: ['param', 'base', 'per', 'every', 'maxItems'],
    lookup: ['param', 'values', 'otherwise'],
    response: ['path', 'per', 'every'],
  };
  if (kind !== undefined) c.known(o, path, ['kind', ...(fields[kind] ?? [])]);
  switch (kind) {
    case 'constant':
      c.num(o, 'value', path, 'nonneg');
      return;
    case 'table': {
      c.param(o, 'param', path);
      c.oneOf(o, 'measure', path, ['value', 'count'], true);
      const rows = c.arr(o['rows'], join(path, 'rows'));
      let prev = -Infinity;
      rows?.forEach((r, i) => {
        const rp = join(join(path, 'rows'), i);
        const ro = c.obj(r, rp);
        if (!ro) return;
        c.known(ro, rp, ['upTo', 'cost']);
        const upTo = c.num(ro, 'upTo', rp, 'any');
        c.num(ro, 'cost', rp, 'nonneg');
        if (upTo !== undefined) {
          if (upTo <= prev) c.fail(join(rp, 'upTo'), `rows must be in increasing upTo order (${upTo} after ${prev})`);
          prev = upTo;
        }
      });
      if (rows && rows.length === 0) c.fail(join(path, 'rows'), 'expected at least one row');
      c.num(o, 'above', path, 'nonneg', true);
      c.num(o, 'defaultValue', path, 'any', true);
      if (o['absent'] !== undefined) checkCostExpr(c, o['absent'], join(path, 'absent'), false);
      return;
    }
    case 'presence':
      c.str(o, 'param', path);
      checkCostExpr(c, o['present'], join(path, 'present'), false);
      checkCostExpr(c, o['absent'], join(path, 'absent'), false);
      return;
    case 'count':
      c.param(o, 'param', path);
      c.num(o, 'base', path, 'nonneg');
      c.num(o, 'per', path, 'nonneg');
      c.num(o, 'every', path, 'positive', true);
      c.num(o, 'maxItems', path, 'positive', true);
      return;
    case 'lookup': {
      c.str(o, 'param', path);
      const values = c.obj(o['values'], join(path, 'values'));
      for (const k of Object.keys(values ?? {})) c.num(values ?? {}, k, join(path, 'values'), 'nonneg');
      c.num(o, 'otherwise', path, 'nonneg', true);
      return;
    }
    case 'response':
      if (!allowResponse) c.fail(join(path, 'kind'), 'a response-size cost cannot be nested');
      if (typeof o['path'] !== 'string') c.fail(join(path, 'path'), `expected a string, got ${describe(o['path'])}`);
      c.num(o, 'per', path, 'nonneg');
      c.num(o, 'every', path, 'positive', true);
      return;
    default:
      return;
  }
}

function checkCostRules(c: Checker, v: unknown, path: string, bucketIds: ReadonlySet<string>): void {
  const rules = c.arr(v, path);
  rules?.forEach((r, i) => {
    const rp = join(path, i);
    const o = c.obj(r, rp);
    if (!o) return;
    c.known(o, rp, ['bucket', 'cost', 'charge', 'when', 'provenance']);
    const b = c.str(o, 'bucket', rp);
    if (b !== undefined && !bucketIds.has(b)) c.fail(join(rp, 'bucket'), `unknown bucket "${b}"`);
    checkCostExpr(c, o['cost'], join(rp, 'cost'), true);
    c.oneOf(o, 'charge', rp, ['always', 'success', 'failure'], true);
    if (o['when'] !== undefined) {
      const wp = join(rp, 'when');
      const w = c.obj(o['when'], wp);
      if (w) {
        c.known(w, wp, ['param', 'in', 'notIn', 'items']);
        c.param(w, 'param', wp);
        for (const k of ['in', 'notIn']) {
          if (w[k] === undefined) continue;
          c.arr(w[k], join(wp, k))?.forEach((x, j) => {
            if (typeof x !== 'string') c.fail(join(join(wp, k), j), `expected a string, got ${describe(x)}`);
          });
        }
        if (w['items'] !== undefined) {
          const ip = join(wp, 'items');
          const io = c.obj(w['items'], ip);
          if (io) {
            c.known(io, ip, ['min', 'max']);
            const min = c.num(io, 'min', ip, 'nonneg', true);
            const max = c.num(io, 'max', ip, 'nonneg', true);
            for (const [k, v] of [
              ['min', min],
              ['max', max],
            ] as const) {
              if (v !== undefined && !Number.isInteger(v)) c.fail(join(ip, k), `expected a whole number of items, got ${v}`);
            }
            if (min === undefined && max === undefined) c.fail(ip, 'expected min or max');
            if (min !== undefined && max !== undefined && min > max) c.fail(ip, `min (${min}) is above max (${max})`);
          }
        }
        if (w['in'] === undefined && w['notIn'] === undefined && w['items'] === undefined) c.fail(wp, 'expected in, notIn or items');
      }
    }
    if (o['provenance'] !== undefined) c.provenance(o['provenance'], join(rp, 'provenance'));
  });
}

function checkBucket(c: Checker, v: unknown, path: string): string | undefined {
  const o = c.obj(v, path);
  if (!o) return undefined;
  const windowed = ['limit', 'windowMs'];
  const tokens = ['capacity', 'refillPerSec'];
  const sized = o['algorithm'] === 'token-bucket' ? tokens : typeof o['algorithm'] === 'string' ? windowed : [...windowed, ...tokens];
  c.known(o, path, ['id', 'scope', 'partition', 'description', 'provenance', 'algorithm', 'tiers', ...sized]);
  const id = c.str(o, 'id', path);
  c.oneOf(o, 'scope', path, SCOPES);
  c.provenance(o['provenance'], join(path, 'provenance'));
  if (o['partition'] !== undefined) {
    const pp = join(path, 'partition');
    const p = c.obj(o['partition'], pp);
    if (p) {
      const kind = c.oneOf(p, 'kind', pp, ['endpoint', 'param', 'items']);
      c.known(p, pp, kind === 'param' ? ['kind', 'param', 'pattern'] : kind === 'items' ? ['kind', 'list', 'field', 'pattern'] : ['kind']);
      if (kind === 'param') c.str(p, 'param', pp);
      if (kind === 'items') {
        c.param(p, 'list', pp);
        c.str(p, 'field', pp);
      }
      if (kind === 'param' || kind === 'items') regexField(c, p, 'pattern', pp);
    }
  }
  const algorithm = c.oneOf(o, 'algorithm', path, [...WINDOWS, 'token-bucket']);
  const tiers = o['tiers'] === undefined ? undefined : c.obj(o['tiers'], join(path, 'tiers'));
  if (algorithm === 'token-bucket') {
    c.num(o, 'capacity', path, 'positive');
    c.num(o, 'refillPerSec', path, 'positive');
    for (const [name, t] of Object.entries(tiers ?? {})) {
      const tp = join(join(path, 'tiers'), name);
      const to = c.obj(t, tp);
      if (to) {
        c.num(to, 'capacity', tp, 'positive');
        c.num(to, 'refillPerSec', tp, 'positive');
      }
    }
  } else if (algorithm !== undefined) {
    c.num(o, 'limit', path, 'positive');
    c.num(o, 'windowMs', path, 'positive');
    for (const [name, t] of Object.entries(tiers ?? {})) {
      const tp = join(join(path, 'tiers'), name);
      const to = c.obj(t, tp);
      if (to) c.num(to, 'limit', tp, 'positive');
    }
  }
  return id;
}

function checkBodyMatches(c: Checker, v: unknown, path: string): void {
  c.arr(v, path)?.forEach((m, i) => {
    const mp = join(path, i);
    const o = c.obj(m, mp);
    if (!o) return;
    c.known(o, mp, ['path', 'equals', 'startsWith', 'contains']);
    if (typeof o['path'] !== 'string') c.fail(join(mp, 'path'), `expected a string, got ${describe(o['path'])}`);
    if (o['equals'] === undefined && o['startsWith'] === undefined && o['contains'] === undefined) c.fail(mp, 'expected equals, startsWith or contains');
    if (o['equals'] !== undefined) {
      c.arr(o['equals'], join(mp, 'equals'))?.forEach((e, j) => {
        if (typeof e !== 'string' && typeof e !== 'number') c.fail(join(join(mp, 'equals'), j), `expected a string or number, got ${describe(e)}`);
      });
    }
    if (o['startsWith'] !== undefined) c.str(o, 'startsWith', mp);
    if (o['contains'] !== undefined) c.str(o, 'contains', mp);
  });
}

function checkWait(c: Checker, v: unknown, path: string): void {
  c.arr(v, path)?.forEach((w, i) => {
    const wp = join(path, i);
    const o = c.obj(w, wp);
    if (!o) return;
    const from = c.oneOf(o, 'from', wp, ['header', 'body', 'fixed', 'window-end']);
    c.known(
      o,
      wp,
      from === 'header'
        ? ['from', 'header', 'unit']
        : from === 'body'
          ? ['from', 'path', 'unit', 'pattern']
          : from === 'fixed'
            ? ['from', 'ms']
            : from === 'window-end'
              ? ['from', 'windowMs']
              : ['from'],
    );
    if (from === 'header') {
      lowerCase(c, o, 'header', wp, false);
      c.oneOf(o, 'unit', wp, WAIT_UNITS);
    } else if (from === 'body') {
      c.str(o, 'path', wp);
      c.oneOf(o, 'unit', wp, WAIT_UNITS);
      regexField(c, o, 'pattern', wp);
    } else if (from === 'fixed') {
      c.num(o, 'ms', wp, 'positive');
    } else if (from === 'window-end') {
      c.num(o, 'windowMs', wp, 'positive');
    }
  });
}

function lowerCase(c: Checker, o: Obj, k: string, path: string, optional: boolean): void {
  const h = c.str(o, k, path, optional);
  if (h !== undefined && h !== h.toLowerCase()) c.fail(join(path, k), `header names are lower-case, got "${h}"`);
}

/**
 * Checks that `data` is a well-formed {@link VenueSpec}: every field's type and range, bucket ids
 * unique and referenced ones defined, source ids defined, dates `YYYY-MM-DD`, header names
 * lower-case.
 *
 * @param data - anything (parsed JSON, a data module's export).
 * @returns `{ ok: true, spec }` or `{ ok: false, errors }`, each error naming the path of the bad
 * field (for example `buckets[2].windowMs`).
 * @example
 * ```ts
 * const r = validateSpec(JSON.parse(text));
 * if (!r.ok) throw new Error(r.errors.map((e) => `${e.path}: ${e.message}`).join('\n'));
 * ```
 */
export function validateSpec(data: unknown): ValidateResult {
  const root = new Checker(new Set(), false);
  const o = root.obj(data, '');
  if (!o) return { ok: false, errors: [{ path: '', message: root.errors[0]?.message ?? 'expected an object' }] };

  const sourceIds = new Set<string>();
  const sources = o['sources'] === undefined ? undefined : root.obj(o['sources'], 'sources');
  if (o['sources'] === undefined) root.fail('sources', 'expected an object of sources, got nothing');
  for (const [id, s] of Object.entries(sources ?? {})) {
    sourceIds.add(id);
    const sp = join('sources', id);
    const so = root.obj(s, sp);
    if (!so) continue;
    root.known(so, sp, ['url', 'retrieved', 'note']);
    const url = root.str(so, 'url', sp);
    if (url !== undefined && !/^https?:\/\//.test(url)) root.fail(join(sp, 'url'), `expected an http(s) URL, got "${url}"`);
    const date = root.str(so, 'retrieved', sp);
    if (date !== undefined && !/^\d{4}-\d{2}(-\d{2})?$/.test(date)) root.fail(join(sp, 'retrieved'), `expected YYYY-MM-DD (or YYYY-MM), got "${date}"`);
    root.str(so, 'note', sp, true);
  }
  const c = new Checker(sourceIds, o['verification'] !== undefined);
  c.errors.push(...root.errors);

  c.known(o, '', [
    'id',
    'venue',
    'product',
    'origin',
    'ccxtVersion',
    'ccxtIds',
    'sources',
    'buckets',
    'endpoints',
    'global',
    'fallback',
    'feedback',
    'errors',
    'pathMatch',
    'defaultTier',
    'verification',
    'markets',
    'pricedElsewhere',
    'notes',
  ]);
  if (o['markets'] !== undefined) {
    c.arr(o['markets'], 'markets')?.forEach((m, i) => {
      if (typeof m !== 'string' || !MARKETS.includes(m)) c.fail(join('markets', i), `expected one of ${MARKETS.join(', ')}, got ${describe(m)}`);
    });
  }
  if (o['verification'] !== undefined) checkVerification(c, o['verification']);
  c.str(o, 'id', '');
  c.str(o, 'venue', '');
  c.str(o, 'product', '');
  const origin = c.oneOf(o, 'origin', '', ['hand-authored', 'ccxt-derived']);
  if (origin === 'ccxt-derived') c.str(o, 'ccxtVersion', '');
  if (o['ccxtIds'] !== undefined) {
    if (origin !== 'hand-authored') c.fail('ccxtIds', 'only a hand-authored spec names the ccxt exchanges it documents');
    const seen = new Set<string>();
    c.arr(o['ccxtIds'], 'ccxtIds')?.forEach((x, i) => {
      if (typeof x !== 'string' || !/^[a-z0-9]+$/.test(x))
        c.fail(join('ccxtIds', i), `expected a ccxt exchange id (lower-case letters and digits), got ${describe(x)}`);
      else if (seen.has(x)) c.fail(join('ccxtIds', i), `duplicate ccxt id "${x}"`);
      else seen.add(x);
    });
  }

  const bucketIds = new Set<string>();
  c.arr(o['buckets'], 'buckets')?.forEach((b, i) => {
    const id = checkBucket(c, b, join('buckets', i));
    if (id === undefined) return;
    if (bucketIds.has(id)) c.fail(join(join('buckets', i), 'id'), `duplicate bucket id "${id}"`);
    bucketIds.add(id);
  });

  const endpointIds = new Set<string>();
  c.arr(o['endpoints'], 'endpoints')?.forEach((e, i) => {
    const ep = join('endpoints', i);
    const eo = c.obj(e, ep);
    if (!eo) return;
    c.known(eo, ep, ['id', 'method', 'path', 'host', 'auth', 'costs', 'publicCosts', 'provenance', 'note']);
    const id = c.str(eo, 'id', ep);
    if (id !== undefined) {
      if (endpointIds.has(id)) c.fail(join(ep, 'id'), `duplicate endpoint id "${id}"`);
      endpointIds.add(id);
    }
    c.oneOf(eo, 'method', ep, METHODS);
    const path = c.str(eo, 'path', ep);
    if (path !== undefined && !path.startsWith('/')) c.fail(join(ep, 'path'), `expected a path starting with "/", got "${path}"`);
    const host = c.str(eo, 'host', ep, true);
    if (host !== undefined && !/^[a-z0-9.-]+(:\d+)?$/.test(host)) c.fail(join(ep, 'host'), `expected a lower-case host name, got "${host}"`);
    const auth = c.oneOf(eo, 'auth', ep, ['public', 'private']);
    checkCostRules(c, eo['costs'], join(ep, 'costs'), bucketIds);
    if (eo['publicCosts'] !== undefined) {
      if (auth === 'private') c.fail(join(ep, 'publicCosts'), 'a private endpoint is never called without a credential; publicCosts would never apply');
      checkCostRules(c, eo['publicCosts'], join(ep, 'publicCosts'), bucketIds);
    }
    c.provenance(eo['provenance'], join(ep, 'provenance'));
  });

  if (o['global'] !== undefined) checkCostRules(c, o['global'], 'global', bucketIds);
  if (o['fallback'] !== undefined) {
    const fo = c.obj(o['fallback'], 'fallback');
    if (fo) {
      c.known(fo, 'fallback', ['costs', 'publicCosts', 'provenance']);
      checkCostRules(c, fo['costs'], 'fallback.costs', bucketIds);
      if (fo['publicCosts'] !== undefined) checkCostRules(c, fo['publicCosts'], 'fallback.publicCosts', bucketIds);
      c.provenance(fo['provenance'], 'fallback.provenance');
    }
  }

  if (o['feedback'] !== undefined) {
    c.arr(o['feedback'], 'feedback')?.forEach((f, i) => {
      const fp = join('feedback', i);
      const fo = c.obj(f, fp);
      if (!fo) return;
      c.known(fo, fp, ['header', 'meaning', 'buckets', 'limitHeader', 'resetHeader', 'resetUnit', 'provenance']);
      lowerCase(c, fo, 'header', fp, false);
      c.oneOf(fo, 'meaning', fp, ['used', 'remaining']);
      c.arr(fo['buckets'], join(fp, 'buckets'))?.forEach((b, j) => {
        if (typeof b !== 'string' || !bucketIds.has(b)) c.fail(join(join(fp, 'buckets'), j), `unknown bucket ${describe(b)}`);
      });
      lowerCase(c, fo, 'limitHeader', fp, true);
      lowerCase(c, fo, 'resetHeader', fp, true);
      c.oneOf(fo, 'resetUnit', fp, RESET_UNITS, fo['resetHeader'] === undefined);
      c.provenance(fo['provenance'], join(fp, 'provenance'));
    });
  }

  if (o['errors'] !== undefined) {
    const ruleIds = new Set<string>();
    c.arr(o['errors'], 'errors')?.forEach((r, i) => {
      const rp = join('errors', i);
      const ro = c.obj(r, rp);
      if (!ro) return;
      c.known(ro, rp, ['id', 'status', 'body', 'hasHeader', 'lacksHeader', 'verdict', 'counted', 'wait', 'penalize', 'provenance', 'note']);
      const id = c.str(ro, 'id', rp);
      if (id !== undefined) {
        if (ruleIds.has(id)) c.fail(join(rp, 'id'), `duplicate error rule id "${id}"`);
        ruleIds.add(id);
      }
      if (ro['status'] !== undefined) {
        c.arr(ro['status'], join(rp, 'status'))?.forEach((s, j) => {
          if (typeof s !== 'number' || !Number.isInteger(s) || s < 100 || s > 599)
            c.fail(join(join(rp, 'status'), j), `expected an HTTP status, got ${describe(s)}`);
        });
      }
      if (ro['body'] !== undefined) checkBodyMatches(c, ro['body'], join(rp, 'body'));
      if (ro['status'] === undefined && ro['body'] === undefined) c.fail(rp, 'expected status or body conditions');
      lowerCase(c, ro, 'hasHeader', rp, true);
      lowerCase(c, ro, 'lacksHeader', rp, true);
      c.oneOf(ro, 'verdict', rp, VERDICTS);
      if (typeof ro['counted'] !== 'boolean') c.fail(join(rp, 'counted'), `expected a boolean, got ${describe(ro['counted'])}`);
      if (ro['wait'] !== undefined) checkWait(c, ro['wait'], join(rp, 'wait'));
      const pen = ro['penalize'];
      if (pen !== undefined && pen !== 'charged') {
        c.arr(pen, join(rp, 'penalize'))?.forEach((b, j) => {
          if (typeof b !== 'string' || !bucketIds.has(b)) c.fail(join(join(rp, 'penalize'), j), `unknown bucket ${describe(b)}`);
        });
      }
      c.provenance(ro['provenance'], join(rp, 'provenance'));
    });
  }

  if (o['defaultTier'] !== undefined) {
    const tier = c.str(o, 'defaultTier', '');
    const buckets = Array.isArray(o['buckets']) ? (o['buckets'] as unknown[]) : [];
    const known = buckets.some(
      (b) => typeof b === 'object' && b !== null && typeof (b as Obj)['tiers'] === 'object' && tier !== undefined && tier in ((b as Obj)['tiers'] as Obj),
    );
    if (tier !== undefined && !known) c.fail('defaultTier', `no bucket lists tier "${tier}"`);
  }
  c.oneOf(o, 'pathMatch', '', ['exact', 'suffix'], true);
  if (o['pricedElsewhere'] !== undefined) {
    c.arr(o['pricedElsewhere'], 'pricedElsewhere')?.forEach((e, i) => {
      const ep = join('pricedElsewhere', i);
      const eo = c.obj(e, ep);
      if (!eo) return;
      c.known(eo, ep, ['prefix', 'spec']);
      const prefix = c.str(eo, 'prefix', ep);
      if (prefix !== undefined && !prefix.startsWith('/')) c.fail(join(ep, 'prefix'), `expected a path prefix starting with "/", got "${prefix}"`);
      const other = c.str(eo, 'spec', ep);
      if (other !== undefined && other === o['id']) c.fail(join(ep, 'spec'), 'a spec cannot send its own paths to itself');
    });
  }

  if (c.errors.length === 0) {
    // A bucket that can never admit a cost charged to it would refuse every such request.
    const spec = data as VenueSpec;
    spec.buckets.forEach((b, i) => {
      const ceiling =
        b.algorithm === 'token-bucket'
          ? Math.min(b.capacity, ...Object.values(b.tiers ?? {}).map((t) => t.capacity))
          : Math.min(b.limit, ...Object.values(b.tiers ?? {}).map((t) => t.limit));
      const heaviest = bucketMaxCost(spec, b.id);
      if (heaviest > ceiling) {
        c.fail(
          join(join('buckets', i), b.algorithm === 'token-bucket' ? 'capacity' : 'limit'),
          `bucket "${b.id}" can never admit the cost of ${heaviest} a rule charges it (at most ${ceiling} at once); raise the capacity or split the endpoint`,
        );
      }
    });
  }

  if (c.errors.length > 0) return { ok: false, errors: c.errors };
  return { ok: true, spec: data as VenueSpec };
}
