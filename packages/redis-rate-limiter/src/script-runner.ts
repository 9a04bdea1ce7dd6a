import { createHash } from 'node:crypto';
import type { RateLimitError } from '@core/rate-limit-contract';
import { withDeadline } from './deadline.js';
import type { RedisLike } from './redis-like.js';
import type { Library, Operation } from './scripts.js';

/** A script with its SHA-1, run with EVALSHA and loaded (EVAL) on NOSCRIPT. */
export interface Script {
  readonly name: string;
  readonly source: string;
  readonly sha: string;
}

/** Prepares a script: computes the SHA-1 that EVALSHA names it by. */
export function defineScript(name: string, source: string): Script {
  return { name, source, sha: createHash('sha1').update(source, 'utf8').digest('hex') };
}

/** The outcome of one script call: the reply, or a typed error. Never thrown. */
export type ScriptOutcome = { readonly ok: true; readonly reply: unknown } | { readonly ok: false; readonly error: RateLimitError };

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isNoScript(error: unknown): boolean {
  return messageOf(error).includes('NOSCRIPT');
}

/** FCALL of a function the server does not have (FUNCTION FLUSH, a restart, a new master): load, retry once. */
function isFunctionMissing(error: unknown): boolean {
  const message = messageOf(error);
  return /^ERR (Function|Library)\b.*\bnot found/i.test(message);
}

/** A server without Functions (before Redis 7): the limiter runs scripts there. */
function isUnknownCommand(error: unknown): boolean {
  return /^ERR unknown (command|subcommand)/i.test(messageOf(error));
}

function describeFailure(error: unknown): RateLimitError {
  const message = messageOf(error);
  if (/^ERR .*(script|user_script|function|user_function)/i.test(message) || /^(WRONGTYPE|ERR Error running)/.test(message)) {
    return { code: 'internal', message: `Redis refused the limiter's script: ${message}` };
  }
  return { code: 'backend_unavailable', message: `Redis could not be reached: ${message}` };
}

/** Where the library stands: loaded on every master, loading, not loaded yet, or not used (scripts instead). */
type LibraryState = 'loaded' | 'scripts' | Promise<void> | undefined;

interface InFlight {
  readonly deadline: number;
  readonly op: Operation;
  /** Dropped once settled, so a settled call keeps nothing alive while it waits in the queue. */
  resolve: ((outcome: ScriptOutcome) => void) | undefined;
  done: boolean;
}

/**
 * Runs the library's operations on the node owning `keys[0]`, in one round trip. With Redis 7 Functions
 * (a {@link RedisLike} with `fcall`), the library is loaded once per master (FUNCTION LOAD REPLACE, on
 * first use; calls made meanwhile wait for it, in order) and each call is one FCALL; when a server answers
 * that the function is missing (FUNCTION FLUSH, a restart, a failover to an empty node, a new master), the
 * library is loaded again on every master and the call retried once. Without Functions (no `fcall`, or a
 * server before Redis 7), each operation is a script: EVALSHA, and on NOSCRIPT EVAL once, which caches it
 * again; EVAL at once on its first use on a node (keeps the order of pipelined calls). Every call
 * answers within `timeoutMs` of real time or gives `backend_unavailable` (RL-F1): a late reply is
 * ignored, never taken for capacity.
 *
 * Every call has the same timeout, so deadlines fall due in call order: one queue and one timer
 * serve all calls in flight (no timer per call).
 *
 * @example
 * ```ts
 * const runner = new ScriptRunner(redis, 250, REDIS_RATE_LIMITER_LIBRARY);
 * const r = await runner.run(ADMIT, [key], args);
 * if (!r.ok) return { kind: 'error', error: r.error };
 * ```
 */
