import type { BucketSpec, CostExpr, EndpointSpec, ErrorRule, FeedbackRule, Provenance } from '../venue-spec.js';

/*
 * What BitMart's spot and futures specs share: the rows of BitMart's "Rate Limit" tables (one limit
 * per endpoint: "Limit Target" IP, X-BM-KEY or UID, and a rate such as "15 times/2 sec"), turned
 * into buckets (one per target and rate, each endpoint its own bucket) and endpoints; the usage
 * headers; the refusals. Read 2026-12-01.
 */

/** One row of a BitMart rate-limit table, quoted as the page prints it (`path | name | target | rate`). */
export interface BitmartRow {
  readonly method: EndpointSpec['method'];
  readonly path: string;
  readonly name: string;
  /** The "Limit Target" cell. */
  readonly target: 'IP' | 'X-BM-KEY' | 'UID';
  /** The "Rate" cell, verbatim (BitMart's typos included: "24 times/2 esc"). */
  readonly rate: string;
  /** The limit and window the rate cell states. */
  readonly limit: number;
  readonly windowMs: number;
  /** Another cost than 1 per request (a batch's size check). */
  readonly cost?: CostExpr;
  /** The table's source key, when not `limits`. */
  readonly source?: string;
  readonly note?: string;
}

export const BITMART_QUOTES = {
  scope: 'The speed of the public interface is limited according to the IP, and the speed of the private interface is limited according to the API KEY. When the requests exceed the rate limit, the 429 status will be returned: the request is too frequent.',
  headers: 'X-BM-RateLimit-Remaining | The number of requests that have been used in the current time window; X-BM-RateLimit-Limit | The max number of requests in the current time window; X-BM-RateLimit-Reset | Current time window, in seconds',
  banWarning: 'Note that when X-BM-RateLimit-Remaining> X-BM-RateLimit-Limit, please do not continue to call, otherwise it will be banned',
  code30013: 'Request too many requests | 30013 | 429',
  code30017: 'Your account request is temporarily rejected due to violation of current limiting rules, please contact customer service | 30017 | 418',
} as const;

const scopeOf = { IP: 'ip', 'X-BM-KEY': 'key', UID: 'uid' } as const;

/** The bucket id of a row: its target and rate, e.g. `key-12-per-2s`. */
export function bitmartBucketId(row: Pick<BitmartRow, 'target' | 'limit' | 'windowMs'>): string {
  return `${scopeOf[row.target]}-${row.limit}-per-${row.windowMs / 1000}s`;
}

const quoteOf = (row: BitmartRow): string => `${row.path} | ${row.name} | ${row.target} | ${row.rate}`;

/**
 * The buckets of a table: one per target and rate, partitioned by endpoint (each endpoint its own
 * bucket), quoting every row it covers.
 */
export function bitmartBuckets(rows: readonly BitmartRow[], source = 'limits'): BucketSpec[] {
  const groups = new Map<string, BitmartRow[]>();
  for (const r of rows) {
    const id = bitmartBucketId(r);
    groups.set(id, [...(groups.get(id) ?? []), r]);
  }
  return [...groups.entries()].map(([id, members]) => {
    const first = members[0] as BitmartRow;
    const provenance: Provenance = { source: first.source ?? source, confidence: 'documented', quote: members.map(quoteOf).join('; ') };
    const who = { IP: 'per IP', 'X-BM-KEY': 'per API key (X-BM-KEY)', UID: 'per account (UID)' }[first.target];
    return {
      id,
      scope: scopeOf[first.target],
      algorithm: 'sliding-window',
      limit: first.limit,
      windowMs: first.windowMs,
      partition: { kind: 'endpoint' },
      provenance,
      description: `the endpoints BitMart limits to ${first.rate}, each its own bucket, ${who}. BitMart does not say how the window moves: a rolling window is assumed (the strictest reading).`,
    } satisfies BucketSpec;
  });
}

