import fc from 'fast-check';
import type { BucketCheck, BucketKey, Capabilities, NormalizedLimit } from '@core/rate-limit-contract';

/** The keys of the buckets a property run uses (two credentials and the public pool). */
export const PROPERTY_KEYS: readonly BucketKey[] = [
  { venue: 'alpha', credential: 'cred-a' },
  { venue: 'alpha', credential: null, axis: 'ip' },
  { venue: 'beta', credential: 'cred-b', axis: 'orders' },
];

/** The definitions of one run: one per bucket, and a second one for bucket 0 (RL-L5). */
export interface PropertySetup {
  readonly limits: readonly [NormalizedLimit, NormalizedLimit, NormalizedLimit];
  readonly alternate: NormalizedLimit;
}

/** One bucket's part of a call. `alternate` uses bucket 0's second definition. */
export interface Part {
  readonly bucket: 0 | 1 | 2;
  readonly cost: number;
  readonly alternate: boolean;
}

/** A malformed call (RL-F2). */
export type Garbage =
  | 'negative-cost'
  | 'nan-cost'
  | 'bad-limit'
  | 'bad-key'
  | 'two-definitions'
  | 'bad-budget'
  | 'no-checks'
  | 'bad-record'
  | 'bad-sync'
  | 'missing-limit'
  | 'unreadable';

/** One step of a random command sequence. */
export type Command =
  | { readonly op: 'advance'; readonly ms: number }
  | { readonly op: 'probe'; readonly parts: readonly Part[] }
  | { readonly op: 'book'; readonly parts: readonly Part[]; readonly budget: number }
  | { readonly op: 'wait'; readonly parts: readonly Part[]; readonly budget: number }
  | { readonly op: 'abort'; readonly pick: number }
  | { readonly op: 'record'; readonly bucket: 0 | 1 | 2; readonly cost: number }
  | { readonly op: 'sync'; readonly bucket: 0 | 1 | 2; readonly minBorrowed: number }
  | { readonly op: 'penalize'; readonly bucket: 0 | 1 | 2; readonly forMs: number }
  | { readonly op: 'borrowed'; readonly bucket: 0 | 1 | 2 }
  | { readonly op: 'reset'; readonly bucket: 0 | 1 | 2 }
  | {
      readonly op: 'concurrent';
      readonly calls: readonly (
        | { readonly op: 'probe'; readonly parts: readonly Part[] }
        | { readonly op: 'book'; readonly parts: readonly Part[]; readonly budget: number }
      )[];
    }
  | { readonly op: 'garbage'; readonly kind: Garbage; readonly bucket: 0 | 1 | 2 };

/** Which commands a sequence may hold. */
export interface CommandOptions {
  readonly capabilities: Capabilities;
  /** Redefinitions (RL-L5) and resets: the model check only (RL-A6 holds while one definition is in force). */
  readonly redefine: boolean;
  /** Calls issued together without awaiting in between: RL-A6 only (their order is not determined). */
  readonly concurrent: boolean;
  /** Malformed calls (RL-F2). */
  readonly garbage: boolean;
}

/**
 * Refills whose ms-per-token are exact binary fractions (2000, 1000, 500, 250, 125, 62.5), so the
 * model's arithmetic and an implementation's agree to the last bit.
 */
const REFILLS = [0.5, 1, 2, 4, 8, 16] as const;

const bucketArb = fc.constantFrom<0 | 1 | 2>(0, 1, 2);

/** Definitions of one run; bucket 2 is sometimes a fixed quota (refill 0, RL-L4). */
export function setupArb(): fc.Arbitrary<PropertySetup> {
  const limit = (refills: readonly number[]) => fc.record({ capacity: fc.integer({ min: 1, max: 12 }), refillPerSec: fc.constantFrom(...refills) });
  return fc.record({
    limits: fc.tuple(limit(REFILLS), limit(REFILLS), limit([...REFILLS, 0])),
    alternate: limit(REFILLS),
  });
}

/** The bucket checks of a call's parts. */
export function checksOf(setup: PropertySetup, parts: readonly Part[]): BucketCheck[] {
  return parts.map((p) => ({
    key: PROPERTY_KEYS[p.bucket]!,
    limit: p.alternate && p.bucket === 0 ? setup.alternate : setup.limits[p.bucket],
    cost: p.cost,
  }));
}

