import type { BucketKey, Limit, NormalizedLimit } from '@core/rate-limit-contract';
import type { ModelWindow } from './window-log.js';

/**
 * The numbers and small pure functions of the bucket arithmetic (MODEL.md in
 * `@core/rate-limit-contract`), shared by the suite's {@link ReferenceModel} and its fakes.
 */

/** Relative float tolerance of comparisons: 1e-9 of the bucket (RL-A7). */
export const MODEL_EPS = 1e-9;

/**
 * The representable horizon in milliseconds (about 31,700 years): a send time more than this after
 * now is `cost_unpayable` (RL-A7); `tat` and a hold's end are clamped to it (RL-R1, RL-R2, RL-R3).
 */
export const HORIZON_MS = 1e15;

/** The largest amount a fixed quota's `used` holds; records and syncs beyond it are clamped (RL-R1). */
export const MAX_AMOUNT = 1e300;

/** One step of rounding up: a charge never falls short of its cost by float rounding. */
const ROUND_UP = 2.220446049250313e-16;

/** A bucket key with its axis filled in (RL-K2). */
export interface ModelKey {
  readonly venue: string;
  readonly credential: string | null;
  readonly axis: string;
}

/** A definition in its canonical form: a token bucket, or a window limit (RL-V1). */
export type ModelLimit = NormalizedLimit | ModelWindow;

/** Whether a canonical definition is a window limit. */
export function isWindow(limit: ModelLimit): limit is ModelWindow {
  return 'perWindow' in limit;
}

/** One merged check: a bucket, its definition, the combined cost (RL-M2) and the index of its first check. */
export interface ModelCheck {
  readonly id: string;
  readonly key: ModelKey;
  readonly limit: ModelLimit;
  readonly cost: number;
  /** The 0-based index of the bucket's first check in the call (its path is `checks[index]`). */
  readonly index: number;
  /** The share of this bucket the call's class leaves free when its checks named their own reserve (RL-Q6; the largest of them); absent: the call's. */
  readonly free?: number;
}

/** Fills in the default axis (RL-K2). */
export function modelKey(key: BucketKey): ModelKey {
  return { venue: key.venue, credential: key.credential, axis: key.axis ?? 'request' };
}

/** A string that names one bucket; the public pool is separate from every credential (RL-K1). */
export function bucketId(key: BucketKey): string {
  const k = modelKey(key);
  const who = k.credential === null ? 'public' : `key:${k.credential}`;
  return JSON.stringify([k.venue, who, k.axis]);
}

/**
 * The canonical form of a token-bucket limit (RL-L1): `null` for an explicit unlimited `null` (RL-L2),
 * `'invalid'` for a missing limit (RL-L2), for anything RL-L3 refuses, and for a window limit (see
 * {@link normalizeModelLimit}, which reads every shape).
 */
export function normalizeLimit(limit: unknown): NormalizedLimit | null | 'invalid' {
  if (limit === null) return null;
  if (typeof limit !== 'object') return 'invalid';
  const fields = Object.keys(limit).sort().join(',');
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  const l = limit as Record<string, unknown>;
  if (fields === 'capacity,refillPerSec') {
    const { capacity, refillPerSec } = l;
    if (!finite(capacity) || capacity <= 0 || !finite(refillPerSec) || refillPerSec < 0) return 'invalid';
    return { capacity, refillPerSec };
  }
  if (fields === 'periodMs,requests') {
    const { requests, periodMs } = l;
    if (!finite(requests) || requests <= 0 || !finite(periodMs) || periodMs <= 0) return 'invalid';
    return { capacity: requests, refillPerSec: requests / (periodMs / 1000) };
  }
  if (fields === 'requests') {
    const { requests } = l;
    if (!finite(requests) || requests <= 0) return 'invalid';
    return { capacity: requests, refillPerSec: requests };
  }
  return 'invalid';
}

/**
 * The canonical form of a window limit `{ perWindow, windowMs, jitterMs? }` (RL-V1): `perWindow` and
 * `windowMs` finite and > 0, `jitterMs` finite and >= 0 (0 when absent or `undefined`); `'invalid'` for
 * anything else with those fields (RL-L3), `undefined` when the value has none of them.
 */
export function normalizeWindowLimit(limit: unknown): ModelWindow | 'invalid' | undefined {
  if (typeof limit !== 'object' || limit === null) return undefined;
  const fields = Object.keys(limit);
  if (!fields.some((f) => f === 'perWindow' || f === 'windowMs' || f === 'jitterMs')) return undefined;
  if (!fields.every((f) => f === 'perWindow' || f === 'windowMs' || f === 'jitterMs')) return 'invalid';
  const { perWindow, windowMs, jitterMs } = limit as Record<string, unknown>;
  const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n);
  if (!finite(perWindow) || perWindow <= 0 || !finite(windowMs) || windowMs <= 0) return 'invalid';
  if (jitterMs !== undefined && (!finite(jitterMs) || jitterMs < 0)) return 'invalid';
  const jitter = jitterMs ?? 0;
  if (!Number.isFinite(windowMs + jitter)) return 'invalid';
  return { perWindow, windowMs, jitterMs: jitter };
}

