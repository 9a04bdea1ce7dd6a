import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';
import { binancePricedElsewhere } from './binance-paths.js';
import { explainWaits, USDM_ORDERS_10S_THIRDS } from './binance-waits.js';

/** How the endpoint pages were read. */
const PAGES_AT =
  "the weights as stated on the endpoint pages, read in the text of Binance's official SDK generated from them (binance/binance-connector-js, clients/derivatives-trading-usds-futures, commit a9de9a9, 2026-07-24); Order Book, Kline, Mark Price and Place Multiple Orders also compared with stored copies of the pages";

function doc(source: string, quote: string): Provenance {
  return { source, confidence: 'documented', quote };
}

const weight = (value: number): CostRule => ({ bucket: 'request_weight', cost: { kind: 'constant', value } });
const bySymbol = (present: number, absent: number): CostRule => ({ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present, absent } });
const order = (tenSeconds: number, minute: number): CostRule[] => [
  { bucket: 'orders_10s', cost: { kind: 'constant', value: tenSeconds } },
  { bucket: 'orders_1m', cost: { kind: 'constant', value: minute } },
];

/** "[1,100) | 1; [100, 500) | 2; [500, 1000] | 5; > 1000 | 10", limit "Default 500; max 1500." */
const KLINE_WEIGHT: CostRule = {
  bucket: 'request_weight',
  cost: {
    kind: 'table',
    param: 'limit',
    defaultValue: 500,
    rows: [
      { upTo: 99, cost: 1 },
      { upTo: 499, cost: 2 },
      { upTo: 1000, cost: 5 },
    ],
    above: 10,
  },
};
const KLINE_QUOTE = 'Weight: based on parameter `LIMIT` LIMIT | weight; [1,100) | 1; [100, 500) | 2; [500, 1000] | 5; > 1000 | 10 … limit | INT | NO | Default 500; max 1500.';

/**
 * The futures FAQ's volume tiers ("Order rate limit/Min, Per Sub-account", the limit of one account):
 * `default` is the documented default, each other tier a row of the FAQ's table by 30-day futures
 * volume. The 10-second limit of a raised tier is a third of its minute limit, rounded down.
 */
const ORDER_TIERS = {
  default: { minute: 1200, tenSeconds: 300 },
  'volume-600m': { minute: 5000, tenSeconds: 1666 },
  'volume-1b': { minute: 6000, tenSeconds: 2000 },
  'volume-2.5b': { minute: 8000, tenSeconds: 2666 },
  'volume-5b': { minute: 10_000, tenSeconds: 3333 },
  'volume-12.5b': { minute: 12_000, tenSeconds: 4000 },
  'volume-25b': { minute: 15_000, tenSeconds: 5000 },
} as const;

const tiersOf = (pick: (t: { minute: number; tenSeconds: number }) => number): Record<string, { limit: number }> => Object.fromEntries(Object.entries(ORDER_TIERS).map(([name, t]) => [name, { limit: pick(t) }]));

/** The FAQ's table (27 December 2024), its rows as cells separated by " | ". */
const TIER_TABLE =
  '30-Day Futures Trading Volume/USDT | Order rate limit/Min | Message Request limit/Min | Additional Order rate and Message Request limit; Per Sub-account | Per UID | Per IP | Per Client | Fill ratio >1%; 600,000,000 | 5,000 | 60,000 | 5,000 | 60,000 | + 15,000; 1,000,000,000 | 6,000 | 80,000 | 6,000 | 80,000 | + 20,000; 2,500,000,000 | 8,000 | 100,000 | 8,000 | 100,000 | +25,000; 5,000,000,000 | 10,000 | 150,000 | 10,000 | 150,000 | +50,000; 12,500,000,000 | 12,000 | 200,000 | 12,000 | 200,000 | +50,000; 25,000,000,000 | 15,000 | 250,000 | 15,000 | 250,000 | +50,000';

function ep(id: string, method: EndpointSpec['method'], path: string, auth: 'public' | 'private', costs: readonly CostRule[], source: string, quote: string, note?: string): EndpointSpec {
  return { id, method, path, auth, costs, provenance: doc(source, quote), ...(note === undefined ? {} : { note }) };
}

