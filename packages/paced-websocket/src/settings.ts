import type { Clock } from '@core/rate-limit-contract';
import {
  getVenueSpec,
  getWebSocketSpec,
  type VenueSpec,
  type WebSocketCapSpec,
  type WebSocketEndpointSpec,
  type WebSocketResolveOptions,
  type WebSocketSpec,
} from '@core/exchange-specs';
import { systemClock } from '@core/paced-fetch';
import { checkBackoff } from './backoff.js';
import { processCapRegistry, type CapRegistry } from './cap-registry.js';
import type { PacedWebSocketOptions, ReconnectOptions } from './options.js';
import { PacedWebSocketError } from './paced-websocket-error.js';

const DEFAULT_MAX_WAIT_MS = 10_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/** A client's options, checked, with their defaults and the specs they name. */
export interface Settings {
  readonly spec: WebSocketSpec;
  /** The REST spec of the same venue (the REST equivalents of WebSocket API requests). */
  readonly rest: VenueSpec;
  readonly endpoint: WebSocketEndpointSpec;
  readonly clock: Clock;
  readonly registry: CapRegistry;
  readonly maxWaitMs: number;
  readonly connectTimeoutMs: number;
  /** `undefined` when the client does not reconnect. */
  readonly reconnect: ReconnectOptions | undefined;
  readonly resolveOptions: WebSocketResolveOptions;
  /** The caps of the endpoint. */
  readonly caps: readonly WebSocketCapSpec[];
}

function positive(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`paced websocket: ${name} must be a positive finite number, got ${String(v)}`);
  return v;
}

function resolveSpec(venue: WebSocketSpec | string): WebSocketSpec {
  if (typeof venue !== 'string') return venue;
  try {
    return getWebSocketSpec(venue);
  } catch (e) {
    throw new PacedWebSocketError('unknown_venue', (e as Error).message);
  }
}

/**
 * Checks a client's options and resolves what they name.
 *
 * @throws PacedWebSocketError `unknown_venue`, `unknown_ws_endpoint`; RangeError for a bad option.
 */
export function readSettings(options: PacedWebSocketOptions): Settings {
  const spec = resolveSpec(options.venue);
  const endpoint = spec.endpoints.find((e) => e.id === options.endpoint);
  if (endpoint === undefined) {
    throw new PacedWebSocketError(
      'unknown_ws_endpoint',
      `${spec.id}: no WebSocket endpoint "${options.endpoint}" (known: ${spec.endpoints.map((e) => e.id).join(', ')})`,
    );
  }
  const rest = getVenueSpec(spec.id);
  const clock = options.clock ?? systemClock;
  const registry = options.caps ?? processCapRegistry;
  const maxWaitMs = positive('maxWaitMs', options.maxWaitMs, DEFAULT_MAX_WAIT_MS);
  const connectTimeoutMs = positive('connectTimeoutMs', options.connectTimeoutMs, DEFAULT_CONNECT_TIMEOUT_MS);
  const reconnect = options.reconnect === false ? undefined : (options.reconnect ?? {});
  if (reconnect !== undefined) {
    checkBackoff(reconnect);
    const n = reconnect.maxAttempts;
    if (n !== undefined && !(Number.isInteger(n) && n >= 0))
      throw new RangeError(`paced websocket: reconnect.maxAttempts must be an integer >= 0, got ${String(n)}`);
    positive('reconnect.maxWaitMs', reconnect.maxWaitMs, 1);
    positive('reconnect.stableAfterMs', reconnect.stableAfterMs, 1);
  }
  const resolveOptions: WebSocketResolveOptions = {
    ...(options.margin === undefined ? {} : { margin: options.margin }),
    ...(options.burstFraction === undefined ? {} : { burstFraction: options.burstFraction }),
    ...(options.jitterMs === undefined ? {} : { jitterMs: options.jitterMs }),
    ...(options.connectJitterMs === undefined ? {} : { connectJitterMs: options.connectJitterMs }),
    // REST buckets it spends are enforced as the REST clients of the same limiter enforce them
    windowLimits: options.limiter.capabilities.windowLimits === true,
  };
  const caps = (endpoint.caps ?? []).flatMap((id) => spec.caps?.filter((c) => c.id === id) ?? []);
  return { spec, rest, endpoint, clock, registry, maxWaitMs, connectTimeoutMs, reconnect, resolveOptions, caps };
}
