import type { BucketCheck, BucketKey, PenaltyHold, Reserve, SyncOptions } from '@core/rate-limit-contract';
import { normalizeModelLimit, type ModelLimit } from '../../src/model-arithmetic.js';

/**
 * Reading and checking the fake's input. Every read happens once, inside a guard, into plain copies:
 * input whose getters or Proxy throw is refused like any malformed input (RL-F2), and the thrown
 * error's text is never repeated (it may hold a secret, RL-K3).
 */

/** A value read and checked, or why not and where. */
export type Read<T> = { readonly ok: true; readonly value: T } | Refused;

/** Why input was refused, where, and whether it could not even be read. */
export interface Refused {
  readonly ok: false;
  readonly why: string;
  readonly path: string;
  readonly unreadable: boolean;
}

function bad(path: string, why: string): Refused {
  return { ok: false, why: `${path} ${why}`, path, unreadable: false };
}

/** Runs `read`; input that throws while being read is refused as unreadable. */
export function guard<T>(path: string, read: () => Read<T>): Read<T> {
  try {
    return read();
  } catch {
    return { ok: false, why: `${path} could not be read (a getter or Proxy threw)`, path, unreadable: true };
  }
}

/** A plain copy of a valid key (never showing the credential when it is refused). */
export function readKey(key: unknown, path: string, unbounded = false): Read<BucketKey> {
  const [maxName, maxCredential] = unbounded ? [Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY] : [256, 4096];
  return guard(path, () => {
    if (typeof key !== 'object' || key === null) return bad(path, 'must be an object');
    const { venue, credential, axis } = key as Record<string, unknown>;
    if (typeof venue !== 'string' || venue.length === 0 || venue.length > maxName)
      return bad(`${path}.venue`, 'must be a non-empty string of at most 256 characters');
    if (credential !== null && (typeof credential !== 'string' || credential.length === 0 || credential.length > maxCredential)) {
      return bad(`${path}.credential`, 'must be null or a non-empty string of at most 4096 characters');
    }
    if (axis !== undefined && (typeof axis !== 'string' || axis.length === 0 || axis.length > maxName))
      return bad(`${path}.axis`, 'must be a non-empty string of at most 256 characters');
    return { ok: true, value: axis === undefined ? { venue, credential } : { venue, credential, axis } };
  });
}

/** A valid cost or amount: a finite number >= 0. */
export function readAmount(value: unknown, path: string): Read<number> {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return bad(path, 'must be a finite number >= 0');
  return { ok: true, value };
}

/**
 * A plain copy of a valid limit of any shape (a window limit included). A missing limit is refused
 * unless `missingMeansUnlimited` (the broken fake that forgets RL-L2): only an explicit `null` is
 * unlimited.
 */
export function readLimit(limit: unknown, path: string, missingMeansUnlimited = false): Read<ModelLimit | null> {
  return guard(path, () => {
    if (limit === undefined) return missingMeansUnlimited ? { ok: true, value: null } : bad(path, 'is missing (only an explicit null is unlimited)');
    const normalized = normalizeModelLimit(limit);
    if (normalized === 'invalid') return bad(path, 'is not a valid limit');
    return { ok: true, value: normalized };
  });
}

/** The flaws of reading checks: names of any length (breaks RL-K4), an empty list read as no checks (breaks RL-M6). */
export interface ReadFlaws {
  readonly missingMeansUnlimited?: boolean | undefined;
  readonly namesUnbounded?: boolean | undefined;
  readonly emptyChecksAdmitted?: boolean | undefined;
}

/** Plain copies of a non-empty list of valid checks. */
export function readChecks(checks: unknown, flaws: ReadFlaws = {}): Read<BucketCheck[]> {
  return guard('checks', () => {
    if (!Array.isArray(checks) || (checks.length === 0 && flaws.emptyChecksAdmitted !== true)) return bad('checks', 'must be a non-empty array');
    const out: BucketCheck[] = [];
    for (let i = 0; i < checks.length; i++) {
      const path = `checks[${i}]`;
      const read = guard<BucketCheck>(path, () => {
        const check: unknown = checks[i];
        if (typeof check !== 'object' || check === null) return bad(path, 'must be an object');
        const c = check as Record<string, unknown>;
        const key = readKey(c['key'], `${path}.key`, flaws.namesUnbounded);
        if (!key.ok) return key;
        const cost = readAmount(c['cost'], `${path}.cost`);
        if (!cost.ok) return cost;
        const limit = readLimit(c['limit'], `${path}.limit`, flaws.missingMeansUnlimited);
        if (!limit.ok) return limit;
        const reserve = c['reserve'];
        return { ok: true, value: { key: key.value, limit: limit.value, cost: cost.value, ...(reserve === undefined ? {} : { reserve: reserve as Reserve }) } };
      });
      if (!read.ok) return read;
      out.push(read.value);
    }
    return { ok: true, value: out };
  });
}

