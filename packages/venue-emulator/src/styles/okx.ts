import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/** OKX: `{ code: "0", msg: "", data: [...] }`; a rate limit is code 50011 inside an HTTP 200 body. */
export const okxStyle: VenueStyle = {
  name: 'okx',
  apiKeyHeader: 'ok-access-key',
  success({ endpoint, request, nowMs }: SuccessContext): EmulatedResponse {
    const instId = request.query?.['instId'] ?? 'BTC-USDT';
    if (endpoint?.method === 'POST') {
      return { status: 200, body: { code: '0', msg: '', data: [{ ordId: String(Math.floor(nowMs)), clOrdId: '', tag: '', sCode: '0', sMsg: 'Order placed' }] } };
    }
    return { status: 200, body: { code: '0', msg: '', data: [{ instId, last: '64000.1', ts: String(Math.floor(nowMs)) }] } };
  },
  refuse(_ctx: RefusalContext): Refusal {
    return { response: { status: 200, body: { code: '50011', msg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly.', data: [] } } };
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
