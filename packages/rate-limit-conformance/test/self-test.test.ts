import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Capabilities } from '@core/rate-limit-contract';
import { runConformanceSuite } from '../src/index.js';
import { RULES } from '../src/rule-catalogue.js';
import { createFakeProvider } from './fakes/fake-provider.js';
import { createFakeSubject, type FakeFlaws } from './fakes/fake-subject.js';
import { createRecordingRunner } from './recording-runner.js';
import { renderTestTable, withCatalogue } from '../scripts/catalogue-table.mjs';

/** A registered title without its skip reason. */
const bareTitle = (title: string): string => title.replace(/ \[skipped: .*\]$/, '');
/** Whether a registered test is one of the rules' (the last one is the run's conformance profile). */
const isRuleTest = (t: { readonly title: string }): boolean => !t.title.startsWith('conformance profile: ');

/**
 * Each broken fake, the rule it breaks, and which property tests catch it as well (the RL-A6 safety
 * property only sees what is admitted; the model check sees every decision; both use token buckets
 * only, the RL-V1 property window limits). `'sometimes'`: whether the property meets the flaw depends
 * on the random definitions and commands it draws (a lifted hold shows only when the new definition
 * refills faster or holds more), so it is not asserted; nor is the RL-V1 property where
 * `windowProperty` is left out.
 */
const BROKEN: readonly {
  readonly flaw: keyof FakeFlaws;
  readonly rule: string;
  readonly what: string;
  readonly safety: boolean;
  readonly modelCheck: boolean | 'sometimes';
  readonly windowProperty?: boolean;
}[] = [
  { flaw: 'priceAtOne', rule: 'RL-A1', what: 'prices every request at 1', safety: true, modelCheck: true },
  { flaw: 'spendOnRefusedProbe', rule: 'RL-A3', what: 'spends on a refused probe', safety: false, modelCheck: true },
  { flaw: 'bankAccrual', rule: 'RL-A4', what: 'banks accrual above capacity', safety: true, modelCheck: true },
  { flaw: 'chargeAtSendTime', rule: 'RL-W2', what: 'lets cheap traffic spend a booking', safety: true, modelCheck: true },
  { flaw: 'partialMultiDebit', rule: 'RL-M1', what: 'debits part of a refused multi-bucket check', safety: false, modelCheck: true },
  { flaw: 'okWhenStoreFails', rule: 'RL-F1', what: 'answers ok when its store throws', safety: false, modelCheck: false },
  { flaw: 'unsharedPeer', rule: 'RL-W2', what: 'claims to be distributed but does not share its buckets', safety: true, modelCheck: false },
  { flaw: 'okForBooking', rule: 'RL-W1', what: 'answers ok (with a wait) for a booking', safety: true, modelCheck: true },
  { flaw: 'namesUnbounded', rule: 'RL-K4', what: 'accepts venues, axes and credentials of any length', safety: false, modelCheck: false },
  { flaw: 'emptyChecksAdmitted', rule: 'RL-M6', what: 'admits an empty list of checks', safety: false, modelCheck: false },
  { flaw: 'missingLimitUnlimited', rule: 'RL-L2', what: 'treats a missing limit as unlimited', safety: false, modelCheck: false },
  { flaw: 'redefinitionLiftsHold', rule: 'RL-R3', what: 'lifts a hold when the bucket is redefined', safety: false, modelCheck: 'sometimes' },
  { flaw: 'absoluteTolerance', rule: 'RL-A7', what: 'compares with an absolute tolerance', safety: false, modelCheck: false },
  { flaw: 'internalForUnreadable', rule: 'RL-F2', what: 'answers internal for input that cannot be read', safety: false, modelCheck: false },
  {
    flaw: 'windowAsTokenBucket',
    rule: 'RL-V1',
    what: 'keeps a window limit as a token bucket of perWindow refilled perWindow per window',
    safety: false,
    modelCheck: false,
    windowProperty: true,
  },
  { flaw: 'windowIgnoresBookingsAhead', rule: 'RL-V2', what: 'lets a later cheap call take what a window booking holds', safety: false, modelCheck: false },
  {
    flaw: 'syncSumsOwn',
    rule: 'RL-V5',
    what: 'sums the limiter’s count of its own sends and countedOwnCost instead of taking the larger',
    safety: false,
    modelCheck: false,
  },
  {
    flaw: 'syncIgnoresOutside',
    rule: 'RL-V5',
    what: 'leaves outsideOwnCost out of its own count of the sends a report counted',
    safety: false,
    modelCheck: false,
  },
  {
    flaw: 'syncTakesSendsInFlight',
    rule: 'RL-V5',
    what: 'takes as counted by a window sync the sends still on their way to the venue',
    safety: false,
    modelCheck: false,
  },
  {
    flaw: 'syncSumsReports',
    rule: 'RL-V5',
    what: 'adds a window report to an earlier one it does not replace instead of keeping the larger',
    safety: false,
    modelCheck: false,
  },
  { flaw: 'syncForgetsNothing', rule: 'RL-V5', what: 'forgets nothing on a report of a fixed window', safety: false, modelCheck: false },
  {
    flaw: 'syncForgetsBySendTime',
    rule: 'RL-V5',
    what: 'forgets what was sent before a fixed window began, as if every send arrived at once',
    safety: false,
    modelCheck: false,
  },
  {
    flaw: 'syncAppliesStale',
    rule: 'RL-V5',
    what: 'applies a report of a fixed window that ended before the latest reported one began',
    safety: false,
    modelCheck: false,
  },
  {
    flaw: 'penaltyForgotten',
    rule: 'RL-V5',
    what: 'keeps a penalty as a full window at its end, which a fixed window’s report forgets',
    safety: false,
    modelCheck: false,
  },
  { flaw: 'classesIgnored', rule: 'RL-Q1', what: 'reads a priority but admits every class alike', safety: false, modelCheck: false },
  { flaw: 'classesIgnored', rule: 'RL-Q4', what: 'keeps no reserve from bulk calls', safety: false, modelCheck: false },
  { flaw: 'criticalSkipsCheck', rule: 'RL-Q3', what: 'sends critical calls at once whatever the bucket holds ahead', safety: false, modelCheck: false },
  {
    flaw: 'classFifoIgnored',
    rule: 'RL-Q2',
    what: 'lets a call pass bookings of its own class ahead by the room kept for higher classes',
    safety: false,
    modelCheck: 'sometimes',
  },
  { flaw: 'windowLineSkipsCritical', rule: 'RL-Q4', what: 'counts no critical send against a lower class’s window line', safety: false, modelCheck: false },
  { flaw: 'reserveCutsRate', rule: 'RL-Q4', what: 'keeps the reserve by scaling the refill rate of lower classes too', safety: false, modelCheck: false },
  {
    flaw: 'priorityIgnoredSilently',
    rule: 'RL-Q5',
    what: 'claims no priorities and admits calls naming one as if they did not',
    safety: false,
    modelCheck: false,
  },
  { flaw: 'checkReserveIgnored', rule: 'RL-Q6', what: 'reads a check’s own reserve but keeps the call’s on every bucket', safety: false, modelCheck: false },
];

