import { createHash } from 'node:crypto';
import type { RateLimitError } from '@core/rate-limit-contract';
import type { RedisLike } from './redis-like.js';

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

function isNoScript(error: unknown): boolean {
  const message = error instanceof Error ? error.message : String(error);
  return message.includes('NOSCRIPT');
}

function describeFailure(error: unknown): RateLimitError {
  const message = error instanceof Error ? error.message : String(error);
  if (/^ERR .*(script|user_script)/i.test(message) || /^(WRONGTYPE|ERR Error running)/.test(message)) {
    return { code: 'internal', message: `Redis refused the limiter's script: ${message}` };
  }
  return { code: 'backend_unavailable', message: `Redis could not be reached: ${message}` };
}

interface InFlight {
  readonly deadline: number;
  readonly script: Script;
  /** Dropped once settled, so a settled call keeps nothing alive while it waits in the queue. */
  resolve: ((outcome: ScriptOutcome) => void) | undefined;
  done: boolean;
}

/**
 * Runs scripts on the node owning `keys[0]`, in one round trip when the script is cached there:
 * EVALSHA, and on NOSCRIPT (a restarted server, SCRIPT FLUSH, a failover) EVAL once, which caches it
 * again; with `sendSource`, EVAL at once (a first use: keeps the order of pipelined calls). Every
 * call answers within `timeoutMs` of real time or gives `backend_unavailable` (RL-F1): a late reply
 * is ignored, never taken for capacity.
 *
 * Every call has the same timeout, so deadlines fall due in call order: one queue and one timer
 * serve all calls in flight (no timer per call).
 *
 * @example
 * ```ts
 * const runner = new ScriptRunner(redis, 250);
 * const r = await runner.run(admit, [key], args);
 * if (!r.ok) return { kind: 'error', error: r.error };
 * ```
 */
export class ScriptRunner {
  readonly #redis: RedisLike;
  readonly #timeoutMs: number;
  #queue: InFlight[] = [];
  #head = 0;
  #timer: ReturnType<typeof setTimeout> | undefined;

  constructor(redis: RedisLike, timeoutMs: number) {
    this.#redis = redis;
    this.#timeoutMs = timeoutMs;
  }

  run(script: Script, keys: readonly string[], args: readonly string[], sendSource = false): Promise<ScriptOutcome> {
    return new Promise<ScriptOutcome>((resolve) => {
      const entry: InFlight = { deadline: performance.now() + this.#timeoutMs, script, resolve, done: false };
      this.#queue.push(entry);
      if (this.#timer === undefined) this.#arm(this.#timeoutMs);
      const redis = this.#redis;
      let pending: Promise<unknown>;
      try {
        pending = sendSource
          ? redis.eval(script.source, keys, args)
          : redis.evalsha(script.sha, keys, args).catch((error: unknown) => {
              if (!isNoScript(error) || entry.done) throw error;
              return redis.eval(script.source, keys, args);
            });
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
          error: { code: 'backend_unavailable', message: `Redis did not answer within ${this.#timeoutMs} ms (${entry.script.name})` },
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
