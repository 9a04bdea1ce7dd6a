import {
  bucketForTier,
  getVenueSpec,
  interpretResponse,
  resolveRequest,
  type Feedback,
  type Identity,
  type VenueRequest,
  type VenueResponse,
} from '../../src/index.js';

/** What a request is charged on one bucket, with the venue's own numbers for the identity's tier. */
export interface ChargedLimit {
  /** The key's axis (the bucket id, plus `:<value>` for partitioned buckets). */
  readonly axis: string;
  /** The key's credential: `null` per IP, the uid (else the key) per UID, the key per key. */
  readonly credential: string | null;
  readonly scope: string;
  /** What the venue counts for this request on the bucket. */
  readonly cost: number;
  /** The venue's documented limit per window (window buckets). */
  readonly limit: number;
  readonly windowMs: number;
}

/** Every bucket a request is charged on, by bucket id, with the venue's limit (fails the test when the request does not resolve). */
export function charged(venue: string, request: VenueRequest, identity: Identity = { credential: null }): Record<string, ChargedLimit> {
  const spec = getVenueSpec(venue);
  const r = resolveRequest(spec, request, identity);
  if (!r.ok) throw new Error(`${venue} ${request.method} ${request.path}: ${r.error.code}: ${r.error.message}`);
  const out: Record<string, ChargedLimit> = {};
  for (const c of r.charges) {
    const b = spec.buckets.find((x) => x.id === c.bucket);
    if (b === undefined) throw new Error(`${venue}: no bucket ${c.bucket}`);
    const t = bucketForTier(b, identity.tier ?? spec.defaultTier);
    if (t.algorithm === 'token-bucket') throw new Error(`${venue}: ${b.id} is a token bucket`);
    const prev = out[c.bucket];
    out[c.bucket] = {
      axis: c.key.axis ?? 'request',
      credential: c.key.credential,
      scope: b.scope,
      cost: (prev?.cost ?? 0) + c.cost,
      limit: t.limit,
      windowMs: t.windowMs,
    };
  }
  return out;
}

/** The error code of a request that must not resolve. */
export function refused(venue: string, request: VenueRequest, identity: Identity = { credential: null }): string {
  const r = resolveRequest(getVenueSpec(venue), request, identity);
  if (r.ok) throw new Error(`${venue} ${request.method} ${request.path} resolved`);
  return r.error.code;
}

/** How the spec reads a response to a request. */
export function read(venue: string, request: VenueRequest, response: Partial<VenueResponse>, identity: Identity = { credential: null }): Feedback {
  return interpretResponse(getVenueSpec(venue), request, { status: 200, headers: {}, body: {}, ...response }, identity);
}

export const date = (ms: number): string => new Date(ms).toUTCString();
