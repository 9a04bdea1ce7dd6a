import type { AdmitMode, Definition } from '@core/rate-limit-kit';
import { NO_HOLD, defineWindow, windowCounted } from '@core/rate-limit-kit';

/**
 * The TypeScript half of the library's protocol (lua/*.lua): the arguments each operation takes, the replies
 * it gives, and the values it stores, in one place. Script time is milliseconds since {@link SCRIPT_EPOCH_MS}
 * when the server's TIME is the clock, or the injected clock's value as given.
 *
 * Stored values (one key per bucket; this is the one place their format is documented):
 * - A token bucket: `capacity,refillPerSec,x@at[,hold][#L:Lc:Ln:aEnd:Pa:Pb]` when it refills,
 *   `capacity,refillPerSec,x[,hold]` for a fixed quota (refill 0). The definition as the client sent it
 *   (JavaScript's shortest round-trip text, so an equal definition compares equal as text, and the value of
 *   a bucket under the call's own definition begins with that text and a comma). A bucket that refills keeps
 *   its theoretical arrival time tat relative to `at`, the script time it was written (the kit's gcra.ts,
 *   "Times relative to now"): `x` is `tat − at`, so `tat − now` is read as `x + (at − now)`, and `x` is as
 *   precise as the bucket's own span whatever the clock (on script time itself a float's last bit is worth
 *   microseconds, more than a whole bucket of capacity 1e-9 at refill 3 per second). A quota's `x` is the
 *   amount used. `hold` is the end of a penalty in force (script time; absent when none); while bookings lie
 *   ahead, the class state of the kit's classes.ts (the latest booking's send time, of any class, of
 *   critical, of normal or critical, the end of the first part, all four relative to `at` like `x`, and the
 *   two bounds on the level; an empty field is −∞). A value without `@at` (tat on the clock, as versions
 *   before it stored) reads as written at 0.
 * - A window limit: `perWindow/windowMs/jitterMs,expiry[,hold]`, then `|` and its slot ledger (the kit's
 *   window.ts), its numbers comma-separated: the header (the pairs' sum, others' use, the slot it counts in
 *   and the time it stops counting, the first slot a hold leaves open, the latest fixed window's start and
 *   its end's earliest and latest time; `-` for none and `+` for never, which stand for −1e300 and 1e300), then `slot,amount` for each slot that holds cost
 *   and can still count, in slot order (slots of windowMs / 128 of script time); `expiry` is when nothing
 *   counts any more.
 * - A bucket never defined that has a hold or recorded debt: `p,debt,hold` (hold empty when none).
 * - A value written by a booking for later ends with `;` and the booking's token: no other write stores
 *   one, so a cancel that finds exactly the booking's value knows that nothing wrote since (RL-W5).
 * - Numbers are written with `%.17g` (they round-trip); `at` is now's own text: the injected clock's, or
 *   under TIME whole milliseconds and three decimals, which read back as exactly the same double. Absent
 *   means full, and a bucket full and not held behaves exactly like an absent one (it may expire at any
 *   time): its key's expiry covers `tat − now` (a window limit's `expiry − now`) or the hold, plus the TTL
 *   slack, clamped to {@link MAX_TTL_MS}; a fixed quota never expires.
 */

/** The origin of script time when the server's TIME is the clock (2026-01-01T00:00:00Z). */
export const SCRIPT_EPOCH_MS = 1_767_225_600_000;

/** The longest expiry a key is given (ms, about 31,700 years: the representable horizon, RL-A7). */
export const MAX_TTL_MS = 1e15;

/** admit.lua's modes (MODE_* there): a probe, a peek, a booking. */
export const ADMIT_MODE = { probe: '1', peek: '2', book: '3' } as const;

/** admit.lua's replies other than admitted now (REPLY_* there). */
const REPLY = { booked: 0, wait: 1, unpayable: 2 } as const;

/** Why admit.lua found a cost unpayable (UNPAYABLE_* there). */
const UNPAYABLE: Readonly<Record<number, 'quota' | 'horizon' | 'window'>> = { 1: 'quota', 2: 'horizon', 3: 'window' };

