import { OKX_SUBACCOUNT_BUCKET } from '@core/exchange-specs';
import { okxBody } from './okx-bodies.js';
import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/**
 * OKX: `{ code: "0", msg: "", data: [...] }`; a rate limit is code 50011 inside an HTTP 200 body.
 * `GET /api/v5/trade/account-rate-limit` states the requester's sub-account order limit per 2 s
 * from the emulator's own spec (fill ratios `""`, as OKX answers below VIP 5).
 */
export const okxStyle: VenueStyle = {
  name: 'okx',
  apiKeyHeader: 'ok-access-key',
  success(context: SuccessContext): EmulatedResponse {
    const { endpoint, request, nowMs, limits } = context;
    const body = okxBody(context);
    if (body !== undefined) return body;
    if (endpoint?.id === 'account-rate-limit') {
      const b = limits.find((x) => x.id === OKX_SUBACCOUNT_BUCKET);
      if (b === undefined || b.algorithm === 'token-bucket') return { status: 200, body: { code: '50000', msg: 'no sub-account rate limit', data: [] } };
      return {
        status: 200,
        body: {
          code: '0',
          msg: '',
          data: [{ accRateLimit: String(b.limit), fillRatio: '', mainFillRatio: '', nextAccRateLimit: '', ts: String(Math.floor(nowMs)) }],
        },
      };
    }
    const instId = request.query?.['instId'] ?? 'BTC-USDT';
    if (endpoint?.method === 'POST') {
      return {
        status: 200,
        body: { code: '0', msg: '', data: [{ ordId: String(Math.floor(nowMs)), clOrdId: '', tag: '', sCode: '0', sMsg: 'Order placed' }] },
      };
    }
    return { status: 200, body: { code: '0', msg: '', data: [{ instId, last: '64000.1', ts: String(Math.floor(nowMs)) }] } };
  },
  refuse(_ctx: RefusalContext): Refusal {
    return {
      response: {
        status: 200,
        body: { code: '50011', msg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly.', data: [] },
      },
    };
  },
  banned(): EmulatedResponse {
    return { status: 200, body: { code: '50011', msg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly.', data: [] } };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return code === 'unknown_endpoint'
      ? { status: 404, body: { code: '50000', msg: message, data: [] } }
      : { status: 400, body: { code: code === 'credential_required' ? '50103' : '50014', msg: message, data: [] } };
  },
};
