// The five Binance specs against the per-endpoint weights of Binance's official Python connector (a dated
// fixture extracted by scripts/binance-connector-weights.mjs): for every endpoint both list and every case
// the connector's text states (a parameter present or absent, a limit, a list length), the spec charges at
// least the connector's weight on the bucket of that weight's scope. A spec that charges less fails.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { getVenueSpec } from '../src/registry.js';
import { resolveRequest } from '../src/resolve-request.js';
import type { VenueSpec } from '../src/venue-spec.js';

interface WeightCase {
  readonly when?: Readonly<Record<string, string | number>>;
  readonly scope?: 'ip' | 'uid';
  readonly value: number;
}

interface ConnectorEndpoint {
  readonly family: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';
  readonly path: string;
  readonly text: string;
  readonly scope: 'ip' | 'uid';
  readonly cases: readonly WeightCase[];
}

interface Fixture {
  readonly source: string;
  readonly commit: string;
  readonly committed: string;
  readonly read: string;
  readonly endpoints: readonly ConnectorEndpoint[];
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/binance-connector-weights.json', import.meta.url), 'utf8')) as Fixture;

const FAMILIES = ['binance-spot', 'binance-usdm', 'binance-coinm', 'binance-options', 'binance-sapi'] as const;

/** The spec buckets that count a weight of each scope: the IP weight (spot, futures, options; /sapi per endpoint) and the UID weight (/sapi). */
const WEIGHT_BUCKETS: Readonly<Record<'ip' | 'uid', readonly string[]>> = { ip: ['request_weight', 'ip_weight'], uid: ['uid_weight'] };

/**
 * Endpoints whose connector text states no weight on a weight bucket, and why the spec is right without one.
 * A new text of that kind fails until it is listed here.
 */
const NO_WEIGHT: Readonly<Record<string, string>> = {
  'GET /fapi/v1/fundingRate': 'its own 500 per 5 min per IP, shared with fundingInfo (the spec: funding_5m, and 1 IP weight on the safe side)',
};

const SAMPLE: Readonly<Record<string, string>> = { symbol: 'BTCUSDT', pair: 'BTCUSD', coin: 'BTC', asset: 'BTC', computeCommissionRates: 'true' };

/** The parameters that name the instruments of a request (at most one of them is sent). */
const SYMBOL_PARAMS = ['symbol', 'symbols', 'pair'];

/** The request parameters of a case: a present parameter gets a sample value, a count a list of that many symbols. */
function params(when: WeightCase['when']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(when ?? {})) {
    if (v === 'absent') continue;
    if (v === 'present') out[k] = SAMPLE[k] ?? '1';
    else if (k === 'symbols' && typeof v === 'number') out[k] = JSON.stringify(Array.from({ length: v }, (_, i) => `S${i}USDT`));
    else out[k] = String(v);
  }
  return out;
}

interface Shortfall {
  readonly endpoint: string;
  readonly when: string;
  readonly connector: number;
  readonly spec: number | string;
}

/** The spec's charge on a scope's weight buckets for every request a case describes (with and without a symbol unless the case names the instruments). */
function compare(spec: VenueSpec, e: ConnectorEndpoint, c: WeightCase): { priced: boolean; shortfalls: Shortfall[] } {
  const scope = c.scope ?? e.scope;
  const base = params(c.when);
  const decided = SYMBOL_PARAMS.some((k) => c.when !== undefined && k in c.when);
  const variants = decided ? [base] : [base, { symbol: SAMPLE['symbol'] ?? '', ...base }];
  const shortfalls: Shortfall[] = [];
  let priced = false;
  let lastError = '';
  for (const query of variants) {
    const r = resolveRequest(spec, { method: e.method, path: e.path, query }, { credential: 'key', uid: 'uid' });
    if (!r.ok) {
      if (r.error.code === 'unknown_endpoint') return { priced: false, shortfalls: [] };
      lastError = `${r.error.code}: ${r.error.message}`;
      continue;
    }
    priced = true;
    const charged = r.charges.filter((x) => WEIGHT_BUCKETS[scope].includes(x.bucket)).reduce((s, x) => s + x.cost, 0);
    if (charged < c.value) shortfalls.push({ endpoint: `${e.method} ${e.path}`, when: JSON.stringify(query), connector: c.value, spec: charged });
  }
  if (!priced) shortfalls.push({ endpoint: `${e.method} ${e.path}`, when: JSON.stringify(c.when ?? {}), connector: c.value, spec: lastError });
  return { priced: true, shortfalls };
}

describe(`Binance specs against binance-connector-python ${fixture.commit.slice(0, 7)} (${fixture.committed}, read ${fixture.read})`, () => {
  it('the fixture names its source, commit and dates, and holds every family', () => {
    expect(fixture.source).toBe('https://github.com/binance/binance-connector-python');
    expect(fixture.commit).toMatch(/^[0-9a-f]{40}$/);
    expect(fixture.read).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    for (const family of FAMILIES) expect(fixture.endpoints.filter((e) => e.family === family).length, family).toBeGreaterThan(0);
  });

  it('every weight text is machine-read, or listed with the reason it states none', () => {
    const unread = fixture.endpoints.filter((e) => e.cases.length === 0).map((e) => `${e.method} ${e.path}`);
    expect(unread.sort()).toEqual(Object.keys(NO_WEIGHT).sort());
  });

  it.each(FAMILIES.map((f) => [f]))('%s charges at least the connector on every endpoint both list', (family) => {
    const spec = getVenueSpec(family);
    const shortfalls: Shortfall[] = [];
    let compared = 0;
    for (const e of fixture.endpoints.filter((x) => x.family === family)) {
      let priced = false;
      for (const c of e.cases) {
        const r = compare(spec, e, c);
        priced ||= r.priced;
        shortfalls.push(...r.shortfalls);
      }
      if (priced) compared++;
    }
    expect(compared, `${family}: endpoints compared`).toBeGreaterThan(0);
    expect(shortfalls).toEqual([]);
  });
});
