import type { Limit, ProviderAcquireResult, ProviderCheckOptions, ProviderCheckResult, ProviderPenaltyResult } from '@core/rate-limit-contract';
import { test, type ConformanceTest } from '../conformance-test.js';
import { expectEqual, expectTrue, fail, show } from '../expect.js';
import type { RateLimitError } from '@core/rate-limit-contract';
import { TEN_PER_SECOND, settled, track, expectPending } from './fixtures.js';
import type { ManualClock } from '../manual-clock.js';

/** capacity 10, refill 1/s: a weight of 1e308 waits longer than can be represented there. */
const ONE_PER_SECOND: Limit = { capacity: 10, refillPerSec: 1 };
const LIMITS = { alpha: TEN_PER_SECOND, beta: TEN_PER_SECOND, gamma: ONE_PER_SECOND };

function expectRoom(result: ProviderCheckResult | ProviderAcquireResult, what: string): void {
  if (result?.kind !== 'ok') fail(`${what}: expected ok, got ${show(result)}`);
}

function expectLimited(result: ProviderCheckResult, retryAfterMs: number | readonly [number, number], what: string): void {
  if (result?.kind !== 'rate_limited') fail(`${what}: expected rate_limited, got ${show(result)}`);
  const [lo, hi] = typeof retryAfterMs === 'number' ? [retryAfterMs, retryAfterMs] : retryAfterMs;
  expectTrue(
    result.retryAfterMs >= lo && result.retryAfterMs <= hi,
    `${what}: retryAfterMs ${result.retryAfterMs}, expected ${lo === hi ? lo : `${lo}..${hi}`}`,
  );
}

function expectProviderError(
  result: ProviderCheckResult | ProviderAcquireResult | ProviderPenaltyResult,
  code: string | undefined,
  what: string,
): RateLimitError {
  if (result?.kind !== 'error') fail(`${what}: expected error, got ${show(result)}`);
  if (code !== undefined) expectEqual(result.error.code, code, `${what}: error code`);
  return result.error;
}

/**
 * Fails unless a provider error names the provider call's own argument `argument` (in `path`, or in
 * the message when there is no path) and never a path of the bucket-level call inside it (RL-P2).
 */
function expectNamesArgument(error: RateLimitError, argument: string, what: string): void {
  expectEqual(error.code, 'invalid_parameters', `${what}: error code`);
  if (error.path !== undefined) expectEqual(error.path, argument, `${what}: error.path`);
  else expectTrue(error.message.includes(argument), `${what}: the message does not name ${argument}: ${show(error.message)}`);
  expectTrue(!(error.path ?? '').startsWith('checks') && !error.message.includes('checks['), `${what}: the error names the inner call's paths: ${show(error)}`);
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
  test('RL-P5', 'penalize holds the provider closed and never shortens a hold', ['injectableClock', 'provider', 'penalize'], async (t) => {
    const p = await t.provider(LIMITS);
    await p.penalize('alpha', 5000);
    expectLimited(await p.check('alpha', 1), [5000, 5100], 'check under a 5000 ms hold');
    await p.penalize('alpha', 1000);
    expectLimited(await p.check('alpha', 1), [5000, 5100], 'check after a shorter penalty');
    expectRoom(await p.check('beta', 1), 'another provider');
    await t.clock.advance(5100);
    expectRoom(await p.check('alpha', 1), 'check once the hold is over');
  }),
  test('RL-P1', 'a weight whose wait cannot be represented is cost_unpayable from check and acquire', ['provider'], async (t) => {
    const p = await t.provider(LIMITS);
    for (const [what, result] of [
      ['check weight 1e308', await p.check('gamma', 1e308)],
      ['acquire weight 1e308', await p.acquire('gamma', 1e308, { timeoutMs: 1000 })],
    ] as const) {
      const e = expectProviderError(result, 'cost_unpayable', `${what} at refill 1/s`);
      expectTrue(!/fixed quota|refill 0|never refills/i.test(e.message), `${what}: the message speaks of a fixed quota: ${show(e.message)}`);
      expectTrue(!e.message.includes('checks['), `${what}: the message names the inner call's paths: ${show(e.message)}`);
    }
    expectRoom(await p.check('gamma', 10), 'check weight 10 afterwards (nothing changed)');
  }),
  test('RL-P2', "errors name the provider's own arguments, never the inner call's paths", ['provider'], async (t) => {
    const p = await t.provider(LIMITS);
    const cases: readonly [string, string, () => Promise<ProviderCheckResult | ProviderAcquireResult | ProviderPenaltyResult>][] = [
      ['check with provider 42', 'provider', () => p.check(42 as unknown as string, 1)],
      ['acquire with provider ""', 'provider', () => p.acquire('', 1, { timeoutMs: 100 })],
      ['check with weight -1', 'weight', () => p.check('alpha', -1)],
      ['acquire with weight NaN', 'weight', () => p.acquire('alpha', Number.NaN, { timeoutMs: 100 })],
      ['check with credential 42', 'options.credential', () => p.check('alpha', 1, { credential: 42 as unknown as string })],
      ['acquire with timeoutMs -5', 'options.timeoutMs', () => p.acquire('alpha', 1, { timeoutMs: -5 })],
      ['acquire with signal "stop"', 'options.signal', () => p.acquire('alpha', 1, { timeoutMs: 100, signal: 'stop' as unknown as AbortSignal })],
      ['penalize with retryAfterMs -5', 'retryAfterMs', () => p.penalize('alpha', -5)],
    ];
    for (const [what, argument, call] of cases) expectNamesArgument(expectProviderError(await call(), undefined, what), argument, what);
    expectRoom(await p.check('alpha', 10), 'check weight 10 after the refused calls');
  }),
  test('RL-P2', 'null options are refused, as the limiter refuses them', ['provider'], async (t) => {
    const p = await t.provider(LIMITS);
    const none = null as unknown as ProviderCheckOptions;
    expectNamesArgument(expectProviderError(await p.check('alpha', 1, none), undefined, 'check with options null'), 'options', 'check with options null');
    expectNamesArgument(expectProviderError(await p.acquire('alpha', 1, none), undefined, 'acquire with options null'), 'options', 'acquire with options null');
    expectNamesArgument(
      expectProviderError(await p.penalize('alpha', 1000, none), undefined, 'penalize with options null'),
      'options',
      'penalize with options null',
    );
    expectRoom(await p.check('alpha', 10), 'check weight 10 after the refused calls (the penalty was not applied)');
  }),
  test(
    'RL-P5',
    'penalize answers ok, or an error naming the argument it refused; a penalty is never dropped silently',
    ['injectableClock', 'provider', 'penalize'],
    async (t) => {
      const p = await t.provider(LIMITS);
      for (const retryAfterMs of [-1, Number.NaN, Number.POSITIVE_INFINITY, '5000' as unknown as number]) {
        const what = `penalize retryAfterMs ${show(retryAfterMs)}`;
        expectNamesArgument(expectProviderError(await p.penalize('alpha', retryAfterMs), undefined, what), 'retryAfterMs', what);
      }
      expectRoom(await p.check('alpha', 1), 'check after the refused penalties');
      const applied: ProviderPenaltyResult = await p.penalize('alpha', 1000);
      expectEqual(applied?.kind, 'ok', `penalize 1000 ms answered ${show(applied)}`);
      expectLimited(await p.check('alpha', 1), [1000, 1100], 'check under the 1000 ms hold');
    },
  ),
];
