import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/** KuCoin: `{ code: "200000", data }`; a rate limit is HTTP 429 with code 429000 (with the gw-ratelimit headers). */
export const kucoinStyle: VenueStyle = {
  name: 'kucoin',
  apiKeyHeader: 'kc-api-key',
  success({ endpoint, request, nowMs }: SuccessContext): EmulatedResponse {
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
