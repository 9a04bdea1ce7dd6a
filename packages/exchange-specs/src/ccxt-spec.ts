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

/** Overrides of a {@link CcxtEndpointEntry}: what differs from its section. */
export interface CcxtEndpointOverrides {
  /** The request path, when it is not the section's prefix + `/` + the ccxt path (an RPC URL). */
  readonly path?: string;
  /** An index of {@link CcxtFile.hosts}. */
  readonly host?: number;
  readonly auth?: 'public' | 'private';
}

/**
 * One endpoint of a {@link CcxtSection}: `[method, ccxtPath]` at the default cost, `[method,
 * ccxtPath, cost]`, or `[method, ccxtPath, cost, overrides]`. `cost` is a number or a cost
 * expression of the spec schema.
 */
export type CcxtEndpointEntry =
  | readonly [string, string]
  | readonly [string, string, number | CostExpr]
  | readonly [string, string, number | CostExpr, CcxtEndpointOverrides];

/** A section of ccxt's `api` tree (`sapi`, `private.spot`), with where ccxt sends its requests. */
export interface CcxtSection {
  /** ccxt's section names joined by dots. */
  readonly section: string;
  /** An index of {@link CcxtFile.hosts}. */
  readonly host: number;
  /** What ccxt puts before the path (`/sapi/v1`), `''` for nothing. */
  readonly prefix: string;
  /** `private` when ccxt signs the section's requests. */
  readonly auth: 'public' | 'private';
  readonly endpoints: readonly CcxtEndpointEntry[];
}

/**
 * The compact file the generator writes per ccxt exchange (`src/generated/<id>.json`): only the
 * rate-limit facts. Every endpoint of ccxt's `api` tree is listed under its section, at the host
 * and path ccxt sends it to (so endpoints are told apart by host, section, version and path), with
 * the cost ccxt's own `calculateRateLimiterCost` charges, modifiers included (no symbol, no coin,
 * no pool id, no market, by limit, by type, by number of symbols) as cost expressions. ccxt
 * endpoints that send the same request (same method, host and path) carry one cost, the larger of
 * theirs (or a lookup by the parameter that names them, for RPC-style URLs). `unresolved` lists the
 * endpoints ccxt itself cannot send (a section without a URL), with ccxt's error.
 */
export interface CcxtFile {
  readonly id: string;
  readonly name: string;
  readonly ccxtVersion: string;
  readonly generated: string;
  /** ccxt's `rateLimit`: milliseconds per cost unit. */
  readonly rateLimitMs: number;
  readonly defaultCost: number;
  /** The ccxt class whose `calculateRateLimiterCost` the costs follow (`Exchange`: ccxt's base). */
  readonly semantics: string;
  readonly hosts: readonly string[];
  readonly sections: readonly CcxtSection[];
  /** `[section, method, ccxtPath, ccxt's error]`. */
  readonly unresolved: readonly (readonly [string, string, string, string])[];
}

/** The capacity of a ccxt bucket whose heaviest request costs `heaviest` (see {@link CCXT_CAPACITY_HEADROOM}). */
export function ccxtCapacity(heaviest: number, refillPerSec: number): number {
  return Math.max(1, Math.ceil(Math.max(0, heaviest) * CCXT_CAPACITY_HEADROOM + (refillPerSec * CCXT_CAPACITY_REFILL_MS) / 1000));
}