/** The fixed options every script call carries. */
export interface ScriptSettings {
  /** The injected clock's now as text, or `''` for the server's TIME. */
  readonly now: string;
  /** Added to each key's expiry beyond the time its bucket is full again (ms). */
  readonly ttlSlackMs: string;
  /** How long debt recorded on a bucket never defined is kept (ms). */
  readonly pendingDebtTtlMs: string;
  /** How long a hold on a bucket never defined is kept after it ends (ms, RL-R3: at least 24 h). */
  readonly pendingHoldTtlMs: string;
  /** How long a record's id is remembered so a second delivery changes nothing (ms, RL-R1). */
  readonly recordMarkerTtlMs: string;
}

/** One admission, booking or peek over `n` buckets, by name (see {@link admitArgs}). */
export interface AdmitCall {
  readonly mode: AdmitMode;
  /** The wait a booking may book (ms; mode `book` only). */
  readonly budgetMs: number | undefined;
  /** Tags what a booking writes (RL-W5; mode `book` only). */
  readonly token: string;
  readonly n: number;
  readonly defs: readonly Definition[];
  readonly costs: readonly number[];
  /** The call's class (0 critical, 1 normal, 2 bulk; classes.ts). */
  readonly cls: number;
  /** The share of each bucket the class leaves free: one for all, or one per bucket (RL-Q6). */
  readonly free: number | readonly number[];
}

/**
 * The text of a call's settings as admit.lua reads them (its CALL argument): `slack,mode,class,free`, with the
 * one share ('' when per bucket). Most calls of a limiter carry the same few texts, which the library parses
 * once and then finds by text: one argument instead of four on every call.
 */
export function admitCallText(settings: ScriptSettings, mode: AdmitMode, cls: number, free: number | readonly number[]): string {
  return `${settings.ttlSlackMs},${ADMIT_MODE[mode]},${cls},${typeof free === 'number' ? free : ''}`;
}

/**
 * The text of a call's checks as admit.lua reads them (its CHECKS argument): `definition;cost;definition;cost...`
 * per bucket. A client sends the same few lists (one per kind of request), which the library parses once and then
 * finds by text.
 */
export function admitChecksText(n: number, defs: readonly Definition[], costs: readonly number[]): string {
  let text = '';
  for (let i = 0; i < n; i++) text += `${i === 0 ? '' : ';'}${(defs[i] as Definition).text};${costs[i]}`;
  return text;
}

/**
 * The arguments of admit.lua, by position (its header names them): now, the call's settings
 * ({@link admitCallText}), its checks ({@link admitChecksText}), the shares when per bucket, and for a booking
 * its budget and token last.
 */
export function admitArgs(settings: ScriptSettings, call: AdmitCall): string[] {
  const { mode, budgetMs, token, n, defs, costs, cls, free } = call;
  const args = [settings.now, admitCallText(settings, mode, cls, free), admitChecksText(n, defs, costs)];
  if (typeof free !== 'number') for (let i = 0; i < n; i++) args.push(String(free[i]));
  if (mode === 'book') args.push(budgetMs === undefined ? '' : String(budgetMs), token);
  return args;
}

/** The arguments of cancel.lua: now, slack, pending TTLs, then what the booking wrote and replaced per bucket. */
export function cancelArgs(settings: ScriptSettings, pairs: readonly string[]): string[] {
  return [settings.now, settings.ttlSlackMs, settings.pendingDebtTtlMs, settings.pendingHoldTtlMs, ...pairs];
}

/** The arguments of record.lua; `def` undefined: the stored definition. */
export function recordArgs(settings: ScriptSettings, cost: number, def: Definition | undefined): string[] {
  return [
    settings.now,
    settings.ttlSlackMs,
    settings.pendingDebtTtlMs,
    settings.pendingHoldTtlMs,
    settings.recordMarkerTtlMs,
    String(cost),
    def === undefined ? '' : def.text,
  ];
}

/** The arguments of sync.lua before its buckets': now and the TTL slack (one call syncs many buckets). */
export function syncHeadArgs(settings: ScriptSettings): string[] {
  return [settings.now, settings.ttlSlackMs];
}

/**
 * One bucket's arguments in sync.lua (after {@link syncHeadArgs}): its definition, minBorrowed, and the
 * reporting request's send time and its fixed window's end, in script time, and the caller's own counted
 * cost and its part sent outside the times the ledger counts, when known.
 */
