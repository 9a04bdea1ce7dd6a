import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/**
 * HTX USDT-margined contracts: `{ status: "ok", data, ts }`; over a limit, an HTTP 200 body
 * `{ status: "error", err_code: 1032, err_msg, ts }` (with the ratelimit-* headers the spec's
 * feedback rule names). HTX signs with an `AccessKeyId` query parameter: the emulator reads the key
 * from a header of that name.
 */
export const htxSwapStyle: VenueStyle = {
  name: 'htx-swap',
  apiKeyHeader: 'accesskeyid',
  success({ endpoint, request, nowMs }: SuccessContext): EmulatedResponse {
    const ts = Math.floor(nowMs);
    if (endpoint?.method === 'POST' && /order$/.test(endpoint.path))
      return { status: 200, body: { status: 'ok', data: { order_id: ts, order_id_str: String(ts) }, ts } };
    const contract = request.query?.['contract_code'] ?? 'BTC-USDT';
    return { status: 200, body: { status: 'ok', data: [{ contract_code: contract }], ts } };
  },
  refuse(ctx: RefusalContext): Refusal {
    return {
      response: { status: 200, body: { status: 'error', err_code: 1032, err_msg: 'The number of access exceeded the limit.', ts: Math.floor(ctx.nowMs) } },
    };
  },
  banned(_address, nowMs: number): EmulatedResponse {
    return { status: 200, body: { status: 'error', err_code: 1032, err_msg: 'The number of access exceeded the limit.', ts: Math.floor(nowMs) } };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    if (code === 'unknown_endpoint') return { status: 404, body: { status: 'error', err_code: 404, err_msg: message, ts: Date.now() } };
    return { status: 200, body: { status: 'error', err_code: code === 'credential_required' ? 1010 : 1030, err_msg: message, ts: Date.now() } };
  },
};
