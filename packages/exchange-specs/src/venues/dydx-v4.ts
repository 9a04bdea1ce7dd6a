import type { BucketSpec, CostRule, EndpointSpec, ErrorRule, Provenance, VenueSpec } from '../venue-spec.js';

/**
 * dYdX v4: three kinds of limits a bot meets, from three kinds of servers.
 * - The indexer's REST API (`indexer.dydx.trade/v4`, an HTTP server): per IP.
 * - The chain's order limits, enforced by every node when it checks a transaction (CheckTx), not by
 *   an HTTP server: per account (every subaccount of an address shares them), counted in blocks.
 *   They are priced here on the message itself: the request's path is the message's type URL
 *   (`/dydxprotocol.clob.MsgPlaceOrder`) and its body the message's value, as signing clients build
 *   them (`{ order: { orderId: { subaccountId, clientId, orderFlags, clobPairId }, ... } }`).
 * - The public nodes' HTTP endpoints the transaction is broadcast to (CometBFT RPC, Cosmos REST):
 *   each operator's own per-IP limit, listed by host.
 */

const one = { kind: 'constant', value: 1 } as const;
const RETRIEVED = '2026-12-01';
const DOCS = 'https://docs.dydx.xyz';
const DOCS_COMMIT = 'read from dydxprotocol/v4-documentation@3e475b7 (2026-04-22)';
const CHAIN = 'https://github.com/dydxprotocol/v4-chain/blob/84d4664bae71e3a077adaac67fb77ad19cd28d30';
const CHAIN_NOTE = 'dYdX Chain reference implementation, dydxprotocol/v4-chain@84d4664 (2026-03-05): the code every node runs to enforce the limits';

/**
 * The duration of one block assumed to turn the chain's block windows into time. A window of N
 * blocks lasts longer in time when blocks are slower, so the slower of the two documented figures
 * is used ("20 blocks, or about 30 seconds": 1.5 s; the average is "~1 second").
 */
export const DYDX_BLOCK_MS = 1500;

const Q = {
  indexer: 'Indexer calls are rate limited per IP at a 100 requests / 10 sec rate.',
  perAccount: 'Note that rate limits are applied per account. That is, subaccounts under the same account share the same rate limit.',
  stateful:
    'max_stateful_orders_per_n_blocks: How many stateful order place attempts (successful and failed) are allowed for an account per N blocks. Note that the rate limits are applied in an AND fashion such that an order placement must pass all rate limit configurations. | "max_stateful_orders_per_n_blocks": [ { "num_blocks": 1, "limit": 2 }, { "num_blocks": 100, "limit": 20 } ] | 2 long-term orders can be placed for each of the first 10 blocks and then a new long-term order would be rate limited on the 11th block since the limit of 20 long-term orders over the past 100 blocks would apply.',
  shortTermDef: 'max_short_term_orders_and_cancels_per_n_blocks: How many short term order place and cancel attempts (successful and failed) are allowed for an account per N blocks.',
  shortTermNow: '"max_short_term_orders_and_cancels_per_n_blocks": [ { "num_blocks": 5, "limit": 4000 } ]',
  shortTermOld: '"max_short_term_orders_and_cancels_per_n_blocks": [ { "num_blocks": 5, "limit": 2000 } ]',
  shortTermHelp: 'Order Type | Num_blocks | Limit | Short-term | 5 | 2000 | Long-term or Conditional | 1 | 2 | Long-term or Conditional | 100 | 20',
  blockTime: 'The current block time is ~1 second on average.',
  shortBlockWindow: 'Currently, ShortBlockWindow is 20 blocks, or about 30 seconds;',
  batchCancel: 'BATCH_CANCEL_RATE_LIMIT_WEIGHT = uint32(2)',
  statefulCancel: 'if msg.OrderId.IsShortTermOrder() { err = r.checkStateShortTermOrderPlaceCancelRateLimiter.RateLimit( ctx, msg.OrderId.SubaccountId.Owner, ) }',
  err5001: 'ErrBlockRateLimitExceeded = errorsmod.Register( ModuleName, 5001, "Block rate limit exceeded", )',
  errText: '"Rate of %d exceeds configured block rate limit of %+v for %s and %+v", perRateLimitCounts[i], rl, r.context, key,',
  indexer429: "return create4xxResponse(res, 'Too many requests', 429);",
  remaining: "'RateLimit-Remaining': limitRes.remainingPoints,",
} as const;

