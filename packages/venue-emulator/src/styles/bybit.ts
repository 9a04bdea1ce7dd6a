import type { AddressState, EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

const IP_BAN_MS = 10 * 60_000;

/**
 * Bybit v5: `{ retCode, retMsg, result, retExtInfo, time }`. A per-UID endpoint limit answers
 * retCode 10006 in an HTTP 200 body; breaking the IP limit answers HTTP 403 "access too frequent"
 * and stops the address for 10 minutes.
 */
export const bybitStyle: VenueStyle = {
  name: 'bybit',
  apiKeyHeader: 'x-bapi-api-key',
  success({ endpoint, request, nowMs }: SuccessContext): EmulatedResponse {
    const symbol = request.query?.['symbol'] ?? 'BTCUSDT';
    const result = endpoint?.method === 'POST' ? { orderId: String(Math.floor(nowMs)), orderLinkId: '' } : { category: request.query?.['category'] ?? 'spot', list: [{ symbol, lastPrice: '64000.1' }] };
    return { status: 200, body: { retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: Math.floor(nowMs) } };
  },
  refuse(ctx: RefusalContext): Refusal {
    if (ctx.bucket.scope === 'ip') {
      const until = ctx.nowMs + IP_BAN_MS;
      return { banUntilMs: until, response: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'access too frequent' } };
    }
    return { response: { status: 200, body: { retCode: 10006, retMsg: 'Too many visits. Exceeded the API Rate Limit.', result: {}, retExtInfo: {}, time: Math.floor(ctx.nowMs) } } };
  },
  banned(_address: AddressState, _nowMs: number): EmulatedResponse {
    return { status: 403, headers: { 'content-type': 'text/plain' }, body: 'access too frequent' };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return { status: code === 'unknown_endpoint' ? 404 : 400, body: { retCode: code === 'credential_required' ? 10003 : 10001, retMsg: message, result: {}, retExtInfo: {}, time: Date.now() } };
  },
};
