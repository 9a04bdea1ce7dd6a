/** Which part of a key the Redis Cluster hash tag is made of. */
export type HashTagMode = 'venue' | 'venue+credential' | 'prefix';

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

/**
 * The credential's field: its hash (RL-K3) as 22 base64url characters (the 128 bits of
 * `hashCredential`'s 32 hex digits, shorter so keys stay small), or `public` for the public pool.
 */
export function credentialField(credentialHash: string | null): string {
  return credentialHash === null ? 'public' : Buffer.from(credentialHash, 'hex').toString('base64url');
}

/**
 * A bucket's Redis key: `<prefix>{<venue>}<credential>:<axis>` (hash tag = venue, the default) or
 * `<prefix>{<venue>:<credential>}<axis>` (hash tag = venue and credential), or
 * `<prefix>{<escaped prefix>}<venue>:<credential>:<axis>` (one hash tag for every key), where `<credential>` is
 * the credential's hash in base64url or `public`. Venue and axis are escaped; the credential only
 * ever appears hashed. Typical keys stay within 44 bytes, so an idle bucket costs about 136 bytes.
 *
 * @example
 * ```ts
 * bucketKeyName('rl:', 'venue', 'binance', null, 'ip'); // 'rl:{binance}public:ip'
 * ```
 */
export function bucketKeyName(prefix: string, mode: HashTagMode, venueName: string, credentialHash: string | null, axisName: string): string {
  const venue = escapeName(venueName);
  const credential = credentialField(credentialHash);
  const axis = escapeName(axisName);
  if (mode === 'venue') return `${prefix}{${venue}}${credential}:${axis}`;
  if (mode === 'venue+credential') return `${prefix}{${venue}:${credential}}${axis}`;
  return `${prefix}{${prefixTag(prefix)}}${venue}:${credential}:${axis}`;
}

/**
 * The key that marks a record as applied (RL-R1, exactly once): `<prefix>~{<tag>}<id>`, in the bucket's
 * hash slot (same tag) but outside the bucket pattern `<prefix>{*`, so scans of buckets never see it.
 */
export function recordMarkerName(prefix: string, bucketKey: string, id: string): string {
  return `${prefix}~{${hashTagOf(bucketKey)}}${id}`;
}

/** The one hash tag of every key in `prefix` mode. */
function prefixTag(prefix: string): string {
  return prefix === '' ? '_' : escapeName(prefix);
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
  if (mode === 'venue') return `${escapeGlob(prefix)}{${v}}*`;
  if (mode === 'venue+credential') return `${escapeGlob(prefix)}{${v}:*`;
  return `${escapeGlob(prefix)}{${prefixTag(prefix)}}${v}:*`;
}

/** The SCAN pattern of every bucket under a prefix. */
export function allPattern(prefix: string): string {
  return `${escapeGlob(prefix)}{*`;
}

/** Venue, credential hash (hex) and axis read back from a key name (for snapshots), or `undefined`. */
export function parseBucketKeyName(
  prefix: string,
  mode: HashTagMode,
  keyName: string,
): { venue: string; credentialHash: string | null; axis: string } | undefined {
  if (!keyName.startsWith(`${prefix}{`)) return undefined;
  const close = keyName.indexOf('}', prefix.length + 1);
  if (close < 0) return undefined;
  const tag = keyName.slice(prefix.length + 1, close);
  const rest = keyName.slice(close + 1);
  const [venue, credential, axis] = mode === 'venue' ? [tag, ...rest.split(':')] : mode === 'venue+credential' ? [...tag.split(':'), rest] : rest.split(':');
  if (venue === undefined || credential === undefined || axis === undefined) return undefined;
  const credentialHash = credential === 'public' ? null : Buffer.from(credential, 'base64url').toString('hex');
  return { venue: unescapeName(venue), credentialHash, axis: unescapeName(axis) };
}
