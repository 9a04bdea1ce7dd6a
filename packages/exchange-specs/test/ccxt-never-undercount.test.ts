// Every ccxt-derived spec charges at least what ccxt itself charges, for every endpoint ccxt lists
// and a set of parameters that reaches every branch of ccxt's cost function: ccxt's own
// `calculateRateLimiterCost` (the pinned ccxt devDependency, no network) against the spec's cost
// of the request ccxt sends, through `resolveRequest`, both in milliseconds of pacing.
import { readFileSync } from 'node:fs';
import ccxtModule from 'ccxt';
import { describe, expect, it } from 'vitest';
import { CCXT_VERSION, ccxtEndpoints, exchangeInstance, type CcxtApiEndpoint, type CcxtModule } from '../scripts/ccxt-harness.mjs';
import { generatedSpecIds, loadGeneratedFile } from '../src/generated-specs.js';
import { getVenueSpec, listVenues } from '../src/registry.js';
import { resolveRequest } from '../src/resolve-request.js';
import type { VenueSpec } from '../src/venue-spec.js';

const ccxt = ccxtModule as unknown as CcxtModule;

/** The ccxt-derived spec of a ccxt exchange, under whatever id it is listed. */
function generatedSpec(ccxtId: string): VenueSpec {
  const listing = listVenues().find((v) => v.ccxtId === ccxtId);
  if (listing === undefined) throw new Error(`no listing for ccxt exchange ${ccxtId}`);
  return getVenueSpec(listing.id);
}

type Params = Record<string, unknown>;

/** The cost-config keys the parameter sets below exercise; a config with another key fails. */
const _KNOWN_KEYS = new Set([
  'cost',
  'noSymbol',
  'noCoin',
  'noPoolId',
  'noMarket',
  'byLimit',
  'byType',
  'noSymbolAndNoSymbols',
  'byNumberOfSymbols',
  'v1',
  'v2',
  'v3',
]);

const around = (rows: unknown): number[] =>
  Array.isArray(rows)
    ? [...new Set(rows.flatMap((r: unknown) => (Array.isArray(r) && typeof r[0] === 'number' ? [r[0] - 1, r[0], r[0] + 1] : [])))].filter((x) => x >= 1)
    : [];

/**
 * The parameter sets for one cost config: every combination of each modifier's parameter absent
 * and present (limits and list lengths on both sides of every boundary, every listed type and an
 * unlisted one, every version), plus one set with all of them present.
 */
function parameterSets(config: Record<string, unknown>): Params[] {
  const dims: (readonly (readonly [string, unknown] | undefined)[])[] = [];
  const has = (k: string): boolean => k in config;
  if (has('noSymbol') || has('noSymbolAndNoSymbols')) dims.push([undefined, ['symbol', 'BTC/USDT']]);
  if (has('noCoin')) dims.push([undefined, ['coin', 'BTC']]);
  if (has('noPoolId')) dims.push([undefined, ['poolId', '2']]);
  if (has('noMarket')) dims.push([undefined, ['market', 'BTC-EUR']]);
  if (has('byLimit')) dims.push([undefined, ...[1, 1_000_000, ...around(config['byLimit'])].map((n) => ['limit', n] as const)]);
  if (has('byNumberOfSymbols') || has('noSymbolAndNoSymbols')) {
    dims.push([undefined, ...[1, 500, ...around(config['byNumberOfSymbols'])].map((n) => ['symbols', Array.from({ length: n }, (_, i) => `S${i}`)] as const)]);
  }
  if (has('byType')) dims.push([undefined, ['type', 'zz-unlisted'], ...Object.keys(config['byType'] as object).map((t) => ['type', t] as const)]);
  if (has('v1') || has('v2') || has('v3')) dims.push([undefined, ['version', 'v1'], ['version', 'v2'], ['version', 'v3']]);
  let sets: Params[] = [{}];
  for (const d of dims) sets = sets.flatMap((s) => d.map((v) => (v === undefined ? s : { ...s, [v[0]]: v[1] })));
  sets.push({ symbol: 'BTC/USDT', coin: 'BTC', poolId: '2', market: 'BTC-EUR', limit: 1000, symbols: ['S0', 'S1', 'S2'], type: 'zz-unlisted' });
  return sets;
}

const asText = (v: unknown): string => (typeof v === 'string' ? v : Array.isArray(v) ? v.join(',') : JSON.stringify(v));

interface Finding {
  readonly endpoint: string;
  readonly params: Params;
  readonly host: boolean;
  readonly ccxtMs: number;
  readonly specMs: number | string;
}

