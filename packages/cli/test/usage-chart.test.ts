import { describe, expect, it } from 'vitest';
import type { BucketUsage } from '@core/venue-emulator';
import { formatTable, renderUsageChart } from '../src/index.js';

const bucket = (over: Partial<BucketUsage>): BucketUsage => ({
  bucketId: 'market/books',
  axis: 'market/books',
  credentialHash: null,
  algorithm: 'sliding-window',
  limit: 40,
  windowMs: 2000,
  admittedCost: 70,
  admittedRequests: 70,
  refusals: 0,
  peakUsed: 36,
  utilization: 0.875,
  windows: [
    { startMs: 0, endMs: 2000, cost: 36, peakUsed: 36 },
    { startMs: 2000, endMs: 4000, cost: 34, peakUsed: 34 },
  ],
  ...over,
});

describe('renderUsageChart', () => {
  it('draws one panel per bucket, a bar per window and the limit line; bars over the limit are red', () => {
    const svg = renderUsageChart('okx <demo>', [
      bucket({}),
      bucket({ bucketId: 'x', axis: 'x', windows: [{ startMs: 0, endMs: 2000, cost: 41, peakUsed: 41 }] }),
    ]);
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    expect(svg).toContain('okx &lt;demo&gt;');
    expect(svg.match(/<rect x=/g)).toHaveLength(3);
    expect(svg.match(/fill="#d62728"/g)).toHaveLength(1);
    expect(svg).toContain('40 per 2 s (sliding-window); 87.5% per complete window');
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true);
  });
});

describe('formatTable', () => {
  it('pads columns and right-aligns numbers', () => {
    expect(
      formatTable(
        ['name', 'n'],
        [
          ['a', '1'],
          ['bbb', '22'],
        ],
      ),
    ).toBe('name   n\n----  --\na      1\nbbb   22');
  });
});
