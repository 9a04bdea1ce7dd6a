import type { WebSocketSpec } from '../websocket-spec.js';
import { binanceSpotWebSocket } from './binance-spot.js';
import { binanceUsdmWebSocket } from './binance-usdm.js';
import { bybitWebSocket } from './bybit.js';
import { okxWebSocket } from './okx.js';

/** Every venue's WebSocket spec (validated by `getWebSocketSpec`). */
export const webSocketSpecs: readonly WebSocketSpec[] = [binanceSpotWebSocket, binanceUsdmWebSocket, okxWebSocket, bybitWebSocket];
