import type { NormalizedLimit } from '@core/rate-limit-contract';
import { describeValue } from './describe-value.js';
import { normalizeKey, type NormalizedKey } from './normalize-key.js';
import { normalizeLimit } from './normalize-limit.js';
import { invalid, ok, type Result } from './result.js';
import { validateCost } from './validate-number.js';

/** One bucket's part of a validated request; repeated keys already merged (RL-M2). */
export interface NormalizedCheck {
  readonly key: NormalizedKey;
  /** `null` for unlimited (RL-L2): admitted at once, nothing recorded. */
  readonly limit: NormalizedLimit | null;
  /** The combined cost of every occurrence of this key in the call. */
  readonly cost: number;
  /** Where the key first occurred in the caller's list. */
  readonly index: number;
}

/** The longest list of checks accepted in one call. */
export const MAX_CHECKS = 1024;

/** A string that is equal for two normalized keys exactly when they name the same bucket. */
export function keyIdentity(key: NormalizedKey): string {
  return `${key.venue.length}:${key.venue}${key.credential === null ? '-' : `+${key.credential.length}:${key.credential}`}/${key.axis}`;
}

function sameLimit(a: NormalizedLimit | null, b: NormalizedLimit | null): boolean {
  if (a === null || b === null) return a === b;
  return a.capacity === b.capacity && a.refillPerSec === b.refillPerSec;
}

function describeLimit(l: NormalizedLimit | null): string {
  return l === null ? 'unlimited' : `{ capacity: ${l.capacity}, refillPerSec: ${l.refillPerSec} }`;
}

/**
 * Validates the checks of one multi-bucket call: a non-empty array (at most 1024 entries) of
 * `{ key, limit, cost }`, each validated like a single check. Repeated keys are merged into one
 * check at their combined cost, in the order of their first occurrence (RL-M2); one key given two
 * different definitions is `invalid_parameters` (RL-M3). Nothing is thrown.
 *
 * @param checks - the caller's list (anything).
 * @param path - the name of the list in error paths, `"checks"` by default.
 * @returns the merged checks, or the first error found, with `path` like `"checks[1].cost"`.
 * @example
 * ```ts
 * const r = validateChecks([{ key: ip, limit, cost: 3 }, { key: ip, limit, cost: 2 }]);
 * // r.value: [{ key: ip (normalized), limit, cost: 5, index: 0 }]
 * ```
 */
export function validateChecks(checks: unknown, path = 'checks'): Result<readonly NormalizedCheck[]> {
  if (!Array.isArray(checks)) return invalid(path, `must be a non-empty array of { key, limit, cost } (got ${describeValue(checks)})`);
  if (checks.length === 0) return invalid(path, 'must not be empty');
  if (checks.length > MAX_CHECKS) return invalid(path, `must hold at most ${MAX_CHECKS} checks (got ${checks.length})`);
  const merged: { key: NormalizedKey; limit: NormalizedLimit | null; cost: number; index: number }[] = [];
  const seen = new Map<string, number>();
  for (let i = 0; i < checks.length; i++) {
    const at = `${path}[${i}]`;
    const check: unknown = checks[i];
    if (typeof check !== 'object' || check === null || Array.isArray(check)) {
      return invalid(at, `must be an object { key, limit, cost } (got ${describeValue(check)})`);
    }
    let rawKey: unknown;
    let rawLimit: unknown;
    let rawCost: unknown;
    try {
      ({ key: rawKey, limit: rawLimit, cost: rawCost } = check as { key?: unknown; limit?: unknown; cost?: unknown });
    } catch {
      return invalid(at, 'could not be read (a getter threw)');
    }
    const key = normalizeKey(rawKey, `${at}.key`);
    if (!key.ok) return key;
    const limit = normalizeLimit(rawLimit, `${at}.limit`);
    if (!limit.ok) return limit;
    const cost = validateCost(rawCost, `${at}.cost`);
    if (!cost.ok) return cost;
    const id = keyIdentity(key.value);
    const prior = seen.get(id);
    if (prior === undefined) {
      seen.set(id, merged.length);
      merged.push({ key: key.value, limit: limit.value, cost: cost.value, index: i });
      continue;
    }
    const first = merged[prior];
    if (first === undefined) return invalid(at, 'internal bookkeeping failed');
    if (!sameLimit(first.limit, limit.value)) {
      return invalid(
        `${at}.limit`,
        `defines bucket ${key.value.venue}/${key.value.axis} as ${describeLimit(limit.value)} but ${path}[${first.index}] defines it as ${describeLimit(first.limit)} in the same call`,
      );
    }
    first.cost += cost.value;
  }
  return ok(merged);
}
