import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import { describe, expect, it } from 'vitest';
import {
  bucketForTier,
  createBucketModel,
  getVenueSpec,
  interpretResponse,
  resolveRequest,
  type ModelResult,
  type VenueSpec,
  type WindowEnd,
} from '../src/index.js';
import { rng } from './helpers.js';
import { usageScenarios, type UsageScenario } from './sync-scenarios.js';

type Scenario = UsageScenario;

const scenarios = usageScenarios('500');

/**
 * Another client of the same account or IP spends part of the venue's limit behind the limiter's
 * back; every response it gets reports the venue's usage, which is fed to `limiter.sync`. The
 * limiter's own requests must still never be refused by the venue model.
 */
interface ReplayOptions {
  /** Whether another client spends the same limit (default true). */
  readonly others?: boolean;
  /** Whether the limiter is synced to the usage headers at all (default true). */
  readonly sync?: boolean;
  /**
   * Whether the limiter learns our own share of the usage, as paced-fetch does (default true): token
   * buckets through interpretResponse's `own`, window limits through `sync`'s `sentAtMs` (the store
   * knows what it admitted).
   */
  readonly own?: boolean;
  /** Enforce the venue's window as a window limit (default) or as a token bucket. */
  readonly windows?: boolean;
}

async function replay(spec: VenueSpec, s: Scenario, seed: number, options: ReplayOptions = {}): Promise<{ ours: number; theirs: number; violations: number }> {
  const random = rng(seed);
  const bucket = spec.buckets.find((b) => b.id === s.bucket)!;
  const venueBucket = bucketForTier(bucket, spec.defaultTier);
  if (venueBucket.algorithm === 'token-bucket') throw new Error('window buckets only');
  const model = createBucketModel(venueBucket);
  const resolveOptions = { windowLimits: options.windows !== false };
  const resolved = resolveRequest(spec, s.request, s.identity, resolveOptions);
  if (!resolved.ok) throw new Error(resolved.error.message);
  const check = resolved.checks.find((c) => c.key.axis?.startsWith(s.bucket))!;
  const start = Date.UTC(2026, 10, 30, 12, 0, 0) + Math.floor(random() * venueBucket.windowMs);
  const clock = new ManualClock(start);
  const limiter = createDefaultRateLimiter({ clock });
  // Our own admitted requests (each answered at once, so counted before any later response), with
  // the window end their own answers reported.
  const log: { at: number; cost: number; end: WindowEnd | undefined }[] = [];
  const own = {
    nowMs: 0,
    usage: (_key: unknown, since: number) => log.filter((e) => e.at > since).reduce((a, e) => a + e.cost, 0),
    answered: (_key: unknown, before: number) =>
      log.filter((e) => e.at <= before).map((e) => ({ sentAtMs: e.at, cost: e.cost, ...(e.end === undefined ? {} : { windowEnd: e.end }) })),
  };
  let lastEnd: WindowEnd | undefined;
  const feed = async (r: ModelResult, mine: boolean): Promise<void> => {
    if (options.sync === false) return;
    const aware = options.own !== false;
    const fb = interpretResponse(spec, s.request, { status: 200, headers: s.headers(r, clock.now(), venueBucket.limit), body: {} }, s.identity, {
      ...resolveOptions,
      ...(aware ? { own: mine ? { ...own, nowMs: clock.now(), sentAtMs: clock.now() } : { ...own, nowMs: clock.now() } } : {}),
    });
    for (const sync of fb.syncs) {
      // a window limit: the reporting request was sent (and answered) now
      const sentAtMs = clock.now();
      if (mine) lastEnd = sync.windowEnd;
      const opts =
        aware && sync.windowElapsedMs !== undefined
          ? {
              sentAtMs,
              // a fixed window's end as the answer tells it (it bounds when the window began)
              ...(sync.windowEnd === undefined ? {} : { windowEnd: sync.windowEnd }),
              ...(sync.countedOwnCost === undefined ? {} : { countedOwnCost: sync.countedOwnCost }),
            }
          : undefined;
      const done = await limiter.sync(sync.key, sync.limit, sync.minBorrowed, opts);
      expect(done.kind).toBe('ok');
    }
  };
  let ours = 0;
  let theirs = 0;
  let violations = 0;
  try {
    while (clock.now() < start + 4 * venueBucket.windowMs) {
      // The other client: at the start, then now and then, a burst of up to a fifth of the limit.
      if (options.others !== false && (clock.now() === start || random() < 0.05)) {
        const burst = Math.ceil(random() * (venueBucket.limit / 5 / check.cost));
        for (let i = 0; i < burst; i++) {
          const r = model.consume(clock.now(), check.cost);
          if (!r.admitted) break;
          theirs += check.cost;
          await feed(r, false);
        }
      }
      const d = await limiter.checkRates([check]);
      if (d.kind === 'ok') {
        const r = model.consume(clock.now(), check.cost);
        if (!r.admitted) violations++;
        else {
          ours += check.cost;
          lastEnd = undefined;
          await feed(r, true);
          log.push({ at: clock.now(), cost: check.cost, end: lastEnd });
        }
      } else if (d.kind === 'delay') {
        clock.set(clock.now() + Math.min(d.retryAfterMs, Math.ceil(venueBucket.windowMs / 20)));
      } else {
        throw new Error(d.kind === 'error' ? d.error.message : `a probe answered ${d.kind}`);
      }
    }
  } finally {
    await limiter.close();
  }
  return { ours, theirs, violations };
}

