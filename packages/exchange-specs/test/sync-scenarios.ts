import type { Identity, ModelResult, VenueRequest } from '../src/index.js';

/** A venue bucket with usage headers, and the headers the venue sends after a request its model counted. */
export interface UsageScenario {
  readonly venue: string;
  readonly bucket: string;
  readonly request: VenueRequest;
  readonly identity: Identity;
  /** The usage headers of an answer, as the venue computes them at `venueNowMs`. */
  headers(r: ModelResult, venueNowMs: number, limit: number): Record<string, string>;
}

/** Binance spot's minute weight (Date header), KuCoin's 30-s pool (remaining and reset), Bybit's per-second order rate (remaining). */
export function usageScenarios(binanceDepthLimit: string): readonly UsageScenario[] {
  return [
    {
      venue: 'binance-spot',
      bucket: 'request_weight',
      request: { method: 'GET', path: '/api/v3/depth', query: { symbol: 'BTCUSDT', limit: binanceDepthLimit } },
      identity: { credential: null },
      headers: (r, now) => ({ 'x-mbx-used-weight-1m': String(r.used), date: new Date(now).toUTCString() }),
    },
    {
      venue: 'kucoin',
      bucket: 'spot',
      request: { method: 'DELETE', path: '/api/v1/orders' },
      identity: { credential: 'k' },
      headers: (r, now, limit) => ({
        'gw-ratelimit-limit': String(limit),
        'gw-ratelimit-remaining': String(Math.floor(r.remaining)),
        'gw-ratelimit-reset': String(Math.ceil(r.resetAtMs - now)),
      }),
    },
    {
      venue: 'bybit',
      bucket: 'order/create',
      request: { method: 'POST', path: '/v5/order/create', body: { category: 'linear' } },
      identity: { credential: 'k' },
      headers: (r, _now, limit) => ({ 'x-bapi-limit': String(limit), 'x-bapi-limit-status': String(Math.floor(r.remaining)) }),
    },
  ];
}
