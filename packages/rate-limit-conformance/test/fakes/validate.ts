import type { BucketCheck, BucketKey } from '@core/rate-limit-contract';
import { normalizeLimit } from '../../src/reference-model.js';

/** Why a key is malformed (never showing the credential), or undefined. */
export function badKey(key: unknown, path: string): string | undefined {
  if (typeof key !== 'object' || key === null) return `${path} must be an object`;
  const { venue, credential, axis } = key as Record<string, unknown>;
  if (typeof venue !== 'string' || venue.length === 0 || venue.length > 256) return `${path}.venue must be a non-empty string of at most 256 characters`;
  if (credential !== null && (typeof credential !== 'string' || credential.length === 0 || credential.length > 4096)) {
    return `${path}.credential must be null or a non-empty string of at most 4096 characters`;
  }
  if (axis !== undefined && (typeof axis !== 'string' || axis.length === 0 || axis.length > 256)) return `${path}.axis must be a non-empty string of at most 256 characters`;
  return undefined;
}

/** Why a cost is malformed, or undefined. */
export function badCost(cost: unknown, path: string): string | undefined {
  if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0) return `${path} must be a finite number >= 0, got ${String(cost)}`;
  return undefined;
}

/** Why a list of checks is malformed, or undefined. */
export function badChecks(checks: unknown): string | undefined {
  if (!Array.isArray(checks) || checks.length === 0) return 'checks must be a non-empty array';
  for (const [i, check] of (checks as unknown[]).entries()) {
    if (typeof check !== 'object' || check === null) return `checks[${i}] must be an object`;
    const c = check as BucketCheck;
    const why = badKey(c.key, `checks[${i}].key`) ?? badCost(c.cost, `checks[${i}].cost`);
    if (why !== undefined) return why;
    if (normalizeLimit(c.limit) === 'invalid') return `checks[${i}].limit is not a valid limit`;
  }
  return undefined;
}

/** Why a wait budget is malformed, or undefined. */
export function badBudget(maxWaitMs: unknown): string | undefined {
  if (maxWaitMs === undefined) return undefined;
  if (typeof maxWaitMs !== 'number' || !Number.isFinite(maxWaitMs) || maxWaitMs <= 0) return `maxWaitMs must be a finite number > 0, got ${String(maxWaitMs)}`;
  return undefined;
}

/** Whether `key` is a valid key. */
export function isKey(key: unknown): key is BucketKey {
  return badKey(key, 'key') === undefined;
}
