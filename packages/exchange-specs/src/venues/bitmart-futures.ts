import type { VenueSpec } from '../venue-spec.js';
import { bitmartBuckets, bitmartEndpoints, bitmartErrors, bitmartFeedback, type BitmartRow } from './bitmart-shared.js';

/*
 * BitMart futures V2 REST (`api-cloud-v2.bitmart.com`): every endpoint has its own limit, per IP
 * (public), per API key (X-BM-KEY) or per account (UID), from the "Rate Limit" tables of BitMart's
 * futures V2 documentation, read 2026-12-01. The rate cells are quoted as printed ("2 esc" is
 * BitMart's typo for "2 sec").
 */

const RETRIEVED = '2026-12-01';
const DOCS = 'https://developer-pro.bitmart.com/en/futuresv2/';
const READ =
  "read in a stored copy of the page taken 2025-11-25 (rosssaunders/coincise@a00ae58, docs/bitmart/endpoints/private/GET_rate_limit.md) and compared with the rate-limit tables of BitMart's own agent skills (bitmartexchange/bitmart-skills@4dac0cb, 2026-03-24, skills/bitmart-exchange-futures/SKILL.md), which list the same limits";

const S2 = 2000;

function row(method: BitmartRow['method'], path: string, name: string, target: BitmartRow['target'], rate: string, limit: number, windowMs: number, more: Partial<Pick<BitmartRow, 'cost' | 'source' | 'note'>> = {}): BitmartRow {
  return { method, path, name, target, rate, limit, windowMs, ...more };
}

