import type {
  BucketCheck,
  BucketKey,
  Clock,
  Limit,
  NormalizedLimit,
  ProviderAcquireOptions,
  ProviderAcquireResult,
  ProviderCheckOptions,
  ProviderCheckResult,
  ProviderPenaltyResult,
  ProviderRateLimiter,
  RateLimiter,
  RateLimitError,
  TimerHandle,
} from '@core/rate-limit-contract';
import { describeValue } from './describe-value.js';
import { normalizeLimit } from './normalize-limit.js';
import { systemClock } from './system-clock.js';
import { validateSignal, validateWaitBudget } from './validate-number.js';

/** Options of {@link createProviderRateLimiter}. */
export interface ProviderRateLimiterOptions {
  /** The limit of each provider by name. */
  readonly limits?: Readonly<Record<string, Limit>>;
  /** The limit of a provider not in `limits`. Default 10 requests per 1000 ms. */
  readonly defaultLimit?: Limit;
  /** The venue a provider's buckets belong to. Default: the provider name itself. */
  readonly venueOf?: (provider: string) => string;
  /** The bucket axis of the provider's requests. Default `"request"`. */
  readonly axis?: string;
  /** The clock `acquire` waits on; give the bucket-level limiter's clock. Default `systemClock`. */
  readonly clock?: Clock;
}

const DEFAULT_LIMIT: NormalizedLimit = { capacity: 10, refillPerSec: 10 };
const DEFAULT_TIMEOUT_MS = 30_000;

function invalidWeight(weight: unknown): RateLimitError {
  return { code: 'invalid_parameters', message: `weight: must be a finite number >= 0 (got ${describeValue(weight)})`, path: 'weight' };
}

function validWeight(weight: unknown): weight is number {
  return typeof weight === 'number' && Number.isFinite(weight) && weight >= 0;
}

function internal(e: unknown): { kind: 'error'; error: RateLimitError } {
  return { kind: 'error', error: { code: 'internal', message: `unexpected failure (${e instanceof Error ? e.name : typeof e})` } };
}

/**
 * The host-level contract (dp_exchange_core's behaviour, RL-P1..RL-P5) on top of ANY bucket-level
 * {@link RateLimiter}, so a third party that implements the bucket level gets this one too.
 *
 * - `check` peeks and never consumes (RL-P1); an error means "do not proceed" (RL-P2).
 * - `acquire` waits, one timer at a time and re-peeking, until there is room; it does not consume
 *   (RL-P3). A weight above capacity is granted once the bucket has stayed full for
 *   `(weight − capacity) / refill`, the accrual RL-A5 demands.
 * - `record` debits and can never fail (RL-P4); `penalize` holds the provider closed and never
 *   shortens a hold (RL-P5).
 *
 * @param limiter - the bucket-level limiter.
 * @param options - limits per provider, the default limit, the venue mapping and the clock.
 * @throws TypeError when a configured limit is invalid (checked once, at construction).
 * @example
 * ```ts
 * const provider = createProviderRateLimiter(createDefaultRateLimiter(), { limits: { webull: { requests: 5, periodMs: 1000 } } });
 * if ((await provider.acquire('webull', 1, { timeoutMs: 5_000 })).kind === 'ok') { await send(); provider.record('webull', 1); }
 * ```
 */
