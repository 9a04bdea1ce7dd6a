import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { handAuthoredSpecs } from '../src/hand-authored.js';
import { validateSpec, verificationRows, verificationTable } from '../src/index.js';

describe('verification of the hand-authored specs', () => {
  it('every hand-authored spec carries its verification, and so a quote on every provenance', () => {
    for (const spec of handAuthoredSpecs) {
      expect(spec.verification, spec.id).toBeDefined();
      expect(validateSpec(spec).ok, spec.id).toBe(true);
    }
    for (const row of verificationRows()) expect(row.quoted, row.id).toBe(row.documented + row.observed + row.uncertain);
  });

  it('the README holds the current verification table (regenerate: pnpm build && pnpm readme:verification)', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const start = readme.indexOf('<!-- verification-table:start');
    const end = readme.indexOf('<!-- verification-table:end -->');
    expect(start).toBeGreaterThan(0);
    expect(readme.slice(readme.indexOf('\n', start) + 1, end).trimEnd()).toBe(verificationTable());
  });
});
