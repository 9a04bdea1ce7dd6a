import type {
  BucketCheck,
  BucketKey,
  BucketSnapshot,
  Capabilities,
  CheckOptions,
  Clock,
  Decision,
  ErrorResult,
  Limit,
  NormalizedLimit,
  PeekDecision,
  PenaltyHold,
  RateLimiter,
  RateLimitError,
  SideEffectResult,
  TimerHandle,
  WaitDecision,
  WaitOptions,
} from '@core/rate-limit-contract';
import {
  hashCredential,
  normalizeKey,
  normalizeLimit,
  roundUpWait,
  systemClock,
  validateChecks,
  validateCost,
  validateSignal,
  validateVenue,
  validateWaitBudget,
  type NormalizedCheck,
  type NormalizedKey,
} from '@core/default-rate-limiter';
import { allPattern, bucketKeyName, hashTagOf, parseBucketKeyName, venuePattern, type HashTagMode } from './bucket-key-name.js';
import { RecordBuffer, type PendingRecord, type RecordStats } from './record-buffer.js';
import type { RedisLike } from './redis-like.js';
import type { RedisRateLimiterOptions } from './redis-rate-limiter-options.js';
import { defineScript, ScriptRunner, type Script, type ScriptOutcome } from './script-runner.js';
import { admitScript } from './scripts/admit-script.js';
import { CANCEL_SCRIPT } from './scripts/cancel-script.js';
import { DELETE_SCRIPT } from './scripts/delete-script.js';
import { INSPECT_SCRIPT } from './scripts/inspect-script.js';
import { PENALIZE_SCRIPT } from './scripts/penalize-script.js';
import { RECORD_SCRIPT } from './scripts/record-script.js';
import { SCRIPT_EPOCH_MS } from './scripts/lua-state.js';
import { SYNC_SCRIPT } from './scripts/sync-script.js';
import { withDeadline } from './deadline.js';

/** The admit script of a limiter with the default options (server TIME, 1 s TTL slack). */
const ADMIT = defineScript('admit', admitScript({ ttlSlackMs: 1_000, injectedClock: false }));
const CANCEL = defineScript('cancel', CANCEL_SCRIPT);
const RECORD = defineScript('record', RECORD_SCRIPT);
const SYNC = defineScript('sync', SYNC_SCRIPT);
const PENALIZE = defineScript('penalize', PENALIZE_SCRIPT);
const INSPECT = defineScript('inspect', INSPECT_SCRIPT);
const DELETE = defineScript('delete', DELETE_SCRIPT);

/** Every script the limiter runs (for tests and for preloading with SCRIPT LOAD). */
export const REDIS_RATE_LIMITER_SCRIPTS: readonly Script[] = [ADMIT, CANCEL, RECORD, SYNC, PENALIZE, INSPECT, DELETE];

const MODE_PROBE = '0';
/** A booking's mode argument starts with `;` (see {@link bookingMode}). */
const MODE_BOOK = ';';
const MODE_PEEK = '2';
const DEFAULT_WAIT_BUDGET_MS = 10_000;
const SCAN_COUNT = 1000;
const FLUSH_BATCH = 64;
const HASH_CACHE_LIMIT = 10_000;
const NAME_CACHE_LIMIT = 10_000;
const LOADED_LIMIT = 10_000;

/** The buckets of one call, ready for the admit script. */
interface PreparedCall {
  readonly keys: string[];
  /** capacity, refillPerSec, cost per key. */
  readonly triples: string[];
}

/** A booking that can still be returned (RL-W5): the keys and, per key, what it wrote and replaced. */
interface Booking {
  readonly keys: readonly string[];
  readonly pairs: readonly string[];
}

type AdmitResult =
  | { readonly kind: 'ok'; readonly sendAt: number; readonly now: number; readonly booking: Booking | undefined }
  | { readonly kind: 'delay'; readonly waitMs: number }
  | { readonly kind: 'error'; readonly error: RateLimitError };

interface Waiter {
  timer: TimerHandle | undefined;
  settle(decision: Decision): void;
}

function errorDecision(error: RateLimitError): ErrorResult {
  return { kind: 'error', error };
}

/** Read again after an await (the type checker would keep the earlier narrowing). */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}

const CLOSED: ErrorResult = { kind: 'error', error: { code: 'closed', message: 'the limiter is closed' } };

/** A reply shape the limiter did not expect: never taken for capacity. */
function malformed(script: string, reply: unknown): ErrorResult {
  return errorDecision({ code: 'internal', message: `unexpected reply from the ${script} script: ${JSON.stringify(reply)?.slice(0, 200)}` });
}

function num(value: unknown): number {
  return typeof value === 'number' ? value : Number(String(value));
}

const EPOCH_S = SCRIPT_EPOCH_MS / 1000;

/**
 * The script's now from the clock it sent back: TIME's seconds and microseconds (the same double
 * operations as in Lua, so the same number), or the injected clock's value and ''.
 */
