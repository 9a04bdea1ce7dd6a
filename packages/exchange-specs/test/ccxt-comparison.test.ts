// Every endpoint of the hand-authored specs against ccxt's cost for the same call (ccxt's own request and
// `calculateRateLimiterCost`, the pinned ccxt, no network), as checked in by `pnpm ccxt:compare`: the file
// must be current, and every call a spec paces faster than ccxt names the sources that justify it.
import { readFileSync } from 'node:fs';
import ccxtModule from 'ccxt';
import { describe, expect, it } from 'vitest';
import { type ComparisonRow, ccxtComparison } from '../scripts/ccxt-comparison.mjs';
import { CCXT_VERSION, type CcxtModule } from '../scripts/ccxt-harness.mjs';
import * as lib from '../src/index.js';

const read = <T>(path: string): T => JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as T;
const checkedIn = read<{ ccxtVersion: string; counts: Record<string, number>; rows: ComparisonRow[] }>('./generated/ccxt-comparison.json');
interface Justification {
  readonly venue: string;
  readonly endpoint: string;
  readonly confidence: 'documented' | 'observed' | 'uncertain';
  readonly why: string;
  readonly sources: readonly string[];
}
const table = read<{ justifications: readonly Justification[] }>('./fixtures/ccxt-faster-justifications.json');
const keyOf = (x: { venue: string; endpoint: string }) => `${x.venue} ${x.endpoint}`;

/** The calls faster than ccxt without a justification, and the justifications of no such call. */
function unjustified(rows: readonly ComparisonRow[], justifications: readonly Justification[]): { missing: string[]; stale: string[] } {
  const faster = new Set(rows.filter((r) => r.verdict === 'faster').map(keyOf));
  const named = new Set(justifications.map(keyOf));
  return { missing: [...faster].filter((k) => !named.has(k)), stale: [...named].filter((k) => !faster.has(k)) };
}

describe(`hand-authored specs against ccxt ${CCXT_VERSION}`, () => {
  it('the checked-in comparison is current (regenerate: pnpm build && pnpm ccxt:compare)', () => {
    expect(checkedIn.ccxtVersion).toBe(CCXT_VERSION);
    const now = ccxtComparison(ccxtModule as unknown as CcxtModule, lib);
    expect(now.length).toBeGreaterThan(900);
    expect(checkedIn.rows).toEqual(JSON.parse(JSON.stringify(now)));
    for (const [verdict, n] of Object.entries(checkedIn.counts)) expect(checkedIn.rows.filter((r) => r.verdict === verdict).length, verdict).toBe(n);
  }, 120_000);

  it('every call a spec paces faster than ccxt has a justification, and no justification outlives its call', () => {
    expect(unjustified(checkedIn.rows, table.justifications)).toEqual({ missing: [], stale: [] });
  });

  it('a new call faster than ccxt without a justification fails', () => {
    const row: ComparisonRow = { venue: 'kraken', endpoint: 'NewEndpoint', method: 'POST', path: '/0/private/NewEndpoint', verdict: 'faster' };
    expect(unjustified([...checkedIn.rows, row], table.justifications).missing).toEqual(['kraken NewEndpoint']);
  });

  it("each justification names sources the spec lists, with the date it read them, and the spec's numbers", () => {
    for (const j of table.justifications) {
      const spec = lib.handAuthoredSpecs.find((s) => s.id === j.venue);
      expect(spec, j.venue).toBeDefined();
      const listed = Object.values(spec?.sources ?? {}).map((s) => `${s.url} (read ${s.retrieved})`);
      expect(j.sources.length, keyOf(j)).toBeGreaterThan(0);
      for (const s of j.sources) expect(listed, keyOf(j)).toContain(s);
      const row = checkedIn.rows.find((r) => keyOf(r) === keyOf(j));
      expect(j.why, keyOf(j)).toContain(`(${row?.spec?.perSec}/s)`);
      expect(j.why, keyOf(j)).toContain(`(${row?.ccxt?.perSec}/s)`);
    }
  });

  it('no call is faster than ccxt on an uncertain number: each justification is documented or observed', () => {
    expect(table.justifications.filter((j) => j.confidence !== 'documented' && j.confidence !== 'observed').map(keyOf)).toEqual([]);
    expect(Object.keys(table)).not.toContain('pendingReview');
  });
});
