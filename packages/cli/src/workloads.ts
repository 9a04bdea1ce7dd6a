import type { Priority } from '@core/rate-limit-contract';
import { resolveRequest, type VenueSpec } from '@core/exchange-specs';

/** One kind of request a demo worker sends over and over. */
export interface Lane {
  readonly name: string;
  readonly method: 'GET' | 'POST' | 'DELETE';
  /** Path and query string. */
  readonly path: string;
  /** A JSON or form body (sent as is), for POSTs. */
  readonly body?: string;
  readonly contentType?: string;
  /** Workers per credential on this lane in the default mix; default 2. */
  readonly workersPerCredential?: number;
  /**
   * The lane's class (RL-Q1): market data is `'bulk'`; left out, a request takes the class its venue's
   * spec gives it by nature (`'critical'` for cancels, reduce-only orders, position closes).
   */
  readonly priority?: Priority;
  /** A stream rather than a saturating lane: each worker starts one request every `everyMs` (ms of real time), whether the earlier ones went out yet or not. */
  readonly everyMs?: number;
}

/**
 * The lane of each worker slot per credential: every lane repeated `workersPerCredential` times.
 * Worker i uses credential i % K and slot floor(i / K) % slots.length.
 */
export function laneSlots(lanes: readonly Lane[]): readonly Lane[] {
  return lanes.flatMap((l) => Array.from({ length: l.workersPerCredential ?? 2 }, () => l));
}

const json = (v: unknown): { body: string; contentType: string } => ({ body: JSON.stringify(v), contentType: 'application/json' });
const form = (v: Record<string, string>): { body: string; contentType: string } => ({
  body: new URLSearchParams(v).toString(),
  contentType: 'application/x-www-form-urlencoded',
});

/**
 * The demo's request mix per venue: a market-data request that fills the IP budget, and account or
 * order requests that fill each credential's budgets, so every bucket the mix touches is driven to
 * saturation at once.
 */
