// Compares every endpoint of the hand-authored specs with ccxt's cost for the same call: the request
// ccxt sends for its endpoint (host, method, path, read from ccxt's own `sign()` by the harness), ccxt's
// `calculateRateLimiterCost` for it at the exchange's `rateLimit`, and the spec's charges for the same
// request, both as a sustained rate (calls per second that endpoint alone allows). Shared by the
// generator (scripts/generate-ccxt-comparison.mjs, from the built package) and the test that checks the
// checked-in result is current (test/ccxt-comparison.test.ts, from the sources).
import { ccxtEndpoints, exchangeInstance } from './ccxt-harness.mjs';

/** The rate of a sustained stream of one call, rounded to 6 significant digits (the file stays stable). */
const round = (x) => (Number.isFinite(x) ? Number(x.toPrecision(6)) : null);

/** A path template with its placeholders unnamed, for matching (`/api/v3/order/{id}` -> `/api/v3/order/{}`). */
const shape = (path) => path.replace(/\{[^}]*\}/g, '{}').replace(/\/+$/, '');

/** Values for parameters a spec needs to price a call (a partition, a category): typical, not venue-specific. */
const FILL = {
  pair: 'XBTUSD',
  symbol: 'BTCUSDT',
  symbols: '["BTCUSDT"]',
  instId: 'BTC-USDT',
  instType: 'SPOT',
  category: 'linear',
  currency: 'BTC',
  currency_pair: 'BTC_USDT',
  contract: 'BTC_USDT',
  coin: 'BTC',
  ccy: 'BTC',
};
const missing = (message) => /(?:parameter|length of|has no|by) "([^"]*)"/.exec(message)?.[1];
/** A parameter as ccxt reads it: a JSON list as a list. */
const asCcxt = (v) => (typeof v === 'string' && v.startsWith('[') ? JSON.parse(v) : v);

/**
 * The spec's sustained rate for one call: per charge, the bucket's rate (limit per window, or refill per
 * second, at the spec's default tier) over the call's cost on it; the call's rate is the smallest. A
 * parameter the spec needs to price the call (a pair, a category) is filled with a typical value.
 */
function specRate(lib, spec, request) {
  let query = {};
  let body;
  for (let attempt = 0; attempt < 4; attempt++) {
    const r = lib.resolveCharges(spec, { ...request, query, ...(body === undefined ? {} : { body }) }, { credential: 'comparison-key' });
    if (!r.ok) {
      const name = r.error.code === 'missing_parameter' ? missing(r.error.message) : undefined;
      const inItems = r.error.message.includes('an item of');
      if (name === undefined || (!inItems && name in query) || (name === '' && body !== undefined)) return { refused: `${r.error.code}: ${r.error.message}` };
      // a batch whose body is the list: one item, with the fields a partition needs
      if (name === '') body = [{ ...FILL }];
      else if (inItems && body !== undefined) body = body.map((item) => ({ ...item, [name]: FILL[name] ?? '1' }));
      else query = { ...query, [name]: FILL[name] ?? '1' };
      continue;
    }
    let best;
    for (const c of r.charges) {
      if (c.venueCost <= 0) continue;
      const b = lib.bucketForTier(c.bucket, r.tier);
      const perSec = (b.algorithm === 'token-bucket' ? b.refillPerSec : (b.limit * 1000) / b.windowMs) / c.venueCost;
      if (best === undefined || perSec < best.perSec) best = { perSec, bucket: c.bucket.id, cost: c.venueCost };
    }
    const params = { ...query, ...(body === undefined ? {} : { '': body }) };
    return best === undefined ? { perSec: null, bucket: null, cost: 0, params } : { ...best, params };
  }
  return { refused: 'too many parameters to fill' };
}

/** ccxt's endpoints of one exchange by request shape (`METHOD host/path`), the costliest where several share one. */
function ccxtByShape(ccxt, id) {
  const ex = exchangeInstance(ccxt, id, true);
  const out = new Map();
  for (const e of ccxtEndpoints(ccxt, id)) {
    if (e.request.error !== undefined) continue;
    const pathParams = Object.fromEntries([...e.path.matchAll(/\{([^}]+)\}/g)].map((m, i) => [m[1], `v${i}`]));
    const costWith = (params) => Number(ex.calculateRateLimiterCost(e.api, e.method, e.path, { ...pathParams, ...params }, e.config));
    const entry = {
      ccxtId: id,
      endpoint: `${e.section} ${e.method} ${e.path}`,
      host: e.request.host,
      path: e.request.path,
      cost: costWith({}),
      costWith,
      rateLimitMs: ex.rateLimit,
    };
    for (const key of [`${e.method} ${e.request.host}${shape(e.request.path)}`, `${e.method} ${shape(e.request.path)}`]) {
      const prev = out.get(key);
      if (prev === undefined || entry.cost > prev.cost) out.set(key, entry);
    }
  }
  return out;
}

/**
 * One row per endpoint of every hand-authored spec that names ccxt exchanges (`ccxtIds`): ccxt's endpoint
 * for the same call and its rate, the spec's rate and binding bucket, and the verdict: `faster` when the spec
 * lets more of these calls through per second than ccxt, `not-faster`, `no-ccxt-endpoint` when ccxt has no
 * endpoint for the call, `spec-refused` when the spec cannot price the call without parameters it names.
 */
export function ccxtComparison(ccxt, lib) {
  const rows = [];
  for (const spec of lib.handAuthoredSpecs) {
    const ids = (spec.ccxtIds ?? []).filter((id) => ccxt.exchanges.includes(id));
    if (ids.length === 0) continue;
    const byShape = new Map();
    for (const id of ids) for (const [k, v] of ccxtByShape(ccxt, id)) if (!byShape.has(k) || v.cost > byShape.get(k).cost) byShape.set(k, v);
    for (const e of spec.endpoints) {
      const key = e.host === undefined ? `${e.method} ${shape(e.path)}` : `${e.method} ${e.host}${shape(e.path)}`;
      const c = byShape.get(key);
      const row = { venue: spec.id, endpoint: e.id, method: e.method, path: e.path };
      if (c === undefined) {
        rows.push({ ...row, verdict: 'no-ccxt-endpoint' });
        continue;
      }
      const s = specRate(lib, spec, { method: e.method, path: c.path.replace(/\{[^}]*\}/g, 'x'), host: c.host });
      // ccxt's cost of the same call: with the parameters the spec needed (a symbol, a list of one order)
      const sent = s.params === undefined ? {} : Object.fromEntries(Object.entries(s.params).flatMap(([k, v]) => (k === '' ? [] : [[k, asCcxt(v)]])));
      const cost = c.costWith(sent);
      const ccxtPerSec = cost > 0 && c.rateLimitMs > 0 ? 1000 / (cost * c.rateLimitMs) : Number.POSITIVE_INFINITY;
      const ccxtSide = { id: c.ccxtId, endpoint: c.endpoint, cost: round(cost), rateLimitMs: c.rateLimitMs, perSec: round(ccxtPerSec) };
      if (s.refused !== undefined) {
        rows.push({ ...row, ccxt: ccxtSide, spec: { refused: s.refused }, verdict: 'spec-refused' });
        continue;
      }
      const specPerSec = s.perSec ?? Number.POSITIVE_INFINITY;
      const faster = specPerSec > ccxtPerSec * (1 + 1e-9);
      rows.push({
        ...row,
        ccxt: ccxtSide,
        spec: { perSec: round(specPerSec), bucket: s.bucket, cost: s.cost, filled: Object.keys(s.params) },
        verdict: faster ? 'faster' : 'not-faster',
      });
    }
  }
  return rows;
}
