import {
  retryAfterSeconds,
  type AddressState,
  type EmulatedResponse,
  type Refusal,
  type RefusalContext,
  type SuccessContext,
  type VenueStyle,
} from '../venue-style.js';

/** Any other venue: HTTP 429 with `Retry-After` (seconds) and a small JSON error. */
export const genericStyle: VenueStyle = {
  name: 'generic',
  apiKeyHeader: 'x-api-key',
  success({ endpoint, nowMs }: SuccessContext): EmulatedResponse {
    return { status: 200, body: { ok: true, endpoint: endpoint?.id ?? null, time: Math.floor(nowMs) } };
  },
  refuse(ctx: RefusalContext): Refusal {
    return {
      response: {
        status: 429,
        headers: { 'retry-after': retryAfterSeconds(ctx.resetAtMs, ctx.nowMs) },
        body: { error: 'rate limit exceeded', bucket: ctx.bucket.id },
      },
    };
  },
  banned(address: AddressState, nowMs: number): EmulatedResponse {
    return { status: 429, headers: { 'retry-after': retryAfterSeconds(address.bannedUntilMs, nowMs) }, body: { error: 'banned' } };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return { status: code === 'unknown_endpoint' ? 404 : 400, body: { error: code, message } };
  },
};
