import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { venueTable } from '../src/index.js';

describe('README', () => {
  it('holds the current venue table (regenerate: pnpm build && pnpm readme:table)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('<!-- venue-table:start');
    const end = readme.indexOf('<!-- venue-table:end -->');
    expect(start).toBeGreaterThan(0);
    const table = readme.slice(readme.indexOf('\n', start) + 1, end).trimEnd();
    expect(table).toBe(venueTable());
  });
});
