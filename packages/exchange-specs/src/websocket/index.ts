export type {
  WebSocketScope,
  MessageKind,
  WebSocketWindowBucketSpec,
  WebSocketTokenBucketSpec,
  WebSocketBucketSpec,
  WebSocketCapSpec,
  WebSocketCharge,
  RestCharge,
  MessageRule,
  WebSocketOperationSpec,
  MessageFormat,
  WebSocketEndpointSpec,
  WebSocketSpec,
} from './websocket-spec.js';
export { MESSAGE_KINDS } from './websocket-spec.js';
export { validateWebSocketSpec, type ValidateWebSocketResult } from './validate-websocket-spec.js';
export { getWebSocketSpec, listWebSocketVenues } from './registry.js';
export { classifyMessage, messageTopics, wireForm, wireBytes, type ClassifiedMessage, type OutgoingMessage } from './classify-message.js';
export {
  resolveConnect,
  resolveMessage,
  DEFAULT_CONNECT_JITTER_MS,
  webSocketAxis,
  webSocketCredential,
  webSocketBucketMaxCost,
  webSocketVenueBucket,
  webSocketBucketDerivation,
  kindsCounted,
  type WebSocketResolveOptions,
  type WebSocketResolveErrorCode,
  type WebSocketVenueCharge,
  type WebSocketResolveResult,
} from './resolve-websocket.js';