/** A random command sequence. */
export function commandsArb(options: CommandOptions): fc.Arbitrary<Command[]> {
  const caps = options.capabilities;
  const cost = caps.fractionalCosts ? fc.constantFrom(0, 0.25, 0.5, 1, 1, 1, 2, 3, 5, 8, 13) : fc.constantFrom(0, 1, 1, 1, 2, 3, 5, 8, 13);
  const part: fc.Arbitrary<Part> = fc.record({
    bucket: bucketArb,
    cost,
    alternate: options.redefine ? fc.boolean() : fc.constant(false),
  });
  const parts = fc.array(part, { minLength: 1, maxLength: 3 }).map((ps) => {
    // Every part of bucket 0 in one call uses one definition (two would be RL-M3, tested elsewhere).
    const alt = ps.find((p) => p.bucket === 0)?.alternate ?? false;
    const same = ps.map((p) => (p.bucket === 0 ? { ...p, alternate: alt } : p));
    if (caps.crossVenueChecks) return same;
    // Without cross-venue calls, a call keeps the parts of its first part's venue: buckets 0 and 1
    // (venue alpha, two credentials) still meet in one call, so the properties keep their multi-bucket calls.
    const venue = PROPERTY_KEYS[same[0]!.bucket]!.venue;
    return same.filter((p) => PROPERTY_KEYS[p.bucket]!.venue === venue);
  });
  const budget = fc.constantFrom(50, 200, 1000, 3000, 10_000);
  const probe = parts.map((ps) => ({ op: 'probe' as const, parts: ps }));
  const book = fc.record({ op: fc.constant('book' as const), parts, budget });
  const weighted: { arbitrary: fc.Arbitrary<Command>; weight: number }[] = [
    {
      arbitrary: fc.oneof(fc.constantFrom(0, 1, 62, 125, 250, 500, 1000), fc.integer({ min: 0, max: 3000 })).map((ms) => ({ op: 'advance' as const, ms })),
      weight: 6,
    },
    { arbitrary: probe, weight: 6 },
    // A record of cost 0 with a new definition may or may not redefine the bucket (the rulebook does
    // not say), so records here always cost something.
    { arbitrary: fc.record({ op: fc.constant('record' as const), bucket: bucketArb, cost: cost.filter((c) => c > 0) }), weight: 2 },
    { arbitrary: fc.record({ op: fc.constant('borrowed' as const), bucket: bucketArb }), weight: 2 },
  ];
  if (caps.bookings) {
    weighted.push({ arbitrary: book, weight: 3 });
    weighted.push({ arbitrary: fc.record({ op: fc.constant('wait' as const), parts, budget }), weight: 3 });
    if (caps.abortSignal) weighted.push({ arbitrary: fc.record({ op: fc.constant('abort' as const), pick: fc.nat(7) }), weight: 2 });
  }
  if (caps.sync) {
    weighted.push({ arbitrary: fc.record({ op: fc.constant('sync' as const), bucket: bucketArb, minBorrowed: fc.constantFrom(0, 1, 3, 8, 20) }), weight: 1 });
  }
  if (caps.penalize) {
    // With redefinitions, penalties mostly land on bucket 0, the one with a second definition: a
    // hold must survive a redefinition (RL-R3).
    const held = options.redefine ? fc.constantFrom<0 | 1 | 2>(0, 0, 0, 1, 2) : bucketArb;
    weighted.push({
      arbitrary: fc.record({ op: fc.constant('penalize' as const), bucket: held, forMs: fc.constantFrom(100, 1000, 2500) }),
      weight: options.redefine ? 3 : 1,
    });
  }
  if (options.redefine) weighted.push({ arbitrary: fc.record({ op: fc.constant('reset' as const), bucket: bucketArb }), weight: 1 });
  if (options.concurrent) {
    const call = caps.bookings ? fc.oneof(probe, book) : probe;
    weighted.push({ arbitrary: fc.record({ op: fc.constant('concurrent' as const), calls: fc.array(call, { minLength: 2, maxLength: 5 }) }), weight: 3 });
  }
  if (options.garbage) {
    const kind = fc.constantFrom<Garbage>(
      'negative-cost',
      'nan-cost',
      'bad-limit',
      'bad-key',
      'two-definitions',
      'bad-budget',
      'no-checks',
      'bad-record',
      'bad-sync',
      'missing-limit',
      'unreadable',
    );
    weighted.push({ arbitrary: fc.record({ op: fc.constant('garbage' as const), kind, bucket: bucketArb }), weight: 5 });
  }
  return fc.array(fc.oneof(...weighted), { minLength: 5, maxLength: 40 });
}
