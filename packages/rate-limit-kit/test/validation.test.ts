import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hashCredential } from '../src/hash-credential.js';
import { normalizeKey } from '../src/normalize-key.js';
import { normalizeLimit } from '../src/normalize-limit.js';
import { checksError } from '../src/read-arguments.js';
import { KeyResolver } from '../src/key-resolver.js';
import { validateCost, validateSignal, validateWaitBudget } from '../src/validate-number.js';
import { bucketId, decodeBucketId } from '../src/bucket-id.js';

const SECRET = 'sk-live-DO-NOT-LEAK-1234567890';

describe('hashCredential (RL-K3)', () => {
  it('is the first 32 hex chars of SHA-256 of the UTF-8 credential', () => {
    expect(hashCredential('abc')).toBe('ba7816bf8f01cfea414140de5dae2223');
  });
  it('is HMAC-SHA-256 keyed with the secret when one is given (RFC 4231 case 2)', () => {
    expect(hashCredential('what do ya want for nothing?', 'Jefe')).toBe('5bdcc146bf60754e6a042426089575c7');
  });
  it('hashes UTF-8, not UTF-16', () => {
    // SHA-256 over the bytes c3 a9, not over the UTF-16 code unit e9 00
    expect(hashCredential('é')).toBe(
      createHash('sha256')
        .update(Buffer.from([0xc3, 0xa9]))
        .digest('hex')
        .slice(0, 32),
    );
    expect(hashCredential('é')).not.toBe(
      createHash('sha256')
        .update(Buffer.from([0xe9]))
        .digest('hex')
        .slice(0, 32),
    );
  });
});

describe('normalizeKey', () => {
  it('RL-K2 fills in the axis "request"', () => {
    expect(normalizeKey({ venue: 'okx', credential: null })).toEqual({ ok: true, value: { venue: 'okx', credential: null, axis: 'request' } });
  });
  it.each([
    [null, 'key'],
    ['okx', 'key'],
    [{ venue: '', credential: null }, 'key.venue'],
    [{ venue: 7, credential: null }, 'key.venue'],
    [{ venue: 'x'.repeat(257), credential: null }, 'key.venue'],
    [{ venue: 'okx', credential: '' }, 'key.credential'],
    [{ venue: 'okx' }, 'key.credential'],
    [{ venue: 'okx', credential: 42 }, 'key.credential'],
    [{ venue: 'okx', credential: null, axis: '' }, 'key.axis'],
    [{ venue: 'okx', credential: null, axis: null }, 'key.axis'],
  ])('refuses %o at %s', (key, path) => {
    const r = normalizeKey(key);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_parameters');
      expect(r.error.path).toBe(path);
      expect(r.error.message.startsWith(path)).toBe(true);
    }
  });
  it('never names a credential in its message (RL-K3)', () => {
    const r = normalizeKey({ venue: 'okx', credential: SECRET + 'x'.repeat(5000) });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).not.toContain(SECRET);
  });
});

describe('normalizeLimit', () => {
  it('RL-L1 three equivalent shapes', () => {
    expect(normalizeLimit({ capacity: 10, refillPerSec: 10 })).toEqual({ ok: true, value: { capacity: 10, refillPerSec: 10 } });
    expect(normalizeLimit({ requests: 10, periodMs: 1000 })).toEqual({ ok: true, value: { capacity: 10, refillPerSec: 10 } });
    expect(normalizeLimit({ requests: 10 })).toEqual({ ok: true, value: { capacity: 10, refillPerSec: 10 } });
    expect(normalizeLimit({ requests: 6000, periodMs: 60_000 })).toEqual({ ok: true, value: { capacity: 6000, refillPerSec: 100 } });
  });
  it('RL-L2 an explicit null is unlimited; a missing limit is invalid_parameters, never unlimited', () => {
    expect(normalizeLimit(null)).toEqual({ ok: true, value: null });
    expect(normalizeLimit(undefined)).toMatchObject({ ok: false, error: { code: 'invalid_parameters', path: 'limit' } });
  });
  it('RL-F2 a limit or key whose getters throw is invalid_parameters', () => {
    const throwing = new Proxy(
      {},
      {
        get: () => {
          throw new Error('boom');
        },
      },
    );
    expect(normalizeLimit(throwing)).toMatchObject({ ok: false, error: { code: 'invalid_parameters', path: 'limit' } });
    expect(normalizeKey(throwing)).toMatchObject({ ok: false, error: { code: 'invalid_parameters', path: 'key' } });
    const revoked = Proxy.revocable({}, {});
    revoked.revoke();
    expect(normalizeKey(revoked.proxy)).toMatchObject({ ok: false, error: { code: 'invalid_parameters' } });
    expect(normalizeLimit(revoked.proxy)).toMatchObject({ ok: false, error: { code: 'invalid_parameters' } });
    const signal = {
      get aborted(): boolean {
        throw new Error('boom');
      },
      addEventListener() {},
      removeEventListener() {},
    };
    expect(validateSignal(signal)).toMatchObject({ ok: false, error: { code: 'invalid_parameters' } });
  });
  it('RL-L4 refill 0 is allowed (a fixed quota)', () => {
    expect(normalizeLimit({ capacity: 5, refillPerSec: 0 })).toEqual({ ok: true, value: { capacity: 5, refillPerSec: 0 } });
  });
  it.each([
    [{ capacity: 0, refillPerSec: 1 }, 'limit.capacity', '0'],
    [{ capacity: -1, refillPerSec: 1 }, 'limit.capacity', '-1'],
    [{ capacity: Number.NaN, refillPerSec: 1 }, 'limit.capacity', 'NaN'],
    [{ capacity: Infinity, refillPerSec: 1 }, 'limit.capacity', 'Infinity'],
    [{ capacity: '10', refillPerSec: 1 }, 'limit.capacity', '"10"'],
    [{ capacity: 10, refillPerSec: -1 }, 'limit.refillPerSec', '-1'],
    [{ capacity: 10 }, 'limit.refillPerSec', 'undefined'],
    [{ requests: 10, periodMs: 0 }, 'limit.periodMs', '0'],
    [{ requests: 10, periodMs: -5 }, 'limit.periodMs', '-5'],
    [{ requests: 10, periodMs: Number.NaN }, 'limit.periodMs', 'NaN'],
    [{ requests: 0 }, 'limit.requests', '0'],
    [{ requests: 10n }, 'limit.requests', '10n'],
    [{ capacity: 10, refillPerSec: 1, requests: 10 }, 'limit', 'mixes'],
    [{ requests: 10, refillPerSec: 1 }, 'limit', 'mixes'],
    [{ rate: 10 }, 'limit', 'unknown shape'],
    [{}, 'limit', 'unknown shape'],
    [[10, 1000], 'limit', 'array'],
    [10, 'limit', '10'],
    ['10/s', 'limit', '"10/s"'],
    [{ capacity: 1e308, refillPerSec: 1e-308 }, 'limit', 'overflow'],
  ])('RL-L3 refuses %o at %s naming %s', (limit, path, named) => {
    const r = normalizeLimit(limit);
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('invalid_parameters');
      expect(r.error.path).toBe(path);
      expect(r.error.message).toContain(named);
    }
  });
});

