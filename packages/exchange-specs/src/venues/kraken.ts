import type { CostExpr, CostRule, EndpointSpec, Provenance, VenueSpec } from '../venue-spec.js';
import { KRAKEN_VERIFICATION } from './kraken-verification.js';

/*
 * Quoted from Kraken's API guides (docs.kraken.com, versions of 2026-06-09), read 2026-12-01. Where
 * the current guide is silent (the Starter tier of the REST counter, the lockout), the older support
 * article of Kraken's staff is quoted instead, and the number marked accordingly.
 */

const rest = (quote: string): Provenance => ({ source: 'rest', confidence: 'documented', quote });
const engine = (quote: string): Provenance => ({ source: 'engine', confidence: 'documented', quote });
const pair = { kind: 'param', param: 'pair' } as const;

/**
 * The pair counter an order transaction is charged on, and the key-wide bound of every pair counter. AmendOrder,
 * CancelOrder and CancelOrderBatch name orders (txid, userref, cl_ord_id), not a pair, so they cannot be
 * charged on their pair's counter without state: they are charged on `trading-key` only, which every order
 * transaction of the key (of any pair) is charged on too. A pair's counter receives a subset of what
 * `trading-key` receives and decays at the same rate, so it never exceeds it: keeping `trading-key` under the
 * threshold keeps every pair's counter under it, whatever pair an order without a pair belongs to.
 */
const onPair = (cost: CostExpr): CostRule[] => [
  { bucket: 'trading', cost },
  { bucket: 'trading-key', cost },
];
const onKey = (cost: CostExpr): CostRule => ({ bucket: 'trading-key', cost });

const Q = {
  counter: 'Every REST API user has a “call counter” which starts at 0. Ledger/trade history calls increase the counter by 2. All other API calls increase this counter by 1 (except AddOrder, CancelOrder which operate on a different limiter detailed further below).',
  tiersSupport: '認証レベル2ではAPIのリミットが15で、3秒毎に1ずつすくなくなります。認証レベル3と4ではリミットが20で、認証レベル3の場合は2秒毎に1、認証レベル4では1秒毎に1ずつそれぞれ減少します。',
  lockout:
    'Temporary lockout error messages are Ié based and can occur if you had too many failed API calls, or too many invalid nonce errors in a short period of time or invalid signatures. Even though these calls return an error, that error still counts against your API limits, and may result in a temporary lockout. Temporary lockouts typically last approximately 15 minutes.',
  failedCalls: 'too many invalid nonce errors in a short period of time or invalid signatures. Even though these calls return an error, that error still counts against your API limits, and may result in a temporary lockout.',
  restricted: 'If the rate limits are reached, additional calls will be restricted for a few seconds (or possibly longer if calls continue to be made while the rate limits are active). | "EAPI:Rate limit exceeded" if the REST API counter exceeds the user\'s maximum.',
  throttled: '"EService: Throttled: [UNIX timestamp]" if there are too many concurrent requests. Try again after [timestamp].',
  perPair: 'Each client has a rate counter **per pair**, the count starts at 0 and the count is incremented on each transaction by a given amount depending on the transaction type. The count is decremented over time by a decay rate based on client tier.',
  threshold: 'Rate counter threshold | 60 | 125 | 180 (Starter Tier | Intermediate Tier | Pro Tier) | Rate counter decay rate | -1 | -2.34 | -3.75 | The rate counter is decreased by a decay rate every second, the decay rate varies by client tier.',
  add: 'Transaction | Fixed | < 5s | < 10s | < 15s | < 45s | < 90s | < 300s | Add Order | +1 | - | - | - | - | - | -',
  amend: 'Transaction | Fixed | < 5s | < 10s | < 15s | < 45s | < 90s | < 300s | Amend Order | +1 | +3 | +2 | +1 | - | - | -',
  edit: 'Transaction | Fixed | < 5s | < 10s | < 15s | < 45s | < 90s | < 300s | Edit Order | +1 | +6 | +5 | +4 | +2 | +1 | -',
  cancel: 'Transaction | Fixed | < 5s | < 10s | < 15s | < 45s | < 90s | < 300s | Cancel Order | - | +8 | +6 | +5 | +4 | +2 | +1',
  batchAdd: 'Transaction | Fixed | Batch Add | +(n/2) | `n` represents the number of orders in a batch. | Sends a collection of orders (minimum of 2 and maximum 15)',
  batchCancel:
    'Transaction | Fixed | < 5s | < 10s | < 15s | < 45s | < 90s | < 300s | Batch Cancel | - | +(8*n) | +(6*n) | +(5*n) | +(4*n) | +(2*n) | (1*n) | n represents the number of orders in a batch. | If the rate counter in the batch exceeds maximum for a batch cancel, the requests in batch are still accepted. | Cancel multiple open orders by txid, userref or cl_ord_id(maximum 50 total unique IDs/references)',
  orderLimit: 'When the rate counter exceeds the threshold for the client tier, further transactions will be restricted with `EOrder:Rate limit exceeded` rejection until the rate counter has decayed below the threshold.',
} as const;

