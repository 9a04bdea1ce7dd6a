import { BYBIT_RATE_BUCKETS } from '@core/exchange-specs';
import { bybitBody } from './bybit-bodies.js';
import type { AddressState, EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

const IP_BAN_MS = 10 * 60_000;

/**
 * `GET /v5/apilimit/query`: the requester's per-second rate per business type, the smallest limit of
 * the buckets that rate governs (the spec keeps one limit for every category of a bucket, so every
 * business type gets the same number, and it is true for each of those buckets).
 */
function apiLimit({ request, nowMs, limits }: SuccessContext): EmulatedResponse {
  const uids = request.query?.['uids'];
  const envelope = (retCode: number, retMsg: string, result: unknown): EmulatedResponse => ({
    status: 200,
    body: { retCode, retMsg, result, retExtInfo: {}, time: Math.floor(nowMs) },
  });
  if (uids === undefined || uids === '') return envelope(10001, 'params error: uids is required', {});
  const rates = limits
    .filter((b) => BYBIT_RATE_BUCKETS.includes(b.id))
    .map((b) => (b.algorithm === 'token-bucket' ? b.refillPerSec : (b.limit * 1000) / b.windowMs));
  if (rates.length === 0) return envelope(0, 'success', { list: [] });
  const rate = Math.floor(Math.min(...rates));
  return envelope(0, 'success', { list: ['SPOT', 'DERIVATIVES', 'OPTIONS'].map((bizType) => ({ uids, bizType, rate })) });
}

/**
 * Bybit v5: `{ retCode, retMsg, result, retExtInfo, time }`; `GET /v5/apilimit/query` states the
 * account's rate from the emulator's own spec. A per-UID endpoint limit answers
 * retCode 10006 in an HTTP 200 body; breaking the IP limit answers HTTP 403 "access too frequent"
 * and stops the address for 10 minutes.
 */
export const bybitStyle: VenueStyle = {
  name: 'bybit',
  apiKeyHeader: 'x-bapi-api-key',
  success(context: SuccessContext): EmulatedResponse {
    const { endpoint, request, nowMs } = context;
    if (endpoint?.id === 'apilimit-query') return apiLimit(context);
    const body = bybitBody(context);
    if (body !== undefined) return body;
    const symbol = request.query?.['symbol'] ?? 'BTCUSDT';
    const result =
      endpoint?.method === 'POST'
        ? { orderId: String(Math.floor(nowMs)), orderLinkId: '' }
        : { category: request.query?.['category'] ?? 'spot', list: [{ symbol, lastPrice: '64000.1' }] };
    return { status: 200, body: { retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: Math.floor(nowMs) } };
  },
  refuse(ctx: RefusalContext): Refusal {
    if (ctx.bucket.scope === 'ip') {
      const until = ctx.nowMs + IP_BAN_MS;
      return { banUntilMs: until, response: { status: 403, headers: { 'content-type': 'text/plain' }, body: 'access too frequent' } };
    }
    return {
      response: {
        status: 200,
        body: { retCode: 10006, retMsg: 'Too many visits. Exceeded the API Rate Limit.', result: {}, retExtInfo: {}, time: Math.floor(ctx.nowMs) },
      },
    };
  },
  banned(_address: AddressState, _nowMs: number): EmulatedResponse {
    return { status: 403, headers: { 'content-type': 'text/plain' }, body: 'access too frequent' };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return {
      status: code === 'unknown_endpoint' ? 404 : 400,
      body: { retCode: code === 'credential_required' ? 10003 : 10001, retMsg: message, result: {}, retExtInfo: {}, time: Date.now() },
    };
  },
};
