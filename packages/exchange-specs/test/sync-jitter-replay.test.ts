import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import type { BucketKey } from '@core/rate-limit-contract';
import { describe, expect, it } from 'vitest';
import { bucketForTier, createBucketModel, getVenueSpec, interpretResponse, resolveRequest, type ModelResult, type WindowEnd } from '../src/index.js';
import { rng } from './helpers.js';
import { usageScenarios, type UsageScenario } from './sync-scenarios.js';

/**
 * Window limits synced to usage headers while every send reaches the venue anywhere within the jitter
 * allowance after its send time, and its answer comes back later still: the venue counts in arrival
 * order, another client spends part of the limit now and then, and every answer's usage header is
 * applied with its send time, its window's end (which bounds when the window began) and the own sends
 * certainly counted (RL-V5). The venue model must never refuse one of the limiter's sends.
 */
type Scenario = UsageScenario;

const scenarios = usageScenarios('1000');

interface InFlight {
  readonly sentAt: number;
  readonly arriveAt: number;
  answerAt: number;
  result?: ModelResult;
  venueNow?: number;
}

async function replay(
  s: Scenario,
  seed: number,
  others: boolean,
  syncing = true,
): Promise<{ ours: number; theirs: number; violations: number; windowMs: number; limit: number }> {
  const random = rng(seed);
  const spec = getVenueSpec(s.venue);
  const bucket = bucketForTier(spec.buckets.find((b) => b.id === s.bucket)!, spec.defaultTier);
  if (bucket.algorithm === 'token-bucket') throw new Error('window buckets only');
  const model = createBucketModel(bucket);
  const resolved = resolveRequest(spec, s.request, s.identity);
  if (!resolved.ok) throw new Error(resolved.error.message);
  const check = resolved.checks.find((c) => c.key.axis?.startsWith(s.bucket))!;
  const limit = check.limit;
  if (limit === null || !('perWindow' in limit)) throw new Error('expected a window limit');
  const jitter = limit.jitterMs ?? 0;
  const start = Date.UTC(2026, 10, 30, 12, 0, 0) + Math.floor(random() * bucket.windowMs);
  const clock = new ManualClock(start);
  const limiter = createDefaultRateLimiter({ clock });
  const flying: InFlight[] = [];
  // our answered sends, with the window end their own answers reported
  const answered: { sentAt: number; answeredAt: number; cost: number; end: WindowEnd | undefined; used: number | undefined }[] = [];
  const asSend = (a: (typeof answered)[number]) => ({
    sentAtMs: a.sentAt,
    cost: a.cost,
    ...(a.end === undefined ? {} : { windowEnd: a.end }),
    ...(a.used === undefined ? {} : { reportedUsed: a.used }),
  });
  let ours = 0;
  let theirs = 0;
  let violations = 0;
  const end = start + 4 * bucket.windowMs;
  try {
    while (clock.now() < end) {
      const now = clock.now();
      // arrivals at the venue, in arrival order
      for (const f of flying.filter((x) => x.result === undefined && x.arriveAt <= now).sort((a, b) => a.arriveAt - b.arriveAt)) {
        const r = model.consume(f.arriveAt, check.cost);
        if (!r.admitted) violations++;
        else ours += check.cost;
        f.result = r;
        f.venueNow = f.arriveAt;
      }
      // answers, in answer order
      for (const f of flying.filter((x) => x.result !== undefined && x.answerAt <= now).sort((a, b) => a.answerAt - b.answerAt)) {
        flying.splice(flying.indexOf(f), 1);
        const headers = s.headers(f.result!, f.venueNow!, bucket.limit);
        const own = {
          nowMs: now,
          sentAtMs: f.sentAt,
          usage: () => 0,
          answered: (_key: BucketKey, before: number) => answered.filter((a) => a.answeredAt < before).map(asSend),
          // answered while this one was on its way (every answer so far came before this one's)
          answeredMeanwhile: () => answered.filter((a) => a.answeredAt >= f.sentAt).map(asSend),
        };
        const fb = interpretResponse(spec, s.request, { status: f.result!.admitted ? 200 : 429, headers, body: {} }, s.identity, { own });
        let endOfThis: WindowEnd | undefined;
        let usedOfThis: number | undefined;
        for (const sync of syncing ? fb.syncs : []) {
          if (sync.key.axis !== check.key.axis) continue;
          endOfThis = sync.windowEnd;
          usedOfThis = sync.minBorrowed;
          const done = await limiter.sync(sync.key, sync.limit, sync.minBorrowed, {
            sentAtMs: f.sentAt,
            ...(sync.windowEnd === undefined ? {} : { windowEnd: sync.windowEnd }),
            ...(sync.countedOwnCost === undefined ? {} : { countedOwnCost: sync.countedOwnCost }),
          });
          expect(done.kind).toBe('ok');
        }
        answered.push({ sentAt: f.sentAt, answeredAt: now, cost: check.cost, end: endOfThis, used: usedOfThis });
      }
      // The other client: at the start, and now and then, a burst of up to a fifth of the limit, while
      // none of ours is on its way (no limiter can keep a send already on its way from meeting a burst
      // it could not know of); its last answer's usage header is applied at once, sent now.
      if (others && flying.length === 0 && (now === start || random() < 0.01)) {
        const burst = Math.ceil(random() * (bucket.limit / 5 / check.cost));
        let last: ModelResult | undefined;
        for (let i = 0; i < burst; i++) {
          const r = model.consume(now, check.cost);
          if (!r.admitted) break;
          theirs += check.cost;
          last = r;
        }
        const fb =
          last === undefined
            ? undefined
            : interpretResponse(spec, s.request, { status: 200, headers: s.headers(last, now, bucket.limit), body: {} }, s.identity);
        for (const sync of syncing && fb !== undefined ? fb.syncs : []) {
          if (sync.key.axis !== check.key.axis) continue;
          const done = await limiter.sync(sync.key, sync.limit, sync.minBorrowed, {
            sentAtMs: now,
            // a fixed window began by now − windowElapsedMs at the latest, so it ends a window after that at the latest
            ...(bucket.algorithm === 'sliding-window'
              ? {}
              : { windowEnd: { earliestMs: now, latestMs: Math.max(now, now - sync.windowElapsedMs! + bucket.windowMs) } }),
          });
          expect(done.kind).toBe('ok');
        }
      }
      const d = await limiter.checkRates([check]);
      let step = Math.max(1, Math.floor(random() * 7));
      if (d.kind === 'ok') {
        const arriveAt = now + random() * jitter;
        flying.push({ sentAt: now, arriveAt, answerAt: arriveAt + random() * 30 });
        if (random() < 0.5) step = 0;
      } else if (d.kind === 'delay') {
        step = Math.max(step, Math.min(d.retryAfterMs, 200));
      } else {
        throw new Error(d.kind === 'error' ? d.error.message : `a probe answered ${d.kind}`);
      }
      const next = Math.min(now + step, ...flying.map((f) => (f.result === undefined ? f.arriveAt : f.answerAt)).filter((t) => t > now));
      clock.set(step === 0 ? now : Math.max(now + 0.001, Math.min(next, now + step)));
    }
  } finally {
    await limiter.close();
  }
  return { ours, theirs, violations, windowMs: bucket.windowMs, limit: bucket.limit };
}

