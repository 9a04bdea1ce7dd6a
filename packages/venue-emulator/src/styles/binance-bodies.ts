// Binance's answers to what ccxt's unified methods call (loadMarkets, fetchOrderBook, fetchTicker,
// fetchBalance, createOrder, cancelOrder, fetchOpenOrders), in the shapes of Binance's documentation, for
// spot (/api/v3), USDⓈ-M (/fapi) and COIN-M (/dapi). A few instruments, fixed prices, no order book state:
// an order is answered NEW, a cancel CANCELED, the open orders one order.
import type { EmulatedResponse, SuccessContext } from '../venue-style.js';
import { param } from './params.js';

type Family = 'spot' | 'usdm' | 'coinm';

function familyOf(path: string): Family {
  if (path.startsWith('/fapi/')) return 'usdm';
  if (path.startsWith('/dapi/')) return 'coinm';
  return 'spot';
}

const PRICE: Readonly<Record<string, number>> = { BTC: 64_000, ETH: 3_200, SOL: 150 };

/** The instruments each family lists: base, quote, and the exchange symbol. */
function instruments(family: Family): { base: string; quote: string; symbol: string }[] {
  const bases = ['BTC', 'ETH', 'SOL'];
  if (family === 'coinm') return bases.map((base) => ({ base, quote: 'USD', symbol: `${base}USD_PERP` }));
  return bases.map((base) => ({ base, quote: 'USDT', symbol: `${base}USDT` }));
}

function priceOf(symbol: string): number {
  for (const [base, p] of Object.entries(PRICE)) if (symbol.startsWith(base)) return p;
  return 100;
}

function filters(family: Family): Record<string, string>[] {
  return [
    { filterType: 'PRICE_FILTER', minPrice: '0.01', maxPrice: '1000000.00', tickSize: '0.01' },
    { filterType: 'LOT_SIZE', minQty: family === 'coinm' ? '1' : '0.00001', maxQty: '9000', stepSize: family === 'coinm' ? '1' : '0.00001' },
    family === 'spot' ? { filterType: 'NOTIONAL', minNotional: '5.00', maxNotional: '9000000.00' } : { filterType: 'MIN_NOTIONAL', notional: '5' },
  ];
}

function symbolInfo(family: Family, i: { base: string; quote: string; symbol: string }): Record<string, unknown> {
  if (family === 'spot') {
    return {
      symbol: i.symbol,
      status: 'TRADING',
      baseAsset: i.base,
      baseAssetPrecision: 8,
      quoteAsset: i.quote,
      quotePrecision: 8,
      quoteAssetPrecision: 8,
      orderTypes: ['LIMIT', 'LIMIT_MAKER', 'MARKET'],
      icebergAllowed: true,
      ocoAllowed: true,
      isSpotTradingAllowed: true,
      isMarginTradingAllowed: false,
      filters: filters(family),
      permissions: [],
      permissionSets: [['SPOT']],
    };
  }
  return {
    symbol: i.symbol,
    pair: family === 'coinm' ? `${i.base}USD` : i.symbol,
    contractType: 'PERPETUAL',
    deliveryDate: 4_133_404_800_000,
    onboardDate: 1_569_398_400_000,
    ...(family === 'coinm' ? { contractStatus: 'TRADING', contractSize: 100 } : { status: 'TRADING' }),
    baseAsset: i.base,
    quoteAsset: i.quote,
    marginAsset: family === 'coinm' ? i.base : i.quote,
    pricePrecision: 2,
    quantityPrecision: family === 'coinm' ? 0 : 3,
    baseAssetPrecision: 8,
    quotePrecision: 8,
    underlyingType: 'COIN',
    orderTypes: ['LIMIT', 'MARKET'],
    timeInForce: ['GTC', 'IOC', 'FOK', 'GTX'],
    filters: filters(family),
  };
}

/** The `symbols` of `exchangeInfo`. */
export function binanceSymbols(path: string): Record<string, unknown>[] {
  const family = familyOf(path);
  return instruments(family).map((i) => symbolInfo(family, i));
}

