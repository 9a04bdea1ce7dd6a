import { ManualClock } from '@core/rate-limit-conformance';
import { StoreRateLimiter } from '@core/rate-limit-kit';
import { afterEach, describe, expect, it } from 'vitest';
import { RedisStore, type RedisLike } from '../src/index.js';
import { MAX_DRIFT } from '../src/server-clock.js';

// The server's clock as the store estimates it from its replies, without a real server or real time: a
// fake RedisLike whose replies the test releases by hand, on a manual local clock. A reply carries the
// server's TIME (an admission's short reply, microseconds) read between the call's send and its arrival.

const LOCAL_START_MS = 1_800_000_000_000;
/** The server's clock minus the local one. */
const SERVER_AHEAD_MS = 2_500;
/** A prompt call: read on the server this long after it left, answered this long after. */
const PROMPT_MS = 0.25;
/** Under load a reply waits in queues this long after the script read the time (68 to 819 ms seen). */
const QUEUED_REPLY_MS = 500;
const LATE_CALLS = 5;
const key = { venue: 'v', credential: null, axis: 'a' };
const everything = { capacity: 1e9, refillPerSec: 1e9 };

/** Answers every script call only when the test releases it, with the server time the test chose. */
class HeldRedis implements RedisLike {
  readonly cluster = false;
  readonly #held: ((reply: unknown) => void)[] = [];
  get held(): number {
    return this.#held.length;
  }
  evalsha(): Promise<unknown> {
    return new Promise((resolve) => this.#held.push(resolve));
  }
  eval(): Promise<unknown> {
    return this.evalsha();
  }
  masters(): Promise<readonly []> {
    return Promise.resolve([]);
  }
  /** Releases the oldest call with TIME = `serverMs` (Unix ms) in microseconds, as admit.lua answers. */
  release(serverMs: number): void {
    this.#held.shift()?.(Math.round(serverMs * 1000));
  }
}

const opened: StoreRateLimiter[] = [];
afterEach(async () => {
  for (const limiter of opened.splice(0)) await limiter.close();
});

function setUp() {
  const local = new ManualClock(LOCAL_START_MS);
  const redis = new HeldRedis();
  const store = new RedisStore({
    redis,
    prefix: 't:',
    hashTag: 'venue',
    timeoutMs: 600_000,
    clock: undefined,
    localClock: local,
    ttlSlackMs: 1_000,
    pendingDebtTtlMs: 3_600_000,
    pendingHoldTtlMs: 86_400_000,
    recordMarkerTtlMs: 600_000,
    recordBufferSize: 100,
    recordRetryMs: 50,
    onClose: undefined,
  });
  const limiter = new StoreRateLimiter(store);
  opened.push(limiter);
  let serverAhead = SERVER_AHEAD_MS;
  return {
    local,
    store,
    /** The server's true time now. */
    serverNow: () => local.now() + serverAhead,
    setServerAhead: (ms: number) => {
      serverAhead = ms;
    },
    /** One admission: read on the server `readAfterMs` after it left, its reply arriving `replyAfterMs` later. */
    async admit(readAfterMs: number, replyAfterMs: number): Promise<{ serverMs: number; receivedAt: number }> {
      const sentAt = local.now();
      const decision = limiter.checkRate(key, everything, 1);
      for (let i = 0; i < 100 && redis.held === 0; i++) await new Promise((r) => setImmediate(r));
      expect(redis.held).toBe(1);
      local.set(sentAt + readAfterMs);
      const serverMs = local.now() + serverAhead;
      local.set(local.now() + replyAfterMs);
      redis.release(serverMs);
      expect((await decision).kind).toBe('ok');
      return { serverMs, receivedAt: local.now() };
    },
  };
}

describe("the server's clock from the replies (Redis without an injected clock)", () => {
  it('late replies no longer pull the estimate behind: it stays within the prompt round trip', async () => {
    const t = setUp();
    await t.admit(PROMPT_MS, PROMPT_MS);
    const promptAt = t.local.now();
    let last = { serverMs: 0, receivedAt: 0 };
    for (let i = 0; i < LATE_CALLS; i++) last = await t.admit(PROMPT_MS, QUEUED_REPLY_MS);
    // the old estimate, the last reply's time taken as now at its arrival, is a whole queueing delay behind
    expect(t.serverNow() - (t.local.now() + last.serverMs - last.receivedAt)).toBeCloseTo(QUEUED_REPLY_MS, 3);
    // the store's: never ahead of the server, behind by at most the prompt call's round trip (and the drift allowed since)
    const behind = t.serverNow() - t.store.now();
    expect(behind).toBeGreaterThanOrEqual(0);
    expect(behind).toBeLessThanOrEqual(2 * PROMPT_MS + MAX_DRIFT * (t.local.now() - promptAt) + 1e-6);
  });

  it('replies that waited before the script read the time do not move it ahead', async () => {
    const t = setUp();
    await t.admit(PROMPT_MS, PROMPT_MS);
    for (let i = 0; i < LATE_CALLS; i++) await t.admit(QUEUED_REPLY_MS, PROMPT_MS);
    const behind = t.serverNow() - t.store.now();
    expect(behind).toBeGreaterThanOrEqual(0);
    expect(behind).toBeLessThanOrEqual(PROMPT_MS + 1e-6);
  });

  it('follows a server clock drifting slower than the local one, never ahead of it', async () => {
    const t = setUp();
    const DRIFT = MAX_DRIFT / 2;
    const STEP_MS = 100;
    for (let i = 0; i < 100; i++) {
      await t.admit(PROMPT_MS, PROMPT_MS);
      const behind = t.serverNow() - t.store.now();
      expect(behind).toBeGreaterThanOrEqual(0);
      expect(behind).toBeLessThanOrEqual(PROMPT_MS + MAX_DRIFT * STEP_MS + 1e-6);
      t.local.set(t.local.now() + STEP_MS);
      t.setServerAhead(SERVER_AHEAD_MS - DRIFT * (t.local.now() - LOCAL_START_MS));
    }
  });

  it('a server clock stepped back (or another master with an earlier clock) is taken at its first reply', async () => {
    const t = setUp();
    await t.admit(PROMPT_MS, PROMPT_MS);
    t.setServerAhead(SERVER_AHEAD_MS - 1_000);
    await t.admit(PROMPT_MS, PROMPT_MS);
    const behind = t.serverNow() - t.store.now();
    expect(behind).toBeGreaterThanOrEqual(0);
    expect(behind).toBeLessThanOrEqual(PROMPT_MS + 1e-6);
  });

  it('before any reply the local clock stands for the server', () => {
    const t = setUp();
    expect(t.store.now()).toBe(t.local.now());
  });
});
