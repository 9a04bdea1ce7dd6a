// OKX's answers to what ccxt's unified methods call, in OKX's `{ code, msg, data }` envelope and shapes: a few
// spot instruments, fixed prices, an order answered live, a cancel accepted, one pending order.
import type { EmulatedResponse, SuccessContext } from '../venue-style.js';
import { param } from './params.js';

const SPOT: Readonly<Record<string, number>> = { 'BTC-USDT': 64_000, 'ETH-USDT': 3_200, 'SOL-USDT': 150 };

const ok = (data: unknown[]): EmulatedResponse => ({ status: 200, body: { code: '0', msg: '', data } });

function instrument(instId: string): Record<string, string> {
  const [base = 'BTC', quote = 'USDT'] = instId.split('-');
  return {
    instType: 'SPOT',
    instId,
    uly: '',
    instFamily: '',
    baseCcy: base,
    quoteCcy: quote,
    settleCcy: '',
    ctValCcy: '',
    optType: '',
    stk: '',
    listTime: '1606468572000',
    expTime: '',
    lever: '10',
    tickSz: '0.1',
    lotSz: '0.00000001',
    minSz: '0.00001',
    ctVal: '',
    ctMult: '',
    ctType: '',
    alias: '',
    state: 'live',
    ruleType: 'normal',
    maxLmtSz: '10000',
    maxMktSz: '1000',
  };
}

/** An answer to one of the endpoints ccxt's unified methods call, or `undefined` for the others. */
export function okxBody(context: SuccessContext): EmulatedResponse | undefined {
  const { endpoint, request, nowMs } = context;
  const ts = String(Math.floor(nowMs));
  const instId = param(request, 'instId') ?? 'BTC-USDT';
  const p = SPOT[instId] ?? 100;
  switch (endpoint?.id) {
    case 'instruments':
      return ok(param(request, 'instType') === 'SPOT' ? Object.keys(SPOT).map(instrument) : []);
    case 'books':
      return ok([
        {
          asks: [
            [(p + 0.1).toFixed(1), '0.4', '0', '2'],
            [(p + 0.2).toFixed(1), '1.1', '0', '3'],
          ],
          bids: [
            [(p - 0.1).toFixed(1), '0.5', '0', '2'],
            [(p - 0.2).toFixed(1), '1.2', '0', '3'],
          ],
          ts,
        },
      ]);
    case 'ticker':
      return ok([
        {
          instType: 'SPOT',
          instId,
          last: p.toFixed(1),
          lastSz: '0.01',
          askPx: (p + 0.1).toFixed(1),
          askSz: '0.4',
          bidPx: (p - 0.1).toFixed(1),
          bidSz: '0.5',
          open24h: (p - 10).toFixed(1),
          high24h: (p + 50).toFixed(1),
          low24h: (p - 50).toFixed(1),
          volCcy24h: String(p * 1000),
          vol24h: '1000',
          sodUtc0: p.toFixed(1),
          sodUtc8: p.toFixed(1),
          ts,
        },
      ]);
    case 'balance': {
      const detail = (ccy: string, amount: string): Record<string, string> => ({
        ccy,
        availBal: amount,
        availEq: amount,
        cashBal: amount,
        eq: amount,
        frozenBal: '0',
        ordFrozen: '0',
        uTime: ts,
      });
      return ok([{ totalEq: '164000', uTime: ts, details: [detail('USDT', '100000'), detail('BTC', '1')] }]);
    }
    case 'place-order':
    case 'cancel-order':
      return ok([{ ordId: param(request, 'ordId') ?? ts, clOrdId: param(request, 'clOrdId') ?? '', tag: '', ts, sCode: '0', sMsg: '' }]);
    case 'orders-pending':
      return ok([
        {
          instType: 'SPOT',
          instId,
          ordId: '1',
          clOrdId: '',
          px: p.toFixed(1),
          sz: '0.01',
          ordType: 'limit',
          side: 'buy',
          state: 'live',
          accFillSz: '0',
          fillSz: '0',
          avgPx: '',
          fee: '0',
          feeCcy: 'USDT',
          tdMode: 'cash',
          cTime: ts,
          uTime: ts,
        },
      ]);
    default:
      return undefined;
  }
}
