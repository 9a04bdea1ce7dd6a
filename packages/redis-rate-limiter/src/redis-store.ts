import type { BucketSnapshot, Capabilities, Clock, ErrorResult, RateLimitError, SideEffectResult } from '@core/rate-limit-contract';
import {
  WINDOW_SLOTS,
  errorResult,
  systemClock,
  type Admission,
  type AdmitMode,
  type Definition,
  type Hold,
  type LimiterStore,
  type ResolvedKey,
  type SyncReport,
} from '@core/rate-limit-kit';
import { allPattern, bucketKeyName, hashTagOf, parseBucketKeyName, recordMarkerName, venuePattern, type HashTagMode } from './bucket-key-name.js';
import { withDeadline } from './deadline.js';
import {
  SCRIPT_EPOCH_MS,
  admitArgs,
  cancelArgs,
  decodeAdmitReply,
  inspectArgs,
  parseStored,
  penalizeArgs,
  recordArgs,
  syncBucketArgs,
  syncHeadArgs,
  type ScriptSettings,
  type StoredState,
} from './protocol.js';
import { RecordSender } from './record-sender.js';
import type { RecordStats } from './record-buffer.js';
import type { RedisLike } from './redis-like.js';
import { ADMIT, CANCEL, DELETE, INSPECT, PENALIZE, RECORD, REDIS_RATE_LIMITER_LIBRARY, SYNC, type Operation } from './scripts.js';
import { ScriptRunner, type ScriptOutcome } from './script-runner.js';
import { ServerClock } from './server-clock.js';
import { borrowedOf, snapshotRow } from './snapshot-row.js';
import { SyncBatcher } from './sync-batcher.js';

/** A booking that can still be returned (RL-W5): the keys and, per key, what it wrote and replaced. */
interface Booking {
  readonly keys: readonly string[];
  readonly pairs: readonly string[];
}

/** The settings of a {@link RedisStore}, validated by the limiter's constructor. */
export interface RedisStoreSettings {
  readonly redis: RedisLike;
  readonly prefix: string;
  readonly hashTag: HashTagMode;
  readonly timeoutMs: number;
  readonly clock: Clock | undefined;
  /** Without `clock`: the local clock the server's TIME is estimated against and timers run on (default: the system's). */
  readonly localClock?: Clock | undefined;
  readonly ttlSlackMs: number;
  readonly pendingDebtTtlMs: number;
  readonly pendingHoldTtlMs: number;
  readonly recordMarkerTtlMs: number;
  readonly recordBufferSize: number;
  readonly recordRetryMs: number;
  readonly onClose: (() => void | Promise<void>) | undefined;
}

const SCAN_COUNT = 1000;
const BATCH = 64;
const OK: SideEffectResult = Object.freeze({ kind: 'ok' });

function malformed(script: string, reply: unknown): RateLimitError {
  return { code: 'internal', message: `unexpected reply from the ${script} script (${Array.isArray(reply) ? 'an array' : typeof reply})` };
}

function unavailable(message: string): ErrorResult {
  return errorResult({ code: 'backend_unavailable', message });
}

/**
 * The Redis store (standalone, Cluster, Valkey): every bucket a key, every admission, booking and
 * multi-bucket check one script call (lua/admit.lua) with the kit's arithmetic in Lua, the server's
 * TIME as the clock (or an injected one). Every call answers within `timeoutMs` or fails closed with
 * `backend_unavailable` (RL-F1). Asynchronous: the kit's front door (`StoreRateLimiter`) wraps it.
 */
export class RedisStore implements LimiterStore {
  readonly capabilities: Capabilities;
  readonly synchronous = false;
  readonly timers: Clock;
  readonly #s: RedisStoreSettings;
  readonly #runner: ScriptRunner;
  readonly #records: RecordSender;
  readonly #syncs: SyncBatcher;
  readonly #fixed: Omit<ScriptSettings, 'now'>;
  readonly #serverSettings: ScriptSettings;
  readonly #epochOffset: number;
  readonly #local: Clock;
  /** Server time minus local time, bounded by every reply's send and receive times (for answers that need no round trip). */
  readonly #serverClock = new ServerClock();