export function syncBucketArgs(def: Definition, minBorrowed: number, sync: SyncWhen): string[] {
  return [
    def.text,
    String(minBorrowed),
    sync.sentAtMs === undefined ? '' : String(sync.sentAtMs),
    sync.countedOwnCost === undefined ? '' : String(sync.countedOwnCost),
    sync.windowEnd === undefined ? '' : String(sync.windowEnd.earliestMs),
    sync.windowEnd === undefined ? '' : String(sync.windowEnd.latestMs),
    sync.outsideOwnCost === undefined ? '' : String(sync.outsideOwnCost),
  ];
}

/** What a sync knows of its report (times in script time). */
export interface SyncWhen {
  readonly sentAtMs: number | undefined;
  readonly countedOwnCost: number | undefined;
  readonly outsideOwnCost?: number | undefined;
  readonly windowEnd?: { readonly earliestMs: number; readonly latestMs: number } | undefined;
}

/** The arguments of penalize.lua: the hold's end in script time, or a duration from the script's now. */
export function penalizeArgs(settings: ScriptSettings, untilScriptMs: number | undefined, forMs: number | undefined): string[] {
  return [
    settings.now,
    settings.ttlSlackMs,
    settings.pendingDebtTtlMs,
    settings.pendingHoldTtlMs,
    untilScriptMs === undefined ? '' : String(untilScriptMs),
    forMs === undefined ? '' : String(forMs),
  ];
}

/** The arguments of inspect.lua. */
export function inspectArgs(settings: ScriptSettings): string[] {
  return [settings.now];
}

/** admit.lua's reply, decoded (times in script time). */
export type AdmitReply =
  | { readonly kind: 'now'; readonly now: number }
  | { readonly kind: 'booked'; readonly sendAt: number; readonly now: number; readonly pairs: readonly string[] }
  | { readonly kind: 'wait'; readonly waitMs: number; readonly now: number }
  | { readonly kind: 'unpayable'; readonly index: number; readonly reason: 'quota' | 'horizon' | 'window'; readonly left: number };

function num(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value));
}

/** Script time from TIME's seconds and microseconds (the same double operations as in Lua), or the injected value. */
export function scriptNow(a: unknown, b: unknown): number {
  if (b === '' || b === undefined || b === null) return num(a);
  return (num(a) - SCRIPT_EPOCH_MS / 1000) * 1000 + num(b) / 1000;
}

/** Script time from TIME in microseconds (an admission's short reply), through the same double operations as in Lua. */
function scriptNowFromMicros(us: number): number {
  const seconds = Math.floor(us / 1_000_000);
  return (seconds - SCRIPT_EPOCH_MS / 1000) * 1000 + (us - seconds * 1_000_000) / 1000;
}

/** Decodes admit.lua's reply; `undefined` for a reply it does not expect (never taken for capacity). */
export function decodeAdmitReply(reply: unknown): AdmitReply | undefined {
  if (typeof reply === 'number') return { kind: 'now', now: scriptNowFromMicros(reply) };
  if (typeof reply === 'string') {
    const now = Number(reply);
    return Number.isFinite(now) ? { kind: 'now', now } : undefined;
  }
  if (!Array.isArray(reply) || reply.length < 2) return undefined;
  const status = num(reply[0]);
  if (status === REPLY.booked && reply.length >= 4) {
    const sendAt = num(reply[1]);
    const now = scriptNow(reply[2], reply[3]);
    if (!Number.isFinite(sendAt) || !Number.isFinite(now)) return undefined;
    return { kind: 'booked', sendAt, now, pairs: reply.slice(4).map(String) };
  }
  if (status === REPLY.wait && reply.length >= 4) {
    const waitMs = num(reply[1]);
    const now = scriptNow(reply[2], reply[3]);
    if (!Number.isFinite(waitMs) || !Number.isFinite(now)) return undefined;
    return { kind: 'wait', waitMs, now };
  }
  if (status === REPLY.unpayable && reply.length >= 4) {
    const index = num(reply[1]) - 1;
    if (!Number.isInteger(index) || index < 0) return undefined;
    return { kind: 'unpayable', index, reason: UNPAYABLE[num(reply[2])] ?? 'horizon', left: num(reply[3]) };
  }
  return undefined;
}