const LANES: Readonly<Record<string, readonly Lane[]>> = {
  // Market data (bulk) saturates the IP weight; a stream of cancels (critical by nature) and of hedge
  // orders (marked critical) goes out beside it (RL-Q1).
  'binance-spot': [
    { name: 'depth', method: 'GET', path: '/api/v3/depth?symbol=BTCUSDT&limit=100', priority: 'bulk' },
    // Orders wait for their account's order count and then queue for the IP weight behind the depth
    // requests: more of them keep the order count busy too.
    {
      name: 'order',
      method: 'POST',
      path: '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=60000',
      workersPerCredential: 6,
    },
    { name: 'cancel', method: 'DELETE', path: '/api/v3/order?symbol=BTCUSDT&orderId=1', workersPerCredential: 1, everyMs: 500 },
    {
      name: 'hedge',
      method: 'POST',
      path: '/api/v3/order?symbol=BTCUSDT&side=SELL&type=MARKET&quantity=0.001',
      workersPerCredential: 1,
      everyMs: 2500,
      priority: 'critical',
    },
  ],
  okx: [
    { name: 'books', method: 'GET', path: '/api/v5/market/books?instId=BTC-USDT&sz=20', priority: 'bulk' },
    {
      name: 'order',
      method: 'POST',
      path: '/api/v5/trade/order',
      ...json({ instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '0.01', px: '60000' }),
    },
    { name: 'balance', method: 'GET', path: '/api/v5/account/balance', priority: 'bulk' },
    { name: 'cancel', method: 'POST', path: '/api/v5/trade/cancel-order', ...json({ instId: 'BTC-USDT', ordId: '1' }), workersPerCredential: 1, everyMs: 200 },
  ],
  bybit: [
    {
      name: 'order',
      method: 'POST',
      path: '/v5/order/create',
      ...json({ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.001', price: '60000' }),
    },
    { name: 'fee-rate', method: 'GET', path: '/v5/account/fee-rate?category=linear&symbol=BTCUSDT', priority: 'bulk' },
    { name: 'tickers', method: 'GET', path: '/v5/market/tickers?category=spot&symbol=BTCUSDT', priority: 'bulk' },
    {
      name: 'cancel',
      method: 'POST',
      path: '/v5/order/cancel',
      ...json({ category: 'linear', symbol: 'BTCUSDT', orderId: '1' }),
      workersPerCredential: 1,
      everyMs: 200,
    },
  ],
  kucoin: [
    { name: 'level1', method: 'GET', path: '/api/v1/market/orderbook/level1?symbol=BTC-USDT' },
    { name: 'fills', method: 'GET', path: '/api/v1/fills?symbol=BTC-USDT' },
    { name: 'accounts', method: 'GET', path: '/api/v1/accounts' },
  ],
  kraken: [
    { name: 'ticker', method: 'GET', path: '/0/public/Ticker?pair=XBTUSD' },
    { name: 'balance', method: 'POST', path: '/0/private/Balance', ...form({ nonce: '1' }) },
    {
      name: 'order',
      method: 'POST',
      path: '/0/private/AddOrder',
      ...form({ nonce: '1', pair: 'XBTUSD', type: 'buy', ordertype: 'limit', volume: '0.001', price: '60000' }),
    },
  ],
  // Order messages are priced as the chain counts them (path: the message's type URL); the indexer
  // fills the IP budget and the broadcast lane the (unlisted, hence strictest) node's. One worker per
  // credential sends short-term orders: more cannot reach 2,000 per 5 blocks in process and only
  // take the event loop from the IP lanes.
  'dydx-v4': [
    { name: 'book', method: 'GET', path: '/v4/orderbooks/perpetualMarket/BTC-USD' },
    {
      name: 'short-term',
      method: 'POST',
      path: '/dydxprotocol.clob.MsgPlaceOrder',
      ...json({
        order: {
          orderId: { subaccountId: { owner: 'dydx1demo', number: 0 }, clientId: 1, orderFlags: 0, clobPairId: 0 },
          side: 1,
          quantums: 1000000,
          subticks: 100000,
          goodTilBlock: 100,
        },
      }),
      workersPerCredential: 1,
    },
    {
      name: 'long-term',
      method: 'POST',
      path: '/dydxprotocol.clob.MsgPlaceOrder',
      ...json({
        order: {
          orderId: { subaccountId: { owner: 'dydx1demo', number: 0 }, clientId: 2, orderFlags: 64, clobPairId: 0 },
          side: 1,
          quantums: 1000000,
          subticks: 100000,
          goodTilBlockTime: 1800000000,
        },
      }),
    },
    { name: 'broadcast', method: 'GET', path: '/broadcast_tx_sync?tx=0x00' },
  ],
  'coinbase-intx': [
    { name: 'quote', method: 'GET', path: '/api/v1/instruments/BTC-PERP/quote' },
    {
      name: 'order',
      method: 'POST',
      path: '/api/v1/orders',
      ...json({ portfolio: 'demo', instrument: 'BTC-PERP', side: 'BUY', type: 'LIMIT', size: '0.001', price: '60000', tif: 'GTC' }),
    },
    { name: 'positions', method: 'GET', path: '/api/v1/portfolios/demo/positions' },
  ],
  ascendex: [
    { name: 'snapshot', method: 'GET', path: '/api/pro/data/v1/cash/balance/snapshot?date=2026-11-30' },
    { name: 'history', method: 'GET', path: '/api/pro/data/v1/futures/balance/history?sn=1' },
  ],
  'mexc-spot': [
    { name: 'depth', method: 'GET', path: '/api/v3/depth?symbol=BTCUSDT&limit=100' },
    { name: 'order', method: 'POST', path: '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&quantity=0.001&price=60000' },
    { name: 'account', method: 'GET', path: '/api/v3/account' },
  ],
  'mexc-futures': [
    { name: 'depth', method: 'GET', path: '/api/v1/contract/depth/BTC_USDT' },
    { name: 'positions', method: 'GET', path: '/api/v1/private/position/open_positions' },
    {
      name: 'order',
      method: 'POST',
      path: '/api/v1/private/order/submit',
      ...json({ symbol: 'BTC_USDT', price: 60000, vol: 1, side: 1, type: 1, openType: 1 }),
    },
  ],
  'bitmart-spot': [
    { name: 'books', method: 'GET', path: '/spot/quotation/v3/books?symbol=BTC_USDT' },
    {
      name: 'order',
      method: 'POST',
      path: '/spot/v2/submit_order',
      ...json({ symbol: 'BTC_USDT', side: 'buy', type: 'limit', size: '0.001', price: '60000' }),
    },
    { name: 'open-orders', method: 'POST', path: '/spot/v4/query/open-orders', ...json({ symbol: 'BTC_USDT' }) },
  ],
  'bitmart-futures': [
    { name: 'depth', method: 'GET', path: '/contract/public/depth?symbol=BTCUSDT' },
    {
      name: 'order',
      method: 'POST',
      path: '/contract/private/submit-order',
      ...json({ symbol: 'BTCUSDT', side: 1, type: 'limit', size: 1, price: '60000', leverage: '1', open_type: 'isolated' }),
    },
    { name: 'position', method: 'GET', path: '/contract/private/position?symbol=BTCUSDT' },
  ],
  'binance-coinm': [
    { name: 'depth', method: 'GET', path: '/dapi/v1/depth?symbol=BTCUSD_PERP&limit=100' },
    // Orders weigh 0 on the IP weight: only the account's minute order count holds them back.
    {
      name: 'order',
      method: 'POST',
      path: '/dapi/v1/order?symbol=BTCUSD_PERP&side=BUY&type=LIMIT&timeInForce=GTC&quantity=1&price=60000',
      workersPerCredential: 6,
    },
  ],
  'binance-options': [
    { name: 'depth', method: 'GET', path: '/eapi/v1/depth?symbol=BTC-261225-100000-C&limit=100' },
    {
      name: 'order',
      method: 'POST',
      path: '/eapi/v1/order?symbol=BTC-261225-100000-C&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.01&price=500',
      workersPerCredential: 6,
    },
  ],
  'binance-sapi': [
    // Each /sapi endpoint has its own limit: one IP-limited lane (shared by every credential) and two
    // UID-limited lanes (one bucket per endpoint and account).
    { name: 'coins', method: 'GET', path: '/sapi/v1/capital/config/getall' },
    { name: 'transfer', method: 'POST', path: '/sapi/v1/asset/transfer?type=MAIN_UMFUTURE&asset=USDT&amount=1' },
    {
      name: 'margin-order',
      method: 'POST',
      path: '/sapi/v1/margin/order?symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=60000&sideEffectType=MARGIN_BUY',
    },
  ],
  'kucoin-futures': [
    { name: 'ticker', method: 'GET', path: '/api/v1/ticker?symbol=XBTUSDTM' },
    {
      name: 'order',
      method: 'POST',
      path: '/api/v1/orders',
      ...json({ clientOid: 'demo', symbol: 'XBTUSDTM', side: 'buy', type: 'limit', leverage: 3, size: 1, price: '60000' }),
    },
    { name: 'positions', method: 'GET', path: '/api/v1/positions' },
  ],
  'kucoin-unified': [
    { name: 'ticker', method: 'GET', path: '/api/ua/v1/market/ticker?tradeType=FUTURES&symbol=XBTUSDTM' },
    {
      name: 'order',
      method: 'POST',
      path: '/api/ua/v1/unified/order/place?tradeType=FUTURES',
      ...json({ tradeType: 'FUTURES', symbol: 'XBTUSDTM', clientOid: 'demo', side: 'BUY', orderType: 'LIMIT', size: '1', price: '60000', timeInForce: 'GTC' }),
      workersPerCredential: 4,
    },
    { name: 'positions', method: 'GET', path: '/api/ua/v1/unified/position/open-list', workersPerCredential: 4 },
  ],
  'kraken-futures': [
    { name: 'tickers', method: 'GET', path: '/derivatives/api/v3/tickers' },
    {
      name: 'sendorder',
      method: 'POST',
      path: '/derivatives/api/v3/sendorder',
      ...form({ orderType: 'lmt', symbol: 'PF_XBTUSD', side: 'buy', size: '1', limitPrice: '60000' }),
    },
    { name: 'accounts', method: 'GET', path: '/derivatives/api/v3/accounts' },
    { name: 'historicalorders', method: 'GET', path: '/api/history/v2/orders', workersPerCredential: 1 },
  ],
  'htx-swap': [
    { name: 'funding-rate', method: 'GET', path: '/linear-swap-api/v1/swap_funding_rate?contract_code=BTC-USDT' },
    {
      name: 'order',
      method: 'POST',
      path: '/linear-swap-api/v1/swap_cross_order',
      ...json({ contract_code: 'BTC-USDT', volume: 1, direction: 'buy', offset: 'open', lever_rate: 5, order_price_type: 'limit', price: 60000 }),
      workersPerCredential: 4,
    },
    { name: 'account', method: 'POST', path: '/linear-swap-api/v1/swap_cross_account_info', ...json({ margin_account: 'USDT' }), workersPerCredential: 4 },
  ],
};

const SAMPLE_QUERY = '?symbol=BTCUSDT&instId=BTC-USDT&pair=XBTUSD&category=spot';

/**
 * The lanes of a venue: the hand-picked mix for the five demo venues; for any other spec, up to
 * three GET endpoints without path parameters that can be priced with a sample query.
 *
 * @throws Error when no request of the spec can be priced for the demo.
 */
export function lanesFor(spec: VenueSpec): readonly Lane[] {
  const known = LANES[spec.id];
  if (known !== undefined) return known;
  const lanes: Lane[] = [];
  for (const e of spec.endpoints) {
    if (lanes.length >= 3) break;
    if (e.method !== 'GET' || e.path.includes('{')) continue;
    const query = Object.fromEntries(new URLSearchParams(SAMPLE_QUERY));
    const r = resolveRequest(spec, { method: 'GET', path: e.path, query }, { credential: e.auth === 'private' ? 'demo-key' : null });
    if (r.ok && r.checks.length > 0) lanes.push({ name: e.id, method: 'GET', path: `${e.path}${SAMPLE_QUERY}` });
  }
  if (lanes.length === 0) throw new Error(`${spec.id}: the demo found no GET endpoint without path parameters that it can price; pick another venue`);
  return lanes;
}