describe('validateCost, validateWaitBudget, validateSignal', () => {
  it('RL-A2 cost: finite >= 0, fractions fine', () => {
    expect(validateCost(0)).toEqual({ ok: true, value: 0 });
    expect(validateCost(0.1)).toEqual({ ok: true, value: 0.1 });
    for (const bad of [-1, Number.NaN, Infinity, -Infinity, '1', null, undefined, {}]) {
      const r = validateCost(bad, 'checks[2].cost');
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: 'invalid_parameters', path: 'checks[2].cost' });
    }
  });
  it('RL-W6 budget: finite > 0', () => {
    expect(validateWaitBudget(1)).toEqual({ ok: true, value: 1 });
    for (const bad of [0, -1, Number.NaN, Infinity, '100', null]) expect(validateWaitBudget(bad).ok).toBe(false);
  });
  it('signal: an AbortSignal or undefined', () => {
    expect(validateSignal(undefined)).toEqual({ ok: true, value: undefined });
    const s = new AbortController().signal;
    expect(validateSignal(s)).toEqual({ ok: true, value: s });
    for (const bad of [null, true, {}, { aborted: false }]) expect(validateSignal(bad).ok).toBe(false);
  });
});

describe('checksError: the first error of a list of checks, with its path', () => {
  const ip = { venue: 'binance', credential: null, axis: 'ip' };
  const limit = { requests: 10 };
  const keys = new KeyResolver();
  it('RL-M3 conflicting definitions of one key are invalid_parameters at the second one', () => {
    const e = checksError(
      [
        { key: ip, limit: { capacity: 1, refillPerSec: 1 }, cost: 1 },
        { key: ip, limit: { capacity: 5, refillPerSec: 1 }, cost: 1 },
      ],
      keys,
    );
    expect(e).toMatchObject({ code: 'invalid_parameters', path: 'checks[1].limit' });
    expect(
      checksError(
        [
          { key: ip, limit: null, cost: 1 },
          { key: ip, limit, cost: 1 },
        ],
        keys,
      ).path,
    ).toBe('checks[1].limit');
  });
  it('refuses an empty list, a non-array and bad entries with their path', () => {
    expect(checksError([], keys).path).toBe('checks');
    expect(checksError('x', keys).path).toBe('checks');
    expect(checksError([null], keys).path).toBe('checks[0]');
    expect(
      checksError(
        [
          { key: ip, limit, cost: 1 },
          { key: ip, limit, cost: -2 },
        ],
        keys,
      ).path,
    ).toBe('checks[1].cost');
    expect(checksError([{ key: ip, cost: 1 }], keys).path).toBe('checks[0].limit');
  });
  it('RL-F2 a list or a check that cannot be read is invalid_parameters', () => {
    const throwing = new Proxy([], {
      get: () => {
        throw new Error('boom');
      },
    });
    expect(checksError(throwing, keys)).toMatchObject({ code: 'invalid_parameters', path: 'checks' });
    const check = {
      get key(): never {
        throw new Error('boom');
      },
      limit,
      cost: 1,
    };
    expect(checksError([check], keys)).toMatchObject({ code: 'invalid_parameters', path: 'checks[0]' });
  });
});

describe('bucket ids', () => {
  it('decode without ambiguity and never hold a raw credential', () => {
    const hash = hashCredential(SECRET);
    for (const [venue, h, axis] of [
      ['okx', null, 'request'],
      ['a-b', hash, '-'],
      ['12:x', hash, 'trade/order:BTC-USDT'],
    ] as const) {
      const id = bucketId(venue, h, axis);
      expect(id).not.toContain(SECRET);
      expect(decodeBucketId(id)).toEqual({ venue, credentialHash: h, axis });
    }
    expect(bucketId('ab', null, 'c')).not.toBe(bucketId('a', null, 'bc'));
  });
});
