import { describeSecret, describeValue } from './describe-value.js';
import { invalid, ok, type Result } from './result.js';

/** The longest venue or axis name accepted. */
export const MAX_NAME_LENGTH = 256;
/** The longest credential accepted. */
export const MAX_CREDENTIAL_LENGTH = 4096;

/**
 * A validated key with its axis filled in (RL-K2). `credential` is still the raw secret: hash it
 * with {@link hashCredential} before it goes anywhere visible or into a store (RL-K3).
 */
export interface NormalizedKey {
  readonly venue: string;
  readonly credential: string | null;
  readonly axis: string;
}

/**
 * Checks a venue name (non-empty string of at most 256 characters).
 *
 * @returns the venue, or `invalid_parameters` naming the bad value at `path`.
 */
export function validateVenue(venue: unknown, path = 'venue'): Result<string> {
  if (typeof venue !== 'string' || venue.length === 0 || venue.length > MAX_NAME_LENGTH) {
    return invalid(path, `must be a non-empty string of at most ${MAX_NAME_LENGTH} characters (got ${describeValue(venue)})`);
  }
  return ok(venue);
}

/**
 * Validates a bucket key and fills in the default axis `"request"` (RL-K2).
 *
 * A valid key is an object with a non-empty `venue` and, when given, a non-empty `axis` (each at
 * most 256 characters), and a `credential` that is a non-empty string of at most 4096 characters or
 * `null` (the public pool). The message of a bad credential names its type and length only (RL-K3).
 *
 * @param key - the key as the caller passed it (anything).
 * @param path - where the key sits in the caller's arguments, for the error's `path`.
 * @returns the normalized key, or `invalid_parameters`; never throws.
 * @example
 * ```ts
 * normalizeKey({ venue: 'okx', credential: null }); // { ok: true, value: { venue: 'okx', credential: null, axis: 'request' } }
 * ```
 */
export function normalizeKey(key: unknown, path = 'key'): Result<NormalizedKey> {
  try {
    return normalizeObject(key, path);
  } catch {
    return invalid(path, 'could not be read (a getter or proxy threw)');
  }
}

function normalizeObject(key: unknown, path: string): Result<NormalizedKey> {
  if (typeof key !== 'object' || key === null || Array.isArray(key)) {
    return invalid(path, `must be an object { venue, credential, axis? } (got ${describeValue(key)})`);
  }
  const k = key as { venue?: unknown; credential?: unknown; axis?: unknown };
  let venue: unknown;
  let credential: unknown;
  let axis: unknown;
  try {
    venue = k.venue;
    credential = k.credential;
    axis = k.axis;
  } catch {
    return invalid(path, 'could not be read (a getter or proxy threw)');
  }
  const v = validateVenue(venue, `${path}.venue`);
  if (!v.ok) return v;
  if (credential !== null && (typeof credential !== 'string' || credential.length === 0 || credential.length > MAX_CREDENTIAL_LENGTH)) {
    return invalid(
      `${path}.credential`,
      `must be a non-empty string of at most ${MAX_CREDENTIAL_LENGTH} characters or null for the public pool (got ${describeSecret(credential)})`,
    );
  }
  if (axis === undefined) return ok({ venue: v.value, credential: credential as string | null, axis: 'request' });
  if (typeof axis !== 'string' || axis.length === 0 || axis.length > MAX_NAME_LENGTH) {
    return invalid(`${path}.axis`, `must be a non-empty string of at most ${MAX_NAME_LENGTH} characters when given (got ${describeValue(axis)})`);
  }
  return ok({ venue: v.value, credential: credential as string | null, axis });
}
