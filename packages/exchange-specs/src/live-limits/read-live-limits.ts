import type { Identity } from '../venue-io.js';
import type { VenueSpec } from '../venue-spec.js';
import { applyLiveStatements, type LiveLimitChange, type LiveReading } from './apply-live-limits.js';
import { isLiveLimitsError, LiveLimitsError } from './live-limits-error.js';
import type { LiveLimitSource } from './live-limit-source.js';
import { liveLimitSources, withLiveLimitEndpoints } from './sources.js';

/** A request the reader is about to send; `authenticate` may add headers and query parameters (key, timestamp, signature). */
export interface LiveLimitsRequest {
  readonly method: 'GET';
  readonly url: URL;
  readonly headers: Readonly<Record<string, string>>;
}

/**
 * What sends a request: the paced client (`@core/paced-fetch`), so that reading the limits is
 * paced and charged like any other request. Any `fetch`-compatible function fits.
 */
export type LiveLimitsFetch = (
  url: string,
  init: { method: string; headers: Record<string, string>; signal?: AbortSignal },
) => Promise<{ readonly status: number; text(): Promise<string> }>;

/** Options of {@link readLiveLimits}. */
export interface LiveLimitsOptions {
  /** Sends the requests (the paced client). */
  readonly fetch: LiveLimitsFetch;
  /** The venue's base URL, e.g. `https://api.binance.com`; the sources' paths are appended. */
  readonly baseUrl: string | URL;
  /** Who asks: private sources need a credential; Bybit's needs the account's `uid`. */
  readonly identity: Identity;
  /**
   * Authenticates a private source's request (the venue's API-key header, timestamp, signature).
   * Private sources are read only when it is given (pass `(r) => r` when `fetch` signs by itself).
   */
  readonly authenticate?: (request: LiveLimitsRequest) => LiveLimitsRequest | Promise<LiveLimitsRequest>;
  /** The ids of the sources to read (see `liveLimitSources`); default every public source, and every private one when `authenticate` is given and the identity has a credential. */
  readonly sources?: readonly string[];
  /** The clock of the date recorded with the venue's numbers, epoch ms; default `Date.now`. */
  readonly now?: () => number;
  readonly signal?: AbortSignal;
}

/** The result of {@link readLiveLimits}. */
export type LiveLimitsResult =
  | {
      readonly ok: true;
      /** The spec with the venue's numbers in place of the stored ones (and the live-limit endpoints it lacked). */
      readonly spec: VenueSpec;
      /** Every number replaced, in order (the last one per bucket is in force). */
      readonly changes: readonly LiveLimitChange[];
      /** The tier the venue stated for the account, when a source states one. */
      readonly tier?: string;
      /** The ids of the sources read. */
      readonly sources: readonly string[];
    }
  | { readonly ok: false; readonly error: LiveLimitsError };

function label(spec: VenueSpec, s: LiveLimitSource): string {
  return `${spec.id} ${s.method} ${s.path}`;
}

function choose(spec: VenueSpec, all: readonly LiveLimitSource[], options: LiveLimitsOptions): readonly LiveLimitSource[] {
  if (all.length === 0) throw new LiveLimitsError('unsupported_venue', spec.id, 'the venue publishes no current limits this package reads');
  const signed = options.authenticate !== undefined && options.identity.credential !== null;
  if (options.sources !== undefined) {
    return options.sources.map((id) => {
      const s = all.find((x) => x.id === id);
      if (s === undefined) throw new LiveLimitsError('unsupported_venue', spec.id, `no live-limit source "${id}" (known: ${all.map((x) => x.id).join(', ')})`);
      if (s.auth === 'private' && !signed)
        throw new LiveLimitsError('credential_required', label(spec, s), 'a signed request of the account: give a credential and an authenticate hook');
      return s;
    });
  }
  const chosen = all.filter((s) => s.auth === 'public' || signed);
  if (chosen.length === 0)
    throw new LiveLimitsError(
      'credential_required',
      spec.id,
      `the venue publishes its limits only to signed requests of the account (${all.map((s) => `${s.method} ${s.path}`).join(', ')}): give a credential and an authenticate hook`,
    );
  return chosen;
}

