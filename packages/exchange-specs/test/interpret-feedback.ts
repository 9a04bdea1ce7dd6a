// The pinned options and response helper of the interpretResponse tests (interpret-response*.test.ts).
import { getVenueSpec, interpretResponse, type Identity, type InterpretOptions, type VenueRequest, type VenueResponse } from '../src/index.js';
import { publicId } from './helpers.js';

/** The arithmetic of the tests is pinned with explicit options (round numbers); the defaults have their own test. */
// Pins the token-bucket derivation (for limiters without window limits); window limits are tested on their own.
export const PINNED = { margin: 0.1, burstFraction: 0.1, jitterMs: 0, windowLimits: false } as const;

export function feedback(
  venue: string,
  request: VenueRequest,
  response: Partial<VenueResponse>,
  identity: Identity = publicId,
  options: InterpretOptions = PINNED,
) {
  return interpretResponse(getVenueSpec(venue), request, { status: 200, headers: {}, body: {}, ...response }, identity, options);
}

export const minuteStart = Date.UTC(2026, 10, 30, 12, 0, 0);
export const date = (ms: number) => new Date(ms).toUTCString();
