import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runConformanceSuite } from '../src/index.js';
import { RULES } from '../src/rule-catalogue.js';
import { createFakeProvider } from './fakes/fake-provider.js';
import { createFakeSubject, type FakeFlaws } from './fakes/fake-limiter.js';
import { createRecordingRunner } from './recording-runner.js';

/**
 * Each broken fake, the rule it breaks, and which property tests catch it as well (the RL-A6 safety
 * property only sees what is admitted; the model check sees every decision).
 */
const BROKEN: readonly {
  readonly flaw: keyof FakeFlaws;
  readonly rule: string;
  readonly what: string;
  readonly safety: boolean;
  readonly modelCheck: boolean;
}[] = [
  { flaw: 'priceAtOne', rule: 'RL-A1', what: 'prices every request at 1', safety: true, modelCheck: true },
  { flaw: 'spendOnRefusedProbe', rule: 'RL-A3', what: 'spends on a refused probe', safety: false, modelCheck: true },
  { flaw: 'bankAccrual', rule: 'RL-A4', what: 'banks accrual above capacity', safety: true, modelCheck: true },
  { flaw: 'chargeAtSendTime', rule: 'RL-W2', what: 'lets cheap traffic spend a booking', safety: true, modelCheck: true },
  { flaw: 'partialMultiDebit', rule: 'RL-M1', what: 'debits part of a refused multi-bucket check', safety: false, modelCheck: true },
  { flaw: 'okWhenStoreFails', rule: 'RL-F1', what: 'answers ok when its store throws', safety: false, modelCheck: false },
  { flaw: 'unsharedPeer', rule: 'RL-W2', what: 'claims to be distributed but does not share its buckets', safety: true, modelCheck: false },
];

async function runAgainst(flaws: FakeFlaws) {
  const runner = createRecordingRunner();
  await runConformanceSuite({
    describe: runner.describe,
    it: runner.it,
    name: 'broken fake',
    factory: ({ clock }) => createFakeSubject(clock, flaws),
    provider: ({ limiter, clock, limits }) => createFakeProvider(limiter, clock, limits),
    propertyRuns: 60,
    // A broken fake may never start the timer a test waits for: fail fast, and report the first
    // counterexample unshrunk.
    realTimeoutMs: 250,
    shrink: false,
  });
  return { tests: runner.tests, result: await runner.run() };
}

describe('the suite tests itself', () => {
  it('registers at least one test for every rule of the catalogue, each title starting with its id', async () => {
    const { tests } = await runAgainst({});
    for (const rule of RULES) {
      expect(tests.some((t) => t.title.startsWith(`${rule.id} `)), rule.id).toBe(true);
    }
  });

  it('the correct fake passes every test when run through the recording runner', async () => {
    const { result } = await runAgainst({});
    expect(result.failed.map((f) => `${f.title}: ${String(f.error)}`)).toEqual([]);
    expect(result.skipped).toEqual([]);
  }, 120_000);

  for (const broken of BROKEN) {
    it(`a fake that ${broken.what} fails ${broken.rule}`, async () => {
      const { result } = await runAgainst({ [broken.flaw]: true });
      const failed = result.failed.map((f) => f.title);
      const caught = failed.filter((title) => title.startsWith(`${broken.rule} `) && !title.includes('(model check)'));
      expect(caught, `failed: ${failed.join(' | ')}`).not.toEqual([]);
      expect(failed.some((title) => title.startsWith('RL-A6 (property)')), 'caught by the RL-A6 property').toBe(broken.safety);
      expect(failed.some((title) => title.includes('(model check)')), 'caught by the model check').toBe(broken.modelCheck);
    }, 120_000);
  }

  it('skips visibly what an implementation cannot do', async () => {
    const runner = createRecordingRunner();
    await runConformanceSuite({
      describe: runner.describe,
      it: runner.it,
      name: 'no bookings',
      factory: ({ clock }) => ({ limiter: createFakeSubject(clock, {}, { bookings: false, snapshot: false }).limiter }),
    });
    const { tests: all } = await runAgainst({});
    expect(runner.tests.map((t) => t.title.replace(/ \[skipped: .*\]$/, ''))).toEqual(all.map((t) => t.title));
    const skipped = runner.tests.filter((t) => t.skipped).map((t) => t.title);
    expect(skipped.some((t) => t.startsWith('RL-W1 ') && t.includes('capabilities.bookings is false'))).toBe(true);
    expect(skipped.some((t) => t.startsWith('RL-I3 ') && t.includes('capabilities.snapshot is false'))).toBe(true);
    expect(skipped.some((t) => t.startsWith('RL-F1 ') && t.includes('breakStore'))).toBe(true);
    expect(skipped.some((t) => t.startsWith('RL-P1 ') && t.includes('provider'))).toBe(true);
  });

  it('registers a skipped test as a visible passing test when the runner has no it.skip', async () => {
    const titles: string[] = [];
    await runConformanceSuite({
      describe: (_title, fn) => fn(),
      it: (title) => titles.push(title),
      name: 'no it.skip',
      factory: ({ clock }) => ({ limiter: createFakeSubject(clock).limiter }),
    });
    expect(titles.filter((t) => t.startsWith('SKIPPED RL-F1 ') && t.includes('breakStore'))).not.toEqual([]);
  });

  it('the README shows the living examples verbatim and lists every test title in its catalogue', async () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const vitestExample = readFileSync(new URL('./correct-fake.test.ts', import.meta.url), 'utf8').replace("'../src/index.js'", "'@core/rate-limit-conformance'");
    const nodeExample = readFileSync(new URL('../test-node/conformance.test.mjs', import.meta.url), 'utf8');
    expect(readme).toContain(vitestExample.trim());
    expect(readme).toContain(nodeExample.trim());
    const { tests } = await runAgainst({});
    for (const t of tests) {
      const line = readme.split('\n').find((l) => l.startsWith(`| ${t.title.slice(0, 5)} |`));
      expect(line, t.title).toContain(t.title.slice(6).replace(/\|/g, '\\|'));
    }
  });
});
