import type { VenueSpec } from '../venue-spec.js';
import { bitmartBuckets, bitmartEndpoints, bitmartErrors, bitmartFeedback, type BitmartRow } from './bitmart-shared.js';

/*
 * BitMart spot, margin and funding-account REST (`api-cloud.bitmart.com`): every endpoint has its own
 * limit, per IP (public), per API key (X-BM-KEY) or per account (UID), from the "Rate Limit" tables of
 * BitMart's spot API documentation, read 2026-12-01.
 */

const RETRIEVED = '2026-12-01';
const DOCS = 'https://developer-pro.bitmart.com/en/spot/';
const READ = "read in a stored copy of the page taken 2025-11-25 (rosssaunders/coincise@a00ae58, docs/bitmart) and compared with the rate-limit tables of BitMart's own agent skills (bitmartexchange/bitmart-skills@4dac0cb, 2026-03-24, skills/bitmart-exchange-spot/SKILL.md), which list the same limits";

const S2 = 2000;

function row(method: BitmartRow['method'], path: string, name: string, target: BitmartRow['target'], rate: string, limit: number, windowMs: number, more: Partial<Pick<BitmartRow, 'cost' | 'source' | 'note'>> = {}): BitmartRow {
  return { method, path, name, target, rate, limit, windowMs, ...more };
}

