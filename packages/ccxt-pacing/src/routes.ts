import { listVenues, resolveVenueId } from '@core/exchange-specs';

/** Where one HTTP call of a ccxt exchange goes: the URL, and the ccxt API family it was signed for when known. */
export interface CallSite {
  /** The URL (a `URL`, or its `hostname` and `pathname` alone: see {@link siteOf}). */
  readonly url: Pick<URL, 'hostname' | 'pathname'>;
  /** ccxt's `api` argument of `sign` (`'public'`, `'fapiPrivate'`, `['contract', 'public']`...), when the call was signed by ccxt. */
  readonly api?: unknown;
}

/** A routing rule: the first rule whose conditions all hold names the call's spec. */
interface Rule {
  /** The path starts with this. */
  readonly prefix?: string;
  /** ccxt's API family (its first element when a list) matches. */
  readonly api?: RegExp;
  /** The URL's host matches (a venue's own host; tests repoint hosts, so `api` comes first where it tells). */
  readonly host?: RegExp;
  readonly spec: string;
}

const BINANCE: readonly Rule[] = [
  { prefix: '/sapi/', spec: 'binance-sapi' },
  { prefix: '/fapi/', spec: 'binance-usdm' },
  { prefix: '/dapi/', spec: 'binance-coinm' },
  { prefix: '/eapi/', spec: 'binance-options' },
  { prefix: '/api/', spec: 'binance-spot' },
  { prefix: '/futures/data/', api: /^dapi/, spec: 'binance-coinm' },
  { prefix: '/futures/data/', api: /^fapi/, spec: 'binance-usdm' },
  { prefix: '/futures/data/', host: /^dapi\./, spec: 'binance-coinm' },
  { prefix: '/futures/data/', spec: 'binance-usdm' },
];

const KUCOIN: readonly Rule[] = [
  { api: /^futures/, spec: 'kucoin-futures' },
  { api: /^uta/, spec: 'kucoin-unified' },
  { api: /^(public|private)$/, spec: 'kucoin' },
  { host: /^api-futures\./, spec: 'kucoin-futures' },
  { prefix: '/api/ua/', spec: 'kucoin-unified' },
];

/** Each ccxt id whose calls span several specs: its rules, tried in order, before its plain spec. */
const RULES: Readonly<Record<string, readonly Rule[]>> = {
  binance: BINANCE,
  binanceusdm: BINANCE,
  binancecoinm: BINANCE,
  kucoin: [...KUCOIN, { spec: 'kucoin' }],
  kucoinfutures: [...KUCOIN, { spec: 'kucoin-futures' }],
  htx: [
    { api: /^contract$/, spec: 'htx-swap' },
    { prefix: '/linear-swap-', spec: 'htx-swap' },
    { prefix: '/swap-', spec: 'htx-swap' },
    { prefix: '/api/v1/contract', spec: 'htx-swap' },
    { host: /hbdm/, spec: 'htx-swap' },
  ],
  mexc: [
    { api: /^contract$/, spec: 'mexc-futures' },
    { prefix: '/api/v1/contract', spec: 'mexc-futures' },
    { prefix: '/api/v1/private', spec: 'mexc-futures' },
    { host: /^contract\./, spec: 'mexc-futures' },
  ],
  bitmart: [{ prefix: '/contract/', spec: 'bitmart-futures' }],
  kraken: [{ spec: 'kraken' }],
  krakenfutures: [{ spec: 'kraken-futures' }],
};

function apiName(api: unknown): string | undefined {
  if (typeof api === 'string') return api;
  if (Array.isArray(api) && typeof api[0] === 'string') return api[0];
  return undefined;
}

function matches(rule: Rule, site: CallSite): boolean {
  if (rule.prefix !== undefined && !site.url.pathname.startsWith(rule.prefix)) return false;
  if (rule.host !== undefined && !rule.host.test(site.url.hostname)) return false;
  if (rule.api !== undefined) {
    const name = apiName(site.api);
    if (name === undefined || !rule.api.test(name)) return false;
  }
  return true;
}

const ABSOLUTE = /^[a-zA-Z][a-zA-Z0-9+.-]*:\/\/(?:[^@/?#]*@)?(\[[^\]]*\]|[^:/?#]*)(?::\d*)?([^?#]*)/;

/**
 * The hostname and path of an absolute URL, read without a `URL` (which costs more than the routing
 * itself on every call); a URL the pattern does not read goes through `URL`.
 *
 * @throws TypeError for a URL that `URL` rejects too.
 */
export function siteOf(url: string): Pick<URL, 'hostname' | 'pathname'> {
  const m = ABSOLUTE.exec(url);
  if (m === null) return new URL(url);
  return { hostname: (m[1] ?? '').toLowerCase(), pathname: m[2] === undefined || m[2] === '' ? '/' : m[2] };
}

let documented: ReadonlySet<string> | undefined;
/** The ids of the hand-authored (documented) specs. */
function documentedSpecs(): ReadonlySet<string> {
  documented ??= new Set(
    listVenues()
      .filter((v) => v.origin === 'hand-authored')
      .map((v) => v.id),
  );
  return documented;
}

/**
 * The documented spec (exchange-specs id) that prices one HTTP call of a ccxt exchange, or `undefined`
 * when none does: Binance by path (`/api` spot, `/sapi`, `/fapi` USDⓈ-M, `/dapi` COIN-M, `/eapi`
 * options), KuCoin spot, futures and unified by ccxt's API family, HTX and MEXC spot or contracts, Kraken
 * spot or futures by the ccxt class, and every other venue with a hand-authored spec by its ccxt id.
 *
 * @example
 * ```ts
 * routeCall('binance', { url: new URL('https://fapi.binance.com/fapi/v1/depth?symbol=BTCUSDT') }); // 'binance-usdm'
 * ```
 */
export function routeCall(ccxtId: string, site: CallSite): string | undefined {
  for (const rule of RULES[ccxtId] ?? []) if (matches(rule, site)) return rule.spec;
  const id = resolveVenueId(ccxtId);
  return id !== undefined && documentedSpecs().has(id) ? id : undefined;
}

/** The ccxt-derived estimate of a ccxt id (`ccxt:<id>` or its plain id), when exchange-specs has one. */
export function estimateSpec(ccxtId: string): string | undefined {
  for (const name of [`ccxt:${ccxtId}`, ccxtId]) {
    const id = resolveVenueId(name);
    if (id !== undefined && !documentedSpecs().has(id)) return id;
  }
  return undefined;
}
