import type {
  BucketKey,
  Clock,
  Limit,
  ProviderAcquireOptions,
  ProviderAcquireResult,
  ProviderCheckOptions,
  ProviderCheckResult,
  ProviderRateLimiter,
  RateLimiter,
} from '@core/rate-limit-contract';

/**
 * The host contract over any bucket-level limiter, plainly: one bucket per provider and credential,
 * `check` and `acquire` peek (they never consume), `record` records, `penalize` penalizes.
 */
export function createFakeProvider(limiter: RateLimiter, clock: Clock, limits: Readonly<Record<string, Limit>>): ProviderRateLimiter {
  const keyOf = (provider: string, options?: ProviderCheckOptions): BucketKey => ({
    venue: provider,
    credential: options?.credential ?? null,
    axis: 'request',
  });
  const check = async (provider: string, weight: number, options?: ProviderCheckOptions): Promise<ProviderCheckResult> => {
    if (!Object.hasOwn(limits, provider)) return { kind: 'error', error: { code: 'invalid_parameters', message: `unknown provider ${provider}` } };
    const d = await limiter.peek([{ key: keyOf(provider, options), limit: limits[provider], cost: weight }]);
    if (d.kind === 'ok') return { kind: 'ok' };
    if (d.kind === 'delay') return { kind: 'rate_limited', retryAfterMs: d.retryAfterMs };
    return d;
  };
  return {
    check,
    async acquire(provider: string, weight: number, options?: ProviderAcquireOptions): Promise<ProviderAcquireResult> {
      const timeoutMs = options?.timeoutMs ?? 30_000;
      const started = clock.now();
      for (;;) {
        const room = await check(provider, weight, options);
        if (room.kind !== 'rate_limited') return room;
        const waited = clock.now() - started;
        if (waited + room.retryAfterMs > timeoutMs) {
          return { kind: 'error', error: { code: 'rate_limit_timeout', message: `needs ${room.retryAfterMs} ms more than the ${timeoutMs} ms timeout allows`, retryAfterMs: room.retryAfterMs } };
        }
        const aborted = await new Promise<boolean>((resolve) => {
          const signal = options?.signal;
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
        if (aborted) return { kind: 'error', error: { code: 'aborted', message: 'acquire was aborted' } };
      }
    },
    record(provider: string, weight: number, options?: ProviderCheckOptions): void {
      if (!Object.hasOwn(limits, provider)) return;
      limiter.record(keyOf(provider, options), weight, limits[provider]);
    },
    async penalize(provider: string, retryAfterMs: number, options?: ProviderCheckOptions): Promise<void> {
      await limiter.penalize(keyOf(provider, options), { forMs: retryAfterMs });
    },
  };
}
