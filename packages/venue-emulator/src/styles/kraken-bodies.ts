// Kraken spot's answers to what ccxt's unified methods call, in `{ error: [], result }`: two pairs, fixed
// prices, an order accepted, a cancel counted, one open order.
import type { EmulatedResponse, SuccessContext } from '../venue-style.js';
import { param } from './params.js';

const PAIRS: Readonly<Record<string, { altname: string; base: string; quote: string; wsname: string; price: number }>> = {
  XXBTZUSD: { altname: 'XBTUSD', base: 'XXBT', quote: 'ZUSD', wsname: 'XBT/USD', price: 64_000 },
  XETHZUSD: { altname: 'ETHUSD', base: 'XETH', quote: 'ZUSD', wsname: 'ETH/USD', price: 3_200 },
};

/** The pair a request names (by its id or its altname), else the first. */
function pairOf(name: string | undefined): [string, (typeof PAIRS)[string]] {
  for (const [id, p] of Object.entries(PAIRS)) if (name === id || name === p.altname) return [id, p];
  const [first] = Object.entries(PAIRS);
  if (first === undefined) throw new Error('no pairs');
  return first;
}

/** An answer to one of the endpoints ccxt's unified methods call, or `undefined` for the others. */
export function krakenBody(context: SuccessContext): EmulatedResponse | undefined {
  const ok = (result: unknown): EmulatedResponse => ({ status: 200, body: { error: [], result } });
  const nowS = Math.floor(context.nowMs / 1000);
  const [id, pair] = pairOf(param(context.request, 'pair'));
  const p = pair.price;
  switch (context.endpoint?.id) {
    case 'Assets':
      return ok({
        XXBT: { aclass: 'currency', altname: 'XBT', decimals: 10, display_decimals: 5, status: 'enabled' },
        XETH: { aclass: 'currency', altname: 'ETH', decimals: 10, display_decimals: 5, status: 'enabled' },
        ZUSD: { aclass: 'currency', altname: 'USD', decimals: 4, display_decimals: 2, status: 'enabled' },
      });
    case 'AssetPairs':
      return ok(
        Object.fromEntries(
          Object.entries(PAIRS).map(([k, v]) => [
            k,
            {
              altname: v.altname,
              wsname: v.wsname,
              aclass_base: 'currency',
              base: v.base,
              aclass_quote: 'currency',
              quote: v.quote,
              lot: 'unit',
              cost_decimals: 5,
              pair_decimals: 1,
              lot_decimals: 8,
              lot_multiplier: 1,
              leverage_buy: [],
              leverage_sell: [],
              fees: [[0, 0.26]],
              fees_maker: [[0, 0.16]],
              fee_volume_currency: 'ZUSD',
              margin_call: 80,
              margin_stop: 40,
              ordermin: '0.0001',
              costmin: '0.5',
              tick_size: '0.1',
              status: 'online',
            },
          ]),
        ),
      );
    case 'Depth':
      return ok({
        [id]: {
          asks: [
            [(p + 0.1).toFixed(1), '0.400', nowS],
            [(p + 0.2).toFixed(1), '1.100', nowS],
          ],
          bids: [
            [(p - 0.1).toFixed(1), '0.500', nowS],
            [(p - 0.2).toFixed(1), '1.200', nowS],
          ],
        },
      });
    case 'Ticker':
      return ok({
        [id]: {
          a: [(p + 0.1).toFixed(1), '1', '1.000'],
          b: [(p - 0.1).toFixed(1), '1', '1.000'],
          c: [p.toFixed(1), '0.01000000'],
          v: ['100.0', '1000.0'],
          p: [p.toFixed(1), p.toFixed(1)],
          t: [10, 100],
          l: [(p - 50).toFixed(1), (p - 50).toFixed(1)],
          h: [(p + 50).toFixed(1), (p + 50).toFixed(1)],
          o: (p - 10).toFixed(1),
        },
      });
    case 'Balance':
      return ok({ ZUSD: '100000.0000', XXBT: '1.0000000000' });
    case 'BalanceEx':
      return ok({ ZUSD: { balance: '100000.0000', hold_trade: '0.0000' }, XXBT: { balance: '1.0000000000', hold_trade: '0.0000000000' } });
    case 'AddOrder':
      return ok({
        descr: {
          order: `${param(context.request, 'type') ?? 'buy'} ${param(context.request, 'volume') ?? '0.01'} ${pair.altname} @ limit ${param(context.request, 'price') ?? p}`,
        },
        txid: [`O${nowS.toString(36).toUpperCase()}-EMULA-TED`],
      });
    case 'CancelOrder':
      return ok({ count: 1 });
    case 'OpenOrders':
      return ok({
        open: {
          'OQCLML-BW3P3-BUCMWZ': {
            refid: null,
            userref: 0,
            status: 'open',
            opentm: nowS,
            starttm: 0,
            expiretm: 0,
            descr: {
              pair: pair.altname,
              type: 'buy',
              ordertype: 'limit',
              price: p.toFixed(1),
              price2: '0',
              leverage: 'none',
              order: `buy 0.01 ${pair.altname} @ limit ${p}`,
              close: '',
            },
            vol: '0.01000000',
            vol_exec: '0.00000000',
            cost: '0.00000',
            fee: '0.00000',
            price: '0.0',
            stopprice: '0.0',
            limitprice: '0.0',
            misc: '',
            oflags: 'fciq',
          },
        },
      });
    default:
      return undefined;
  }
}