/** Whether a value has the fields of a window limit (RL-V1), valid or not; never throws. */
export function looksLikeWindow(limit: unknown): boolean {
  try {
    return typeof limit === 'object' && limit !== null && ['perWindow', 'windowMs', 'jitterMs'].some((f) => Object.hasOwn(limit, f));
  } catch {
    return false;
  }
}

/** Whether a call's list of checks gives any bucket a window limit; never throws. */
export function callHasWindow(checks: unknown): boolean {
  try {
    return Array.isArray(checks) && checks.some((c: unknown) => typeof c === 'object' && c !== null && looksLikeWindow((c as { limit?: unknown }).limit));
  } catch {
    return false;
  }
}

/**
 * What a sync's caller knows of the report (RL-V5): options absent, or `{ sentAtMs?, countedOwnCost?,
 * outsideOwnCost?, windowEnd? }` with finite times (a window end's in order) and finite costs >= 0. Only the fields
 * given are kept.
 */
export function readSyncOptions(options: unknown): Read<SyncOptions> {
  return guard('options', () => {
    if (options === undefined) return { ok: true, value: {} };
    if (typeof options !== 'object' || options === null) return bad('options', 'must be an object when given');
    const o = options as Record<string, unknown>;
    const sentAtMs = o['sentAtMs'];
    const countedOwnCost = o['countedOwnCost'];
    if (sentAtMs !== undefined && (typeof sentAtMs !== 'number' || !Number.isFinite(sentAtMs))) return bad('options.sentAtMs', 'must be a finite number');
    const outsideOwnCost = o['outsideOwnCost'];
    for (const [value, name] of [
      [countedOwnCost, 'options.countedOwnCost'],
      [outsideOwnCost, 'options.outsideOwnCost'],
    ] as const) {
      if (value === undefined) continue;
      const cost = readAmount(value, name);
      if (!cost.ok) return cost;
    }
    const windowEnd = o['windowEnd'];
    let end: SyncOptions['windowEnd'];
    if (windowEnd !== undefined) {
      if (typeof windowEnd !== 'object' || windowEnd === null) return bad('options.windowEnd', 'must be { earliestMs, latestMs } when given');
      const e = windowEnd as Record<string, unknown>;
      const earliestMs = e['earliestMs'];
      const latestMs = e['latestMs'];
      if (typeof earliestMs !== 'number' || !Number.isFinite(earliestMs)) return bad('options.windowEnd.earliestMs', 'must be a finite number');
      if (typeof latestMs !== 'number' || !Number.isFinite(latestMs)) return bad('options.windowEnd.latestMs', 'must be a finite number');
      if (latestMs < earliestMs) return bad('options.windowEnd.latestMs', 'must be at least earliestMs');
      end = { earliestMs, latestMs };
    }
    return {
      ok: true,
      value: {
        ...(typeof sentAtMs === 'number' ? { sentAtMs } : {}),
        ...(typeof countedOwnCost === 'number' ? { countedOwnCost } : {}),
        ...(typeof outsideOwnCost === 'number' ? { outsideOwnCost } : {}),
        ...(end === undefined ? {} : { windowEnd: end }),
      },
    };
  });
}

/** The options object of a call: absent, or an object (never `null`). */
export function readOptions(options: unknown): Read<Record<string, unknown> | undefined> {
  if (options === undefined) return { ok: true, value: undefined };
  if (typeof options !== 'object' || options === null) return bad('options', 'must be an object when given');
  return { ok: true, value: options as Record<string, unknown> };
}

/** A valid wait budget: absent, or a finite number > 0. */
export function readBudget(options: Record<string, unknown> | undefined): Read<number | undefined> {
  return guard('options.maxWaitMs', () => {
    const maxWaitMs = options?.['maxWaitMs'];
    if (maxWaitMs === undefined) return { ok: true, value: undefined };
    if (typeof maxWaitMs !== 'number' || !Number.isFinite(maxWaitMs) || maxWaitMs <= 0) return bad('options.maxWaitMs', 'must be a finite number > 0');
    return { ok: true, value: maxWaitMs };
  });
}

/** A valid signal and whether it is aborted already, read once. */
export function readSignal(options: Record<string, unknown> | undefined): Read<{ signal: AbortSignal | undefined; aborted: boolean }> {
  return guard<{ signal: AbortSignal | undefined; aborted: boolean }>('options.signal', () => {
    const signal = options?.['signal'];
    if (signal === undefined) return { ok: true, value: { signal: undefined, aborted: false } };
    if (!(signal instanceof AbortSignal)) return bad('options.signal', 'must be an AbortSignal');
    const aborted = signal.aborted;
    if (typeof aborted !== 'boolean') return bad('options.signal', 'must be an AbortSignal');
    return { ok: true, value: { signal, aborted } };
  });
}

