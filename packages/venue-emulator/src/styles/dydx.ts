import type { EmulatedResponse, Refusal, RefusalContext, SuccessContext, VenueStyle } from '../venue-style.js';

/** The chain's name and block count of each order limit of the `dydx-v4` spec, as its refusal log prints them. */
const CHAIN_LIMITS: Readonly<Record<string, { readonly context: string; readonly blocks: number }>> = {
  'chain-short-term': { context: 'MaxShortTermOrdersAndCancelsPerNBlocks', blocks: 5 },
  'chain-stateful-block': { context: 'MaxStatefulOrdersPerNBlocks', blocks: 1 },
  'chain-stateful-100': { context: 'MaxStatefulOrdersPerNBlocks', blocks: 100 },
};

const INDEXER_REFUSAL = { errors: [{ msg: 'Too many requests' }] } as const;

/**
 * dYdX v4. Order messages (`POST /dydxprotocol.clob.Msg...`, the chain's limits) are answered as a
 * broadcast result, `{ code, codespace, log, hash }`: over a block limit, code 5001 in codespace
 * `clob` with HTTP 200, the log naming the limit as the chain formats it. The indexer refuses with
 * HTTP 429, `{"errors":[{"msg":"Too many requests"}]}`, `RateLimit-*` headers and a Retry-After in
 * milliseconds (as its code does); a public node with a plain 429. The signer's address stands in
 * for an API key (`x-dydx-address`): the chain reads it from the signed transaction.
 */
export const dydxStyle: VenueStyle = {
  name: 'dydx',
  apiKeyHeader: 'x-dydx-address',
  success({ endpoint, nowMs }: SuccessContext): EmulatedResponse {
    if (endpoint?.id.startsWith('chain ') === true) {
      return { status: 200, body: { code: 0, codespace: '', log: '[]', hash: Math.floor(nowMs).toString(16).toUpperCase() } };
    }
    return { status: 200, body: { endpoint: endpoint?.id ?? null, time: new Date(nowMs).toISOString() } };
  },
  refuse(ctx: RefusalContext): Refusal {
    const chain = CHAIN_LIMITS[ctx.bucket.id];
    if (chain !== undefined) {
      const log = `Rate of ${Math.floor(ctx.used) + 1} exceeds configured block rate limit of {NumBlocks:${chain.blocks} Limit:${ctx.limit}} for ${chain.context} and dydx1account: Block rate limit exceeded`;
      return { response: { status: 200, body: { code: 5001, codespace: 'clob', log, hash: Math.floor(ctx.nowMs).toString(16).toUpperCase() } } };
    }
    if (ctx.bucket.id !== 'indexer') return { response: { status: 429, body: { error: 'Too Many Requests' } } };
    const headers = {
      'ratelimit-remaining': '0',
      'ratelimit-limit': String(ctx.limit),
      'ratelimit-reset': String(Math.ceil(ctx.resetAtMs)),
      'retry-after': String(Math.max(1, Math.ceil(ctx.resetAtMs - ctx.nowMs))),
    };
    return { response: { status: 429, headers, body: INDEXER_REFUSAL } };
  },
  banned(): EmulatedResponse {
    return { status: 429, body: INDEXER_REFUSAL };
  },
  badRequest(code: string, message: string): EmulatedResponse {
    return { status: code === 'unknown_endpoint' ? 404 : 400, body: { errors: [{ msg: message, code }] } };
  },
};
