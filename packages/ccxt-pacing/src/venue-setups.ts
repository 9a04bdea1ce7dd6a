/**
 * What ccxt needs to run its unified methods (loadMarkets, fetchOrderBook, fetchTicker, fetchBalance,
 * createOrder, cancelOrder, fetchOpenOrders) through the documented specs alone, per ccxt id: the spec of
 * each family of `urls.api` keys, and the ccxt options that skip the few calls no documented spec prices
 * yet (each says which). The demo, the tests and the bench use it to point ccxt at emulated venues.
 */
export interface CcxtVenueSetup {
  /** The ccxt class (`binance`, `binanceusdm`, ...). */
  readonly ccxtId: string;
  /** The spec id of each family, with the `urls.api` keys ccxt sends that family's calls to. */
  readonly families: Readonly<Record<string, readonly string[]>>;
  /** ccxt options to construct the exchange with. */
  readonly options: Readonly<Record<string, unknown>>;
  /** `has` entries to turn off (calls no documented spec prices yet). */
  readonly hasOff: readonly string[];
  /** The params of the first `loadMarkets`. */
  readonly loadMarketsParams: Readonly<Record<string, unknown>>;
  /** A symbol the emulator lists. */
  readonly symbol: string;
  /** Extra params of `cancelOrder`. */
  readonly cancelParams: Readonly<Record<string, unknown>>;
  /** Why each option or param is there. */
  readonly notes: readonly string[];
}

const BINANCE_FAMILIES = {
  'binance-spot': ['public', 'private', 'v1'],
  'binance-sapi': ['sapi', 'sapiV2', 'sapiV3', 'sapiV4'],
  'binance-usdm': ['fapiPublic', 'fapiPublicV2', 'fapiPublicV3', 'fapiPrivate', 'fapiPrivateV2', 'fapiPrivateV3', 'fapiData'],
  'binance-coinm': ['dapiPublic', 'dapiPrivate', 'dapiPrivateV2', 'dapiData'],
};

const none = { options: {}, hasOff: [], loadMarketsParams: {}, cancelParams: {}, notes: [] };

/** The setups of the venues the emulator serves for ccxt, by a short name (`binance`, `binanceusdm`, `okx`, `bybit`, `kucoin`, `kraken`). */
export const CCXT_VENUES: Readonly<Record<string, CcxtVenueSetup>> = {
  binance: { ...none, ccxtId: 'binance', families: BINANCE_FAMILIES, symbol: 'BTC/USDT' },
  binanceusdm: { ...none, ccxtId: 'binanceusdm', families: BINANCE_FAMILIES, symbol: 'BTC/USDT:USDT' },
  okx: {
    ...none,
    ccxtId: 'okx',
    families: { okx: ['rest'] },
    hasOff: ['fetchCurrencies'],
    symbol: 'BTC/USDT',
    notes: ['fetchCurrencies: GET /api/v5/asset/currencies (priced by the OKX spec): the emulator gives no answer of its shape'],
  },
  bybit: {
    ...none,
    ccxtId: 'bybit',
    families: { bybit: ['spot', 'futures', 'v2', 'public', 'private'] },
    options: { enableUnifiedAccount: true, enableUnifiedMargin: false },
    hasOff: ['fetchCurrencies'],
    symbol: 'BTC/USDT',
    notes: [
      'fetchCurrencies: GET /v5/asset/coin/query-info (priced by the Bybit spec): the emulator gives no answer of its shape',
      'enableUnifiedAccount: ccxt otherwise asks GET /v5/user/query-api and /v5/account/info (priced by the Bybit spec): the emulator gives no answers of their shape',
    ],
  },
  kucoin: {
    ...none,
    ccxtId: 'kucoin',
    families: { kucoin: ['public', 'private'], 'kucoin-futures': ['futuresPublic', 'futuresPrivate'] },
    options: { fetchMarkets: { types: ['spot'] }, hf: true, uta: false },
    hasOff: ['fetchCurrencies'],
    loadMarketsParams: { marginables: false },
    symbol: 'BTC/USDT',
    notes: [
      'fetchCurrencies: GET /api/v3/currencies (priced by the kucoin spec): the emulator gives no answer of its shape',
      'hf, uta: ccxt otherwise asks GET /api/v1/hf/accounts/opened (kucoin spec) and /api/ua/v1/account/mode (kucoin-unified spec): the emulator gives no answers of their shape',
      'marginables: false: ccxt otherwise asks GET /api/v3/margin/symbols and /api/v1/isolated/symbols (priced by the kucoin spec): the emulator gives no answers of their shape',
    ],
  },
  kraken: {
    ...none,
    ccxtId: 'kraken',
    families: { kraken: ['public', 'private'] },
    symbol: 'BTC/USD',
  },
};

/** The hosts' paths of ccxt's `urls.api` entries, moved onto the given base URLs by family (spec id). */
export function pointCcxtAt(urlsApi: Record<string, unknown>, baseBySpec: Readonly<Record<string, string>>, setup: CcxtVenueSetup, hostname = ''): void {
  for (const [spec, keys] of Object.entries(setup.families)) {
    const base = baseBySpec[spec];
    if (base === undefined) continue;
    for (const key of keys) {
      const was = urlsApi[key];
      if (typeof was !== 'string') continue;
      const path = new URL(was.replace('{hostname}', hostname || 'venue.invalid')).pathname.replace(/\/$/, '');
      urlsApi[key] = `${base}${path}`;
    }
  }
}
