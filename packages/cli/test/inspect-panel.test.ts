// The budget panel shows what the venue would count: each limit against the tier in force, its most per
// window with the demo's arithmetic, what it counts now, and no internal pacing bucket as a limit.
import { describe, expect, it } from 'vitest';
import type { BucketSnapshot } from '@core/rate-limit-contract';
import { bucketTable, inspectBuckets } from '../src/index.js';
import { exlimitsCommand } from '../src/invocation.js';

const hash = 'ab'.repeat(32);
// OKX's trade/order as the paced client keeps it: a window limit of 60 per 2 s with 100 ms of jitter, 57 counted
const orders: BucketSnapshot = {
  venue: 'okx',
  credentialHash: hash,
  axis: 'trade/order:BTC-USDT',
  capacity: 60,
  refillPerSec: 30,
  tokens: 0,
  borrowed: 60,
  windowMs: 2000,
  jitterMs: 100,
  counted: 57,
};
// its pacing bucket (paced-fetch's withWindowPacing)
const ordersPace: BucketSnapshot = {
  venue: 'okx',
  credentialHash: hash,
  axis: 'trade/order:BTC-USDT/pace',
  capacity: 3,
  refillPerSec: 30,
  tokens: 1,
  borrowed: 2,
};
// OKX's sub-account order limit: 1000 per 2 s by default, more on higher tiers
const subaccount: BucketSnapshot = {
  venue: 'okx',
  credentialHash: hash,
  axis: 'subaccount-orders',
  capacity: 1000,
  refillPerSec: 500,
  tokens: 950,
  borrowed: 50,
  windowMs: 2000,
  jitterMs: 100,
  counted: 50,
};

describe('inspect: window limits as the venue counts them', () => {
  it("a window limit's most per window is its share less the jitter allowance (95.2 % of 2 s), never 200 %", () => {
    const [row] = inspectBuckets([orders], 0);
    expect(row?.mostPerWindow).toBeCloseTo(2000 / 2100, 9);
    expect(row?.countedShare).toBeCloseTo(57 / 60, 9);
    expect(row?.now).toBe('full');
    const line = bucketTable([orders], 0).split('\n')[2] ?? '';
    expect(line).toContain('60 / 2 s sliding');
    expect(line).toContain('60 / 2 s +100 ms');
    expect(line).toMatch(/95\.2%\s+95\.0%\s+full/);
    expect(bucketTable([orders], 0)).not.toMatch(/\d{3,}\.\d%/);
  });

  it('the tier in force: the default tier whose limit the limiter keeps, not a higher one', () => {
    const [row] = inspectBuckets([subaccount], 0);
    expect(row?.documentedLimit).toBe('1000 / 2 s sliding');
    expect(row?.tier).toBeUndefined();
    expect(row?.mostPerWindow).toBeCloseTo(2000 / 2100, 9);
    // a limiter kept at a higher tier's limit is set against that tier
    const higher = inspectBuckets([{ ...subaccount, capacity: 2000, refillPerSec: 1000 }], 0)[0];
    expect(higher?.tier).toBeDefined();
    expect(higher?.mostPerWindow).toBeCloseTo(2000 / 2100, 9);
  });

  it('a pacing bucket is no row of its own: it is grouped under the limit it paces', () => {
    const rows = inspectBuckets([ordersPace, orders], 0);
    expect(rows.map((r) => r.axis)).toEqual(['trade/order:BTC-USDT']);
    expect(rows[0]?.pacing).toEqual({ axis: 'trade/order:BTC-USDT/pace', capacity: 3, refillPerSec: 30, tokens: 1, borrowed: 2 });
    const table = bucketTable([ordersPace, orders], 0);
    expect(table).not.toContain('/pace');
    expect(table).not.toContain('not in exchange-specs');
  });
});

describe("the demo's hint to watch it", () => {
  it('names a command that runs where the demo ran: node and the bin in a clone, npx when installed', () => {
    const inClone = 'file:///home/me/repo/packages/cli/dist/invocation.js';
    expect(exlimitsCommand('/home/me/repo', inClone)).toBe('node packages/cli/bin/cli.mjs');
    expect(exlimitsCommand('/home/me/repo/packages/cli', inClone)).toBe('node bin/cli.mjs');
    expect(exlimitsCommand('/home/me/bot', 'file:///home/me/bot/node_modules/@core/cli/dist/invocation.js')).toBe('npx exlimits');
  });
});
