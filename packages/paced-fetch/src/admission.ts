import type { BucketCheck, Clock, Decision, RateLimiter } from '@core/rate-limit-contract';
import { bucketKeyId as ownKey } from '@core/exchange-specs';
import { ledgerOf, type HeldCharge } from './in-flight-ledger.js';
import { waitUntilClear } from './overtaken.js';
import { PacedFetchError } from './paced-fetch-error.js';
import type { Classed } from './paced-fetch-options.js';
import { abortReason, sleep } from './sleep.js';
import { createTurns } from './turns.js';

/** Unbooked sleeps for the own buckets before a request books (see `waitUnbookedForOwnBuckets`). */
const UNBOOKED_SLEEPS = 3;
/** A wait for capacity longer than this (ms, this process's clock) waited for a booking, not for a store's answer. */
const WAITED_MS = 5;
/** How long a request keeps its turn to join the shared queue after asking to book, ms of real time. */
const JOIN_HOLD_MS = 20;

function realDelay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** What a paced fetch's admissions share: its limiter and clock, its wait budget, and how it joins shared buckets. */
export interface AdmissionSetting {
  readonly limiter: RateLimiter;
  readonly clock: Clock;
  readonly maxWaitMs: number;
  readonly waitUnbookedForOwnBuckets: boolean;
}

/** One attempt to admit: its checks, its deferred charges to hold in flight, its class, when it started, its signal. */
export interface AdmissionAttempt {
  /** The venue, method and path, for error messages. */
  readonly what: string;
  readonly checks: readonly BucketCheck[];
  readonly held: readonly HeldCharge[];
  /** Where the release of the held charges goes (the caller releases them once the answer is settled). */
  readonly hold: { release?: () => void };
  readonly cls: Classed;
  readonly started: number;
  readonly signal: AbortSignal | undefined;
}

/**
 * The admissions of one paced fetch: each attempt is admitted (a probe first where it is charged on its own and shared
 * buckets, else a booking), waited for until its send time, and checked again when it waited; resolves to its send
 * time in the limiter's clock. Rejects unsent with a {@link PacedFetchError} (a wait beyond the budget, a store that
 * cannot be reached) or the signal's reason.
 */
