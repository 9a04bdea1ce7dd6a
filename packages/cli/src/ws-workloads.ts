/**
 * One kind of WebSocket traffic a demo worker drives as fast as its paced WebSocket lets it: a
 * connection to one endpoint, the messages it sends in turn, and how often it closes and reopens the
 * connection (a reconnect storm through the connection buckets).
 */
export interface WsLane {
  readonly name: string;
  /** The endpoint's id in the venue's WebSocket spec. */
  readonly endpoint: string;
  /** Whether the connection carries the worker's credential (private endpoints, orders). */
  readonly private: boolean;
  /** The i-th message (i from 0) the worker sends on a connection. */
  message?(i: number, credential: string): object | string;
  /** Close and reopen the connection after this many messages (a storm of reconnects); never when absent. */
  readonly reopenEvery?: number;
  /** Keep this many connections open instead of sending (a venue whose only limit is a connection cap). */
  readonly hold?: number;
  /** Run for the first credential only (a storm of public connections needs one worker, not one per key). */
  readonly once?: boolean;
}

const toggle = (sub: object | string, unsub: object | string) => (i: number) => (i % 2 === 0 ? sub : unsub);

/** The demo's WebSocket mix per venue: market-data subscriptions, WebSocket API requests that share REST budgets, reconnect storms. */
const WS_LANES: Readonly<Record<string, readonly WsLane[]>> = {
  'binance-spot': [
    {
      name: 'ws-api order',
      endpoint: 'ws-api',
      private: true,
      message: (i, credential) => ({
        id: i,
        method: 'order.place',
        params: {
          symbol: 'BTCUSDT',
          side: 'BUY',
          type: 'LIMIT',
          timeInForce: 'GTC',
          quantity: '0.001',
          price: '60000',
          apiKey: credential,
          timestamp: Date.now(),
          signature: 'demo',
        },
      }),
    },
    {
      name: 'streams',
      endpoint: 'market-streams',
      private: false,
      message: (i) => ({ method: i % 2 === 0 ? 'SUBSCRIBE' : 'UNSUBSCRIBE', params: ['btcusdt@trade', 'ethusdt@trade'], id: i }),
    },
    {
      name: 'stream storm',
      endpoint: 'market-streams',
      private: false,
      reopenEvery: 2,
      once: true,
      message: (i) => ({ method: 'SUBSCRIBE', params: ['bnbusdt@trade'], id: i }),
    },
    { name: 'ws-api depth', endpoint: 'ws-api', private: false, message: (i) => ({ id: i, method: 'depth', params: { symbol: 'BTCUSDT', limit: 100 } }) },
  ],
  'binance-usdm': [
    {
      name: 'ws-api order',
      endpoint: 'ws-api',
      private: true,
      message: (i, credential) => ({
        id: i,
        method: 'order.place',
        params: { symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.001', price: '60000', apiKey: credential },
      }),
    },
    {
      name: 'streams',
      endpoint: 'market-streams',
      private: false,
      message: (i) => ({ method: i % 2 === 0 ? 'SUBSCRIBE' : 'UNSUBSCRIBE', params: ['btcusdt@aggTrade'], id: i }),
    },
    {
      name: 'stream storm',
      endpoint: 'market-streams',
      private: false,
      reopenEvery: 2,
      once: true,
      message: (i) => ({ method: 'SUBSCRIBE', params: ['ethusdt@aggTrade'], id: i }),
    },
  ],
  okx: [
    {
      name: 'ws order',
      endpoint: 'private',
      private: true,
      message: (i) => ({ id: String(i), op: 'order', args: [{ instId: 'BTC-USDT', tdMode: 'cash', side: 'buy', ordType: 'limit', sz: '0.01', px: '60000' }] }),
    },
    {
      name: 'tickers',
      endpoint: 'public',
      private: false,
      message: toggle(
        { op: 'subscribe', args: [{ channel: 'tickers', instId: 'BTC-USDT' }] },
        { op: 'unsubscribe', args: [{ channel: 'tickers', instId: 'BTC-USDT' }] },
      ),
    },
    {
      name: 'storm',
      endpoint: 'public',
      private: false,
      reopenEvery: 1,
      once: true,
      message: () => ({ op: 'subscribe', args: [{ channel: 'tickers', instId: 'ETH-USDT' }] }),
    },
  ],
  bybit: [
    {
      name: 'ws order',
      endpoint: 'trade',
      private: true,
      message: (i) => ({
        reqId: String(i),
        op: 'order.create',
        args: [{ category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Limit', qty: '0.001', price: '60000' }],
      }),
    },
    {
      name: 'storm',
      endpoint: 'public-linear',
      private: false,
      reopenEvery: 1,
      once: true,
      message: () => ({ op: 'subscribe', args: ['publicTrade.BTCUSDT'] }),
    },
  ],
  kucoin: [
    {
      name: 'ticker',
      endpoint: 'public',
      private: false,
      message: (i) => ({ id: String(i), type: i % 2 === 0 ? 'subscribe' : 'unsubscribe', topic: '/market/ticker:BTC-USDT,ETH-USDT', response: true }),
    },
    { name: 'storm', endpoint: 'public', private: false, reopenEvery: 1, once: true, message: (i) => ({ id: String(i), type: 'ping' }) },
  ],
  kraken: [
    {
      name: 'storm',
      endpoint: 'public',
      private: false,
      reopenEvery: 1,
      once: true,
      message: () => ({ method: 'subscribe', params: { channel: 'ticker', symbol: ['BTC/USD'] } }),
    },
  ],
  hyperliquid: [
    {
      name: 'trades',
      endpoint: 'public',
      private: false,
      message: (i) => ({ method: i % 2 === 0 ? 'subscribe' : 'unsubscribe', subscription: { type: 'trades', coin: 'BTC' } }),
    },
    {
      name: 'storm',
      endpoint: 'public',
      private: false,
      reopenEvery: 1,
      once: true,
      message: () => ({ method: 'subscribe', subscription: { type: 'l2Book', coin: 'ETH' } }),
    },
  ],
  gate: [{ name: 'connections', endpoint: 'spot', private: false, hold: 120, once: true }],
  bitget: [
    {
      name: 'ticker',
      endpoint: 'public',
      private: false,
      message: (i) =>
        i % 3 === 2 ? 'ping' : { op: i % 3 === 0 ? 'subscribe' : 'unsubscribe', args: [{ instType: 'SPOT', channel: 'ticker', instId: 'BTCUSDT' }] },
    },
    { name: 'storm', endpoint: 'public', private: false, reopenEvery: 1, once: true, message: () => 'ping' },
  ],
};

/** The WebSocket lanes of a venue, or none when the venue has no WebSocket limits. */
export function wsLanesFor(venueId: string): readonly WsLane[] {
  return WS_LANES[venueId] ?? [];
}
