import type { RateLimitError } from '@core/rate-limit-contract';
import { describeValue } from './describe-value.js';
import type { Hold, SyncReport } from './limiter-store.js';
import type { KeyResolver } from './key-resolver.js';
import { invalidParameters } from './messages.js';
import { normalizeKey } from './normalize-key.js';
import { isWindowLimit, normalizeLimit, type NormalizedShape } from './normalize-limit.js';
import { validateCost, validateSignal, validateWaitBudget } from './validate-number.js';

/** The longest list of checks one call accepts. */
export const MAX_CHECKS = 1024;
/** `waitForCapacity`'s budget when none is given (RL-W6). */
export const DEFAULT_WAIT_BUDGET_MS = 10_000;

/** A caller's options object, read once: its budget and signal, or the error that names what is wrong. */
export interface ReadOptions {
  readonly budget: number | undefined;
  readonly signal: AbortSignal | undefined;
  /** The class (classes.ts: 0 critical, 1 normal, 2 bulk). */
  readonly cls: number;
  /** The share of each bucket the class leaves free (RL-Q4), under the call's reserve or the limiter's. */
  readonly free: number;
  /** The call's reserve over the limiter's: the base of each check's own reserve (RL-Q6). */
  readonly shares: ReserveShares;
}

/** A reserve, validated: the shares normal and bulk leave free. */
export interface ReserveShares {
  readonly normal: number;
  readonly bulk: number;
}

/** The in-process and Redis limiters' reserve when none is given: normal 0 (every earlier rule's numbers), bulk 0.2. */
export const DEFAULT_RESERVE: ReserveShares = Object.freeze({ normal: 0, bulk: 0.2 });

const PRIORITIES = ['critical', 'normal', 'bulk'] as const;

/**
 * Reads a reserve (`{ normal?, bulk? }`, RL-Q4) over `base`: each share a finite number in `[0, 1)`, and
 * `normal ≤ bulk`; or the error naming what is wrong at `path`.
 */
export function readReserve(raw: unknown, base: ReserveShares, path: string): ReserveShares | RateLimitError {
  if (raw === undefined) return base;
  if (typeof raw !== 'object' || raw === null) return invalidParameters(path, `must be an object { normal?, bulk? } or undefined (got ${describeValue(raw)})`);
  let normal: unknown;
  let bulk: unknown;
  try {
    ({ normal, bulk } = raw as { normal?: unknown; bulk?: unknown });
  } catch {
    return invalidParameters(path, 'could not be read (a getter or proxy threw)');
  }
  for (const [name, v] of [
    ['normal', normal],
    ['bulk', bulk],
  ] as const) {
    if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v >= 1)) {
      return invalidParameters(`${path}.${name}`, `must be a finite number in [0, 1): the share of the bucket kept free (got ${describeValue(v)})`);
    }
  }
  const r = { normal: (normal as number | undefined) ?? base.normal, bulk: (bulk as number | undefined) ?? base.bulk };
  if (r.normal > r.bulk)
    return invalidParameters(path, `normal (${r.normal}) must not exceed bulk (${r.bulk}): a lower class never reaches further than a higher one`);
  return r;
}

/**
 * Whether an options object names a class (`priority` or `reserve` present): read first, so that a
 * limiter without classes answers `not_supported` whatever the rest (RL-F2). Unreadable is not (its
 * reading fails later, as `invalid_parameters`).
 */
export function namesClass(options: unknown): boolean {
  try {
    if (typeof options !== 'object' || options === null) return false;
    const o = options as { priority?: unknown; reserve?: unknown };
    return o.priority !== undefined || o.reserve !== undefined;
  } catch {
    return false;
  }
}

/**
 * Whether any check of a list names its own reserve (RL-Q6): read first, like {@link namesClass}, so a
 * limiter without classes answers `not_supported` whatever the rest. Unreadable is not.
 */
export function checksNameReserve(checks: unknown): boolean {
  try {
    if (!Array.isArray(checks)) return false;
    for (const c of checks) if (typeof c === 'object' && c !== null && (c as { reserve?: unknown }).reserve !== undefined) return true;
    return false;
  } catch {
    return false;
  }
}

/** The share class `cls` leaves free under validated shares: 0 for critical. */
export function shareOf(cls: number, r: ReserveShares): number {
  return cls === 0 ? 0 : cls === 1 ? r.normal : r.bulk;
}

/**
 * Reads `{ maxWaitMs?, signal? }` (RL-W6, RL-F2): an object (or `undefined`) whose fields are read once,
 * inside a guard, so a throwing getter or proxy is `invalid_parameters`, never `internal`.
 *
 * @param withSignal - whether `signal` is an option of this method (`waitForCapacity`).
 */