/** The rate of the IP bucket: high enough never to pace (Kraken states no such limit); it exists for the lockout's hold. */
const IP_HOLD_RATE = 1000;

/** "Temporary lockouts typically last approximately 15 minutes." */
const LOCKOUT_MS = 900_000;

const counter = (cost: number, provenance?: Provenance): CostRule => ({ bucket: 'rest-counter', cost: { kind: 'constant', value: cost }, ...(provenance === undefined ? {} : { provenance }) });

/** Ledger and trade history calls: the guide says +2; the spec charges twice that (see the deviation). */
const LEDGER_COST = 4;

const LEDGER_DEVIATION = {
  value: LEDGER_COST,
  reason: 'conservative',
  text: 'Kraken\'s guide says "Ledger/trade history calls increase the counter by 2" (so does its support article); 4 is charged, twice that: the guide does not list which endpoints it counts as such, and an overflow of the key\'s counter refuses every call of the key. This spec quoted "by `4`" from 2026-12-01 to 2026-12-07, a quote that was not the guide\'s words',
} as const;

function priv(id: string, weight: 1 | typeof LEDGER_COST, confidence: 'documented' | 'uncertain' = 'documented'): EndpointSpec {
  const deviations = weight === LEDGER_COST ? { deviations: [LEDGER_DEVIATION] } : {};
  return { id, method: 'POST', path: `/0/private/${id}`, auth: 'private', costs: [counter(weight)], provenance: { source: 'rest', confidence, quote: Q.counter, ...deviations } };
}

function pub(id: string): EndpointSpec {
  return { id, method: 'GET', path: `/0/public/${id}`, auth: 'public', costs: [{ bucket: 'public', cost: { kind: 'constant', value: 1 } }], provenance: PUBLIC };
}

/**
 * OHLC, Depth and Trades, which ccxt spaces 1.2 s apart because one per second is refused: an IP's own
 * bucket for them, beside `public`, at 4 per 5 s (0.8 per second).
 */
const PUBLIC_HEAVY: Provenance = {
  source: 'ccxt',
  confidence: 'uncertain',
  quote: "'OHLC': { 'cost': 1.2 }, // 1.2 because 1 triggers too many requests immediately",
  deviations: [
    { value: 4, reason: 'conservative', text: 'Kraken states no number; ccxt spaces these calls 1.2 s apart (0.83 per second) because one per second is refused: 4 calls per 5 s (0.8 per second), a little slower' },
    { value: 5000, reason: 'conservative', text: 'the window of those 4 calls: 5 s' },
  ],
};

function pubHeavy(id: string): EndpointSpec {
  return {
    ...pub(id),
    costs: [
      { bucket: 'public', cost: { kind: 'constant', value: 1 } },
      { bucket: 'public-heavy', cost: { kind: 'constant', value: 1 }, provenance: PUBLIC_HEAVY },
    ],
  };
}

