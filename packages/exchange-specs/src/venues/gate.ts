import type { BucketSpec, CostExpr, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';

/**
 * Gate API v4 REST limits, from the "Frequency limit rule" table of Gate's API documentation: per
 * endpoint per IP (public), per endpoint per UID by group (private), plus the order placement and
 * cancellation totals. Endpoints of the 200-per-10 s groups (spot, perpetual futures, delivery,
 * options, wallet) are listed by path; unlisted private endpoints get the lowest group default
 * ("Other Private endpoints", 150 per 10 s), which is never more than what any group allows them
 * except the sub-account, wallet-transfer and unified borrow/repay endpoints, all listed.
 */

const one = { kind: 'constant', value: 1 } as const;
const RETRIEVED = '2026-12-01';
const DOCS = 'https://www.gate.com/docs/developers/apiv4/en/';
const COPY = 'per-endpoint notes read from a verbatim copy of the documentation taken 2025-11-25 (rosssaunders/coincise@f4d861f, docs/gateio)';
const byEndpoint = { kind: 'endpoint' } as const;
const byPair = { kind: 'param', param: 'currency_pair' } as const;

const ROW_PUBLIC = 'All public endpoints | Public endpoints | 200r/10s per endpoint | IP | Orderbook, Candlestick, Ticker, etc.';
const OTHERS_200 = 'The Others: 200r/10s per endpoint';
const ROW_OTHER = 'Other Private endpoints | Private endpoints | 150r/10s per endpoint | UID | Earning, collateral etc';
const ROW_SUB = 'Subaccount | Private endpoints | 80r/10s per endpoint | UID | Create a sub-account. Retrieve the list of sub-accounts. Disable or enable API key for a sub-account.';
const ROW_UNIFIED = 'Unified | Private endpoints | Borrow or repay 15/10s | UID | Borrow or repay(POST /unified/loans)';
const SPOT_ORDER = 'The rate limit for batch/single order placement and amend an order are total of 10r/s (UID+Market)';
const SPOT_ORDER_ZH = '现货批量/单个下单/单个修改接口一共订单数 10r/s (uid+市场)';
const SPOT_CANCEL = 'The rate limit for batch/single order cancellation is total of 200r/s';
const FUTURES_ORDER = 'The rate limit for batch/single order placement and amend an order are total of 100r/s';
const FUTURES_TIERS = 'Tier 1 | [0,1) | 100r/s; Tier 2 | [1,3) | 150r/s; Tier 3 | [3,5) | 200r/s; Tier 4 | [5,10) | 250r/s; Tier 5 | [10,20) | 300r/s; Tier 6 | [20,50) | 350r/s; Tier 7 | >= 50 | 400r/s';
const FUTURES_CANCEL = 'The maximum rate limit for the order cancellation (bulk/single) is 200r/s';
const FUTURES_BATCH = 'In the rate limiting, each order is counted individually';
const DELIVERY_ORDER = 'The maximum rate limit for the order placement (bulk/single) is 500r/10s';
const DELIVERY_CANCEL = 'The maximum rate limit for the order cancellation (bulk/single) is 500r/10s';
const OPTIONS_ORDER = 'The maximum rate limit for the order placement (bulk/single) is 200r/s';
const OPTIONS_CANCEL = 'The maximum rate limit for the order cancellation (bulk/single) is 200r/s';
const WITHDRAW = 'Withdrawal(POST /withdrawals) : 1r/3s';
const WITHDRAW_PUSH = 'UID transfer(POST /withdrawals/push) 1r/10s';
const RATE_LIMITED = '429 | Too many requests';

const WALLET_80: readonly (readonly [string, string])[] = [
  ['POST /wallet/transfers', 'Transfer between trading accounts (POST /wallet/transfers) 80r/10s'],
  ['POST /wallet/sub_account_transfers', 'Transfer between main and sub accounts (POST /wallet/sub_account_transfers) 80r/10s'],
  ['POST /wallet/sub_account_to_sub_account', 'Transfer from a sub-account to another sub-account (POST /wallet/sub_account_to_sub_account) 80r/10s'],
  ['GET /wallet/total_balance', "Retrieve user's total balances (GET /wallet/total_balance) 80r/10s"],
  ['GET /wallet/sub_account_balances', 'Retrieve sub account balances (GET /wallet/sub_account_balances) 80r/10s'],
  ['GET /wallet/sub_account_margin_balances', "Query sub accounts' margin balances (GET /wallet/sub_account_margin_balances) 80r/10s"],
  ['GET /wallet/sub_account_futures_balances', "Query sub accounts' futures account balances (GET /wallet/sub_account_futures_balances) 80r/10s"],
  ['GET /wallet/sub_account_cross_margin_balances', "Query subaccount's cross_margin account info(GET /wallet/sub_account_cross_margin_balances) 80r/10s"],
];

/** Public endpoints (200 per 10 s each, per IP), by method and path after `/api/v4`. */
const PUBLIC = `
GET /spot/currencies; GET /spot/currencies/{currency}; GET /spot/currency_pairs; GET /spot/currency_pairs/{currency_pair};
GET /spot/tickers; GET /spot/order_book; GET /spot/trades; GET /spot/candlesticks; GET /spot/time; GET /spot/insurance_history;
GET /futures/{settle}/contracts; GET /futures/{settle}/contracts/{contract}; GET /futures/{settle}/order_book; GET /futures/{settle}/trades;
GET /futures/{settle}/candlesticks; GET /futures/{settle}/premium_index; GET /futures/{settle}/tickers; GET /futures/{settle}/funding_rate;
GET /futures/{settle}/insurance; GET /futures/{settle}/contract_stats; GET /futures/{settle}/index_constituents/{index};
GET /futures/{settle}/liq_orders; GET /futures/{settle}/risk_limit_tiers; GET /futures/{settle}/risk_limit_table;
GET /delivery/{settle}/contracts; GET /delivery/{settle}/contracts/{contract}; GET /delivery/{settle}/order_book; GET /delivery/{settle}/trades;
GET /delivery/{settle}/candlesticks; GET /delivery/{settle}/tickers; GET /delivery/{settle}/insurance; GET /delivery/{settle}/risk_limit_tiers;
GET /options/underlyings; GET /options/expirations; GET /options/contracts; GET /options/contracts/{contract}; GET /options/settlements;
GET /options/settlements/{contract}; GET /options/order_book; GET /options/tickers; GET /options/underlying/tickers/{underlying};
GET /options/candlesticks; GET /options/underlying/candlesticks; GET /options/trades;
GET /wallet/currency_chains; GET /margin/uni/currency_pairs; GET /margin/uni/currency_pairs/{currency_pair}; GET /margin/loan_margin_tiers;
GET /flash_swap/currency_pairs; GET /unified/currencies; GET /unified/history_loan_rate; GET /unified/currency_discount_tiers;
GET /unified/loan_margin_tiers; POST /unified/portfolio_calculator; GET /earn/uni/currencies; GET /earn/uni/currencies/{currency};
GET /earn/dual/investment_plan; GET /earn/structured/products; GET /loan/collateral/currencies; GET /loan/multi_collateral/currencies;
GET /loan/multi_collateral/ltv; GET /loan/multi_collateral/fixed_rate; GET /loan/multi_collateral/current_rate`;

/** Private endpoints of the spot, perpetual futures, delivery, options and wallet groups without a limit of their own ("The Others"). */
const OTHERS = `
GET /spot/accounts; GET /spot/account_book; GET /spot/open_orders; GET /spot/orders; GET /spot/orders/{order_id}; GET /spot/my_trades;
GET /spot/fee; GET /spot/batch_fee; GET /spot/price_orders; POST /spot/price_orders; DELETE /spot/price_orders;
GET /spot/price_orders/{order_id}; DELETE /spot/price_orders/{order_id};
GET /futures/{settle}/accounts; GET /futures/{settle}/account_book; GET /futures/{settle}/positions; GET /futures/{settle}/positions/{contract};
POST /futures/{settle}/positions/{contract}/margin; POST /futures/{settle}/positions/{contract}/leverage;
POST /futures/{settle}/positions/{contract}/risk_limit; POST /futures/{settle}/positions/cross_mode; POST /futures/{settle}/dual_mode;
GET /futures/{settle}/dual_comp/positions/{contract}; POST /futures/{settle}/dual_comp/positions/{contract}/margin;
POST /futures/{settle}/dual_comp/positions/{contract}/leverage; POST /futures/{settle}/dual_comp/positions/{contract}/risk_limit;
POST /futures/{settle}/dual_comp/positions/cross_mode; GET /futures/{settle}/orders; GET /futures/{settle}/orders/{order_id};
GET /futures/{settle}/orders_timerange; GET /futures/{settle}/my_trades; GET /futures/{settle}/my_trades_timerange;
GET /futures/{settle}/position_close; GET /futures/{settle}/liquidates; GET /futures/{settle}/auto_deleverages; GET /futures/{settle}/fee;
GET /futures/{settle}/price_orders; POST /futures/{settle}/price_orders; DELETE /futures/{settle}/price_orders;
GET /futures/{settle}/price_orders/{order_id}; DELETE /futures/{settle}/price_orders/{order_id};
GET /delivery/{settle}/accounts; GET /delivery/{settle}/account_book; GET /delivery/{settle}/positions; GET /delivery/{settle}/positions/{contract};
POST /delivery/{settle}/positions/{contract}/margin; POST /delivery/{settle}/positions/{contract}/leverage;
POST /delivery/{settle}/positions/{contract}/risk_limit; GET /delivery/{settle}/orders; GET /delivery/{settle}/orders/{order_id};
GET /delivery/{settle}/my_trades; GET /delivery/{settle}/position_close; GET /delivery/{settle}/liquidates; GET /delivery/{settle}/settlements;
GET /delivery/{settle}/price_orders; POST /delivery/{settle}/price_orders; DELETE /delivery/{settle}/price_orders;
GET /delivery/{settle}/price_orders/{order_id}; DELETE /delivery/{settle}/price_orders/{order_id};
GET /options/accounts; GET /options/account_book; GET /options/positions; GET /options/positions/{contract}; GET /options/position_close;
GET /options/orders; GET /options/orders/{order_id}; GET /options/my_trades; GET /options/my_settlements; GET /options/mmp; POST /options/mmp;
POST /options/mmp/reset;
GET /wallet/deposit_address; GET /wallet/withdrawals; GET /wallet/deposits; GET /wallet/sub_account_transfers; GET /wallet/withdraw_status;
GET /wallet/fee; GET /wallet/saved_address; GET /wallet/order_status; GET /wallet/push; GET /wallet/small_balance; POST /wallet/small_balance;
GET /wallet/small_balance_history`;

/** Sub-account endpoints (80 per 10 s each). */
const SUBACCOUNT = `
GET /sub_accounts; POST /sub_accounts; GET /sub_accounts/{user_id}; GET /sub_accounts/{user_id}/keys; POST /sub_accounts/{user_id}/keys;
GET /sub_accounts/{user_id}/keys/{key}; PUT /sub_accounts/{user_id}/keys/{key}; DELETE /sub_accounts/{user_id}/keys/{key};
POST /sub_accounts/{user_id}/lock; POST /sub_accounts/{user_id}/unlock; GET /sub_accounts/unified_mode`;

function list(text: string): readonly (readonly [EndpointSpec['method'], string])[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '')
    .map((s) => {
      const [method, path] = s.split(' ');
      return [method as EndpointSpec['method'], `/api/v4${path ?? ''}`] as const;
    });
}

