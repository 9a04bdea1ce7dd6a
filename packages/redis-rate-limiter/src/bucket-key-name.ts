import type { NormalizedKey } from '@core/default-rate-limiter';

/** Which part of a key the Redis Cluster hash tag is made of. */
export type HashTagMode = 'venue' | 'venue+credential';

/**
 * Escapes a user-given name for a Redis key: every UTF-16 code unit outside `[A-Za-z0-9_.-]` becomes
 * `%XXXX` (its four hex digits), so a `{`, `}`, `:`, `*`, newline or any other character can neither
 * move the hash tag nor split a field nor act as a SCAN pattern; distinct names stay distinct.
 */
export function escapeName(name: string): string {
  if (/^[A-Za-z0-9_.-]*$/.test(name)) return name;
  let out = '';
  for (let i = 0; i < name.length; i++) {
    const ch = name[i] as string;
    out += /[A-Za-z0-9_.-]/.test(ch) ? ch : `%${name.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0')}`;
  }
  return out;
}

/** The inverse of {@link escapeName}. */
export function unescapeName(escaped: string): string {
  return escaped.replace(/%([0-9A-F]{4})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Escapes the glob characters of SCAN's MATCH (`*`, `?`, `[`, `]`, `\`). */
export function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, (c) => `\\${c}`);
}

/** The credential's field: its hash (RL-K3), or `public` for the public pool. */
export function credentialField(credentialHash: string | null): string {
  return credentialHash ?? 'public';
}

/**
 * A bucket's Redis key: `<prefix>{<venue>}:<credential hash | public>:<axis>` (hash tag = venue), or
 * `<prefix>{<venue>:<credential hash | public>}:<axis>` (hash tag = venue and credential). Venue and
 * axis are escaped, the credential only ever appears hashed.
 *
 * @example
 * ```ts
 * bucketKeyName('rl:', 'venue', { venue: 'binance', credential: null, axis: 'ip' }, null); // 'rl:{binance}:public:ip'
 * ```
 */
export function bucketKeyName(prefix: string, mode: HashTagMode, key: NormalizedKey, credentialHash: string | null): string {
  const venue = escapeName(key.venue);
  const credential = credentialField(credentialHash);
  const axis = escapeName(key.axis);
  return mode === 'venue' ? `${prefix}{${venue}}:${credential}:${axis}` : `${prefix}{${venue}:${credential}}:${axis}`;
}

/** The hash tag of a key built by {@link bucketKeyName} (what Redis Cluster hashes). */
export function hashTagOf(keyName: string): string {
  const open = keyName.indexOf('{');
  const close = keyName.indexOf('}', open + 1);
  return keyName.slice(open + 1, close);
}

/** The SCAN pattern of every bucket of one venue. */
export function venuePattern(prefix: string, mode: HashTagMode, venue: string): string {
  const v = escapeName(venue);
  return mode === 'venue' ? `${escapeGlob(prefix)}{${v}}:*` : `${escapeGlob(prefix)}{${v}:*`;
}

/** The SCAN pattern of every bucket under a prefix. */
export function allPattern(prefix: string): string {
  return `${escapeGlob(prefix)}{*`;
}

/** Venue, credential hash and axis read back from a key name (for snapshots), or `undefined`. */
export function parseBucketKeyName(
  prefix: string,
  keyName: string,
): { venue: string; credentialHash: string | null; axis: string } | undefined {
  if (!keyName.startsWith(prefix)) return undefined;
  const parts = keyName.slice(prefix.length).replace(/[{}]/g, '').split(':');
  if (parts.length !== 3) return undefined;
  const [venue, credential, axis] = parts as [string, string, string];
  return { venue: unescapeName(venue), credentialHash: credential === 'public' ? null : credential, axis: unescapeName(axis) };
}
