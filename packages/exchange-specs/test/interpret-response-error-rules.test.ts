// interpretResponse's error rules: text that contains a phrase, and waits read out of an error string.
import { describe, expect, it } from 'vitest';
import { interpretResponse, validateSpec, type VenueResponse, type VenueSpec } from '../src/index.js';
import { publicId } from './helpers.js';

describe('error rules: text that contains a phrase, and waits read out of an error string', () => {
  const provenance = { source: 'doc', confidence: 'documented' } as const;
  /** A one-bucket venue with the given error rules. */
  const venue = (errors: NonNullable<VenueSpec['errors']>): VenueSpec => ({
    id: 'test-venue',
    venue: 'Test',
    product: 'REST',
    origin: 'hand-authored',
    sources: { doc: { url: 'https://example.com/limits', retrieved: '2026-12-01' } },
    buckets: [{ id: 'ip', scope: 'ip', algorithm: 'sliding-window', limit: 10, windowMs: 1000, provenance }],
    endpoints: [{ id: 'x', method: 'GET', path: '/x', auth: 'public', costs: [{ bucket: 'ip', cost: { kind: 'constant', value: 1 } }], provenance }],
    errors,
  });
  const at = Date.UTC(2026, 11, 1, 12, 0, 0);
  const respond = (spec: VenueSpec, response: Partial<VenueResponse>) =>
    interpretResponse(spec, { method: 'GET', path: '/x' }, { status: 200, headers: {}, body: {}, ...response }, publicId);

  it('contains matches a text body, or a field, ignoring case; a JSON object body is not text', () => {
    const spec = venue([
      {
        id: 'ban',
        status: [403],
        body: [{ path: '', contains: 'Access Too Frequent' }],
        verdict: 'banned',
        counted: true,
        penalize: ['ip'],
        wait: [{ from: 'fixed', ms: 600_000 }],
        provenance,
      },
    ]);
    expect(respond(spec, { status: 403, body: '<html>403: access too frequent</html>' })).toMatchObject({ verdict: 'banned', retryAfterMs: 600_000 });
    expect(respond(spec, { status: 403, body: 'forbidden' }).verdict).toBe('error');
    expect(respond(spec, { status: 403, body: { msg: 'access too frequent' } }).verdict).toBe('error');
    const field = venue([{ id: 'f', body: [{ path: 'msg', contains: 'too frequent' }], verdict: 'rate_limited', counted: true, provenance }]);
    expect(respond(field, { body: { msg: 'Requests TOO FREQUENT' } }).verdict).toBe('rate_limited');
  });

  it('a body pattern reads an epoch in seconds out of an error string (in an array) against the Date header', () => {
    const spec = venue([
      {
        id: 'throttled',
        body: [{ path: 'error', startsWith: 'EService' }],
        verdict: 'rate_limited',
        counted: true,
        penalize: ['ip'],
        wait: [
          { from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: (\\d+)' },
          { from: 'fixed', ms: 5000 },
        ],
        provenance,
      },
    ]);
    const date = new Date(at).toUTCString();
    const fb = respond(spec, { headers: { date }, body: { error: ['EGeneral:Other', `EService: Throttled: ${at / 1000 + 12}`] } });
    expect(fb.retryAfterMs).toBe(12_000);
    expect(fb.penalties).toEqual([{ key: { venue: 'test-venue', credential: null, axis: 'ip' }, hold: { forMs: 12_000 } }]);
    // a time already past: nothing left to wait
    expect(respond(spec, { headers: { date }, body: { error: [`EService: Throttled: ${at / 1000 - 5}`] } }).retryAfterMs).toBe(0);
    // no number in the message, or no Date header: the next source
    expect(respond(spec, { headers: { date }, body: { error: ['EService: Throttled'] } }).retryAfterMs).toBe(5000);
    expect(respond(spec, { body: { error: [`EService: Throttled: ${at / 1000 + 12}`] } }).retryAfterMs).toBe(5000);
  });

  it('a pattern reads a duration out of a text field; epoch-s works for headers too', () => {
    const spec = venue([
      {
        id: 'slow',
        status: [429],
        verdict: 'rate_limited',
        counted: true,
        penalize: ['ip'],
        wait: [
          { from: 'body', path: 'msg', unit: 's', pattern: 'retry in (\\d+(?:\\.\\d+)?) s' },
          { from: 'header', header: 'x-reset', unit: 'epoch-s' },
        ],
        provenance,
      },
    ]);
    expect(respond(spec, { status: 429, body: { msg: 'slow down, retry in 2.5 s' } }).retryAfterMs).toBe(2500);
    expect(
      respond(spec, { status: 429, headers: { date: new Date(at).toUTCString(), 'x-reset': String(at / 1000 + 3) }, body: { msg: 'slow down' } }).retryAfterMs,
    ).toBe(3000);
  });

  it('validation: a wait pattern must compile and capture; header waits take no pattern', () => {
    const errors = (wait: unknown) => {
      const r = validateSpec({ ...venue([]), errors: [{ id: 'e', status: [429], verdict: 'rate_limited', counted: true, wait, provenance }] });
      return r.ok ? [] : r.errors.map((e) => e.path);
    };
    expect(errors([{ from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: (\\d+)' }])).toEqual([]);
    expect(errors([{ from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: (\\d+' }])).toEqual(['errors[0].wait[0].pattern']);
    expect(errors([{ from: 'body', path: 'error', unit: 'epoch-s', pattern: 'Throttled: \\d+' }])).toEqual(['errors[0].wait[0].pattern']);
    expect(errors([{ from: 'header', header: 'x-reset', unit: 'epoch-s', pattern: '(\\d+)' }])).toEqual(['errors[0].wait[0].pattern']);
    expect(errors([{ from: 'body', path: 'error', unit: 'minutes' }])).toEqual(['errors[0].wait[0].unit']);
    const contains = validateSpec({
      ...venue([]),
      errors: [{ id: 'e', status: [403], body: [{ path: '', contains: '' }], verdict: 'error', counted: true, provenance }],
    });
    expect(contains.ok ? [] : contains.errors.map((e) => e.path)).toEqual(['errors[0].body[0].contains']);
  });
});
