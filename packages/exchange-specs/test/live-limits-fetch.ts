// A fake venue fetch and the helpers of the readLiveLimits tests (live-limits*.test.ts).
import { bucketForTier, getVenueSpec, type BucketSpec, type Identity, type LiveLimitsFetch, type LiveLimitsResult, type VenueSpec } from '../src/index.js';

export const BASE = 'https://venue.invalid';

export interface Sent {
  readonly url: string;
  readonly headers: Record<string, string>;
}

/** A fetch answering by path from a table (a function of the URL, or a status and a body). */
export function venueFetch(answers: Record<string, unknown | ((url: URL) => { status: number; body: string })>) {
  const sent: Sent[] = [];
  const fetch: LiveLimitsFetch = async (url, init) => {
    sent.push({ url, headers: init.headers });
    const u = new URL(url);
    const a = answers[u.pathname];
    if (a === undefined) return { status: 404, text: async () => '{"code":-1,"msg":"not found"}' };
    const r = typeof a === 'function' ? (a as (url: URL) => { status: number; body: string })(u) : { status: 200, body: JSON.stringify(a) };
    return { status: r.status, text: async () => r.body };
  };
  return { fetch, sent };
}

export const signed = (headerName: string) => ({
  authenticate: (r: { method: 'GET'; url: URL; headers: Readonly<Record<string, string>> }) => {
    const url = new URL(r.url);
    url.searchParams.set('signature', 'sig');
    return { ...r, url, headers: { ...r.headers, [headerName]: 'key-1' } };
  },
});

export function bucket(spec: VenueSpec, id: string): BucketSpec {
  const b = spec.buckets.find((x) => x.id === id);
  if (b === undefined) throw new Error(`${spec.id} has no bucket ${id}`);
  return b;
}

export function limitOf(spec: VenueSpec, id: string, tier?: string): number {
  const b = bucketForTier(bucket(spec, id), tier);
  if (b.algorithm === 'token-bucket') throw new Error(`${id} is a token bucket`);
  return b.limit;
}

export function ok(r: LiveLimitsResult): Extract<LiveLimitsResult, { ok: true }> {
  if (!r.ok) throw new Error(`expected ok, got ${r.error.code}: ${r.error.message}`);
  return r;
}

export function refused(r: LiveLimitsResult): { code: string; field: string | undefined; source: string; message: string } {
  if (r.ok) throw new Error(`expected a refusal, got ${JSON.stringify(r.changes)}`);
  return { code: r.error.code, field: r.error.field, source: r.error.source, message: r.error.message };
}

export const keyed: Identity = { credential: 'key-1' };
export const spot = getVenueSpec('binance-spot');
export const usdm = getVenueSpec('binance-usdm');

/** The documented shapes, with the numbers given. */
export const rl = (rateLimitType: string, interval: string, intervalNum: number, limit: number, count?: number) => ({
  rateLimitType,
  interval,
  intervalNum,
  limit,
  ...(count === undefined ? {} : { count }),
});
