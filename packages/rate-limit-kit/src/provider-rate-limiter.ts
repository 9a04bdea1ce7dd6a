import type {
  BucketCheck,
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
  TimerHandle,
} from '@core/rate-limit-contract';
import { describeSecret, describeValue } from './describe-value.js';
import { HORIZON_MS } from './gcra.js';
import { formatNumber, internalError, invalidParameters, unpayableError } from './messages.js';
import { MAX_CREDENTIAL_LENGTH, validateVenue } from './normalize-key.js';
import { isWindowLimit, normalizeLimit, type NormalizedShape } from './normalize-limit.js';
import { isAborted } from './read-arguments.js';
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

const DEFAULT_LIMIT: NormalizedShape = { capacity: 10, refillPerSec: 10 };
const DEFAULT_TIMEOUT_MS = 30_000;

interface ProviderCall {
  readonly check: BucketCheck;
  readonly limit: NormalizedShape | null;
  readonly weight: number;
}

interface AcquireArgs {
  readonly timeoutMs: number;
  readonly signal: AbortSignal | undefined;
}

function error(e: RateLimitError): { kind: 'error'; error: RateLimitError } {
  return { kind: 'error', error: e };
}

/** An error of the inner bucket-level call, named by the provider's own arguments (`weight`, not `checks[0].cost`). */
function asProviderError(e: RateLimitError): RateLimitError {
  const inner = /^(checks\[0\](\.cost)?|cost)(?![\w.[])/;
  if (e.path === undefined || !inner.test(e.path)) return e;
  return { ...e, path: e.path.replace(inner, 'weight'), message: e.message.replace(inner, 'weight') };
}

/**
 * The host-level contract (RL-P1..RL-P5) on top of ANY bucket-level {@link RateLimiter}, so a third
 * party that implements the bucket level gets this one too.
 *
 * - `check` peeks and never consumes (RL-P1); an error means "do not proceed" (RL-P2).
 * - `acquire` waits, one timer at a time and re-peeking, until there is room; it does not consume
 *   (RL-P3). A weight above capacity is granted once the bucket has stayed full for
 *   `(weight − capacity) / refill`, the accrual RL-A5 demands.
 * - `record` debits and can never fail (RL-P4); `penalize` holds the provider closed, never shortens a
 *   hold, and answers a typed error when it could not (RL-P5).
 * Every error names the provider's own arguments (`provider`, `weight`, `options.timeoutMs`, …).
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
  const limits = new Map<string, NormalizedShape | null>();
  for (const [name, limit] of Object.entries(options.limits ?? {})) {
    const r = normalizeLimit(limit, `limits.${name}`);
    if (!r.ok) throw new TypeError(`createProviderRateLimiter: ${r.error.message}`);
    limits.set(name, r.value);
  }
  let fallback: NormalizedShape | null = DEFAULT_LIMIT;
  if ('defaultLimit' in options) {
    const r = normalizeLimit(options.defaultLimit, 'defaultLimit');
    if (!r.ok) throw new TypeError(`createProviderRateLimiter: ${r.error.message}`);
    fallback = r.value;
  }

  /** Reads and validates the provider's own arguments; errors name them. */
  function read(provider: unknown, weight: unknown, opts: unknown): ProviderCall | RateLimitError {
    if (typeof provider !== 'string') return invalidParameters('provider', `must be a non-empty string (got ${describeValue(provider)})`);
    let venue: unknown;
    try {
      venue = venueOf(provider);
    } catch {
      return invalidParameters('provider', 'could not be mapped to a venue (venueOf threw)');
    }
    const v = validateVenue(venue, 'provider');
    if (!v.ok) return v.error;
    if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
      return invalidParameters('weight', `must be a finite number >= 0 (got ${describeValue(weight)})`);
    }
    let credential: unknown = null;
    if (opts !== undefined) {
      if (typeof opts !== 'object' || opts === null) return invalidParameters('options', `must be an object or undefined (got ${describeValue(opts)})`);
      try {
        credential = (opts as { credential?: unknown }).credential ?? null;
      } catch {
        return invalidParameters('options', 'could not be read (a getter or proxy threw)');
      }
    }
    if (credential !== null && (typeof credential !== 'string' || credential.length === 0 || credential.length > MAX_CREDENTIAL_LENGTH)) {
      return invalidParameters(
        'options.credential',
        `must be a non-empty string of at most ${MAX_CREDENTIAL_LENGTH} characters, or null (got ${describeSecret(credential)})`,
      );
    }
    const limit = limits.has(provider) ? (limits.get(provider) ?? null) : fallback;
    const key: BucketKey = { venue: v.value, credential: credential as string | null, axis };
    return { check: { key, limit, cost: weight }, limit, weight };
  }

  function readAcquire(opts: unknown): AcquireArgs | RateLimitError {
    if (opts === undefined) return { timeoutMs: DEFAULT_TIMEOUT_MS, signal: undefined };
    let timeoutMs: unknown;
    let signal: unknown;
    try {
      ({ timeoutMs, signal } = opts as { timeoutMs?: unknown; signal?: unknown });
    } catch {
      return invalidParameters('options', 'could not be read (a getter or proxy threw)');
    }
    const t = timeoutMs === undefined ? { ok: true as const, value: DEFAULT_TIMEOUT_MS } : validateWaitBudget(timeoutMs, 'options.timeoutMs');
    if (!t.ok) return t.error;
    const s = validateSignal(signal, 'options.signal');
    if (!s.ok) return s.error;
    return { timeoutMs: t.value, signal: s.value };
  }

  async function check(provider: string, weight: number, opts?: ProviderCheckOptions): Promise<ProviderCheckResult> {
    try {
      const call = read(provider, weight, opts);
      if ('code' in call) return error(call);
      const d = await limiter.peek([call.check]);
      if (d.kind === 'ok') return { kind: 'ok' };
      if (d.kind === 'delay') return { kind: 'rate_limited', retryAfterMs: d.retryAfterMs };
      return error(asProviderError(d.error));
    } catch (e) {
      return error(internalError(e));
    }
  }

  async function acquire(provider: string, weight: number, opts?: ProviderAcquireOptions): Promise<ProviderAcquireResult> {
    try {
      const call = read(provider, weight, opts);
      if ('code' in call) return error(call);
      const a = readAcquire(opts);
      if ('code' in a) return error(a);
      // a token bucket grants a weight above its capacity once it has stayed full long enough (RL-A5); a
      // window limit never holds more than its window (RL-V3: the limiter answers cost_unpayable)
      const limit = call.limit === null || isWindowLimit(call.limit) ? null : call.limit;
      const over = limit !== null && limit.refillPerSec > 0 && weight > limit.capacity;
      const probe: BucketCheck = over && limit !== null ? { ...call.check, cost: limit.capacity } : call.check;
      const accrualMs = over && limit !== null ? ((weight - limit.capacity) * 1000) / limit.refillPerSec : 0;
      if (!(accrualMs <= HORIZON_MS) && limit !== null) {
        const bucket = { venue: call.check.key.venue, axis, credentialHash: null, id: '', memo: undefined };
        return error(unpayableError('weight', bucket, weight, limit.capacity, limit.refillPerSec, 'horizon', 0));
      }
      const started = clock.now();
      const deadline = started + a.timeoutMs;
      let fullSince: number | undefined;
      for (;;) {
        if (isAborted(a.signal)) return error({ code: 'aborted', message: 'acquire was aborted' });
        const d = await limiter.peek([probe]);
        if (d.kind === 'error') return error(asProviderError(d.error));
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
          return error({
            code: 'rate_limit_timeout',
            message: `${provider}: room for weight ${formatNumber(weight)} needs ${needed} ms, more than options.timeoutMs (${formatNumber(a.timeoutMs)} ms)`,
            retryAfterMs: Math.max(1, Math.ceil(waitMs)),
          });
        }
        if (await sleep(clock, waitMs, a.signal)) return error({ code: 'aborted', message: 'acquire was aborted' });
      }
    } catch (e) {
      return error(internalError(e));
    }
  }

  function record(provider: string, weight: number, opts?: ProviderCheckOptions): void {
    try {
      const call = read(provider, weight, opts);
      if ('code' in call) return; // RL-P4: cannot fail; nothing sensible to debit
      limiter.record(call.check.key, weight, call.limit);
    } catch {
      // RL-P4: record cannot fail; the bucket-level limiter counts what it drops.
    }
  }

  async function penalize(provider: string, retryAfterMs: number, opts?: ProviderCheckOptions): Promise<ProviderPenaltyResult> {
    try {
      const call = read(provider, 0, opts);
      if ('code' in call) return error(call);
      if (typeof retryAfterMs !== 'number' || !Number.isFinite(retryAfterMs) || retryAfterMs < 0) {
        return error(invalidParameters('retryAfterMs', `must be a finite number >= 0 (got ${describeValue(retryAfterMs)})`));
      }
      // A hold on a bucket not defined yet is kept and folded in at its first definition.
      const r = await limiter.penalize(call.check.key, { forMs: retryAfterMs });
      return r.kind === 'ok' ? r : error(asProviderError(r.error));
    } catch (e) {
      return error(internalError(e));
    }
  }

  return { check, acquire, record, penalize };
}

/** Waits `ms` on the clock with one timer; resolves `true` when the signal aborted the wait. */
function sleep(clock: Clock, ms: number, signal: AbortSignal | undefined): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (isAborted(signal)) {
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
