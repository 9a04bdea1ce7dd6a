// KuCoin's usage headers and 429 answers, the same for every KuCoin REST family (spot, futures,
// unified account): one statement, quoted from KuCoin's rate-limit page (each spec's `rateLimit` source,
// https://www.kucoin.com/docs-new/rate-limit, retrieved 2026-12-01).
import type { ErrorRule, FeedbackRule } from '../venue-spec.js';

/** The `gw-ratelimit-*` headers every answer carries, for the resource pools named. */
export function kucoinUsageHeaders(buckets: readonly string[]): FeedbackRule {
  return {
    header: 'gw-ratelimit-remaining',
    meaning: 'remaining',
    limitHeader: 'gw-ratelimit-limit',
    resetHeader: 'gw-ratelimit-reset',
    resetUnit: 'ms-from-now',
    buckets,
    provenance: {
      source: 'rateLimit',
      confidence: 'documented',
      quote: 'The returned information of each request will carry the following information: Total resource pool quota, resource pool remaining quota, resource pool quota reset countdown (milliseconds). "gw-ratelimit-limit": 500 "gw-ratelimit-remaining": 300 "gw-ratelimit-reset": 1489',
    },
  };
}

/** A used-up pool (held until the reset the header names) and server overload (not counted). */
export const KUCOIN_429_RULES: readonly ErrorRule[] = [
  {
    id: 'quota-exceeded',
    status: [429],
    body: [{ path: 'code', equals: ['429000'] }],
    hasHeader: 'gw-ratelimit-reset',
    verdict: 'rate_limited',
    counted: true,
    penalize: 'charged',
    wait: [{ from: 'header', header: 'gw-ratelimit-reset', unit: 'ms' }],
    provenance: {
      source: 'rateLimit',
      confidence: 'documented',
      quote:
        'If the quota of any resource pool is used up within 30s, that is, after the rate limit is exceeded, an error message of http code:429, error code:429000 will be returned, and the request can be re-requested after the length of time displayed in the request header. At this point, the user must stop access and wait until the resource quota is reset before continuing to access.',
    },
    note: 'the pool is used up: the charged buckets are held until the reset the header names',
  },
  {
    id: 'overloaded',
    status: [429],
    body: [{ path: 'code', equals: ['429000'] }],
    lacksHeader: 'gw-ratelimit-reset',
    verdict: 'overloaded',
    counted: false,
    wait: [{ from: 'fixed', ms: 1000 }],
    provenance: {
      source: 'rateLimit',
      confidence: 'documented',
      quote:
        'In addition to the regular rate limit, server overload may also trigger the rate limit. After the rate limit, the error code is 429000, but the request header will not carry other personal rate limit information. This type of rate limit does not count toward the number of rate limits. It is recommended to try again later.',
      deviations: [{ value: 1000, reason: 'conservative', text: 'KuCoin says "It is recommended to try again later", no number: 1 s is the spec\'s default; nothing is held (this limit "does not count toward the number of rate limits")' }],
    },
    note: 'server overload, not counted against the quota; KuCoin states no wait ("try again later"): 1 s is the documented default, nothing held',
  },
];
