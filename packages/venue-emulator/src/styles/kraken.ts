import { krakenBody } from './kraken-bodies.js';
import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/**
 * Kraken: `{ error: [], result }`, errors always in HTTP 200 bodies: `EAPI:Rate limit exceeded` for
 * the REST counter, `EOrder:Rate limit exceeded` for the trading engine's per-pair counter.
 */
export const krakenStyle: VenueStyle = {
  name: 'kraken',
  apiKeyHeader: 'api-key',
  success(context: SuccessContext): EmulatedResponse {
    const { endpoint, nowMs } = context;
    const body = krakenBody(context);
    if (body !== undefined) return body;
    const result =
      endpoint?.method === 'POST' && /Order/i.test(endpoint.path)
        ? { descr: { order: 'buy 0.001 XBTUSD @ limit 64000.0' }, txid: [`O${Math.floor(nowMs)}`] }
        : { unixtime: Math.floor(nowMs / 1000) };
    return { status: 200, body: { error: [], result } };
  },
  refuse(ctx: RefusalContext): Refusal {
    const trading = /order|trad/i.test(ctx.bucket.id) && ctx.bucket.scope !== 'ip' && ctx.bucket.partition !== undefined;
    return { response: { status: 200, body: { error: [trading ? 'EOrder:Rate limit exceeded' : 'EAPI:Rate limit exceeded'] } } };
  },
  banned(): EmulatedResponse {
    return { status: 200, body: { error: ['EGeneral:Temporary lockout'] } };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return {
      status: code === 'unknown_endpoint' ? 404 : 200,
      body: { error: [code === 'unknown_endpoint' ? 'EGeneral:Unknown method' : `EGeneral:Invalid arguments:${message}`] },
    };
  },
};