/** The endpoints of a table, each charged 1 (or its row's cost) on its row's bucket. */
export function bitmartEndpoints(rows: readonly BitmartRow[], source = 'limits'): EndpointSpec[] {
  return rows.map((r) => ({
    id: `${r.method} ${r.path}`,
    method: r.method,
    path: r.path,
    auth: r.target === 'IP' ? 'public' : 'private',
    costs: [{ bucket: bitmartBucketId(r), cost: r.cost ?? { kind: 'constant', value: 1 } }],
    provenance: {
      source: r.source ?? source,
      confidence: 'documented',
      quote: quoteOf(r),
      // A rate cell without "times" ("10/sec") states requests per window all the same: each request is one.
      ...(r.cost === undefined && !/times/.test(r.rate) ? { deviations: [{ value: 1, reason: 'formula', text: `the rate cell "${r.rate}" counts requests: each request is one` }] } : {}),
    },
    ...(r.note === undefined ? {} : { note: r.note }),
  }));
}

/** The usage headers: BitMart's "Remaining" header is documented as the amount used. */
export function bitmartFeedback(buckets: readonly BucketSpec[], source = 'limits'): FeedbackRule[] {
  return [
    {
      header: 'x-bm-ratelimit-remaining',
      meaning: 'used',
      limitHeader: 'x-bm-ratelimit-limit',
      buckets: buckets.map((b) => b.id),
      provenance: { source, confidence: 'documented', quote: BITMART_QUOTES.headers },
    },
  ];
}

/**
 * The refusals: HTTP 429 / code 30013 (rate limited) and HTTP 418 / code 30017 (the account
 * rejected). X-BM-RateLimit-Reset is the window's length: holding the endpoint that long lets every
 * counted request leave the window whatever its kind.
 *
 * @param longestWindowMs - the longest window of the spec's buckets (the hold when the header is absent).
 */
export function bitmartErrors(longestWindowMs: number, source = 'limits', errorSource = 'errors'): ErrorRule[] {
  const windowWait = [{ from: 'header', header: 'x-bm-ratelimit-reset', unit: 's' } as const, { from: 'fixed', ms: longestWindowMs } as const];
  const banWait = [{ from: 'header', header: 'retry-after', unit: 's' } as const, { from: 'fixed', ms: 600_000 } as const];
  const banNote = 'BitMart gives no duration ("temporarily rejected ... please contact customer service"): Retry-After when sent, else 10 minutes';
  const banDeviation = [{ value: 600_000, reason: 'conservative', text: `${banNote}, the spec's default` } as const];
  const windowDeviation = [{ value: longestWindowMs, reason: 'conservative', text: `BitMart states no wait: without X-BM-RateLimit-Reset the endpoint's bucket is held ${longestWindowMs / 1000} s, the longest window of these endpoints` } as const];
  return [
    {
      id: 'account-rejected',
      status: [418],
      verdict: 'banned',
      counted: true,
      penalize: 'charged',
      wait: banWait,
      provenance: { source: errorSource, confidence: 'uncertain', quote: `${BITMART_QUOTES.code30017} / ${BITMART_QUOTES.banWarning}`, deviations: banDeviation },
      note: banNote,
    },
    {
      id: 'account-rejected-code',
      body: [{ path: 'code', equals: [30017] }],
      verdict: 'banned',
      counted: true,
      penalize: 'charged',
      wait: banWait,
      provenance: { source: errorSource, confidence: 'uncertain', quote: BITMART_QUOTES.code30017, deviations: banDeviation },
      note: `the code whatever the HTTP status; ${banNote}`,
    },
    {
      id: 'too-many-requests',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: windowWait,
      provenance: { source, confidence: 'documented', quote: `${BITMART_QUOTES.scope} / ${BITMART_QUOTES.headers}`, deviations: windowDeviation },
      note: `no wait is documented: the endpoint's bucket is held one window, X-BM-RateLimit-Reset ("Current time window, in seconds"), else ${longestWindowMs / 1000} s, the longest window of these endpoints`,
    },
    {
      id: 'too-many-requests-code',
      body: [{ path: 'code', equals: [30013] }],
      verdict: 'rate_limited',
      counted: true,
      penalize: 'charged',
      wait: windowWait,
      provenance: { source: errorSource, confidence: 'documented', quote: BITMART_QUOTES.code30013, deviations: windowDeviation },
      note: 'the code whatever the HTTP status; held as for HTTP 429',
    },
  ];
}