export function createAdmission(setting: AdmissionSetting): (attempt: AdmissionAttempt) => Promise<number> {
  const { limiter, clock, maxWaitMs, waitUnbookedForOwnBuckets } = setting;
  const ledger = ledgerOf(limiter);
  /**
   * Sleeps once, booking nothing, until the request's own-credential buckets would admit it (a dry
   * run with `peek`), as long as the budget allows; the admission itself comes after, with
   * `waitForCapacity`, so this only decides when to join the shared buckets' queue.
   */
  const waitForOwnBuckets = async (checks: readonly BucketCheck[], deadline: number, signal: AbortSignal | undefined, cls: Classed): Promise<void> => {
    const own = checks.filter((c) => c.key.credential !== null);
    if (own.length === 0 || own.length === checks.length) return;
    const shared = checks.filter((c) => c.key.credential === null);
    // Join the shared buckets' queue just in time: sleep, booking nothing, until the own buckets'
    // wait is no longer than the shared buckets' queue, then book (the booking then lands where the
    // shared queue would put it anyway, holding them no longer, and the own buckets lose no refill).
    // A few sleeps at most (another worker of the credential may take its buckets meanwhile): after
    // them the request books whatever it finds, so a heavy request is never starved by cheaper ones
    // of the same credential that keep taking its own buckets (RL-W2).
    for (let round = 0; round < UNBOOKED_SLEEPS; round++) {
      const p = await limiter.peek(own, cls);
      if (p.kind !== 'delay') return;
      const q = await limiter.peek(shared, cls);
      const queued = q.kind === 'delay' ? q.retryAfterMs : 0;
      if (q.kind === 'error' || p.retryAfterMs <= queued) return;
      const nap = p.retryAfterMs - queued;
      if (nap > deadline - clock.now()) return;
      await sleep(clock, nap, signal);
    }
  };

  const turns = createTurns();
  /** Waits for this request's turn among those of this fetch with the same own buckets; resolves to the release. */
  const joinTurn = (checks: readonly BucketCheck[], signal: AbortSignal | undefined): Promise<() => void> =>
    turns.join(
      checks
        .filter((c) => c.key.credential !== null)
        .map((c) => ownKey(c.key))
        .sort()
        .join('\u0001'),
      signal,
    );

  return async ({ what, checks, held, hold, cls, started, signal }) => {
    // Every class, critical included, sleeps unbooked while only its own buckets hold it back: the room kept for a
    // critical request on the shared buckets is there when it books (RL-Q1), and a critical request booked seconds
    // ahead behind its own order count would hold the shared buckets' pacing for every other caller until then.
    const joining = waitUnbookedForOwnBuckets && checks.some((c) => c.key.credential !== null) && checks.some((c) => c.key.credential === null);
    let asked = clock.now();
    let d: Decision | undefined;
    if (joining) {
      // Admitted at once, the common case, in one call: a probe books nothing, so it holds no shared bucket for
      // later; only a request that must wait takes its turn and looks at its own buckets before it books.
      if (signal?.aborted === true) throw abortReason(signal);
      if (held.length > 0) hold.release = await ledger.acquire(held, clock, started + maxWaitMs, signal, what);
      asked = clock.now();
      const probe = await limiter.checkRates(checks, cls);
      if (probe.kind !== 'delay') d = probe;
      else {
        hold.release?.();
        delete hold.release;
      }
    }
    if (d === undefined) {
      // Requests of this fetch with the same own buckets join the shared queue one at a time, so
      // two that woke together do not both book (the second far ahead, holding the shared buckets).
      const release = joining ? await joinTurn(checks, signal) : undefined;
      try {
        if (joining) await waitForOwnBuckets(checks, started + maxWaitMs, signal, cls);
        // Taken only now, not while the own buckets alone hold the request back: what can still be charged
        // after the fact must be in the ledger when the limiter decides, and until the answer.
        if (held.length > 0) hold.release = await ledger.acquire(held, clock, started + maxWaitMs, signal, what);
        asked = clock.now();
        const budget = Math.max(1, started + maxWaitMs - asked);
        const waiting = limiter.waitForCapacity(checks, { maxWaitMs: budget, ...cls, ...(signal === undefined ? {} : { signal }) });
        if (release !== undefined) {
          // The turn ends once the booking is in place, not at the send time (the shared queue may
          // be long): when the wait settles, or after JOIN_HOLD_MS of real time (a store's round trip).
          const settled = waiting.then(
            () => undefined,
            () => undefined,
          );
          void Promise.race([settled, realDelay(JOIN_HOLD_MS)]).then(release);
        }
        d = await waiting;
      } finally {
        release?.();
      }
    }
    // Widened on purpose: a limiter that breaks the contract (answers delay, or booked, from
    // waitForCapacity) must still never make this client send early.
    const answer: Decision = d;
    if (answer.kind === 'error') {
      if (answer.error.code === 'aborted') throw abortReason(signal);
      throw new PacedFetchError(answer.error.code, `${what} not sent: ${answer.error.message}`, answer.error.retryAfterMs);
    }
    if (answer.kind === 'delay') {
      throw new PacedFetchError(
        'rate_limit_timeout',
        `${what} not sent: it needs ${answer.retryAfterMs} ms, beyond the ${maxWaitMs} ms budget`,
        answer.retryAfterMs,
      );
    }
    // ok means "send now" (RL-W1); a booking answered where ok was due is waited out: never send early.
    if (answer.kind === 'booked') await sleep(clock, asked + answer.waitMs - clock.now(), signal);
    let admittedAt = answer.sendAtMs;
    // a send that waited for its booking asks, when its time comes, whether its window limits are still within
    // their limit (a send before it may have been counted again since); if not, it books them again and waits.
    // (Waited: by this process's clock, longer than a store's answer takes; a send admitted at once cannot
    // have been overtaken.)
    if (answer.kind === 'booked' || clock.now() - asked > WAITED_MS)
      admittedAt = await waitUntilClear(limiter, checks, admittedAt, async (windows) => {
        const again = clock.now();
        const r = await limiter.waitForCapacity(windows, {
          maxWaitMs: Math.max(1, started + maxWaitMs - again),
          ...cls,
          ...(signal === undefined ? {} : { signal }),
        });
        if (r.kind === 'error') {
          if (r.error.code === 'aborted') throw abortReason(signal);
          throw new PacedFetchError(r.error.code, `${what} not sent: booked again, ${r.error.message}`, r.error.retryAfterMs);
        }
        if (r.sendAtMs > clock.now()) await sleep(clock, r.sendAtMs - clock.now(), signal);
        return r.sendAtMs;
      });
    return admittedAt;
  };
}
