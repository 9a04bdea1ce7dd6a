// Every number of every hand-authored spec (REST and WebSocket) appears in the quote of its provenance, or a
// deviation of that provenance says why it differs. Read from the spec data itself, with no list of exceptions.
import { describe, expect, it } from 'vitest';
import { handAuthoredSpecs } from '../src/hand-authored.js';
import { quotedNumbers, statesNumber, unquotedNumbers } from '../src/quoted-numbers.js';
import { validateSpec } from '../src/validate-spec.js';
import { webSocketSpecs } from '../src/websocket/venues/index.js';

const specs = [...handAuthoredSpecs.map((s) => ({ name: s.id, spec: s })), ...webSocketSpecs.map((s) => ({ name: `ws:${s.id}`, spec: s }))];
const entries = (spec: (typeof specs)[number]['spec']): string[] => unquotedNumbers(spec).map((u) => `${u.path} = ${u.value}`);

describe('every spec number appears in its quote, or its provenance says why not', () => {
  it('reads numbers as the sources write them', () => {
    expect([...quotedNumbers('2,400/min, 12 000 per IP; 0.33/sec; -2.34')]).toEqual(expect.arrayContaining([2400, 12_000, 0.33, 2.34]));
    expect(statesNumber('300 requests per 5 minutes', 300_000, 'duration')).toBe(true);
    expect(statesNumber('weight per minute', 60_000, 'duration')).toBe(true);
    expect(statesNumber('Maximum of 100 websocket connections', 10, 'number')).toBe(false);
  });

  it.each(specs.map((s) => [s.name, s.spec] as const))('%s: no number outside its quote', (_name, spec) => {
    expect(entries(spec)).toEqual([]);
  });

  it('a number outside its quote with no deviation is found', () => {
    const base = handAuthoredSpecs.find((s) => s.id === 'kraken')!;
    const bucket = base.buckets[0]!;
    const changed = {
      ...base,
      buckets: [
        { ...bucket, provenance: { source: bucket.provenance.source, confidence: bucket.provenance.confidence, quote: 'no figure here' } },
        ...base.buckets.slice(1),
      ],
    };
    expect(entries(changed)).not.toEqual([]);
  });

  it('a deviation is validated: a reason of conservative, tier or formula, a text, one per number', () => {
    const base = handAuthoredSpecs.find((s) => s.id === 'kraken')!;
    const withDeviations = (deviations: unknown) => ({
      ...base,
      buckets: base.buckets.map((b, i) => (i === 0 ? { ...b, provenance: { ...b.provenance, deviations } } : b)),
    });
    const errors = (deviations: unknown) => {
      const r = validateSpec(withDeviations(deviations));
      return r.ok ? [] : r.errors.map((e) => e.path);
    };
    expect(errors([{ value: 0.33, reason: 'formula', text: '1 every 3 s' }])).toEqual([]);
    expect(errors([{ value: 0.33, reason: 'guess', text: 'x' }])).toEqual(['buckets[0].provenance.deviations[0].reason']);
    expect(errors([{ value: 0.33, reason: 'formula' }])).toEqual(['buckets[0].provenance.deviations[0].text']);
    expect(errors([])).toEqual(['buckets[0].provenance.deviations']);
    expect(
      errors([
        { value: 1, reason: 'tier', text: 'a' },
        { value: 1, reason: 'tier', text: 'b' },
      ]),
    ).toEqual(['buckets[0].provenance.deviations[1].value']);
  });
});
