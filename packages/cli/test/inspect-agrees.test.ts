// The budget panel never contradicts the demo's summary of the same run. What `inspect` reads as counted in
// each window, averaged over the run, is the demo's utilization of that limit plus the limiter's records
// (a send counted again because its answer came back late, which a loaded machine makes common): less
// the records this test saw, it agrees with the venue's count within a few points, in process and on Redis.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BucketKey, RateLimiter } from '@core/rate-limit-contract';
import { DEFAULT_MARGIN } from '@core/exchange-specs';
import { inspectBuckets, main, runDemo, type DemoReport, type InspectedBucket } from '../src/index.js';
import { DEMO_PREFIX } from '../src/connect-redis.js';
import { startTestRedis, type TestRedis } from './redis-server.js';
import { Sink } from './sink.js';

const SECONDS = 10;
/** How far the panel's average may lie from the demo's utilization: a few points. */
const POINTS = 0.05;
const SAMPLE_MS = 100;
const outDir = mkdtempSync(join(tmpdir(), 'exlimits-agrees-'));

interface Sample {
  readonly at: number;
  readonly buckets: readonly InspectedBucket[];
}

/** A record the workers made on the limiter: when, on which axis and credential, at what cost. */
interface Recorded {
  readonly at: number;
  readonly axis: string;
  readonly credential: string | null;
  readonly cost: number;
}

/** Keeps every `record` the workers make on the run's limiter (they call the object the demo hands out). */
function watchRecords(limiter: RateLimiter, into: Recorded[]): void {
  const record = limiter.record.bind(limiter);
  Object.assign(limiter, {
    record: (key: BucketKey, cost: number, ...rest: unknown[]) => {
      into.push({ at: Date.now(), axis: key.axis ?? 'request', credential: key.credential ?? null, cost });
      return (record as (...a: unknown[]) => unknown)(key, cost, ...rest);
    },
  });
}

interface Compared {
  readonly row: string;
  /** The panel's counted share, averaged. */
  readonly counted: number;
  /** The same, less the records made in each sample's window. */
  readonly sends: number;
  readonly most: number;
  /** The venue's count of the same windows over its limit: the demo's utilization of them. */
  readonly demo: number;
  /**
   * How far the two may lie apart: a few points, or two requests of the limit where a request is more than a
   * few points (10 per window: a send booked at a window's edge reaches the venue in either window).
   */
  readonly tolerance: number;
}

/** How close to a window's end a sample must be to stand for it: a tenth of the window (its count is then off by at most a tenth). */
const CLOSE_BY = 10;

/** The sample nearest to `at`, if one lies within `within` ms of it. */
function nearest(samples: readonly Sample[], at: number, within: number): Sample | undefined {
  let best: Sample | undefined;
  for (const s of samples) if (Math.abs(s.at - at) <= within && (best === undefined || Math.abs(s.at - at) < Math.abs(best.at - at))) best = s;
  return best;
}

/**
 * For every window limit the demo measured, over the venue's complete windows that a sample closes (the
 * nearest sample within a tenth of the window of its end): the panel's `countedShare` of that sample, with
 * and without the records made in its window, against the venue's count of the same window; and the most
 * per window the panel showed.
 */
function compare(report: DemoReport, samples: readonly Sample[], records: readonly Recorded[]): Compared[] {
  const out: Compared[] = [];
  for (const b of report.stats.buckets) {
    if (b.algorithm === 'token-bucket' || b.utilization === null) continue;
    const rowOf = (s: Sample): InspectedBucket | undefined =>
      s.buckets.find((r) => r.axis === b.axis && (r.credentialHash?.slice(0, 12) ?? null) === b.credentialHash);
    const first = b.windows[0]?.startMs ?? 0;
    const complete = b.windows.filter((w) => w.startMs >= first && w.endMs <= report.stats.nowMs);
    // one credential: a record with a credential is on its bucket, one without on the IP's
    const mine = records.filter((r) => r.axis === b.axis && (r.credential === null) === (b.credentialHash === null));
    let most = 0;
    let venue = 0;
    let counted = 0;
    let sends = 0;
    let n = 0;
    for (const w of complete) {
      const s = nearest(samples, w.endMs, b.windowMs / CLOSE_BY);
      if (s === undefined) continue;
      const row = rowOf(s);
      most = Math.max(most, row?.mostPerWindow ?? 0);
      const c = row?.countedShare ?? 0;
      const again = mine.filter((r) => r.at > s.at - b.windowMs && r.at <= s.at).reduce((a, r) => a + r.cost, 0) / b.limit;
      venue += w.cost / b.limit;
      counted += c;
      sends += c - again;
      n++;
    }
    // a busy event loop may space samples out, but some window has one at its end
    expect(n, `${b.axis}: windows closed by a sample, of ${complete.length}`).toBeGreaterThan(0);
    out.push({
      row: `${b.axis} ${b.credentialHash ?? 'IP'}`,
      counted: counted / n,
      sends: sends / n,
      most,
      demo: venue / n,
      tolerance: Math.max(POINTS, 2 / b.limit),
    });
  }
  return out;
}