/** A valid hold as an absolute end in the limiter's clock. */
export function readHold(hold: unknown, now: number): Read<number> {
  return guard('hold', () => {
    if (typeof hold !== 'object' || hold === null) return bad('hold', 'must be { untilMs } or { forMs }');
    const h = hold as PenaltyHold & Record<string, unknown>;
    const keys = Object.keys(h);
    if (keys.length !== 1 || (keys[0] !== 'untilMs' && keys[0] !== 'forMs')) return bad('hold', 'must be { untilMs } or { forMs }');
    const value = h[keys[0]];
    if (typeof value !== 'number' || !Number.isFinite(value) || (keys[0] === 'forMs' && value < 0))
      return bad(`hold.${keys[0]}`, 'must be a finite number (a duration >= 0)');
    return { ok: true, value: keys[0] === 'forMs' ? now + value : value };
  });
}

/** A call's class (0 critical, 1 normal, 2 bulk) and the share of each bucket it leaves free (RL-Q4, RL-Q5). */
export interface ReadClass {
  readonly cls: number;
  readonly free: number;
  /** The call's reserve over the default: the base of each check's own (RL-Q6). */
  readonly shares: { readonly normal: number; readonly bulk: number };
}

/** The fake's reserve when a call names none: normal 0, bulk 0.2. */
const DEFAULT_SHARES = { normal: 0, bulk: 0.2 } as const;

/** Reads `priority` and `reserve` (RL-Q5): a known priority, shares finite in [0, 1), normal ≤ bulk. */
export function readClass(options: Record<string, unknown> | undefined): Read<ReadClass> {
  return guard<ReadClass>('options', () => {
    const priority = options?.['priority'];
    const reserve = options?.['reserve'];
    const cls = priority === undefined ? 1 : ['critical', 'normal', 'bulk'].indexOf(priority as string);
    if (cls < 0) return bad('options.priority', "must be 'critical', 'normal' or 'bulk'");
    let normal: number = DEFAULT_SHARES.normal;
    let bulk: number = DEFAULT_SHARES.bulk;
    if (reserve !== undefined) {
      if (typeof reserve !== 'object' || reserve === null) return bad('options.reserve', 'must be an object');
      const r = reserve as { normal?: unknown; bulk?: unknown };
      for (const [name, v] of [
        ['normal', r.normal],
        ['bulk', r.bulk],
      ] as const) {
        if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v >= 1))
          return bad(`options.reserve.${name}`, 'must be a finite number in [0, 1)');
      }
      if (r.normal !== undefined) normal = r.normal as number;
      if (r.bulk !== undefined) bulk = r.bulk as number;
      if (normal > bulk) return bad('options.reserve', 'normal must not exceed bulk');
    }
    return { ok: true, value: { cls, free: cls === 0 ? 0 : cls === 1 ? normal : bulk, shares: { normal, bulk } } };
  });
}

/** The share class `cls` leaves free on one bucket under a check's own reserve over the call's shares (RL-Q6), or why not. */
export function readCheckReserve(reserve: unknown, shares: { readonly normal: number; readonly bulk: number }, cls: number, path: string): Read<number> {
  return guard<number>(path, () => {
    if (typeof reserve !== 'object' || reserve === null) return bad(path, 'must be an object');
    const r = reserve as { normal?: unknown; bulk?: unknown };
    for (const [name, v] of [
      ['normal', r.normal],
      ['bulk', r.bulk],
    ] as const) {
      if (v !== undefined && (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || v >= 1))
        return bad(`${path}.${name}`, 'must be a finite number in [0, 1)');
    }
    const normal = (r.normal as number | undefined) ?? shares.normal;
    const bulk = (r.bulk as number | undefined) ?? shares.bulk;
    if (normal > bulk) return bad(path, 'normal must not exceed bulk');
    return { ok: true, value: cls === 0 ? 0 : cls === 1 ? normal : bulk };
  });
}

/** Whether any check of a list names its own reserve (for a limiter without priorities: not_supported, RL-Q6); never throws. */
export function checksNameReserve(checks: unknown): boolean {
  try {
    return Array.isArray(checks) && checks.some((c: unknown) => typeof c === 'object' && c !== null && (c as { reserve?: unknown }).reserve !== undefined);
  } catch {
    return false;
  }
}

/** Whether an options object names a class (for a limiter without priorities: not_supported, RL-Q5). */
export function namesClass(options: unknown): boolean {
  try {
    return (
      typeof options === 'object' &&
      options !== null &&
      ((options as { priority?: unknown }).priority !== undefined || (options as { reserve?: unknown }).reserve !== undefined)
    );
  } catch {
    return false;
  }
}
