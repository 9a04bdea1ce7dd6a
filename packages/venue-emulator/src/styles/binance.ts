import type { BucketSpec } from '@core/exchange-specs';
import {
  retryAfterSeconds,
  type AddressState,
  type EmulatedResponse,
  type Refusal,
  type RefusalContext,
  type SuccessContext,
  type VenueStyle,
} from '../venue-style.js';
import { binanceBody, binanceSymbols } from './binance-bodies.js';
import { param } from './params.js';

const FIRST_BAN_MS = 120_000;
const MAX_BAN_MS = 3 * 86_400_000;

/** Binance's name for the limiter a bucket of the spec models, by the bucket's id. */
function rateLimitType(bucket: BucketSpec): 'REQUEST_WEIGHT' | 'RAW_REQUESTS' | 'ORDERS' | undefined {
  if (bucket.id === 'request_weight') return 'REQUEST_WEIGHT';
  if (bucket.id === 'raw_requests') return 'RAW_REQUESTS';
  if (bucket.id.startsWith('orders')) return 'ORDERS';
  return undefined;
}

/** A window as Binance states it: the largest unit that divides it. */
function interval(windowMs: number): { interval: string; intervalNum: number } {
  for (const [name, ms] of [
    ['DAY', 86_400_000],
    ['HOUR', 3_600_000],
    ['MINUTE', 60_000],
  ] as const) {
    if (windowMs % ms === 0) return { interval: name, intervalNum: windowMs / ms };
  }
  return { interval: 'SECOND', intervalNum: Math.ceil(windowMs / 1000) };
}

/** The `rateLimits` entries of the buckets Binance states, from the emulator's own numbers. */
function rateLimits(context: SuccessContext, only?: 'ORDERS'): Record<string, string | number>[] {
  const out: Record<string, string | number>[] = [];
  for (const b of context.limits) {
    const type = rateLimitType(b);
    if (type === undefined || b.algorithm === 'token-bucket' || (only !== undefined && type !== only)) continue;
    const entry = { rateLimitType: type, ...interval(b.windowMs), limit: b.limit };
    out.push(only === undefined ? entry : { ...entry, count: context.used(b.id) });
  }
  return out;
}

function success(context: SuccessContext): EmulatedResponse {
  const { endpoint, request, nowMs } = context;
  const symbol = request.query?.['symbol'] ?? 'BTCUSDT';
  const body = binanceBody(context);
  if (body !== undefined) return body;
  switch (endpoint?.id) {
    case 'exchangeInfo':
      return {
        status: 200,
        body: { timezone: 'UTC', serverTime: Math.floor(nowMs), rateLimits: rateLimits(context), exchangeFilters: [], symbols: binanceSymbols(request.path) },
      };
    case 'rateLimitOrder':
      return { status: 200, body: rateLimits(context, 'ORDERS') };
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
 * Binance: `GET exchangeInfo` states the spec's REQUEST_WEIGHT, RAW_REQUESTS and ORDERS limits in
 * `rateLimits`, and `GET rateLimit/order` the account's ORDERS limits with their current `count`,
 * all from the emulator's own spec (the requester's tier applied).
 * 429 with `Retry-After` (seconds) and code -1003 (-1015 for the order count); a client
 * that sends again before that Retry-After is over gets an automatic IP ban: 418 with `Retry-After`,
 * 2 minutes first, doubling up to 3 days.
 */
export const binanceStyle: VenueStyle = {
  name: 'binance',
  apiKeyHeader: 'x-mbx-apikey',
  success,
  reject: checkTimestamp,
  fail(context: SuccessContext): EmulatedResponse {
    // errors.md: -2010 NEW_ORDER_REJECTED, -2011 CANCEL_REJECTED, with the matching engine's message
    return context.request.method.toUpperCase() === 'DELETE'
      ? { status: 400, body: { code: -2011, msg: 'Unknown order sent.' } }
      : { status: 400, body: { code: -2010, msg: 'Account has insufficient balance for requested action.' } };
  },
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
          body: {
            code: -1003,
            msg: `Way too much request weight used; IP banned until ${Math.floor(until)}. Please use WebSocket Streams for live updates to avoid bans.`,
          },
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
          : {
              code: -1003,
              msg: `Too much request weight used; current limit is ${ctx.limit} request weight per ${describeWindow(ctx.bucket)}. Please use WebSocket Streams for live updates to avoid polling the API.`,
            },
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

/** Binance's default `recvWindow`, and the largest it accepts (ms). */
const DEFAULT_RECV_WINDOW_MS = 5_000;
const MAX_RECV_WINDOW_MS = 60_000;

/**
 * A signed request's `timestamp` checked as Binance checks it (endpoint security, "Timing security"): processed
 * when `timestamp < serverTime + 1000` and `serverTime - timestamp <= recvWindow` (default 5,000 ms, at most
 * 60,000), else refused with HTTP 400 and -1021; a request without `timestamp` is not checked.
 */
export function checkTimestamp(context: SuccessContext): EmulatedResponse | undefined {
  const raw = param(context.request, 'timestamp');
  if (raw === undefined) return undefined;
  const timestamp = Number(raw);
  const recv = param(context.request, 'recvWindow');
  const recvWindow = recv === undefined ? DEFAULT_RECV_WINDOW_MS : Number(recv);
  if (!Number.isFinite(recvWindow) || recvWindow <= 0 || recvWindow > MAX_RECV_WINDOW_MS) {
    return { status: 400, body: { code: -1131, msg: 'recvWindow must be less than 60000' } };
  }
  const now = Math.floor(context.nowMs);
  if (Number.isFinite(timestamp) && timestamp < now + 1000 && now - timestamp <= recvWindow) return undefined;
  return {
    status: 400,
    body: {
      code: -1021,
      msg:
        timestamp >= now + 1000
          ? "Timestamp for this request was 1000ms ahead of the server's time."
          : 'Timestamp for this request is outside of the recvWindow.',
    },
  };
}