describe('window limits synced to usage headers, sends arriving anywhere within the jitter allowance', () => {
  it.each(scenarios.map((s) => [`${s.venue}/${s.bucket}`, s] as const))('%s: never refused, with another client spending and alone', async (_name, s) => {
    for (const seed of [1, 2, 3, 4]) {
      const shared = await replay(s, seed, true);
      expect(shared.theirs).toBeGreaterThan(0);
      expect(shared.violations, `seed ${seed}: ours ${shared.ours}, theirs ${shared.theirs}`).toBe(0);
      const alone = await replay(s, seed + 100, false);
      expect(alone.violations, `seed ${seed + 100} alone`).toBe(0);
      // Alone, the syncs hold the limiter back only by its own sends still on their way when a report
      // was sent and not yet answered when it was read (the venue may have counted them or not): here
      // whole windows go out in bursts of 50 ms, so that is part of each burst. A send answered meanwhile
      // whose own answer reported less of the same fixed window is taken as counted (0.83–0.89 of the
      // unsynced sends without that, 0.91–0.94 with it); the rest of the limit stays the limiter's.
      const unsynced = await replay(s, seed + 100, false, false);
      expect(unsynced.violations).toBe(0);
      expect(alone.ours, `seed ${seed + 100} alone: ${alone.ours} of ${unsynced.ours}`).toBeGreaterThanOrEqual(0.9 * unsynced.ours);
    }
  });
});