const doc = (source: string, quote: string): Provenance => ({ source, confidence: 'documented', quote });
const unsure = (source: string, quote: string): Provenance => ({ source, confidence: 'uncertain', quote });

/** The public nodes dYdX's endpoint list gives a rate limit for, strictest first (an unlisted node is priced as the first). */
const NODES: readonly { readonly id: string; readonly host: string; readonly kind: 'rpc' | 'rest'; readonly limit: number; readonly windowMs: number; readonly quote: string }[] = [
  { id: 'autostake-rpc', host: 'dydx-mainnet-rpc.autostake.com', kind: 'rpc', limit: 4, windowMs: 1000, quote: 'AutoStake | https://dydx-mainnet-rpc.autostake.com:443 | 4 req/s' },
  { id: 'autostake-rest', host: 'dydx-mainnet-lcd.autostake.com', kind: 'rest', limit: 4, windowMs: 1000, quote: 'AutoStake | https://dydx-mainnet-lcd.autostake.com:443 | 4 req/s' },
  { id: 'kingnodes-rpc', host: 'dydx-ops-rpc.kingnodes.com', kind: 'rpc', limit: 250, windowMs: 60_000, quote: 'KingNodes | https://dydx-ops-rpc.kingnodes.com:443 | 250 req/m' },
  { id: 'kingnodes-rest', host: 'dydx-ops-rest.kingnodes.com', kind: 'rest', limit: 250, windowMs: 60_000, quote: 'KingNodes | https://dydx-ops-rest.kingnodes.com:443 | 250 req/m' },
  { id: 'polkachu-rpc', host: 'dydx-dao-rpc.polkachu.com', kind: 'rpc', limit: 300, windowMs: 60_000, quote: 'Polkachu | https://dydx-dao-rpc.polkachu.com:443 | 300 req/m' },
  { id: 'polkachu-rest', host: 'dydx-dao-api.polkachu.com', kind: 'rest', limit: 300, windowMs: 60_000, quote: 'Polkachu | https://dydx-dao-api.polkachu.com:443 | 300 req/m' },
];

/** CometBFT RPC calls a trading client makes (broadcast, queries); `POST /` is the JSON-RPC form of all of them. */
const RPC_PATHS = 'GET /broadcast_tx_sync; GET /broadcast_tx_async; GET /broadcast_tx_commit; GET /abci_query; GET /abci_info; GET /status; GET /block; GET /tx; POST /';
/** Cosmos REST (LCD) calls a trading client makes. */
const REST_PATHS =
  'POST /cosmos/tx/v1beta1/txs; POST /cosmos/tx/v1beta1/simulate; POST /cosmos/tx/v1beta1/encode; GET /cosmos/auth/v1beta1/account_info/{address}; GET /cosmos/auth/v1beta1/accounts/{address}; GET /cosmos/bank/v1beta1/balances/{address}; GET /cosmos/base/tendermint/v1beta1/blocks/latest; GET /dydxprotocol/clob/block_rate; GET /dydxprotocol/subaccounts/subaccount/{owner}/{number}';

/** Indexer REST endpoints (`/v4/...`), one shared per-IP budget. */
const INDEXER_PATHS =
  '/v4/perpetualMarkets; /v4/orderbooks/perpetualMarket/{ticker}; /v4/trades/perpetualMarket/{ticker}; /v4/candles/perpetualMarkets/{ticker}; /v4/historicalFunding/{ticker}; /v4/sparklines; /v4/time; /v4/height; /v4/addresses/{address}; /v4/addresses/{address}/subaccountNumber/{subaccountNumber}; /v4/addresses/{address}/parentSubaccountNumber/{parentSubaccountNumber}; /v4/orders; /v4/orders/parentSubaccountNumber; /v4/orders/{orderId}; /v4/fills; /v4/fills/parentSubaccountNumber; /v4/tradeHistory; /v4/tradeHistory/parentSubaccountNumber; /v4/perpetualPositions; /v4/perpetualPositions/parentSubaccountNumber; /v4/assetPositions; /v4/assetPositions/parentSubaccountNumber; /v4/transfers; /v4/transfers/parentSubaccountNumber; /v4/transfers/between; /v4/historical-pnl; /v4/historical-pnl/parentSubaccountNumber; /v4/pnl; /v4/pnl/parentSubaccountNumber; /v4/fundingPayments; /v4/fundingPayments/parentSubaccount';

