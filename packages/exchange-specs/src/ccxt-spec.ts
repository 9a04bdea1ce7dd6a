import { maxCost } from './evaluate-cost.js';
import type { CostExpr, EndpointSpec, VenueSpec } from './venue-spec.js';

/**
 * The ccxt bucket's capacity over the largest cost: ccxt's throttler lets a request of any cost go
 * once its bucket is not in debt, a token bucket cannot. The capacity is the heaviest request times
 * this, plus {@link CCXT_CAPACITY_REFILL_MS} of refill, so the limiter's safe capacity (less the
 * margin, 4 % by default, and the refill of the 50-ms jitter allowance) still admits it at once.
 */
export const CCXT_CAPACITY_HEADROOM = 1.1;
/** See {@link CCXT_CAPACITY_HEADROOM}. */
export const CCXT_CAPACITY_REFILL_MS = 100;

/**
 * The compact file the generator writes per ccxt exchange (`src/generated/<id>.json`): only the
 * rate-limit facts. `endpoints` lists the endpoints whose cost is not `defaultCost`, each
 * `[method, path, cost, auth]` where cost is a number or a ccxt cost object reduced to
 * `{ cost, noSymbol?, noCoin?, byLimit?, byType? }`.
 */
export interface CcxtFile {
  readonly id: string;
  readonly name: string;
  readonly ccxtVersion: string;
  readonly generated: string;
  /** ccxt's `rateLimit`: milliseconds per cost unit. */
  readonly rateLimitMs: number;
  readonly defaultCost: number;
  readonly endpoints: readonly (readonly [string, string, number | CcxtCost, 'public' | 'private'])[];
}

/** A ccxt per-endpoint cost object, reduced to the parts that change the cost. */
export interface CcxtCost {
  readonly cost: number;
  readonly noSymbol?: number;
  readonly noCoin?: number;
  readonly byLimit?: readonly (readonly [number, number])[];
  readonly byType?: Readonly<Record<string, number>>;
}

function costExpr(c: number | CcxtCost): CostExpr {
  if (typeof c === 'number') return { kind: 'constant', value: c };
  let expr: CostExpr = { kind: 'constant', value: c.cost };
  if (c.byLimit !== undefined && c.byLimit.length > 0) {
    // ccxt: with a limit, the first [max, cost] row with limit <= max; without one, the base cost.
    expr = { kind: 'table', param: 'limit', rows: c.byLimit.map(([upTo, cost]) => ({ upTo, cost })), absent: c.cost, above: c.byLimit[c.byLimit.length - 1]?.[1] ?? c.cost };
  }
  if (c.byType !== undefined) expr = { kind: 'lookup', param: 'type', values: c.byType, otherwise: c.cost };
  if (c.noSymbol !== undefined) expr = { kind: 'presence', param: 'symbol', present: expr, absent: c.noSymbol };
  if (c.noCoin !== undefined) expr = { kind: 'presence', param: 'coin', present: expr, absent: c.noCoin };
  return expr;
}

/** The capacity of a ccxt bucket whose heaviest request costs `heaviest` (see {@link CCXT_CAPACITY_HEADROOM}). */
export function ccxtCapacity(heaviest: number, refillPerSec: number): number {
  return Math.max(1, Math.ceil(Math.max(0, heaviest) * CCXT_CAPACITY_HEADROOM + (refillPerSec * CCXT_CAPACITY_REFILL_MS) / 1000));
}

/**
 * Turns a generated ccxt file into spec data (validate it before use). ccxt paces every request of
 * an exchange instance through one leaky bucket refilled at `1000 / rateLimit` units per second;
 * ccxt's bucket holds 1 unit but lets a request of any cost through when it is not in debt (the
 * cost becomes debt), which a token bucket cannot express: the spec keeps one `ccxt` token bucket
 * refilled at ccxt's rate whose capacity is the largest cost any endpoint (or the default) charges
 * times {@link CCXT_CAPACITY_HEADROOM} plus 100 ms of refill ({@link ccxtCapacity}), so every request
 * can be admitted and heavy ones are paced by the refill; ccxt's default cost of 1 is the documented fallback. Everything is
 * marked `ccxt-derived`.
 */
export function specFromCcxt(data: unknown): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const f = data as CcxtFile;
  if (!Array.isArray(f.endpoints)) return data;
  const provenance = { source: 'ccxt', confidence: 'ccxt-derived' } as const;
  const seen = new Set<string>();
  let heaviest = Number.isFinite(f.defaultCost) ? f.defaultCost : 1;
  const endpoints: EndpointSpec[] = [];
  for (const [method, path, cost, auth] of f.endpoints) {
    const id = `${method} ${path}`;
    if (seen.has(id)) continue;
    seen.add(id);
    const expr = costExpr(cost);
    heaviest = Math.max(heaviest, maxCost(expr));
    endpoints.push({ id, method: method as EndpointSpec['method'], path, auth, costs: [{ bucket: 'ccxt', cost: expr }], provenance });
  }
  const spec: VenueSpec = {
    id: f.id,
    venue: f.name,
    product: 'all APIs ccxt describes',
    origin: 'ccxt-derived',
    pathMatch: 'suffix',
    ccxtVersion: f.ccxtVersion,
    sources: {
      ccxt: { url: `https://www.npmjs.com/package/ccxt/v/${f.ccxtVersion}`, retrieved: f.generated, note: `js/src/${f.id}.js describe(): rateLimit ${f.rateLimitMs} ms per unit and per-endpoint costs` },
    },
    buckets: [{ id: 'ccxt', scope: 'ip', algorithm: 'token-bucket', capacity: ccxtCapacity(heaviest, 1000 / f.rateLimitMs), refillPerSec: 1000 / f.rateLimitMs, provenance, description: "ccxt's pacing of one exchange instance" }],
    endpoints,
    fallback: { costs: [{ bucket: 'ccxt', cost: { kind: 'constant', value: f.defaultCost } }], provenance },
  };
  return spec;
}
