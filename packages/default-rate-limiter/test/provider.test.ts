import { describe, expect, it } from 'vitest';
import { ManualClock } from '@core/rate-limit-conformance';
import type { ProviderRateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '../src/default-rate-limiter.js';
import { createProviderRateLimiter } from '@core/rate-limit-kit';

function setup(limits = {}) {
  const clock = new ManualClock();
  const limiter = createDefaultRateLimiter({ clock });
  const provider: ProviderRateLimiter = createProviderRateLimiter(limiter, { clock, limits });
  return { clock, limiter, provider };
}

describe('createProviderRateLimiter (RL-P1..RL-P5)', () => {
  it('RL-P1 check honours the weight and never consumes', async () => {
    const { provider, limiter } = setup({ webull: { requests: 5, periodMs: 1000 } });
    for (let i = 0; i < 10; i++) expect(await provider.check('webull', 5)).toEqual({ kind: 'ok' });
    expect(await provider.check('webull', 6)).toEqual({ kind: 'rate_limited', retryAfterMs: 200 });
    expect(await limiter.borrowed({ venue: 'webull', credential: null })).toBe(0);
  });

  it('the default limit is 10 per 1000 ms', async () => {
    const { provider } = setup();
    provider.record('anything', 10);
    expect(await provider.check('anything', 1)).toEqual({ kind: 'rate_limited', retryAfterMs: 100 });
  });

  it('RL-P2 a malformed weight answers error, never ok', async () => {
    const { provider } = setup();
    for (const w of [-1, Number.NaN, Infinity, '3' as unknown as number]) {
      const c = await provider.check('x', w);
      expect(c.kind === 'error' && c.error.code).toBe('invalid_parameters');
      const a = await provider.acquire('x', w);
      expect(a.kind === 'error' && a.error.code).toBe('invalid_parameters');
    }
  });

  it('RL-P3 acquire waits with one timer until there is room, does not consume, and times out', async () => {
    const { provider, clock, limiter } = setup({ p: { capacity: 2, refillPerSec: 1 } });
    provider.record('p', 2);
    let done: unknown;
    const pending = provider.acquire('p', 1, { timeoutMs: 5000 }).then((r) => (done = r));
    await clock.whenTimers(1);
    expect(clock.pendingTimers).toBe(1);
    await clock.advance(999);
    expect(done).toBeUndefined();
    await clock.advance(1);
    await pending;
    expect(done).toEqual({ kind: 'ok' });
    expect(await limiter.borrowed({ venue: 'p', credential: null })).toBeCloseTo(1, 9);
    provider.record('p', 1);
    const t = await provider.acquire('p', 1, { timeoutMs: 500 });
    expect(t).toMatchObject({ kind: 'error', error: { code: 'rate_limit_timeout', retryAfterMs: 1000 } });
  });

  it('RL-P3 a weight above capacity is granted once the bucket has accrued it', async () => {
    const { provider, clock } = setup({ p: { capacity: 2, refillPerSec: 1 } });
    let done: unknown;
    const pending = provider.acquire('p', 5, { timeoutMs: 10_000 }).then((r) => (done = r));
    await clock.whenTimers(1);
    await clock.advance(2999);
    expect(done).toBeUndefined();
    await clock.advance(1);
    await pending;
    expect(done).toEqual({ kind: 'ok' });
  });

  it('acquire honours an AbortSignal', async () => {
    const { provider, clock } = setup({ p: { capacity: 1, refillPerSec: 1 } });
    provider.record('p', 1);
    const ac = new AbortController();
    const pending = provider.acquire('p', 1, { signal: ac.signal });
    await clock.whenTimers(1);
    ac.abort();
    expect(await pending).toMatchObject({ kind: 'error', error: { code: 'aborted' } });
    expect(clock.pendingTimers).toBe(0);
  });

  it('RL-P4 record fills the bucket and never throws, whatever it is given', async () => {
    const { provider } = setup({ p: { requests: 3 } });
    provider.record('p', 2);
    expect(await provider.check('p', 2)).toMatchObject({ kind: 'rate_limited' });
    expect(() => provider.record('p', Number.NaN)).not.toThrow();
    expect(() => provider.record('', 1)).not.toThrow();
  });

  it('RL-P5 penalize holds the provider closed and never shortens a hold', async () => {
    const { provider, clock } = setup({ p: { requests: 3 } });
    await provider.penalize('p', 5000);
    await provider.penalize('p', 1000);
    await clock.advance(4000);
    expect(await provider.check('p', 1)).toMatchObject({ kind: 'rate_limited' });
    await clock.advance(1400);
    expect(await provider.check('p', 1)).toEqual({ kind: 'ok' });
  });

  it('credentials and venues map to separate buckets', async () => {
    const clock = new ManualClock();
    const limiter = createDefaultRateLimiter({ clock });
    const provider = createProviderRateLimiter(limiter, { clock, defaultLimit: { requests: 1 }, venueOf: (p) => p.split(':')[0] ?? p });
    provider.record('binance:spot', 1, { credential: 'k1' });
    expect(await provider.check('binance:futures', 1, { credential: 'k1' })).toMatchObject({ kind: 'rate_limited' });
    expect(await provider.check('binance:spot', 1, { credential: 'k2' })).toEqual({ kind: 'ok' });
    expect(await provider.check('binance:spot', 1)).toEqual({ kind: 'ok' });
  });

  it('construction refuses an invalid configured limit', () => {
    const limiter = createDefaultRateLimiter();
    expect(() => createProviderRateLimiter(limiter, { limits: { p: { requests: 1, periodMs: 0 } } })).toThrow(/limits\.p\.periodMs/);
  });
});