function split(text: string): readonly string[] {
  return text
    .split(';')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

const chainWindow = (blocks: number): string =>
  `${blocks} block${blocks === 1 ? '' : 's'} taken as ${(blocks * DYDX_BLOCK_MS) / 1000} s (${DYDX_BLOCK_MS} ms per block, the slower of the documented figures "${Q.shortBlockWindow}" and "${Q.blockTime}": a window of blocks lasts longer in time when blocks are slower). The chain slides its windows over blocks: a rolling window in time is the nearest model. Enforced by each node's CheckTx, per account (the address: pass it as the identity's \`uid\`); every attempt counts, refused ones included.`;

function chainBucket(id: string, limit: number, blocks: number, provenance: Provenance, what: string): BucketSpec {
  const windowMs = blocks * DYDX_BLOCK_MS;
  const deviation = { value: windowMs, reason: 'formula', text: `${blocks} block${blocks === 1 ? '' : 's'} at ${DYDX_BLOCK_MS} ms per block (the slower documented block time)` } as const;
  return { id, scope: 'uid', algorithm: 'sliding-window', limit, windowMs, provenance: { ...provenance, deviations: [...(provenance.deviations ?? []), deviation] }, description: `${what} per ${chainWindow(blocks)}` };
}

const indexerCost: readonly CostRule[] = [{ bucket: 'indexer', cost: one }];
const flags = (param: string, short: boolean): NonNullable<CostRule['when']> => (short ? { param, in: ['0'] } : { param, notIn: ['0'] });
const statefulProv = unsure('rate-limits', `${Q.stateful} | ${Q.perAccount}`);
const shortProv = unsure('rate-limits-old', `${Q.shortTermDef} | ${Q.shortTermOld} | ${Q.perAccount}`);

function chainMsg(type: string, costs: readonly CostRule[], provenance: Provenance, note: string): EndpointSpec {
  return { id: `chain ${type}`, method: 'POST', path: `/dydxprotocol.clob.${type}`, auth: 'private', costs, provenance, note };
}

/** The chain's refusal of an order message over a block limit, as each broadcast answer carries it: CometBFT RPC (`result`), Cosmos REST / gRPC gateway (`tx_response`), or a client's own result object (the body itself). */
function blockLimitRules(): readonly ErrorRule[] {
  const transports = [
    { name: 'rpc', code: 'result.code', space: 'result.codespace', log: 'result.log' },
    { name: 'rest', code: 'tx_response.code', space: 'tx_response.codespace', log: 'tx_response.raw_log' },
    { name: 'client', code: 'code', space: 'codespace', log: 'log' },
  ] as const;
  const limits = [
    { name: 'short-term', contains: 'MaxShortTermOrdersAndCancelsPerNBlocks', penalize: ['chain-short-term'], ms: 5 * DYDX_BLOCK_MS },
    { name: 'stateful-100', contains: 'NumBlocks:100 ', penalize: ['chain-stateful-100'], ms: 100 * DYDX_BLOCK_MS },
    { name: 'stateful-block', contains: 'MaxStatefulOrdersPerNBlocks', penalize: ['chain-stateful-block'], ms: DYDX_BLOCK_MS },
  ] as const;
  const rules: ErrorRule[] = [];
  for (const t of transports) {
    const base = [
      { path: t.code, equals: [5001] },
      { path: t.space, equals: ['clob'] },
    ];
    for (const l of limits) {
      rules.push({
        id: `block-rate-limit-${l.name}-${t.name}`,
        body: [...base, { path: t.log, contains: l.contains }],
        verdict: 'rate_limited',
        counted: true,
        penalize: l.penalize,
        wait: [{ from: 'fixed', ms: l.ms }],
        provenance: { ...doc('chain-limiter', Q.errText), deviations: [{ value: l.ms, reason: 'conservative', text: 'the chain states no wait: the whole window of the limit the log names, in blocks at 1.5 s each' }] },
        note: `code 5001 (codespace clob), log naming ${l.contains}: the whole window of that limit is waited (the chain says nothing about when it frees)`,
      });
    }
    rules.push({
      id: `block-rate-limit-${t.name}`,
      body: base,
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 100 * DYDX_BLOCK_MS }],
      provenance: { ...doc('chain-errors', Q.err5001), deviations: [{ value: 100 * DYDX_BLOCK_MS, reason: 'conservative', text: 'the error names no limit and the chain states no wait: the longest window, 100 blocks at 1.5 s each' }] },
      note: 'code 5001 without a log naming the limit: the longest window (100 blocks) is waited',
    });
  }
  return rules;
}

