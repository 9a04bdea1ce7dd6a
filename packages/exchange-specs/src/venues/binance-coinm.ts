import type { CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';
import { binancePricedElsewhere } from './binance-paths.js';

/** How the endpoint pages were read. */
const PAGES_AT =
  "the weights as the page states them, read in the text of Binance's official SDK generated from it (binance/binance-connector-python, commit 29da329, 2026-08-21); parameters (defaults, list lengths) from a verbatim copy of the page made in November 2025 (rosssaunders/coincise, docs/binance/coinm/endpoints)";

const GENERAL_AT = 'read from a verbatim copy of the page made on 2025-11-24 (rosssaunders/coincise, docs/binance/coinm/rate_limits.md and error_codes.md)';

function doc(source: string, quote: string): Provenance {
  return { source, confidence: 'documented', quote };
}

function uncertain(source: string, quote: string): Provenance {
  return { source, confidence: 'uncertain', quote };
}

const weight = (value: number): CostRule => ({ bucket: 'request_weight', cost: { kind: 'constant', value } });
const bySymbol = (present: number, absent: number): CostRule => ({ bucket: 'request_weight', cost: { kind: 'presence', param: 'symbol', present, absent } });

/** An order count the pages do not state, charged on the safe side (see the endpoint's note). */
const ordersUncertain = (value: number, quote: string): CostRule => ({ bucket: 'orders_1m', cost: { kind: 'constant', value }, provenance: uncertain('trade', quote) });

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
const KLINE_QUOTE = 'Weight: Based on parameter `LIMIT` LIMIT | weight; [1,100) | 1; [100, 500) | 2; [500, 1000] | 5; > 1000 | 10 … limit | INT | NO | Default 500; max 1500.';

function ep(id: string, method: EndpointSpec['method'], path: string, auth: 'public' | 'private', costs: readonly CostRule[], source: string, quote: string, note?: string): EndpointSpec {
  return { id, method, path, auth, costs, provenance: doc(source, quote), ...(note === undefined ? {} : { note }) };
}

const MODIFY_QUOTE = 'Modify Order (TRADE) … Weight(IP): 1';

/** Binance COIN-M futures REST (`dapi.binance.com`): coin-margined perpetual and delivery futures. */
export const binanceCoinm: VenueSpec = {
  id: 'binance-coinm',
  venue: 'Binance',
  product: 'COIN-M futures REST API (/dapi)',
  markets: ['perpetual', 'delivery'],
  origin: 'hand-authored',
  ccxtIds: ['binancecoinm'],
  sources: {
    general: { url: 'https://developers.binance.com/docs/derivatives/coin-margined-futures/general-info', retrieved: '2026-12-01', note: GENERAL_AT },
    errors: { url: 'https://developers.binance.com/docs/derivatives/coin-margined-futures/error-code', retrieved: '2026-12-01', note: GENERAL_AT },
    limitsFaq: {
      url: 'https://www.binance.com/en/support/faq/rate-limits-on-binance-futures-281596e222414cdd9051664ea621cdc3',
      retrieved: '2026-12-01',
      note: 'Binance support FAQ "Rate Limits on Binance Futures" (last updated 27 December 2024), for USDⓈ-M and COIN-M futures; read from a stored copy. The developers pages give no number for these limits',
    },
    apiFaq: {
      url: 'https://www.binance.com/en/support/faq/detail/360004492232',
      retrieved: '2026-12-01',
      note: 'Binance support FAQ "Frequently Asked Questions on API" (last updated 15 November 2024); the nearest statement of a WAF ban\'s length',
    },
    market: { url: 'https://developers.binance.com/en/docs/catalog/core-trading-derivatives-trading-coin-m-futures/api/rest-api/market-data', retrieved: '2026-12-01', note: PAGES_AT },
    trade: { url: 'https://developers.binance.com/en/docs/catalog/core-trading-derivatives-trading-coin-m-futures/api/rest-api/trade', retrieved: '2026-12-01', note: PAGES_AT },
    account: { url: 'https://developers.binance.com/en/docs/catalog/core-trading-derivatives-trading-coin-m-futures/api/rest-api/account', retrieved: '2026-12-01', note: PAGES_AT },
    userStream: { url: 'https://developers.binance.com/en/docs/catalog/core-trading-derivatives-trading-coin-m-futures/api/rest-api/user-data-streams', retrieved: '2026-12-01', note: PAGES_AT },
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
        'REQUEST_WEIGHT per IP ("The limits on the API are based on the IPs, not the API keys.", general info), counted apart from USDⓈ-M futures: Binance keeps an IP\'s futures limit per product type (GET /sapi/v1/vip/vip-portal/futures/rate-limits/ips takes productType CM or UM, https://developers.binance.com/docs/vip_services/Query-Futures-IP-Rate-Limits). How the minute is aligned is not documented; the clock-aligned minute of the spot API is assumed',
    },
    {
      id: 'orders_1m',
      scope: 'uid',
      algorithm: 'fixed-window-aligned',
      limit: 1200,
      windowMs: 60_000,
      provenance: { source: 'limitsFaq', confidence: 'observed', quote: 'The default rate limit per IP is 2,400/min, and the default order limit per account/sub-account is 1,200/min.' },
      description: 'ORDERS per account per minute ("The order rate limit is counted against each account.", general info). The FAQ\'s additional 10-second limit is "applicable to USDⓈ-M Futures" only. Higher limits are set per account: read them from GET /dapi/v1/exchangeInfo',
    },
  ],
  endpoints: [
    ep('ping', 'GET', '/dapi/v1/ping', 'public', [weight(1)], 'market', 'Test Connectivity … Weight(IP): 1'),
    ep('time', 'GET', '/dapi/v1/time', 'public', [weight(1)], 'market', 'Check Server time … Weight(IP): 1'),
    ep('exchangeInfo', 'GET', '/dapi/v1/exchangeInfo', 'public', [weight(1)], 'market', 'Exchange Information … Weight(IP): 1'),
    ep(
      'depth',
      'GET',
      '/dapi/v1/depth',
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
      'Order Book … Weight: Adjusted based on the limit: Limit | Weight; 5, 10, 20, 50 | 2; 100 | 5; 500 | 10; 1000 | 20 … limit | INT | NO | Default 500; Valid limits:[5, 10, 20, 50, 100, 500, 1000]',
      'a limit between the valid values is charged as the next valid one; above 1000 is refused',
    ),
    ep('trades', 'GET', '/dapi/v1/trades', 'public', [weight(5)], 'market', 'Recent Trades List … Weight(IP): 5'),
    ep('historicalTrades', 'GET', '/dapi/v1/historicalTrades', 'private', [weight(200)], 'market', 'Old Trades Lookup (MARKET_DATA) … Weight(IP): 200', 'MARKET_DATA: an API key is sent; the weight is per IP. The page said 20 until August 2026'),
    ep('aggTrades', 'GET', '/dapi/v1/aggTrades', 'public', [weight(20)], 'market', 'Compressed/Aggregate Trades List … Weight(IP): 20'),
    ep('klines', 'GET', '/dapi/v1/klines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('continuousKlines', 'GET', '/dapi/v1/continuousKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('indexPriceKlines', 'GET', '/dapi/v1/indexPriceKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('markPriceKlines', 'GET', '/dapi/v1/markPriceKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('premiumIndexKlines', 'GET', '/dapi/v1/premiumIndexKlines', 'public', [KLINE_WEIGHT], 'market', KLINE_QUOTE),
    ep('premiumIndex', 'GET', '/dapi/v1/premiumIndex', 'public', [weight(10)], 'market', 'Index Price and Mark Price … Weight(IP): 10'),
    ep('fundingRate', 'GET', '/dapi/v1/fundingRate', 'public', [weight(1)], 'market', 'Get Funding Rate History of Perpetual Futures … Weight(IP): 1'),
    ep('openInterest', 'GET', '/dapi/v1/openInterest', 'public', [weight(1)], 'market', 'Open Interest … Weight(IP): 1'),
    ep('constituents', 'GET', '/dapi/v1/constituents', 'public', [weight(1)], 'market', 'Query Index Price Constituents … Weight(IP): 1'),
    ep('ticker24hr', 'GET', '/dapi/v1/ticker/24hr', 'public', [bySymbol(1, 40)], 'market', '24hr Ticker Price Change Statistics … Weight: 1 for a single symbol, 40 when the symbol parameter is omitted'),
    ep('tickerPrice', 'GET', '/dapi/v1/ticker/price', 'public', [bySymbol(1, 2)], 'market', 'Symbol Price Ticker … Weight: 1 for a single symbol, 2 when the symbol parameter is omitted'),
    ep('bookTicker', 'GET', '/dapi/v1/ticker/bookTicker', 'public', [bySymbol(2, 5)], 'market', 'Symbol Order Book Ticker … Weight: 2 for a single symbol, 5 when the symbol parameter is omitted'),
    ep('basis', 'GET', '/futures/data/basis', 'public', [weight(1)], 'market', 'Basis … Weight(IP): 1'),
    ep('openInterestHist', 'GET', '/futures/data/openInterestHist', 'public', [weight(1)], 'market', 'Open Interest Statistics … Weight(IP): 1'),
    ep('topLongShortAccountRatio', 'GET', '/futures/data/topLongShortAccountRatio', 'public', [weight(1)], 'market', 'Top Trader Long/Short Account Ratio … Weight(IP): 1'),
    ep('topLongShortPositionRatio', 'GET', '/futures/data/topLongShortPositionRatio', 'public', [weight(1)], 'market', 'Top Trader Long/Short Position Ratio … Weight(IP): 1'),
    ep('globalLongShortAccountRatio', 'GET', '/futures/data/globalLongShortAccountRatio', 'public', [weight(1)], 'market', 'Long/Short Ratio … Weight(IP): 1'),
    ep('takerBuySellVol', 'GET', '/futures/data/takerBuySellVol', 'public', [weight(1)], 'market', 'Taker Buy/Sell Volume … Weight(IP): 1'),
    ep('newOrder', 'POST', '/dapi/v1/order', 'private', [{ bucket: 'orders_1m', cost: { kind: 'constant', value: 1 } }], 'trade', 'New Order (TRADE) … Weight: 1 on 1min order rate limit(X-MBX-ORDER-COUNT-1M) 0 on IP rate limit(x-mbx-used-weight-1m)'),
    ep(
      'batchOrders',
      'POST',
      '/dapi/v1/batchOrders',
      'private',
      [weight(5), ordersUncertain(5, 'Place Multiple Orders (TRADE) … Weight(IP): 5 … batchOrders | LIST<JSON> | YES | order list. Max 5 orders')],
      'trade',
      'Place Multiple Orders (TRADE) … Weight(IP): 5 … batchOrders | LIST<JSON> | YES | order list. Max 5 orders',
      "the page states no order count for a batch: 5 (its most orders) is charged on the account's minute limit, the safe side",
    ),
    ep('modifyOrder', 'PUT', '/dapi/v1/order', 'private', [weight(1), ordersUncertain(1, MODIFY_QUOTE)], 'trade', MODIFY_QUOTE, 'the page states only the IP weight; USDⓈ-M counts a modification on its order limits, so 1 order is charged too (the safe side)'),
    ep(
      'modifyBatchOrders',
      'PUT',
      '/dapi/v1/batchOrders',
      'private',
      [weight(5), ordersUncertain(5, 'Modify Multiple Orders (TRADE) … Weight(IP): 5 … batchOrders | list<JSON> | YES | order list. Max 5 orders')],
      'trade',
      'Modify Multiple Orders (TRADE) … Weight(IP): 5 … batchOrders | list<JSON> | YES | order list. Max 5 orders',
      'as for a single modification, 5 orders are charged too (the safe side)',
    ),
    ep('cancelOrder', 'DELETE', '/dapi/v1/order', 'private', [weight(1)], 'trade', 'Cancel Order (TRADE) … Weight(IP): 1'),
    ep('cancelBatch', 'DELETE', '/dapi/v1/batchOrders', 'private', [weight(1)], 'trade', 'Cancel Multiple Orders (TRADE) … Weight(IP): 1'),
    ep('cancelAll', 'DELETE', '/dapi/v1/allOpenOrders', 'private', [weight(1)], 'trade', 'Cancel All Open Orders (TRADE) … Weight(IP): 1'),
    ep('countdownCancelAll', 'POST', '/dapi/v1/countdownCancelAll', 'private', [weight(10)], 'trade', 'Auto-Cancel All Open Orders (TRADE) … Weight(IP): 10'),
    ep('queryOrder', 'GET', '/dapi/v1/order', 'private', [weight(1)], 'trade', 'Query Order (USER_DATA) … Weight(IP): 1'),
    ep('openOrder', 'GET', '/dapi/v1/openOrder', 'private', [weight(1)], 'trade', 'Query Current Open Order (USER_DATA) … Weight(IP): 1'),
    ep('openOrders', 'GET', '/dapi/v1/openOrders', 'private', [bySymbol(1, 40)], 'trade', 'Current All Open Orders (USER_DATA) … Weight: 1 for a single symbol, 40 for mutltiple symbols'),
    ep('allOrders', 'GET', '/dapi/v1/allOrders', 'private', [bySymbol(20, 40)], 'trade', 'All Orders (USER_DATA) … Weight: 20 with symbol, 40 with pair (after CM migration: 5 flat)', 'either symbol or pair is sent: without symbol (with pair) 40; the 5 announced "after CM migration" is not in force yet'),
    ep('userTrades', 'GET', '/dapi/v1/userTrades', 'private', [bySymbol(20, 40)], 'trade', 'Account Trade List (USER_DATA) … Weight: 20 with symbol，40 with pair (after CM migration: 5 flat)', 'either symbol or pair is sent: without symbol (with pair) 40'),
    {
      ...ep(
        'forceOrders',
        'GET',
        '/dapi/v1/forceOrders',
        'private',
        [bySymbol(20, 50)],
        'trade',
        "User's Force Orders (USER_DATA) … Weight: 20 (after CM migration: 20 with symbol / 50 without symbol)",
        'the page charges 20 now and 50 without symbol after the migration: 50 without symbol is charged already (the safe side)',
      ),
      provenance: uncertain('trade', "User's Force Orders (USER_DATA) … Weight: 20 (after CM migration: 20 with symbol / 50 without symbol)"),
    },
    ep('positionRisk', 'GET', '/dapi/v1/positionRisk', 'private', [weight(1)], 'trade', 'Position Information (USER_DATA) … Weight(IP): 1'),
    ep('adlQuantile', 'GET', '/dapi/v1/adlQuantile', 'private', [weight(5)], 'trade', 'Position ADL Quantile Estimation (USER_DATA) … Weight(IP): 5'),
    ep('orderAmendment', 'GET', '/dapi/v1/orderAmendment', 'private', [weight(1)], 'trade', 'Get Order Modify History (USER_DATA) … Weight(IP): 1'),
    ep('positionMargin', 'POST', '/dapi/v1/positionMargin', 'private', [weight(1)], 'trade', 'Modify Isolated Position Margin (TRADE) … Weight(IP): 1'),
    ep('positionMarginHistory', 'GET', '/dapi/v1/positionMargin/history', 'private', [weight(1)], 'trade', 'Get Position Margin Change History (TRADE) … Weight(IP): 1'),
    ep('leverage', 'POST', '/dapi/v1/leverage', 'private', [weight(1)], 'trade', 'Change Initial Leverage (TRADE) … Weight(IP): 1'),
    ep('marginType', 'POST', '/dapi/v1/marginType', 'private', [weight(1)], 'trade', 'Change Margin Type (TRADE) … Weight(IP): 1'),
    ep('setPositionMode', 'POST', '/dapi/v1/positionSide/dual', 'private', [weight(1)], 'trade', 'Change Position Mode (TRADE) … Weight(IP): 1'),
    ep('positionMode', 'GET', '/dapi/v1/positionSide/dual', 'private', [weight(30)], 'account', 'Get Current Position Mode (USER_DATA) … Weight(IP): 30'),
    ep('account', 'GET', '/dapi/v1/account', 'private', [weight(5)], 'account', 'Account Information (USER_DATA) … Weight(IP): 5'),
    ep('balance', 'GET', '/dapi/v1/balance', 'private', [weight(1)], 'account', 'Futures Account Balance (USER_DATA) … Weight(IP): 1'),
    ep('income', 'GET', '/dapi/v1/income', 'private', [weight(20)], 'account', 'Get Income History (USER_DATA) … Weight(IP): 20'),
    ep('commissionRate', 'GET', '/dapi/v1/commissionRate', 'private', [weight(20)], 'account', 'User Commission Rate (USER_DATA) … Weight(IP): 20'),
    ep('leverageBracket', 'GET', '/dapi/v1/leverageBracket', 'private', [weight(1)], 'account', 'Notional Bracket for Pair (USER_DATA) … Weight(IP): 1'),
    {
      ...ep(
        'leverageBracketV2',
        'GET',
        '/dapi/v2/leverageBracket',
        'private',
        [bySymbol(1, 2)],
        'account',
        'Notional Bracket for Symbol (USER_DATA) … Weight: 1 (after CM migration: 1 with `symbol` / 2 without `symbol`)',
        'the page charges 1 now and 2 without symbol after the migration: 2 without symbol is charged already (the safe side)',
      ),
      provenance: uncertain('account', 'Notional Bracket for Symbol (USER_DATA) … Weight: 1 (after CM migration: 1 with `symbol` / 2 without `symbol`)'),
    },
    ep('listenKeyStart', 'POST', '/dapi/v1/listenKey', 'private', [weight(1)], 'userStream', 'Start User Data Stream (USER_STREAM) … Weight(IP): 1'),
    ep('listenKeyKeepalive', 'PUT', '/dapi/v1/listenKey', 'private', [weight(1)], 'userStream', 'Keepalive User Data Stream (USER_STREAM) … Weight(IP): 1'),
    ep('listenKeyClose', 'DELETE', '/dapi/v1/listenKey', 'private', [weight(1)], 'userStream', 'Close User Data Stream (USER_STREAM) … Weight(IP): 1'),
  ],
  feedback: [
    {
      header: 'x-mbx-used-weight-1m',
      meaning: 'used',
      buckets: ['request_weight'],
      provenance: doc('general', 'Every request will contain X-MBX-USED-WEIGHT-(intervalNum)(intervalLetter) in the response headers which has the current used weight for the IP for all request rate limiters defined.'),
    },
    {
      header: 'x-mbx-order-count-1m',
      meaning: 'used',
      buckets: ['orders_1m'],
      provenance: doc('general', 'Every order response will contain a X-MBX-ORDER-COUNT-(intervalNum)(intervalLetter) header which has the current order count for the account for all order rate limiters defined.'),
    },
  ],
  errors: [
    {
      id: 'ip-ban',
      status: [418],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 120_000 },
      ],
      provenance: doc('general', 'Repeatedly violating rate limits and/or failing to back off after receiving 429s will result in an automated IP ban (HTTP status 418). IP bans are tracked and scale in duration for repeat offenders, from 2 minutes to 3 days.'),
      note: 'the COIN-M pages do not mention Retry-After; it is read when present, else the documented minimum of 2 minutes is held',
    },
    {
      id: 'too-many-orders',
      status: [429],
      body: [{ path: 'code', equals: [-1015] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['orders_1m'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 60_000 },
      ],
      provenance: {
        ...doc('errors', '-1015 TOO_MANY_ORDERS Too many new orders. Too many new orders; current limit is %s orders per %s.'),
        deviations: [{ value: 60000, reason: 'conservative', text: 'Binance states no wait: without Retry-After the account\'s orders are held one whole minute, the order interval ("the default order limit per account/sub-account is 1,200/min")' }],
      },
      note: "without Retry-After the account's orders are held one whole minute, the order interval (how it is aligned is not documented)",
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
      provenance: {
        ...doc('general', "A 429 will be returned when either rate limit is violated. … When a 429 is received, it's your obligation as an API to back off and not spam the API."),
        deviations: [{ value: 60000, reason: 'conservative', text: 'The quote says to back off, with no duration: without Retry-After the IP weight is held one whole minute, the weight interval ("The default rate limit per IP is 2,400/min")' }],
      },
      note: 'without Retry-After the IP weight is held one whole minute, the weight interval',
    },
    {
      id: 'waf',
      status: [403],
      verdict: 'banned',
      counted: true,
      penalize: ['request_weight'],
      wait: [
        { from: 'header', header: 'retry-after', unit: 's' },
        { from: 'fixed', ms: 300_000 },
      ],
      provenance: { source: 'apiFaq', confidence: 'uncertain', quote: "Web Application Firewall limitations will only be applied by IP. Usually, a WAF ban will have a duration of 5 minutes. However, if the server has interpreted a user's request as malicious, it may be extended." },
      note: 'the general info: "HTTP 403 return code is used when the WAF Limit (Web Application Firewall) has been violated." It gives no duration; the Binance API FAQ\'s usual 5 minutes is held',
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
  ],
  pricedElsewhere: binancePricedElsewhere('binance-coinm'),
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      { other: 'ccxt 4.5.84 binance.js (dapiPublic)', what: 'GET /dapi/v1/historicalTrades weight', ours: '200', theirs: '20', verdict: 'the page says 200 since August 2026 (20 before, as in binance-connector-js of 2026-07-24); ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (dapiPrivate)', what: 'GET /dapi/v1/openOrders weight without symbol', ours: '40', theirs: '5', verdict: 'the page: 1 for a single symbol, 40 for multiple; ccxt under-charges' },
      { other: 'ccxt 4.5.84 binance.js (dapiPrivate)', what: 'GET /dapi/v1/allOrders and /userTrades weight', ours: '20 with symbol, 40 with pair', theirs: '5', verdict: 'the page: 20 / 40 until the announced migration (then 5 flat); ccxt already charges the post-migration 5 and under-charges now' },
      { other: 'ccxt 4.5.84 binance.js (dapiPrivate)', what: 'POST /dapi/v1/order', ours: "0 IP weight, 1 on the account's minute order count", theirs: 'cost 4 on the shared limiter', verdict: 'the page: "0 on IP rate limit"; ccxt stands in for the order count with weight' },
      { other: 'ccxt 4.5.84 binance.js (dapiPrivate)', what: 'DELETE /dapi/v1/batchOrders weight', ours: '1', theirs: '5', verdict: 'the page says Weight(IP): 1; ccxt over-charges' },
      { other: 'ccxt 4.5.84 binance.js (dapiPublic, dapiPrivate)', what: 'GET /dapi/v1/constituents and /leverageBracket weight', ours: '1 and 1', theirs: '2 and 2', verdict: 'the pages say Weight(IP): 1; ccxt over-charges' },
      { other: 'ccxt 4.5.84 binancecoinm', what: 'REQUEST_WEIGHT per minute', ours: '2400', theirs: '1200 (rateLimit 50 ms with cost = weight)', verdict: 'the futures FAQ says 2,400/min per IP; ccxt paces at half of it' },
      { other: 'binance-connector-js a9de9a9 (2026-07-24)', what: 'GET /dapi/v1/historicalTrades weight', ours: '200', theirs: '20', verdict: 'binance-connector-python 29da329 (2026-08-21), generated from the newer page, says 200' },
    ],
  },
  notes: [
    "The order limit can be raised per account (VIP tiers, fill ratio; the futures FAQ's table): read the live values from GET /dapi/v1/exchangeInfo.",
    'Endpoints not listed (fundingInfo, whose page states no weight; the history downloads of 1000 weight, two a minute) are refused (unknown_endpoint), never priced at a guessed weight.',
    'Hummingbot ships no Binance COIN-M connector: nothing to compare.',
  ],
};