/** The canonical form of a limit of any shape: a token bucket (RL-L1), a window limit (RL-V1), `null` or `'invalid'`. */
export function normalizeModelLimit(limit: unknown): ModelLimit | null | 'invalid' {
  return normalizeWindowLimit(limit) ?? normalizeLimit(limit);
}

/** Milliseconds per token (`T`). */
export function msPerToken(limit: NormalizedLimit): number {
  return 1000 / limit.refillPerSec;
}

/**
 * The tolerance of a bucket's comparisons (RL-A7): `1e-9 · tau` milliseconds on send times for a
 * bucket that refills, `1e-9 · capacity` on amounts for a fixed quota. Relative, never absolute.
 */
export function toleranceOf(limit: NormalizedLimit): number {
  if (limit.refillPerSec === 0) return MODEL_EPS * limit.capacity;
  return MODEL_EPS * limit.capacity * msPerToken(limit);
}

/** `base + inc`, rounded up by one step when float rounding made the sum fall short of `inc`. */
export function addUp(base: number, inc: number): number {
  const r = base + inc;
  return r - base < inc ? r + Math.abs(r) * ROUND_UP : r;
}

/** Whole milliseconds a caller waits for an exact wait: rounded up after float noise, at least 1. */
export function roundWait(waitMs: number): number {
  return Math.max(1, Math.ceil(waitMs - 1e-9));
}

/**
 * A number as a message shows it: at most 12 significant digits, and a value within `tolerance` of
 * 0 shown as 0 (no float residue in messages).
 */
export function formatNumber(value: number, tolerance = 0): string {
  if (Math.abs(value) <= tolerance) return '0';
  return String(Number(value.toPrecision(12)));
}

function sameLimit(a: ModelLimit, b: ModelLimit): boolean {
  if (isWindow(a) || isWindow(b)) return isWindow(a) && isWindow(b) && a.perWindow === b.perWindow && a.windowMs === b.windowMs && a.jitterMs === b.jitterMs;
  return a.capacity === b.capacity && a.refillPerSec === b.refillPerSec;
}

/** Whether two definitions are the same (two spellings of one limit are, RL-L1). */
export function sameDefinition(a: ModelLimit | null, b: ModelLimit | null): boolean {
  return a === null || b === null ? a === b : sameLimit(a, b);
}

/**
 * Merges a call's checks (RL-M2 repeated keys combined, RL-M3 conflicting definitions refused,
 * RL-L2 unlimited checks dropped and missing limits refused). Assumes valid keys and costs.
 */
export function mergeChecks(
  checks: readonly { readonly key: BucketKey; readonly limit: Limit; readonly cost: number; readonly free?: number }[],
): readonly ModelCheck[] | { readonly invalid: string; readonly path: string } {
  const merged = new Map<string, { key: ModelKey; limit: ModelLimit | null; cost: number; index: number; free?: number }>();
  for (const [i, check] of checks.entries()) {
    const limit = normalizeModelLimit(check.limit);
    if (limit === 'invalid') {
      const what = check.limit === undefined ? 'is missing (only an explicit null is unlimited)' : 'is not a valid limit';
      return { invalid: `checks[${i}].limit ${what}`, path: `checks[${i}].limit` };
    }
    const id = bucketId(check.key);
    const seen = merged.get(id);
    if (seen === undefined) {
      merged.set(id, { key: modelKey(check.key), limit, cost: check.cost, index: i, ...(check.free === undefined ? {} : { free: check.free }) });
      continue;
    }
    if (!sameDefinition(seen.limit, limit)) {
      return { invalid: `checks[${i}] defines its bucket differently from checks[${seen.index}]`, path: `checks[${i}].limit` };
    }
    seen.cost += check.cost;
    // RL-Q6: a repeated key keeps the largest share any of its checks leaves free
    if (check.free !== undefined || seen.free !== undefined) seen.free = Math.max(seen.free ?? 0, check.free ?? 0);
  }
  const out: ModelCheck[] = [];
  for (const [id, m] of merged)
    if (m.limit !== null) out.push({ id, key: m.key, limit: m.limit, cost: m.cost, index: m.index, ...(m.free === undefined ? {} : { free: m.free }) });
  return out;
}
