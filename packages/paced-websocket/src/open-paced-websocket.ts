import type { PacedWebSocket, PacedWebSocketOptions } from './options.js';
import { PacedConnection } from './paced-connection.js';
import { PacedWebSocketError } from './paced-websocket-error.js';

/**
 * Opens a WebSocket to one venue endpoint for one identity, paced by the venue's documented
 * WebSocket limits through `limiter`:
 *
 * 1. The connection attempt waits for the connection buckets (attempts per IP or account) and any
 *    REST cost of connecting (Binance's WebSocket API: 2 weight), under the open-connection caps.
 * 2. Every message waits for its connection's message buckets; a WebSocket API request also for the
 *    REST buckets of its REST equivalent, priced by the REST spec through the same limiter, so REST
 *    and WebSocket traffic of one IP or account share their budgets (across processes on Redis).
 *    Messages go out in order; a subscription counts against its caps and is refused beyond them; a
 *    message larger than the venue allows is refused. Pongs go through the buckets too (`ws`).
 * 3. When the server drops the connection, pending waits are aborted (bookings given back) and their
 *    sends reject with `connection_closed`; reconnects wait a backoff, then the connection buckets,
 *    then re-send the subscriptions: a flapping network never turns into a burst of attempts.
 * 4. `close()` aborts pending waits and rejects pending sends with `closed`; `signal` gives up the
 *    opening itself (`aborted`).
 *
 * Every connection attempt and message that went out is reported to `onAttempt`, with its checks.
 *
 * @returns the open connection.
 * @throws PacedWebSocketError `unknown_venue`, `unknown_ws_endpoint`, `connection_cap`,
 * `unreachable` (after the reconnect attempts, if any), `aborted` (by `signal`), a limiter error; RangeError for a bad option.
 * @example
 * ```ts
 * const ws = await openPacedWebSocket({ venue: 'binance', endpoint: 'market-streams', url: 'wss://stream.binance.com:9443/ws', identity: { credential: null }, limiter });
 * await ws.send({ method: 'SUBSCRIBE', params: ['btcusdt@trade'], id: 1 });
 * ```
 */
export async function openPacedWebSocket(options: PacedWebSocketOptions): Promise<PacedWebSocket> {
  const { signal } = options;
  const aborted = (): PacedWebSocketError => new PacedWebSocketError('aborted', 'the caller aborted the opening; no connection was left open');
  if (signal?.aborted === true) throw aborted();
  const c = new PacedConnection(options);
  if (signal === undefined) {
    await c.open();
    return c;
  }
  const onAbort = (): void => void c.close();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    await c.open();
  } catch (e) {
    throw signal.aborted ? aborted() : e;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  if (signal.aborted) {
    await c.close();
    throw aborted();
  }
  return c;
}