const ROWS: readonly BitmartRow[] = [
  // Futures Market Endpoints.
  row('GET', '/contract/public/details', 'Get a detailed list of all trading pairs', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/contract/public/depth', 'Get full depth of trading pairs', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/contract/public/open-interest', 'Get Contract Open Interest', 'IP', '2 times/2 sec', 2, S2),
  row('GET', '/contract/public/funding-rate', 'Get Current Funding Rate', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/contract/public/funding-rate-history', 'Get history Funding Rate', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/contract/public/kline', 'Get K-line', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/contract/public/markprice-kline', 'Get Mark Price K-line', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/contract/public/leverage-bracket', 'Get Contract Leverage Risk Limit', 'IP', '12 times/2 sec', 12, S2),
  row('GET', '/contract/public/market-trade', 'Get Market Trade', 'IP', '12 times/2 sec', 12, S2),
  // The system endpoints, listed in BitMart's futures skill table (the futures page's table does not name them).
  row('GET', '/system/time', '`GET /system/time`', 'IP', '10/sec', 10, 1000, { source: 'skills' }),
  row('GET', '/system/service', '`GET /system/service`', 'IP', '10/sec', 10, 1000, { source: 'skills' }),
  // Futures Trade Endpoints.
  row('POST', '/contract/private/submit-order', 'Submit Contract Order', 'X-BM-KEY', '24 times/2 sec', 24, S2),
  row('POST', '/contract/private/cancel-order', 'Cancel Contract Order', 'X-BM-KEY', '40 times/2 sec', 40, S2),
  row('POST', '/contract/private/cancel-orders', 'Batch Cancel Contract Orders', 'X-BM-KEY', '2 times/2 sec', 2, S2, { note: 'cancels every order of one symbol' }),
  row('POST', '/contract/private/submit-plan-order', 'Submit Contract Plan Order', 'UID', '24 times/2 sec', 24, S2),
  row('POST', '/contract/private/cancel-plan-order', 'Cancel Contract Plan Order', 'UID', '40 times/2 sec', 40, S2),
  row('POST', '/contract/private/submit-tp-sl-order', 'Submit Contract TP or SL order', 'UID', '24 times/2 esc', 24, S2),
  row('POST', '/contract/private/modify-plan-order', 'Modify Contract Plan Order', 'UID', '24 times/2 esc', 24, S2),
  row('POST', '/contract/private/modify-preset-plan-order', 'Modify Contract Preset Plan Order', 'UID', '24 times/2 esc', 24, S2),
  row('POST', '/contract/private/modify-tp-sl-order', 'Modify Contract TP or SL Order', 'UID', '24 times/2 esc', 24, S2),
  row('POST', '/contract/private/modify-limit-order', 'Modify Contract Limit Order', 'UID', '24 times/2 esc', 24, S2),
  row('POST', '/contract/private/cancel-all-after', 'Timed cancel all open orders', 'UID', '4 times/2 esc', 4, S2),
  row('POST', '/contract/private/submit-trail-order', 'Submit Trail Order', 'UID', '24 times/2 esc', 24, S2),
  row('POST', '/contract/private/cancel-trail-order', 'Cancel Trail Order', 'UID', '24 times/2 esc', 24, S2),
  row('POST', '/contract/private/set-position-mode', 'Set position mode', 'X-BM-KEY', '2 times/2 esc', 2, S2),
  row('GET', '/contract/private/get-position-mode', 'Get position mode', 'X-BM-KEY', '2 times/2 esc', 2, S2),
  row('GET', '/contract/private/get-open-orders', 'Get Contract All Open Orders', 'X-BM-KEY', '50 times/2 sec', 50, S2),
  row('GET', '/contract/private/order', 'Get Contract Order Detail', 'X-BM-KEY', '50 times/2 sec', 50, S2),
  row('GET', '/contract/private/order-history', 'Get Contract Order History', 'X-BM-KEY', '6 times/2 sec', 6, S2),
  row('GET', '/contract/private/trades', 'Get Contract Order Trade Detail', 'X-BM-KEY', '6 times/2 sec', 6, S2),
  row('GET', '/contract/private/transaction-history', 'Get Transaction History', 'X-BM-KEY', '6 times/2 sec', 6, S2),
  row('GET', '/contract/private/assets-detail', 'Get Contract Assets Detail', 'X-BM-KEY', '12 times/2 sec', 12, S2),
  row('GET', '/contract/private/position', 'Get Current Position Detail', 'X-BM-KEY', '6 times/2 sec', 6, S2),
  row('GET', '/contract/private/position-v2', 'Get Current Position Detail V2', 'X-BM-KEY', '6 times/2 sec', 6, S2),
  row('POST', '/contract/private/submit-leverage', 'Submit Contract Leverage', 'X-BM-KEY', '24 times/2 sec', 24, S2),
  row('POST', '/account/v1/transfer-contract', 'Transfer', 'X-BM-KEY', '1 times/2 sec', 1, S2),
  row('POST', '/account/v1/transfer-contract-list', 'Get Transfer List', 'X-BM-KEY', '1 times/2 sec', 1, S2),
  row('GET', '/contract/private/current-plan-order', 'Get Contract All Current Plan Orders', 'X-BM-KEY', '50 times/2 sec', 50, S2),
  row('GET', '/contract/private/position-risk', 'Get Position Risk Info', 'X-BM-KEY', '24 times/2 sec', 24, S2),
  row('GET', '/contract/private/trade-fee-rate', 'Get Trade Fee Rate', 'X-BM-KEY', '2 times/2 esc', 2, S2),
  // Sub-Account Endpoints (futures accounts).
  row('POST', '/account/contract/sub-account/main/v1/sub-to-main', 'Sub-Account Transfer to Main-Account (For Main Account, ues futures account)', 'X-BM-KEY', '8 times/2s', 8, S2),
  row('POST', '/account/contract/sub-account/main/v1/main-to-sub', 'Main-Account Transfer to Sub-Account (For Main Account, ues futures account)', 'X-BM-KEY', '8 times/2s', 8, S2),
  row('POST', '/account/contract/sub-account/sub/v1/sub-to-main', 'Sub-Account Transfer to Main-Account (For Sub-Account, ues futures account)', 'X-BM-KEY', '8 times/2s', 8, S2),
  row('GET', '/account/contract/sub-account/main/v1/wallet', 'Get Sub-Account Futures Wallet Balance (For Main Account, ues futures account)', 'X-BM-KEY', '12 times/2s', 12, S2),
  row('GET', '/account/contract/sub-account/v1/transfer-history', 'Get Account Futures Asset Transfer History (For Main/Sub Account, ues futures account)', 'X-BM-KEY', '8 times/2s', 8, S2),
  row('GET', '/account/contract/sub-account/main/v1/transfer-list', 'Get Sub-Account Transfer History (For Main Account, ues futures account)', 'X-BM-KEY', '8 times/2s', 8, S2),
];

