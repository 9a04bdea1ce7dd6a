import { describe, expect, it } from 'vitest';
import { unpayableError } from '../src/messages.js';
import type { ResolvedKey } from '../src/key-resolver.js';

const key = { venue: 'binance', credentialHash: null, axis: 'orders' } as unknown as ResolvedKey;

describe('cost_unpayable messages (RL-A7, RL-V3)', () => {
  it('a window limit whose wait cannot be represented speaks of perWindow per windowMs, never of a refill', () => {
    // a window limit's definition carries perWindow as its capacity and perWindow / windowMs as its refill
    const { message } = unpayableError('cost', key, 1, 5, (5 * 1000) / 1e17, 'horizon', 0, 1e17);
    expect(message).not.toMatch(/refill/);
    expect(message).toContain('at 5 per 100000000000000000 ms');
    expect(message).toMatch(/cannot|exceed what the limiter can represent/);
    expect(message).toContain('binance/orders');
  });

  it('a token bucket whose wait cannot be represented still speaks of its refill', () => {
    const { message } = unpayableError('checks[1]', key, 1e308, 10, 1, 'horizon', 0);
    expect(message).toBe(
      'checks[1]: cost 1e+308 can never be paid on binance/orders: at a refill of 1/s its wait would exceed what the limiter can represent (1e15 ms, about 31,700 years)',
    );
  });
});