const PUBLIC: Provenance = {
  source: 'rest',
  confidence: 'uncertain',
  quote: 'If the rate limits are reached, additional calls will be restricted for a few seconds (or possibly longer if calls continue to be made while the rate limits are active).',
};

/** A trading call also counts 1 on the REST counter: the guide exempts only AddOrder and CancelOrder. */
const alsoCounter = counter(1, { source: 'rest', confidence: 'uncertain', quote: Q.counter });

/**
 * The most ids of a batch cancel admitted at once: 8 each (the worst case by order age) within the lowest
 * threshold (Starter's 60). Kraken takes up to 50, and accepts a batch that takes the counter past the threshold.
 */
const BATCH_CANCEL_IDS = 7;

/** `8*n` for a batch cancel of n ids (txids or userrefs, or cl_ord_ids): more than {@link BATCH_CANCEL_IDS} is refused, to be split. */
const eightPerOrder = (param: string): CostExpr => ({ kind: 'table', param, measure: 'count', rows: Array.from({ length: BATCH_CANCEL_IDS }, (_, i) => ({ upTo: i + 1, cost: 8 * (i + 1) })) });

/** A batch cancel by `orders` or by `cl_ord_ids`; both lists in one batch are refused (no cost listed for that), to be sent apart. */
const batchCancelCost: CostExpr = {
  kind: 'presence',
  param: 'orders',
  present: { kind: 'presence', param: 'cl_ord_ids', present: { kind: 'lookup', param: 'cl_ord_ids', values: {} }, absent: eightPerOrder('orders') },
  absent: eightPerOrder('cl_ord_ids'),
};

/** `n/2` for a batch of 2 to 15 orders (more, or fewer, is refused). */
const halfPerOrder: CostExpr = { kind: 'table', param: 'orders', measure: 'count', rows: Array.from({ length: 15 }, (_, i) => ({ upTo: i + 1, cost: (i + 1) / 2 })) };

function trading(id: string, costs: readonly CostRule[], provenance: Provenance, note?: string): EndpointSpec {
  return { id, method: 'POST', path: `/0/private/${id}`, auth: 'private', costs, provenance, ...(note === undefined ? {} : { note }) };
}

