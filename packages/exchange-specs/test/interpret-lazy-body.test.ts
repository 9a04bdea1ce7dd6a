import { describe, expect, it } from 'vitest';
import { getVenueSpec, interpretResponse, type VenueResponse } from '../src/index.js';

const spot = getVenueSpec('binance-spot');
const usdm = getVenueSpec('binance-usdm');
const order = { method: 'POST', path: '/api/v3/order', query: { symbol: 'BTCUSDT' } };

/** A response whose body counts how often it is read; with `text`, it says what its text holds (`bodyHolds`). */
function counted(status: number, body: unknown, headers: Record<string, string> = {}, text?: string): { response: VenueResponse; reads: () => number } {
  let reads = 0;
  const response: VenueResponse = {
    status,
    headers,
    get body() {
      reads += 1;
      return body;
    },
    ...(text === undefined ? {} : { bodyHolds: (part: string) => text.includes(part) }),
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

  it('Binance spot, with the body\'s text at hand: an answer whose text holds no "code" is not read; one that does is', () => {
    const book = { lastUpdateId: 1, bids: [['1.0', '2']], asks: [] };
    const plain = counted(200, book, { 'x-mbx-used-weight-1m': '3' }, JSON.stringify(book));
    expect(interpretResponse(spot, order, plain.response, { credential: 'k' }).verdict).toBe('ok');
    expect(plain.reads()).toBe(0);
    // a rejection answered with status 200 still tells: its text holds the field
    const rejected = { code: -2010, msg: 'Account has insufficient balance for requested action.' };
    const told = counted(200, rejected, { 'x-mbx-used-weight-1m': '3' }, JSON.stringify(rejected));
    const fb = interpretResponse(spot, order, told.response, { credential: 'k' });
    expect(fb.rule).toBe('order-rejected');
    expect(told.reads()).toBe(1);
    // a field name spelt with an escape is found by parsing: a text that holds an escape is read
    const escaped = counted(200, rejected, { 'x-mbx-used-weight-1m': '3' }, '{"c\\u006fde":-2010,"msg":"x"}');
    expect(interpretResponse(spot, order, escaped.response, { credential: 'k' }).rule).toBe('order-rejected');
    expect(escaped.reads()).toBe(1);
  });

  it('a refusal whose rules tell the interval by its message: the body is read, once', () => {
    const { response, reads } = counted(429, { code: -1015, msg: 'Too many new orders; current limit is 100 orders per 10 SECOND.' });
    const fb = interpretResponse(spot, order, response, { credential: 'k' });
    expect(fb.verdict).toBe('rate_limited');
    expect(fb.rule).toBe('too-many-orders');
    expect(reads()).toBe(1);
  });
});
