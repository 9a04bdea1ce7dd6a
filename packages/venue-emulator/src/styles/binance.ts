import { retryAfterSeconds, type AddressState, type EmulatedResponse, type Refusal, type RefusalContext, type SuccessContext, type VenueStyle } from '../venue-style.js';

const FIRST_BAN_MS = 120_000;
const MAX_BAN_MS = 3 * 86_400_000;

function success({ endpoint, request, nowMs }: SuccessContext): EmulatedResponse {
  const symbol = request.query?.['symbol'] ?? 'BTCUSDT';
  switch (endpoint?.id) {
    case 'depth':
      return { status: 200, body: { lastUpdateId: Math.floor(nowMs), bids: [['64000.00', '0.5']], asks: [['64000.10', '0.4']] } };
    case 'time':
      return { status: 200, body: { serverTime: Math.floor(nowMs) } };
    case 'ping':
      return { status: 200, body: {} };
    case 'newOrder':
      return { status: 200, body: { symbol, orderId: Math.floor(nowMs), clientOrderId: 'emulated', transactTime: Math.floor(nowMs), status: 'NEW' } };
    default:
      return { status: 200, body: { symbol, price: '64000.00', serverTime: Math.floor(nowMs) } };
  }
}

/**
 * Binance: 429 with `Retry-After` (seconds) and code -1003 (-1015 for the order count); a client
 * that sends again before that Retry-After is over gets an automatic IP ban: 418 with `Retry-After`,
 * 2 minutes first, doubling up to 3 days.
 */
export const binanceStyle: VenueStyle = {
  name: 'binance',
  apiKeyHeader: 'x-mbx-apikey',
  success,
  refuse(ctx: RefusalContext): Refusal {
    const { address, nowMs } = ctx;
    if (address.retryUntilMs > nowMs) {
      const banMs = address.nextBanMs > 0 ? address.nextBanMs : FIRST_BAN_MS;
      address.nextBanMs = Math.min(MAX_BAN_MS, banMs * 2);
      const until = nowMs + banMs;
      return {
        banUntilMs: until,
        response: {
          status: 418,
          headers: { 'retry-after': retryAfterSeconds(until, nowMs) },
          body: { code: -1003, msg: `Way too much request weight used; IP banned until ${Math.floor(until)}. Please use WebSocket Streams for live updates to avoid bans.` },
        },
      };
    }
    address.retryUntilMs = ctx.resetAtMs;
    const orders = ctx.bucket.id.startsWith('orders');
    return {
      response: {
        status: 429,
        headers: { 'retry-after': retryAfterSeconds(ctx.resetAtMs, nowMs) },
        body: orders
          ? { code: -1015, msg: `Too many new orders; current limit is ${ctx.limit} orders per ${describeWindow(ctx.bucket)}.` }
          : { code: -1003, msg: `Too much request weight used; current limit is ${ctx.limit} request weight per ${describeWindow(ctx.bucket)}. Please use WebSocket Streams for live updates to avoid polling the API.` },
      },
    };
  },
  banned(address: AddressState, nowMs: number): EmulatedResponse {
    return {
      status: 418,
      headers: { 'retry-after': retryAfterSeconds(address.bannedUntilMs, nowMs) },
      body: { code: -1003, msg: `Way too much request weight used; IP banned until ${Math.floor(address.bannedUntilMs)}.` },
    };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return code === 'unknown_endpoint'
      ? { status: 404, body: { code: -1, msg: message } }
      : { status: 400, body: { code: code === 'credential_required' ? -2014 : -1102, msg: message } };
  },
};

function describeWindow(bucket: RefusalContext['bucket']): string {
  if (bucket.algorithm === 'token-bucket') return 'SECOND';
  const w = bucket.windowMs;
  if (w % 86_400_000 === 0) return `${w / 86_400_000 === 1 ? '' : `${w / 86_400_000} `}DAY`;
  if (w % 60_000 === 0) return `${w / 60_000 === 1 ? '' : `${w / 60_000} `}MINUTE`;
  return `${w / 1000} SECOND`;
}
