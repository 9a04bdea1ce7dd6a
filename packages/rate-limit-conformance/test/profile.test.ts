// The conformance profile, the suite's last test: what it counts as covered, what it says when a run misses part of
// the token-bucket core, and that it fails when a test it counts did not pass.
import type { Capabilities } from '@core/rate-limit-contract';
import { describe, expect, it, vi } from 'vitest';
import { runConformanceSuite } from '../src/index.js';
import { createFakeSubject, type FakeFlaws } from './fakes/fake-subject.js';
import { createRecordingRunner } from './recording-runner.js';

async function profileOf(flaws: FakeFlaws, capabilities: Partial<Capabilities> = {}) {
  const runner = createRecordingRunner();
  await runConformanceSuite({
    describe: runner.describe,
    it: runner.it,
    name: 'fake',
    factory: ({ clock }) => createFakeSubject(clock, flaws, capabilities),
    propertyRuns: 5,
    realTimeoutMs: 500,
    shrink: false,
  });
  const printed: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((text: string) => void printed.push(text));
  const warn = vi.spyOn(console, 'warn').mockImplementation((text: string) => void printed.push(`WARN ${text}`));
  try {
    const result = await runner.run();
    const last = runner.tests.at(-1)?.title ?? '';
    return { result, last, printed: printed.join('\n') };
  } finally {
    log.mockRestore();
    warn.mockRestore();
  }
}

describe('the conformance profile', () => {
  it('is the last test, and counts every rule a complete run covers', async () => {
    const { result, last, printed } = await profileOf({});
    expect(last).toMatch(/^conformance profile: \d+ of \d+ rules covered, the token-bucket core included$/);
    expect(last).not.toContain('WARNING');
    expect(result.passed).toContain(last);
    expect(printed).toMatch(/RL-A1 {2}covered/);
    expect(printed).toMatch(/RL-P1 {2}SKIPPED {2}0 test\(s\) run \(skipped \d+: no provider option was given\)/);
    expect(printed).not.toContain('WARN');
  }, 120_000);

  it('says loudly that a run without the injected clock misses the token-bucket core', async () => {
    const { result, last, printed } = await profileOf({}, { injectableClock: false });
    expect(last).toContain('WARNING');
    expect(last).toContain('RL-A1');
    expect(result.passed).toContain(last);
    expect(printed).toMatch(/^WARN /);
    expect(printed).toMatch(/RL-A1 {2}SKIPPED {2}0 test\(s\) run \(skipped \d+: capabilities\.injectableClock is false\)/);
    expect(printed).toContain('does not cover the token-bucket core');
  }, 120_000);

  it('fails when a test it counts did not pass', async () => {
    const { result, last } = await profileOf({ missingLimitUnlimited: true });
    const failed = result.failed.find((f) => f.title === last);
    const broken = result.failed.filter((f) => f.title !== last).map((f) => f.title);
    expect(broken.some((t) => t.startsWith('RL-L2 '))).toBe(true);
    expect(String(failed?.error)).toContain(`the profile counts ${broken.length} test(s) that did not pass in this run: `);
    expect(String(failed?.error)).toContain(broken[0]);
  }, 120_000);
});