function order(context: SuccessContext, status: 'NEW' | 'CANCELED', orderId: number): Record<string, unknown> {
  const { request, nowMs } = context;
  const symbol = param(request, 'symbol') ?? 'BTCUSDT';
  const family = familyOf(request.path);
  const base = {
    symbol,
    orderId,
    clientOrderId: param(request, 'newClientOrderId') ?? `emulated-${orderId}`,
    price: param(request, 'price') ?? String(priceOf(symbol)),
    origQty: param(request, 'quantity') ?? '1',
    executedQty: '0',
    status,
    timeInForce: param(request, 'timeInForce') ?? 'GTC',
    type: param(request, 'type') ?? 'LIMIT',
    side: param(request, 'side') ?? 'BUY',
  };
  if (family === 'spot') return { ...base, orderListId: -1, transactTime: Math.floor(nowMs), cummulativeQuoteQty: '0', fills: [] };
  return { ...base, avgPrice: '0', cumQuote: '0', reduceOnly: false, positionSide: 'BOTH', updateTime: Math.floor(nowMs) };
}

/** An answer to one of the endpoints ccxt's unified methods call, or `undefined` for the others. */
export function binanceBody(context: SuccessContext): EmulatedResponse | undefined {
  const { endpoint, request, nowMs } = context;
  const family = familyOf(request.path);
  const now = Math.floor(nowMs);
  const symbol = param(request, 'symbol') ?? instruments(family)[0]?.symbol ?? 'BTCUSDT';
  const p = priceOf(symbol);
  switch (endpoint?.id) {
    case 'depth':
      return {
        status: 200,
        body: {
          lastUpdateId: now,
          ...(family === 'spot' ? {} : { E: now, T: now }),
          bids: [
            [(p - 0.1).toFixed(2), '0.5'],
            [(p - 0.2).toFixed(2), '1.2'],
          ],
          asks: [
            [(p + 0.1).toFixed(2), '0.4'],
            [(p + 0.2).toFixed(2), '1.1'],
          ],
        },
      };
    case 'ticker24hr':
      return {
        status: 200,
        body: {
          symbol,
          priceChange: '10.00',
          priceChangePercent: '0.016',
          weightedAvgPrice: p.toFixed(2),
          lastPrice: p.toFixed(2),
          lastQty: '0.01',
          ...(family === 'spot' ? { bidPrice: (p - 0.1).toFixed(2), bidQty: '0.5', askPrice: (p + 0.1).toFixed(2), askQty: '0.4' } : {}),
          openPrice: (p - 10).toFixed(2),
          highPrice: (p + 50).toFixed(2),
          lowPrice: (p - 50).toFixed(2),
          volume: '1000.0',
          quoteVolume: String(p * 1000),
          openTime: now - 86_400_000,
          closeTime: now,
          firstId: 1,
          lastId: 1000,
          count: 1000,
        },
      };
    case 'account':
      return {
        status: 200,
        body: {
          makerCommission: 10,
          takerCommission: 10,
          canTrade: true,
          canWithdraw: true,
          canDeposit: true,
          updateTime: now,
          accountType: 'SPOT',
          balances: [
            { asset: 'BTC', free: '1.00000000', locked: '0.00000000' },
            { asset: 'USDT', free: '100000.00000000', locked: '0.00000000' },
          ],
          permissions: ['SPOT'],
        },
      };
    case 'accountV2':
    case 'accountV3': {
      const asset = (name: string, amount: string): Record<string, string> => ({
        asset: name,
        walletBalance: amount,
        unrealizedProfit: '0',
        marginBalance: amount,
        availableBalance: amount,
        maxWithdrawAmount: amount,
        updateTime: String(now),
      });
      return {
        status: 200,
        body: { totalWalletBalance: '100000', availableBalance: '100000', assets: [asset('USDT', '100000'), asset('BTC', '1')], positions: [] },
      };
    }
    case 'newOrder':
      return { status: 200, body: order(context, 'NEW', now) };
    case 'cancelOrder':
      return { status: 200, body: order(context, 'CANCELED', Number(param(request, 'orderId') ?? now)) };
    case 'openOrders':
      return { status: 200, body: [{ ...order(context, 'NEW', 1), time: now, updateTime: now, isWorking: true }] };
    default:
      return undefined;
  }
}
