import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '@core/rate-limit-conformance';
import { loadRateLimiter } from '../src/load-rate-limiter.js';
import { DefaultRateLimiter } from '../src/default-rate-limiter.js';
import * as self from '../src/index.js';

const fixture = (name: string): string => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));

describe('loadRateLimiter: host selection by configuration', () => {
  it('defaults to this package, built with the given options', async () => {
    const clock = new ManualClock(5_000);
    const limiter = await loadRateLimiter({ options: { clock } });
    expect(limiter).toBeInstanceOf(DefaultRateLimiter);
    expect(limiter.specificationVersion).toBe('v1');
    const d = await limiter.checkRate({ venue: 'okx', credential: null }, { requests: 1 }, 1);
    expect(d).toEqual({ kind: 'ok', sendAtMs: 5_000 });
    expect((await loadRateLimiter()).specificationVersion).toBe('v1');
  });

  it('this package exports the module contract itself', () => {
    expect(self.specificationVersion).toBe('v1');
    expect(self.createRateLimiter()).toBeInstanceOf(DefaultRateLimiter);
  });

  it('imports a module by path and passes the options through', async () => {
    const clock = new ManualClock(7_000);
    const limiter = await loadRateLimiter({ module: fixture('third-party.mjs'), options: { clock } });
    expect((limiter as unknown as { thirdParty: boolean }).thirdParty).toBe(true);
    expect(await limiter.checkRate({ venue: 'x', credential: null }, { requests: 1 }, 1)).toMatchObject({ sendAtMs: 7_000 });
  });

  it('refuses a module of another version, naming the module and the version it found', async () => {
    const name = fixture('wrong-version.mjs');
    await expect(loadRateLimiter({ module: name })).rejects.toThrow(`rate limiter module "${name}" speaks "v0"; this host speaks contract version "v1"`);
  });

  it('refuses a module without a version marker', async () => {
    await expect(loadRateLimiter({ module: fixture('no-version.mjs') })).rejects.toThrow(/speaks no specificationVersion/);
  });

  it('refuses a module without createRateLimiter', async () => {
    await expect(loadRateLimiter({ module: fixture('no-factory.mjs') })).rejects.toThrow(/does not export a createRateLimiter\(options\) function/);
  });

  it('refuses an instance of another version even when the module claims v1', async () => {
    await expect(loadRateLimiter({ module: fixture('instance-wrong-version.mjs') })).rejects.toThrow(
      /built an instance that speaks "v2"; this host speaks contract version "v1"/,
    );
  });

  it('resolves a relative module path from the host directory (options.from), not from this package', async () => {
    const clock = new ManualClock(9_000);
    const from = fileURLToPath(new URL('./fixtures/', import.meta.url));
    const limiter = await loadRateLimiter({ module: './third-party.mjs', options: { clock } }, { from });
    expect((limiter as unknown as { thirdParty: boolean }).thirdParty).toBe(true);
  });

  it('names a module that cannot be imported', async () => {
    await expect(loadRateLimiter({ module: '@core/no-such-limiter' })).rejects.toThrow(/rate limiter module "@core\/no-such-limiter" could not be imported/);
  });
});
