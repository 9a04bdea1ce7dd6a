import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_MARGIN } from '@core/exchange-specs';
import { runDemo } from '../src/index.js';
import { Sink } from './sink.js';

const SECONDS = 3;
const outDir = mkdtempSync(join(tmpdir(), 'exlimits-demo-deriv-'));

describe('zero refusals from the emulated derivatives venues at full speed, in process', () => {
  for (const venue of ['kucoin-futures', 'kucoin-unified', 'kraken-futures', 'htx-swap']) {
    it(`${venue}: every request sent is admitted by the venue`, { timeout: 60_000 }, async () => {
      const report = await runDemo({ venue, seconds: SECONDS, credentials: 3, outDir, margin: DEFAULT_MARGIN, out: new Sink() });
      expect(report.failure).toBeUndefined();
      expect(report.counts.sent).toBeGreaterThan(0);
      expect(report.stats.admitted).toBeGreaterThan(0);
      expect(report.stats.violations).toBe(0);
      expect(report.stats.refusedWhileBanned).toBe(0);
      expect(report.stats.bans).toBe(0);
      expect(report.counts.refused).toBe(0);
      // every bucket the lanes touch was driven: each saw traffic
      expect(report.stats.buckets.every((b) => b.peakUsed > 0)).toBe(true);
    });
  }
});