export function readOptions(options: unknown, withSignal: boolean, reserve: ReserveShares = DEFAULT_RESERVE, withBudget = true): ReadOptions | RateLimitError {
  if (options === undefined) return { budget: undefined, signal: undefined, cls: 1, free: reserve.normal, shares: reserve };
  if (typeof options !== 'object' || options === null) {
    return invalidParameters('options', `must be an object or undefined (got ${describeValue(options)})`);
  }
  let rawBudget: unknown;
  let rawSignal: unknown;
  let rawPriority: unknown;
  let rawReserve: unknown;
  try {
    if (withBudget) rawBudget = (options as { maxWaitMs?: unknown }).maxWaitMs;
    if (withSignal) rawSignal = (options as { signal?: unknown }).signal;
    rawPriority = (options as { priority?: unknown }).priority;
    rawReserve = (options as { reserve?: unknown }).reserve;
  } catch {
    return invalidParameters('options', 'could not be read (a getter or proxy threw)');
  }
  const cls = rawPriority === undefined ? 1 : PRIORITIES.indexOf(rawPriority as 'critical');
  if (cls < 0) return invalidParameters('options.priority', `must be 'critical', 'normal' or 'bulk' (got ${describeValue(rawPriority)})`);
  const r = readReserve(rawReserve, reserve, 'options.reserve');
  if ('code' in r) return r;
  const free = shareOf(cls, r);
  let budget: number | undefined;
  if (rawBudget !== undefined) {
    const b = validateWaitBudget(rawBudget, 'options.maxWaitMs');
    if (!b.ok) return b.error;
    budget = b.value;
  }
  if (!withSignal) return { budget, signal: undefined, cls, free, shares: r };
  const s = validateSignal(rawSignal, 'options.signal');
  if (!s.ok) return s.error;
  return { budget, signal: s.value, cls, free, shares: r };
}

/** Whether a validated signal has fired; a signal that cannot even say so counts as fired (nothing is sent on doubt). */
export function isAborted(signal: AbortSignal | undefined): boolean {
  if (signal === undefined) return false;
  try {
    return signal.aborted === true;
  } catch {
    return true;
  }
}

/** Reads `sync`'s options `{ sentAtMs?, countedOwnCost?, outsideOwnCost?, windowEnd? }`, or the error naming what is wrong. */
export function readSyncOptions(options: unknown): SyncReport | RateLimitError {
  if (options === undefined) return { sentAtMs: undefined, countedOwnCost: undefined, outsideOwnCost: undefined };
  if (typeof options !== 'object' || options === null) return invalidParameters('options', `must be an object or undefined (got ${describeValue(options)})`);
  let sentAtMs: unknown;
  let countedOwnCost: unknown;
  let outsideOwnCost: unknown;
  let windowEnd: unknown;
  try {
    ({ sentAtMs, countedOwnCost, outsideOwnCost, windowEnd } = options as {
      sentAtMs?: unknown;
      countedOwnCost?: unknown;
      outsideOwnCost?: unknown;
      windowEnd?: unknown;
    });
  } catch {
    return invalidParameters('options', 'could not be read (a getter or proxy threw)');
  }
  if (sentAtMs !== undefined && (typeof sentAtMs !== 'number' || !Number.isFinite(sentAtMs))) {
    return invalidParameters('options.sentAtMs', `must be a finite number (ms, the limiter's clock) (got ${describeValue(sentAtMs)})`);
  }
  if (countedOwnCost !== undefined && (typeof countedOwnCost !== 'number' || !Number.isFinite(countedOwnCost) || countedOwnCost < 0)) {
    return invalidParameters('options.countedOwnCost', `must be a finite number >= 0 (got ${describeValue(countedOwnCost)})`);
  }
  if (outsideOwnCost !== undefined && (typeof outsideOwnCost !== 'number' || !Number.isFinite(outsideOwnCost) || outsideOwnCost < 0)) {
    return invalidParameters('options.outsideOwnCost', `must be a finite number >= 0 (got ${describeValue(outsideOwnCost)})`);
  }
  let end: SyncReport['windowEnd'];
  if (windowEnd !== undefined) {
    if (typeof windowEnd !== 'object' || windowEnd === null)
      return invalidParameters('options.windowEnd', `must be { earliestMs, latestMs } or undefined (got ${describeValue(windowEnd)})`);
    let earliestMs: unknown;
    let latestMs: unknown;
    try {
      ({ earliestMs, latestMs } = windowEnd as { earliestMs?: unknown; latestMs?: unknown });
    } catch {
      return invalidParameters('options.windowEnd', 'could not be read (a getter or proxy threw)');
    }
    for (const [name, v] of [
      ['earliestMs', earliestMs],
      ['latestMs', latestMs],
    ] as const) {
      if (typeof v !== 'number' || !Number.isFinite(v))
        return invalidParameters(`options.windowEnd.${name}`, `must be a finite number (ms, the limiter's clock) (got ${describeValue(v)})`);
    }
    if ((latestMs as number) < (earliestMs as number))
      return invalidParameters('options.windowEnd.latestMs', `must be at least earliestMs (got ${latestMs as number} < ${earliestMs as number})`);
    end = { earliestMs: earliestMs as number, latestMs: latestMs as number };
  }
  return {
    sentAtMs: sentAtMs as number | undefined,
    countedOwnCost: countedOwnCost as number | undefined,
    outsideOwnCost: outsideOwnCost as number | undefined,
    ...(end === undefined ? {} : { windowEnd: end }),
  };
}