/**
 * The script's now from TIME in microseconds (an admission's reply): split back into TIME's two
 * integers and put through the same double operations as in Lua, so the same number.
 */
function scriptNowFromMicros(us: number): number {
  const seconds = Math.floor(us / 1_000_000);
  return (seconds - EPOCH_S) * 1000 + (us - seconds * 1_000_000) / 1000;
}

function scriptNow(a: unknown, b: unknown): number {
  if (b === '' || b === undefined || b === null) return num(a);
  return (num(a) - EPOCH_S) * 1000 + num(b) / 1000;
}

/**
 * The mode argument of a booking: `;<budget>;<token>`, where the token (random, 30 bits) is what the
 * script appends (with its `;`) to the values the booking writes. Every other write stores no token, so a cancel that finds exactly what
 * the booking wrote knows that nothing wrote to the bucket since (RL-W5), even a sync or penalty that
 * left the numbers unchanged; two bookings tell each other apart by their tokens.
 */
function bookingMode(budget: number): string {
  return `${MODE_BOOK}${budget};${Math.floor(Math.random() * 0x40000000).toString(36)}`;
}

/** A stored bucket value parsed (see lua-state.ts). */
type StoredState =
  | { readonly pending: true; readonly debt: number; readonly hold: number }
  | { readonly pending: false; readonly capacity: number; readonly refillPerSec: number; readonly x: number; readonly hold: number };

function parseStored(raw: string): StoredState | undefined {
  const token = raw.indexOf(';');
  const parts = (token < 0 ? raw : raw.slice(0, token)).split(',');
  if (parts.length !== 3 && parts.length !== 4) return undefined;
  if (parts[0] === 'p') return { pending: true, debt: Number(parts[1]), hold: Number(parts[2]) };
  return { pending: false, capacity: Number(parts[0]), refillPerSec: Number(parts[1]), x: Number(parts[2]), hold: Number(parts[3] ?? 0) };
}

function borrowedOf(state: StoredState, now: number): number {
  if (state.pending) return state.debt;
  if (state.refillPerSec > 0) return state.x <= now ? 0 : ((state.x - now) * state.refillPerSec) / 1000;
  return Math.max(0, state.x);
}

/**
 * The distributed rate limiter: every rule of the contract, with the buckets in Redis (standalone or
 * Cluster) so every process sharing the store shares the buckets. Each admission, booking and
 * multi-bucket check is one script call; the clock is the Redis server's TIME.
 *
 * @example
 * ```ts
 * const limiter = createRedisRateLimiter({ redis: fromIoRedis(new Redis({ enableOfflineQueue: false })) });
 * const d = await limiter.checkRate({ venue: 'binance', credential: null, axis: 'ip' }, { requests: 6000, periodMs: 60_000 }, 20);
 * ```
 */
export class RedisRateLimiter implements RateLimiter {
  readonly specificationVersion = 'v1' as const;
  readonly capabilities: Capabilities;

  readonly #redis: RedisLike;
  readonly #runner: ScriptRunner;
  readonly #prefix: string;
  readonly #hashTag: HashTagMode;
  readonly #secret: string | undefined;
  readonly #timeoutMs: number;
  readonly #clock: Clock | undefined;
  readonly #slackArg: string;
  /** The admit script for this limiter's TTL slack and clock. */
  readonly #admitScript: Script;
  readonly #pendingTtlArg: string;
  readonly #recordRetryMs: number;
  readonly #onClose: (() => void | Promise<void>) | undefined;
  readonly #epochOffset: number;
  readonly #buffer: RecordBuffer;
  readonly #hashes = new Map<string, string>();
  /** Key names by credential (null: the public pool), venue and axis. */
  readonly #names = new Map<string | null, Map<string, Map<string, string>>>();
  #nameCount = 0;
  readonly #waiters = new Set<Waiter>();
  /** Script and hash tag pairs already run once (so the script is cached on that node). */
  readonly #loaded = new Set<string>();
  #closed = false;
  #flushing = false;
  #flushTimer: ReturnType<typeof setTimeout> | undefined;
  /** Server time minus local time, from the last reply (for answers that need no round trip). */
  #serverOffset = 0;