function doc(quote: string, source = 'limits'): Provenance {
  return { source, confidence: 'documented', quote };
}

function uncertain(quote: string, source = 'limits'): Provenance {
  return { source, confidence: 'uncertain', quote };
}

function bucket(id: string, scope: 'ip' | 'uid', limit: number, windowMs: number, provenance: Provenance, description: string, extra: Partial<BucketSpec> = {}): BucketSpec {
  return { id, scope, algorithm: 'sliding-window', limit, windowMs, provenance, description: `${description} The window's kind is not documented: a rolling window is assumed.`, ...extra } as BucketSpec;
}

/** An endpoint charged to one bucket; the id is `METHOD /api/v4/path` (the axis of endpoint-partitioned buckets). */
function ep(method: EndpointSpec['method'], path: string, auth: EndpointSpec['auth'], bucketId: string, provenance: Provenance, cost: CostExpr = one, note?: string): EndpointSpec {
  return { id: `${method} ${path}`, method, path, auth, costs: [{ bucket: bucketId, cost }], provenance, ...(note === undefined ? {} : { note }) };
}

/** Orders of a batch on one market (the body is the list): a batch of more than 3 orders on one market is refused (split it). */
const ordersOnPair: CostExpr = {
  kind: 'table',
  param: '',
  measure: 'count',
  rows: [
    { upTo: 1, cost: 1 },
    { upTo: 2, cost: 2 },
    { upTo: 3, cost: 3 },
  ],
};
const ordersInBatch: CostExpr = { kind: 'count', param: '', base: 0, per: 1, maxItems: 10 };

