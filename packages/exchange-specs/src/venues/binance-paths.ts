import type { PricedElsewhere } from '../venue-spec.js';

/**
 * Binance's REST path families and the spec that prices each: a Binance spec refuses a request of
 * another family and names the spec to use (a user who says `binance` gets spot; `/sapi` is
 * `binance-sapi`). Portfolio margin (`/papi`) has no spec.
 */
const FAMILIES: readonly PricedElsewhere[] = [
  { prefix: '/api/', spec: 'binance-spot' },
  { prefix: '/sapi/', spec: 'binance-sapi' },
  { prefix: '/fapi/', spec: 'binance-usdm' },
  { prefix: '/dapi/', spec: 'binance-coinm' },
  { prefix: '/eapi/', spec: 'binance-options' },
];

/** The Binance path families the spec `id` leaves to the others (its `pricedElsewhere`). */
export function binancePricedElsewhere(id: string): readonly PricedElsewhere[] {
  return FAMILIES.filter((f) => f.spec !== id);
}