  constructor(options: RedisRateLimiterOptions) {
    if (typeof options !== 'object' || options === null) throw new TypeError('createRedisRateLimiter: options must be an object');
    const { redis } = options;
    if (typeof redis !== 'object' || redis === null || typeof redis.evalsha !== 'function' || typeof redis.eval !== 'function') {
      throw new TypeError('createRedisRateLimiter: options.redis must be a RedisLike (use fromIoRedis, fromNodeRedis or fromNodeRedisCluster)');
    }
    const prefix = options.prefix ?? 'rl:';
    if (typeof prefix !== 'string' || prefix === '' || /[{}]/.test(prefix)) {
      throw new TypeError(
        'createRedisRateLimiter: options.prefix must be a non-empty string without "{" or "}" (braces would move the hash tag; an empty prefix would let resetAll reach keys that are not the limiter\'s)',
      );
    }
    const hashTag = options.hashTag ?? 'venue';
    if (hashTag !== 'venue' && hashTag !== 'venue+credential' && hashTag !== 'prefix') {
      throw new TypeError('createRedisRateLimiter: options.hashTag must be "venue", "venue+credential" or "prefix"');
    }
    const positive = (name: string, value: number | undefined, fallback: number, allowZero = false): number => {
      const v = value ?? fallback;
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0 || (!allowZero && v === 0)) {
        throw new TypeError(`createRedisRateLimiter: options.${name} must be a finite number ${allowZero ? '>=' : '>'} 0`);
      }
      return v;
    };
    const clock = options.clock;
    if (clock !== undefined && (typeof clock.now !== 'function' || typeof clock.setTimer !== 'function')) {
      throw new TypeError('createRedisRateLimiter: options.clock must be a Clock { now(), setTimer() }');
    }
    this.#redis = redis;
    this.#prefix = prefix;
    this.#hashTag = hashTag;
    this.#secret = options.credentialSecret;
    this.#timeoutMs = positive('timeoutMs', options.timeoutMs, 250);
    this.#runner = new ScriptRunner(redis, this.#timeoutMs);
    this.#clock = clock;
    this.#slackArg = String(positive('ttlSlackMs', options.ttlSlackMs, clock === undefined ? 1_000 : 3_600_000, true));
    this.#pendingTtlArg = String(positive('pendingTtlMs', options.pendingTtlMs, 3_600_000));
    const ttlSlackMs = Number(this.#slackArg);
    this.#admitScript = ttlSlackMs === 1_000 && clock === undefined ? ADMIT : defineScript('admit', admitScript({ ttlSlackMs, injectedClock: clock !== undefined }));
    this.#buffer = new RecordBuffer(Math.floor(positive('recordBufferSize', options.recordBufferSize, 10_000, true)));
    this.#recordRetryMs = positive('recordRetryMs', options.recordRetryMs, 250);
    if (options.onClose !== undefined && typeof options.onClose !== 'function') {
      throw new TypeError('createRedisRateLimiter: options.onClose must be a function');
    }
    this.#onClose = options.onClose;
    this.#epochOffset = clock === undefined ? SCRIPT_EPOCH_MS : 0;
    this.capabilities = Object.freeze({
      distributed: true,
      injectableClock: clock !== undefined,
      bookings: true,
      abortSignal: true,
      fractionalCosts: true,
      snapshot: true,
      sync: true,
      penalize: true,
      // on Cluster a call's buckets must share a hash tag: only one slot for everything spans venues
      crossVenueChecks: !options.redis.cluster || this.#hashTag === 'prefix',
    });
  }

  // ---- admission ---------------------------------------------------------------------------

