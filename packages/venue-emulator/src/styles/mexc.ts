import {
  retryAfterSeconds,
  type AddressState,
  type EmulatedResponse,
  type Refusal,
  type RefusalContext,
  type SuccessContext,
  type VenueStyle,
} from '../venue-style.js';

const FIRST_BAN_MS = 120_000;
const MAX_BAN_MS = 3 * 86_400_000;

function banBody(untilMs: number): { code: number; msg: string } {
  return { code: 418, msg: `IP banned until ${Math.floor(untilMs)}` };
}

/**
 * MEXC spot (API v3): plain JSON answers; a rate limit is HTTP 429 with `Retry-After` (seconds)
 * and `{ code: 429, msg: "Too Many Requests" }`. A client that sends again before that Retry-After
 * is over gets MEXC's automatic IP ban: 418 with `Retry-After`, 2 minutes first, doubling up to
 * 3 days ("IP bans are tracked and scale in duration for repeat offenders, from 2 minutes to 3 days").
 */
export const mexcStyle: VenueStyle = {
  name: 'mexc',
  apiKeyHeader: 'x-mexc-apikey',
  success({ endpoint, request, nowMs }: SuccessContext): EmulatedResponse {
    const symbol = request.query?.['symbol'] ?? 'BTCUSDT';
    switch (endpoint?.id) {
      case 'GET /api/v3/depth':
        return { status: 200, body: { lastUpdateId: Math.floor(nowMs), bids: [['64000.00', '0.5']], asks: [['64000.10', '0.4']] } };
      case 'GET /api/v3/time':
        return { status: 200, body: { serverTime: Math.floor(nowMs) } };
      case 'POST /api/v3/order':
        return {
          status: 200,
          body: {
            symbol,
            orderId: String(Math.floor(nowMs)),
            orderListId: -1,
            price: '60000',
            origQty: '0.001',
            type: 'LIMIT',
            side: 'BUY',
            transactTime: Math.floor(nowMs),
          },
        };
      case 'GET /api/v3/account':
        return {
          status: 200,
          body: {
            canTrade: true,
            canWithdraw: true,
            canDeposit: true,
            updateTime: null,
            accountType: 'SPOT',
            balances: [{ asset: 'USDT', free: '1000', locked: '0' }],
            permissions: ['SPOT'],
          },
        };
      default:
        return { status: 200, body: { symbol, price: '64000.00', time: Math.floor(nowMs) } };
    }
  },
  refuse(ctx: RefusalContext): Refusal {
    const { address, nowMs } = ctx;
    if (address.retryUntilMs > nowMs) {
      const banMs = address.nextBanMs > 0 ? address.nextBanMs : FIRST_BAN_MS;
      address.nextBanMs = Math.min(MAX_BAN_MS, banMs * 2);
      const until = nowMs + banMs;
      return { banUntilMs: until, response: { status: 418, headers: { 'retry-after': retryAfterSeconds(until, nowMs) }, body: banBody(until) } };
    }
    address.retryUntilMs = ctx.resetAtMs;
    return { response: { status: 429, headers: { 'retry-after': retryAfterSeconds(ctx.resetAtMs, nowMs) }, body: { code: 429, msg: 'Too Many Requests' } } };
  },
  banned(address: AddressState, nowMs: number): EmulatedResponse {
    return { status: 418, headers: { 'retry-after': retryAfterSeconds(address.bannedUntilMs, nowMs) }, body: banBody(address.bannedUntilMs) };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    if (code === 'unknown_endpoint') return { status: 404, body: { code: 404, msg: message } };
    return { status: 400, body: { code: code === 'credential_required' ? 400 : 33333, msg: message } };
  },
};

/**
 * MEXC futures (contract API v1): `{ success, code, data }` bodies; a rate limit is code 510
 * ("Excessive frequency of requests") in an HTTP 200 body, with no ban documented.
 */
export const mexcFuturesStyle: VenueStyle = {
  name: 'mexc-futures',
  apiKeyHeader: 'apikey',
  success({ endpoint, nowMs }: SuccessContext): EmulatedResponse {
    if (endpoint?.method === 'POST') return { status: 200, body: { success: true, code: 0, data: String(Math.floor(nowMs)) } };
    return { status: 200, body: { success: true, code: 0, data: { symbol: 'BTC_USDT', lastPrice: 64000.1, timestamp: Math.floor(nowMs) } } };
  },
  refuse(_ctx: RefusalContext): Refusal {
    return { response: { status: 200, body: { success: false, code: 510, message: 'Excessive frequency of requests' } } };
  },
  banned(): EmulatedResponse {
    return { status: 200, body: { success: false, code: 510, message: 'Excessive frequency of requests' } };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    if (code === 'unknown_endpoint') return { status: 404, body: { success: false, code: 511, message } };
    return code === 'credential_required'
      ? { status: 401, body: { success: false, code: 401, message } }
      : { status: 400, body: { success: false, code: 600, message } };
  },
};