/** Kraken spot REST: a decaying call counter per API key, and the trading engine's counter per pair. */
export const kraken: VenueSpec = {
  id: 'kraken',
  venue: 'Kraken',
  product: 'spot REST API',
  markets: ['spot'],
  origin: 'hand-authored',
  ccxtIds: ['kraken'],
  defaultTier: 'starter',
  sources: {
    rest: { url: 'https://docs.kraken.com/api/docs/guides/spot-rest-ratelimits', retrieved: '2026-12-01', note: 'Spot REST Rate Limits guide, version of 2026-06-09' },
    engine: {
      url: 'https://docs.kraken.com/api/docs/guides/spot-ratelimits',
      retrieved: '2026-12-07',
      note: "Spot Trading Limits guide (shared by REST, WebSocket and FIX), version of 2026-06-09 read 2026-12-01; its whole table (the Batch Cancel row and the batch note) read 2026-12-07 from a stored copy of the page (also served as https://docs.kraken.com/exchange/guides/general/ratelimits). Batch sizes from https://docs.kraken.com/api/docs/rest-api/add-order-batch and, for CancelOrderBatch's 50 ids, https://docs.kraken.com/api-reference/trading/cancel-order-batch (read 2026-12-07)",
    },
    errorCodes: {
      url: 'https://support.kraken.com/hc/en-us/articles/360001491786-API-Error-Codes',
      retrieved: '2026-12-07',
      note: 'Kraken support article "API Error Codes": EGeneral:Temporary lockout ("Ié based" is the article\'s own spelling of IP based), read from a stored copy',
    },
    ccxt: { url: 'https://github.com/ccxt/ccxt/blob/4.5.84/js/src/kraken.js', retrieved: '2026-12-07', note: "ccxt 4.5.84's costs of Kraken's public endpoints on its one-per-second limiter, with the reason it charges OHLC, Depth and Trades 1.2" },
    support: {
      url: 'https://support.kraken.com/hc/ja/articles/209234858',
      retrieved: '2026-12-01',
      note: 'Kraken support article "What are the API call rate limits?" (Japanese edition): the Starter (verification level 2) counter, which the current guide no longer states',
    },
  },
  buckets: [
    {
      id: 'rest-counter',
      scope: 'key',
      algorithm: 'token-bucket',
      capacity: 15,
      refillPerSec: 0.33,
      provenance: {
        source: 'support',
        confidence: 'observed',
        quote: Q.tiersSupport,
        deviations: [
          { value: 0.33, reason: 'formula', text: '"3秒毎に1" (1 every 3 seconds) as a rate per second, rounded down' },
          { value: 0.5, reason: 'formula', text: '"2秒毎に1" (1 every 2 seconds) as a rate per second' },
        ],
      },
      description:
        "call counter per API key (Kraken's REST guide: \"Each API key's counter is separate\"): +1 per call, +4 for ledger and trade history; decays per tier. The guide lists Intermediate (20, -0.5/sec) and Pro (20, -1/sec) only; the Starter values (15, 1 every 3 s), the default here, are from Kraken's support article, which gives the same Intermediate and Pro values",
      tiers: { starter: { capacity: 15, refillPerSec: 0.33 }, intermediate: { capacity: 20, refillPerSec: 0.5 }, pro: { capacity: 20, refillPerSec: 1 } },
    },
    {
      id: 'trading',
      scope: 'uid',
      algorithm: 'token-bucket',
      capacity: 60,
      refillPerSec: 1,
      partition: pair,
      provenance: engine(`${Q.perPair} | ${Q.threshold}`),
      description: "the trading engine's rate counter per client per pair, shared by REST, WebSocket and FIX",
      tiers: { starter: { capacity: 60, refillPerSec: 1 }, intermediate: { capacity: 125, refillPerSec: 2.34 }, pro: { capacity: 180, refillPerSec: 3.75 } },
    },
    {
      id: 'trading-key',
      scope: 'uid',
      algorithm: 'token-bucket',
      capacity: 60,
      refillPerSec: 1,
      provenance: engine(`${Q.perPair} | ${Q.threshold}`),
      description:
        "a bound of every pair counter of the client: a pair counter's threshold and decay, charged with every order transaction of any pair. AmendOrder, CancelOrder and CancelOrderBatch name no pair and are charged here only; a pair's counter counts a part of what this one counts and decays as fast, so it stays under this one. It paces the key's order transactions of all pairs together as one pair's",
      tiers: { starter: { capacity: 60, refillPerSec: 1 }, intermediate: { capacity: 125, refillPerSec: 2.34 }, pro: { capacity: 180, refillPerSec: 3.75 } },
    },
    {
      id: 'ip',
      scope: 'ip',
      algorithm: 'token-bucket',
      capacity: IP_HOLD_RATE,
      refillPerSec: IP_HOLD_RATE,
      provenance: {
        source: 'errorCodes',
        confidence: 'observed',
        quote: Q.lockout,
        deviations: [{ value: IP_HOLD_RATE, reason: 'conservative', text: 'Kraken states no limit per IP for private calls: the bucket is charged by every request so that a lockout, which is per IP, holds them all; 1,000 per second is far above every Kraken limit, so it never paces a request on its own' }],
      },
      description: 'every request of the IP (public, private and trading), so that EGeneral:Temporary lockout, which is per IP, holds them all; no pacing of its own',
    },
    {
      id: 'public',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 1,
      windowMs: 1000,
      provenance: PUBLIC,
      description: "Kraken documents no number for its public endpoints (per IP); one call per second is the spec's conservative default",
    },
    {
      id: 'public-heavy',
      scope: 'ip',
      algorithm: 'sliding-window',
      limit: 4,
      windowMs: 5000,
      provenance: PUBLIC_HEAVY,
      description: 'OHLC, Depth and Trades per IP, beside `public`: ccxt charges them 1.2 on its one-per-second limiter because one per second "triggers too many requests immediately"; 4 per 5 s (0.8 per second) keeps them below that',
    },
  ],
  endpoints: [
    priv('Balance', 1),
    priv('BalanceEx', 1),
    priv('TradeBalance', 1),
    priv('OpenOrders', 1),
    priv('ClosedOrders', 1),
    priv('QueryOrders', 1),
    priv('OpenPositions', 1),
    priv('TradeVolume', 1),
    priv('GetWebSocketsToken', 1),
    priv('CancelAll', 1),
    priv('TradesHistory', LEDGER_COST),
    priv('Ledgers', LEDGER_COST),
    priv('QueryTrades', LEDGER_COST, 'uncertain'),
    priv('QueryLedgers', LEDGER_COST, 'uncertain'),
    trading('AddOrder', onPair({ kind: 'constant', value: 1 }), engine(Q.add)),
    trading('AddOrderBatch', [...onPair(halfPerOrder), alsoCounter], engine(Q.batchAdd), "orders of one pair (the batch's pair parameter); 2 to 15 orders"),
    trading(
      'AmendOrder',
      [onKey({ kind: 'constant', value: 4 }), alsoCounter],
      { ...engine(Q.amend), deviations: [{ value: 4, reason: 'formula', text: 'the worst case: the fixed +1 plus +3 for an order younger than 5 s' }] },
      "+1, plus 3/2/1 when the order is younger than 5/10/15 s: the order's age is unknown, so the worst case (4) is reserved. AmendOrder names an order, not a pair: it is charged on the key's bound of every pair counter (trading-key)",
    ),
    trading(
      'EditOrder',
      onPair({ kind: 'constant', value: 7 }).concat(alsoCounter),
      { ...engine(Q.edit), deviations: [{ value: 7, reason: 'formula', text: 'the worst case: the fixed +1 plus +6 for an order younger than 5 s' }] },
      '+1, plus 6/5/4/2/1 when the order is younger than 5/10/15/45/90 s: the worst case (7) is reserved',
    ),
    trading(
      'CancelOrder',
      [onKey({ kind: 'constant', value: 8 })],
      engine(Q.cancel),
      "8/6/5/4/2/1 when the order is younger than 5/10/15/45/90/300 s: the order's age is unknown, so the worst case (8) is reserved. CancelOrder names an order, not a pair: it is charged on the key's bound of every pair counter (trading-key). A userref that names several orders cancels (and costs) each of them: send one order's id",
    ),
    trading(
      'CancelOrderBatch',
      [onKey(batchCancelCost), alsoCounter],
      engine(Q.batchCancel),
      "8 per order at worst (the orders' ages are unknown), up to 50 ids, on the key's bound of every pair counter (the ids name orders, not pairs). Kraken accepts a batch that takes the counter past the threshold, which then refuses every order transaction of the pair until it decays: a batch of more than 7 ids (56, within the lowest threshold, Starter's 60, which the spec's validation requires of every cost) is refused here, to be split. Send ids in `orders` or in `cl_ord_ids`, not both in one batch (refused)",
    ),
    pub('Time'),
    pub('SystemStatus'),
    pub('Assets'),
    pub('AssetPairs'),
    pub('Ticker'),
    pubHeavy('OHLC'),
    pubHeavy('Depth'),
    pubHeavy('Trades'),
    pub('Spread'),
  ],
  global: [{ bucket: 'ip', cost: { kind: 'constant', value: 1 }, provenance: { source: 'errorCodes', confidence: 'observed', quote: Q.lockout } }],
  errors: [
    {
      id: 'lockout',
      body: [{ path: 'error', startsWith: 'EGeneral:Temporary lockout' }],
      verdict: 'banned',
      counted: true,
      penalize: ['ip', 'public', 'rest-counter', 'trading', 'trading-key'],
      wait: [{ from: 'fixed', ms: LOCKOUT_MS }],
      provenance: { source: 'errorCodes', confidence: 'observed', quote: Q.lockout },
      note: "per IP, after too many failed calls, invalid nonces or invalid signatures: every request of the IP is held (the IP bucket every request is charged on, and the public calls; the key's counter and the pair of the request too) for about 15 minutes. The failed calls that cause it are the invalid-nonce, invalid-signature and invalid-key rules",
    },
    {
      id: 'throttled',
      body: [{ path: 'error', contains: 'Throttled' }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['rest-counter', 'trading', 'trading-key', 'public'],
      wait: [
        { from: 'body', path: 'error', unit: 'epoch-s', pattern: '^EService: ?Throttled: ?(\\d+)' },
        { from: 'fixed', ms: 5000 },
      ],
      provenance: { ...rest(Q.throttled), deviations: [{ value: 5000, reason: 'conservative', text: 'Kraken\'s message carries when to try again ("Try again after [timestamp]"); without one, or without a Date header to read it against, the spec holds 5 s, its own default: Kraken states no duration' }] },
      note: 'too many concurrent requests (EService: Throttled, also seen spelled EService:Throttled): the key\'s counter, its order transactions (trading-key; the pair too when the request names one: "Try again after [timestamp]") and the public calls are held until the UNIX time the message carries (read against the Date header); without a time, or without a Date header, for the documented default of 5 s',
    },
    {
      id: 'api-rate-limit',
      body: [{ path: 'error', startsWith: 'EAPI:Rate limit exceeded' }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['rest-counter'],
      wait: [{ from: 'fixed', ms: 15_000 }],
      provenance: {
        ...rest(Q.restricted),
        deviations: [{ value: 15000, reason: 'conservative', text: 'Kraken states "a few seconds (or possibly longer ...)" and no number: 15 s, the spec\'s default, is more than a few seconds and five times the 3 s in which the Starter counter frees one call (support article: "3秒毎に1")' }],
      },
      note: 'HTTP 200 with error EAPI:Rate limit exceeded: the key\'s counter is held (the IP bucket every request is charged on is held only by a lockout); Kraken states "a few seconds (or possibly longer)": the documented default is 15 s',
    },
    {
      id: 'order-rate-limit',
      body: [{ path: 'error', startsWith: 'EOrder:Rate limit exceeded' }],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['trading', 'trading-key'],
      wait: [{ from: 'fixed', ms: 10_000 }],
      provenance: {
        ...engine(Q.orderLimit),
        deviations: [
          {
            value: 10000,
            reason: 'conservative',
            text: 'Kraken reports no counter value, so the time to decay below the threshold is unknown: 10 s, the spec\'s default, lets the Starter counter (decay "-1" per second) fall by 10, more than any single order transaction charges at its worst (8, a cancel of an order younger than 5 s)',
          },
        ],
      },
      note: 'the pair counter is over the threshold until it decays, at a rate Kraken states per tier but from a value it does not report: the documented default is 10 s',
    },
    ...(['Invalid nonce', 'Invalid signature', 'Invalid key'] as const).map((message) => ({
      id: `invalid-${message.slice('Invalid '.length)}`,
      body: [{ path: 'error', startsWith: `EAPI:${message}` }],
      verdict: 'error' as const,
      counted: true,
      provenance: { source: 'errorCodes', confidence: 'observed' as const, quote: Q.failedCalls },
      note: `EAPI:${message}: a failed call, counted against the API limits; too many of them lock the IP out (EGeneral:Temporary lockout)`,
    })),
  ],
  verification: KRAKEN_VERIFICATION,
  notes: [
    'Private calls are POSTs with form (or JSON) bodies; the pair counter needs the pair (body or query) of AddOrder, AddOrderBatch and EditOrder, which take one.',
    "AmendOrder, CancelOrder and CancelOrderBatch take no pair: they are charged, at their worst case by order age, on `trading-key`, the key's bound of every pair counter, which every order transaction is charged on too. It is sound without knowing the pair, at a price: the key's order transactions of all pairs together are paced as one pair's. A client that knows each order's pair and age can only do better by keeping that state itself.",
    'Not modelled: the open-order limits per pair (60/80/225).',
  ],
};
