import type { BucketCheck, Clock, Decision, RateLimiter } from '@core/rate-limit-contract';
import { lateBuckets } from '@core/exchange-specs';
import { abortReason, createTurns, sleep, waitUntilClear } from '@core/paced-fetch';
import type { PacedWebSocketError, PacedWebSocketErrorCode } from './paced-websocket-error.js';

/** A wait for capacity longer than this (ms, this client's clock) waited for a booking, not for a store's answer. */
const WAITED_MS = 5;
/** How many times in a row a send whose time passed before it could go books its windows again before it gives up. */
const MAX_LATE_REBOOKINGS = 3;
/** The turns of waiters that spend both WebSocket and REST buckets, per set of WebSocket buckets (see `#waitForWebSocketBuckets`). */
const turns = createTurns();

/** A typed error of the client, its message prefixed with the venue and endpoint. */
export type Fail = (code: PacedWebSocketErrorCode, message: string, retryAfterMs?: number) => PacedWebSocketError;

/**
 * The window limits among `checks` that a send `lateMs` after its admitted time may reach the venue too
 * late for: more than half their jitter allowance (the other half is for the way to the venue), and
 * more than a store's answer takes (no admission is more precise: with no allowance, every send would
 * be late).
 */
function lateWindows(checks: readonly BucketCheck[], lateMs: number): BucketCheck[] {
  if (!(lateMs > WAITED_MS)) return [];
  return lateBuckets(checks)
    .filter((b) => lateMs > b.jitterMs / 2)
    .map((b) => ({ key: b.key, limit: b.limit, cost: b.cost }));
}

/** How a client waits for its buckets before each connection attempt and message. */
export class Admission {
  readonly #limiter: RateLimiter;
  readonly #clock: Clock;
  readonly #fail: Fail;

  constructor(limiter: RateLimiter, clock: Clock, fail: Fail) {
    this.#limiter = limiter;
    this.#clock = clock;
    this.#fail = fail;
  }

  /**
   * Waits for `checks` (nothing to wait for when empty), then calls `go` (the send) in the same tick as
   * the last look at the clock, with the send time the limiter admitted (undefined when nothing was
   * checked); throws a typed error when not admitted. Before `go`, two safeguards for window limits:
   * a send that waited for its booking books again the window limits overfilled meanwhile (a send
   * before it counted again since, see `waitUntilClear`); and a send whose time has passed by more
   * than half a window limit's jitter allowance (a timer that fired late, a busy event loop) books
   * those windows again at its real time: sent late, it could land in a later window than the one it
   * was admitted in, beside sends admitted there meanwhile (its first booking stays charged: counted
   * twice, never too little). At most `MAX_LATE_REBOOKINGS` times in a row; then it is not sent.
   */
  async admit<T>(checks: readonly BucketCheck[], maxWaitMs: number, signal: AbortSignal, what: string, go: (admittedAt: number | undefined) => T): Promise<T> {
    if (checks.length === 0) {
      if (signal.aborted) throw abortReason(signal);
      return go(undefined);
    }
    const started = this.#clock.now();
    const deadline = started + maxWaitMs;
    const release = await this.#waitForWebSocketBuckets(checks, deadline, signal);
    const asked = this.#clock.now();
    const budget = Math.max(1, deadline - asked);
    let d: Decision;
    try {
      d = (await this.#limiter.waitForCapacity(checks, { maxWaitMs: budget, signal })) as Decision;
    } finally {
      release?.();
    }
    if (d.kind === 'error') {
      if (d.error.code === 'aborted') throw abortReason(signal);
      throw this.#fail(d.error.code, `${what} not sent: ${d.error.message}`, d.error.retryAfterMs);
    }
    if (d.kind === 'delay')
      throw this.#fail('rate_limit_timeout', `${what} not sent: it needs ${d.retryAfterMs} ms, beyond the ${budget} ms budget`, d.retryAfterMs);
    // ok means "send now" (RL-W1); a booking where ok was due is waited out: never send early.
    if (d.kind === 'booked') await sleep(this.#clock, asked + d.waitMs - this.#clock.now(), signal);
    const again = (windows: readonly BucketCheck[]): Promise<number> => this.#bookAgain(windows, deadline, signal, what);
    // (waited: longer than a store's answer takes; a send admitted at once cannot have been overtaken)
    let at = d.kind === 'booked' || this.#clock.now() - asked > WAITED_MS ? await waitUntilClear(this.#limiter, checks, d.sendAtMs, again) : d.sendAtMs;
    for (let round = 0; ; round++) {
      const late = lateWindows(checks, this.#clock.now() - at);
      if (late.length === 0) return go(at);
      if (round === MAX_LATE_REBOOKINGS)
        throw this.#fail(
          'rate_limit_timeout',
          `${what} not sent: its send time passed ${MAX_LATE_REBOOKINGS + 1} times in a row before it could go (a busy event loop)`,
        );
      at = await again(late);
    }
  }

  /** Books `windows` again within what is left of the budget and waits for the new send time; answers it. */
  async #bookAgain(windows: readonly BucketCheck[], deadline: number, signal: AbortSignal, what: string): Promise<number> {
    const budget = Math.max(1, deadline - this.#clock.now());
    const r = (await this.#limiter.waitForCapacity(windows, { maxWaitMs: budget, signal })) as Decision;
    if (r.kind === 'error') {
      if (r.error.code === 'aborted') throw abortReason(signal);
      throw this.#fail(r.error.code, `${what} not sent: booked again, ${r.error.message}`, r.error.retryAfterMs);
    }
    if (r.kind === 'delay')
      throw this.#fail('rate_limit_timeout', `${what} not sent: booked again, it needs ${r.retryAfterMs} ms, beyond the ${budget} ms budget`, r.retryAfterMs);
    if (r.sendAtMs > this.#clock.now()) await sleep(this.#clock, r.sendAtMs - this.#clock.now(), signal);
    return r.sendAtMs;
  }

  /**
   * When a connection attempt or a WebSocket API request charges both WebSocket buckets (attempts,
   * messages) and REST buckets (the IP weight, an account's orders), it sleeps without booking while
   * only the WebSocket buckets hold it back, and books only once they would admit it: a booking far in
   * the future (behind a busy connection bucket) would hold the shared REST buckets for every REST
   * request until then (RL-W2). Such waiters of one process take turns per set of WebSocket buckets,
   * so they never overtake one another forever, and at most one of them books ahead at a time.
   */
  async #waitForWebSocketBuckets(checks: readonly BucketCheck[], deadline: number, signal: AbortSignal): Promise<(() => void) | undefined> {
    const ws = checks.filter((c) => c.key.axis?.startsWith('ws:') === true);
    if (ws.length === 0 || ws.length === checks.length) return undefined;
    const rest = checks.filter((c) => c.key.axis?.startsWith('ws:') !== true);
    const release = await turns.join(
      ws
        .map((c) => `${c.key.venue}\u0000${c.key.credential ?? ''}\u0000${c.key.axis ?? ''}`)
        .sort()
        .join('\u0001'),
      signal,
    );
    try {
      for (;;) {
        const p = await this.#limiter.peek(ws);
        if (p.kind !== 'delay') return release;
        const q = await this.#limiter.peek(rest);
        const queued = q.kind === 'delay' ? q.retryAfterMs : 0;
        if (q.kind === 'error' || p.retryAfterMs <= queued) return release;
        const nap = p.retryAfterMs - queued;
        if (nap > deadline - this.#clock.now()) return release;
        await sleep(this.#clock, nap, signal);
      }
    } catch (e) {
      release();
      throw e;
    }
  }
}