/** Reads a penalty hold `{ untilMs }` (limiter clock) or `{ forMs }` (from now) (RL-R3). */
export function readHold(hold: unknown): Hold | RateLimitError {
  if (typeof hold !== 'object' || hold === null) {
    return invalidParameters('hold', `must be { untilMs } or { forMs } (got ${describeValue(hold)})`);
  }
  let untilMs: unknown;
  let forMs: unknown;
  try {
    if (Array.isArray(hold)) return invalidParameters('hold', 'must be { untilMs } or { forMs } (got an array)');
    ({ untilMs, forMs } = hold as { untilMs?: unknown; forMs?: unknown });
  } catch {
    return invalidParameters('hold', 'could not be read (a getter or proxy threw)');
  }
  if (untilMs !== undefined && forMs !== undefined) return invalidParameters('hold', 'gives both untilMs and forMs: give one');
  if (untilMs !== undefined) {
    if (typeof untilMs !== 'number' || !Number.isFinite(untilMs)) {
      return invalidParameters('hold.untilMs', `must be a finite number (ms, the limiter's clock) (got ${describeValue(untilMs)})`);
    }
    return { untilMs };
  }
  if (typeof forMs !== 'number' || !Number.isFinite(forMs) || forMs < 0) {
    return invalidParameters('hold.forMs', `must be a finite number >= 0 (got ${describeValue(forMs)})`);
  }
  return { forMs };
}

/** The error of one check `{ key, limit, cost }` that did not resolve, named at `path` (`''` for checkRate's own arguments). */
export function checkError(key: unknown, limit: unknown, cost: unknown, path: string): RateLimitError {
  const at = (name: string): string => (path === '' ? name : `${path}.${name}`);
  const k = normalizeKey(key, at('key'));
  if (!k.ok) return k.error;
  const l = normalizeLimit(limit, at('limit'));
  if (!l.ok) return l.error;
  const c = validateCost(cost, at('cost'));
  if (!c.ok) return c.error;
  // normalization accepted what the resolver could not read twice the same way (a proxy, a getter)
  return invalidParameters(at('key'), 'could not be read consistently (a getter or proxy)');
}

/**
 * The first error of a multi-bucket call's checks (RL-M3 included), with a path like `checks[1].cost`.
 * Only called once the fast path refused the list, so it always finds one.
 */
export function checksError(checks: unknown, keys: KeyResolver, shares: ReserveShares = DEFAULT_RESERVE): RateLimitError {
  try {
    if (!Array.isArray(checks)) return invalidParameters('checks', `must be a non-empty array of { key, limit, cost } (got ${describeValue(checks)})`);
    if (checks.length === 0) return invalidParameters('checks', 'must not be empty');
    if (checks.length > MAX_CHECKS) return invalidParameters('checks', `must hold at most ${MAX_CHECKS} checks (got ${checks.length})`);
    const seen = new Map<string, string>();
    for (let i = 0; i < checks.length; i++) {
      const at = `checks[${i}]`;
      const check: unknown = checks[i];
      if (typeof check !== 'object' || check === null || Array.isArray(check)) {
        return invalidParameters(at, `must be an object { key, limit, cost } (got ${describeValue(check)})`);
      }
      let key: unknown;
      let limit: unknown;
      let cost: unknown;
      let reserve: unknown;
      try {
        ({ key, limit, cost, reserve } = check as { key?: unknown; limit?: unknown; cost?: unknown; reserve?: unknown });
      } catch {
        return invalidParameters(at, 'could not be read (a getter or proxy threw)');
      }
      const k = keys.resolve(key);
      const l = normalizeLimit(limit, `${at}.limit`);
      if (k === undefined || !l.ok || !validateCost(cost, `${at}.cost`).ok) return checkError(key, limit, cost, at);
      const r = readReserve(reserve, shares, `${at}.reserve`);
      if ('code' in r) return r;
      const mine = describeShape(l.value);
      const prior = seen.get(k.id);
      if (prior === undefined) {
        seen.set(k.id, mine);
        continue;
      }
      if (prior !== mine) {
        return invalidParameters(`${at}.limit`, `defines bucket ${k.venue}/${k.axis} as ${mine} but an earlier check of the same call defines it as ${prior}`);
      }
    }
    return invalidParameters('checks', 'could not be read consistently (a getter or proxy)');
  } catch {
    return invalidParameters('checks', 'could not be read (a getter or proxy threw)');
  }
}

function describeShape(l: NormalizedShape | null): string {
  if (l === null) return 'unlimited';
  return isWindowLimit(l)
    ? `{ perWindow: ${l.perWindow}, windowMs: ${l.windowMs}, jitterMs: ${l.jitterMs} }`
    : `{ capacity: ${l.capacity}, refillPerSec: ${l.refillPerSec} }`;
}