/** dYdX v4: indexer REST, the chain's order limits, and the public nodes' HTTP limits. */
export const dydxV4: VenueSpec = {
  id: 'dydx-v4',
  venue: 'dYdX',
  product: 'v4: indexer REST (per IP), chain order-placement limits (per account, enforced by the nodes), public node RPC/REST (per IP)',
  markets: ['perpetual'],
  origin: 'hand-authored',
  ccxtIds: ['dydx'],
  sources: {
    'rate-limits': {
      url: `${DOCS}/concepts/trading/limits/rate-limits`,
      retrieved: RETRIEVED,
      note: `"Rate Limits" (block rate limits, indexer rate limits), ${DOCS_COMMIT}, docs/pages/concepts/trading/limits/rate-limits.mdx; the 2,000 → 4,000 change came with commit f51d4ae "gov updates" (2025-08-15). Block duration (to turn blocks into time), read on the same date and commit: ${DOCS}/concepts/onboarding-faqs ("${Q.blockTime}") and ${DOCS}/interaction/trading ("${Q.shortBlockWindow}")`,
    },
    'rate-limits-old': { url: 'https://docs.dydx.exchange/api_integration-trading/rate_limits', retrieved: RETRIEVED, note: 'the earlier documentation site, same page (old-docs/pages/api_integration-trading/rate_limits.md in the same repository), read from a stored copy of the page' },
    endpoints: { url: `${DOCS}/interaction/endpoints`, retrieved: RETRIEVED, note: `${DOCS_COMMIT}, the mainnet node tables (gRPC, RPC, REST) with their "Rate limit" column; the operators are third parties` },
    'chain-limiter': { url: `${CHAIN}/protocol/x/clob/rate_limit/order_rate_limiter.go`, retrieved: RETRIEVED, note: `${CHAIN_NOTE}; the refusal text is formatted in multi_block_rate_limiter.go` },
    'chain-errors': { url: `${CHAIN}/protocol/x/clob/types/errors.go`, retrieved: RETRIEVED, note: CHAIN_NOTE },
    'indexer-code': { url: `${CHAIN}/indexer/services/comlink/src/lib/rate-limit.ts`, retrieved: RETRIEVED, note: "the indexer's rate-limit middleware (comlink), same commit: its 429 body and RateLimit-* headers" },
  },
  buckets: [
    {
      id: 'indexer',
      scope: 'ip',
      algorithm: 'fixed-window-anchored',
      limit: 100,
      windowMs: 10_000,
      provenance: doc('rate-limits', Q.indexer),
      description:
        "every indexer REST call, per IP. The documentation gives the rate only; the indexer's code counts in fixed windows of 10 s opened by an IP's first request (rate-limiter-flexible's RateLimiterRedis) and reports the window's end in RateLimit-Reset, so the window is anchored. The code gives some routes (candles, orders, fills...) budgets of their own; the documentation's single budget is the stricter reading and is shipped.",
    },
    chainBucket('chain-short-term', 2000, 5, shortProv, 'short-term order placements and cancellations (a batch cancel counts 2); 2,000 as in the earlier documentation and the help center, where the current documentation shows 4,000 (the lower is shipped),'),
    chainBucket('chain-stateful-block', 2, 1, statefulProv, 'stateful (long-term and conditional) order placements'),
    chainBucket('chain-stateful-100', 20, 100, statefulProv, 'stateful (long-term and conditional) order placements'),
    ...NODES.map(
      (n): BucketSpec => ({
        id: n.id,
        scope: 'ip',
        algorithm: 'sliding-window',
        limit: n.limit,
        windowMs: n.windowMs,
        provenance: n.quote.endsWith('req/m') ? { ...doc('endpoints', n.quote), deviations: [{ value: n.windowMs, reason: 'formula', text: '"req/m": requests per minute, 60,000 ms' }] } : doc('endpoints', n.quote),
        description: `${n.host} (${n.kind === 'rpc' ? 'CometBFT RPC' : 'Cosmos REST'}), a third-party public node: every request, per IP (the table gives no scope; a keyless public endpoint can only count per IP). The window's kind is not documented: a rolling window is assumed.`,
      }),
    ),
  ],
  endpoints: [
    ...split(INDEXER_PATHS).map((path): EndpointSpec => ({ id: `indexer GET ${path}`, method: 'GET', path, auth: 'public', costs: indexerCost, provenance: doc('rate-limits', Q.indexer) })),
    chainMsg(
      'MsgPlaceOrder',
      [
        { bucket: 'chain-short-term', when: flags('order.orderId.orderFlags', true), cost: one },
        { bucket: 'chain-stateful-block', when: flags('order.orderId.orderFlags', false), cost: one },
        { bucket: 'chain-stateful-100', when: flags('order.orderId.orderFlags', false), cost: one },
      ],
      statefulProv,
      'order.orderId.orderFlags 0 is a short-term order (short-term budget); 32 (conditional), 64 (long-term) and the others are stateful (both stateful budgets). The flags must be given: proto JSON omits a 0, send it explicitly.',
    ),
    chainMsg(
      'MsgCancelOrder',
      [
        { bucket: 'chain-short-term', when: flags('orderId.orderFlags', true), cost: one, provenance: shortProv },
        { bucket: 'chain-short-term', when: flags('orderId.orderFlags', false), cost: { kind: 'constant', value: 0 }, provenance: doc('chain-limiter', Q.statefulCancel) },
      ],
      shortProv,
      'a short-term cancellation counts 1 on the short-term budget; a stateful one is not block-rate-limited (the chain only limits stateful placements), so it costs 0',
    ),
    chainMsg(
      'MsgBatchCancel',
      [{ bucket: 'chain-short-term', cost: { kind: 'constant', value: 2 }, provenance: doc('chain-limiter', Q.batchCancel) }],
      shortProv,
      "a batch cancellation of short-term orders counts 2 on the short-term budget, whatever its size (the chain's own weight; the documentation does not price it)",
    ),
    ...NODES.flatMap((n) =>
      split(n.kind === 'rpc' ? RPC_PATHS : REST_PATHS).map((s): EndpointSpec => {
        const [method, path] = s.split(' ') as [EndpointSpec['method'], string];
        return { id: `${n.id} ${method} ${path}`, method, path, host: n.host, auth: 'public', costs: [{ bucket: n.id, cost: one }], provenance: doc('endpoints', n.quote) };
      }),
    ),
  ],
  // The remaining count and window end of the route's own budget in the indexer's code (a route with
  // a budget of its own reports at most what the shared budget has used: a sync never lowers what is
  // booked, so that reading is harmless). Undocumented: the headers are read as the code writes them.
  feedback: [{ header: 'ratelimit-remaining', meaning: 'remaining', buckets: ['indexer'], resetHeader: 'ratelimit-reset', resetUnit: 'epoch-ms', provenance: unsure('indexer-code', `${Q.remaining} 'RateLimit-Reset': Date.now() + limitRes.msBeforeNext,`) }],
  errors: [
    {
      id: 'indexer-too-many-requests',
      status: [429],
      body: [{ path: 'errors.msg', equals: ['Too many requests'] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: { ...unsure('indexer-code', Q.indexer429), deviations: [{ value: 10_000, reason: 'conservative', text: 'neither the code\'s 429 body nor the documentation states a wait: the whole window of "100 requests / 10 sec"' }] },
      note: 'body {"errors":[{"msg":"Too many requests"}]}. The indexer\'s Retry-After is in milliseconds (its code sends msBeforeNext), not the seconds HTTP defines; the documentation states neither, so the whole 10 s window is waited.',
    },
    {
      id: 'node-too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: [{ from: 'fixed', ms: 60_000 }],
      provenance: { ...unsure('endpoints', NODES.map((n) => n.quote).join('; ')), deviations: [{ value: 60_000, reason: 'conservative', text: 'the operators document no refusal: the longest of their windows, one minute ("req/m")' }] },
      note: "any other 429 (a public node's operator): the operators document no refusal; the longest of their windows (1 minute) is waited",
    },
    ...blockLimitRules(),
  ],
  verification: {
    checked: '2026-12-01',
    corrections: [],
    crossChecks: [
      { other: 'ccxt 4.5.84 dydx.js', what: 'indexer REST', ours: '100 per 10 s per IP', theirs: 'rateLimit 100 ms, cost 1 (10 per s), /height 0.1', verdict: 'agree' },
      {
        other: 'ccxt 4.5.84 dydx.js',
        what: 'broadcast on its default node dydx-ops-rpc.kingnodes.com (GET /broadcast_tx_sync)',
        ours: "250 per minute per IP (KingNodes' row)",
        theirs: 'cost 1 on the same 10 per s pacer as the indexer',
        verdict: 'ccxt admits 2.4 times more than the operator documents: the documentation is shipped',
      },
      { other: 'ccxt 4.5.84 dydx.js', what: 'code 5001 (block rate limit exceeded)', ours: "rate limited: the limit's window is waited", theirs: 'InvalidOrder (no back-off)', verdict: 'the chain counts refused attempts too, so retrying at once keeps the account over the limit: waiting is shipped' },
      { other: 'hummingbot dydx_v4_perpetual/dydx_v4_perpetual_constants.py', what: 'indexer REST', ours: '100 per 10 s per IP', theirs: 'NO_LIMIT = 1000 per s', verdict: 'Hummingbot admits 100 times more than documented: the documentation is shipped' },
      {
        other: 'hummingbot dydx_v4_perpetual/dydx_v4_perpetual_constants.py',
        what: 'stateful (long-term) order placements',
        ours: '2 per block and 20 per 100 blocks (2 per 1.5 s, 20 per 150 s)',
        theirs: 'limit id "LIMIT_LONG_TERM_ORDER_PLACE" defined twice (20 per 100 s, then 200 per s as MARKET_SHORT_TERM_ORDER_PLACE, whose value is the same string); the throttler keeps the last: 200 per s',
        verdict: "Hummingbot's long-term orders are paced at 200 per s, 100 times the documented 20 per 100 blocks: the documentation is shipped",
      },
      {
        other: 'hummingbot dydx_v4_perpetual/dydx_v4_perpetual_constants.py',
        what: 'short-term placements and cancellations',
        ours: '2,000 per 5 blocks, cancellations included',
        theirs: '200 per s placements; cancellations NO_LIMIT (1000 per s)',
        verdict: 'within the documented budget for placements; cancellations share the budget on the chain: ours',
      },
      {
        other: 'dYdX documentation (current site), rate-limits page',
        what: 'short-term placements and cancellations',
        ours: '2,000 per 5 blocks',
        theirs: Q.shortTermNow,
        verdict: 'the current page raised the example to 4,000 with a 2025 governance update; the earlier page and the help center say 2,000. The sources disagree: the lower is shipped (uncertain)',
      },
      {
        other: 'dYdX help center, "Equity tiers and rate limits" (https://help.dydx.trade/en/articles/171918-equity-tiers-and-rate-limits, stored copy read 2026-12-01)',
        what: 'block rate limits',
        ours: '2,000 per 5 blocks short-term; 2 per block and 20 per 100 blocks stateful',
        theirs: Q.shortTermHelp,
        verdict: 'agree',
      },
      {
        other: 'dydxprotocol/v4-chain protocol/testing/mainnet/genesis.json',
        what: 'short-term placements and cancellations',
        ours: '2,000 per 5 blocks',
        theirs: '200 placements and 200 cancellations per block at genesis (2023), merged by the v5.0.0 upgrade into (200 + 200) x 5 = 2,000 per 5 blocks',
        verdict: 'agree with the earlier documentation',
      },
      {
        other: 'dydxprotocol/v4-chain comlink config.ts',
        what: 'indexer routes with budgets of their own',
        ours: 'one 100 per 10 s budget for every call',
        theirs: 'RATE_LIMIT_CANDLES_POINTS 1000 per 10 s; orders, fills, funding, pnl, sparklines 100 per 10 s each, apart from the default',
        verdict: "the documentation's single budget is stricter and is shipped",
      },
    ],
  },
  notes: [
    "The chain's limits are not HTTP limits: each node counts an account's order messages when it checks a transaction (CheckTx) and refuses the transaction with code 5001 (codespace clob) in the broadcast answer, with HTTP 200. Price the message with the message's type URL as the path and its value as the body, with the account's address as the identity's `uid`, then price the broadcast on the node's host; read the broadcast answer with interpretResponse on the message's request.",
    'The short-term budget is 4,000 per 5 blocks in the current documentation (updated with a governance change in 2025) and 2,000 per 5 blocks in the earlier documentation and the help center: the lower is shipped. The current values are on any node at GET /dydxprotocol/clob/block_rate; governance can change them.',
    'A governance proposal on the dYdX forum ("Increase stateful order rate limit") would drop the per-block cap and raise the 100-block limit to 50; the documentation still states 2 per block and 20 per 100 blocks, which are shipped (stricter either way).',
    'Not modelled: the open-order caps by equity tier (how many orders a subaccount may have open, not a rate), leverage updates (limited per account per N blocks by a parameter the documentation does not give: MsgUpdateLeverage is an unknown endpoint), withdrawals (limited by value, not by count), the indexer WebSocket and gRPC nodes.',
    "Nodes: a host the spec does not list (your own node, OEGS, other operators) is priced as the strictest listed one (AutoStake's 4 per s), a safe guess, not a documented limit.",
  ],
};
