export { paceExchange, isPaced } from './pace-exchange.js';
export type { PaceExchangeOptions, PacingOptions } from './pace-exchange.js';
export { routeCall, estimateSpec } from './routes.js';
export type { CallSite } from './routes.js';
export { ccxtErrorClass, toCcxtError } from './errors.js';
export type { FailedCall } from './errors.js';
export { CCXT_VENUES, pointCcxtAt } from './venue-setups.js';
export type { CcxtVenueSetup } from './venue-setups.js';
