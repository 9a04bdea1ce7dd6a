import type { AdmitMode, Definition } from '@core/rate-limit-kit';
import { NO_HOLD } from '@core/rate-limit-kit';

/**
 * The TypeScript half of the scripts' protocol (lua/*.lua): the arguments each script takes and the
 * replies it gives, in one place. Script time is milliseconds since {@link SCRIPT_EPOCH_MS} when the
 * server's TIME is the clock, or the injected clock's value as given.
 */

/** The origin of script time when the server's TIME is the clock (2026-01-01T00:00:00Z). */
export const SCRIPT_EPOCH_MS = 1_767_225_600_000;

/** admit.lua's mode argument. */
const MODE: Readonly<Record<AdmitMode, string>> = { probe: '1', peek: '2', book: '3' };

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

/**
 * ARGV of admit.lua: now, slack, mode, budget, token, class, the share it leaves free, then the
 * definition's text and the cost per bucket; with one share per bucket (RL-Q6) the share is empty and
 * the shares follow, one per bucket; then, for a booking again of a send held at `heldAt` (script time,
 * RL-V8), that time.
 */
export function admitArgs(
  settings: ScriptSettings,
  mode: AdmitMode,
  budgetMs: number | undefined,
  token: string,
  n: number,
  defs: readonly Definition[],
  costs: readonly number[],
  cls = 1,
  free: number | readonly number[] = 0,
  heldAt?: number,
): string[] {
  const one = typeof free === 'number';
  const args = [settings.now, settings.ttlSlackMs, MODE[mode], budgetMs === undefined ? '' : String(budgetMs), token, String(cls), one ? String(free) : ''];
  for (let i = 0; i < n; i++) {
    args.push((defs[i] as Definition).text, String(costs[i]));
  }
  if (!one) for (let i = 0; i < n; i++) args.push(String(free[i]));
  if (heldAt !== undefined && mode === 'book') args.push(String(heldAt));
  return args;
}

/** ARGV of admit.lua for a peek at a booked send held at `heldAt` (script time, RL-V8): mode 4, the time in the budget's place. */
export function heldArgs(settings: ScriptSettings, heldAt: number, n: number, defs: readonly Definition[], costs: readonly number[]): string[] {
  const args = [settings.now, settings.ttlSlackMs, '4', String(heldAt), '', '0', '0'];
  for (let i = 0; i < n; i++) args.push((defs[i] as Definition).text, String(costs[i]));
  return args;
}

/** ARGV of cancel.lua: now, slack, pending TTLs, then what the booking wrote and replaced per bucket. */
export function cancelArgs(settings: ScriptSettings, pairs: readonly string[]): string[] {
  return [settings.now, settings.ttlSlackMs, settings.pendingDebtTtlMs, settings.pendingHoldTtlMs, ...pairs];
}

/**
 * ARGV of record.lua; `def` undefined: the stored definition; `late`: one admitted send that went out
 * late (RL-V7), where the store holds it and the earliest and latest time it went out, in script time.
 */
export function recordArgs(settings: ScriptSettings, cost: number, def: Definition | undefined, late?: readonly [number, number, number]): string[] {
  const args = [
    settings.now,
    settings.ttlSlackMs,
    settings.pendingDebtTtlMs,
    settings.pendingHoldTtlMs,
    settings.recordMarkerTtlMs,
    String(cost),
    def === undefined ? '' : def.text,
  ];
  if (late !== undefined) args.push(String(late[0]), String(late[1]), String(late[2]));
  return args;
}

/** ARGV of sync.lua; the reporting request's send time and the earliest its window can have begun, in script time, when known. */
export function syncArgs(settings: ScriptSettings, def: Definition, minBorrowed: number, sync: SyncWhen): string[] {
  return [
    settings.now,
    settings.ttlSlackMs,
    def.text,
    String(minBorrowed),
    sync.sentAtMs === undefined ? '' : String(sync.sentAtMs),
    sync.countedSinceMs === undefined ? '' : String(sync.countedSinceMs),
    sync.countedOwnCost === undefined ? '' : String(sync.countedOwnCost),
    sync.answeredCost === undefined ? '' : String(sync.answeredCost),
    sync.windowEnd === undefined ? '' : String(sync.windowEnd.earliestMs),
    sync.windowEnd === undefined ? '' : String(sync.windowEnd.latestMs),
  ];
}

/** What a sync knows of its report (times in script time). */
export interface SyncWhen {
  readonly sentAtMs: number | undefined;
  readonly countedSinceMs: number | undefined;
  readonly countedOwnCost: number | undefined;
  readonly answeredCost: number | undefined;
  readonly windowEnd?: { readonly earliestMs: number; readonly latestMs: number } | undefined;
}

/** ARGV of penalize.lua: the hold's end in script time, or a duration from the script's now. */
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

/** ARGV of inspect.lua. */
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
  if (status === 0 && reply.length >= 4) {
    const sendAt = num(reply[1]);
    const now = scriptNow(reply[2], reply[3]);
    if (!Number.isFinite(sendAt) || !Number.isFinite(now)) return undefined;
    return { kind: 'booked', sendAt, now, pairs: reply.slice(4).map(String) };
  }
  if (status === 1 && reply.length >= 4) {
    const waitMs = num(reply[1]);
    const now = scriptNow(reply[2], reply[3]);
    if (!Number.isFinite(waitMs) || !Number.isFinite(now)) return undefined;
    return { kind: 'wait', waitMs, now };
  }
  if (status === 2 && reply.length >= 4) {
    const index = num(reply[1]) - 1;
    if (!Number.isInteger(index) || index < 0) return undefined;
    const reason = num(reply[2]);
    return { kind: 'unpayable', index, reason: reason === 1 ? 'quota' : reason === 3 ? 'window' : 'horizon', left: num(reply[3]) };
  }
  return undefined;
}

/** A stored bucket value (see state.lua), parsed. */
export type StoredState =
  | { readonly pending: true; readonly debt: number; readonly hold: number }
  | {
      readonly pending: false;
      /** The definition as text (`capacity,refillPerSec` or `perWindow/windowMs/jitterMs`). */
      readonly text: string;
      /** A token bucket's `x`, or a window limit's expiry. */
      readonly x: number;
      readonly hold: number;
      /** A window limit's entries (flat: a, b, c, f). */
      readonly entries?: readonly number[];
      /** A window limit's answer records (flat: a, b, c, used, end earliest, end latest; the kit's `windowSync`). */
      readonly answers?: readonly number[];
      /** A token bucket's class state while bookings lie ahead (the kit's classes.ts: L, Lc, Ln, aEnd, Pa, Pb). */
      readonly classes?: readonly number[];
      /** The value carries a booking's token. */
      readonly booked: boolean;
    };

function holdOf(text: string | undefined): number {
  return text === undefined || text === '' ? NO_HOLD : Number(text);
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
  const state = { pending: false as const, text, x: Number(parts[fields]), hold: holdOf(parts[fields + 1]), booked: token >= 0 };
  if (!window) return classes === undefined ? state : { ...state, classes };
  const items = bar < 0 ? [] : value.slice(bar + 1).split('|');
  // answer records ('a/b/c/used/earliest/latest') follow the entries ('a:b:c:f')
  const entries = items.filter((e) => !e.includes('/')).flatMap((e) => e.split(':').map(Number));
  const answers = items.filter((e) => e.includes('/')).flatMap((e) => e.split('/').map(Number));
  return answers.length === 0 ? { ...state, entries } : { ...state, entries, answers };
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