/** The tests a limiter offering every optional operation and window limits cannot run (they check their absence). */
const NOT_SUPPORTED_TEST = 'RL-F2 an operation whose capability is false answers not_supported, whatever its arguments';
const NO_WINDOWS_TEST = 'RL-F2 a limiter without window limits answers not_supported to every call with a window limit, whatever the other arguments';
const NO_PRIORITIES_TEST = 'RL-Q5 a limiter without priorities answers not_supported to every call naming a priority or a reserve, whatever the rest';

async function runAgainst(flaws: FakeFlaws, capabilities: Partial<Capabilities> = {}) {
  const runner = createRecordingRunner();
  await runConformanceSuite({
    describe: runner.describe,
    it: runner.it,
    name: 'broken fake',
    factory: ({ clock }) => createFakeSubject(clock, flaws, capabilities),
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
      expect(
        tests.some((t) => t.title.startsWith(`${rule.id} `)),
        rule.id,
      ).toBe(true);
    }
  }, 30_000);

  it('the correct fake passes every test when run through the recording runner', async () => {
    const { result } = await runAgainst({});
    expect(result.failed.map((f) => `${f.title}: ${String(f.error)}`)).toEqual([]);
    expect(result.skipped.map(bareTitle).sort()).toEqual([NOT_SUPPORTED_TEST, NO_WINDOWS_TEST, NO_PRIORITIES_TEST].sort());
  }, 120_000);

  it('a correct fake without priorities passes what it can run: not_supported for a priority or reserve, whatever the rest', async () => {
    const { result } = await runAgainst({}, { priorities: false });
    expect(result.failed.map((f) => `${f.title}: ${String(f.error)}`)).toEqual([]);
    expect(result.passed).toContain(NO_PRIORITIES_TEST);
    const classTests = result.skipped.filter((t) => t.includes('capabilities.priorities is false'));
    for (const rule of ['RL-Q1', 'RL-Q2', 'RL-Q3', 'RL-Q4'])
      expect(
        classTests.some((t) => t.startsWith(`${rule} `)),
        rule,
      ).toBe(true);
  }, 120_000);

  it('a correct fake without window limits passes what it can run: not_supported for a window limit, whatever the other arguments', async () => {
    const { result } = await runAgainst({}, { windowLimits: false });
    expect(result.failed.map((f) => `${f.title}: ${String(f.error)}`)).toEqual([]);
    expect(result.passed).toContain(NO_WINDOWS_TEST);
    const windowTests = result.skipped.filter((t) => t.includes('capabilities.windowLimits is false'));
    expect(windowTests.some((t) => t.startsWith('RL-V1 (property)'))).toBe(true);
    for (const rule of ['RL-V1', 'RL-V2', 'RL-V3', 'RL-V4', 'RL-V5', 'RL-V6'])
      expect(
        windowTests.some((t) => t.startsWith(`${rule} `)),
        rule,
      ).toBe(true);
  }, 120_000);

  it('a correct fake without sync, penalize and snapshot passes what it can run: not_supported whatever the arguments', async () => {
    const { result } = await runAgainst({}, { sync: false, penalize: false, snapshot: false });
    expect(result.failed.map((f) => `${f.title}: ${String(f.error)}`)).toEqual([]);
    expect(result.passed).toContain(NOT_SUPPORTED_TEST);
    // the RL-F2 property sends it malformed syncs, and it answers not_supported without looking at them
    expect(result.passed.some((t) => t.startsWith('RL-F2 (property)'))).toBe(true);
    expect(result.skipped.some((t) => t.startsWith('RL-R3 ') && t.includes('capabilities.penalize is false'))).toBe(true);
  }, 120_000);

  for (const broken of BROKEN) {
    it(`a fake that ${broken.what} fails ${broken.rule} (${broken.flaw})`, async () => {
      const { result } = await runAgainst({ [broken.flaw]: true });
      const failed = result.failed.map((f) => f.title);
      const caught = failed.filter((title) => title.startsWith(`${broken.rule} `) && !title.includes('(model check)'));
      expect(caught, `failed: ${failed.join(' | ')}`).not.toEqual([]);
      expect(
        failed.some((title) => title.startsWith('RL-A6 (property)')),
        'caught by the RL-A6 property',
      ).toBe(broken.safety);
      if (broken.modelCheck !== 'sometimes')
        expect(
          failed.some((title) => title.includes('(model check)')),
          'caught by the model check',
        ).toBe(broken.modelCheck);
      if (broken.windowProperty !== undefined)
        expect(
          failed.some((title) => title.startsWith('RL-V1 (property)')),
          'caught by the RL-V1 property',
        ).toBe(broken.windowProperty);
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
    expect(runner.tests.filter(isRuleTest).map((t) => bareTitle(t.title))).toEqual(all.filter(isRuleTest).map((t) => bareTitle(t.title)));
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

  it('CATALOGUE.md shows the current catalogue of every test title (regenerate: pnpm rulebook)', async () => {
    // (the README's examples run in test/readme-example.test.ts, and from the packed tarballs in the
    // repository's install test)
    const catalogue = readFileSync(new URL('../CATALOGUE.md', import.meta.url), 'utf8');
    const { tests } = await runAgainst({});
    const table = renderTestTable(
      RULES,
      tests.filter(isRuleTest).map((t) => t.title),
    );
    expect(withCatalogue(catalogue, table)).toBe(catalogue);
    for (const t of tests.filter(isRuleTest))
      expect(table, t.title).toContain(
        bareTitle(t.title)
          .slice(bareTitle(t.title).indexOf(' ') + 1)
          .replace(/\|/g, '\\|'),
      );
  });
});
