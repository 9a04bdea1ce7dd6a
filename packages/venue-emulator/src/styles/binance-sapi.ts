import {
  retryAfterSeconds,
  type AddressState,
  type EmulatedResponse,
  type Refusal,
  type RefusalContext,
  type SuccessContext,
  type VenueStyle,
} from '../venue-style.js';
import { binanceStyle, checkTimestamp } from './binance.js';

/** A coin of `capital/config/getall`, as ccxt's fetchCurrencies reads it. */
function coin(name: string): Record<string, unknown> {
  return {
    coin: name,
    name,
    depositAllEnable: true,
    withdrawAllEnable: true,
    trading: true,
    free: '0',
    locked: '0',
    networkList: [
      {
        network: name === 'USDT' ? 'ETH' : name,
        coin: name,
        name,
        isDefault: true,
        depositEnable: true,
        withdrawEnable: true,
        withdrawFee: '0.0005',
        withdrawMin: '0.001',
        withdrawMax: '9000',
        withdrawIntegerMultiple: '0.00000001',
      },
    ],
  };
}

function success(context: SuccessContext): EmulatedResponse {
  const { endpoint, nowMs } = context;
  switch (endpoint?.path) {
    case '/sapi/v1/system/status':
      return { status: 200, body: { status: 0, msg: 'normal' } };
    case '/sapi/v1/account/status':
      return { status: 200, body: { data: 'Normal' } };
    case '/sapi/v1/capital/config/getall':
      return { status: 200, body: ['BTC', 'ETH', 'SOL', 'USDT'].map(coin) };
    case '/sapi/v1/margin/allPairs':
    case '/sapi/v1/margin/isolated/allPairs':
      return { status: 200, body: [] };
    case '/sapi/v1/capital/withdraw/apply':
      return { status: 200, body: { id: `emulated-${Math.floor(nowMs)}` } };
    default:
      return { status: 200, body: { serverTime: Math.floor(nowMs) } };
  }
}

/**
 * Binance `/sapi`: every endpoint has its own limit (12,000 IP weight or 180,000 UID weight a
 * minute), reported in `X-SAPI-USED-IP-WEIGHT-1M` / `X-SAPI-USED-UID-WEIGHT-1M` (the endpoint's
 * own usage here). Over a limit it answers 429 with `Retry-After` (seconds to the window's end) and
 * code -1003, and never bans: Binance says the 418 escalation does not apply to /sapi, so a client
 * that keeps sending only gets more 429s.
 */
export const binanceSapiStyle: VenueStyle = {
  name: 'binance-sapi',
  apiKeyHeader: 'x-mbx-apikey',
  success,
  reject: checkTimestamp,
  refuse(ctx: RefusalContext): Refusal {
    const { bucket, limit, resetAtMs, nowMs } = ctx;
    const kind = bucket.scope === 'uid' ? 'UID' : 'IP';
    return {
      response: {
        status: 429,
        headers: { 'retry-after': retryAfterSeconds(resetAtMs, nowMs) },
        body: {
          code: -1003,
          msg: `Too much request weight used; current limit is ${limit} request weight per 1 MINUTE (${kind}). Please use WebSocket Streams for live updates to avoid polling the API.`,
        },
      },
    };
  },
  banned(address: AddressState, nowMs: number): EmulatedResponse {
    // Never reached: this style bans no address.
    return { status: 429, headers: { 'retry-after': retryAfterSeconds(address.bannedUntilMs, nowMs) }, body: { code: -1003, msg: 'Too many requests.' } };
  },
  badRequest: binanceStyle.badRequest,
};
