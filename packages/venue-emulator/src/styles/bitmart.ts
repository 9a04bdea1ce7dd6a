import type { AddressState, EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/** How long the emulator rejects an address that kept calling past a 429 (BitMart states no duration). */
const BAN_MS = 600_000;

const trace = (nowMs: number): string => `emulated-${Math.floor(nowMs)}`;

/** The window of the endpoint's bucket, in whole seconds: X-BM-RateLimit-Reset ("Current time window, in seconds"). */
function windowSeconds({ endpoint, limits }: Pick<SuccessContext, 'endpoint' | 'limits'>): string | undefined {
  const id = endpoint?.costs[0]?.bucket;
  const b = limits.find((x) => x.id === id);
  return b === undefined || b.algorithm === 'token-bucket' ? undefined : String(Math.ceil(b.windowMs / 1000));
}

/**
 * BitMart (spot and futures): `{ code: 1000, message: "OK", trace, data }`; every answer carries
 * X-BM-RateLimit-Remaining (the amount used, from the spec's feedback rule), X-BM-RateLimit-Limit
 * and X-BM-RateLimit-Reset (the window, in seconds). A rate limit is HTTP 429 with code 30013; a
 * client that calls again before that window is over ("please do not continue to call, otherwise
 * it will be banned") is rejected: HTTP 418 with code 30017, for 10 minutes (no duration is documented).
 */
export const bitmartStyle: VenueStyle = {
  name: 'bitmart',
  apiKeyHeader: 'x-bm-key',
  success(context: SuccessContext): EmulatedResponse {
    const { endpoint, nowMs } = context;
    const reset = windowSeconds(context);
    const data = endpoint?.method === 'POST' ? { order_id: String(Math.floor(nowMs)) } : { symbol: 'BTC_USDT', last: '64000.1', ts: String(Math.floor(nowMs)) };
    return {
      status: 200,
      ...(reset === undefined ? {} : { headers: { 'x-bm-ratelimit-reset': reset } }),
      body: { code: 1000, message: 'OK', trace: trace(nowMs), data },
    };
  },
  refuse(ctx: RefusalContext): Refusal {
    const { address, nowMs } = ctx;
    if (address.retryUntilMs > nowMs) {
      return { banUntilMs: nowMs + BAN_MS, response: rejected(nowMs) };
    }
    address.retryUntilMs = ctx.resetAtMs;
    const reset = ctx.bucket.algorithm === 'token-bucket' ? '1' : String(Math.ceil(ctx.bucket.windowMs / 1000));
    return {
      response: { status: 429, headers: { 'x-bm-ratelimit-reset': reset }, body: { code: 30013, message: 'Request too many requests', trace: trace(nowMs) } },
    };
  },
  banned(_address: AddressState, nowMs: number): EmulatedResponse {
    return rejected(nowMs);
  },
  badRequest(code: string, message: string): EmulatedResponse {
    if (code === 'unknown_endpoint') return { status: 404, body: { code: 30000, message: 'Not found', trace: message } };
    if (code === 'credential_required') return { status: 401, body: { code: 30001, message: 'Header X-BM-KEY is empty', trace: message } };
    return { status: 400, body: { code: 50000, message: 'Bad Request', trace: message } };
  },
};

function rejected(nowMs: number): EmulatedResponse {
  return {
    status: 418,
    body: {
      code: 30017,
      message: 'Your account request is temporarily rejected due to violation of current limiting rules, please contact customer service',
      trace: trace(nowMs),
    },
  };
}
