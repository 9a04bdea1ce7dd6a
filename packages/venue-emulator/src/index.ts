export { startVenueEmulator } from './start-venue-emulator.js';
export type { VenueEmulator, VenueEmulatorOptions, EmulatorStats } from './start-venue-emulator.js';
export type { BucketUsage, WindowUsage } from './bucket-ledger.js';
export { styleFor } from './style-for.js';
export type { VenueStyle, EmulatedResponse, AddressState, RefusalContext, Refusal, SuccessContext } from './venue-style.js';
export { binanceStyle } from './styles/binance.js';
export { binanceSapiStyle } from './styles/binance-sapi.js';
export { okxStyle } from './styles/okx.js';
export { bybitStyle } from './styles/bybit.js';
export { kucoinStyle } from './styles/kucoin.js';
export { krakenStyle } from './styles/kraken.js';
export { genericStyle } from './styles/generic.js';
export { dydxStyle } from './styles/dydx.js';
export { coinbaseIntxStyle } from './styles/coinbase-intx.js';
export { mexcStyle, mexcFuturesStyle } from './styles/mexc.js';
export { bitmartStyle } from './styles/bitmart.js';
export { krakenFuturesStyle } from './styles/kraken-futures.js';
export { htxSwapStyle } from './styles/htx-swap.js';
export type { WebSocketEmulatorOptions, WebSocketStats } from './websocket/attach-websocket.js';
export {
  webSocketStyleFor,
  binanceWebSocketStyle,
  okxWebSocketStyle,
  bybitWebSocketStyle,
  kucoinWebSocketStyle,
  genericWebSocketStyle,
} from './websocket/websocket-style.js';
export type { WebSocketStyle, WebSocketRefusal, WebSocketRefusalContext } from './websocket/websocket-style.js';