const MODES = [
  ['window limits', true],
  ['token buckets', false],
] as const;

describe.each(MODES)('sync replay (%s): usage headers keep the limiter inside what another client left', (_mode, windows) => {
  it.each(scenarios.map((s) => [`${s.venue}/${s.bucket}`, s] as const))('%s', async (_name, s) => {
    const spec = getVenueSpec(s.venue);
    for (const seed of [11, 12, 13]) {
      const blind = await replay(spec, s, seed, { own: false, windows });
      expect(blind.violations, `seed ${seed} without our own share`).toBe(0);
      const r = await replay(spec, s, seed, { windows });
      expect(r.theirs).toBeGreaterThan(0);
      expect(r.ours).toBeGreaterThan(0);
      expect(r.violations, `seed ${seed}: ours ${r.ours}, theirs ${r.theirs}`).toBe(0);
    }
  });

  it.each(scenarios.map((s) => [`${s.venue}/${s.bucket}`, s] as const))('%s: alone on the account, the syncs cost no utilization', async (_name, s) => {
    const spec = getVenueSpec(s.venue);
    for (const seed of [21, 22]) {
      const unsynced = await replay(spec, s, seed, { others: false, sync: false, windows });
      const synced = await replay(spec, s, seed, { others: false, windows });
      expect(synced.violations).toBe(0);
      expect(synced.ours, `seed ${seed}`).toBeGreaterThanOrEqual(unsynced.ours * 0.99);
    }
  });

  it('without our own share a sliding window is held back by our own usage (why paced-fetch passes it)', async () => {
    const s = scenarios.find((x) => x.venue === 'bybit')!;
    const spec = getVenueSpec(s.venue);
    const blind = await replay(spec, s, 31, { others: false, own: false, windows });
    const aware = await replay(spec, s, 31, { others: false, windows });
    expect(blind.ours).toBeLessThan(aware.ours * 0.8);
  });

  it('without the syncs the same workload is refused by the venue (the test can fail)', async () => {
    const s = scenarios[0]!;
    const spec = getVenueSpec(s.venue);
    const bucket = spec.buckets.find((b) => b.id === s.bucket)!;
    if (bucket.algorithm === 'token-bucket') throw new Error('window bucket expected');
    const model = createBucketModel(bucket);
    const resolved = resolveRequest(spec, s.request, s.identity, { windowLimits: false });
    if (!resolved.ok) throw new Error(resolved.error.message);
    const check = resolved.checks.find((c) => c.key.axis === s.bucket)!;
    const start = Date.UTC(2026, 10, 30, 12, 0, 0);
    const clock = new ManualClock(start);
    const limiter = createDefaultRateLimiter({ clock });
    // The other client spends 99 % of the minute first; the limiter, unsynced, bursts its capacity (115.2 > 60).
    for (let used = 0; used + check.cost <= bucket.limit * 0.99; used += check.cost) model.consume(clock.now(), check.cost);
    let violations = 0;
    for (let i = 0; i < 100; i++) {
      const d = await limiter.checkRates([check]);
      if (d.kind !== 'ok') break;
      if (!model.consume(clock.now(), check.cost).admitted) violations++;
    }
    await limiter.close();
    expect(violations).toBeGreaterThan(0);
  });
});
