import type {
  BucketKey,
  Clock,
  Limit,
  ProviderAcquireOptions,
  ProviderAcquireResult,
  ProviderCheckOptions,
  ProviderCheckResult,
  ProviderPenaltyResult,
  ProviderRateLimiter,
  RateLimiter,
  RateLimitError,
} from '@core/rate-limit-contract';
import { guard, type Read, type Refused } from './validate.js';

interface ProviderCall {
  readonly key: BucketKey;
  readonly limit: Limit;
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

type ProviderError = { readonly kind: 'error'; readonly error: RateLimitError };

function refused(r: Refused): ProviderError {
  return { kind: 'error', error: { code: 'invalid_parameters', message: r.why, path: r.path } };
}

function bad(path: string, why: string): Refused {
  return { ok: false, why: `${path} ${why}`, path, unreadable: false };
}

/**
 * An error of the bucket-level call, restated in the provider's own terms: the inner call's paths
 * (`checks[0]…`) mean nothing to a caller of `check(provider, weight)`.
 */
function restated(provider: string, e: RateLimitError): ProviderError {
  const reason = e.message.replace(/^checks\[\d+\](?:\.[\w.]+)?(?: \([^)]*\))?:? ?/, '');
  const error: RateLimitError = { code: e.code, message: `${provider}: ${reason}` };
  if (e.retryAfterMs !== undefined) return { kind: 'error', error: { ...error, retryAfterMs: e.retryAfterMs } };
  return { kind: 'error', error: e.code === 'cost_unpayable' ? { ...error, path: 'weight' } : error };
}

/**
 * The host contract over any bucket-level limiter, plainly: one bucket per provider and credential,
 * `check` and `acquire` peek (they never consume), `record` records, `penalize` penalizes. Its
 * errors name its own arguments (`provider`, `weight`, `options.timeoutMs`…), and it refuses `null`
 * options like the limiter does.
 */
export function createFakeProvider(limiter: RateLimiter, clock: Clock, limits: Readonly<Record<string, Limit>>): ProviderRateLimiter {
  const read = (provider: unknown, weight: unknown, weightPath: string, options: unknown): Read<ProviderCall> =>
    guard('options', () => {
      if (typeof provider !== 'string' || !Object.hasOwn(limits, provider)) return bad('provider', 'must be the name of a configured provider');
      if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) return bad(weightPath, 'must be a finite number >= 0');
      if (options !== undefined && (typeof options !== 'object' || options === null)) return bad('options', 'must be an object when given');
      const o = (options ?? {}) as Record<string, unknown>;
      const credential = o['credential'];
      if (credential !== undefined && credential !== null && (typeof credential !== 'string' || credential.length === 0)) {
        return bad('options.credential', 'must be null or a non-empty string');
      }
      const timeoutMs = o['timeoutMs'] ?? 30_000;
      if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) return bad('options.timeoutMs', 'must be a finite number > 0');
      const signal = o['signal'];
      if (signal !== undefined && !(signal instanceof AbortSignal)) return bad('options.signal', 'must be an AbortSignal');
      const key: BucketKey = { venue: provider, credential: typeof credential === 'string' ? credential : null, axis: 'request' };
      return { ok: true, value: { key, limit: limits[provider] ?? null, timeoutMs, signal } };
    });

  const peek = async (provider: string, weight: number, call: ProviderCall): Promise<ProviderCheckResult> => {
    const d = await limiter.peek([{ key: call.key, limit: call.limit, cost: weight }]);
    if (d.kind === 'ok') return { kind: 'ok' };
    if (d.kind === 'delay') return { kind: 'rate_limited', retryAfterMs: d.retryAfterMs };
    return restated(provider, d.error);
  };

  return {
    async check(provider: string, weight: number, options?: ProviderCheckOptions): Promise<ProviderCheckResult> {
      const call = read(provider, weight, 'weight', options);
      if (!call.ok) return refused(call);
      return peek(provider, weight, call.value);
    },
    async acquire(provider: string, weight: number, options?: ProviderAcquireOptions): Promise<ProviderAcquireResult> {
      const call = read(provider, weight, 'weight', options);
      if (!call.ok) return refused(call);
      const { timeoutMs, signal } = call.value;
      const started = clock.now();
      for (;;) {
        const room = await peek(provider, weight, call.value);
        if (room.kind !== 'rate_limited') return room;
        const waited = clock.now() - started;
        if (waited + room.retryAfterMs > timeoutMs) {
          return {
            kind: 'error',
            error: {
              code: 'rate_limit_timeout',
              message: `${provider}: room for weight ${weight} needs ${room.retryAfterMs} ms more than options.timeoutMs allows`,
              retryAfterMs: room.retryAfterMs,
            },
          };
        }
        const aborted = await new Promise<boolean>((resolve) => {
          if (signal?.aborted) return resolve(true);
          const onAbort = (): void => {
            timer.cancel();
            resolve(true);
          };
          const timer = clock.setTimer(() => {
            signal?.removeEventListener('abort', onAbort);
            resolve(false);
          }, room.retryAfterMs);
          signal?.addEventListener('abort', onAbort, { once: true });
        });
        if (aborted) return { kind: 'error', error: { code: 'aborted', message: `${provider}: acquire was aborted (options.signal)` } };
      }
    },
    record(provider: string, weight: number, options?: ProviderCheckOptions): void {
      const call = read(provider, weight, 'weight', options);
      if (call.ok) limiter.record(call.value.key, weight, call.value.limit);
    },
    async penalize(provider: string, retryAfterMs: number, options?: ProviderCheckOptions): Promise<ProviderPenaltyResult> {
      const call = read(provider, retryAfterMs, 'retryAfterMs', options);
      if (!call.ok) return refused(call);
      const r = await limiter.penalize(call.value.key, { forMs: retryAfterMs });
      return r.kind === 'ok' ? r : restated(provider, r.error);
    },
  };
}
