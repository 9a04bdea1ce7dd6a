import type { VenueSpec } from '@core/exchange-specs';
import { binanceStyle } from './styles/binance.js';
import { binanceSapiStyle } from './styles/binance-sapi.js';
import { bybitStyle } from './styles/bybit.js';
import { genericStyle } from './styles/generic.js';
import { krakenStyle } from './styles/kraken.js';
import { kucoinStyle } from './styles/kucoin.js';
import { okxStyle } from './styles/okx.js';
import { dydxStyle } from './styles/dydx.js';
import { coinbaseIntxStyle } from './styles/coinbase-intx.js';
import { mexcFuturesStyle, mexcStyle } from './styles/mexc.js';
import { bitmartStyle } from './styles/bitmart.js';
import { krakenFuturesStyle } from './styles/kraken-futures.js';
import { htxSwapStyle } from './styles/htx-swap.js';
import type { VenueStyle } from './venue-style.js';

// The first style whose name the spec's id starts with wins: binance-sapi before binance,
// kraken-futures before kraken.
const STYLES: readonly VenueStyle[] = [
  binanceSapiStyle,
  binanceStyle,
  okxStyle,
  bybitStyle,
  kucoinStyle,
  krakenFuturesStyle,
  krakenStyle,
  htxSwapStyle,
  dydxStyle,
  coinbaseIntxStyle,
  mexcFuturesStyle,
  mexcStyle,
  bitmartStyle,
];

/**
 * The style of a spec's venue, found by the spec's id or venue name (`binance-spot` and `Binance`
 * both give Binance's); a venue without its own style answers like a generic REST API.
 */
export function styleFor(spec: VenueSpec): VenueStyle {
  const names = [spec.id.toLowerCase(), spec.venue.toLowerCase()];
  return STYLES.find((s) => names.some((n) => n === s.name || n.startsWith(`${s.name}-`) || n.startsWith(`${s.name} `))) ?? genericStyle;
}
