import type { WebSocketSpec } from '../websocket-spec.js';
import { binanceSpotWebSocket } from './binance-spot.js';
import { binanceUsdmWebSocket } from './binance-usdm.js';
import { bitgetWebSocket } from './bitget.js';
import { bybitWebSocket } from './bybit.js';
import { gateWebSocket } from './gate.js';
import { hyperliquidWebSocket } from './hyperliquid.js';
import { krakenWebSocket } from './kraken.js';
import { kucoinWebSocket } from './kucoin.js';
import { okxWebSocket } from './okx.js';

/** Every venue's WebSocket spec (validated by `getWebSocketSpec`). */
export const webSocketSpecs: readonly WebSocketSpec[] = [binanceSpotWebSocket, binanceUsdmWebSocket, okxWebSocket, bybitWebSocket, kucoinWebSocket, krakenWebSocket, hyperliquidWebSocket, gateWebSocket, bitgetWebSocket];
