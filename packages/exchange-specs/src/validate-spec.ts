/*
 * validateSpec: a venue spec's top level (sources, buckets, endpoints, feedback, errors, verification),
 * with the field checks of validate-spec-fields.ts.
 */
import { bucketMaxCost } from './resolve-charges.js';
import { checkVerification, describe, join, type Obj, type SpecError } from './spec-checker.js';
import type { VenueSpec } from './venue-spec.js';
import {
  Checker,
  MARKETS,
  METHODS,
  RESET_UNITS,
  VERDICTS,
  checkBodyMatches,
  checkBucket,
  checkCostRules,
  checkWait,
  lowerCase,
} from './validate-spec-fields.js';

export type { SpecError } from './spec-checker.js';

/** The result of {@link validateSpec}. */
export type ValidateResult = { readonly ok: true; readonly spec: VenueSpec } | { readonly ok: false; readonly errors: readonly SpecError[] };

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
