import type { EndpointSpec, VenueSpec } from './venue-spec.js';

/** An endpoint matched by method and path, with the values of its `{name}` path parameters. */
export interface EndpointMatch {
  readonly endpoint: EndpointSpec;
  readonly pathParams: Readonly<Record<string, string>>;
}

function normalizePath(path: string): string {
  const q = path.indexOf('?');
  const p = q >= 0 ? path.slice(0, q) : path;
  return p.length > 1 && p.endsWith('/') ? p.slice(0, -1) : p;
}

const patterns = new Map<string, { readonly re: RegExp; readonly names: readonly string[] }>();

/** A template segment with `{name}` parameters among literal text, as an anchored pattern. */
function segmentPattern(segment: string): { readonly re: RegExp; readonly names: readonly string[] } {
  let p = patterns.get(segment);
  if (p === undefined) {
    const names: string[] = [];
    const source = segment
      .split(/(\{[^}]+\})/)
      .map((part) => {
        if (part.startsWith('{') && part.endsWith('}')) {
          names.push(part.slice(1, -1));
          return '([^/]+?)';
        }
        return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      })
      .join('');
    p = { re: new RegExp(`^${source}$`), names };
    patterns.set(segment, p);
  }
  return p;
}

function matchTemplate(template: string, path: string, suffix: boolean): Record<string, string> | undefined {
  const t = normalizePath(template).split('/');
  let p = path.split('/');
  if (suffix) {
    if (p.length < t.length) return undefined;
    p = ['', ...p.slice(p.length - t.length + 1)];
  }
  if (t.length !== p.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < t.length; i++) {
    const ts = t[i] ?? '';
    const ps = p[i] ?? '';
    if (ts.startsWith('{') && ts.endsWith('}') && ts.indexOf('}') === ts.length - 1) {
      if (ps === '') return undefined;
      params[ts.slice(1, -1)] = decodeURIComponent(ps);
    } else if (ts.includes('{')) {
      // Parameters inside a segment: `level{level}_{limit}`, `trade:{timeframe}:{symbol}`.
      const { re, names } = segmentPattern(ts);
      const m = re.exec(ps);
      if (m === null) return undefined;
      names.forEach((n, j) => {
        params[n] = decodeURIComponent(m[j + 1] ?? '');
      });
    } else if (ts !== ps) {
      return undefined;
    }
  }
  return params;
}

const indexes = new WeakMap<VenueSpec, ReadonlyMap<string, readonly EndpointSpec[]>>();

/** The endpoints of a spec by method and number of path segments (exact matching only). */
function indexOf(spec: VenueSpec): ReadonlyMap<string, readonly EndpointSpec[]> {
  let index = indexes.get(spec);
  if (index === undefined) {
    const built = new Map<string, EndpointSpec[]>();
    for (const e of spec.endpoints) {
      const k = `${e.method} ${normalizePath(e.path).split('/').length}`;
      const list = built.get(k);
      if (list === undefined) built.set(k, [e]);
      else list.push(e);
    }
    index = built;
    indexes.set(spec, index);
  }
  return index;
}

const knownHosts = new WeakMap<VenueSpec, ReadonlySet<string>>();

function hostsOf(spec: VenueSpec): ReadonlySet<string> {
  let hosts = knownHosts.get(spec);
  if (hosts === undefined) {
    hosts = new Set(spec.endpoints.flatMap((e) => (e.host === undefined ? [] : [e.host])));
    knownHosts.set(spec, hosts);
  }
  return hosts;
}

/** The matches of recent requests (method, host, path) per spec, answered again without matching (frozen: shared). */
const matched = new WeakMap<VenueSpec, Map<string, readonly EndpointMatch[]>>();
/** Distinct requests kept per spec: paths with ids in them (order ids, symbols) are many; the map starts again when full. */
const MATCHES_PER_SPEC = 1024;

/**
 * The endpoints a request may be: same method (case-insensitive) and a path matching the template
 * (or, for `pathMatch: 'suffix'` specs, whose last segments match it); among them the template
 * with fewer `{name}` segments wins, then the longer one. Endpoints with a `host` only match a
 * request naming that host; a request naming no host, or one the spec does not list, may be any of
 * them: the best match of each host is returned (the caller charges the costliest). A spec without
 * hosts gives at most one match. The answer is shared by the requests of the same method, host and path
 * (frozen).
 */
export function matchEndpoints(spec: VenueSpec, method: string, path: string, host?: string): readonly EndpointMatch[] {
  let byRequest = matched.get(spec);
  if (byRequest === undefined) matched.set(spec, (byRequest = new Map()));
  const key = `${method}\u0000${host === undefined ? '\u0001' : host}\u0000${path}`;
  let found = byRequest.get(key);
  if (found === undefined) {
    found = Object.freeze(matchNow(spec, method, path, host).map((x) => Object.freeze({ endpoint: x.endpoint, pathParams: Object.freeze(x.pathParams) })));
    if (byRequest.size >= MATCHES_PER_SPEC) byRequest.clear();
    byRequest.set(key, found);
  }
  return found;
}

function matchNow(spec: VenueSpec, method: string, path: string, host: string | undefined): readonly EndpointMatch[] {
  const m = method.toUpperCase();
  const p = normalizePath(path);
  const suffix = spec.pathMatch === 'suffix';
  const h = host?.toLowerCase();
  const hostKnown = h !== undefined && hostsOf(spec).has(h);
  // The best match per host ('' = endpoints without a host, which every host serves).
  const best = new Map<string, { match: EndpointMatch; params: number; length: number }>();
  const candidates = suffix ? spec.endpoints : (indexOf(spec).get(`${m} ${p.split('/').length}`) ?? []);
  for (const endpoint of candidates) {
    if (endpoint.method !== m) continue;
    if (hostKnown && endpoint.host !== undefined && endpoint.host !== h) continue;
    const params = matchTemplate(endpoint.path, p, suffix);
    if (params === undefined) continue;
    const group = hostKnown ? '' : (endpoint.host ?? '');
    const n = Object.keys(params).length;
    const length = endpoint.path.length;
    const b = best.get(group);
    if (
      b === undefined ||
      n < b.params ||
      (n === b.params && length > b.length) ||
      (n === b.params && length === b.length && endpoint.host === h && b.match.endpoint.host !== h)
    ) {
      best.set(group, { match: { endpoint, pathParams: params }, params: n, length });
    }
  }
  return [...best.values()].map((b) => b.match);
}

/**
 * The endpoint of a request (see {@link matchEndpoints}): the single match, or, when several hosts
 * serve the path and the request names none, the first of them.
 */
export function matchEndpoint(spec: VenueSpec, method: string, path: string, host?: string): EndpointMatch | undefined {
  return matchEndpoints(spec, method, path, host)[0];
}
