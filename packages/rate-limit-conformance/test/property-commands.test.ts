import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Capabilities } from '@core/rate-limit-contract';
import { PROPERTY_KEYS, commandsArb, type Command, type Part } from '../src/rules/property-commands.js';

const ALL: Capabilities = {
  distributed: true,
  injectableClock: true,
  bookings: true,
  abortSignal: true,
  fractionalCosts: true,
  snapshot: true,
  sync: true,
  penalize: true,
  crossVenueChecks: true,
  windowLimits: true,
};

/** The parts of every call in a batch of generated sequences. */
function callsOf(capabilities: Capabilities): (readonly Part[])[] {
  const sequences = fc.sample(commandsArb({ capabilities, redefine: true, concurrent: true, garbage: true }), { numRuns: 300, seed: 7 });
  const calls: (readonly Part[])[] = [];
  const add = (c: Command): void => {
    if (c.op === 'probe' || c.op === 'book' || c.op === 'wait') calls.push(c.parts);
    if (c.op === 'concurrent') for (const inner of c.calls) calls.push(inner.parts);
  };
  for (const s of sequences) for (const c of s) add(c);
  return calls;
}

const venues = (parts: readonly Part[]): Set<string> => new Set(parts.map((p) => PROPERTY_KEYS[p.bucket]!.venue));
const buckets = (parts: readonly Part[]): Set<number> => new Set(parts.map((p) => p.bucket));

describe("the property tests' calls and capabilities.crossVenueChecks", () => {
  it('mix venues in one call when the implementation offers it', () => {
    expect(callsOf(ALL).some((parts) => venues(parts).size > 1)).toBe(true);
  });

  it('keep every call within one venue when it does not, and still check several buckets in one call', () => {
    const calls = callsOf({ ...ALL, crossVenueChecks: false });
    expect(calls.length).toBeGreaterThan(100);
    expect(calls.filter((parts) => venues(parts).size > 1)).toEqual([]);
    expect(calls.some((parts) => buckets(parts).size > 1)).toBe(true);
    expect(calls.some((parts) => parts.some((p) => p.bucket === 2))).toBe(true);
  });
});