function joinPath(prefix: string, path: string): string {
  const p = `${prefix}/${path.replace(/^\//, '')}`;
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

/**
 * Turns a generated ccxt file into spec data (validate it before use), under the spec id `id`
 * (default: the file's ccxt id). ccxt paces every request of an exchange instance through one
 * leaky bucket refilled at `1000 / rateLimit` units per second; ccxt's bucket holds 1 unit but lets
 * a request of any cost through when it is not in debt (the cost becomes debt), which a token
 * bucket cannot express: the spec keeps one `ccxt` token bucket refilled at ccxt's rate whose
 * capacity is the largest cost any endpoint (or the default) charges times
 * {@link CCXT_CAPACITY_HEADROOM} plus 100 ms of refill ({@link ccxtCapacity}), so every request can
 * be admitted and heavy ones are paced by the refill; ccxt's default cost of 1 is the fallback for
 * paths ccxt does not list. Each endpoint is one request ccxt sends (host and full path, matched
 * exactly) and notes the ccxt endpoints it stands for. Everything is marked `ccxt-derived`.
 *
 * @throws Error when two entries for the same request carry different costs or auth (the
 * generator gives them one).
 */
export function specFromCcxt(data: unknown, id?: string): unknown {
  if (typeof data !== 'object' || data === null) return data;
  const f = data as CcxtFile;
  if (!Array.isArray(f.sections) || !Array.isArray(f.hosts)) return data;
  const provenance = { source: 'ccxt', confidence: 'ccxt-derived' } as const;
  let heaviest = Number.isFinite(f.defaultCost) ? f.defaultCost : 1;
  const byId = new Map<string, { endpoint: EndpointSpec; text: string; keys: string[] }>();
  for (const section of f.sections) {
    for (const entry of section.endpoints) {
      const [method, ccxtPath] = entry;
      const cost = entry[2] ?? 1;
      const extra: CcxtEndpointOverrides = entry[3] ?? {};
      const host = f.hosts[extra.host ?? section.host];
      const path = extra.path ?? joinPath(section.prefix, ccxtPath);
      const auth = extra.auth ?? section.auth;
      const expr: CostExpr = typeof cost === 'number' ? { kind: 'constant', value: cost } : cost;
      const endpointId = `${method} ${host ?? ''}${path}`;
      const text = JSON.stringify([expr, auth]);
      const key = `${section.section} ${method} ${ccxtPath}`;
      const seen = byId.get(endpointId);
      if (seen !== undefined) {
        if (seen.text !== text) throw new Error(`generated spec "${f.id}": ${endpointId} is listed with different costs or auth (${key})`);
        seen.keys.push(key);
        continue;
      }
      heaviest = Math.max(heaviest, maxCost(expr));
      const endpoint: EndpointSpec = {
        id: endpointId,
        method: method as EndpointSpec['method'],
        path,
        ...(host === undefined ? {} : { host }),
        auth,
        costs: [{ bucket: 'ccxt', cost: expr }],
        provenance,
      };
      byId.set(endpointId, { endpoint, text, keys: [key] });
    }
  }
  const endpoints = [...byId.values()].map(({ endpoint, keys }) => ({ ...endpoint, note: `ccxt ${keys.join('; ')}` }));
  const spec: VenueSpec = {
    id: id ?? f.id,
    venue: f.name,
    product: 'all APIs ccxt describes',
    origin: 'ccxt-derived',
    ccxtVersion: f.ccxtVersion,
    sources: {
      ccxt: {
        url: `https://www.npmjs.com/package/ccxt/v/${f.ccxtVersion}`,
        retrieved: f.generated,
        note: `js/src/${f.id}.js describe(): rateLimit ${f.rateLimitMs} ms per unit and per-endpoint costs, priced as ccxt's ${f.semantics}.calculateRateLimiterCost prices them`,
      },
    },
    buckets: [
      {
        id: 'ccxt',
        scope: 'ip',
        algorithm: 'token-bucket',
        capacity: ccxtCapacity(heaviest, 1000 / f.rateLimitMs),
        refillPerSec: 1000 / f.rateLimitMs,
        provenance,
        description: "ccxt's pacing of one exchange instance",
      },
    ],
    endpoints,
    fallback: { costs: [{ bucket: 'ccxt', cost: { kind: 'constant', value: f.defaultCost } }], provenance },
    notes: [`Estimated from ccxt ${f.ccxtVersion} (${f.id}): ccxt's own pacing, not the venue's documentation.`],
  };
  return spec;
}
