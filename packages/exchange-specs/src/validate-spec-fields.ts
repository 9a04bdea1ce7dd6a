/*
 * The field checks of validateSpec (validate-spec.ts): buckets, cost expressions and rules, response
 * matches and waits, in the order of venue-spec.ts.
 */
import { SpecChecker, describe, join, type Obj } from './spec-checker.js';

const SCOPES = ['ip', 'uid', 'key', 'subaccount'];
const WINDOWS = ['fixed-window-aligned', 'fixed-window-anchored', 'sliding-window'];
export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'];
export const VERDICTS = ['rate_limited', 'banned', 'overloaded', 'error'];
export const MARKETS = ['spot', 'margin', 'perpetual', 'delivery', 'options', 'wallet'];
export const RESET_UNITS = ['ms-from-now', 's-from-now', 'epoch-ms', 'epoch-s'];
const WAIT_UNITS = ['s', 'ms', 'epoch-s', 'epoch-ms'];

export class Checker extends SpecChecker {
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

export function checkCostRules(c: Checker, v: unknown, path: string, bucketIds: ReadonlySet<string>): void {
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

export function checkBucket(c: Checker, v: unknown, path: string): string | undefined {
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

export function checkBodyMatches(c: Checker, v: unknown, path: string): void {
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

export function checkWait(c: Checker, v: unknown, path: string): void {
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

export function lowerCase(c: Checker, o: Obj, k: string, path: string, optional: boolean): void {
  const h = c.str(o, k, path, optional);
  if (h !== undefined && h !== h.toLowerCase()) c.fail(join(path, k), `header names are lower-case, got "${h}"`);
}