async function readOne(spec: VenueSpec, s: LiveLimitSource, options: LiveLimitsOptions): Promise<LiveReading> {
  const where = label(spec, s);
  let url: URL;
  try {
    url = new URL(s.path, options.baseUrl);
  } catch {
    throw new LiveLimitsError('request_failed', where, `not sent: the base URL ${JSON.stringify(String(options.baseUrl))} is not a URL`);
  }
  const query = s.query?.(options.identity);
  if (query !== undefined && 'missing' in query) throw new LiveLimitsError('missing_parameter', where, `the request needs ${String(query.missing)}`);
  for (const [k, v] of Object.entries(query ?? {})) url.searchParams.set(k, v);
  let request: LiveLimitsRequest = { method: 'GET', url, headers: {} };
  let text: string;
  let status: number;
  try {
    if (s.auth === 'private' && options.authenticate !== undefined) request = await options.authenticate(request);
    const res = await options.fetch(request.url.toString(), {
      method: request.method,
      headers: { ...request.headers },
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    status = res.status;
    text = await res.text();
  } catch (e) {
    const code = typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string' ? ` (${(e as { code: string }).code})` : '';
    throw new LiveLimitsError('request_failed', where, `not read${code}: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (status !== 200) throw new LiveLimitsError('http_error', where, `HTTP ${status}: ${text.length > 200 ? `${text.slice(0, 197)}...` : text}`);
  let body: unknown;
  try {
    body = JSON.parse(text) as unknown;
  } catch {
    throw new LiveLimitsError('malformed', where, `not JSON: ${text.length > 80 ? `${text.slice(0, 77)}...` : text}`, '(body)');
  }
  const statement = s.parse(body, { spec, identity: options.identity, source: where });
  return { source: s, label: where, url: `${url.origin}${url.pathname}`, statement };
}

/**
 * Reads a venue's published current limits (or the account's tier) through `options.fetch` (the
 * paced client, so each request is paced and charged), validates every answer strictly against the
 * venue's documentation, and returns the spec with the venue's numbers in place of the stored ones.
 * The safety margin is not applied here: `resolveRequest` (through `safeLimit`) applies it to the
 * returned spec as to any other.
 *
 * All or nothing: the first answer that is not exactly what the documentation describes (a field
 * missing, of another type or unit, a number that is not a finite positive integer, a limit no
 * bucket models, a bucket whose window differs) refuses the whole reading with a
 * {@link LiveLimitsError} naming the source and the field; the caller keeps its stored spec. The
 * promise never rejects.
 *
 * The venue's numbers replace the stored ones in both directions: they are the venue's own
 * statement for this account (a lower number must be obeyed; a higher one is what the venue grants).
 *
 * @param spec - the stored spec (see `getVenueSpec`); sources exist for `binance-spot`,
 * `binance-usdm`, `bybit`, `okx` and `kucoin`.
 * @param options - `fetch`, `baseUrl`, `identity`, `authenticate?` (needed for private sources),
 * `sources?`, `now?`, `signal?`.
 * @returns `{ ok: true, spec, changes, tier?, sources }` or `{ ok: false, error }`.
 * @example
 * ```ts
 * const r = await readLiveLimits(getVenueSpec('binance-spot'), { fetch: paced, baseUrl: 'https://api.binance.com', identity: { credential: null } });
 * const spec = r.ok ? r.spec : getVenueSpec('binance-spot');
 * ```
 */
export async function readLiveLimits(spec: VenueSpec, options: LiveLimitsOptions): Promise<LiveLimitsResult> {
  try {
    const base = withLiveLimitEndpoints(spec);
    const chosen = choose(base, liveLimitSources(base), options);
    const readings: LiveReading[] = [];
    for (const s of chosen) readings.push(await readOne(base, s, options));
    const now = options.now?.() ?? Date.now();
    const applied = applyLiveStatements(base, readings, options.identity, new Date(now).toISOString().slice(0, 10));
    return { ok: true, ...applied, sources: chosen.map((s) => s.id) };
  } catch (e) {
    if (isLiveLimitsError(e)) return { ok: false, error: e };
    return { ok: false, error: new LiveLimitsError('malformed', spec.id, `could not be read: ${e instanceof Error ? e.message : String(e)}`) };
  }
}