/** Binance USDⓈ-M futures REST (`fapi.binance.com`). */
export const binanceUsdm: VenueSpec = {
  id: 'binance-usdm',
  venue: 'Binance',
  product: 'USDⓈ-M futures REST API (/fapi)',
  markets: ['perpetual', 'delivery'],
  origin: 'hand-authored',
  ccxtIds: ['binanceusdm'],
  sources: {
    general: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/general-info', retrieved: '2026-12-01', note: 'read from a stored copy of the page' },
    limitsFaq: {
      url: 'https://www.binance.com/en/support/faq/rate-limits-on-binance-futures-281596e222414cdd9051664ea621cdc3',
      retrieved: '2026-12-01',
      note: 'Binance support FAQ "Rate Limits on Binance Futures" (last updated 27 December 2024); read from a stored copy. The developers pages give no number for these limits',
    },
    apiFaq: {
      url: 'https://www.binance.com/en/support/faq/detail/360004492232',
      retrieved: '2026-12-01',
      note: 'Binance support FAQ "Frequently Asked Questions on API" (last updated 15 November 2024), written for the spot API; the nearest statement of a WAF ban\'s length',
    },
    market: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api', retrieved: '2026-12-01', note: PAGES_AT },
    trade: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/trade/rest-api', retrieved: '2026-12-01', note: PAGES_AT },
    account: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/account/rest-api', retrieved: '2026-12-01', note: PAGES_AT },
    userStream: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/user-data-streams', retrieved: '2026-12-01', note: PAGES_AT },
    markPrice: {
      url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/market-data/rest-api/Mark-Price',
      retrieved: '2026-12-01',
      note: `${PAGES_AT}. Stored copies of the page from before 2026 say "Request Weight 1"; the current text charges 10 without symbol`,
    },
    connector: {
      url: 'https://github.com/binance/binance-connector-python/blob/c4b8aa696a85adcf73f4d12402448dfd7a53934a/clients/derivatives_trading_usds_futures/src/binance_sdk_derivatives_trading_usds_futures/rest_api/api/market_data_api.py',
      retrieved: '2026-12-07',
      note: "Binance's official Python connector, release derivatives_trading_usds_futures 17.0.0 of 2026-08-07 (commit c4b8aa6), generated from the endpoint page: it moved Old Trades Lookup from Weight(IP) 20 to 200 (still 200 at 29da329, 2026-08-21)",
    },
    errors: { url: 'https://developers.binance.com/docs/derivatives/usds-margined-futures/error-code', retrieved: '2026-12-01', note: 'read from a stored copy of the page' },
  },
  buckets: [
    {
      id: 'request_weight',
      scope: 'ip',
      algorithm: 'fixed-window-aligned',
      limit: 2400,
      windowMs: 60_000,
      provenance: { source: 'limitsFaq', confidence: 'observed', quote: 'The default rate limit per IP is 2,400/min, and the default order limit per account/sub-account is 1,200/min.' },
      description:
        'REQUEST_WEIGHT per IP ("The limits on the API are based on the IPs, not the API keys.", general info). The futures pages do not say how the minute is aligned; the spot API documents the same X-MBX-USED-WEIGHT-(intervalNum)(intervalLetter) intervals as starting every minute, assumed here. The FAQ\'s raised "Message Request limit" per IP (5,000 to 15,000 by volume tier) is granted to an IP, not to the account whose tier an identity names: it is not a tier here (read the IP\'s live limit from GET /fapi/v1/exchangeInfo)',
    },
    {
      id: 'orders_10s',
      scope: 'uid',
      algorithm: 'fixed-window-aligned',
      limit: 300,
      windowMs: 10_000,
      tiers: tiersOf((t) => t.tenSeconds),
      provenance: {
        source: 'limitsFaq',
        confidence: 'observed',
        quote: `*For order limit, there is an additional 10-second limit applicable to USDⓈ-M Futures, default at 300/10s. Any adjusted order limit will be ⅓ of the minute limit. e.g., 3,000/min carries a 1,000/10s order limit. … ${TIER_TABLE}`,
        deviations: USDM_ORDERS_10S_THIRDS,
      },
      description:
        'ORDERS per account per 10 s ("The order rate limit is counted against each account.", general info). Tiers: `default` (300), and per 30-day futures volume a third of the tier\'s minute limit, rounded down (`volume-600m` 1666 … `volume-25b` 5000); the account\'s own values are in GET /fapi/v1/rateLimit/order',
    },
    {
      id: 'orders_1m',
      scope: 'uid',
      algorithm: 'fixed-window-aligned',
      limit: 1200,
      windowMs: 60_000,
      tiers: tiersOf((t) => t.minute),
      provenance: {
        source: 'limitsFaq',
        confidence: 'observed',
        quote: `The default rate limit per IP is 2,400/min, and the default order limit per account/sub-account is 1,200/min. Users with the below futures trading volume will be entitled to a higher rate limit adjustment as detailed here: ${TIER_TABLE}`,
      },
      description:
        'ORDERS per account per minute ("The order rate limit is counted against each account.", general info). Tiers: `default` (1,200), and the FAQ\'s "Per Sub-account" order limit by 30-day futures volume: `volume-600m` 5,000, `volume-1b` 6,000, `volume-2.5b` 8,000, `volume-5b` 10,000, `volume-12.5b` 12,000, `volume-25b` 15,000. A raised limit is granted per account (VIP portal): name the tier only when GET /fapi/v1/rateLimit/order confirms it (or read it live)',
    },
    {
      id: 'funding_5m',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 500,
      windowMs: 300_000,
      provenance: doc('market', 'Weight: share 500/5min/IP rate limit with GET /fapi/v1/fundingInfo'),
      description: "the funding rate endpoints' own limit per IP; how its 5 minutes are counted is not documented, so it is modelled as a rolling window",
    },
  ],
  endpoints: [
    ep('ping', 'GET', '/fapi/v1/ping', 'public', [weight(1)], 'market', 'Test Connectivity … Weight(IP): 1'),
    ep('time', 'GET', '/fapi/v1/time', 'public', [weight(1)], 'market', 'Check Server Time … Weight(IP): 1'),
    ep('exchangeInfo', 'GET', '/fapi/v1/exchangeInfo', 'public', [weight(1)], 'market', 'Exchange Information … Weight(IP): 1'),
    ep(
      'depth',
      'GET',
      '/fapi/v1/depth',
      'public',
      [
        {
          bucket: 'request_weight',
          cost: {
            kind: 'table',
            param: 'limit',
            defaultValue: 500,
            rows: [
              { upTo: 50, cost: 2 },
              { upTo: 100, cost: 5 },
              { upTo: 500, cost: 10 },
              { upTo: 1000, cost: 20 },
            ],
          },
        },
      ],
      'market',
      'Limit | Weight; 5, 10, 20, 50 | 2; 100 | 5; 500 | 10; 1000 | 20 … limit | INT | NO | Default 500; Valid limits:[5, 10, 20, 50, 100, 500, 1000]',
      'a limit between the valid values is charged as the next valid one',
    ),
    ep('trades', 'GET', '/fapi/v1/trades', 'public', [weight(5)], 'market', 'Recent Trades List … Weight(IP): 5'),
    ep(
      'historicalTrades',
      'GET',
      '/fapi/v1/historicalTrades',
      'private',
      [weight(200)],
      'connector',
      'Old Trades Lookup (MARKET_DATA) GET /fapi/v1/historicalTrades … Weight(IP): 200 Security Type: MARKET_DATA',
      "MARKET_DATA: an API key is sent; the weight is still per IP. 20 until binance-connector-python 17.0.0 (2026-08-07), which carries the page's 200",
    ),
    ep('aggTrades', 'GET', '/fapi/v1/aggTrades', 'public', [weight(20)], 'market', 'Compressed/Aggregate Trades List … Weight(IP): 20'),
    ep('klines', 'GET', '/fapi/v1/klines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('continuousKlines', 'GET', '/fapi/v1/continuousKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('indexPriceKlines', 'GET', '/fapi/v1/indexPriceKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('markPriceKlines', 'GET', '/fapi/v1/markPriceKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('premiumIndexKlines', 'GET', '/fapi/v1/premiumIndexKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('premiumIndex', 'GET', '/fapi/v1/premiumIndex', 'public', [bySymbol(1, 10)], 'markPrice', 'Mark Price … Weight: 1 with symbol, 10 without symbol'),
    ep(
      'fundingRate',
      'GET',
      '/fapi/v1/fundingRate',
      'public',
      [
        { bucket: 'funding_5m', cost: { kind: 'constant', value: 1 } },
        { ...weight(1), provenance: { source: 'market', confidence: 'uncertain', quote: 'Weight: share 500/5min/IP rate limit with GET /fapi/v1/fundingInfo' } },
      ],
      'market',
      'Get Funding Rate History … Weight: share 500/5min/IP rate limit with GET /fapi/v1/fundingInfo',
      'the page gives no IP weight: 1 is charged (the safe side; GET /fapi/v1/fundingInfo states 0)',
    ),
    ep('fundingInfo', 'GET', '/fapi/v1/fundingInfo', 'public', [{ bucket: 'funding_5m', cost: { kind: 'constant', value: 1 } }], 'market', 'Get Funding Rate Info … Weight: 0 share 500/5min/IP rate limit with `GET /fapi/v1/fundingRate`'),
    ep('openInterest', 'GET', '/fapi/v1/openInterest', 'public', [weight(1)], 'market', 'Open Interest … Weight(IP): 1'),
    ep('ticker24hr', 'GET', '/fapi/v1/ticker/24hr', 'public', [bySymbol(1, 40)], 'market', 'Weight: 1 for a single symbol; 40 when the symbol parameter is omitted'),
    ep('tickerPrice', 'GET', '/fapi/v1/ticker/price', 'public', [bySymbol(1, 2)], 'market', 'Weight: 1 for a single symbol; 2 when the symbol parameter is omitted'),
    ep(
      'tickerPriceV2',
      'GET',
      '/fapi/v2/ticker/price',
      'public',
      [bySymbol(1, 2)],
      'market',
      'Weight: 1 for a single symbol; 2 when the symbol parameter is omitted',
      'the page: "The field `X-MBX-USED-WEIGHT-1M` in response header is not accurate from this endpoint, please ignore." (a sync only ever raises the usage, never lowers it)',
    ),
    ep('bookTicker', 'GET', '/fapi/v1/ticker/bookTicker', 'public', [bySymbol(2, 5)], 'market', 'Weight: 2 for a single symbol; 5 when the symbol parameter is omitted', 'the page: "The field `X-MBX-USED-WEIGHT-1M` in response header is not accurate from this endpoint, please ignore."'),
    ep('newOrder', 'POST', '/fapi/v1/order', 'private', order(1, 1), 'trade', 'Weight: 1 on 10s order rate limit(X-MBX-ORDER-COUNT-10S); 1 on 1min order rate limit(X-MBX-ORDER-COUNT-1M); 0 on IP rate limit(x-mbx-used-weight-1m)'),
    ep(
      'batchOrders',
      'POST',
      '/fapi/v1/batchOrders',
      'private',
      [...order(5, 1), weight(5)],
      'trade',
      'Request Weight 5 on 10s order rate limit(X-MBX-ORDER-COUNT-10S); 1 on 1min order rate limit(X-MBX-ORDER-COUNT-1M); 5 on IP rate limit(x-mbx-used-weight-1m); … batchOrders | LIST<JSON> | YES | order list. Max 5 orders',
      'the same charge for 1 to 5 orders',
    ),
    ep('modifyOrder', 'PUT', '/fapi/v1/order', 'private', order(1, 1), 'trade', 'Modify Order (TRADE) … Weight: 1 on 10s order rate limit(X-MBX-ORDER-COUNT-10S); 1 on 1min order rate limit(X-MBX-ORDER-COUNT-1M); 0 on IP rate limit(x-mbx-used-weight-1m)'),
    ep('modifyBatchOrders', 'PUT', '/fapi/v1/batchOrders', 'private', [...order(5, 1), weight(5)], 'trade', 'Modify Multiple Orders (TRADE) … Weight: 5 on 10s order rate limit(X-MBX-ORDER-COUNT-10S); 1 on 1min order rate limit(X-MBX-ORDER-COUNT-1M); 5 on IP rate limit(x-mbx-used-weight-1m);'),
    ep('cancelOrder', 'DELETE', '/fapi/v1/order', 'private', [weight(1)], 'trade', 'Cancel Order (TRADE) … Weight(IP): 1'),
    ep('cancelBatch', 'DELETE', '/fapi/v1/batchOrders', 'private', [weight(1)], 'trade', 'Cancel Multiple Orders (TRADE) … Weight(IP): 1'),
    ep('cancelAll', 'DELETE', '/fapi/v1/allOpenOrders', 'private', [weight(1)], 'trade', 'Cancel All Open Orders (TRADE) … Weight(IP): 1'),
    ep('countdownCancelAll', 'POST', '/fapi/v1/countdownCancelAll', 'private', [weight(10)], 'trade', 'Auto-Cancel All Open Orders (TRADE) … Weight(IP): 10'),
    ep('queryOrder', 'GET', '/fapi/v1/order', 'private', [weight(1)], 'trade', 'Query Order (USER_DATA) … Weight(IP): 1'),
    ep('openOrder', 'GET', '/fapi/v1/openOrder', 'private', [weight(1)], 'trade', 'Query Current Open Order (USER_DATA) … Weight(IP): 1'),
    ep('openOrders', 'GET', '/fapi/v1/openOrders', 'private', [bySymbol(1, 40)], 'trade', 'Weight: 1 for a single symbol; 40 when the symbol parameter is omitted'),
    ep('allOrders', 'GET', '/fapi/v1/allOrders', 'private', [weight(5)], 'trade', 'All Orders (USER_DATA) … Weight(IP): 5'),
    ep('userTrades', 'GET', '/fapi/v1/userTrades', 'private', [weight(5)], 'trade', 'Account Trade List (USER_DATA) … Weight(IP): 5'),
    ep('forceOrders', 'GET', '/fapi/v1/forceOrders', 'private', [bySymbol(20, 50)], 'trade', "User's Force Orders (USER_DATA) … Weight: 20 with symbol, 50 without symbol"),
    ep('positionRiskV2', 'GET', '/fapi/v2/positionRisk', 'private', [weight(5)], 'trade', 'Position Information V2 (USER_DATA) … Weight(IP): 5'),
    ep('positionRiskV3', 'GET', '/fapi/v3/positionRisk', 'private', [weight(5)], 'trade', 'Position Information V3 (USER_DATA) … Weight(IP): 5'),
    ep('leverage', 'POST', '/fapi/v1/leverage', 'private', [weight(1)], 'trade', 'Change Initial Leverage (TRADE) … Weight(IP): 1'),
    ep('marginType', 'POST', '/fapi/v1/marginType', 'private', [weight(1)], 'trade', 'Change Margin Type (TRADE) … Weight(IP): 1'),
    ep('setPositionMode', 'POST', '/fapi/v1/positionSide/dual', 'private', [weight(1)], 'trade', 'Change Position Mode (TRADE) … Weight(IP): 1'),
    ep('positionMode', 'GET', '/fapi/v1/positionSide/dual', 'private', [weight(30)], 'account', 'Get Current Position Mode (USER_DATA) … Weight(IP): 30'),
    ep('accountV2', 'GET', '/fapi/v2/account', 'private', [weight(5)], 'account', 'Account Information V2 (USER_DATA) … Weight(IP): 5'),
    ep('accountV3', 'GET', '/fapi/v3/account', 'private', [weight(5)], 'account', 'Account Information V3 (USER_DATA) … Weight(IP): 5'),
    ep('balanceV2', 'GET', '/fapi/v2/balance', 'private', [weight(5)], 'account', 'Futures Account Balance V2 (USER_DATA) … Weight(IP): 5'),
    ep('balanceV3', 'GET', '/fapi/v3/balance', 'private', [weight(5)], 'account', 'Futures Account Balance V3 (USER_DATA) … Weight(IP): 5'),
    ep('income', 'GET', '/fapi/v1/income', 'private', [weight(30)], 'account', 'Get Income History (USER_DATA) … Weight(IP): 30'),
    ep('commissionRate', 'GET', '/fapi/v1/commissionRate', 'private', [weight(20)], 'account', 'User Commission Rate (USER_DATA) … Weight(IP): 20'),
    ep('leverageBracket', 'GET', '/fapi/v1/leverageBracket', 'private', [weight(1)], 'account', 'Notional and Leverage Brackets (USER_DATA) … Weight(IP): 1'),
    ep('rateLimitOrder', 'GET', '/fapi/v1/rateLimit/order', 'private', [weight(1)], 'account', 'Query User Rate Limit (USER_DATA) … Weight(IP): 1'),
    ep('listenKeyStart', 'POST', '/fapi/v1/listenKey', 'private', [weight(1)], 'userStream', 'Start User Data Stream (USER_STREAM) … Weight(IP): 1'),
    ep('listenKeyKeepalive', 'PUT', '/fapi/v1/listenKey', 'private', [weight(1)], 'userStream', 'Keepalive User Data Stream (USER_STREAM) … Weight(IP): 1'),
    ep('listenKeyClose', 'DELETE', '/fapi/v1/listenKey', 'private', [weight(1)], 'userStream', 'Close User Data Stream (USER_STREAM) … Weight(IP): 1'),
  ],
  feedback: [
    {
      header: 'x-mbx-used-weight-1m',
      meaning: 'used',
      buckets: ['request_weight'],
      provenance: doc('general', 'Every request will contain `X-MBX-USED-WEIGHT-(intervalNum)(intervalLetter)` in the response headers which has the current used weight for the IP for all request rate limiters defined.'),
    },
    {
      header: 'x-mbx-order-count-10s',
      meaning: 'used',
      buckets: ['orders_10s'],
      provenance: doc('general', 'Every order response will contain a `X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter)` header which has the current order count for the account for all order rate limiters defined.'),
    },
    {
      header: 'x-mbx-order-count-1m',
      meaning: 'used',
      buckets: ['orders_1m'],
      provenance: doc('general', 'Every order response will contain a `X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter)` header which has the current order count for the account for all order rate limiters defined.'),
    },
  ],
  errors: explainWaits('binance-usdm', [
    {
      id: 'ip-ban',
      status: [418],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight', 'funding_5m'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 120_000 },
      ],
      provenance: doc('general', 'Repeatedly violating rate limits and/or failing to back off after receiving 429s will result in an automated IP ban (HTTP status 418). IP bans are tracked and scale in duration for repeat offenders, from 2 minutes to 3 days.'),
      note: 'the futures pages do not mention Retry-After; it is read when present, else the documented minimum of 2 minutes is held',
    },
    {
      id: 'too-many-orders-10s',
      status: [429],
      body: [
        { path: 'code', equals: [-1015] },
        { path: 'msg', contains: 'SECOND' },
      ],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['orders_10s'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 10_000 },
      ],
      provenance: doc('errors', '-1015 TOO_MANY_ORDERS Too many new orders. Too many new orders; current limit is %s orders per %s.'),
      note: "the message names the 10 s interval: without Retry-After the account's orders are held one whole interval (10 s; how the futures intervals are aligned is not documented)",
    },
    {
      id: 'too-many-orders',
      status: [429],
      body: [{ path: 'code', equals: [-1015] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['orders_10s', 'orders_1m'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 60_000 },
      ],
      provenance: doc('errors', '-1015 TOO_MANY_ORDERS Too many new orders. Too many new orders; current limit is %s orders per %s.'),
      note: "the minute interval, or a message that names none: without Retry-After the account's orders are held one whole minute, the longest order interval",
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 60_000 },
      ],
      provenance: doc('general', "A `429` will be returned when either rate limit is violated. … When a 429 is received, it's your obligation as an API to back off and not spam the API."),
      note: 'without Retry-After the IP weight is held one whole minute, the weight interval',
    },
    {
      id: 'waf',
      status: [403],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight', 'funding_5m'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 300_000 },
      ],
      provenance: { source: 'apiFaq', confidence: 'uncertain', quote: "Web Application Firewall limitations will only be applied by IP. Usually, a WAF ban will have a duration of 5 minutes. However, if the server has interpreted a user's request as malicious, it may be extended." },
      note: 'the futures general info: "HTTP `403` return code is used when the WAF Limit (Web Application Firewall) has been violated." It gives no duration; the Binance API FAQ\'s usual 5 minutes is held',
    },
    {
      id: 'throttled',
      status: [503],
      body: [{ path: 'code', equals: [-1008] }],
      verdict: 'overloaded',
      counted: false,
      provenance: doc('general', 'C. "Request throttled by system-level protection. Reduce-only/close-position orders are exempt. Please try again." (-1008, Failure) … Rate-limit counting: Not counted (overload protection).'),
      note: 'the page says "Retry with backoff and reduce concurrency" and names no duration: nothing is held',
    },
  ]),
  defaultTier: 'default',
  pricedElsewhere: binancePricedElsewhere('binance-usdm'),
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'GET /fapi/v1/historicalTrades IP weight (audit of 2026-12-07)', was: '20 (the page before August 2026)', now: '200', source: 'connector' },
      { what: 'GET /fapi/v1/premiumIndex weight without symbol', was: '1', now: '10', source: 'markPrice' },
      { what: 'PUT /fapi/v1/order IP weight', was: '1', now: '0 (1 on each order count)', source: 'trade' },
      { what: 'HTTP 403 (WAF)', was: 'not recognized (an error, nothing held)', now: 'banned: the IP buckets held 5 minutes (or Retry-After)', source: 'apiFaq' },
      { what: '429 -1015 without Retry-After', was: 'orders held 10 s whatever the interval (short of the minute interval)', now: '10 s when the message names the 10 s interval; 60 s (the minute interval) otherwise', source: 'errors' },
      { what: '503 -1008 wait', was: '1 s (not documented)', now: 'none (the docs name no duration)', source: 'general' },
      { what: 'GET /fapi/v1/fundingRate and /fundingInfo', was: 'not modelled (unknown endpoints were refused)', now: 'their shared 500 per 5 min per IP limit', source: 'market' },
      { what: 'orders_1m and orders_10s for raised accounts', was: 'the defaults only (1,200 / min, 300 / 10 s) whatever the account', now: "tiers by the FAQ's 30-day volume table (5,000 to 15,000 / min, a third of it per 10 s); default 1,200 and 300", source: 'limitsFaq' },
    ],
    crossChecks: [
      { other: 'ccxt 4.5.84 binance.js (fapiPublic)', what: 'GET /fapi/v1/premiumIndex weight without symbol', ours: '10', theirs: '1', verdict: 'the page: 1 with symbol, 10 without; ccxt under-charges' },
      { other: 'binance-connector-js a9de9a9 (2026-07-24)', what: 'GET /fapi/v1/historicalTrades weight', ours: '200', theirs: '20', verdict: 'binance-connector-python c4b8aa6 (2026-08-07) and later carry the newer page: 200' },
      { other: 'ccxt 4.5.84 binance.js (fapiPrivateV2/V3)', what: 'GET /fapi/v2|v3/account, /balance, /positionRisk weight', ours: '5', theirs: '1', verdict: 'the pages say 5; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (fapiPublicV2)', what: 'GET /fapi/v2/ticker/price weight', ours: '1 / 2 without symbol', theirs: '0', verdict: 'the page; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (fapiPublic)', what: 'GET /fapi/v1/fundingRate and /fundingInfo', ours: '1 on their own 500 per 5 min (and 1 IP weight for fundingRate)', theirs: '1 on the shared weight', verdict: 'the pages: their own 500/5min/IP limit; ccxt does not model it' },
      { other: 'ccxt 4.5.84 binance.js (fapiPrivate)', what: 'POST /fapi/v1/order', ours: '0 IP weight, 1 on each order count', theirs: 'cost 4 on the shared limiter', verdict: 'the page: "0 on IP rate limit"; ccxt stands in for the order counts with weight' },
      { other: 'ccxt 4.5.84 binance.js', what: 'REQUEST_WEIGHT per minute', ours: '2400', theirs: '1200 (rateLimit 50 ms with cost = weight)', verdict: 'the futures FAQ says 2,400/min per IP; ccxt paces at half of it' },
      { other: 'hummingbot binance_perpetual_constants.py', what: 'GET /fapi/v1/exchangeInfo weight', ours: '1', theirs: '40', verdict: 'the page says 1; Hummingbot over-charges' },
      { other: 'hummingbot binance_perpetual_constants.py', what: 'GET /fapi/v1/trades weight', ours: '5', theirs: '1', verdict: 'the page says 5; Hummingbot under-charges' },
      { other: 'hummingbot binance_perpetual_constants.py', what: 'POST /fapi/v1/order IP weight', ours: '0', theirs: '1 (kept "as a conservative margin")', verdict: 'the page says 0; Hummingbot over-charges on purpose' },
      { other: 'hummingbot binance_perpetual_constants.py', what: 'GET /fapi/v1/depth weight', ours: '2 / 5 / 10 / 20 by limit', theirs: '20 flat', verdict: "the page's table; Hummingbot charges its limit=1000 requests correctly and over-charges smaller ones" },
    ],
  },
  notes: [
    'The order limits can be raised per account (the FAQ\'s volume tiers `volume-600m` … `volume-25b`, fill ratio): name the tier in the identity, or read the live values from GET /fapi/v1/rateLimit/order. The fill-ratio additions ("Fill ratio >1%") apply per UID and client, not per account: not modelled.',
    'RAW_REQUEST limits are listed in exchangeInfo but given no number on the pages: not modelled.',
  ],
};