  constructor(settings: RedisStoreSettings) {
    this.#s = settings;
    this.#runner = new ScriptRunner(settings.redis, settings.timeoutMs, REDIS_RATE_LIMITER_LIBRARY, (keys) =>
      settings.redis.cluster && keys.length > 0 ? hashTagOf(keys[0] as string) : '',
    );
    this.#records = new RecordSender((script, keys, args) => this.#run(script, keys, args), RECORD, settings.recordBufferSize, settings.recordRetryMs);
    this.#syncs = new SyncBatcher(
      (keys, args) => this.#run(SYNC, keys, args),
      (key) => (settings.redis.cluster ? hashTagOf(key) : ''),
    );
    this.#fixed = {
      ttlSlackMs: String(settings.ttlSlackMs),
      pendingDebtTtlMs: String(settings.pendingDebtTtlMs),
      pendingHoldTtlMs: String(settings.pendingHoldTtlMs),
      recordMarkerTtlMs: String(settings.recordMarkerTtlMs),
    };
    this.#serverSettings = { now: '', ...this.#fixed };
    this.#epochOffset = settings.clock === undefined ? SCRIPT_EPOCH_MS : 0;
    this.#local = settings.localClock ?? systemClock;
    this.timers = settings.clock ?? this.#local;
    this.capabilities = Object.freeze({
      distributed: true,
      injectableClock: settings.clock !== undefined,
      bookings: true,
      abortSignal: true,
      fractionalCosts: true,
      snapshot: true,
      sync: true,
      penalize: true,
      // on Cluster a call's buckets must share a hash tag: only one slot for everything spans venues
      crossVenueChecks: !settings.redis.cluster || settings.hashTag === 'prefix',
      windowLimits: true,
      windowSlots: WINDOW_SLOTS,
      priorities: true,
    });
  }

  now(): number {
    const clock = this.#s.clock;
    if (clock !== undefined) return clock.now();
    const local = this.#local.now();
    return local + this.#serverClock.offset(local);
  }

  /** What `record` has buffered, flushed and dropped so far (RL-R1). */
  recordStats(): RecordStats {
    return this.#records.stats();
  }

  // ---------------------------------------------------------------- admission

  admit(
    n: number,
    keys: readonly ResolvedKey[],
    defs: readonly Definition[],
    costs: readonly number[],
    mode: AdmitMode,
    budgetMs: number | undefined,
    cls = 1,
    free: number | readonly number[] = 0,
  ): Promise<Admission> {
    const names = this.#callNames(n, keys);
    if (!Array.isArray(names)) return Promise.resolve(names);
    const token = mode === 'book' ? Math.floor(Math.random() * 0x40000000).toString(36) : '';
    const args = admitArgs(this.#settings(), {
      mode,
      budgetMs,
      token,
      n,
      defs,
      costs,
      cls,
      free,
    });
    const sentAt = this.#local.now();
    return this.#run(ADMIT, names, args).then((outcome) => this.#admission(outcome, names, sentAt));
  }

  /** The key names of one call's buckets, or its failure when on Cluster they do not share a hash slot. */
  #callNames(n: number, keys: readonly ResolvedKey[]): string[] | Admission {
    const names: string[] = [];
    let tag: string | undefined;
    for (let i = 0; i < n; i++) {
      const name = this.#keyName(keys[i] as ResolvedKey);
      if (this.#s.redis.cluster) {
        const t = hashTagOf(name);
        if (tag !== undefined && t !== tag) return { status: 'failed', error: this.#crossSlot(), index: i };
        tag = t;
      }
      names.push(name);
    }
    return names;
  }

  #admission(outcome: ScriptOutcome, names: readonly string[], sentAt: number): Admission {
    if (!outcome.ok) return { status: 'failed', error: outcome.error };
    const r = decodeAdmitReply(outcome.reply);
    if (r === undefined) return { status: 'failed', error: malformed('admit', outcome.reply) };
    const e = this.#epochOffset;
    switch (r.kind) {
      case 'now':
        this.#noteServerTime(r.now, sentAt);
        return { status: 'admitted', sendAt: r.now + e, now: r.now + e };
      case 'booked':
        this.#noteServerTime(r.now, sentAt);
        return { status: 'admitted', sendAt: r.sendAt + e, now: r.now + e, booking: { keys: names, pairs: r.pairs } satisfies Booking };
      case 'wait':
        this.#noteServerTime(r.now, sentAt);
        return { status: 'wait', waitMs: r.waitMs };
      case 'unpayable':
        return { status: 'unpayable', index: r.index, reason: r.reason, left: r.left };
    }
  }

  async cancel(booking: unknown): Promise<boolean> {
    const b = booking as Booking;
    const outcome = await this.#run(CANCEL, b.keys, cancelArgs(this.#settings(), b.pairs));
    return outcome.ok && Number(outcome.reply) === b.keys.length;
  }

  // ---------------------------------------------------------------- feedback

  record(key: ResolvedKey, cost: number, def: Definition | undefined): void {
    const name = this.#keyName(key);
    const marker = recordMarkerName(this.#s.prefix, name, this.#records.nextId());
    this.#records.send({ keys: [name, marker], args: recordArgs(this.#settings(), cost, def) });
  }

  dropRecord(): void {
    this.#records.drop();
  }

  async sync(key: ResolvedKey, def: Definition, minBorrowed: number, report: SyncReport): Promise<SideEffectResult> {
    const e = this.#epochOffset;
    const when = {
      sentAtMs: report.sentAtMs === undefined ? undefined : report.sentAtMs - e,
      countedOwnCost: report.countedOwnCost,
      outsideOwnCost: report.outsideOwnCost,
      windowEnd: report.windowEnd === undefined ? undefined : { earliestMs: report.windowEnd.earliestMs - e, latestMs: report.windowEnd.latestMs - e },
    };
    // the syncs of one answer leave together: one call per hash slot (sync-batcher.ts)
    const outcome = await this.#syncs.add(syncHeadArgs(this.#settings()), { key: this.#keyName(key), args: syncBucketArgs(def, minBorrowed, when) });
    return outcome.ok ? OK : errorResult(outcome.error);
  }

  async penalize(key: ResolvedKey, hold: Hold): Promise<SideEffectResult> {
    const args =
      'untilMs' in hold ? penalizeArgs(this.#settings(), hold.untilMs - this.#epochOffset, undefined) : penalizeArgs(this.#settings(), undefined, hold.forMs);
    const outcome = await this.#run(PENALIZE, [this.#keyName(key)], args);
    return outcome.ok ? OK : errorResult(outcome.error);
  }

  // ---------------------------------------------------------------- inspection

  async borrowed(key: ResolvedKey): Promise<number | ErrorResult> {
    const r = await this.#inspect(this.#keyName(key));
    if ('kind' in r) return r;
    return r.state === undefined ? 0 : borrowedOf(r.state, r.now);
  }

  async reset(key: ResolvedKey): Promise<SideEffectResult> {
    const outcome = await this.#run(DELETE, [this.#keyName(key)], []);
    return outcome.ok ? OK : errorResult(outcome.error);
  }

  resetVenue(venue: string): Promise<SideEffectResult> {
    return this.#deleteMatching(venuePattern(this.#s.prefix, this.#s.hashTag, venue));
  }

  resetAll(): Promise<SideEffectResult> {
    return this.#deleteMatching(allPattern(this.#s.prefix));
  }

  async snapshot(): Promise<readonly BucketSnapshot[] | ErrorResult> {
    const keys = await this.#scan(allPattern(this.#s.prefix));
    if (!Array.isArray(keys)) return keys as ErrorResult;
    const out: BucketSnapshot[] = [];
    for (let i = 0; i < keys.length; i += BATCH) {
      const batch = keys.slice(i, i + BATCH);
      const states = await Promise.all(batch.map((key) => this.#inspect(key)));
      for (let j = 0; j < batch.length; j++) {
        const r = states[j];
        if (r === undefined) return unavailable('Redis did not answer every read of the snapshot');
        if ('kind' in r) return r;
        const names = parseBucketKeyName(this.#s.prefix, this.#s.hashTag, batch[j] as string);
        const row = names === undefined ? undefined : snapshotRow(names, r.state, r.now, this.#epochOffset);
        if (row !== undefined) out.push(row);
      }
    }
    return out;
  }

  async close(): Promise<void> {
    this.#records.close();
    if (this.#s.onClose !== undefined) {
      try {
        await this.#s.onClose();
      } catch {
        // closing what the limiter owns is best effort: the limiter itself is closed either way
      }
    }
  }

  /** The key name of a bucket (for tests: RL-K3 storage names). */
  keyName(key: ResolvedKey): string {
    return this.#keyName(key);
  }

  /** The raw stored value of a bucket and the script's now, for the differential test. */
  inspectRaw(keyName: string): Promise<{ readonly raw: string; readonly now: number } | ErrorResult> {
    return this.#run(INSPECT, [keyName], inspectArgs(this.#settings())).then((outcome) => {
      if (!outcome.ok) return errorResult(outcome.error);
      const reply = outcome.reply;
      if (!Array.isArray(reply) || reply.length !== 2) return errorResult(malformed('inspect', reply));
      return { raw: String(reply[0]), now: Number(reply[1]) };
    });
  }

  // ---------------------------------------------------------------- plumbing

  #settings(): ScriptSettings {
    const clock = this.#s.clock;
    return clock === undefined ? this.#serverSettings : { now: String(clock.now()), ...this.#fixed };
  }

  /** A bucket's key name, remembered on the resolved key (it is a pure function of the key's identity). */
  #keyName(key: ResolvedKey): string {
    const memo = key.memo;
    if (typeof memo === 'string') return memo;
    const name = bucketKeyName(this.#s.prefix, this.#s.hashTag, key.venue, key.credentialHash, key.axis);
    key.memo = name;
    return name;
  }

  #crossSlot(): RateLimitError {
    const mode = this.#s.hashTag;
    return {
      code: 'invalid_parameters',
      message: `key: on Redis Cluster one call's buckets must share a hash tag (hashTag: '${mode}'); this bucket's venue${mode === 'venue' ? '' : ' or credential'} differs from the first one's (hashTag: 'prefix' puts every bucket in one slot)`,
      path: 'key',
    };
  }

  async #inspect(keyName: string): Promise<{ state: StoredState | undefined; now: number } | ErrorResult> {
    const sentAt = this.#local.now();
    const r = await this.inspectRaw(keyName);
    if ('kind' in r) return r;
    this.#noteServerTime(r.now, sentAt);
    return { state: r.raw === '' ? undefined : parseStored(r.raw), now: r.now };
  }

  /** SCAN every master (never KEYS) and delete what matches, one key per call (no CROSSSLOT). */
  async #deleteMatching(pattern: string): Promise<SideEffectResult> {
    const scanned = await this.#scan(pattern);
    if (!Array.isArray(scanned)) return scanned as ErrorResult;
    for (let i = 0; i < scanned.length; i += BATCH) {
      const outcomes = await Promise.all(scanned.slice(i, i + BATCH).map((key) => this.#run(DELETE, [key], [])));
      const failed = outcomes.find((o) => !o.ok);
      if (failed !== undefined && !failed.ok) return errorResult(failed.error);
    }
    return OK;
  }

  /** Every key matching `pattern` on every master; each step answers within `timeoutMs` or the scan fails closed. */
  async #scan(pattern: string): Promise<string[] | ErrorResult> {
    const found = new Set<string>();
    const ms = this.#s.timeoutMs;
    try {
      const masters = await withDeadline(this.#s.redis.masters(), ms);
      if (masters === 'timeout') return unavailable(`Redis did not list its masters within ${ms} ms`);
      for (const node of masters) {
        let cursor = '0';
        do {
          const step = await withDeadline(node.scan(cursor, pattern, SCAN_COUNT), ms);
          if (step === 'timeout') return unavailable(`Redis did not answer SCAN within ${ms} ms`);
          cursor = step[0];
          for (const key of step[1]) found.add(key);
        } while (cursor !== '0');
      }
    } catch (error) {
      return unavailable(`Redis could not be scanned (${error instanceof Error ? error.name : typeof error})`);
    }
    return [...found];
  }

  #run(op: Operation, keys: readonly string[], args: readonly string[]): Promise<ScriptOutcome> {
    // (syncs waiting for the end of the tick go first: no call overtakes a sync issued before it)
    if (this.#syncs.pending) this.#syncs.flush();
    const pending = this.#runner.run(op, keys, args);
    if (this.#records.buffered > 0) {
      void pending.then((outcome) => {
        if (outcome.ok && op !== RECORD) this.#records.redisAnswered();
      });
    }
    return pending;
  }

  /** Bounds the server's clock by a reply: its script time was read after `sentAt` and before now (local times). */
  #noteServerTime(scriptNow: number, sentAt: number): void {
    if (this.#s.clock === undefined && Number.isFinite(scriptNow)) this.#serverClock.note(scriptNow + this.#epochOffset, sentAt, this.#local.now());
  }
}