function expectAgreement(rows: readonly Compared[]): void {
  const p = (x: number): string => `${(x * 100).toFixed(1)}%`.padStart(6);
  console.log(
    rows.map((r) => `  ${r.row.padEnd(42)} counted ${p(r.counted)}  less records ${p(r.sends)}  demo ${p(r.demo)}  most per window ${p(r.most)}`).join('\n'),
  );
  expect(rows.length).toBeGreaterThanOrEqual(5);
  for (const r of rows) {
    // the panel's sends are the venue's count, within a few points
    expect(Math.abs(r.sends - r.demo), `${r.row}: panel less records ${r.sends}, demo ${r.demo}`).toBeLessThanOrEqual(r.tolerance);
    // the panel never shows less than the venue counted, nor a ceiling below it
    expect(r.counted, `${r.row}: counted ${r.counted}, demo ${r.demo}`).toBeGreaterThanOrEqual(r.demo - POINTS);
    expect(r.most, `${r.row}: most per window ${r.most}, demo ${r.demo}`).toBeGreaterThanOrEqual(r.demo - POINTS);
  }
}

describe('inspect agrees with the demo it watches', () => {
  it('in process: the panel of the demo’s own limiter', { timeout: 90_000 }, async () => {
    let limiter: RateLimiter | undefined;
    const samples: Sample[] = [];
    const records: Recorded[] = [];
    let done = false;
    const run = runDemo({
      venue: 'okx',
      seconds: SECONDS,
      credentials: 1,
      outDir,
      margin: DEFAULT_MARGIN,
      out: new Sink(),
      onLimiter: (l) => {
        limiter = l;
        watchRecords(l, records);
      },
    }).finally(() => {
      done = true;
    });
    while (!done) {
      const snapshot = limiter === undefined ? [] : await limiter.snapshot();
      if (!done && Array.isArray(snapshot)) samples.push({ at: Date.now(), buckets: inspectBuckets(snapshot, Date.now()) });
      await new Promise((r) => setTimeout(r, SAMPLE_MS));
    }
    const report = await run;
    expect(report.failure).toBeUndefined();
    expectAgreement(compare(report, samples, records));
  });

  describe('on Redis: inspect --json in its own connection', () => {
    let redis: TestRedis;
    beforeAll(async () => {
      redis = await startTestRedis();
    });
    afterAll(async () => {
      await redis?.stop();
    });

    it('every window limit: the panel’s counted share averaged over the run, less records, is the demo’s utilization', { timeout: 90_000 }, async () => {
      const out = new Sink();
      const records: Recorded[] = [];
      const stop = new AbortController();
      const run = runDemo({
        venue: 'okx',
        seconds: SECONDS,
        credentials: 1,
        outDir,
        margin: DEFAULT_MARGIN,
        redisUrl: redis.url,
        out: new Sink(),
        onLimiter: (l) => watchRecords(l, records),
      });
      const panel = main(['inspect', '--redis', redis.url, '--prefix', DEMO_PREFIX, '--json', '--interval', String(SAMPLE_MS)], {
        out,
        err: new Sink(),
        signal: stop.signal,
      });
      const report = await run;
      stop.abort();
      expect(await panel).toBe(0);
      expect(report.failure).toBeUndefined();
      const samples = out.text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { at: string; buckets: InspectedBucket[] })
        .map((s) => ({ at: Date.parse(s.at), buckets: s.buckets }));
      expectAgreement(compare(report, samples, records));
    });
  });
});