const BUCKETS = bitmartBuckets(ROWS);

/** BitMart futures V2 REST (`api-cloud-v2.bitmart.com`): USDT-margined perpetuals. */
export const bitmartFutures: VenueSpec = {
  id: 'bitmart-futures',
  venue: 'BitMart',
  product: 'futures V2 REST API (USDT-margined perpetuals)',
  markets: ['perpetual'],
  origin: 'hand-authored',
  sources: {
    limits: { url: `${DOCS}#rate-limit`, retrieved: RETRIEVED, note: `"Rate Limit" tables and the X-BM-RateLimit headers; ${READ}` },
    errors: { url: `${DOCS}#error-code`, retrieved: RETRIEVED, note: `the "Authentication Error Code" table shared with the spot API; ${READ}` },
    skills: {
      url: 'https://github.com/bitmartexchange/bitmart-skills/blob/main/skills/bitmart-exchange-futures/SKILL.md',
      retrieved: RETRIEVED,
      note: 'BitMart\'s own futures reference for its agent skills (commit 4dac0cb, 2026-03-24), "Rate Limits" table: the only BitMart page that gives the system endpoints\' limit on the futures host',
    },
  },
  buckets: BUCKETS,
  endpoints: bitmartEndpoints(ROWS),
  feedback: bitmartFeedback(BUCKETS),
  errors: bitmartErrors(S2),
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      {
        other: 'hummingbot bitmart_perpetual/bitmart_perpetual_constants.py',
        what: 'depth, details, funding-rate, submit-order, order, cancel-order, trades, submit-leverage, transaction-history, assets-detail, position, set-position-mode',
        ours: '12, 12, 12, 24, 50, 40, 6, 24, 6, 12, 6 and 2 per 2 s',
        theirs: 'the same',
        verdict: 'agree',
      },
      { other: 'hummingbot bitmart_perpetual/bitmart_perpetual_constants.py', what: 'GET /system/time', ours: '10 per s per IP', theirs: '10 per 2 s', verdict: "Hummingbot is stricter; BitMart's tables say 10 per s" },
      // ccxt's bitmart: one pool of 30 cost per s (rateLimit 33.34 ms); cost c runs at 30/c per s.
      { other: 'ccxt bitmart.ts (ccxt/ccxt@0020944; ccxt 4.5.84 no longer ships bitmart)', what: 'POST /contract/private/submit-order', ours: '24 per 2 s per key', theirs: 'cost 2.5: 24 per 2 s', verdict: 'agree' },
      { other: 'ccxt bitmart.ts (ccxt/ccxt@0020944)', what: 'POST /contract/private/cancel-orders', ours: '2 per 2 s', theirs: 'cost 30: 2 per 2 s', verdict: 'agree' },
      { other: 'ccxt bitmart.ts (ccxt/ccxt@0020944)', what: 'GET /contract/public/funding-rate', ours: '12 per 2 s', theirs: 'cost 30: 2 per 2 s', verdict: 'ccxt is stricter' },
      { other: 'ccxt bitmart.ts (ccxt/ccxt@0020944)', what: 'GET /contract/private/order-history, /position, /trades', ours: '6 per 2 s', theirs: 'cost 10: 6 per 2 s', verdict: 'agree' },
      { other: 'bitmartexchange/bitmart-skills@4dac0cb SKILL.md (BitMart, 2026-03-24)', what: 'every limit of the futures tables', ours: 'the 2025-11-25 tables', theirs: 'the same numbers', verdict: 'agree: the limits have not changed since the stored page' },
    ],
  },
  notes: [
    "Each endpoint has its own budget: the bucket keys carry the endpoint (`key-24-per-2s:POST /contract/private/submit-order`). Order placement and cancellation count per API key; plan, TP/SL, trail and modify endpoints per account (UID): pass the account's `uid` in the identity.",
    "X-BM-RateLimit-Remaining is documented as the number of requests already used (not what is left), and X-BM-RateLimit-Reset as the window's length: they are read that way.",
    "Endpoints not in BitMart's tables (affiliate rebates, the simulated-trading claim) are refused by the limiter rather than guessed.",
  ],
};