export class ScriptRunner {
  readonly #redis: RedisLike;
  readonly #timeoutMs: number;
  readonly #library: Library;
  #state: LibraryState;
  /** Counts the loads done, so a call that finds its function missing after a newer load retries at once. */
  #loads = 0;
  /** Which node a call's keys are on (its hash tag on Cluster), for the first use of a script there. */
  readonly #nodeOf: (keys: readonly string[]) => string;
  /** Without Functions: script and node pairs already run once (so the script is cached on that node). */
  readonly #cached = new Set<string>();
  #queue: InFlight[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(redis: RedisLike, timeoutMs: number, library: Library, nodeOf: (keys: readonly string[]) => string = () => '') {
    this.#redis = redis;
    this.#nodeOf = nodeOf;
    this.#timeoutMs = timeoutMs;
    this.#library = library;
    this.#state = typeof redis.fcall === 'function' ? undefined : 'scripts';
  }

  run(op: Operation, keys: readonly string[], args: readonly string[]): Promise<ScriptOutcome> {
    return new Promise<ScriptOutcome>((resolve) => {
      const entry: InFlight = { deadline: performance.now() + this.#timeoutMs, op, resolve, done: false };
      this.#queue.push(entry);
      if (this.#timer === undefined) this.#arm(this.#timeoutMs);
      let pending: Promise<unknown>;
      try {
        const state = this.#state;
        if (state === 'loaded') pending = this.#call(entry, keys, args);
        else if (state === 'scripts') pending = this.#firstUse(entry, keys, args);
        else pending = this.#load().then(() => (this.#state === 'scripts' ? this.#script(entry, keys, args, true) : this.#call(entry, keys, args)));
      } catch (error) {
        this.#finish(entry, { ok: false, error: describeFailure(error) });
        return;
      }
      pending.then(
        (reply) => this.#finish(entry, { ok: true, reply }),
        (error: unknown) => this.#finish(entry, { ok: false, error: describeFailure(error) }),
      );
    });
  }

  /** FCALL; on a missing function, the library loaded again (unless a newer load already did) and one retry. */
  #call(entry: InFlight, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const redis = this.#redis as RedisLike & Required<Pick<RedisLike, 'fcall'>>;
    const loads = this.#loads;
    return redis.fcall(entry.op.fn, keys, args).catch((error: unknown) => {
      if (!isFunctionMissing(error) || entry.done) throw error;
      if (this.#state === 'loaded' && this.#loads === loads) this.#state = undefined;
      const again = this.#state === 'loaded' ? Promise.resolve() : this.#load();
      return again.then(() => (this.#state === 'scripts' ? this.#script(entry, keys, args, true) : redis.fcall(entry.op.fn, keys, args)));
    });
  }

  /**
   * Without Functions, the first call of a script on a node goes as EVAL, which caches it: a NOSCRIPT retry
   * would put that call behind commands sent after it (a record landing after the next admission).
   */
  #firstUse(entry: InFlight, keys: readonly string[], args: readonly string[]): Promise<unknown> {
    const seen = `${entry.op.name}${this.#nodeOf(keys)}`;
    if (this.#cached.has(seen)) return this.#script(entry, keys, args, false);
    if (this.#cached.size >= 10_000) this.#cached.clear();
    this.#cached.add(seen);
    return this.#script(entry, keys, args, true).catch((error: unknown) => {
      this.#cached.delete(seen);
      throw error;
    });
  }

  #script(entry: InFlight, keys: readonly string[], args: readonly string[], sendSource: boolean): Promise<unknown> {
    const redis = this.#redis;
    const script = entry.op.script;
    if (sendSource) return redis.eval(script.source, keys, args);
    return redis.evalsha(script.sha, keys, args).catch((error: unknown) => {
      if (!isNoScript(error) || entry.done) throw error;
      return redis.eval(script.source, keys, args);
    });
  }

  /** Loads the library on every master, once at a time; a server without Functions turns the runner to scripts. */
  #load(): Promise<void> {
    const state = this.#state;
    if (state instanceof Promise) return state;
    const ms = this.#timeoutMs;
    const loading = (async () => {
      const masters = await withDeadline(this.#redis.masters(), ms);
      if (masters === 'timeout') throw new Error(`Redis did not list its masters within ${ms} ms`);
      if (masters.some((node) => typeof node.functionLoad !== 'function')) return 'scripts' as const;
      const code = this.#library.code;
      const loaded = await withDeadline(Promise.all(masters.map((node) => node.functionLoad?.(code))), ms);
      if (loaded === 'timeout') throw new Error(`Redis did not load the limiter's library within ${ms} ms`);
      return 'loaded' as const;
    })().then(
      (outcome) => {
        this.#state = outcome;
        if (outcome === 'loaded') this.#loads++;
      },
      (error: unknown) => {
        if (isUnknownCommand(error)) {
          this.#state = 'scripts';
          return;
        }
        this.#state = undefined;
        throw error;
      },
    );
    this.#state = loading;
    return loading;
  }

  #finish(entry: InFlight, outcome: ScriptOutcome): void {
    if (entry.done) return;
    entry.done = true;
    const resolve = entry.resolve;
    entry.resolve = undefined;
    // replies mostly come in call order: settled calls leave the front of the queue at once
    const queue = this.#queue;
    while (this.#head < queue.length && (queue[this.#head] as InFlight).done) this.#head++;
    if (this.#head === queue.length) {
      this.#queue = [];
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > queue.length) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
    resolve?.(outcome);
  }

  #arm(ms: number): void {
    this.#timer = setTimeout(() => this.#expire(), Math.max(1, Math.ceil(ms)));
    this.#timer.unref();
  }

  /** Times out every call whose deadline passed; re-arms for the oldest call still in flight. */
  #expire(): void {
    this.#timer = undefined;
    const now = performance.now();
    const queue = this.#queue;
    while (this.#head < queue.length) {
      const entry = queue[this.#head] as InFlight;
      if (!entry.done && entry.deadline > now) break;
      this.#head++;
      if (!entry.done) {
        this.#finish(entry, {
          ok: false,
          error: { code: 'backend_unavailable', message: `Redis did not answer within ${this.#timeoutMs} ms (${entry.op.name})` },
        });
      }
    }
    if (this.#head === queue.length) {
      this.#queue = [];
      this.#head = 0;
      return;
    }
    if (this.#head > 1024) {
      this.#queue = queue.slice(this.#head);
      this.#head = 0;
    }
    this.#arm((this.#queue[this.#head] as InFlight).deadline - now);
  }
}
