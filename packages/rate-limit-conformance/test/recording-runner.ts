import type { SuiteDescribe, SuiteIt, SuiteTestFn } from '../src/conformance-options.js';

/** One test collected by the recording runner. */
export interface RecordedTest {
  readonly title: string;
  readonly skipped: boolean;
  readonly fn: SuiteTestFn;
}

/** The outcome of running the collected tests. */
export interface RecordedRun {
  readonly passed: readonly string[];
  readonly failed: readonly { readonly title: string; readonly error: unknown }[];
  readonly skipped: readonly string[];
}

/**
 * A `describe`/`it` of our own: it collects the suite's tests instead of handing them to a runner,
 * so a self-test can run the suite against a fake and look at what failed.
 */
export function createRecordingRunner(): { describe: SuiteDescribe; it: SuiteIt; tests: RecordedTest[]; run(): Promise<RecordedRun> } {
  const tests: RecordedTest[] = [];
  const describe: SuiteDescribe = (_title, fn) => {
    fn();
  };
  const it = Object.assign(
    (title: string, fn: SuiteTestFn): void => {
      tests.push({ title, skipped: false, fn });
    },
    {
      skip: (title: string, fn: SuiteTestFn): void => {
        tests.push({ title, skipped: true, fn });
      },
    },
  );
  const run = async (): Promise<RecordedRun> => {
    const passed: string[] = [];
    const failed: { title: string; error: unknown }[] = [];
    const skipped: string[] = [];
    for (const t of tests) {
      if (t.skipped) {
        skipped.push(t.title);
        continue;
      }
      try {
        await t.fn();
        passed.push(t.title);
      } catch (error) {
        failed.push({ title: t.title, error });
      }
    }
    return { passed, failed, skipped };
  };
  return { describe, it, tests, run };
}
