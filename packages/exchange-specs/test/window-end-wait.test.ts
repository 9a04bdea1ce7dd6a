import { describe, expect, it } from 'vitest';
import { interpretResponse, validateSpec, type VenueResponse, type VenueSpec, type WaitSource } from '../src/index.js';

const provenance = { source: 's', confidence: 'documented' } as const;

/** A venue whose 429 names its interval in the message and holds until that interval resets. */
function venue(wait: readonly WaitSource[], windowMs = 10_000): VenueSpec {
  return {
    id: 'interval-venue',
    venue: 'Interval',
    product: 'test',
    origin: 'hand-authored',
    sources: { s: { url: 'https://example.com/limits', retrieved: '2026-12-01' } },
    buckets: [{ id: 'b', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 10, windowMs, provenance }],
    endpoints: [{ id: 'e', method: 'GET', path: '/e', auth: 'public', costs: [{ bucket: 'b', cost: { kind: 'constant', value: 1 } }], provenance }],
    errors: [
      {
        id: 'interval',
        status: [429],
        body: [{ path: 'msg', contains: 'per DAY' }],
        verdict: 'rate_limited',
        counted: true,
        penalize: ['b'],
        wait,
        provenance,
      },
    ],
  };
}

function waitOf(spec: VenueSpec, response: Partial<VenueResponse>): number | undefined {
  const fb = interpretResponse(
    spec,
    { method: 'GET', path: '/e' },
    { status: 429, headers: {}, body: { msg: 'limit is 5 orders per DAY.' }, ...response },
    { credential: null },
  );
  const hold = fb.penalties[0]?.hold;
  return hold !== undefined && 'forMs' in hold ? hold.forMs : undefined;
}

const date = (iso: string) => new Date(iso).toUTCString();

describe('a window-end wait: until the clock-aligned interval resets', () => {
  const daily = venue([
    { from: 'header', header: 'retry-after', unit: 's' },
    { from: 'window-end', windowMs: 86_400_000 },
  ]);

  it('is the time left until 00:00 UTC for a day, read against the Date header', () => {
    expect(waitOf(daily, { headers: { date: date('2026-12-01T23:00:00Z') } })).toBe(3_600_000);
    expect(waitOf(daily, { headers: { date: date('2026-12-01T00:00:00Z') } })).toBe(86_400_000);
  });

  it('is the whole window without a Date header (the longest it can be)', () => {
    expect(waitOf(daily, {})).toBe(86_400_000);
  });

  it('comes after a venue-stated wait in the list: Retry-After wins when sent', () => {
    expect(waitOf(daily, { headers: { 'retry-after': '30', date: date('2026-12-01T23:00:00Z') } })).toBe(30_000);
  });

  it("adds a whole window when the interval can end inside the Date header's second (a window that is not whole seconds)", () => {
    // 1.5 s windows: the Date second 12:00:01 holds the boundary at 12:00:01.5; the next window may have begun.
    const odd = venue([{ from: 'window-end', windowMs: 1500 }], 1500);
    expect(waitOf(odd, { headers: { date: date('2026-12-01T12:00:01Z') } })).toBe(500 + 1500);
    expect(waitOf(odd, { headers: { date: date('2026-12-01T12:00:00Z') } })).toBe(1500);
  });

  it('the rule matches only when the message contains the text', () => {
    const fb = interpretResponse(
      daily,
      { method: 'GET', path: '/e' },
      { status: 429, headers: {}, body: { msg: 'limit is 5 orders per 10 SECOND.' } },
      { credential: null },
    );
    expect(fb.rule).toBeUndefined();
    expect(fb.penalties).toEqual([]);
  });
});

describe('validation of window-end waits and contains matches', () => {
  it('accepts them', () => {
    const r = validateSpec(venue([{ from: 'window-end', windowMs: 60_000 }]));
    expect(r.ok ? [] : r.errors).toEqual([]);
  });

  it('refuses a window-end without a positive windowMs and an empty contains', () => {
    const spec = venue([{ from: 'window-end', windowMs: 0 }]);
    const broken = { ...spec, errors: [{ ...spec.errors![0]!, body: [{ path: 'msg', contains: '' }] }] };
    const r = validateSpec(broken);
    expect(r.ok ? [] : r.errors.map((e) => e.path)).toEqual(['errors[0].body[0].contains', 'errors[0].wait[0].windowMs']);
  });
});