  // not async: the hot path adds no promise of its own to the script call's
  checkRate(key: BucketKey, limit: Limit, cost: number, options?: CheckOptions): Promise<Decision> {
    try {
      if (this.#closed) return Promise.resolve(CLOSED);
      const k = normalizeKey(key, 'key');
      if (!k.ok) return Promise.resolve(errorDecision(k.error));
      const l = normalizeLimit(limit, 'limit');
      if (!l.ok) return Promise.resolve(errorDecision(l.error));
      const c = validateCost(cost, 'cost');
      if (!c.ok) return Promise.resolve(errorDecision(c.error));
      const budget = this.#budgetOf(options, 'options.maxWaitMs');
      if (budget !== undefined && typeof budget !== 'number') return Promise.resolve(budget);
      return Promise.resolve(this.#checkNormalized([{ key: k.value, limit: l.value, cost: c.value, index: 0 }], budget));
    } catch (error) {
      return Promise.resolve(this.#internal(error));
    }
  }

  checkRates(checks: readonly BucketCheck[], options?: CheckOptions): Promise<Decision> {
    try {
      if (this.#closed) return Promise.resolve(CLOSED);
      const v = validateChecks(checks, 'checks');
      if (!v.ok) return Promise.resolve(errorDecision(v.error));
      const budget = this.#budgetOf(options, 'options.maxWaitMs');
      if (budget !== undefined && typeof budget !== 'number') return Promise.resolve(budget);
      return Promise.resolve(this.#checkNormalized(v.value, budget));
    } catch (error) {
      return Promise.resolve(this.#internal(error));
    }
  }

  async peek(checks: readonly BucketCheck[]): Promise<PeekDecision> {
    try {
      if (this.#closed) return CLOSED;
      const v = validateChecks(checks, 'checks');
      if (!v.ok) return errorDecision(v.error);
      const call = this.#prepare(v.value);
      if (!('keys' in call)) return call;
      if (call.keys.length === 0) return this.#okNow() as PeekDecision;
      const r = await this.#admit(call, MODE_PEEK);
      if (r.kind === 'error') return r;
      if (r.kind === 'delay') return { kind: 'delay', retryAfterMs: roundUpWait(r.waitMs) };
      return { kind: 'ok', sendAtMs: r.now + this.#epochOffset };
    } catch (error) {
      return this.#internal(error);
    }
  }

  async waitForCapacity(checks: readonly BucketCheck[], options?: WaitOptions): Promise<WaitDecision> {
    try {
      if (this.#closed) return CLOSED;
      const v = validateChecks(checks, 'checks');
      if (!v.ok) return errorDecision(v.error);
      if (options !== undefined && (typeof options !== 'object' || options === null)) {
        return errorDecision({ code: 'invalid_parameters', message: 'options: must be an object { maxWaitMs?, signal? }', path: 'options' });
      }
      let budget = DEFAULT_WAIT_BUDGET_MS;
      if (options?.maxWaitMs !== undefined) {
        const b = validateWaitBudget(options.maxWaitMs, 'options.maxWaitMs');
        if (!b.ok) return errorDecision(b.error);
        budget = b.value;
      }
      const s = validateSignal(options?.signal, 'options.signal');
      if (!s.ok) return errorDecision(s.error);
      const signal = s.value;
      if (signal?.aborted === true) return this.#aborted();
      const call = this.#prepare(v.value);
      if (!('keys' in call)) return call;
      if (call.keys.length === 0) return this.#okNow() as WaitDecision;
      const r = await this.#admit(call, bookingMode(budget));
      if (r.kind === 'error') return r;
      if (r.kind === 'delay') {
        const retryAfterMs = roundUpWait(r.waitMs);
        return errorDecision({
          code: 'rate_limit_timeout',
          message: `the wait (${retryAfterMs} ms) exceeds the budget (${budget} ms); nothing was booked`,
          retryAfterMs,
        });
      }
      const waitMs = r.sendAt - r.now;
      const sendAtMs = r.sendAt + this.#epochOffset;
      if (isAborted(signal) || this.#closed) {
        if (r.booking !== undefined) await this.#cancel(r.booking);
        return this.#closed ? CLOSED : this.#aborted();
      }
      if (waitMs <= 0) return { kind: 'ok', sendAtMs };
      return (await this.#waitUntil(waitMs, sendAtMs, signal, r.booking)) as WaitDecision;
    } catch (error) {
      return this.#internal(error);
    }
  }

  #waitUntil(waitMs: number, sendAtMs: number, signal: AbortSignal | undefined, booking: Booking | undefined): Promise<Decision> {
    return new Promise<Decision>((resolve) => {
      let settled = false;
      const waiter: Waiter = {
        timer: undefined,
        settle: (decision) => {
          if (settled) return;
          settled = true;
          waiter.timer?.cancel();
          this.#waiters.delete(waiter);
          signal?.removeEventListener('abort', onAbort);
          resolve(decision);
        },
      };
      const onAbort = (): void => {
        if (settled) return;
        waiter.timer?.cancel();
        const finish = (): void => waiter.settle(this.#aborted());
        if (booking === undefined) finish();
        else void this.#cancel(booking).then(finish, finish);
      };
      this.#waiters.add(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
      const fire = (): void => waiter.settle({ kind: 'ok', sendAtMs });
      if (this.#clock !== undefined) {
        waiter.timer = this.#clock.setTimer(fire, Math.max(0, sendAtMs - this.#clock.now()));
      } else {
        // measured from the reply, which left the server after its TIME: never before the send time;
        // one more millisecond covers Node's cached loop time
        waiter.timer = systemClock.setTimer(fire, Math.ceil(waitMs) + 1);
      }
      waiter.timer.unref?.();
    });
  }

  /** The hot path: one script call, no async layer of its own. */
  #checkNormalized(checks: readonly NormalizedCheck[], budget: number | undefined): Promise<Decision> | Decision {
    const call = this.#prepare(checks);
    if (!('keys' in call)) return call;
    if (call.keys.length === 0) return this.#okNow();
    const mode = budget === undefined ? MODE_PROBE : bookingMode(budget);
    return this.#run(this.#admitScript, call.keys, this.#admitArgs(call, mode)).then((outcome) => {
      const r = this.#admitResultSafe(outcome, call, mode);
      if (r.kind === 'error') return r;
      if (r.kind === 'delay') return { kind: 'delay', retryAfterMs: roundUpWait(r.waitMs) };
      // the exact wait: sendAtMs = now + waitMs (only refusals round up, RL-A3)
      return r.sendAt > r.now ? { kind: 'booked', waitMs: r.sendAt - r.now, sendAtMs: r.sendAt + this.#epochOffset } : { kind: 'ok', sendAtMs: r.sendAt + this.#epochOffset };
    });
  }

  /** Builds key names and arguments; drops unlimited buckets and zero costs (RL-L2, RL-A2). */
  #prepare(checks: readonly NormalizedCheck[]): PreparedCall | ErrorResult {
    const keys: string[] = [];
    const triples: string[] = [];
    let tag: string | undefined;
    for (const check of checks) {
      if (check.limit === null || check.cost === 0) continue;
      const name = this.#keyName(check.key);
      if (this.#redis.cluster) {
        const t = hashTagOf(name);
        if (tag !== undefined && t !== tag) {
          return errorDecision({
            code: 'invalid_parameters',
            message: `checks[${check.index}].key: on Redis Cluster one call's buckets must share a hash tag (hashTag: '${this.#hashTag}'); this bucket's venue${this.#hashTag === 'venue' ? '' : ' or credential'} differs from the first one's (hashTag: 'prefix' puts every bucket in one slot)`,
            path: `checks[${check.index}].key`,
          });
        }
        tag = t;
      }
      keys.push(name);
      triples.push(String(check.limit.capacity), String(check.limit.refillPerSec), String(check.cost));
    }
    return { keys, triples };
  }

  #admit(call: PreparedCall, mode: string): Promise<AdmitResult> {
    return this.#run(this.#admitScript, call.keys, this.#admitArgs(call, mode)).then((outcome) => this.#admitResult(outcome, call, mode));
  }

  /** mode, the injected clock's now (only with one), then the triples (see admit-script.ts). */
  #admitArgs(call: PreparedCall, mode: string): string[] {
    const triples = call.triples;
    const args = this.#clock === undefined ? [mode] : [mode, String(this.#clock.now())];
    for (let i = 0; i < triples.length; i++) args.push(triples[i] as string);
    return args;
  }

  /** {@link #admitResult}, never throwing (the hot path has no try of its own around it). */
  #admitResultSafe(outcome: ScriptOutcome, call: PreparedCall, mode: string): AdmitResult {
    try {
      return this.#admitResult(outcome, call, mode);
    } catch (error) {
      return { kind: 'error', error: this.#internal(error).error };
    }
  }

  #admitResult(outcome: ScriptOutcome, call: PreparedCall, mode: string): AdmitResult {
    if (!outcome.ok) return { kind: 'error', error: outcome.error };
    const reply = outcome.reply;
    if (typeof reply === 'number' || typeof reply === 'string') {
      // admitted now: the reply is the clock (TIME in microseconds, or the injected now)
      const now = typeof reply === 'number' ? scriptNowFromMicros(reply) : Number(reply);
      if (!Number.isFinite(now)) return malformed('admit', reply);
      this.#noteServerTime(now);
      return { kind: 'ok', sendAt: now, now, booking: undefined };
    }
    if (!Array.isArray(reply) || reply.length < 2) return malformed('admit', reply);
    const status = num(reply[0]);
    if (status === 0) {
      const now = scriptNow(reply[2], reply[3]);
      const sendAt = reply[1] === '' ? now : num(reply[1]);
      if (!Number.isFinite(sendAt) || !Number.isFinite(now)) return malformed('admit', reply);
      this.#noteServerTime(now);
      const booking = mode.charCodeAt(0) === 59 && sendAt > now ? { keys: call.keys, pairs: reply.slice(4).map(String) } : undefined;
      return { kind: 'ok', sendAt, now, booking };
    }
    if (status === 1) {
      const waitMs = num(reply[1]);
      if (!Number.isFinite(waitMs)) return malformed('admit', reply);
      this.#noteServerTime(scriptNow(reply[2], reply[3]));
      return { kind: 'delay', waitMs };
    }
    if (status === 2) {
      return {
        kind: 'error',
        error: {
          code: 'cost_unpayable',
          message: `bucket ${num(reply[1])} of the call is a fixed quota (refill 0) without enough left for this cost: it can never be paid`,
        },
      };
    }
    return malformed('admit', reply);
  }

  async #cancel(booking: Booking): Promise<void> {
    await this.#run(CANCEL, booking.keys, [...this.#header(), ...booking.pairs]);
  }

  // ---- record, sync, penalize -------------------------------------------------------------

  record(key: BucketKey, cost: number, limit?: Limit): void {
    try {
      if (this.#closed) {
        this.#buffer.countDropped(1);
        return;
      }
      const k = normalizeKey(key, 'key');
      const c = validateCost(cost, 'cost');
      // malformed input is dropped and counted, never half-applied (RL-F2)
      const l = limit === undefined ? undefined : normalizeLimit(limit, 'limit');
      if (!k.ok || !c.ok || (l !== undefined && !l.ok)) {
        this.#buffer.countDropped(1);
        return;
      }
      if (c.value === 0 || (l !== undefined && l.ok && l.value === null)) return;
      const def: NormalizedLimit | null = l !== undefined && l.ok ? l.value : null;
      const pending: PendingRecord = {
        keyName: this.#keyName(k.value),
        args: [String(c.value), def === null ? '' : String(def.capacity), def === null ? '' : String(def.refillPerSec)],
      };
      void this.#sendRecord(pending).then((result) => {
        if (result === 'retry') {
          this.#buffer.push(pending);
          this.#scheduleFlush();
        } else if (result === 'refused') {
          this.#buffer.countDropped(1);
        }
      });
    } catch {
      this.#buffer.countDropped(1);
    }
  }

  /** What record() has buffered, flushed and dropped so far (RL-R1). */
  recordStats(): RecordStats {
    return this.#buffer.stats();
  }

  /** Sends one record: applied, to retry (Redis away), or refused by Redis (not retried). */
  async #sendRecord(record: PendingRecord): Promise<'applied' | 'retry' | 'refused'> {
    const outcome = await this.#run(RECORD, [record.keyName], [...this.#header(), ...record.args]);
    if (outcome.ok) return 'applied';
    return outcome.error.code === 'backend_unavailable' ? 'retry' : 'refused';
  }

