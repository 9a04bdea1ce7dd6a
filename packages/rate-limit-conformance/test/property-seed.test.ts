import { describe, expect, it } from 'vitest';
import { runConformanceSuite } from '../src/index.js';
import { RULES } from '../src/rule-catalogue.js';
import { ALL_TESTS } from '../src/rules/all-tests.js';
import { createFakeProvider } from './fakes/fake-provider.js';
import { createFakeSubject, type FakeFlaws } from './fakes/fake-subject.js';
import { createRecordingRunner } from './recording-runner.js';

/** The RL-A6 property over one limiter: it catches a fake that prices every request at 1. */
const SAFETY_PROPERTY = 'RL-A6 (property) no interval admits more';
/** Few runs: the flaw shows in the first sequences, and each run replays from the seed alone. */
const RUNS = 20;

/** Runs the one property test whose title starts with `title` against a fake with `flaws`; its error, if it failed. */
async function runProperty(title: string, flaws: FakeFlaws, propertySeed?: number): Promise<unknown> {
  const runner = createRecordingRunner();
  await runConformanceSuite({
    describe: runner.describe,
    it: runner.it,
    name: 'seed check',
    factory: ({ clock }) => createFakeSubject(clock, flaws),
    provider: ({ limiter, clock, limits }) => createFakeProvider(limiter, clock, limits),
    propertyRuns: RUNS,
    shrink: false,
    realTimeoutMs: 250,
    ...(propertySeed === undefined ? {} : { propertySeed }),
  });
  const test = runner.tests.find((t) => t.title.startsWith(title));
  if (test === undefined) throw new Error(`no test titled ${title}`);
  try {
    await test.fn();
  } catch (error) {
    return error;
  }
  return undefined;
}

/** The seed and the counterexample of a fast-check failure report. */
function report(error: unknown): { seed: number; counterexample: string } {
  const text = String(error instanceof Error ? error.message : error);
  const seed = /seed: (-?\d+)/.exec(text)?.[1];
  const counterexample = /Counterexample: (.*)/.exec(text)?.[1];
  if (seed === undefined || counterexample === undefined) throw new Error(`no seed or counterexample in the failure: ${text}`);
  return { seed: Number(seed), counterexample };
}

describe('deterministic kills (issue 33, item 3)', () => {
  it('every rule the suite checks by a property also has an example test (fixed inputs, manual clock)', () => {
    const byProperty = new Set(ALL_TESTS.filter((t) => t.property === true).map((t) => t.rule));
    const byExample = new Set(ALL_TESTS.filter((t) => t.property !== true).map((t) => t.rule));
    expect([...byProperty].filter((rule) => !byExample.has(rule))).toEqual([]);
  });

  it('every rule of the catalogue the suite tests has an example test, not only random ones', () => {
    const tested = new Set(ALL_TESTS.map((t) => t.rule));
    const byExample = new Set(ALL_TESTS.filter((t) => t.property !== true).map((t) => t.rule));
    expect(RULES.filter((r) => tested.has(r.id) && !byExample.has(r.id)).map((r) => r.id)).toEqual([]);
  });

  it('a failing property prints its seed, and propertySeed replays the same counterexample', async () => {
    const flaws: FakeFlaws = { priceAtOne: true };
    const first = report(await runProperty(SAFETY_PROPERTY, flaws));
    const replayed = report(await runProperty(SAFETY_PROPERTY, flaws, first.seed));
    expect(replayed).toEqual(first);
  }, 60_000);
});
