/**
 * A bucket's id in the in-process table: `<venue length>:<venue><credential hash or "-"><axis>`.
 * The hash is 32 hex characters, so the id decodes without ambiguity, and it never holds a raw
 * credential (RL-K3).
 */
export function bucketId(venue: string, credentialHash: string | null, axis: string): string {
  return `${venue.length}:${venue}${credentialHash ?? '-'}${axis}`;
}

/** The prefix every bucket id of one venue starts with (and no other venue's does). */
export function venuePrefix(venue: string): string {
  return `${venue.length}:${venue}`;
}

/** The parts of a bucket id. */
export interface DecodedBucketId {
  readonly venue: string;
  readonly credentialHash: string | null;
  readonly axis: string;
}

/** Reads a bucket id made by {@link bucketId}. */
export function decodeBucketId(id: string): DecodedBucketId {
  const colon = id.indexOf(':');
  const length = Number(id.slice(0, colon));
  const venueEnd = colon + 1 + length;
  const venue = id.slice(colon + 1, venueEnd);
  if (id[venueEnd] === '-') return { venue, credentialHash: null, axis: id.slice(venueEnd + 1) };
  return { venue, credentialHash: id.slice(venueEnd, venueEnd + 32), axis: id.slice(venueEnd + 32) };
}
