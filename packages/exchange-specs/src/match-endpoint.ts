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
    if (ts.startsWith('{') && ts.endsWith('}')) {
      if (ps === '') return undefined;
      params[ts.slice(1, -1)] = decodeURIComponent(ps);
    } else if (ts !== ps) {
      return undefined;
    }
  }
  return params;
}

/**
 * Finds the endpoint of a request: same method (case-insensitive) and a path matching the
 * template (or, for `pathMatch: 'suffix'` specs, whose last segments match it); the template with
 * fewer `{name}` segments wins, then the longer one.
 */
export function matchEndpoint(spec: VenueSpec, method: string, path: string): EndpointMatch | undefined {
  const m = method.toUpperCase();
  const p = normalizePath(path);
  const suffix = spec.pathMatch === 'suffix';
  let best: { match: EndpointMatch; params: number; length: number } | undefined;
  for (const endpoint of spec.endpoints) {
    if (endpoint.method !== m) continue;
    const params = matchTemplate(endpoint.path, p, suffix);
    if (params === undefined) continue;
    const n = Object.keys(params).length;
    const length = endpoint.path.length;
    if (best === undefined || n < best.params || (n === best.params && length > best.length)) {
      best = { match: { endpoint, pathParams: params }, params: n, length };
    }
  }
  return best?.match;
}
