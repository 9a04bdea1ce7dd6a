import type { NormalizedLimit } from '@core/rate-limit-contract';
import { describeValue } from './describe-value.js';
import { invalid, ok, type Result } from './result.js';

/** A window limit in its canonical form (RL-V1): `jitterMs` filled in. */
export interface NormalizedWindowLimit {
  readonly perWindow: number;
  readonly windowMs: number;
  readonly jitterMs: number;
}

/** A limit in its canonical form: a token bucket, or a window limit. */
export type NormalizedShape = NormalizedLimit | NormalizedWindowLimit;

/** Whether a normalized limit is a window limit. */
export function isWindowLimit(limit: NormalizedShape): limit is NormalizedWindowLimit {
  return 'perWindow' in limit;
}

function isFinitePositive(x: unknown): x is number {
  return typeof x === 'number' && Number.isFinite(x) && x > 0;
}

/**
 * Validates a limit in any of its shapes and returns its canonical form (RL-L1), `null` for
 * unlimited (RL-L2), or `invalid_parameters` (RL-L3).
 *
 * - `{ capacity, refillPerSec }`: capacity finite > 0, refill finite >= 0 (0 is a fixed quota, RL-L4).
 * - `{ requests, periodMs }`: requests finite > 0, period finite > 0 (never defaulted when bad).
 * - `{ requests }`: period 1000 ms.
 * - `{ perWindow, windowMs, jitterMs? }`: a window limit (RL-V1), `perWindow` and `windowMs` finite > 0,
 *   `jitterMs` finite >= 0 (default 0).
 * - `null`: unlimited (written explicitly).
 * - `undefined` (a missing limit): `invalid_parameters`: a forgotten limit never means unlimited (RL-L2).
 *
 * Refused: any other value, an object mixing `capacity` with `requests`/`periodMs` (or `requests`
 * with `refillPerSec`), non-number fields, NaN, infinities, and definitions whose derived numbers
 * overflow (a refill so small or a capacity so large that the bucket's span is not finite).
 *
 * @param limit - the limit as the caller passed it (anything).
 * @param path - where it sits in the caller's arguments.
 * @example
 * ```ts
 * normalizeLimit({ requests: 6000, periodMs: 60_000 }); // { ok: true, value: { capacity: 6000, refillPerSec: 100 } }
 * ```
 */
export function normalizeLimit(limit: unknown, path = 'limit'): Result<NormalizedShape | null> {
  if (limit === null) return ok(null);
  if (limit === undefined) {
    return invalid(path, "is missing: give the bucket's limit, or null for a bucket that is explicitly unlimited (a forgotten limit never means unlimited)");
  }
  try {
    return normalizeObject(limit, path);
  } catch {
    return invalid(path, 'could not be read (a getter or proxy threw)');
  }
}

function normalizeObject(limit: unknown, path: string): Result<NormalizedShape | null> {
  if (typeof limit !== 'object' || limit === null || Array.isArray(limit)) {
    return invalid(
      path,
      `must be { capacity, refillPerSec }, { requests, periodMs }, { requests }, { perWindow, windowMs, jitterMs? } or null (got ${describeValue(limit)})`,
    );
  }
  const l = limit as {
    capacity?: unknown;
    refillPerSec?: unknown;
    requests?: unknown;
    periodMs?: unknown;
    perWindow?: unknown;
    windowMs?: unknown;
    jitterMs?: unknown;
  };
  if (l.perWindow !== undefined || l.windowMs !== undefined || l.jitterMs !== undefined) return normalizeWindow(l, path);
  let capacity: unknown;
  let refillPerSec: unknown;
  let requests: unknown;
  let periodMs: unknown;
  try {
    capacity = l.capacity;
    refillPerSec = l.refillPerSec;
    requests = l.requests;
    periodMs = l.periodMs;
  } catch {
    return invalid(path, 'could not be read (a getter threw)');
  }
  let cap: number;
  let refill: number;
  if (capacity !== undefined) {
    if (requests !== undefined || periodMs !== undefined) {
      return invalid(path, 'mixes { capacity, refillPerSec } with { requests, periodMs }: give one shape');
    }
    if (!isFinitePositive(capacity)) return invalid(`${path}.capacity`, `must be a finite number > 0 (got ${describeValue(capacity)})`);
    if (typeof refillPerSec !== 'number' || !Number.isFinite(refillPerSec) || refillPerSec < 0) {
      return invalid(`${path}.refillPerSec`, `must be a finite number >= 0 (got ${describeValue(refillPerSec)})`);
    }
    cap = capacity;
    refill = refillPerSec;
  } else if (requests !== undefined) {
    if (refillPerSec !== undefined) return invalid(path, 'mixes { requests, periodMs } with refillPerSec: give one shape');
    if (!isFinitePositive(requests)) return invalid(`${path}.requests`, `must be a finite number > 0 (got ${describeValue(requests)})`);
    if (periodMs !== undefined && !isFinitePositive(periodMs)) {
      return invalid(`${path}.periodMs`, `must be a finite number > 0 (got ${describeValue(periodMs)})`);
    }
    cap = requests;
    refill = requests / ((periodMs === undefined ? 1000 : periodMs) / 1000);
  } else {
    return invalid(
      path,
      `has an unknown shape: expected { capacity, refillPerSec }, { requests, periodMs }, { requests } or { perWindow, windowMs, jitterMs? } (got ${describeValue(limit)}${refillPerSec !== undefined || periodMs !== undefined ? ' without capacity or requests' : ''})`,
    );
  }
  if (refill > 0) {
    const msPerToken = 1000 / refill;
    if (!Number.isFinite(refill) || !Number.isFinite(msPerToken) || !Number.isFinite(msPerToken * cap)) {
      return invalid(path, `defines a bucket whose numbers overflow (capacity ${cap}, refill ${refill}/s)`);
    }
  }
  return ok({ capacity: cap, refillPerSec: refill });
}

function normalizeWindow(
  l: { capacity?: unknown; refillPerSec?: unknown; requests?: unknown; periodMs?: unknown; perWindow?: unknown; windowMs?: unknown; jitterMs?: unknown },
  path: string,
): Result<NormalizedWindowLimit> {
  if (l.capacity !== undefined || l.refillPerSec !== undefined || l.requests !== undefined || l.periodMs !== undefined) {
    return invalid(path, 'mixes { perWindow, windowMs, jitterMs? } with a token-bucket shape: give one shape');
  }
  const { perWindow, windowMs, jitterMs } = l;
  if (!isFinitePositive(perWindow)) return invalid(`${path}.perWindow`, `must be a finite number > 0 (got ${describeValue(perWindow)})`);
  if (!isFinitePositive(windowMs)) return invalid(`${path}.windowMs`, `must be a finite number > 0 (got ${describeValue(windowMs)})`);
  if (jitterMs !== undefined && (typeof jitterMs !== 'number' || !Number.isFinite(jitterMs) || jitterMs < 0)) {
    return invalid(`${path}.jitterMs`, `must be a finite number >= 0 when given (got ${describeValue(jitterMs)})`);
  }
  if (!Number.isFinite(windowMs + (jitterMs ?? 0))) return invalid(path, 'defines a window whose span overflows');
  return ok({ perWindow, windowMs, jitterMs: jitterMs ?? 0 });
}
