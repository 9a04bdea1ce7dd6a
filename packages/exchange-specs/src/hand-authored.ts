import type { VenueSpec } from './venue-spec.js';
import { binanceSpot } from './venues/binance-spot.js';
import { binanceUsdm } from './venues/binance-usdm.js';
import { binanceCoinm } from './venues/binance-coinm.js';
import { binanceOptions } from './venues/binance-options.js';
import { binanceSapi } from './venues/binance-sapi.js';
import { bitfinex } from './venues/bitfinex.js';
import { bitget } from './venues/bitget.js';
import { bitstamp } from './venues/bitstamp.js';
import { bybit } from './venues/bybit.js';
import { coinbase } from './venues/coinbase.js';
import { deribit } from './venues/deribit.js';
import { gate } from './venues/gate.js';
import { htx } from './venues/htx.js';
import { hyperliquid } from './venues/hyperliquid.js';
import { kraken } from './venues/kraken.js';
import { kucoin } from './venues/kucoin.js';
import { okx } from './venues/okx.js';
import { ascendex } from './venues/ascendex.js';
import { dydxV4 } from './venues/dydx-v4.js';
import { coinbaseIntx } from './venues/coinbase-intx.js';
import { mexcSpot } from './venues/mexc-spot.js';
import { mexcFutures } from './venues/mexc-futures.js';
import { bitmartSpot } from './venues/bitmart-spot.js';
import { bitmartFutures } from './venues/bitmart-futures.js';
import { kucoinFutures } from './venues/kucoin-futures.js';
import { krakenFutures } from './venues/kraken-futures.js';
import { htxSwap } from './venues/htx-swap.js';
import { kucoinUnified } from './venues/kucoin-unified.js';

/** Every hand-authored spec (they win over ccxt-derived ones with the same id). */
export const handAuthoredSpecs: readonly VenueSpec[] = [
  binanceSpot,
  binanceUsdm,
  okx,
  bybit,
  kucoin,
  kraken,
  coinbase,
  bitget,
  gate,
  htx,
  bitfinex,
  deribit,
  bitstamp,
  hyperliquid,
  ascendex,
  dydxV4,
  coinbaseIntx,
  mexcSpot,
  mexcFutures,
  bitmartSpot,
  bitmartFutures,
  binanceCoinm,
  binanceOptions,
  binanceSapi,
  kucoinFutures,
  krakenFutures,
  htxSwap,
  kucoinUnified,
];
