// KuCoin spot's answers to what ccxt's unified methods call, in `{ code: "200000", data }`: a few symbols,
// fixed prices, an order accepted, a cancel accepted, one active order.
import type { EmulatedResponse, SuccessContext } from '../venue-style.js';
import { param } from './params.js';

const PRICE: Readonly<Record<string, number>> = { 'BTC-USDT': 64_000, 'ETH-USDT': 3_200, 'SOL-USDT': 150 };

function stats(symbol: string, now: number): Record<string, unknown> {
  const p = PRICE[symbol] ?? 100;
  return {
    time: now,
    symbol,
    symbolName: symbol,
    buy: (p - 0.1).toFixed(1),
    sell: (p + 0.1).toFixed(1),
    bestBidSize: '0.5',
    bestAskSize: '0.4',
    changeRate: '0.0002',
    changePrice: '10',
    high: (p + 50).toFixed(1),
    low: (p - 50).toFixed(1),
    vol: '1000',
    volValue: String(p * 1000),
    last: p.toFixed(1),
    averagePrice: p.toFixed(1),
    takerFeeRate: '0.001',
    makerFeeRate: '0.001',
    takerCoefficient: '1',
    makerCoefficient: '1',
  };
}

function order(symbol: string, id: string, now: number): Record<string, unknown> {
  const p = PRICE[symbol] ?? 100;
  return {
    id,
    symbol,
    opType: 'DEAL',
    type: 'limit',
    side: 'buy',
    price: p.toFixed(1),
    size: '0.01',
    funds: '0',
    dealFunds: '0',
    dealSize: '0',
    fee: '0',
    feeCurrency: 'USDT',
    timeInForce: 'GTC',
    postOnly: false,
    hidden: false,
    iceberg: false,
    cancelExist: false,
    active: true,
    inOrderBook: true,
    clientOid: '',
    tradeType: 'TRADE',
    createdAt: now,
    lastUpdatedAt: now,
  };
}

/** An answer to one of the endpoints ccxt's unified methods call, or `undefined` for the others. */
export function kucoinBody(context: SuccessContext): EmulatedResponse | undefined {
  const { endpoint, request, nowMs } = context;
  const now = Math.floor(nowMs);
  const ok = (data: unknown): EmulatedResponse => ({ status: 200, body: { code: '200000', data } });
  const symbol = param(request, 'symbol') ?? 'BTC-USDT';
  const p = PRICE[symbol] ?? 100;
  switch (endpoint?.id) {
    case 'symbols':
      return ok(
        Object.keys(PRICE).map((s) => {
          const [base = 'BTC', quote = 'USDT'] = s.split('-');
          return {
            symbol: s,
            name: s,
            baseCurrency: base,
            quoteCurrency: quote,
            feeCurrency: quote,
            market: 'USDS',
            baseMinSize: '0.00001',
            quoteMinSize: '0.1',
            baseMaxSize: '10000000000',
            quoteMaxSize: '99999999',
            baseIncrement: '0.00000001',
            quoteIncrement: '0.000001',
            priceIncrement: '0.1',
            priceLimitRate: '0.1',
            minFunds: '0.1',
            isMarginEnabled: false,
            enableTrading: true,
            feeCategory: 1,
            makerFeeCoefficient: '1.00',
            takerFeeCoefficient: '1.00',
            st: false,
          };
        }),
      );
    case 'all-tickers':
      return ok({ time: now, ticker: Object.keys(PRICE).map((s) => stats(s, now)) });
    case 'stats':
    case 'ticker':
      return ok(stats(symbol, now));
    case 'full-orderbook':
    case 'level2-20':
    case 'level2-100':
      return ok({
        time: now,
        sequence: String(now),
        bids: [
          [(p - 0.1).toFixed(1), '0.5'],
          [(p - 0.2).toFixed(1), '1.2'],
        ],
        asks: [
          [(p + 0.1).toFixed(1), '0.4'],
          [(p + 0.2).toFixed(1), '1.1'],
        ],
      });
    case 'accounts':
      return ok([
        { id: '1', currency: 'USDT', type: 'trade', balance: '100000', available: '100000', holds: '0' },
        { id: '2', currency: 'BTC', type: 'trade', balance: '1', available: '1', holds: '0' },
      ]);
    case 'add-order':
    case 'hf-add-order':
    case 'hf-add-order-sync':
      return ok({ orderId: String(now), clientOid: param(request, 'clientOid') ?? '' });
    case 'hf-cancel-order':
    case 'hf-cancel-order-sync':
      return ok({ orderId: request.path.split('/').pop() ?? String(now) });
    case 'hf-open-orders':
      return ok([order(symbol, '1', now)]);
    case 'list-orders':
      return ok({ currentPage: 1, pageSize: 50, totalNum: 1, totalPage: 1, items: [order(symbol, '1', now)] });
    default:
      return undefined;
  }
}
