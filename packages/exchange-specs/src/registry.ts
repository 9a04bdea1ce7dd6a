import { generatedSpecIds, loadGeneratedSpec } from './generated-specs.js';
import { handAuthoredSpecs } from './hand-authored.js';
import { validateSpec } from './validate-spec.js';
import type { VenueSpec } from './venue-spec.js';

/**
 * Where a spec's numbers come from, in words: `documented` (hand-authored from the venue's own
 * documentation, each number with its source) or `estimated from ccxt` (generated from ccxt's
 * per-endpoint costs: ccxt's pacing, not the venue's documented limits).
 */
export type VenueEvidence = 'documented' | 'estimated from ccxt';

/** A venue in {@link listVenues}. */
export interface VenueListing {
  /** The spec's id (the `venue` of its bucket keys). */
  readonly id: string;
  readonly origin: VenueSpec['origin'];
  readonly evidence: VenueEvidence;
  /** Other names {@link getVenueSpec} resolves to this id. */
  readonly aliases: readonly string[];
  /** For a ccxt-derived spec: the ccxt exchange id it was generated from. */
  readonly ccxtId?: string;
}

/** The prefix of the explicit id of a ccxt-derived spec (`ccxt:binance`). */
export const CCXT_ID_PREFIX = 'ccxt:';

/** The evidence of a spec (see {@link VenueEvidence}). */
export function venueEvidence(spec: Pick<VenueSpec, 'origin'>): VenueEvidence {
  return spec.origin === 'hand-authored' ? 'documented' : 'estimated from ccxt';
}

interface Names {
  readonly listings: readonly VenueListing[];
  /** Every accepted name (ids and aliases) to its listing. */
  readonly byName: ReadonlyMap<string, VenueListing>;
}

let names: Names | undefined;

/**
 * The names of every spec. A hand-authored spec owns its id and the ccxt ids it documents
 * (`binance` → `binance-spot`); the ccxt-derived spec of such an exchange is only reachable as
 * `ccxt:<id>`. Any other ccxt-derived spec keeps its ccxt id, with `ccxt:<id>` as an alias.
 */
function venueNames(): Names {
  if (names !== undefined) return names;
  const listings: VenueListing[] = [];
  const covered = new Set<string>();
  for (const s of handAuthoredSpecs) {
    covered.add(s.id);
    for (const c of s.ccxtIds ?? []) covered.add(c);
    listings.push({ id: s.id, origin: s.origin, evidence: venueEvidence(s), aliases: (s.ccxtIds ?? []).filter((c) => c !== s.id) });
  }
  for (const ccxtId of generatedSpecIds()) {
    const explicit = `${CCXT_ID_PREFIX}${ccxtId}`;
    listings.push(
      covered.has(ccxtId)
        ? { id: explicit, origin: 'ccxt-derived', evidence: 'estimated from ccxt', aliases: [], ccxtId }
        : { id: ccxtId, origin: 'ccxt-derived', evidence: 'estimated from ccxt', aliases: [explicit], ccxtId },
    );
  }
  const byName = new Map<string, VenueListing>();
  for (const l of listings) {
    for (const n of [l.id, ...l.aliases]) {
      if (byName.has(n)) throw new Error(`venue name "${n}" is claimed by both "${byName.get(n)?.id}" and "${l.id}"`);
      byName.set(n, l);
    }
  }
  names = { listings, byName };
  return names;
}

/**
 * Every venue with a spec, with its origin in words and its aliases: the hand-authored ones
 * (`documented`), then the ccxt-derived ones (`estimated from ccxt`), under `ccxt:<id>` when a
 * hand-authored spec documents that exchange.
 */
export function listVenues(): readonly VenueListing[] {
  return venueNames().listings;
}

/** The spec id a name resolves to (an id or an alias, see {@link listVenues}), or `undefined`. */
export function resolveVenueId(name: string): string | undefined {
  return venueNames().byName.get(name)?.id;
}

const validated = new Map<string, VenueSpec>();

function checked(data: unknown, what: string): VenueSpec {
  const r = validateSpec(data);
  if (!r.ok) {
    throw new Error(`${what} fails validation:\n${r.errors.map((e) => `  ${e.path || '(root)'}: ${e.message}`).join('\n')}`);
  }
  return r.spec;
}

/**
 * The validated spec of a venue by id or alias. A venue's plain name is its hand-authored spec
 * when there is one (`getVenueSpec('binance').id === 'binance-spot'`); a ccxt-derived estimate is
 * returned for `ccxt:<id>`, or for the plain ccxt id of an exchange no hand-authored spec documents
 * (`mexc`). Check `origin` (or {@link venueEvidence}) before calling its numbers documented.
 *
 * @throws Error naming the known venues when `name` is unknown, or listing the validation errors
 * when the stored spec is invalid.
 * @example
 * ```ts
 * const spec = getVenueSpec('binance'); // Binance spot's documented limits, id 'binance-spot'
 * ```
 */
export function getVenueSpec(name: string): VenueSpec {
  const listing = venueNames().byName.get(name);
  if (listing === undefined) {
    const known = listVenues().map((v) => v.id);
    throw new Error(`unknown venue "${name}"; known venues: ${known.slice(0, 40).join(', ')}${known.length > 40 ? `, … (${known.length} in all)` : ''}`);
  }
  const cached = validated.get(listing.id);
  if (cached !== undefined) return cached;
  let spec: VenueSpec;
  if (listing.ccxtId === undefined) {
    const hand = handAuthoredSpecs.find((s) => s.id === listing.id);
    spec = checked(hand, `hand-authored spec "${listing.id}"`);
  } else {
    spec = checked(loadGeneratedSpec(listing.ccxtId, listing.id), `generated spec "${listing.id}"`);
  }
  validated.set(listing.id, spec);
  return spec;
}
