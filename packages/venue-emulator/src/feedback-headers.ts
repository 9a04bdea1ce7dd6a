import type { VenueSpec } from '@core/exchange-specs';
import type { BucketLedger } from './bucket-ledger.js';

/**
 * The usage headers a venue sends, from the spec's feedback rules: for each rule, the first bucket
 * the request was charged on among the rule's buckets reports `used` (rounded up) or `remaining`
 * (rounded down), with its limit and window reset in the rule's units when the rule names them.
 *
 * @param charged - the bucket instances the request was priced on, in the order of its charges.
 */
export function feedbackHeaders(spec: VenueSpec, charged: readonly BucketLedger[], nowMs: number): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const rule of spec.feedback ?? []) {
    const ledger = charged.find((l) => rule.buckets.includes(l.bucket.id));
    if (ledger === undefined) continue;
    const state = ledger.room(nowMs);
    headers[rule.header] = String(rule.meaning === 'used' ? Math.ceil(state.used - 1e-9) : Math.floor(state.remaining + 1e-9));
    if (rule.limitHeader !== undefined) headers[rule.limitHeader] = String(ledger.limit);
    if (rule.resetHeader !== undefined) {
      const reset = Math.max(nowMs, state.resetAtMs);
      switch (rule.resetUnit ?? 'ms-from-now') {
        case 'ms-from-now':
          headers[rule.resetHeader] = String(Math.ceil(reset - nowMs));
          break;
        case 's-from-now':
          headers[rule.resetHeader] = String(Math.ceil((reset - nowMs) / 1000));
          break;
        case 'epoch-ms':
          headers[rule.resetHeader] = String(Math.ceil(reset));
          break;
        case 'epoch-s':
          headers[rule.resetHeader] = String(Math.ceil(reset / 1000));
          break;
      }
    }
  }
  return headers;
}
