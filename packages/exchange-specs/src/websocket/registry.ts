import { getVenueSpec, resolveVenueId } from '../registry.js';
import type { VenueSpec } from '../venue-spec.js';
import { validateWebSocketSpec } from './validate-websocket-spec.js';
import { webSocketSpecs } from './venues/index.js';
import type { WebSocketSpec } from './websocket-spec.js';

const validated = new Map<string, WebSocketSpec>();

/** The ids of every venue with documented WebSocket limits (the REST specs' ids). */
export function listWebSocketVenues(): readonly string[] {
  return webSocketSpecs.map((s) => s.id);
}

/**
 * The validated WebSocket spec of a venue, by the same names as `getVenueSpec`: its id
 * (`binance-spot`) or a plain name that resolves to it (`binance`). The spec is checked on its own
 * and against the venue's REST spec (the REST buckets and endpoints it names).
 *
 * @throws Error naming the venues with WebSocket limits when the name has none, or listing the
 * validation errors when the stored spec is invalid.
 * @example
 * ```ts
 * const ws = getWebSocketSpec('okx');
 * ws.endpoints.map((e) => e.id); // ['public', 'private', 'business']
 * ```
 */
export function getWebSocketSpec(name: string): WebSocketSpec {
  const id = resolveVenueId(name) ?? name;
  const cached = validated.get(id);
  if (cached !== undefined) return cached;
  const data = webSocketSpecs.find((s) => s.id === id);
  if (data === undefined) {
    throw new Error(`no WebSocket limits for venue "${name}"; venues with WebSocket limits: ${listWebSocketVenues().join(', ')}`);
  }
  let rest: VenueSpec;
  try {
    rest = getVenueSpec(id);
  } catch (e) {
    throw new Error(`WebSocket spec "${id}" has no REST spec: ${(e as Error).message}`);
  }
  const r = validateWebSocketSpec(data, rest);
  if (!r.ok) throw new Error(`WebSocket spec "${id}" fails validation:\n${r.errors.map((e) => `  ${e.path || '(root)'}: ${e.message}`).join('\n')}`);
  validated.set(id, r.spec);
  return r.spec;
}
