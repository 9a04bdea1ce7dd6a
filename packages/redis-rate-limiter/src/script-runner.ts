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

/**
 * Runs a script on the node owning `keys[0]`, in one round trip when the script is cached there:
 * EVALSHA, and on NOSCRIPT (a restarted server, SCRIPT FLUSH, a failover) EVAL once, which caches it
 * again. With `sendSource` it sends EVAL at once (a first use: keeps the order of pipelined calls). Answers within `timeoutMs` of real time or gives `backend_unavailable` (RL-F1): a late
 * reply is ignored, never taken for capacity.
 *
 * @example
 * ```ts
 * const r = await runScript(redis, admit, [key], args, 250);
 * if (!r.ok) return { kind: 'error', error: r.error };
 * ```
 */
export function runScript(
  redis: RedisLike,
  script: Script,
  keys: readonly string[],
  args: readonly string[],
  timeoutMs: number,
  sendSource = false,
): Promise<ScriptOutcome> {
  return new Promise<ScriptOutcome>((resolve) => {
    let done = false;
    const finish = (outcome: ScriptOutcome): void => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const timer = setTimeout(() => {
      finish({
        ok: false,
        error: { code: 'backend_unavailable', message: `Redis did not answer within ${timeoutMs} ms (${script.name})` },
      });
    }, timeoutMs);
    timer.unref();
    const call = async (): Promise<unknown> => {
      if (sendSource) return redis.eval(script.source, keys, args);
      try {
        return await redis.evalsha(script.sha, keys, args);
      } catch (error) {
        if (!isNoScript(error) || done) throw error;
        return redis.eval(script.source, keys, args);
      }
    };
    let pending: Promise<unknown>;
    try {
      pending = call();
    } catch (error) {
      finish({ ok: false, error: describeFailure(error) });
      return;
    }
    pending.then(
      (reply) => finish({ ok: true, reply }),
      (error: unknown) => finish({ ok: false, error: describeFailure(error) }),
    );
  });
}
