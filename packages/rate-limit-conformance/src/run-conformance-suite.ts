import type { RateLimiter } from '@core/rate-limit-contract';
import type { ConformanceOptions } from './conformance-options.js';
import type { ConformanceTest, Spawned, TestContext } from './conformance-test.js';
import { ConformanceProfile } from './conformance-profile.js';
import { ManualClock } from './manual-clock.js';
import { missingRequirement, type SubjectTraits } from './requirement.js';
import { RULES } from './rule-catalogue.js';
import { ALL_TESTS } from './rules/all-tests.js';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_PROPERTY_TIMEOUT_MS = 180_000;

/**
 * Registers the conformance suite with the caller's test runner. It builds one limiter first to read
 * its capability manifest and fault hooks, then registers every test: the ones the implementation
 * cannot run are registered with `it.skip` and a title that says why. Its last test is the run's
 * conformance profile: it prints the rules covered, the rules skipped and why, warns loudly when the run
 * covers less than the token-bucket core, and fails when a test it counts did not pass.
 *
 * @returns once every test is registered; await it at the top level of the test file.
 * @example
 * ```ts
 * import { describe, it } from 'vitest';
 * import { ManualClock, runConformanceSuite } from '@core/rate-limit-conformance';
 * await runConformanceSuite({
 *   describe, it, name: 'my limiter',
 *   factory: ({ clock }) => ({ limiter: createMyLimiter({ clock }) }),
 * });
 * ```
 */
export async function runConformanceSuite(options: ConformanceOptions): Promise<void> {
  const traits = await readTraits(options);
  const { describe } = options;
  const profile = new ConformanceProfile();
  describe(`${options.name}: rate-limit conformance (contract v1)`, () => {
    const sections = [...new Set(RULES.map((r) => r.section))];
    for (const section of sections) {
      const tests = ALL_TESTS.filter(
        (t) => RULES.find((r) => r.id === t.rule)?.section === section && (options.filter === undefined || options.filter(`${t.rule} ${t.title}`)),
      );
      // a section the filter leaves empty is not registered (some runners fail an empty describe)
      if (tests.length === 0) continue;
      describe(section, () => {
        for (const t of tests) register(t, options, traits, profile);
      });
    }
    describe('Conformance profile', () => {
      options.it(profile.title, async () => reportProfile(profile));
    });
  });
}

/** Builds one limiter to read what the implementation offers, then releases it. */
async function readTraits(options: ConformanceOptions): Promise<SubjectTraits> {
  const subject = await options.factory({ clock: new ManualClock() });
  try {
    if (subject.limiter.specificationVersion !== 'v1') {
      throw new TypeError(
        `${options.name}: the limiter speaks specificationVersion ${JSON.stringify(subject.limiter.specificationVersion)}; this suite tests 'v1'`,
      );
    }
    const capabilities = subject.limiter.capabilities;
    if (typeof capabilities !== 'object' || capabilities === null) {
      throw new TypeError(`${options.name}: limiter.capabilities is missing; the suite reads it to know what to run`);
    }
    return {
      capabilities,
      faultHooks: typeof subject.breakStore === 'function' && typeof subject.repairStore === 'function',
      provider: options.provider !== undefined,
      peer: typeof subject.peer === 'function',
      storageKeys: typeof subject.storageKeys === 'function',
    };
  } finally {
    await subject.limiter.close();
    await subject.dispose?.();
  }
}

/** Prints the profile (loudly when it misses part of the core) and fails when a test it counts did not pass. */
function reportProfile(profile: ConformanceProfile): void {
  const text = profile.text();
  if (profile.missingCore.length > 0) console.warn(text);
  else console.log(text);
  const notPassed = profile.notPassed();
  if (notPassed.length > 0) {
    throw new Error(`the profile counts ${notPassed.length} test(s) that did not pass in this run: ${notPassed.slice(0, 5).join(' | ')}`);
  }
}

function register(t: ConformanceTest, options: ConformanceOptions, traits: SubjectTraits, profile: ConformanceProfile): void {
  const title = `${t.rule} ${t.title}`;
  if (options.filter !== undefined && !options.filter(title)) return;
  const { it } = options;
  const reason = missingRequirement(t.needs, traits);
  if (reason !== undefined) {
    profile.add(t.rule, title, reason);
    const skippedTitle = `${title} [skipped: ${reason}]`;
    if (it.skip !== undefined) it.skip(skippedTitle, async () => {});
    else it(`SKIPPED ${skippedTitle}`, async () => {});
    return;
  }
  const timeout = t.property ? (options.propertyTimeoutMs ?? DEFAULT_PROPERTY_TIMEOUT_MS) : (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  profile.add(t.rule, title);
  it(
    title,
    async () => {
      profile.settle(title, false);
      await runOne(t, options, traits);
      profile.settle(title, true);
    },
    timeout,
  );
}

async function runOne(t: ConformanceTest, options: ConformanceOptions, traits: SubjectTraits): Promise<void> {
  const spawned: Spawned[] = [];
  const spawn = async (): Promise<Spawned> => {
    const clock = new ManualClock();
    if (options.realTimeoutMs !== undefined) clock.realTimeoutMs = options.realTimeoutMs;
    const subject = await options.factory({ clock });
    let closing: Promise<void> | undefined;
    const peers: RateLimiter[] = [];
    const s: Spawned = {
      clock,
      limiter: subject.limiter,
      subject,
      peer: async () => {
        if (subject.peer === undefined) throw new Error('this test needs the subject to offer peer()');
        const peer = await subject.peer();
        peers.push(peer);
        return peer;
      },
      close: () => {
        closing ??= (async () => {
          try {
            for (const peer of peers) await peer.close();
            await subject.limiter.close();
          } finally {
            await subject.dispose?.();
          }
        })();
        return closing;
      },
    };
    spawned.push(s);
    return s;
  };
  const main = await spawn();
  const context: TestContext = {
    ...main,
    capabilities: traits.capabilities,
    options,
    spawn,
    provider: async (limits) => {
      if (options.provider === undefined) throw new Error('this test needs the provider option');
      return options.provider({ limiter: main.limiter, clock: main.clock, limits });
    },
  };
  let failed = true;
  try {
    await t.run(context);
    failed = false;
  } finally {
    for (const s of spawned.reverse()) {
      try {
        await s.close();
      } catch (error) {
        // Only when the test itself passed: a close that fails after a failed test must not hide its error.
        // biome-ignore lint/correctness/noUnsafeFinally: rethrowing a close failure is the point here.
        if (!failed) throw error;
      }
    }
  }
}
