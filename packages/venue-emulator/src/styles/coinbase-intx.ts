import type { EmulatedResponse, Refusal, SuccessContext, VenueStyle } from '../venue-style.js';

const REFUSAL = { message: 'Rate limit exceeded - Server allows 100 requests per second' } as const;

/**
 * Coinbase International Exchange: JSON bodies, errors as `{ "message": ... }`; a rate limit is HTTP
 * 429 with the message Coinbase documents (no Retry-After: it documents none). Keys in `CB-ACCESS-KEY`.
 */
export const coinbaseIntxStyle: VenueStyle = {
  name: 'coinbase-intx',
  apiKeyHeader: 'cb-access-key',
  success({ endpoint, request, nowMs }: SuccessContext): EmulatedResponse {
    if (endpoint?.method === 'POST' && endpoint.path === '/api/v1/orders') {
      return { status: 200, body: { order_id: String(Math.floor(nowMs)), client_order_id: '', order_status: 'WORKING' } };
    }
    return { status: 200, body: { path: request.path, time: new Date(nowMs).toISOString() } };
  },
  refuse(): Refusal {
    return { response: { status: 429, body: REFUSAL } };
  },
  banned(): EmulatedResponse {
    return { status: 429, body: REFUSAL };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return { status: code === 'unknown_endpoint' ? 404 : code === 'credential_required' ? 401 : 400, body: { message } };
  },
};
