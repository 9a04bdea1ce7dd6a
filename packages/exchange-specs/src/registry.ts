import { loadGeneratedSpec, generatedSpecIds } from './generated-specs.js';
import { handAuthoredSpecs } from './hand-authored.js';
import { validateSpec } from './validate-spec.js';
import type { VenueSpec } from './venue-spec.js';

/** A venue in {@link listVenues}. */
export interface VenueListing {
  readonly id: string;
  readonly origin: VenueSpec['origin'];
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
 * Every venue with a spec: the hand-authored ones, then the ccxt-derived ones whose id no
 * hand-authored spec uses.
 */
export function listVenues(): readonly VenueListing[] {
  const hand = handAuthoredSpecs.map((s) => ({ id: s.id, origin: s.origin }));
  const taken = new Set(hand.map((h) => h.id));
  const generated = generatedSpecIds()
    .filter((id) => !taken.has(id))
    .map((id) => ({ id, origin: 'ccxt-derived' as const }));
  return [...hand, ...generated];
}

/**
 * The validated spec of a venue: hand-authored when there is one, else ccxt-derived.
 *
 * @throws Error naming the known venues when `id` is unknown, or listing the validation errors
 * when the stored spec is invalid.
 * @example
 * ```ts
 * const spec = getVenueSpec('binance-spot');
 * ```
 */
export function getVenueSpec(id: string): VenueSpec {
  const cached = validated.get(id);
  if (cached !== undefined) return cached;
  const hand = handAuthoredSpecs.find((s) => s.id === id);
  let spec: VenueSpec;
  if (hand !== undefined) {
    spec = checked(hand, `hand-authored spec "${id}"`);
  } else {
    const data = loadGeneratedSpec(id);
    if (data === undefined) {
      const known = listVenues().map((v) => v.id);
      throw new Error(`unknown venue "${id}"; known venues: ${known.slice(0, 40).join(', ')}${known.length > 40 ? `, … (${known.length} in all)` : ''}`);
    }
    spec = checked(data, `generated spec "${id}"`);
  }
  validated.set(id, spec);
  return spec;
}