/** Compares ccxt's cost and the spec's for every endpoint of one exchange and every parameter set. */
function compare(ccxtId: string): { findings: Finding[]; checked: number; unresolved: CcxtApiEndpoint[] } {
  const spec = generatedSpec(ccxtId);
  const bucket = spec.buckets.find((b) => b.id === 'ccxt');
  if (bucket === undefined || bucket.algorithm !== 'token-bucket') throw new Error(`${ccxtId}: no ccxt token bucket`);
  const ex = exchangeInstance(ccxt, ccxtId, true);
  const findings: Finding[] = [];
  const unresolved: CcxtApiEndpoint[] = [];
  let checked = 0;
  for (const e of ccxtEndpoints(ccxt, ccxtId)) {
    const req = e.request;
    if (req.error !== undefined) {
      unresolved.push(e);
      continue;
    }
    const names = [...e.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    const pathParams = Object.fromEntries(names.map((n, i) => [n, `v${i}x`]));
    let path = req.path;
    for (const [n, v] of Object.entries(pathParams)) path = path.replace(`{${n}}`, v);
    // What ccxt itself adds to the request (Zaif's `method=get_info`), then the parameters.
    const sent: Record<string, string> = {};
    for (const [k, v] of Object.entries({ ...req.query, ...req.body })) sent[k] = asText(v);
    for (const params of parameterSets(e.config)) {
      const ccxtCost = Number(ex.calculateRateLimiterCost(e.api, e.method, e.path, { ...pathParams, ...params }, e.config));
      const ccxtMs = ccxtCost * ex.rateLimit;
      const query = { ...sent, ...Object.fromEntries(Object.entries(params).map(([k, v]) => [k, asText(v)])) };
      for (const withHost of [true, false]) {
        checked++;
        const r = resolveRequest(spec, { method: e.method, path, query, ...(withHost ? { host: req.host } : {}) }, { credential: 'placeholderkey' });
        let specMs: number | string;
        if (!r.ok) specMs = `${r.error.code}: ${r.error.message}`;
        else specMs = (r.charges.filter((c) => c.bucket === 'ccxt').reduce((s, c) => s + c.cost, 0) / bucket.refillPerSec) * 1000;
        if (!Number.isFinite(ccxtMs) || typeof specMs === 'string' || specMs < ccxtMs * (1 - 1e-9)) {
          findings.push({ endpoint: `${e.section} ${e.method} ${e.path} -> ${req.host}${req.path}`, params, host: withHost, ccxtMs, specMs });
        }
      }
    }
  }
  return { findings, checked, unresolved };
}

describe(`ccxt ${CCXT_VERSION}: no ccxt-derived spec charges less than ccxt`, () => {
  it('the installed ccxt is the exact version the package pins and the generator read', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { devDependencies: Record<string, string> };
    expect(pkg.devDependencies['ccxt']).toBe(CCXT_VERSION);
    const installed = JSON.parse(readFileSync(new URL('../node_modules/ccxt/package.json', import.meta.url), 'utf8')) as { version: string };
    expect(installed.version).toBe(CCXT_VERSION);
  });

  it('a spec is generated for every ccxt exchange with a rate limit, from the pinned ccxt version', () => {
    const paced = ccxt.exchanges.filter((id) => {
      const ex = exchangeInstance(ccxt, id, false);
      return ex.rateLimit > 0;
    });
    expect([...generatedSpecIds()]).toEqual([...paced].sort());
    for (const id of generatedSpecIds()) expect(loadGeneratedFile(id)?.ccxtVersion, id).toBe(CCXT_VERSION);
  });

  it.each(generatedSpecIds().map((id) => [id]))('%s: every endpoint, every parameter set', (ccxtId) => {
    const { findings, checked, unresolved } = compare(ccxtId);
    expect(checked).toBeGreaterThan(0);
    // Endpoints ccxt cannot send itself (a section without a URL) are listed as such in the file.
    const listed = (loadGeneratedFile(ccxtId)?.unresolved ?? []).map(([s, m, p]) => `${s} ${m} ${p}`);
    expect(unresolved.map((e) => `${e.section} ${e.method} ${e.path}`)).toEqual(listed);
    const undercounted = [...new Set(findings.map((f) => f.endpoint))];
    if (findings.length > 0) console.log(ccxtId, JSON.stringify(findings.slice(0, 3)));
    expect(findings.slice(0, 5), `${undercounted.length} endpoints priced below ccxt or refused: ${undercounted.slice(0, 20).join(', ')}`).toEqual([]);
  });
});
