import { kucoinBody } from './kucoin-bodies.js';
import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/**
 * KuCoin: `{ code: "200000", data }`; a rate limit is HTTP 429 with code 429000 (with the
 * gw-ratelimit headers). `GET /api/v2/user-info` states the requester's VIP level: `N` for its tier
 * `vipN` (the emulator's `accounts`, else the spec's default tier).
 */
export const kucoinStyle: VenueStyle = {
  name: 'kucoin',
  apiKeyHeader: 'kc-api-key',
  success(context: SuccessContext): EmulatedResponse {
    const { endpoint, request, nowMs, tier } = context;
    const body = kucoinBody(context);
    if (body !== undefined) return body;
    if (endpoint?.id === 'user-info') {
      const level = /^vip(0|[1-9][0-9]*)$/.exec(tier ?? '')?.[1];
      if (level === undefined) return { status: 200, body: { code: '400100', msg: `the account's tier ${String(tier)} is no VIP level` } };
      const zero = {
        subQuantity: 0,
        spotSubQuantity: 0,
        marginSubQuantity: 0,
        futuresSubQuantity: 0,
        optionSubQuantity: 0,
        maxSubQuantity: 5,
        maxDefaultSubQuantity: 5,
        maxSpotSubQuantity: 0,
        maxMarginSubQuantity: 0,
        maxFuturesSubQuantity: 0,
        maxOptionSubQuantity: 0,
      };
      return { status: 200, body: { code: '200000', data: { level: Number(level), ...zero } } };
    }
    const symbol = request.query?.['symbol'] ?? 'BTC-USDT';
    const data = endpoint?.method === 'POST' ? { orderId: String(Math.floor(nowMs)) } : { symbol, price: '64000.1', time: Math.floor(nowMs) };
    return { status: 200, body: { code: '200000', data } };
  },
  refuse(_ctx: RefusalContext): Refusal {
    return { response: { status: 429, body: { code: '429000', msg: 'Too Many Requests' } } };
  },
  banned(): EmulatedResponse {
    return { status: 429, body: { code: '429000', msg: 'Too Many Requests' } };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return { status: code === 'unknown_endpoint' ? 404 : 400, body: { code: code === 'credential_required' ? '400003' : '400100', msg: message } };
  },
};