export function createProviderRateLimiter(limiter: RateLimiter, options: ProviderRateLimiterOptions = {}): ProviderRateLimiter {
  const clock = options.clock ?? systemClock;
  const venueOf = options.venueOf ?? ((provider: string) => provider);
  const axis = options.axis ?? 'request';
  const limits = new Map<string, NormalizedLimit | null>();
  for (const [name, limit] of Object.entries(options.limits ?? {})) {
    const r = normalizeLimit(limit, `limits.${name}`);
    if (!r.ok) throw new TypeError(`createProviderRateLimiter: ${r.error.message}`);
    limits.set(name, r.value);
  }
  let fallback: NormalizedLimit | null = DEFAULT_LIMIT;
  if ('defaultLimit' in options) {
    const r = normalizeLimit(options.defaultLimit, 'defaultLimit');
    if (!r.ok) throw new TypeError(`createProviderRateLimiter: ${r.error.message}`);
    fallback = r.value;
  }

  const limitOf = (provider: string): NormalizedLimit | null => (limits.has(provider) ? (limits.get(provider) ?? null) : fallback);
  const keyOf = (provider: string, opts: ProviderCheckOptions | undefined): BucketKey => ({
    venue: venueOf(provider),
    credential: opts?.credential ?? null,
    axis,
  });
  const checkOf = (provider: string, weight: number, opts: ProviderCheckOptions | undefined): BucketCheck => ({
    key: keyOf(provider, opts),
    limit: limitOf(provider),
    cost: weight,
  });

  async function check(provider: string, weight: number, opts?: ProviderCheckOptions): Promise<ProviderCheckResult> {
    try {
      if (!validWeight(weight)) return { kind: 'error', error: invalidWeight(weight) };
      const d = await limiter.peek([checkOf(provider, weight, opts)]);
      if (d.kind === 'ok') return { kind: 'ok' };
      if (d.kind === 'delay') return { kind: 'rate_limited', retryAfterMs: d.retryAfterMs };
      return { kind: 'error', error: d.error };
    } catch (e) {
      return internal(e);
    }
  }

  async function acquire(provider: string, weight: number, opts?: ProviderAcquireOptions): Promise<ProviderAcquireResult> {
    try {
      if (!validWeight(weight)) return { kind: 'error', error: invalidWeight(weight) };
      const t = opts?.timeoutMs === undefined ? { ok: true as const, value: DEFAULT_TIMEOUT_MS } : validateWaitBudget(opts.timeoutMs, 'timeoutMs');
      if (!t.ok) return { kind: 'error', error: t.error };
      const sg = validateSignal(opts?.signal, 'signal');
      if (!sg.ok) return { kind: 'error', error: sg.error };
      const signal = sg.value;
      const limit = limitOf(provider);
      const over = limit !== null && limit.refillPerSec > 0 && weight > limit.capacity;
      const probe = checkOf(provider, over && limit !== null ? limit.capacity : weight, opts);
      const accrualMs = over && limit !== null ? ((weight - limit.capacity) * 1000) / limit.refillPerSec : 0;
      const started = clock.now();
      const deadline = started + t.value;
      let fullSince: number | undefined;
      for (;;) {
        if (signal?.aborted === true) return { kind: 'error', error: { code: 'aborted', message: 'acquire was aborted' } };
        const d = await limiter.peek([probe]);
        if (d.kind === 'error') return { kind: 'error', error: d.error };
        const now = clock.now();
        let waitMs: number;
        if (d.kind === 'delay') {
          fullSince = undefined;
          waitMs = d.retryAfterMs;
        } else if (!over) {
          return { kind: 'ok' };
        } else {
          fullSince ??= now;
          const left = fullSince + accrualMs - now;
          if (left <= 0) return { kind: 'ok' };
          waitMs = Math.ceil(left);
        }
        if (now + waitMs > deadline) {
          const needed = Math.ceil(now + waitMs - started);
          return {
            kind: 'error',
            error: {
              code: 'rate_limit_timeout',
              message: `${provider}: room for weight ${weight} needs ${needed} ms, more than the timeout of ${t.value} ms`,
              retryAfterMs: Math.max(1, Math.ceil(waitMs)),
            },
          };
        }
        const aborted = await sleep(clock, waitMs, signal);
        if (aborted) return { kind: 'error', error: { code: 'aborted', message: 'acquire was aborted' } };
      }
    } catch (e) {
      return internal(e);
    }
  }

  function record(provider: string, weight: number, opts?: ProviderCheckOptions): void {
    try {
      const limit = limitOf(provider);
      limiter.record(keyOf(provider, opts), weight, limit);
    } catch {
      // RL-P4: record cannot fail; the bucket-level limiter counts what it drops.
    }
  }

  async function penalize(provider: string, retryAfterMs: number, opts?: ProviderCheckOptions): Promise<ProviderPenaltyResult> {
    try {
      if (typeof retryAfterMs !== 'number' || !Number.isFinite(retryAfterMs) || retryAfterMs < 0) {
        return { kind: 'error', error: { code: 'invalid_parameters', message: 'retryAfterMs: must be a finite number >= 0', path: 'retryAfterMs' } };
      }
      // A hold on a bucket not defined yet is kept and folded in at its first definition.
      return await limiter.penalize(keyOf(provider, opts), { forMs: retryAfterMs });
    } catch {
      return { kind: 'error', error: { code: 'internal', message: 'unexpected failure inside the provider adapter' } };
    }
  }

  return { check, acquire, record, penalize };
}

/** Waits `ms` on the clock with one timer; resolves `true` when the signal aborted the wait. */
function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (signal?.aborted === true) {
      resolve(true);
      return;
    }
    let timer: TimerHandle | undefined;
    const onAbort = (): void => {
      timer?.cancel();
      resolve(true);
    };
    timer = clock.setTimer(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve(false);
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
