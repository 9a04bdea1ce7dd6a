import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/**
 * Kraken Futures: `{ result: "success", serverTime, ... }`; over a budget, an HTTP 200 body
 * `{ result: "error", serverTime, error: "apiLimitExceeded" }` (the /derivatives budget and the
 * /history pool alike). The API key travels in the `APIKey` header.
 */
export const krakenFuturesStyle: VenueStyle = {
  name: 'kraken-futures',
  apiKeyHeader: 'apikey',
  success({ endpoint, nowMs }: SuccessContext): EmulatedResponse {
    const serverTime = new Date(nowMs).toISOString();
    if (endpoint?.id === 'sendorder') {
      return {
        status: 200,
        body: { result: 'success', serverTime, sendStatus: { order_id: `o-${Math.floor(nowMs)}`, status: 'placed', receivedTime: serverTime } },
      };
    }
    return { status: 200, body: { result: 'success', serverTime } };
  },
  refuse(ctx: RefusalContext): Refusal {
    return { response: { status: 200, body: { result: 'error', serverTime: new Date(ctx.nowMs).toISOString(), error: 'apiLimitExceeded' } } };
  },
  banned(_address, nowMs: number): EmulatedResponse {
    return { status: 200, body: { result: 'error', serverTime: new Date(nowMs).toISOString(), error: 'apiLimitExceeded' } };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    if (code === 'unknown_endpoint') return { status: 404, body: { result: 'error', error: 'Not Found' } };
    return { status: 200, body: { result: 'error', error: code === 'credential_required' ? 'authenticationError' : 'requiredArgumentMissing', message } };
  },
};
