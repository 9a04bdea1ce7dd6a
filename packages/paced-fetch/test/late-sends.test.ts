import { afterEach, describe, expect, it } from 'vitest';
import type { RateLimiter } from '@core/rate-limit-contract';
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { ManualClock } from '@core/rate-limit-conformance';
import { createPacedFetch } from '../src/index.js';
import { FakeFetch, json } from './fake-fetch.js';
import { testVenue, weightKey } from './test-venue.js';

/**
 * Sends that may reach the venue later than a window limit's jitter allowance covers (the test venue's IP weight:
 * 100 per 10-s window, with the default 100 ms of jitter) are counted again; sends that surely did not are not.
 */
const URL_BASE = 'https://venue.invalid';
const limiters: RateLimiter[] = [];

afterEach(async () => {
  for (const l of limiters.splice(0)) await l.close();
});

/**
 * A limiter on a manual clock whose records are listed (their costs) before they are applied; with `lateMs`,
 * the clock moves that far between an admission and the fetch's send (a timer that fired late on a busy event loop).
 */
function recordingLimiter(lateMs = 0) {
  const clock = new ManualClock(1_000_000);
  const base = createDefaultRateLimiter({ clock });
  limiters.push(base);
  const recorded: number[] = [];
  const wrapped: RateLimiter = Object.create(base) as RateLimiter;
  Object.assign(wrapped, {
    waitForCapacity: async (...a: Parameters<RateLimiter['waitForCapacity']>) => {
      const d = await base.waitForCapacity(...a);
      if (lateMs > 0) await clock.advance(lateMs);
      return d;
    },
    sync: base.sync.bind(base),
    penalize: base.penalize.bind(base),
    record: (...a: Parameters<RateLimiter['record']>) => {
      recorded.push(a[1]);
      base.record(...a);
    },
  });
  return { clock, base, wrapped, recorded };
}

/** A paced fetch whose venue answers `answered(ms)`'s request after `ms` of its manual clock; `recorded` lists the records. */
function answeringAfter() {
  const { clock, wrapped, recorded } = recordingLimiter();
  let delay = 0;
  const fetch = async (): Promise<Response> => {
    if (delay > 0) await new Promise<void>((r) => clock.setTimer(r, delay));
    return new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } });
  };
  const paced = createPacedFetch({ venue: testVenue, identity: { credential: null }, limiter: wrapped, fetch, clock, windowBurst: false });
  const answered = async (ms: number): Promise<void> => {
    delay = ms;
    const p = paced(`${URL_BASE}/heavy`);
    await clock.whenTimers(1);
    await clock.advance(ms);
    await p;
  };
  return { answered, recorded };
}

describe('late sends and late answers on window limits', () => {
  it('a send that goes out later than admitted by more than half the jitter allowance is counted again from when it went out', async () => {
    for (const [late, records] of [
      [40, 0],
      [80, 1],
    ] as const) {
      // the clock moves `late` ms between the admission and the send (a timer that fired late)
      const { clock, wrapped, recorded, base } = recordingLimiter(late);
      const paced = createPacedFetch({
        venue: testVenue,
        identity: { credential: null },
        limiter: wrapped,
        fetch: new FakeFetch(json(200, {})).fetch,
        clock,
        windowBurst: false,
      });
      await paced(`${URL_BASE}/heavy`);
      expect(recorded, `${late} ms late`).toEqual(records === 0 ? [] : [10]);
      // (its admitted entry stays: a report may take it as counted by its time; the record never is)
      expect(await base.borrowed(weightKey)).toBe(records === 0 ? 10 : 20);
    }
  });

  it('an answer slower than the fastest by more than half the jitter allowance counts its send again; a new fastest judges the recent ones', async () => {
    const { answered, recorded } = answeringAfter();
    // a cold start: the first answers take 150 and 170 ms, the fastest seen so far (the allowance is 100 ms)
    await answered(150);
    await answered(170);
    expect(recorded).toEqual([]);
    // a 10 ms answer: the two before came 140 and 160 ms slower (more than 50 ms), so they may have arrived late
    await answered(10);
    expect(recorded).toEqual([10, 10]);
    // 30 ms: 20 ms slower than the fastest, within half the allowance (50 ms); 200 ms: counted again
    await answered(30);
    expect(recorded).toEqual([10, 10]);
    await answered(200);
    expect(recorded).toEqual([10, 10, 10]);
  });

  it('an answer within the whole jitter allowance of its admission reached the venue in time: never counted again, however slow against the fastest', async () => {
    const { answered, recorded } = answeringAfter();
    // the fastest answer takes 1 ms; the allowance is 100 ms, half of it 50 ms
    await answered(1);
    // 95 ms: 94 ms slower than the fastest, but the request reached the venue before its answer came, within 100 ms
    await answered(95);
    expect(recorded).toEqual([]);
    // 120 ms: beyond the allowance, it may have reached the venue late
    await answered(120);
    expect(recorded).toEqual([10]);
  });
});
