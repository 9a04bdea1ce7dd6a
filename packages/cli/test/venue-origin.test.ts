import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { listVenues } from '@core/exchange-specs';
import type { EmulatorStats } from '@core/venue-emulator';
import { main } from '../src/index.js';
import { summaryTable } from '../src/summary-table.js';
import { Sink } from './sink.js';

const outDir = mkdtempSync(join(tmpdir(), 'exlimits-origin-'));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out = new Sink();
  const err = new Sink();
  const code = await main(argv, { out, err });
  return { code, out: out.text, err: err.text };
}

describe("the CLI says whether a venue's limits are documented or estimated from ccxt", () => {
  it('--help lists the documented venues with their plain names, and how to ask for a ccxt estimate', async () => {
    const { code, out } = await run(['demo', '--help']);
    expect(code).toBe(0);
    const text = out.replace(/\s+/g, ' ');
    expect(text).toContain(
      "Documented limits (hand-authored from the venue's own documentation): binance-spot (also binance), binance-usdm (also binanceusdm), okx,",
    );
    for (const v of listVenues().filter((x) => x.evidence === 'documented')) expect(text).toContain(v.id);
    expect(text).toContain("estimated from ccxt (ccxt's own pacing, not documented limits;");
    expect(text).toContain('ccxt:<id> for the venues above (ccxt:binance)');
  });

  it('the summary heads the limit column by origin', () => {
    const stats = { buckets: [] } as unknown as EmulatorStats;
    expect(summaryTable(stats, 'documented')).toContain('documented limit');
    expect(summaryTable(stats, 'estimated from ccxt')).toContain('limit estimated from ccxt');
    expect(summaryTable(stats, 'estimated from ccxt')).not.toContain('documented');
  });

  it("--venue binance runs Binance spot's documented spec", { timeout: 60_000 }, async () => {
    const { code, out } = await run(['demo', '--venue', 'binance', '--seconds', '1', '--credentials', '1', '--out', outDir]);
    expect(code).toBe(0);
    expect(out).toContain('binance-spot: ');
    expect(out).toContain("limits: documented (Binance's own documentation, hand-authored)");
    expect(out).toContain('documented limit');
  });

  it("a ccxt-derived venue's limits are never called documented", { timeout: 60_000 }, async () => {
    const { code, out } = await run(['demo', '--venue', 'phemex', '--seconds', '1', '--credentials', '1', '--out', outDir]);
    expect(code).toBe(0);
    expect(out).toContain('limits: estimated from ccxt 4.5.84');
    expect(out).toContain('limit estimated from ccxt');
    expect(out).not.toContain('documented limit');
  });
});
