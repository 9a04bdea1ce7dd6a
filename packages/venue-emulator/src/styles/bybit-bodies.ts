// Bybit v5's answers to what ccxt's unified methods call, in `{ retCode, retMsg, result, retExtInfo, time }`:
// a few spot and linear instruments, fixed prices, an order accepted, a cancel accepted, one open order.
import type { EmulatedResponse, SuccessContext } from '../venue-style.js';
import { param } from './params.js';

const PRICE: Readonly<Record<string, number>> = { BTC: 64_000, ETH: 3_200, SOL: 150 };

function priceOf(symbol: string): number {
  for (const [base, p] of Object.entries(PRICE)) if (symbol.startsWith(base)) return p;
  return 100;
}

function instrument(category: string, base: string): Record<string, unknown> {
  const symbol = `${base}USDT`;
  if (category === 'spot') {
    return {
      symbol,
      baseCoin: base,
      quoteCoin: 'USDT',
      innovation: '0',
      status: 'Trading',
      marginTrading: 'none',
      lotSizeFilter: {
        basePrecision: '0.000001',
        quotePrecision: '0.00000001',
        minOrderQty: '0.000048',
        maxOrderQty: '71.7',
        minOrderAmt: '1',
        maxOrderAmt: '2000000',
      },
      priceFilter: { tickSize: '0.01' },
    };
  }
  return {
    symbol,
    contractType: 'LinearPerpetual',
    status: 'Trading',
    baseCoin: base,
    quoteCoin: 'USDT',
    settleCoin: 'USDT',
    launchTime: '1585526400000',
    deliveryTime: '0',
    priceScale: '2',
    leverageFilter: { minLeverage: '1', maxLeverage: '100.00', leverageStep: '0.01' },
    priceFilter: { minPrice: '0.10', maxPrice: '1999999.80', tickSize: '0.10' },
    lotSizeFilter: { maxOrderQty: '1190.000', minOrderQty: '0.001', qtyStep: '0.001', minNotionalValue: '5' },
    unifiedMarginTrade: true,
    fundingInterval: 480,
  };
}

/** An answer to one of the endpoints ccxt's unified methods call, or `undefined` for the others. */
export function bybitBody(context: SuccessContext): EmulatedResponse | undefined {
  const { endpoint, request, nowMs } = context;
  const now = Math.floor(nowMs);
  const ok = (result: unknown): EmulatedResponse => ({ status: 200, body: { retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: now } });
  const category = param(request, 'category') ?? 'spot';
  const symbol = param(request, 'symbol') ?? 'BTCUSDT';
  const p = priceOf(symbol);
  switch (endpoint?.id) {
    case 'market-instruments':
      return ok({
        category,
        list: category === 'spot' || category === 'linear' ? Object.keys(PRICE).map((b) => instrument(category, b)) : [],
        nextPageCursor: '',
      });
    case 'market-orderbook':
      return ok({
        s: symbol,
        b: [
          [(p - 0.1).toFixed(2), '0.5'],
          [(p - 0.2).toFixed(2), '1.2'],
        ],
        a: [
          [(p + 0.1).toFixed(2), '0.4'],
          [(p + 0.2).toFixed(2), '1.1'],
        ],
        ts: now,
        u: now,
        seq: now,
        cts: now,
      });
    case 'market-tickers':
      return ok({
        category,
        list: [
          {
            symbol,
            bid1Price: (p - 0.1).toFixed(2),
            bid1Size: '0.5',
            ask1Price: (p + 0.1).toFixed(2),
            ask1Size: '0.4',
            lastPrice: p.toFixed(2),
            prevPrice24h: (p - 10).toFixed(2),
            price24hPcnt: '0.0002',
            highPrice24h: (p + 50).toFixed(2),
            lowPrice24h: (p - 50).toFixed(2),
            turnover24h: String(p * 1000),
            volume24h: '1000',
          },
        ],
      });
    case 'wallet-balance': {
      const coin = (name: string, amount: string): Record<string, string> => ({
        coin: name,
        equity: amount,
        walletBalance: amount,
        locked: '0',
        totalOrderIM: '0',
        totalPositionIM: '0',
        availableToWithdraw: amount,
        usdValue: amount,
      });
      return ok({ list: [{ accountType: 'UNIFIED', totalEquity: '164000', totalWalletBalance: '164000', coin: [coin('USDT', '100000'), coin('BTC', '1')] }] });
    }
    case 'order-create':
      return ok({ orderId: String(now), orderLinkId: param(request, 'orderLinkId') ?? '' });
    case 'order-cancel':
      return ok({ orderId: param(request, 'orderId') ?? String(now), orderLinkId: param(request, 'orderLinkId') ?? '' });
    case 'order-realtime':
      return ok({
        category,
        nextPageCursor: '',
        list: [
          {
            orderId: '1',
            orderLinkId: '',
            symbol,
            price: p.toFixed(2),
            qty: '0.01',
            side: 'Buy',
            orderStatus: 'New',
            orderType: 'Limit',
            timeInForce: 'GTC',
            cumExecQty: '0',
            cumExecValue: '0',
            cumExecFee: '0',
            avgPrice: '',
            leavesQty: '0.01',
            reduceOnly: false,
            createdTime: String(now),
            updatedTime: String(now),
          },
        ],
      });
    default:
      return undefined;
  }
}
