import { getVenueSpec, resolveRequest, type Identity, type VenueRequest } from '../src/index.js';

export const publicId: Identity = { credential: null };
export const keyId: Identity = { credential: 'test-key-1' };

/** The checks of a request as `axis -> cost`, failing the test when it does not resolve. */
export function costs(venue: string, request: VenueRequest, identity: Identity = publicId): Record<string, number> {
  const r = resolveRequest(getVenueSpec(venue), request, identity);
  if (!r.ok) throw new Error(`${venue} ${request.method} ${request.path}: ${r.error.code}: ${r.error.message}`);
  return Object.fromEntries(r.checks.map((c) => [c.key.axis ?? 'request', c.cost]));
}

/** The error code of a request that must not resolve. */
export function errorCode(venue: string, request: VenueRequest, identity: Identity = publicId): string {
  const r = resolveRequest(getVenueSpec(venue), request, identity);
  if (r.ok) throw new Error(`${venue} ${request.method} ${request.path} resolved to ${JSON.stringify(r.checks)}`);
  return r.error.code;
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
