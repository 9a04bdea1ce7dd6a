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
}

/**
 * The lane of each worker slot per credential: every lane repeated `workersPerCredential` times.
 * Worker i uses credential i % K and slot floor(i / K) % slots.length.
 */
export function laneSlots(lanes: readonly Lane[]): readonly Lane[] {
  return lanes.flatMap((l) => Array.from({ length: l.workersPerCredential ?? 2 }, () => l));
}

const json = (v: unknown): { body: string; contentType: string } => ({ body: JSON.stringify(v), contentType: 'application/json' });
const form = (v: Record<string, string>): { body: string; contentType: string } => ({ body: new URLSearchParams(v).toString(), contentType: 'application/x-www-form-urlencoded' });

/**
 * The demo's request mix per venue: a market-data request that fills the IP budget, and account or
 * order requests that fill each credential's budgets, so every bucket the mix touches is driven to
 * saturation at once.
 */
const LANES: Readonly<Record<string, readonly Lane[]>> = {
  'binance-spot': [
    { name: 'depth', method: 'GET', path: '/api/v3/depth?symbol=BTCUSDT&limit=100' },
    // Orders wait for their account's order count and then queue for the IP weight behind the depth
    // requests: more of them keep the order count busy too.
    { name: 'order', method: 'POST', path: '/api/v3/order?symbol=BTCUSDT&side=BUY&type=LIMIT&timeInForce=GTC&quantity=0.001&price=60000', workersPerCredential: 6 },
  ],
  okx: [
    { name: 'books', method: 'GET', path: '/api/v5/market/books?instId=BTC-USDT&sz=20' },
    { name: 'order', method: 'POST', path: '/api/v5/trade/order', ...json({ instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '0.01', px: '60000' }) },
    { name: 'balance', method: 'GET', path: '/api/v5/account/balance' },
  ],
  bybit: [
    { name: 'order', method: 'POST', path: '/v5/order/create', ...json({ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.001', price: '60000' }) },
    { name: 'fee-rate', method: 'GET', path: '/v5/account/fee-rate?category=linear&symbol=BTCUSDT' },
    { name: 'tickers', method: 'GET', path: '/v5/market/tickers?category=spot&symbol=BTCUSDT' },
  ],
  kucoin: [
    { name: 'level1', method: 'GET', path: '/api/v1/market/orderbook/level1?symbol=BTC-USDT' },
    { name: 'fills', method: 'GET', path: '/api/v1/fills?symbol=BTC-USDT' },
    { name: 'accounts', method: 'GET', path: '/api/v1/accounts' },
  ],
  kraken: [
    { name: 'ticker', method: 'GET', path: '/0/public/Ticker?pair=XBTUSD' },
    { name: 'balance', method: 'POST', path: '/0/private/Balance', ...form({ nonce: '1' }) },
    { name: 'order', method: 'POST', path: '/0/private/AddOrder', ...form({ nonce: '1', pair: 'XBTUSD', type: 'buy', ordertype: 'limit', volume: '0.001', price: '60000' }) },
  ],
  'kucoin-futures': [
    { name: 'ticker', method: 'GET', path: '/api/v1/ticker?symbol=XBTUSDTM' },
    { name: 'order', method: 'POST', path: '/api/v1/orders', ...json({ clientOid: 'demo', symbol: 'XBTUSDTM', side: 'buy', type: 'limit', leverage: 3, size: 1, price: '60000' }) },
    { name: 'positions', method: 'GET', path: '/api/v1/positions' },
  ],
  'kucoin-unified': [
    { name: 'ticker', method: 'GET', path: '/api/ua/v1/market/ticker?tradeType=FUTURES&symbol=XBTUSDTM' },
    { name: 'order', method: 'POST', path: '/api/ua/v1/unified/order/place?tradeType=FUTURES', ...json({ tradeType: 'FUTURES', symbol: 'XBTUSDTM', clientOid: 'demo', side: 'BUY', orderType: 'LIMIT', size: '1', price: '60000', timeInForce: 'GTC' }), workersPerCredential: 4 },
    { name: 'positions', method: 'GET', path: '/api/ua/v1/unified/position/open-list', workersPerCredential: 4 },
  ],
  'kraken-futures': [
    { name: 'tickers', method: 'GET', path: '/derivatives/api/v3/tickers' },
    { name: 'sendorder', method: 'POST', path: '/derivatives/api/v3/sendorder', ...form({ orderType: 'lmt', symbol: 'PF_XBTUSD', side: 'buy', size: '1', limitPrice: '60000' }) },
    { name: 'accounts', method: 'GET', path: '/derivatives/api/v3/accounts' },
    { name: 'historicalorders', method: 'GET', path: '/api/history/v2/orders', workersPerCredential: 1 },
  ],
  'htx-swap': [
    { name: 'funding-rate', method: 'GET', path: '/linear-swap-api/v1/swap_funding_rate?contract_code=BTC-USDT' },
    { name: 'order', method: 'POST', path: '/linear-swap-api/v1/swap_cross_order', ...json({ contract_code: 'BTC-USDT', volume: 1, direction: 'buy', offset: 'open', lever_rate: 5, order_price_type: 'limit', price: 60000 }), workersPerCredential: 4 },
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