const spotOrder = doc(SPOT_ORDER);
const spotBatch = doc(SPOT_ORDER_ZH, 'limits-zh');
const futuresOrder = doc(FUTURES_ORDER);

/** Gate API v4 REST (`api.gateio.ws/api/v4`). */
export const gate: VenueSpec = {
  id: 'gate',
  venue: 'Gate',
  product: 'API v4 REST (spot, perpetual and delivery futures, options, wallet, sub-accounts)',
  markets: ['spot', 'margin', 'perpetual', 'delivery', 'options', 'wallet'],
  origin: 'hand-authored',
  ccxtIds: ['gate'],
  sources: {
    limits: { url: `${DOCS}#frequency-limit-rule`, retrieved: RETRIEVED, note: 'Gate API v4.106.88 (changelog 2026-05-26): "Frequency limit rule" table, "Rate Limit" headers and "Return Format"; read from a stored copy of the page updated 2026-05-27' },
    'limits-zh': { url: 'https://www.gate.com/docs/developers/apiv4/zh_CN/', retrieved: RETRIEVED, note: 'the Chinese edition of the same table ("限频规则"), which says the spot placement limit counts orders (订单数)' },
    'fill-ratio': { url: `${DOCS}#rate-limit-based-on-fill-ratio`, retrieved: RETRIEVED, note: 'Gate API v4.106.88, "Rate Limit Based On Fill Ratio" (futures tiers for VIP 14 and above); read as above' },
    'spot-batch': { url: `${DOCS}#batch-place-orders`, retrieved: RETRIEVED, note: COPY },
    'spot-amend': { url: `${DOCS}#amend-single-order`, retrieved: RETRIEVED, note: COPY },
    'spot-amend-batch': { url: `${DOCS}#batch-modification-of-orders`, retrieved: RETRIEVED, note: COPY },
    'futures-batch': { url: `${DOCS}#place-batch-futures-orders`, retrieved: RETRIEVED, note: COPY },
    'futures-amend-batch': { url: `${DOCS}#batch-modify-orders-by-specified-ids`, retrieved: RETRIEVED, note: COPY },
    errors: { url: `${DOCS}#label-list`, retrieved: RETRIEVED, note: 'Gate API v4.106.88, "label list" (Flash Convert related)' },
  },
  buckets: [
    bucket('public-endpoint', 'ip', 200, 10_000, doc(ROW_PUBLIC), 'every public endpoint, each its own bucket, per IP.', { partition: byEndpoint }),
    bucket('private-endpoint', 'uid', 200, 10_000, doc(OTHERS_200), 'private endpoints of the spot, perpetual futures, delivery, options and wallet groups without a limit of their own ("The Others"), each its own bucket, per UID (each sub-account its own).', { partition: byEndpoint }),
    bucket('other-private-endpoint', 'uid', 150, 10_000, doc(ROW_OTHER), 'every other private endpoint (earn, collateral loans, margin, unified account, account, rebate...), each its own bucket, per UID; also the default for unlisted private endpoints.', { partition: byEndpoint }),
    bucket('wallet-transfer', 'uid', 80, 10_000, doc(WALLET_80.map(([, q]) => q).join(' ')), 'the wallet transfer and balance endpoints Gate lists at 80 per 10 s, each its own bucket, per UID.', { partition: byEndpoint }),
    bucket('subaccount', 'uid', 80, 10_000, doc(ROW_SUB), 'sub-account management endpoints, each its own bucket, per UID.', { partition: byEndpoint }),
    bucket('unified-loans', 'uid', 15, 10_000, doc(ROW_UNIFIED), 'unified account borrow or repay (POST /unified/loans), per UID.'),
    bucket('withdrawal', 'uid', 1, 3000, doc(WITHDRAW), 'POST /withdrawals, per UID.'),
    bucket('withdrawal-push', 'uid', 1, 10_000, doc(WITHDRAW_PUSH), 'POST /withdrawals/push (transfer to another Gate UID), per UID.'),
    bucket('spot-order', 'uid', 10, 1000, spotOrder, 'spot order placement and amendment (single and batch), per UID and market, counted per order.', { partition: byPair }),
    bucket('spot-cancel', 'uid', 200, 1000, doc(SPOT_CANCEL), 'spot order cancellation (single, batch, all of a market), per UID.'),
    bucket('futures-order', 'uid', 100, 1000, doc(`${FUTURES_ORDER} / ${FUTURES_TIERS}`, 'fill-ratio'), 'perpetual futures order placement and amendment (single and batch, each order counted), per UID; tiers `fill-ratio-tier-1` to `-7` are the fill-ratio limits of VIP 14 and above (tier 1 is the default).', {
      tiers: { 'fill-ratio-tier-1': { limit: 100 }, 'fill-ratio-tier-2': { limit: 150 }, 'fill-ratio-tier-3': { limit: 200 }, 'fill-ratio-tier-4': { limit: 250 }, 'fill-ratio-tier-5': { limit: 300 }, 'fill-ratio-tier-6': { limit: 350 }, 'fill-ratio-tier-7': { limit: 400 } },
    }),
    bucket('futures-cancel', 'uid', 200, 1000, doc(FUTURES_CANCEL), 'perpetual futures order cancellation (single and batch), per UID.'),
    bucket('delivery-order', 'uid', 500, 10_000, doc(DELIVERY_ORDER), 'delivery futures order placement, per UID.'),
    bucket('delivery-cancel', 'uid', 500, 10_000, doc(DELIVERY_CANCEL), 'delivery futures order cancellation, per UID.'),
    bucket('options-order', 'uid', 200, 1000, doc(OPTIONS_ORDER), 'options order placement, per UID.'),
    bucket('options-cancel', 'uid', 200, 1000, doc(OPTIONS_CANCEL), 'options order cancellation, per UID.'),
  ],
  endpoints: [
    ...list(PUBLIC).map(([m, p]) => ep(m, p, 'public', 'public-endpoint', doc(ROW_PUBLIC))),
    ...list(OTHERS).map(([m, p]) => ep(m, p, 'private', 'private-endpoint', doc(OTHERS_200))),
    ...list(SUBACCOUNT).map(([m, p]) => ep(m, p, 'private', 'subaccount', doc(ROW_SUB))),
    ...WALLET_80.map(([mp, q]) => {
      const [m, p] = mp.split(' ');
      return ep(m as EndpointSpec['method'], `/api/v4${p ?? ''}`, 'private', 'wallet-transfer', doc(q));
    }),
    ep('POST', '/api/v4/unified/loans', 'private', 'unified-loans', { ...doc(ROW_UNIFIED), deviations: [{ value: 1, reason: 'formula', text: 'each call counts one of the 15 per 10 s' }] }),
    ep('POST', '/api/v4/withdrawals', 'private', 'withdrawal', doc(WITHDRAW)),
    ep('POST', '/api/v4/withdrawals/push', 'private', 'withdrawal-push', doc(WITHDRAW_PUSH)),
    // Spot orders: 10 per s per UID and market, each order counted.
    ep('POST', '/api/v4/spot/orders', 'private', 'spot-order', spotOrder),
    ep('PATCH', '/api/v4/spot/orders/{order_id}', 'private', 'spot-order', doc('About rate limit: Order modification and order creation share the same rate limit rules.', 'spot-amend'), one, 'currency_pair in the query or the body'),
    {
      id: 'POST /api/v4/spot/batch_orders',
      method: 'POST',
      path: '/api/v4/spot/batch_orders',
      auth: 'private',
      provenance: doc('At most 4 trading pairs, maximum 10 orders each, are allowed in one request', 'spot-batch'),
      costs: [{ bucket: 'spot-order', cost: ordersOnPair, provenance: spotBatch }],
      note: "each order counts on its market (订单数, order count). More than 3 orders on one market in one batch are refused here (split the batch): a larger share would have to be admitted at once and would size every request of that market's bucket to it.",
    },
    {
      id: 'POST /api/v4/spot/amend_batch_orders',
      method: 'POST',
      path: '/api/v4/spot/amend_batch_orders',
      auth: 'private',
      provenance: doc('Modify uncompleted orders, up to 5 orders can be modified at a time.', 'spot-amend-batch'),
      costs: [{ bucket: 'spot-order', cost: ordersOnPair, provenance: spotBatch }],
      note: 'each amended order counts on its market; more than 3 on one market are refused here, as for batch_orders',
    },
    { ...ep('POST', '/api/v4/spot/cross_liquidate_orders', 'private', 'spot-order', uncertain(SPOT_ORDER)), note: 'places an order to close a cross-margin position: assumed to count as an order placement on its market' },
    ep('DELETE', '/api/v4/spot/orders/{order_id}', 'private', 'spot-cancel', doc(SPOT_CANCEL)),
    ep('DELETE', '/api/v4/spot/orders', 'private', 'spot-cancel', doc(SPOT_CANCEL)),
    ep('POST', '/api/v4/spot/cancel_batch_orders', 'private', 'spot-cancel', doc(SPOT_CANCEL), one, 'at most 20 orders per request; the limit counts requests ("total of 200r/s")'),
    {
      id: 'POST /api/v4/spot/countdown_cancel_all',
      method: 'POST',
      path: '/api/v4/spot/countdown_cancel_all',
      auth: 'private',
      provenance: uncertain(SPOT_CANCEL),
      costs: [
        { bucket: 'spot-cancel', cost: one },
        { bucket: 'private-endpoint', cost: one, provenance: uncertain(OTHERS_200) },
      ],
      note: 'not named in the table: charged both as a cancellation and as an endpoint of its own',
    },
    // Perpetual futures: 100 per s per UID (batches: each order), cancellations 200 per s.
    ep('POST', '/api/v4/futures/{settle}/orders', 'private', 'futures-order', futuresOrder),
    ep('PUT', '/api/v4/futures/{settle}/orders/{order_id}', 'private', 'futures-order', futuresOrder),
    ep('POST', '/api/v4/futures/{settle}/batch_orders', 'private', 'futures-order', doc(FUTURES_BATCH, 'futures-batch'), ordersInBatch, 'up to 10 orders per request, each counted'),
    ep(
      'POST',
      '/api/v4/futures/{settle}/batch_amend_orders',
      'private',
      'futures-order',
      uncertain('Multiple different order IDs can be specified, maximum 10 orders per request', 'futures-amend-batch'),
      ordersInBatch,
      'the page does not say how a batch amendment counts: each order is counted, as for batch_orders (the safe reading)',
    ),
    ep('DELETE', '/api/v4/futures/{settle}/orders/{order_id}', 'private', 'futures-cancel', doc(FUTURES_CANCEL)),
    ep('DELETE', '/api/v4/futures/{settle}/orders', 'private', 'futures-cancel', doc(FUTURES_CANCEL)),
    ep('POST', '/api/v4/futures/{settle}/batch_cancel_orders', 'private', 'futures-cancel', doc(FUTURES_CANCEL)),
    {
      id: 'POST /api/v4/futures/{settle}/countdown_cancel_all',
      method: 'POST',
      path: '/api/v4/futures/{settle}/countdown_cancel_all',
      auth: 'private',
      provenance: uncertain(FUTURES_CANCEL),
      costs: [
        { bucket: 'futures-cancel', cost: one },
        { bucket: 'private-endpoint', cost: one, provenance: uncertain(OTHERS_200) },
      ],
      note: 'not named in the table: charged both as a cancellation and as an endpoint of its own',
    },
    // Delivery and options.
    ep('POST', '/api/v4/delivery/{settle}/orders', 'private', 'delivery-order', doc(DELIVERY_ORDER)),
    ep('DELETE', '/api/v4/delivery/{settle}/orders/{order_id}', 'private', 'delivery-cancel', doc(DELIVERY_CANCEL)),
    ep('DELETE', '/api/v4/delivery/{settle}/orders', 'private', 'delivery-cancel', doc(DELIVERY_CANCEL)),
    ep('POST', '/api/v4/options/orders', 'private', 'options-order', doc(OPTIONS_ORDER)),
    ep('DELETE', '/api/v4/options/orders/{order_id}', 'private', 'options-cancel', doc(OPTIONS_CANCEL)),
    ep('DELETE', '/api/v4/options/orders', 'private', 'options-cancel', doc(OPTIONS_CANCEL)),
    {
      id: 'POST /api/v4/options/countdown_cancel_all',
      method: 'POST',
      path: '/api/v4/options/countdown_cancel_all',
      auth: 'private',
      provenance: uncertain(OPTIONS_CANCEL),
      costs: [
        { bucket: 'options-cancel', cost: one },
        { bucket: 'private-endpoint', cost: one, provenance: uncertain(OTHERS_200) },
      ],
      note: 'not named in the table: charged both as a cancellation and as an endpoint of its own',
    },
  ],
  fallback: {
    costs: [{ bucket: 'other-private-endpoint', cost: one }],
    publicCosts: [{ bucket: 'public-endpoint', cost: one }],
    provenance: doc(`${ROW_OTHER} / ${ROW_PUBLIC}`),
  },
  feedback: [
    {
      // X-Gate-RateLimit-Reset-Timestamp's unit (seconds or milliseconds) is not documented: it is not read.
      header: 'x-gate-ratelimit-requests-remain',
      meaning: 'remaining',
      limitHeader: 'x-gate-ratelimit-limit',
      buckets: ['public-endpoint', 'private-endpoint', 'other-private-endpoint', 'wallet-transfer', 'subaccount', 'unified-loans', 'withdrawal', 'withdrawal-push', 'spot-order', 'spot-cancel', 'futures-order', 'futures-cancel', 'delivery-order', 'delivery-cancel', 'options-order', 'options-cancel'],
      provenance: doc('X-Gate-RateLimit-Requests-Remain - your remaining requests for current endpoint X-Gate-RateLimit-Limit - your current limit for current endpoint'),
    },
  ],
  errors: [
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: { ...doc(RATE_LIMITED), deviations: [{ value: 10000, reason: 'conservative', text: "Gate states no wait, and the unit of X-Gate-RateLimit-Reset-Timestamp is not documented: 10 s, the longest window of Gate's limits, is held instead" }] },
      note: 'label TOO_MANY_REQUESTS ("Request rate exceeds limits"). X-Gate-RateLimit-Reset-Timestamp tells when the limit resets, but its unit (seconds or milliseconds) is not documented; 10 s, the longest window of Gate\'s limits, is held instead.',
    },
    {
      id: 'too-many-requests-label',
      body: [{ path: 'label', equals: ['TOO_MANY_REQUESTS', 'TOO_FAST'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: {
        ...doc('TOO_FAST | Withdrawing request exceeds frequency limit; TOO_MANY_REQUESTS | Request rate exceeds limits', 'errors'),
        deviations: [{ value: 10000, reason: 'conservative', text: "Gate states no wait, and the unit of X-Gate-RateLimit-Reset-Timestamp is not documented: 10 s, the longest window of Gate's limits, is held instead" }],
      },
      note: 'the labels whatever the HTTP status; 10 s as above',
    },
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [
      { what: 'default for unlisted private endpoints', was: '200 per 10 s per endpoint', now: '150 per 10 s per endpoint ("Other Private endpoints"); 200 per 10 s only for the listed spot, futures, delivery, options and wallet endpoints', source: 'limits' },
      { what: 'wallet transfer and balance endpoints (POST /wallet/transfers, /wallet/sub_account_transfers, /wallet/sub_account_to_sub_account; GET /wallet/total_balance, /wallet/sub_account_*_balances)', was: '200 per 10 s (the default)', now: '80 per 10 s each', source: 'limits' },
      { what: 'sub-account endpoints (/sub_accounts...)', was: '200 per 10 s (the default)', now: '80 per 10 s each', source: 'limits' },
      { what: 'POST /unified/loans (borrow or repay)', was: '200 per 10 s (the default)', now: '15 per 10 s', source: 'limits' },
      { what: 'POST /withdrawals/push', was: '200 per 10 s (the default)', now: '1 per 10 s', source: 'limits' },
      { what: 'spot batch orders on one market', was: '1 per market touched', now: '1 per order on its market (订单数, order count)', source: 'limits-zh' },
      { what: 'futures batch orders', was: '1 per request', now: '1 per order ("each order is counted individually")', source: 'futures-batch' },
      { what: 'wait after a 429', was: 'X-Gate-RateLimit-Reset-Timestamp read as epoch milliseconds (a value in seconds gave no wait at all)', now: '10 s (the unit is not documented)', source: 'limits' },
      { what: 'public endpoints called with a key', was: 'charged per UID (the private default) when unlisted', now: 'listed public endpoints are charged per IP whatever the credential', source: 'limits' },
    ],
    crossChecks: [
      {
        other: 'ccxt 4.5.84 gate.js',
        what: 'POST /spot/orders, /spot/batch_orders',
        ours: '10 orders per s per UID and market',
        theirs: 'cost 0.4 at rateLimit 50 ms: 50 requests per s across markets',
        verdict: 'ccxt admits 5 times more on one market; Gate documents 10r/s per UID and market: the documentation is shipped',
      },
      { other: 'ccxt 4.5.84 gate.js', what: 'spot cancellations (DELETE /spot/orders..., cancel_batch_orders)', ours: '200 per s per UID', theirs: 'cost 20/75: 75 per s', verdict: 'ccxt is stricter; the documentation is shipped' },
      { other: 'ccxt 4.5.84 gate.js', what: 'POST /withdrawals', ours: '1 per 3 s', theirs: 'cost 20: 1 per s', verdict: 'ccxt admits 3 times more; Gate documents 1r/3s: the documentation is shipped' },
      { other: 'ccxt 4.5.84 gate.js', what: 'POST /wallet/transfers, /wallet/sub_account_transfers, GET /wallet/total_balance, /wallet/sub_account_*_balances, /sub_accounts', ours: '80 per 10 s each', theirs: 'cost 2.5: 80 per 10 s', verdict: 'agree' },
      { other: 'ccxt 4.5.84 gate.js', what: 'POST /unified/loans', ours: '15 per 10 s', theirs: 'cost 200/15: 15 per 10 s', verdict: 'agree' },
      { other: 'ccxt 4.5.84 gate.js', what: 'unlisted private endpoints', ours: '150 per 10 s per endpoint', theirs: 'comment "private endpoints default is 150r/10s per endpoint", cost 1 (200 per 10 s) on most', verdict: "ccxt's own comment agrees with the documentation; the costs it ships admit more" },
      {
        other: 'hummingbot gate_io/gate_io_constants.py',
        what: 'public and private endpoints, cancellations',
        ours: '200 per 10 s per endpoint; 10 orders per s per market; 200 cancellations per s',
        theirs: '900 per s public and private, 5,000 cancellations per s',
        verdict: 'Hummingbot keeps the limits Gate replaced on 2024-01-22; the current documentation is shipped',
      },
      { other: 'hummingbot gate_io_perpetual/gate_io_perpetual_constants.py', what: 'futures order placement and cancellation', ours: '100 and 200 per s per UID', theirs: '100 (linked to a 400 per s private pool) and 400 per s', verdict: 'placement agrees; Hummingbot admits twice the documented cancellations' },
    ],
  },
  notes: [
    'Limits are per UID: "The rate limit is counted against each sub-account or main account." Users with several keys of one account must pass the same `uid` in the identity.',
    'Fill-ratio limits: futures tiers (VIP 14 and above) are tiers `fill-ratio-tier-1` to `-7` of the futures-order bucket. The low-fill-ratio restrictions (spot: POST /spot/orders and PATCH /spot/orders/{order_id} at 10 per 10 s per UID; futures: 10 or 20 per 10 s for an hour) are not modelled.',
    'Gate publishes the account\'s current limits (GET /account/rate_limit, "Get user transaction rate limit information").',
  ],
};
