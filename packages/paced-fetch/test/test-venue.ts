import type { VenueSpec } from '@core/exchange-specs';

const p = { source: 'test', confidence: 'documented' } as const;

/**
 * A small venue for the client's tests: one IP weight bucket of 100 per 10 s (aligned windows),
 * a key bucket `orders` of 10 per 10 s charged with the IP weight by `POST /trade`, an `x-used-weight` usage header, 429 with Retry-After (seconds) that holds the bucket, and a
 * `/list` endpoint that costs one unit per returned item after the response.
 */
export const testVenue: VenueSpec = {
  id: 'testvenue',
  venue: 'Test',
  product: 'REST',
  origin: 'hand-authored',
  sources: { test: { url: 'https://example.invalid/limits', retrieved: '2026-11-30' } },
  buckets: [
    { id: 'weight', scope: 'ip', algorithm: 'fixed-window-aligned', limit: 100, windowMs: 10_000, provenance: p },
    { id: 'orders', scope: 'key', algorithm: 'fixed-window-aligned', limit: 10, windowMs: 10_000, provenance: p },
  ],
  endpoints: [
    { id: 'ping', method: 'GET', path: '/ping', auth: 'public', costs: [{ bucket: 'weight', cost: { kind: 'constant', value: 1 } }], provenance: p },
    { id: 'heavy', method: 'GET', path: '/heavy', auth: 'public', costs: [{ bucket: 'weight', cost: { kind: 'constant', value: 10 } }], provenance: p },
    { id: 'order', method: 'POST', path: '/order', auth: 'private', costs: [{ bucket: 'weight', cost: { kind: 'constant', value: 1 } }], provenance: p },
    {
      id: 'trade',
      method: 'POST',
      path: '/trade',
      auth: 'private',
      provenance: p,
      costs: [
        { bucket: 'weight', cost: { kind: 'constant', value: 1 } },
        { bucket: 'orders', cost: { kind: 'constant', value: 1 } },
      ],
    },
    {
      id: 'list',
      method: 'GET',
      path: '/list',
      auth: 'public',
      provenance: p,
      costs: [
        { bucket: 'weight', cost: { kind: 'constant', value: 1 } },
        { bucket: 'weight', cost: { kind: 'response', path: 'items', per: 1 } },
      ],
    },
  ],
  feedback: [{ header: 'x-used-weight', meaning: 'used', buckets: ['weight'], provenance: p }],
  errors: [
    {
      id: 'too-many',
      status: [429],
      verdict: 'rate_limited',
      counted: true,
      penalize: ['weight'],
      wait: [{ from: 'header', header: 'retry-after', unit: 's' }],
      provenance: p,
    },
  ],
};

/** The key of the test venue's weight bucket. */
export const weightKey = { venue: 'testvenue', credential: null, axis: 'weight' } as const;