  #scheduleFlush(): void {
    if (this.#flushTimer !== undefined || this.#closed || this.#buffer.size === 0) return;
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      void this.#flush();
    }, this.#recordRetryMs);
    this.#flushTimer.unref();
  }

  async #flush(): Promise<void> {
    if (this.#flushing || this.#closed) return;
    this.#flushing = true;
    try {
      while (this.#buffer.size > 0 && !this.#closed) {
        const batch = this.#buffer.take(FLUSH_BATCH);
        const results = await Promise.all(batch.map((r) => this.#sendRecord(r)));
        const failed = batch.filter((_, i) => results[i] === 'retry');
        const refused = results.filter((r) => r === 'refused').length;
        this.#buffer.countFlushed(batch.length - failed.length - refused);
        this.#buffer.countFlushDropped(refused);
        if (failed.length > 0) {
          this.#buffer.unshift(failed);
          break;
        }
      }
    } finally {
      this.#flushing = false;
      this.#scheduleFlush();
    }
  }

  async sync(key: BucketKey, limit: Limit, minBorrowed: number): Promise<SideEffectResult> {
    try {
      if (this.#closed) return CLOSED;
      const k = normalizeKey(key, 'key');
      if (!k.ok) return errorDecision(k.error);
      const l = normalizeLimit(limit, 'limit');
      if (!l.ok) return errorDecision(l.error);
      const m = validateCost(minBorrowed, 'minBorrowed');
      if (!m.ok) return errorDecision(m.error);
      if (l.value === null) return { kind: 'ok' };
      const args = [...this.#header(), String(l.value.capacity), String(l.value.refillPerSec), String(m.value)];
      const outcome = await this.#run(SYNC, [this.#keyName(k.value)], args);
      return outcome.ok ? { kind: 'ok' } : errorDecision(outcome.error);
    } catch (error) {
      return this.#internal(error);
    }
  }

  async penalize(key: BucketKey, hold: PenaltyHold): Promise<SideEffectResult> {
    try {
      if (this.#closed) return CLOSED;
      const k = normalizeKey(key, 'key');
      if (!k.ok) return errorDecision(k.error);
      const h = hold as { untilMs?: unknown; forMs?: unknown } | null | undefined;
      let untilArg = '';
      let forArg = '';
      if (typeof h !== 'object' || h === null || Array.isArray(h)) {
        return errorDecision({ code: 'invalid_parameters', message: 'hold: must be { untilMs } or { forMs }', path: 'hold' });
      }
      if (h.untilMs !== undefined && h.forMs !== undefined) {
        return errorDecision({ code: 'invalid_parameters', message: 'hold: gives both untilMs and forMs: give one', path: 'hold' });
      }
      if (h.untilMs !== undefined) {
        if (typeof h.untilMs !== 'number' || !Number.isFinite(h.untilMs)) {
          return errorDecision({ code: 'invalid_parameters', message: 'hold.untilMs: must be a finite number (ms, limiter clock)', path: 'hold.untilMs' });
        }
        untilArg = String(h.untilMs - this.#epochOffset);
      } else {
        if (typeof h.forMs !== 'number' || !Number.isFinite(h.forMs) || h.forMs < 0) {
          return errorDecision({ code: 'invalid_parameters', message: 'hold.forMs: must be a finite number >= 0', path: 'hold.forMs' });
        }
        forArg = String(h.forMs);
      }
      const outcome = await this.#run(PENALIZE, [this.#keyName(k.value)], [...this.#header(), untilArg, forArg]);
      return outcome.ok ? { kind: 'ok' } : errorDecision(outcome.error);
    } catch (error) {
      return this.#internal(error);
    }
  }

  // ---- inspecting and resetting -----------------------------------------------------------

  async borrowed(key: BucketKey): Promise<number | ErrorResult> {
    try {
      if (this.#closed) return CLOSED;
      const k = normalizeKey(key, 'key');
      if (!k.ok) return errorDecision(k.error);
      const r = await this.#inspect(this.#keyName(k.value));
      if ('kind' in r) return r;
      return r.state === undefined ? 0 : borrowedOf(r.state, r.now);
    } catch (error) {
      return this.#internal(error);
    }
  }

  async #inspect(keyName: string): Promise<{ state: StoredState | undefined; now: number } | ErrorResult> {
    const outcome = await this.#run(INSPECT, [keyName], this.#header());
    if (!outcome.ok) return errorDecision(outcome.error);
    const reply = outcome.reply;
    if (!Array.isArray(reply) || reply.length !== 2) return malformed('inspect', reply);
    const raw = String(reply[0]);
    const now = num(reply[1]);
    this.#noteServerTime(now);
    return { state: raw === '' ? undefined : parseStored(raw), now };
  }

  async reset(key: BucketKey): Promise<SideEffectResult> {
    try {
      if (this.#closed) return CLOSED;
      const k = normalizeKey(key, 'key');
      if (!k.ok) return errorDecision(k.error);
      const outcome = await this.#run(DELETE, [this.#keyName(k.value)], []);
      return outcome.ok ? { kind: 'ok' } : errorDecision(outcome.error);
    } catch (error) {
      return this.#internal(error);
    }
  }

  async resetVenue(venue: string): Promise<SideEffectResult> {
    try {
      if (this.#closed) return CLOSED;
      const v = validateVenue(venue, 'venue');
      if (!v.ok) return errorDecision(v.error);
      return await this.#deleteMatching(venuePattern(this.#prefix, this.#hashTag, v.value));
    } catch (error) {
      return this.#internal(error);
    }
  }

  async resetAll(): Promise<SideEffectResult> {
    try {
      if (this.#closed) return CLOSED;
      return await this.#deleteMatching(allPattern(this.#prefix));
    } catch (error) {
      return this.#internal(error);
    }
  }

  /** SCAN every master (never KEYS) and delete what matches, one key per call (no CROSSSLOT). */
  async #deleteMatching(pattern: string): Promise<SideEffectResult> {
    const scanned = await this.#scan(pattern);
    if (!Array.isArray(scanned)) return scanned as ErrorResult;
    for (let i = 0; i < scanned.length; i += FLUSH_BATCH) {
      const outcomes = await Promise.all(scanned.slice(i, i + FLUSH_BATCH).map((key) => this.#run(DELETE, [key], [])));
      const failed = outcomes.find((o) => !o.ok);
      if (failed !== undefined && !failed.ok) return errorDecision(failed.error);
    }
    return { kind: 'ok' };
  }

  async #scan(pattern: string): Promise<string[] | ErrorResult> {
    const found = new Set<string>();
    const deadline = <T>(p: Promise<T>): Promise<T | 'timeout'> => withDeadline(p, this.#timeoutMs * 4);
    const unavailable = (message: string): ErrorResult => errorDecision({ code: 'backend_unavailable', message });
    try {
      const masters = await deadline(this.#redis.masters());
      if (masters === 'timeout') return unavailable('Redis did not list its masters in time');
      for (const node of masters) {
        let cursor = '0';
        do {
          const step = await deadline(node.scan(cursor, pattern, SCAN_COUNT));
          if (step === 'timeout') return unavailable('Redis did not answer SCAN in time');
          cursor = step[0];
          for (const key of step[1]) found.add(key);
        } while (cursor !== '0');
      }
    } catch (error) {
      return unavailable(`Redis could not be scanned: ${error instanceof Error ? error.message : String(error)}`);
    }
    return [...found];
  }

  async snapshot(): Promise<readonly BucketSnapshot[]> {
    if (this.#closed) return [];
    const keys = await this.#scan(allPattern(this.#prefix));
    if (!Array.isArray(keys)) throw new Error(`snapshot: ${(keys as ErrorResult).error.message}`);
    const out: BucketSnapshot[] = [];
    for (let i = 0; i < keys.length; i += FLUSH_BATCH) {
      const batch = keys.slice(i, i + FLUSH_BATCH);
      const states = await Promise.all(batch.map((key) => this.#inspect(key)));
      for (let j = 0; j < batch.length; j++) {
        const r = states[j];
        const names = parseBucketKeyName(this.#prefix, this.#hashTag, batch[j] as string);
        if (r === undefined || 'kind' in r) throw new Error(`snapshot: ${r?.error.message ?? 'no reply'}`);
        const state = r.state;
        if (names === undefined || state === undefined || state.pending) continue;
        const borrowed = borrowedOf(state, r.now);
        const held = state.hold > r.now;
        if (borrowed <= 0 && !held) continue;
        const entry: BucketSnapshot = {
          venue: names.venue,
          credentialHash: names.credentialHash,
          axis: names.axis,
          capacity: state.capacity,
          refillPerSec: state.refillPerSec,
          tokens: state.capacity - borrowed,
          borrowed,
          ...(held ? { heldUntilMs: state.hold + this.#epochOffset } : {}),
        };
        out.push(entry);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#flushTimer !== undefined) clearTimeout(this.#flushTimer);
    this.#flushTimer = undefined;
    for (const waiter of [...this.#waiters]) waiter.settle(CLOSED);
    this.#buffer.dropAll();
    if (this.#onClose !== undefined) {
      try {
        await this.#onClose();
      } catch {
        // closing what the limiter owns is best effort: the limiter itself is closed either way
      }
    }
  }

  // ---- plumbing -----------------------------------------------------------------------------

  #run(script: Script, keys: readonly string[], args: readonly string[]): Promise<ScriptOutcome> {
    // The first call of a script on a node goes as EVAL, which caches it: a NOSCRIPT retry would put
    // that call behind commands sent after it (a record landing after the next admission). Nodes are
    // told apart by hash tag (one tag, one slot, one node).
    const seenKey = this.#redis.cluster && keys.length > 0 ? `${script.name}${hashTagOf(keys[0] as string)}` : script.name;
    const firstUse = !this.#loaded.has(seenKey);
    if (firstUse) {
      if (this.#loaded.size >= LOADED_LIMIT) this.#loaded.clear();
      this.#loaded.add(seenKey);
    }
    const pending = this.#runner.run(script, keys, args, firstUse);
    if (firstUse || this.#buffer.size > 0) {
      void pending.then((outcome) => {
        if (!outcome.ok && firstUse) this.#loaded.delete(seenKey);
        if (outcome.ok && this.#buffer.size > 0 && !this.#flushing && script !== RECORD) void this.#flush();
      });
    }
    return pending;
  }

  /** now ('' = server TIME), TTL slack, pending TTL: the first three arguments of every script. */
  #header(): string[] {
    return [this.#clock === undefined ? '' : String(this.#clock.now()), this.#slackArg, this.#pendingTtlArg];
  }

  /** A bucket's key name, cached by credential, venue and axis (no hashing or escaping per call). */
  #keyName(key: NormalizedKey): string {
    let byVenue = this.#names.get(key.credential);
    let byAxis = byVenue?.get(key.venue);
    const cached = byAxis?.get(key.axis);
    if (cached !== undefined) return cached;
    const name = this.#buildKeyName(key);
    if (this.#nameCount >= NAME_CACHE_LIMIT) {
      this.#names.clear();
      this.#nameCount = 0;
      byVenue = undefined;
      byAxis = undefined;
    }
    if (byVenue === undefined) {
      byVenue = new Map();
      this.#names.set(key.credential, byVenue);
    }
    if (byAxis === undefined) {
      byAxis = new Map();
      byVenue.set(key.venue, byAxis);
    }
    byAxis.set(key.axis, name);
    this.#nameCount++;
    return name;
  }

  #buildKeyName(key: NormalizedKey): string {
    let hash: string | null = null;
    if (key.credential !== null) {
      hash = this.#hashes.get(key.credential) ?? null;
      if (hash === null) {
        hash = hashCredential(key.credential, this.#secret);
        if (this.#hashes.size >= HASH_CACHE_LIMIT) this.#hashes.clear();
        this.#hashes.set(key.credential, hash);
      }
    }
    return bucketKeyName(this.#prefix, this.#hashTag, key, hash);
  }

  #budgetOf(options: CheckOptions | undefined, path: string): number | undefined | ErrorResult {
    if (options === undefined) return undefined;
    if (typeof options !== 'object' || options === null) {
      return errorDecision({ code: 'invalid_parameters', message: 'options: must be an object { maxWaitMs? }', path: 'options' });
    }
    if (options.maxWaitMs === undefined) return undefined;
    const b = validateWaitBudget(options.maxWaitMs, path);
    return b.ok ? b.value : errorDecision(b.error);
  }

  #okNow(): Decision {
    const now = this.#clock !== undefined ? this.#clock.now() : systemClock.now() + this.#serverOffset;
    return { kind: 'ok', sendAtMs: now };
  }

  #noteServerTime(scriptNow: number): void {
    if (this.#clock === undefined && Number.isFinite(scriptNow)) this.#serverOffset = scriptNow + this.#epochOffset - systemClock.now();
  }

  #aborted(): ErrorResult {
    return errorDecision({ code: 'aborted', message: 'the wait was aborted by its signal' });
  }

  #internal(error: unknown): ErrorResult {
    return errorDecision({ code: 'internal', message: `unexpected failure: ${error instanceof Error ? error.message : String(error)}` });
  }
}

/**
 * Builds a {@link RedisRateLimiter}.
 *
 * @example
 * ```ts
 * import { Redis } from 'ioredis';
 * const limiter = createRedisRateLimiter({ redis: fromIoRedis(new Redis({ port: 6380, enableOfflineQueue: false })) });
 * ```
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  return new RedisRateLimiter(options);
}
