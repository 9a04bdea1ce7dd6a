import type { VenueSpec } from './venue-spec.js';
import { binanceSpot } from './venues/binance-spot.js';

/** Every hand-authored spec (they win over ccxt-derived ones with the same id). */
export const handAuthoredSpecs: readonly VenueSpec[] = [binanceSpot];
