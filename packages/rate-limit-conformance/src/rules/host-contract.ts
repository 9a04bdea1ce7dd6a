import type { ProviderAcquireResult, ProviderCheckResult } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectEqual, expectTrue, fail, show } from '../expect.js';
import { TEN_PER_SECOND, settled, track, expectPending } from './fixtures.js';
import type { ManualClock } from '../manual-clock.js';

const LIMITS = { alpha: TEN_PER_SECOND, beta: TEN_PER_SECOND };

function expectRoom(result: ProviderCheckResult | ProviderAcquireResult, what: string): void {
  if (result?.kind !== 'ok') fail(`${what}: expected ok, got ${show(result)}`);
}

function expectLimited(result: ProviderCheckResult, retryAfterMs: number | readonly [number, number], what: string): void {
  if (result?.kind !== 'rate_limited') fail(`${what}: expected rate_limited, got ${show(result)}`);
  const [lo, hi] = typeof retryAfterMs === 'number' ? [retryAfterMs, retryAfterMs] : retryAfterMs;
  expectTrue(result.retryAfterMs >= lo && result.retryAfterMs <= hi, `${what}: retryAfterMs ${result.retryAfterMs}, expected ${lo === hi ? lo : `${lo}..${hi}`}`);
}

function expectProviderError(result: ProviderCheckResult | ProviderAcquireResult, code: string | undefined, what: string): void {
  if (result?.kind !== 'error') fail(`${what}: expected error, got ${show(result)}`);
  if (code !== undefined) expectEqual(result.error.code, code, `${what}: error code`);
}

/** Starts an acquire and returns once it settled or started a timer on the manual clock. */
async function startAcquire(clock: ManualClock, acquire: () => Promise<ProviderAcquireResult>) {
  const before = clock.timersCreated;
  const waiter = track(acquire(), clock.realTimeoutMs);
  const started = Date.now();
  while (!waiter.done && clock.timersCreated <= before) {
    if (Date.now() - started > clock.realTimeoutMs) fail(`acquire neither settled nor started a timer on the injected clock within ${clock.realTimeoutMs} ms`);
    await new Promise<void>((resolve) => setTimeout(resolve, 1));
  }
  return waiter;
}

export const HOST_CONTRACT: readonly ConformanceTest[] = [
  test('RL-P1', 'check honours the weight and does not consume', ['injectableClock', 'provider'], async (t) => {
    const p = await t.provider(LIMITS);
    for (let i = 0; i < 5; i++) expectRoom(await p.check('alpha', 10), `check weight 10 #${i + 1}`);
    expectLimited(await p.check('alpha', 11), 100, 'check weight 11 on capacity 10');
    p.record('alpha', 6);
    await new Promise<void>((resolve) => setImmediate(resolve));
    expectLimited(await p.check('alpha', 5), 100, 'check weight 5 with 4 left');
    expectRoom(await p.check('alpha', 4), 'check weight 4 with 4 left');
    expectRoom(await p.check('beta', 10), 'another provider');
    expectRoom(await p.check('alpha', 10, { credential: 'k1' }), 'the same provider for a credential');
  }),
  test('RL-P2', 'a malformed weight answers error, never ok', ['provider'], async (t) => {
    const p = await t.provider(LIMITS);
    for (const weight of [-1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expectProviderError(await p.check('alpha', weight), undefined, `check weight ${weight}`);
      expectProviderError(await p.acquire('alpha', weight, { timeoutMs: 100 }), undefined, `acquire weight ${weight}`);
    }
  }),
  test('RL-P2', 'an unreachable store answers error, never ok', ['provider', 'faultHooks'], async (t) => {
    const p = await t.provider(LIMITS);
    await t.subject.breakStore?.();
    expectProviderError(await p.check('alpha', 1), undefined, 'check');
    expectProviderError(await p.acquire('alpha', 1, { timeoutMs: 1000 }), undefined, 'acquire');
    await t.subject.repairStore?.();
    expectRoom(await p.check('alpha', 1), 'check once the store is back');
  }),
  test('RL-P3', 'acquire waits for room, does not consume, and times out with rate_limit_timeout', ['injectableClock', 'provider'], async (t) => {
    const p = await t.provider(LIMITS);
    p.record('alpha', 10);
    await new Promise<void>((resolve) => setImmediate(resolve));
    const waiter = await startAcquire(t.clock, () => p.acquire('alpha', 1, { timeoutMs: 1000 }));
    await t.clock.advance(99);
    expectPending(waiter, 'acquire 1 ms before there is room');
    await t.clock.advance(1);
    expectRoom(await settled(waiter, 'acquire'), 'acquire once there is room');
    expectLimited(await p.check('alpha', 2), 100, 'check weight 2 after acquire (acquire did not consume)');
    expectProviderError(await p.acquire('alpha', 5, { timeoutMs: 100 }), 'rate_limit_timeout', 'acquire weight 5 with a 100 ms timeout');
    expectRoom(await p.acquire('alpha', 1, { timeoutMs: 100 }), 'acquire weight 1 with room');
  }),
  test('RL-P3', 'an aborted acquire answers error, never ok', ['injectableClock', 'provider'], async (t) => {
    const p = await t.provider(LIMITS);
    p.record('alpha', 10);
    await new Promise<void>((resolve) => setImmediate(resolve));
    const controller = new AbortController();
    const waiter = await startAcquire(t.clock, () => p.acquire('alpha', 5, { timeoutMs: 5000, signal: controller.signal }));
    expectPending(waiter, 'acquire before there is room');
    controller.abort();
    expectProviderError(await settled(waiter, 'the aborted acquire'), undefined, 'the aborted acquire');
  }),
  test('RL-P4', 'record fills the bucket, answers nothing and never throws', ['injectableClock', 'provider'], async (t) => {
    const p = await t.provider(LIMITS);
    const returned: unknown = p.record('alpha', 10);
    expectTrue(returned === undefined, `record returned ${show(returned)}`);
    for (const weight of [-1, Number.NaN, 'x' as unknown as number]) {
      try {
        p.record('alpha', weight);
      } catch (error) {
        fail(`record weight ${show(weight)} threw ${String(error)}`);
      }
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
    expectLimited(await p.check('alpha', 1), 100, 'check after record 10');
  }),
  test('RL-P5', 'penalize holds the provider closed and never shortens a hold', ['injectableClock', 'provider'], async (t) => {
    const p = await t.provider(LIMITS);
    await p.penalize('alpha', 5000);
    expectLimited(await p.check('alpha', 1), [5000, 5100], 'check under a 5000 ms hold');
    await p.penalize('alpha', 1000);
    expectLimited(await p.check('alpha', 1), [5000, 5100], 'check after a shorter penalty');
    expectRoom(await p.check('beta', 1), 'another provider');
    await t.clock.advance(5100);
    expectRoom(await p.check('alpha', 1), 'check once the hold is over');
  }),
];
