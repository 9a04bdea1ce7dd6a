import { RULES, type RuleId } from './rule-catalogue.js';

/** The letters of the token-bucket core: keys, limits, admission, waiting, several buckets, records, inspecting, failures. */
export const CORE_LETTERS = ['K', 'L', 'A', 'W', 'M', 'R', 'I', 'F'] as const;

/** What one run registered for a rule: the titles it runs and the skipped ones with their reasons. */
interface RuleEntry {
  readonly run: string[];
  readonly skipped: { readonly title: string; readonly reason: string }[];
}

/**
 * The conformance profile of one run: which rules it covers (at least one of their tests runs), which
 * it skips and why, and whether it covers the token-bucket core. The suite registers it as its last
 * test, which prints it and fails when a test it counts did not pass.
 */
export class ConformanceProfile {
  readonly #rules = new Map<RuleId, RuleEntry>();
  readonly #outcomes = new Map<string, boolean>();

  /** Notes a test the run registers (`reason`: why it is skipped). */
  add(rule: RuleId, title: string, reason?: string): void {
    let entry = this.#rules.get(rule);
    if (entry === undefined) this.#rules.set(rule, (entry = { run: [], skipped: [] }));
    if (reason === undefined) entry.run.push(title);
    else entry.skipped.push({ title, reason });
  }

  /** Notes how a registered test ended. */
  settle(title: string, passed: boolean): void {
    this.#outcomes.set(title, passed);
  }

  /** The rules at least one test of which runs. */
  get covered(): readonly RuleId[] {
    return RULES.map((r) => r.id).filter((id) => (this.#rules.get(id)?.run.length ?? 0) > 0);
  }

  /** The rules of the token-bucket core that no test of this run covers. */
  get missingCore(): readonly RuleId[] {
    const covered = new Set(this.covered);
    return RULES.map((r) => r.id).filter((id) => CORE_LETTERS.some((l) => id.startsWith(`RL-${l}`)) && !covered.has(id));
  }

  /** A one-line summary, the profile test's title. */
  get title(): string {
    const missing = this.missingCore;
    const head = `conformance profile: ${this.covered.length} of ${RULES.length} rules covered`;
    return missing.length === 0
      ? `${head}, the token-bucket core included`
      : `${head}; WARNING: ${missing.length} rules of the token-bucket core are not covered (${missing.join(', ')})`;
  }

  /** The whole profile as text: every rule covered, partly skipped or skipped, and why. */
  text(): string {
    const lines = [this.title, ''];
    for (const { id } of RULES) {
      const entry = this.#rules.get(id);
      if (entry === undefined) {
        lines.push(`  ${id}  not registered (left out by the filter option)`);
        continue;
      }
      const reasons = [...new Set(entry.skipped.map((s) => s.reason))];
      const runs = entry.run.length;
      const state = runs === 0 ? 'SKIPPED' : entry.skipped.length === 0 ? 'covered' : 'partly ';
      const tail = reasons.length === 0 ? '' : ` (skipped ${entry.skipped.length}: ${reasons.join('; ')})`;
      lines.push(`  ${id}  ${state}  ${runs} test(s) run${tail}`);
    }
    const missing = this.missingCore;
    if (missing.length > 0) {
      lines.push(
        '',
        '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
        `!! This run does not cover the token-bucket core (the ${CORE_LETTERS.join(', ')} rules): ${missing.join(', ')}`,
        '!! have no test that ran. A green run proves only the rules listed as covered above.',
        '!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!',
      );
    }
    return lines.join('\n');
  }

  /** The registered tests that did not pass (failed, or never ran in this process). */
  notPassed(): readonly string[] {
    return [...this.#rules.values()].flatMap((e) => e.run).filter((title) => this.#outcomes.get(title) !== true);
  }
}