/** A stored bucket value (see the format above), parsed. */
export type StoredState =
  | { readonly pending: true; readonly debt: number; readonly hold: number }
  | {
      readonly pending: false;
      /** The definition as text (`capacity,refillPerSec` or `perWindow/windowMs/jitterMs`). */
      readonly text: string;
      /**
       * A token bucket's `x`: relative to `at` when it refills (its tat is `x + at`, read as `x + (at − now)`),
       * a quota's amount used; or a window limit's expiry (script time).
       */
      readonly x: number;
      /** The script time a token bucket that refills was written; 0 for a quota and a window limit. */
      readonly at: number;
      readonly hold: number;
      /** A window limit's slot ledger (the kit's window.ts: the header, then slot and amount pairs). */
      readonly entries?: readonly number[];
      /** A token bucket's class state while bookings lie ahead (the kit's classes.ts: L, Lc, Ln, aEnd, Pa, Pb). */
      readonly classes?: readonly number[];
      /** The value carries a booking's token. */
      readonly booked: boolean;
    };

function holdOf(text: string | undefined): number {
  return text === undefined || text === '' ? NO_HOLD : Number(text);
}

/** A slot ledger's header writes its sentinels short: `-` for none (−1e300) and `+` for never (1e300). */
const LEDGER_SENTINELS: Readonly<Record<string, number>> = { '-': -1e300, '+': 1e300 };

function ledgerNumber(text: string): number {
  return LEDGER_SENTINELS[text] ?? Number(text);
}

/** Parses a stored value; `undefined` for anything else. */
export function parseStored(raw: string): StoredState | undefined {
  const token = raw.indexOf(';');
  const value = token < 0 ? raw : raw.slice(0, token);
  const bar = value.indexOf('|');
  const full = bar < 0 ? value : value.slice(0, bar);
  const hash = full.indexOf('#');
  const head = hash < 0 ? full : full.slice(0, hash);
  const classes =
    hash < 0
      ? undefined
      : full
          .slice(hash + 1)
          .split(':')
          .map((v) => (v === '' ? -Infinity : Number(v)));
  const parts = head.split(',');
  if (parts[0] === 'p') return parts.length === 3 ? { pending: true, debt: Number(parts[1]), hold: holdOf(parts[2]) } : undefined;
  const window = (parts[0] ?? '').includes('/');
  const fields = window ? 1 : 2;
  if (parts.length !== fields + 1 && parts.length !== fields + 2) return undefined;
  const text = parts.slice(0, fields).join(',');
  const xs = parts[fields] ?? '';
  const sep = xs.indexOf('@');
  const x = Number(sep < 0 ? xs : xs.slice(0, sep));
  const at = sep < 0 ? 0 : Number(xs.slice(sep + 1));
  const state = { pending: false as const, text, x, at, hold: holdOf(parts[fields + 1]), booked: token >= 0 };
  if (!window) return classes === undefined ? state : { ...state, classes };
  const entries =
    bar < 0
      ? []
      : value
          .slice(bar + 1)
          .split(',')
          .map(ledgerNumber);
  return { ...state, entries };
}

/** The numbers of a stored definition's text: a token bucket's capacity and refill, or a window limit's. */
export function definitionOf(text: string): {
  readonly capacity: number;
  readonly refillPerSec: number;
  readonly windowMs?: number;
  readonly jitterMs?: number;
} {
  if (text.includes('/')) {
    const [perWindow, windowMs, jitterMs] = text.split('/').map(Number) as [number, number, number];
    return { capacity: perWindow, refillPerSec: (perWindow * 1000) / windowMs, windowMs, jitterMs };
  }
  const [capacity, refillPerSec] = text.split(',').map(Number) as [number, number];
  return { capacity, refillPerSec };
}

/** A window limit's own fields of a snapshot (RL-I3): its window, its jitter and the cost counted in the window ending now. */
export function windowSnapshot(state: StoredState & { readonly pending: false }, windowMs: number, now: number) {
  const { capacity, jitterMs = 0 } = definitionOf(state.text);
  return { windowMs, jitterMs, counted: windowCounted(state.entries ?? [], defineWindow(capacity, windowMs, jitterMs), now) };
}
