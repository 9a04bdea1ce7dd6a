import type { RateLimitErrorCode } from '@core/rate-limit-contract';
import type { WebSocketResolveErrorCode } from '@core/exchange-specs';

/**
 * Why a paced WebSocket did not connect or did not send a message:
 * - `unknown_venue`: no WebSocket spec for that name.
 * - a {@link WebSocketResolveErrorCode} (`unknown_ws_endpoint`, `missing_parameter`,
 *   `credential_required`, ...): the connection or message cannot be priced, so it is never sent.
 * - `message_too_large`: the message is larger than the venue allows.
 * - `subscription_cap`: the subscription would take a connection, IP or account past its cap.
 * - `too_many_topics`: one message carries more topics than the venue allows per message.
 * - `connection_cap`: one more open connection would exceed the venue's cap.
 * - `connection_closed`: the server closed the connection before the message went out (its wait is
 *   aborted and its booking given back); the message was not sent.
 * - `unreachable`: no connection could be opened (every attempt failed).
 * - `closed`: the client was closed; nothing more is sent.
 * - `not_supported`: a protocol ping through a WebSocket that cannot send frames.
 * - a {@link RateLimitErrorCode} from the limiter (`rate_limit_timeout`, `backend_unavailable`, ...).
 */
export type PacedWebSocketErrorCode =
  | 'unknown_venue'
  | WebSocketResolveErrorCode
  | 'message_too_large'
  | 'subscription_cap'
  | 'too_many_topics'
  | 'connection_cap'
  | 'connection_closed'
  | 'unreachable'
  | 'closed'
  | 'not_supported'
  | RateLimitErrorCode;

const BRAND = Symbol.for('@core/paced-websocket/error');

/**
 * The error a paced WebSocket rejects with. Compare by `code` (or {@link isPacedWebSocketError}),
 * never with `instanceof`: two loaded copies of the package still agree.
 */
export class PacedWebSocketError extends Error {
  readonly code: PacedWebSocketErrorCode;
  /** The wait the limiter required, for `rate_limit_timeout`. */
  readonly retryAfterMs?: number;
  readonly [BRAND] = true;

  constructor(code: PacedWebSocketErrorCode, message: string, retryAfterMs?: number) {
    super(message);
    this.name = 'PacedWebSocketError';
    this.code = code;
    if (retryAfterMs !== undefined) this.retryAfterMs = retryAfterMs;
  }
}

/** Is `e` a {@link PacedWebSocketError} (from any loaded copy of this package)? */
export function isPacedWebSocketError(e: unknown): e is PacedWebSocketError {
  return typeof e === 'object' && e !== null && (e as Record<symbol, unknown>)[BRAND] === true;
}
