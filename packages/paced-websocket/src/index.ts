export { openPacedWebSocket } from './open-paced-websocket.js';
export type { PacedWebSocket, PacedWebSocketOptions, ReconnectOptions, SendOptions, WebSocketAttemptEvent } from './options.js';
export { PacedWebSocketError, isPacedWebSocketError, type PacedWebSocketErrorCode } from './paced-websocket-error.js';
export { CapRegistry, processCapRegistry } from './cap-registry.js';
export { reconnectDelay, type BackoffOptions } from './backoff.js';
export type { WebSocketConstructor, WhatwgWebSocketLike, CloseInfo } from './socket-adapter.js';