const ROWS: readonly BitmartRow[] = [
  // System Interface.
  row('GET', '/system/time', 'Get system time', 'IP', '10 times/sec', 10, 1000),
  row('GET', '/system/service', 'Get system service status', 'IP', '10 times/sec', 10, 1000),
  // Funding Account Interface.
  row('GET', '/account/v1/currencies', 'Get currencies', 'IP', '2 times/2 sec', 2, S2),
  row('GET', '/account/v1/wallet', 'Get account balance', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('GET', '/account/v1/deposit/address', 'Deposit address', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('GET', '/account/v1/withdraw/charge', 'Withdraw quota', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('POST', '/account/v1/withdraw/apply', 'Withdraw', 'X-BM-KEY', '8 times/2 sec', 8, S2),
  row('GET', '/account/v1/withdraw/address/list', 'Withdraw Address', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('GET', '/account/v2/deposit-withdraw/history', 'Get deposit and withdraw history V2', 'X-BM-KEY', '8 times/2 sec', 8, S2),
  row('GET', '/account/v1/deposit-withdraw/detail', 'Get a deposit Or withdraw detail', 'X-BM-KEY', '8 times/2 sec', 8, S2),
  row('GET', '/spot/v1/margin/isolated/account', 'Get Margin Account Details(Isolated)', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('POST', '/spot/v1/margin/isolated/transfer', 'Margin Asset Transfer', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('GET', '/spot/v1/user_fee', 'Basic Fee Rate', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('GET', '/spot/v1/trade_fee', 'Actual Trade Fee Rate', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  // Spot Public Market Interface.
  row('GET', '/spot/v1/currencies', 'Get a list of all cryptocurrencies', 'IP', '8 times/2 sec', 8, S2),
  row('GET', '/spot/v1/symbols', 'Get a list of all trading pairs', 'IP', '8 times/2 sec', 8, S2),
  row('GET', '/spot/v1/symbols/details', 'Get a detailed list of all trading pairs', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/spot/quotation/v3/tickers', 'Get Ticker of All Pairs (V3)', 'IP', '10 times/2 sec', 10, S2),
  row('GET', '/spot/quotation/v3/ticker', 'Get Ticker of a Trading Pair(V3)', 'IP', '15 times/2 sec', 15, S2),
  row('GET', '/spot/quotation/v3/lite-klines', 'Get Latest K-Line (V3)', 'IP', '15 times/2 sec', 15, S2),
  row('GET', '/spot/quotation/v3/klines', 'Get History K-Line (V3)', 'IP', '10 times/2 sec', 10, S2),
  row('GET', '/spot/quotation/v3/books', 'Get Depth(V3)', 'IP', '15 times/2 sec', 15, S2),
  row('GET', '/spot/quotation/v3/trades', 'Get Recent Trades(V3)', 'IP', '15 times/2 sec', 15, S2),
  // Spot Trading Interface.
  row('GET', '/spot/v1/wallet', "Get the user's wallet balance(KEYED)", 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('POST', '/spot/v2/submit_order', 'New Order(v2) (SIGNED)', 'UID', '40 times/2 sec', 40, S2),
  row('POST', '/spot/v4/batch_orders', 'New Batch Order(v4) (SIGNED)', 'UID', '40 times/2 sec', 40, S2, {
    cost: { kind: 'table', param: 'orderParams', measure: 'count', rows: [{ upTo: 10, cost: 1 }] },
    note: 'one request for 1 to 10 orders of one symbol ("orderParams | List | Yes | Order parameters, the number of transactions cannot exceed 10", New Batch Order(v4)); more than 10 is refused here',
  }),
  row('POST', '/spot/v1/margin/submit_order', 'New Margin Order (SIGNED)', 'UID', '20 times/1 sec', 20, 1000),
  row('POST', '/spot/v3/cancel_order', 'Cancel Order(v3) (SIGNED)', 'UID', '40 times/2 sec', 40, S2),
  row('POST', '/spot/v4/cancel_orders', 'Cancel Batch Order(v4) (SIGNED)', 'UID', '40 times/2 sec', 40, S2, { note: 'one request for up to 10 order ids (orderIds or clientOrderIds)' }),
  row('POST', '/spot/v4/cancel_all', 'Cancel All Order(v4) (SIGNED)', 'UID', '1 times/3 sec', 1, 3000),
  row('POST', '/spot/v4/query/order', 'Query Order By Id(v4) (SIGNED)', 'X-BM-KEY', '50 times/2 sec', 50, S2),
  row('POST', '/spot/v4/query/client-order', 'Query Order By clientOrderId(v4) (SIGNED)', 'X-BM-KEY', '50 times/2 sec', 50, S2),
  row('POST', '/spot/v4/query/open-orders', 'Current Open Orders(v4) (SIGNED)', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('POST', '/spot/v4/query/history-orders', 'Account Orders(v4) (SIGNED)', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('POST', '/spot/v4/query/trades', 'Account Trade List(v4) (SIGNED)', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('POST', '/spot/v4/query/order-trades', 'Order Trade List(v4) (SIGNED)', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  // Sub-Account Interface.
  row('POST', '/account/sub-account/main/v1/sub-to-main', 'Sub-Account Spot Asset Transfer (For Main Account)', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('POST', '/account/sub-account/sub/v1/sub-to-main', 'Sub-Account Spot Asset Transfer (For Sub-Account)', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('POST', '/account/sub-account/main/v1/main-to-sub', 'Main Account Spot Asset Transfer (For Main Account)', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('POST', '/account/sub-account/sub/v1/sub-to-sub', 'Sub-Account to Sub-Account Spot Asset Transfer (For Sub-Account)', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('POST', '/account/sub-account/main/v1/sub-to-sub', 'Sub-account to Sub-Account Spot Asset Transfer (For Main Account)', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('GET', '/account/sub-account/main/v1/transfer-list', 'Query Sub-account Spot Asset Transfer History (For Main Account)', 'X-BM-KEY', '8 times/2 sec', 8, S2),
  row('GET', '/account/sub-account/v1/transfer-history', 'Get Account Spot Asset Transfer History', 'X-BM-KEY', '8 times/2 sec', 8, S2),
  row('GET', '/account/sub-account/main/v1/wallet', 'Get Sub-Account Spot Wallet Balance (For Main Account)', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('GET', '/account/sub-account/main/v1/subaccount-list', 'Get Sub-account List (For Main Account)', 'X-BM-KEY', '8 times/2 sec', 8, S2),
  // Margin Loan Interface.
  row('POST', '/spot/v1/margin/isolated/borrow', 'Margin Borrow (Isolated)', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('POST', '/spot/v1/margin/isolated/repay', 'Margin Repay (Isolated)', 'X-BM-KEY', '2 times/2 sec', 2, S2),
  row('GET', '/spot/v1/margin/isolated/borrow_record', 'Get Borrow Record(Isolated)', 'X-BM-KEY', '150 times/2 sec', 150, S2),
  row('GET', '/spot/v1/margin/isolated/repay_record', 'Get Repayment Record(Isolated)', 'X-BM-KEY', '150 times/2 sec', 150, S2),
  row('GET', '/spot/v1/margin/isolated/pairs', 'Get Trading Pair Borrowing Rate and Amount', 'X-BM-KEY', '2 times/2 sec', 2, S2),
];

const BUCKETS = bitmartBuckets(ROWS);

/** BitMart spot REST (`api-cloud.bitmart.com`): spot, isolated margin, funding account, sub-accounts. */
export const bitmartSpot: VenueSpec = {
  id: 'bitmart-spot',
  venue: 'BitMart',
  product: 'spot REST API (spot, isolated margin, funding account, sub-accounts)',
  markets: ['spot', 'margin', 'wallet'],
  origin: 'hand-authored',
  ccxtIds: ['bitmart'],
  sources: {
    limits: { url: `${DOCS}#rate-limit`, retrieved: RETRIEVED, note: `"Rate Limit" tables and the X-BM-RateLimit headers; ${READ}` },
    errors: { url: `${DOCS}#error-code`, retrieved: RETRIEVED, note: `"Restful Error Code" ("Authentication Error Code" table); ${READ}` },
  },
  buckets: BUCKETS,
  endpoints: bitmartEndpoints(ROWS),
  feedback: bitmartFeedback(BUCKETS),
  errors: bitmartErrors(3000),
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      // ccxt's bitmart: rateLimit 33.34 ms, "150 per 5 seconds = 30 per second"; an endpoint of cost c runs at 30/c per s.
      {
        other: 'ccxt bitmart.ts (ccxt/ccxt@0020944; ccxt 4.5.84 no longer ships bitmart)',
        what: 'POST /spot/v4/query/order, /query/client-order',
        ours: '50 per 2 s per key',
        theirs: 'cost 1 ("60 times/2 sec"): 30 per s',
        verdict: 'ccxt follows an older table (60 per 2 s); BitMart now states 50 per 2 s: ccxt admits more',
      },
      { other: 'ccxt bitmart.ts (ccxt/ccxt@0020944)', what: 'POST /spot/v2/submit_order, /spot/v3/cancel_order', ours: '40 per 2 s per account', theirs: 'cost 1: 30 per s from one pool', verdict: 'ccxt admits 60 per 2 s on one endpoint; BitMart states 40 per 2 s' },
      { other: 'ccxt bitmart.ts (ccxt/ccxt@0020944)', what: 'GET /spot/quotation/v3/books, /ticker, /trades', ours: '15 per 2 s per IP', theirs: 'cost 4: 7.5 per s', verdict: 'agree' },
      { other: 'ccxt bitmart.ts (ccxt/ccxt@0020944)', what: 'GET /spot/v1/margin/isolated/borrow_record, /repay_record', ours: '150 per 2 s per key', theirs: 'cost 1: 30 per s', verdict: 'ccxt is stricter' },
      { other: 'hummingbot bitmart/bitmart_constants.py', what: 'POST /spot/v2/submit_order, /spot/v3/cancel_order', ours: '40 per 2 s', theirs: '150 per 5 s', verdict: 'Hummingbot may send all 150 within 2 s; BitMart states 40 per 2 s' },
      { other: 'hummingbot bitmart/bitmart_constants.py', what: 'POST /spot/v4/query/order', ours: '50 per 2 s', theirs: '150 per 5 s', verdict: 'Hummingbot may send all 150 within 2 s; BitMart states 50 per 2 s' },
      { other: 'hummingbot bitmart/bitmart_constants.py', what: 'GET /spot/quotation/v3/books, /ticker, /spot/v1/symbols/details', ours: '15, 15 and 12 per 2 s', theirs: '30 per 5 s', verdict: 'slower on average, but Hummingbot may send all 30 within 2 s; BitMart states 15 (12) per 2 s' },
      { other: 'hummingbot bitmart/bitmart_constants.py', what: 'POST /spot/v4/query/order-trades, GET /spot/v1/wallet', ours: '12 per 2 s', theirs: '30 per 5 s', verdict: 'Hummingbot may send all 30 within 2 s; BitMart states 12 per 2 s' },
      { other: 'bitmartexchange/bitmart-skills@4dac0cb SKILL.md (BitMart, 2026-03-24)', what: 'every limit of the spot tables', ours: 'the 2025-11-25 tables', theirs: 'the same numbers', verdict: 'agree: the limits have not changed since the stored page' },
    ],
  },
  notes: [
    "Each endpoint has its own budget: the bucket keys carry the endpoint (`ip-15-per-2s:GET /spot/quotation/v3/books`). Limits per API key (X-BM-KEY) count each key on its own; limits per UID count every key of the account together: pass the account's `uid` in the identity.",
    "X-BM-RateLimit-Remaining is documented as the number of requests already used (not what is left), and X-BM-RateLimit-Reset as the window's length: they are read that way.",
    "Endpoints not in BitMart's tables are refused by the limiter rather than guessed: BitMart documents no default. Futures (`api-cloud-v2.bitmart.com`) are `bitmart-futures`.",
  ],
};
