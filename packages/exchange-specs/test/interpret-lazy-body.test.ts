import { describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueResponse } from '../src/index.js';

const spot = getVenueSpec('binance-spot');
const usdm = getVenueSpec('binance-usdm');
const order = { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } };

/** A response whose body counts how often it is read. */
function counted(status: number, body: unknown, headers: Record<string, string> = {}): { response: VenueResponse; reads: () => number } {
  let reads = 0;
  const response: VenueResponse = {
    status,
    headers,
    get body() {
      reads += 1;
      return body;
    },
  };
  return { response, reads: () => reads };
}

describe("interpretResponse reads the body only when the spec's rules read it", () => {
  it('an answer no error rule matches by status and no response cost reads: the body is never read (USD-M futures)', () => {
    const { response, reads } = counted(200, { orderId: 1 }, { 'x-mbx-used-weight-1m': '3' });
    const fb = interpretResponse(usdm, { method: 'GET', path: '/fapi/v1/depth', query: { symbol: 'BTCUSDT' } }, response, { credential: 'k' });
    expect(fb.verdict).toBe('ok');
    expect(fb.syncs.length).toBeGreaterThan(0);
    expect(reads()).toBe(0);
  });

  it('Binance spot tells a rejected order by its code whatever the status: every answer is read, once', () => {
    const { response, reads } = counted(200, { orderId: 1 }, { 'x-mbx-used-weight-1m': '3' });
    expect(interpretResponse(spot, order, response, { credential: 'k' }).verdict).toBe('ok');
    expect(reads()).toBe(1);
  });

  it('a refusal whose rules tell the interval by its message: the body is read, once', () => {
    const { response, reads } = counted(429, { code: -1015, msg: 'Too many new orders; current limit is 100 orders per 10 SECOND.' });
    const fb = interpretResponse(spot, order, response, { credential: 'k' });
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.rule).toBe('too-many-orders');
    expect(reads()).toBe(1);
  });
});
