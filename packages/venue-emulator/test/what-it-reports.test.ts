import { afterEach, describe, expect, it } from 'vitest';
import { getVenueSpec } from '@core/exchange-specs';
import { startVenueEmulator, type VenueEmulator } from '../src/index.js';
import { ManualEpochClock } from './manual-epoch-clock.js';

let venue: VenueEmulator | undefined;
afterEach(async () => {
  await venue?.close();
  venue = undefined;
});

const KEY = { 'api-key': 'kraken-test-key' };

/** Kraken's private REST counter: a token bucket of 15 refilled at 0.33 per second. */
async function balance(): Promise<number> {
  const res = await fetch(`${venue!.url}/0/private/Balance`, {
    method: 'POST',
    headers: { ...KEY, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'nonce=1',
  });
  await res.text();
  return res.status;
}

describe('utilization of a token bucket', () => {
  it('is n/a (null) while the run is shorter than one refill period, never 0 or above 100 %', async () => {
    const clock = new ManualEpochClock(1_800_000_000_000);
    venue = await startVenueEmulator({ spec: getVenueSpec('kraken'), clock });
    for (let i = 0; i < 5; i++) {
      expect(await balance()).toBe(200);
      clock.advance(1000);
    }
    const counter = () => venue!.stats().buckets.find((b) => b.bucketId === 'rest-counter');
    // 5 s into a bucket that takes 15 / 0.33 = 45.5 s to refill: the initial burst is all there is
    expect(counter()?.utilization).toBeNull();
    clock.advance(50_000);
    // 55 s after the first request: 5 admitted of 15 + 0.33 × 55 allowed
    expect(counter()?.utilization).toBeCloseTo(5 / (15 + 0.33 * 55), 9);
  });
});

describe('a private endpoint without an API key', () => {
  it('is refused with a message that names the header to send the key in', async () => {
    venue = await startVenueEmulator({ spec: getVenueSpec('okx') });
    const res = await fetch(`${venue.url}/api/v5/account/balance`);
    const body = (await res.json()) as { code: string; msg: string };
    expect(res.status).toBe(400);
    expect(body.code).toBe('50103');
    expect(body.msg).toContain('send the API key in the "ok-access-key" header');
  });
});
